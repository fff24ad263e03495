/**
 * The web console (docs/console.md) in Debian's Chromium, driven by playwright-core, against the real service: sign
 * in, create a folder, upload a PDF and an image by a drop event, open page 1 and page 500 of a 1,000-page document,
 * a document named as HTML shows as text and runs nothing, a cross-site POST with the session cookie changes nothing,
 * sign out. Results are checked with the API and qpdf; axe-core checks each screen; screenshots of each screen are
 * kept in a folder the test prints.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAccessible, launchChromium } from '../helpers/browser.js';
import { call } from '../helpers/http.js';
import { makeManyPagesPdf, makePdf, qpdfCheck } from '../helpers/pdf.js';
import { encodeRgbPng } from '../helpers/png.js';
import { freePort } from '../helpers/processes.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const XSS_NAME = '<img src=x onerror=alert(1)>.pdf';
/** Screenshots of each screen: kept after the run (the path is printed), as the test's artifacts. */
const SHOTS = mkdtempSync(path.join(tmpdir(), 'pdfservice-console-screens-'));

describe('the web console in Chromium', () => {
  const server = serverForSuite();
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  const dialogs: string[] = [];
  const imageRequests: string[] = [];

  async function screenshot(name: string): Promise<void> {
    await tab.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    console.log(`console screenshots: ${SHOTS}`);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    tab = await context.newPage();
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    tab.on('request', (request) => {
      if (/\/pages\/\d+\/image/.test(request.url())) imageRequests.push(request.url());
    });
  });
  after(async () => {
    await browser?.close();
  });

  test('the service serves the console: / redirects, CSP and cache headers, ETags', async () => {
    const root = await call(server, 'GET', `${server.baseUrl}/`, { auth: false });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/pdfservice/v1/console/');
    const index = await call(server, 'GET', `${server.baseUrl}/pdfservice/v1/console/`, { auth: false });
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-type') ?? '', /^text\/html/);
    const csp = index.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    // No inline script or style in the page, and every file it loads is the service's own.
    assert.doesNotMatch(index.text, /<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/i);
    const assets = [...index.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 2, index.text);
    for (const asset of assets) {
      assert.match(asset, /^\/pdfservice\/v1\/console\/assets\//);
      const file = await call(server, 'GET', `${server.baseUrl}${asset}`, { auth: false });
      assert.equal(file.status, 200, asset);
      assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const etag = file.headers.get('etag')!;
      assert.match(etag, /^"[^"]+"$/);
      const again = await call(server, 'GET', `${server.baseUrl}${asset}`, { auth: false, headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
    }
    const missing = await call(server, 'GET', `${server.baseUrl}/pdfservice/v1/console/assets/none.js`, { auth: false });
    assert.equal(missing.status, 404);
  });

  test('sign in shows the user and their rights', async () => {
    await tab.goto(`${server.baseUrl}/`);
    await tab.getByLabel('User name').waitFor();
    await screenshot('1-sign-in');
    await assertAccessible(tab, 'sign-in');
    await tab.getByLabel('User name').fill(ADMIN.username);
    await tab.getByLabel('Password').fill('wrong password');
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('alert').waitFor();
    assert.match(await tab.getByRole('alert').innerText(), /password|credentials/i);
    await tab.getByLabel('Password').fill(ADMIN.password);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByTestId('username').waitFor();
    assert.equal(await tab.getByTestId('username').innerText(), ADMIN.username);
    const rights = await tab.getByLabel('Your rights').innerText();
    for (const right of ['GET', 'POST', 'PUT', 'DELETE', 'admin']) assert.ok(rights.includes(right), rights);
  });

  test('create a folder, upload a PDF and an image by a drop, see them listed; delete to the trash', async () => {
    await tab.getByLabel('New folder name').fill('Reports 2026');
    await tab.getByRole('button', { name: 'Create folder' }).click();
    await tab.getByRole('main').getByRole('link', { name: 'Reports 2026' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/Reports%202026')).status, 200, 'the folder exists');
    await tab.getByRole('main').getByRole('link', { name: 'Reports 2026' }).click();
    await tab.getByRole('heading', { name: 'Reports 2026' }).waitFor();

    const pdf = makePdf({ pages: 3, title: 'Quarterly' });
    const png = encodeRgbPng(40, 30, Buffer.alloc(40 * 30 * 3, 0x80));
    const transfer = await tab.evaluateHandle(({ pdf64, png64 }) => {
      const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes(pdf64)], 'quarterly.pdf', { type: 'application/pdf' }));
      data.items.add(new File([bytes(png64)], 'chart.png', { type: 'image/png' }));
      return data;
    }, { pdf64: pdf.toString('base64'), png64: png.toString('base64') });
    await tab.dispatchEvent('[data-testid=dropzone]', 'dragover', { dataTransfer: transfer });
    await tab.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer: transfer });
    await tab.locator('.uploads li[data-state=done]').nth(1).waitFor();
    assert.equal(await tab.locator('.uploads li[data-state=failed]').count(), 0);
    assert.equal(await tab.locator('.uploads progress').count(), 2, 'a progress bar per file');
    await tab.getByRole('link', { name: 'chart.pdf' }).waitFor();
    await screenshot('2-folder-after-upload');
    await assertAccessible(tab, 'folder');

    const listing = (await call(server, 'GET', '/documents/Reports%202026?details=true')).json<{ entries: { name: string; pageCount?: number }[] }>();
    assert.deepEqual(listing.entries.map((e) => [e.name, e.pageCount]).sort(), [['chart.pdf', 1], ['quarterly.pdf', 3]]);
    const stored = await call(server, 'GET', '/documents/Reports%202026/quarterly.pdf');
    assert.deepEqual(stored.bytes, pdf, 'the dropped PDF is stored as it was');
    const chart = await call(server, 'GET', '/documents/Reports%202026/chart.pdf');
    const check = qpdfCheck(chart.bytes);
    assert.ok(check.ok, check.output);

    // The same name again with "Keep both": a second document with a number in its name.
    await tab.getByLabel('When the name exists').selectOption('2');
    await tab.locator('#file-picker').setInputFiles({ name: 'quarterly.pdf', mimeType: 'application/pdf', buffer: pdf });
    await tab.locator('.uploads li[data-state=done]').nth(2).waitFor();
    const after = (await call(server, 'GET', '/documents/Reports%202026')).json<{ entries: { name: string }[] }>();
    assert.equal(after.entries.filter((e) => /^quarterly.*\.pdf$/.test(e.name)).length, 2, JSON.stringify(after.entries));

    await tab.getByRole('button', { name: 'Delete chart.pdf (to the trash)' }).click();
    await tab.getByRole('status').filter({ hasText: 'moved to the trash' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/Reports%202026/chart.pdf')).status, 404);
    const trash = (await call(server, 'GET', '/trash')).json<{ entries: { path: string }[] }>();
    assert.ok(trash.entries.some((e) => e.path.endsWith('chart.pdf')), JSON.stringify(trash));
  });

  test('a 1,000-page document opens at page 1 and at page 500 at once, with thumbnails and properties', async () => {
    const big = makeManyPagesPdf(1000);
    assert.equal((await call(server, 'PUT', '/documents/big/thousand.pdf', { body: big, headers: { 'content-type': 'application/pdf' } })).status, 201);
    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/#/folders/big`);
    await tab.getByRole('link', { name: 'thousand.pdf' }).click();
    const image = tab.getByTestId('page-image');
    await tab.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth > 0 && img.src.includes('/pages/0/image');
    });
    assert.equal(await image.getAttribute('alt'), 'Page 1 of 1000');
    // 100% is 96 dpi: the pages are 300 points wide (makeManyPagesPdf), 400 pixels.
    assert.equal(await image.evaluate((img: HTMLImageElement) => img.naturalWidth), 400);
    assert.match(await tab.locator('.properties').innerText(), /Pages\s+1000/);
    await screenshot('3-viewer-page-1');
    await assertAccessible(tab, 'viewer');

    imageRequests.length = 0;
    await tab.getByLabel('Page number').fill('500');
    await tab.getByRole('button', { name: 'Go' }).click();
    await tab.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth > 0 && img.src.includes('/pages/499/image');
    });
    assert.equal(await image.getAttribute('alt'), 'Page 500 of 1000');
    const indexes = imageRequests.map((url) => Number(/\/pages\/(\d+)\/image/.exec(url)![1]));
    assert.ok(indexes.includes(499), JSON.stringify(indexes));
    assert.ok(indexes.every((i) => i >= 495 && i <= 503), `only page 500 and its neighbours' thumbnails were asked for: ${JSON.stringify(indexes)}`);
    await tab.getByRole('link', { name: 'Page 500' }).waitFor();
    assert.equal(await tab.getByRole('link', { name: 'Page 500' }).getAttribute('aria-current'), 'page');
    await screenshot('4-viewer-page-500');

    // Zoom 200%: the server renders at 192 dpi.
    await tab.getByLabel('Zoom', { exact: true }).selectOption('2');
    await tab.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-testid=page-image]')?.src.includes('dpi=192') ?? false);
    await tab.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid=page-image]')?.naturalWidth ?? 0) === 800);
  });

  test('a document named as HTML shows as text and runs nothing', async () => {
    const name = encodeURIComponent(XSS_NAME.replace(/\.pdf$/, ''));
    assert.equal((await call(server, 'PUT', `/documents/xss/${name}.pdf`, { body: makePdf(), headers: { 'content-type': 'application/pdf' } })).status, 201);
    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/#/folders/xss`);
    const link = tab.getByRole('link', { name: XSS_NAME });
    await link.waitFor();
    assert.equal(await link.innerText(), XSS_NAME);
    assert.equal(await tab.locator('img[src=x]').count(), 0, 'no element made of the name');
    await link.click();
    await tab.getByRole('heading', { name: XSS_NAME }).waitFor();
    await tab.getByTestId('page-image').waitFor();
    assert.equal(await tab.locator('img[src=x]').count(), 0);
    await screenshot('5-xss-name-as-text');
    assert.deepEqual(dialogs, [], 'no dialog opened');
  });

  test('a page of another site cannot use the session cookie to change anything', async () => {
    // localhost and 127.0.0.1 are different sites: the other page posts to the service with the user's cookie.
    const port = await freePort();
    const other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other site</title>'));
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    try {
      const foreign = await context.newPage();
      await foreign.goto(`http://localhost:${port}/`);
      const target = `${server.api}/documents/forged-by-page`;
      const outcome = await foreign.evaluate(async (url) => {
        try {
          // A no-cors PUT is not allowed; a no-cors POST is: a form upload, the browser's simplest forgery.
          const form = new FormData();
          form.append('file', new Blob(['%PDF-1.4\n'], { type: 'application/pdf' }), 'forged.pdf');
          await fetch(url, { method: 'POST', body: form, credentials: 'include', mode: 'no-cors' });
          return 'sent';
        } catch (err) {
          return String(err);
        }
      }, target);
      await foreign.close();
      assert.equal(outcome, 'sent');
      assert.equal((await call(server, 'GET', '/documents/forged-by-page')).status, 404, 'nothing was created');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    // The same cookie from another origin over HTTP: the server refuses it by itself (SameSite aside).
    const cookies = await context.cookies(server.api);
    const session = cookies.find((c) => c.name === 'SESSIONID');
    assert.ok(session, 'the console signed in with a session cookie');
    const forged = await call(server, 'PUT', '/documents/forged', { auth: false, headers: { cookie: `SESSIONID=${session.value}`, origin: 'http://localhost:1' } });
    assert.equal(forged.status, 403, forged.text);
    assert.equal(forged.json().code, 'CROSS_SITE_REQUEST');
  });

  test('sign out ends the session', async () => {
    const session = (await context.cookies(server.api)).find((c) => c.name === 'SESSIONID')!;
    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/`);
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await tab.getByLabel('User name').waitFor();
    const current = await call(server, 'GET', '/sessions/current', { auth: false, headers: { cookie: `SESSIONID=${session.value}` } });
    assert.equal(current.status, 401, 'the old cookie no longer opens the session');
    await screenshot('6-signed-out');
    assert.deepEqual(dialogs, []);
  });
});
