/**
 * Actions and jobs in the web console (docs/console.md#actions), in Debian's Chromium against the real service: the
 * action list and forms are generated from the OpenAPI description the service serves; a text stamp run from its
 * form (checked with pdftotext); OCR of a scanned page followed as a job over SSE until its progress bar is full
 * (pdftotext then finds the words); a long OCR job cancelled (the API says cancelled, the document is unchanged); a
 * stamp the service refuses shows the problem's detail; the jobs list. axe-core on each new screen; screenshots kept.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible as assertAccessibleIn, launchChromium, signInConsole } from '../helpers/browser.js';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { imagePdf, renderGray } from '../helpers/ocr-fixtures.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const SHOTS = mkdtempSync(path.join(tmpdir(), 'pdfservice-console-actions-screens-'));

/** A scan: a page of text rendered to gray pixels at 200 dpi and stored as an image-only page (no text of its own). */
function scanOf(text: string, pages = 1): Buffer {
  const image = renderGray(makePdf({ text: () => text }), 0, 200);
  return imagePdf(Array.from({ length: pages }, () => ({ image, dpi: 200 })));
}

describe('actions and jobs in the web console', () => {
  const server = serverForSuite();
  let browser: Browser;
  let tab: Page;
  const eventStreams: string[] = [];

  const assertAccessible = (screen: string) => assertAccessibleIn(tab, screen);
  async function screenshot(name: string): Promise<void> {
    await tab.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }
  /** The actions screen of a document with one action's generated form. */
  async function openAction(doc: string, action: string): Promise<void> {
    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/#/actions?${new URLSearchParams({ doc }).toString()}`);
    await tab.getByLabel('Action', { exact: true }).selectOption(action);
    await tab.getByRole('heading', { name: action }).waitFor();
  }
  /** The job shown under the form: its id, from the link to its own page. */
  async function shownJobId(): Promise<string> {
    const href = await tab.getByRole('link', { name: 'This job\'s own page' }).getAttribute('href');
    return new URLSearchParams(href!.replace(/^#\/jobs\?/, '')).get('id')!;
  }
  async function jobState(state: string): Promise<void> {
    await tab.getByTestId('job-state').filter({ hasText: new RegExp(`^${state}`) }).waitFor({ timeout: 300_000 });
  }

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    console.log(`console screenshots: ${SHOTS}`);
    browser = await launchChromium();
    tab = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    tab.on('request', (request) => {
      if (/\/jobs\/[0-9a-f]+\/events$/.test(request.url())) eventStreams.push(request.url());
    });
    await signInConsole(tab, `${server.baseUrl}/`, ADMIN);
  });
  after(async () => {
    await browser?.close();
  });

  test('every document and page action of the served OpenAPI description is offered, each with its form', async () => {
    assert.equal((await putPdf(server, 'stamp/plain.pdf', makePdf({ pages: 2 }))).status, 201);
    const description = (await call(server, 'GET', '/openapi.json')).json();
    const bodyActions = (route: string) => Object.keys(description.paths[route].post.requestBody.content['application/json'].schema.properties);
    // The body actions of both routes, then the preflight check (its form from the query parameters of its route).
    const expected = [...bodyActions('/pdfservice/v1/documents/{filePath}.pdf'), ...bodyActions('/pdfservice/v1/documents/{filePath}.pdf/pages'), 'Preflight'];
    assert.ok(expected.includes('OCRAction') && expected.includes('TextStampAction') && expected.includes('OptimizeAction'), expected.join());

    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/#/view?doc=stamp/plain.pdf`);
    await tab.getByRole('link', { name: 'Actions on this document' }).click();
    const select = tab.getByLabel('Action', { exact: true });
    await select.waitFor();
    const offered = await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    assert.deepEqual(offered, expected);

    // A nested object (OptimizeAction's profile) is a group of its own fields, with the schema's description as help.
    await select.selectOption('OptimizeAction');
    await tab.getByRole('group', { name: 'profile' }).waitFor();
    const jpegQuality = tab.getByRole('group', { name: 'colorImageHandler' }).getByLabel('jpegQuality');
    assert.equal(await jpegQuality.getAttribute('type'), 'number');
    const optimize = description.paths['/pdfservice/v1/documents/{filePath}.pdf'].post.requestBody.content['application/json'].schema.properties.OptimizeAction;
    const quality = optimize.properties.profile.properties.colorImageHandler.properties.jpegQuality;
    assert.equal(await jpegQuality.getAttribute('min'), String(quality.minimum));
    assert.equal(await jpegQuality.getAttribute('max'), String(quality.maximum));
    const help = await tab.locator(`#${await jpegQuality.getAttribute('aria-describedby')}`).innerText();
    assert.ok(help.includes(quality.description), help);
    await screenshot('actions-optimize-form');
    await assertAccessible('actions (OptimizeAction form)');
  });

  test('a text stamp run from its generated form is on the stored document (pdftotext)', async () => {
    await openAction('stamp/plain.pdf', 'TextStampAction');
    await tab.getByLabel('text (required)', { exact: true }).fill('APPROVED BY CONSOLE');
    await tab.getByLabel('x (required)', { exact: true }).fill('72');
    await tab.getByLabel('y (required)', { exact: true }).fill('300');
    await tab.getByLabel('pageIndex', { exact: true }).fill('0');
    await tab.getByLabel('fontStyle', { exact: true }).selectOption('bold');
    // Keyboard: the submit button is reached and pressed without the mouse.
    await tab.getByRole('button', { name: 'Run TextStampAction' }).focus();
    await tab.keyboard.press('Enter');
    await jobState('succeeded');
    await tab.getByRole('link', { name: 'Open stamp/plain.pdf' }).waitFor();
    const stored = await storedBytes(server, 'stamp/plain.pdf');
    const pages = pdftotext(stored).split('\f');
    assert.match(pages[0]!, /APPROVED BY CONSOLE/);
    assert.doesNotMatch(pages[1]!, /APPROVED/);
    await screenshot('actions-stamp-done');
    await assertAccessible('actions (a finished job)');
  });

  test('a stamp the service refuses shows the problem\'s detail, and the document is unchanged', async () => {
    const before = sha256(await storedBytes(server, 'stamp/plain.pdf'));
    const body = { TextStampAction: { text: 'x', x: 10, y: 10, fontName: 'NoSuchFont' } };
    const refused = await call(server, 'POST', '/documents/stamp/plain.pdf/pages', { body, headers: { prefer: 'respond-async' } });
    assert.equal(refused.status, 400, refused.text);
    const detail = refused.json().detail as string;
    assert.ok(detail);

    await openAction('stamp/plain.pdf', 'TextStampAction');
    await tab.getByLabel('text (required)', { exact: true }).fill('x');
    await tab.getByLabel('x (required)', { exact: true }).fill('10');
    await tab.getByLabel('y (required)', { exact: true }).fill('10');
    await tab.getByLabel('fontName', { exact: true }).fill('NoSuchFont');
    await tab.getByRole('button', { name: 'Run TextStampAction' }).click();
    await tab.getByTestId('problem-detail').waitFor();
    assert.equal(await tab.getByTestId('problem-detail').innerText(), detail);
    assert.match(await tab.getByRole('alert').innerText(), new RegExp(refused.json().code));
    assert.equal(sha256(await storedBytes(server, 'stamp/plain.pdf')), before);
    await screenshot('actions-refused');
    await assertAccessible('actions (a refused action)');
  });

  test('OCR of a scanned page runs as a job followed over SSE: the bar reaches the end, pdftotext finds the text', async () => {
    const scan = scanOf('Quarterly revenue grew');
    assert.equal(pdftotext(scan).trim(), '', 'no text before OCR');
    assert.equal((await putPdf(server, 'scan/letter.pdf', scan)).status, 201);
    await openAction('scan/letter.pdf', 'OCRAction');
    assert.equal(await tab.getByRole('progressbar').count(), 0);
    // Every value the progress bar shows, from its first render (the job the 202 answered, 0%) to the end: watched
    // from before the click, so that no value is missed however fast the job runs.
    await tab.evaluate(() => {
      const seen: number[] = [];
      (globalThis as unknown as { seenProgress: number[] }).seenProgress = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('progress');
        if (bar && seen.at(-1) !== bar.value) seen.push(bar.value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await tab.getByRole('button', { name: 'Run OCRAction' }).click();
    await tab.getByTestId('job').waitFor();
    const id = await shownJobId();
    await jobState('succeeded');
    const seen = await tab.evaluate(() => (globalThis as unknown as { seenProgress: number[] }).seenProgress);
    assert.equal(seen[0], 0, seen.join());
    assert.equal(seen.at(-1), 100, seen.join());
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'the bar never goes back');
    assert.equal(await tab.getByRole('progressbar').evaluate((bar) => (bar as HTMLProgressElement).value), 100);
    assert.equal(await tab.getByTestId('job-progress').innerText(), '1 of 1 pages (100%)');
    assert.ok(eventStreams.some((url) => url.endsWith(`/jobs/${id}/events`)), `the console followed /jobs/${id}/events: ${eventStreams.join()}`);
    const job = (await call(server, 'GET', `/jobs/${id}`)).json();
    assert.equal(job.state, 'succeeded');
    assert.equal(job.action, 'OCRAction');
    assert.match(pdftotext(await storedBytes(server, 'scan/letter.pdf')), /Quarterly\s+revenue\s+grew/);
    await screenshot('actions-ocr-done');
  });

  test('a long OCR job is cancelled from the console: the API says cancelled, the document is unchanged', async () => {
    const scan = scanOf('A long scan to cancel', 40);
    assert.equal((await putPdf(server, 'scan/long.pdf', scan)).status, 201);
    const before = sha256(await storedBytes(server, 'scan/long.pdf'));
    await openAction('scan/long.pdf', 'OCRAction');
    await tab.getByLabel('dpi', { exact: true }).fill('600');
    await tab.getByRole('button', { name: 'Run OCRAction' }).click();
    await tab.getByRole('button', { name: 'Cancel job' }).waitFor();
    const id = await shownJobId();
    await tab.getByRole('button', { name: 'Cancel job' }).click();
    await jobState('cancelled');
    const job = (await call(server, 'GET', `/jobs/${id}`)).json();
    assert.equal(job.state, 'cancelled');
    assert.equal(await tab.getByRole('button', { name: 'Cancel job' }).count(), 0, 'no cancel button once ended');
    assert.match(await tab.getByRole('alert').innerText(), new RegExp(job.error.title));
    assert.equal(sha256(await storedBytes(server, 'scan/long.pdf')), before);
    await screenshot('actions-ocr-cancelled');
  });

  test('a preflight from its generated form shows the report: rule, what it requires, page and object', async () => {
    const api = (await call(server, 'GET', '/documents/stamp/plain.pdf/preflight-results?profile=pdfx1a2001')).json();
    assert.equal(api.compliant, false);
    await openAction('stamp/plain.pdf', 'Preflight');
    await tab.getByLabel('profile (required)', { exact: true }).selectOption('pdfx1a2001');
    await tab.getByRole('button', { name: 'Run Preflight' }).click();
    await tab.getByTestId('report').waitFor();
    assert.equal(await tab.getByRole('heading', { name: /^Report:/ }).innerText(), 'Report: pdfx1a2001, not compliant');
    const rows = await tab.getByTestId('report').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
    assert.equal(rows.length, api.rules.length);
    api.rules.forEach((rule: { clause: string; description: string; failedChecks: number; locations: { pageIndex?: number; objectNumber?: number }[] }, i: number) => {
      const [where, what, failed, places] = rows[i]!;
      assert.ok(where!.includes(rule.clause), where!);
      assert.equal(what, rule.description);
      assert.equal(failed, String(rule.failedChecks));
      const first = rule.locations[0];
      if (first?.pageIndex !== undefined) assert.ok(places!.includes(`page ${first.pageIndex + 1}`), places!);
      if (first?.objectNumber !== undefined) assert.ok(places!.includes(`object ${first.objectNumber}`), places!);
    });
    await screenshot('actions-preflight-report');
    await assertAccessible('actions (a preflight report)');
  });

  test('the jobs list shows the user\'s jobs, newest first, each linked to its live view', async () => {
    await tab.getByRole('link', { name: 'Jobs', exact: true }).click();
    await tab.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
    const rows = tab.locator('table.entries tbody tr');
    await rows.first().waitFor();
    const listed = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(0, 3).map((td) => td.textContent)));
    const api = (await call(server, 'GET', '/jobs')).json().jobs.map((j: { action: string; document: string; state: string }) => [j.action, j.document, j.state]);
    assert.deepEqual(listed, api);
    assert.deepEqual(listed.slice(0, 2), [['OCRAction', 'scan/long.pdf', 'cancelled'], ['OCRAction', 'scan/letter.pdf', 'succeeded']]);
    await screenshot('jobs-list');
    await assertAccessible('jobs list');
    await tab.getByRole('link', { name: 'OCRAction' }).nth(1).click();
    await jobState('succeeded');
    await tab.getByRole('link', { name: 'Open scan/letter.pdf' }).waitFor();
    await screenshot('job-view');
    await assertAccessible('job');
  });
});
