/**
 * Every screen of the console at 200% browser zoom (docs/console.md#200-zoom), in Debian's Chromium against the real
 * service: a 1280 x 900 window at 200% lays pages out in 640 x 450 CSS pixels, so each screen is shown at that size
 * with a device scale of 2 and checked: the page body does not scroll sideways, and every control (link, button,
 * field) is visible when scrolled to, inside the window, not covered by another element (what the point at its
 * centre hits is the control itself) and not clipped by a box around it. The same screens are shown at 1280 x 900
 * and their screenshots kept (the folder the test prints); with PDFSERVICE_CONSOLE_DOC_IMAGES=<folder> they are also
 * written there, reduced to 64 colours (ImageMagick), as the images of docs/console.md.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, signInConsole } from '../helpers/browser.js';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const SHOTS = mkdtempSync(path.join(tmpdir(), 'pdfservice-console-zoom-screens-'));
const DOC_IMAGES = process.env.PDFSERVICE_CONSOLE_DOC_IMAGES;

function ok(reply: Reply, what: string): Reply {
  assert.ok(reply.status >= 200 && reply.status < 300, `${what}: ${reply.status} ${reply.text}`);
  return reply;
}

/**
 * What is wrong with the screen shown, in words (an empty list when nothing): the body's sideways scroll, and each
 * control out of the window, covered or clipped once scrolled into view. Controls in the layers over the page image
 * (annotation boxes, form inputs, the text layer) are checked to be inside the page's own scroll box instead: they
 * sit on the image by design, which scrolls in its box at any zoom.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth}`);
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.getAttribute('id') ?? '').trim().slice(0, 40) || el.outerHTML.slice(0, 60)}"`;
    const controls = Array.from(document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'));
    for (const control of controls) {
      if (control.closest('.visually-hidden') || control.classList.contains('visually-hidden')) continue;
      // Not shown at all (display: none, visibility: hidden, the inside of a closed <details>): nothing to reach.
      if (!control.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) continue;
      control.scrollIntoView({ block: 'center', inline: 'center' });
      const box = control.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) continue;
      const layer = control.closest('.layer, .text-layer');
      if (layer) {
        const scroller = control.closest('.page')?.getBoundingClientRect();
        if (scroller && (box.right <= scroller.left || box.left >= scroller.right)) problems.push(`${name(control)} lies outside the page's box`);
        continue;
      }
      if (box.left < -1 || box.right > innerWidth + 1) problems.push(`${name(control)} is cut off at the side (${Math.round(box.left)} to ${Math.round(box.right)} of ${innerWidth})`);
      // Inputs whose text is wider than their box scroll by themselves; a box around the control that hides part of it does not.
      for (let up = control.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = up.getBoundingClientRect();
        if (box.left < clip.left - 1 || box.right > clip.right + 1 || box.top < clip.top - 1 || box.bottom > clip.bottom + 1) {
          if (up.scrollWidth <= up.clientWidth && up.scrollHeight <= up.clientHeight) problems.push(`${name(control)} is clipped by ${up.tagName.toLowerCase()}.${up.className}`);
        }
        break;
      }
      const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      const label = control.id ? document.querySelector(`label[for="${CSS.escape(control.id)}"]`) : null;
      if (hit && !control.contains(hit) && !(hit === label || label?.contains(hit)) && !hit.contains(control)) problems.push(`${name(control)} is covered by ${name(hit)}`);
    }
    window.scrollTo(0, 0);
    return problems;
  });
}

describe('the console at 200% zoom, and its screenshots', () => {
  const server = serverForSuite();
  let browser: Browser;
  let wide: BrowserContext;
  let zoomed: BrowserContext;
  let tab: Page;
  let narrow: Page;

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    console.log(`console screenshots: ${SHOTS}`);
    if (DOC_IMAGES) mkdirSync(DOC_IMAGES, { recursive: true });
    browser = await launchChromium();
    wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // 200% of a 1280 x 900 window: the page lays out in 640 x 450 CSS pixels, each drawn as 2 x 2 device pixels.
    zoomed = await browser.newContext({ viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });
    tab = await wide.newPage();
    narrow = await zoomed.newPage();
    // What the screens show: a folder with documents, one of them with two versions and a form, a deleted one, a job.
    ok(await putPdf(server, 'reports/2026/q1.pdf', makePdf({ pages: 3, title: 'Quarter 1', text: (i) => `Quarterly report, page ${i + 1}` })), 'upload');
    ok(await putPdf(server, 'reports/2026/q1.pdf', makePdf({ pages: 3, title: 'Quarter 1', text: (i) => `Quarterly report, revised, page ${i + 1}` })), 'second version');
    ok(await putPdf(server, 'reports/2026/form.pdf', makeFormPdf()), 'form');
    ok(await putPdf(server, 'reports/2026/old notes.pdf', makePdf()), 'upload');
    ok(await call(server, 'DELETE', '/documents/reports/2026/old%20notes.pdf'), 'delete');
    ok(await call(server, 'POST', '/documents/reports/2026/q1.pdf/pages', { body: { TextStampAction: { text: 'DRAFT', x: 72, y: 72 } }, headers: { prefer: 'respond-async' } }), 'a job');
  });
  after(async () => {
    await browser?.close();
  });

  /** Opens `hash` in both windows, waits for `ready` in each, screenshots the wide one and checks the zoomed one. */
  async function screen(name: string, hash: string, ready: (page: Page) => Promise<void>): Promise<string[]> {
    const problems: string[] = [];
    for (const page of [tab, narrow]) {
      await page.goto(`${server.baseUrl}/pdfservice/v1/console/${hash}`);
      await ready(page);
      await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
      if (page === tab) {
        const file = path.join(SHOTS, `${name}.png`);
        await page.screenshot({ path: file });
        if (DOC_IMAGES) execFileSync('convert', [file, '-strip', '-colors', '64', '-define', 'png:compression-level=9', path.join(DOC_IMAGES, `console-${name}.png`)]);
      } else {
        await page.screenshot({ path: path.join(SHOTS, `${name}-200.png`), fullPage: true });
        problems.push(...(await layoutProblems(page)).map((p) => `${name}: ${p}`));
      }
    }
    return problems;
  }

  test('every screen at 200%: no sideways scroll of the page, every control visible, inside the window and not covered', async () => {
    const problems: string[] = [];
    const heading = (text: string | RegExp) => async (page: Page) => page.getByRole('heading', { name: text, level: 1 }).first().waitFor();
    problems.push(...(await screen('sign-in', '', async (page) => page.getByLabel('User name').waitFor())));
    for (const page of [tab, narrow]) await signInConsole(page, `${server.baseUrl}/pdfservice/v1/console/`, ADMIN);
    problems.push(...(await screen('folders', '#/folders/reports/2026', async (page) => page.getByRole('main').getByRole('link', { name: 'q1.pdf' }).waitFor())));
    const viewer = async (page: Page) => {
      await page.getByTestId('page-image').waitFor();
      await page.getByRole('link', { name: 'Page 3' }).waitFor();
    };
    problems.push(...(await screen('viewer', '#/view?doc=reports/2026/q1.pdf&page=1', viewer)));
    problems.push(...(await screen('viewer-form', '#/view?doc=reports/2026/form.pdf&page=1', async (page) => {
      await viewer(page).catch(() => page.getByTestId('page-image').waitFor());
      await page.getByRole('button', { name: 'Fill in the form' }).click();
      await page.getByLabel('comment', { exact: true }).waitFor();
    })));
    problems.push(...(await screen('viewer-redact', '#/view?doc=reports/2026/q1.pdf&page=1', async (page) => {
      await viewer(page);
      await page.getByRole('button', { name: 'Redact' }).click();
      await page.getByLabel('Text to redact').waitFor();
      // The redaction panel is under the page: the screenshot shows it.
      await page.getByLabel('Text to redact').scrollIntoViewIfNeeded();
    })));
    problems.push(...(await screen('versions', '#/versions?doc=reports/2026/q1.pdf', async (page) => page.getByRole('button', { name: /^Restore/ }).first().waitFor())));
    problems.push(...(await screen('actions', '#/actions?doc=reports/2026/q1.pdf&action=OCRAction', async (page) => page.getByRole('button', { name: /Run|Start|Send/ }).first().waitFor())));
    problems.push(...(await screen('jobs', '#/jobs', async (page) => page.getByRole('main').getByRole('link').first().waitFor())));
    problems.push(...(await screen('account', '#/account', heading(/account/i))));
    problems.push(...(await screen('users', '#/users', async (page) => page.getByRole('button', { name: 'Create user' }).waitFor())));
    problems.push(...(await screen('trash', '#/trash', async (page) => page.getByRole('button', { name: /^Restore/ }).first().waitFor())));
    assert.deepEqual(problems, [], `at 200% zoom (screenshots in ${SHOTS})`);
  });
});
