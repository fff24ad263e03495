/**
 * The console's folder tree, rename, move, copy and delete, the drop of files and folders, and the viewer's text
 * layer, search and password prompt (docs/console.md), in Debian's Chromium against the real service. Every change is
 * checked through the API; the text selected in the page against pdftotext; axe-core on each new screen state.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, launchChromium, signInConsole } from '../helpers/browser.js';
import { call } from '../helpers/http.js';
import { encryptPdf, makePdf, withTempFile } from '../helpers/pdf.js';
import { serializePdf } from '../helpers/pdf-writer.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const SHOTS = mkdtempSync(path.join(tmpdir(), 'pdfservice-console-folders-screens-'));

/** Three letter-size pages of three lines each (Helvetica 14 pt, baselines 700, 680, 660); "zebrafish" only on page 3. */
const LINES = [
  ['The quick brown fox jumps', 'over the lazy dog near', 'the river bank today.'],
  ['Nothing worth finding here', 'apart from plain words', 'written in three lines.'],
  ['A zebrafish swims past', 'the third page of this', 'short test document.'],
];
function linesPdf(): Buffer {
  const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${LINES.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${LINES.length} >>`, font];
  for (const lines of LINES) {
    const content = `BT /F1 14 Tf 72 700 Td (${lines[0]}) Tj 0 -20 Td (${lines[1]}) Tj 0 -20 Td (${lines[2]}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length + 2} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  return serializePdf(objects, '/Root 1 0 R');
}

/** pdftotext's words in an area of page 1, in points from the top left (-r 72). */
function pdftotextWords(pdf: Buffer, x: number, y: number, w: number, h: number): string[] {
  return withTempFile(pdf, (file) => execFileSync('pdftotext', ['-f', '1', '-l', '1', '-r', '72', '-x', String(x), '-y', String(y), '-W', String(w), '-H', String(h), file, '-'], { encoding: 'utf8' }))
    .split(/\s+/).filter(Boolean);
}

async function put(server: Parameters<typeof call>[0], docPath: string, body: Buffer): Promise<void> {
  const answer = await call(server, 'PUT', `/documents/${docPath}`, { body, headers: { 'content-type': 'application/pdf' } });
  assert.equal(answer.status, 201, answer.text);
}

describe('the console: folders, uploads of folders, text, search and passwords', () => {
  const server = serverForSuite();
  let browser: Browser;
  let tab: Page;
  const dialogs: string[] = [];
  const shot = (name: string) => tab.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const console = (hash: string) => tab.goto(`${server.baseUrl}/pdfservice/v1/console/${hash}`);

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    process.stdout.write(`console screenshots: ${SHOTS}\n`);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    tab = await context.newPage();
    tab.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.dismiss(); });
    await signInConsole(tab, `${server.baseUrl}/pdfservice/v1/console/`, ADMIN);
  });
  after(async () => {
    await browser?.close();
    assert.deepEqual(dialogs, []);
  });

  test('the folder tree opens by keyboard and leads to a folder', async () => {
    for (const folder of ['projects/2026/q1', 'projects/2025', 'archive']) assert.ok((await call(server, 'PUT', `/documents/${folder}`)).status < 300);
    await console('#/folders/');
    await tab.reload();
    const tree = tab.getByRole('navigation', { name: 'Folder tree' });
    await tree.getByRole('link', { name: 'projects' }).waitFor();
    const toggle = tree.getByRole('button', { name: 'Sub-folders of projects' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.focus();
    await tab.keyboard.press('Enter');
    await tree.getByRole('link', { name: '2026' }).waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await tree.getByRole('link', { name: '2025' }).count(), 1);
    await tree.getByRole('button', { name: 'Sub-folders of 2026' }).focus();
    await tab.keyboard.press('Space');
    await tree.getByRole('link', { name: 'q1' }).focus();
    await tab.keyboard.press('Enter');
    await tab.getByRole('heading', { name: 'q1', level: 1 }).waitFor();
    assert.equal(await tree.getByRole('link', { name: 'q1' }).getAttribute('aria-current'), 'page');
    // Reloaded there, the tree opens the way to the folder shown.
    await tab.reload();
    await tab.getByRole('navigation', { name: 'Folder tree' }).getByRole('link', { name: 'q1' }).waitFor();
    await shot('1-tree');
    await assertAccessible(tab, 'folder tree');
  });

  test('rename, move, copy and delete a document and a folder, checked through the API', async () => {
    const memo = makePdf({ pages: 2, title: 'Memo' });
    await put(server, 'work/memo.pdf', memo);
    await console('#/folders/work');
    await tab.getByRole('button', { name: 'Rename memo.pdf' }).click();
    await assertAccessible(tab, 'folder while renaming');
    await tab.getByLabel('New name of memo.pdf').fill('minutes');
    await tab.getByRole('button', { name: 'Save name' }).click();
    await tab.getByRole('link', { name: 'minutes.pdf' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/work/memo.pdf')).status, 404);
    assert.deepEqual((await call(server, 'GET', '/documents/work/minutes.pdf')).bytes, memo);

    // Copy in the same folder: "minutes (copy).pdf".
    await tab.getByRole('button', { name: 'Copy minutes.pdf' }).click();
    await tab.getByRole('button', { name: 'Copy here: work' }).click();
    await tab.getByRole('link', { name: 'minutes (copy).pdf' }).waitFor();
    assert.deepEqual((await call(server, 'GET', '/documents/work/minutes%20(copy).pdf')).bytes, memo);

    // Move to a folder picked in the tree.
    await tab.getByRole('button', { name: 'Move minutes.pdf' }).click();
    await tab.getByRole('group', { name: 'Move minutes.pdf' }).waitFor();
    await shot('2-move-pick');
    await assertAccessible(tab, 'folder while picking the target');
    await tab.getByRole('button', { name: 'Move here: archive' }).click();
    await tab.getByRole('status').filter({ hasText: 'moved to archive/minutes.pdf' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/work/minutes.pdf')).status, 404);
    assert.deepEqual((await call(server, 'GET', '/documents/archive/minutes.pdf')).bytes, memo);

    // A folder copied (its documents copied into a new folder), renamed, moved, then deleted to the trash.
    await console('#/folders/');
    await tab.getByRole('button', { name: 'Copy archive' }).click();
    await tab.getByRole('button', { name: 'Copy here: work' }).click();
    await tab.getByRole('status').filter({ hasText: 'copied to work/archive' }).waitFor();
    assert.deepEqual((await call(server, 'GET', '/documents/work/archive/minutes.pdf')).bytes, memo);
    assert.deepEqual((await call(server, 'GET', '/documents/archive/minutes.pdf')).bytes, memo, 'the original stays');

    await console('#/folders/work');
    await tab.getByRole('button', { name: 'Rename archive' }).click();
    await tab.getByLabel('New name of archive').fill('old');
    await tab.getByRole('button', { name: 'Save name' }).click();
    await tab.getByRole('main').getByRole('link', { name: 'old', exact: true }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/work/archive')).status, 404);
    assert.deepEqual((await call(server, 'GET', '/documents/work/old/minutes.pdf')).bytes, memo);

    await tab.getByRole('button', { name: 'Move old' }).click();
    await tab.getByRole('button', { name: 'Move here: projects' }).click();
    await tab.getByRole('status').filter({ hasText: 'moved to projects/old' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/work/old')).status, 404);
    assert.deepEqual((await call(server, 'GET', '/documents/projects/old/minutes.pdf')).bytes, memo);

    // A move onto a name that exists: the service's 409 shown, nothing moved.
    await put(server, 'archive/minutes (copy).pdf', makePdf({ title: 'Other' }));
    await tab.getByRole('button', { name: 'Move minutes (copy).pdf' }).click();
    await tab.getByRole('button', { name: 'Move here: archive' }).click();
    await tab.getByRole('alert').waitFor();
    assert.match(await tab.getByRole('alert').innerText(), /^Move of “minutes \(copy\)\.pdf”: .*exist/i);
    assert.deepEqual((await call(server, 'GET', '/documents/work/minutes%20(copy).pdf')).bytes, memo);

    await console('#/folders/projects');
    await tab.getByRole('button', { name: 'Delete old (to the trash)' }).click();
    await tab.getByRole('status').filter({ hasText: 'moved to the trash' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents/projects/old')).status, 404);
    const trash = (await call(server, 'GET', '/trash')).json<{ entries: { path: string }[] }>();
    assert.ok(trash.entries.some((e) => /projects\/old$/.test(e.path)), JSON.stringify(trash));
  });

  test('a drop of two files and a folder with a sub-folder: folders made, a progress bar per file; conflicts by the naming mode', async () => {
    await console('#/folders/');
    await tab.getByLabel('New folder name').fill('inbox');
    await tab.getByRole('button', { name: 'Create folder' }).click();
    await console('#/folders/inbox');
    await tab.getByRole('heading', { name: 'inbox', level: 1 }).waitFor();
    const pdfs = [1, 2, 3, 4].map((n) => makePdf({ pages: n, title: `Doc ${n}` }));
    // A DataTransfer whose items give FileSystemEntry objects (webkitGetAsEntry), as a dropped folder gives them: the
    // page cannot make a real directory entry, so the entries are made here with the interface the console reads.
    const dropInPage = (files: { name: string; b64: string; dir?: string }[]) => tab.evaluate((list) => {
      const file = (f: { name: string; b64: string }) => new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: 'application/pdf' });
      const fileEntry = (f: File) => ({ isFile: true, isDirectory: false, name: f.name, file: (ok: (f: File) => void) => ok(f) });
      const dirEntry = (name: string, children: unknown[]) => {
        let read = false;
        return { isFile: false, isDirectory: true, name, createReader: () => ({ readEntries: (ok: (e: unknown[]) => void) => { ok(read ? [] : children); read = true; } }) };
      };
      const top: unknown[] = [];
      const plain: File[] = [];
      const dirs = new Map<string, unknown[]>();
      for (const f of list) {
        if (!f.dir) { const made = file(f); plain.push(made); top.push(fileEntry(made)); continue; }
        const [head, ...rest] = f.dir.split('/');
        if (!dirs.has(head!)) { dirs.set(head!, []); }
        let children = dirs.get(head!)!;
        for (const sub of rest) { const inner: unknown[] = []; children.push(dirEntry(sub, inner)); children = inner; }
        children.push(fileEntry(file(f)));
      }
      for (const [name, children] of dirs) top.push(dirEntry(name, children));
      const items = top.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry }));
      const event = new DragEvent('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { items, files: plain, types: ['Files'] } });
      document.querySelector('[data-testid=dropzone]')!.dispatchEvent(event);
    }, files);
    await dropInPage([
      { name: 'one.pdf', b64: pdfs[0]!.toString('base64') },
      { name: 'two.pdf', b64: pdfs[1]!.toString('base64') },
      { name: 'three.pdf', b64: pdfs[2]!.toString('base64'), dir: 'scans' },
      { name: 'four.pdf', b64: pdfs[3]!.toString('base64'), dir: 'scans/2026' },
    ]);
    await tab.locator('.uploads li[data-state=done]').nth(3).waitFor();
    const rows = await tab.locator('.uploads li').evaluateAll((lis) => lis.map((li) => {
      const bar = li.querySelector('progress')!;
      return [li.querySelector('.name')!.textContent, li.getAttribute('data-state'), bar.value === bar.max, bar.getAttribute('aria-label')];
    }));
    assert.deepEqual(rows.sort(), [
      ['one.pdf', 'done', true, 'Upload of one.pdf'], ['scans/2026/four.pdf', 'done', true, 'Upload of scans/2026/four.pdf'],
      ['scans/three.pdf', 'done', true, 'Upload of scans/three.pdf'], ['two.pdf', 'done', true, 'Upload of two.pdf'],
    ].sort());
    assert.deepEqual((await call(server, 'GET', '/documents/inbox/one.pdf')).bytes, pdfs[0]);
    assert.deepEqual((await call(server, 'GET', '/documents/inbox/two.pdf')).bytes, pdfs[1]);
    assert.deepEqual((await call(server, 'GET', '/documents/inbox/scans/three.pdf')).bytes, pdfs[2]);
    assert.deepEqual((await call(server, 'GET', '/documents/inbox/scans/2026/four.pdf')).bytes, pdfs[3]);
    await tab.getByRole('link', { name: 'scans' }).first().waitFor();
    await shot('3-folder-drop');
    await assertAccessible(tab, 'folder after a folder drop');

    // The same name again: refused (the 409 shown on that file's row, the document unchanged), then replaced.
    const newer = makePdf({ pages: 5, title: 'Newer' });
    await tab.getByLabel('When the name exists').selectOption('0');
    await dropInPage([{ name: 'one.pdf', b64: newer.toString('base64') }]);
    const refused = tab.locator('.uploads li[data-state=failed]');
    await refused.waitFor();
    assert.equal(await refused.locator('.name').innerText(), 'one.pdf');
    assert.match(await refused.locator('.error').innerText(), /exist/i);
    assert.deepEqual((await call(server, 'GET', '/documents/inbox/one.pdf')).bytes, pdfs[0]);
    await tab.getByLabel('When the name exists').selectOption('1');
    await dropInPage([{ name: 'one.pdf', b64: newer.toString('base64') }]);
    await tab.locator('.uploads li[data-state=done]').nth(4).waitFor();
    assert.deepEqual((await call(server, 'GET', '/documents/inbox/one.pdf')).bytes, newer);
  });

  test('text selected over the page image is pdftotext\'s words for that area', async () => {
    const pdf = linesPdf();
    await put(server, 'texts/lines.pdf', pdf);
    await console('#/view?doc=texts/lines.pdf&page=1');
    const layer = tab.getByTestId('text-layer');
    await layer.locator('span').first().waitFor();
    const spans = layer.locator('span');
    assert.deepEqual(await spans.evaluateAll((all) => all.map((s) => s.textContent!.trim())), LINES[0]!.join(' ').split(' '));
    // Drag from the start of line 1 to the end of line 2.
    const boxes = await spans.evaluateAll((all) => all.map((s) => s.getBoundingClientRect().toJSON() as DOMRect));
    const first = boxes[0]!;
    const last = boxes[LINES[0]![0]!.split(' ').length + LINES[0]![1]!.split(' ').length - 1]!;
    await tab.mouse.move(first.left + 1, first.top + 6);
    await tab.mouse.down();
    await tab.mouse.move(last.left + last.width / 2, last.top + 6, { steps: 5 });
    await tab.mouse.move(last.right - 1, last.top + 6, { steps: 2 });
    await tab.mouse.up();
    const selected = (await tab.evaluate(() => getSelection()!.toString())).split(/\s+/).filter(Boolean);
    // Lines 1 and 2 in points from the top: baselines at 92 and 112, line 3's glyphs from about 122 down.
    assert.deepEqual(selected, pdftotextWords(pdf, 0, 78, 612, 40));
    assert.deepEqual(selected, [...LINES[0]![0]!.split(' '), ...LINES[0]![1]!.split(' ')]);
    await shot('4-text-selected');
    await assertAccessible(tab, 'viewer with its text layer');
  });

  test('a search finds a word on page 3, goes there and marks it', async () => {
    await console('#/view?doc=texts/lines.pdf&page=1');
    await tab.getByLabel('Search in the document').fill('Zebrafish');
    await tab.getByRole('button', { name: 'Search', exact: true }).click();
    await tab.getByTestId('search-status').filter({ hasText: 'Hit 1 of 1, on page 3' }).waitFor();
    await tab.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-testid=page-image]')?.src.includes('/pages/2/image') ?? false);
    const current = tab.locator('[data-testid=text-layer] .hit.current');
    await current.waitFor();
    assert.equal((await current.innerText()).trim(), 'zebrafish');
    assert.equal(await tab.locator('[data-testid=text-layer] .hit').count(), 1);
    assert.equal(await tab.getByRole('link', { name: 'Page 3' }).getAttribute('aria-current'), 'page');
    // "the" is 3 times on page 1 and once on page 3: the search starts at the page shown (3), "Next hit" wraps to page 1.
    await tab.getByLabel('Search in the document').fill('the');
    await tab.getByRole('button', { name: 'Search', exact: true }).click();
    await tab.getByTestId('search-status').filter({ hasText: 'Hit 4 of 4, on page 3' }).waitFor();
    await tab.getByRole('button', { name: 'Next hit' }).click();
    await tab.getByTestId('search-status').filter({ hasText: 'Hit 1 of 4, on page 1' }).waitFor();
    await tab.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-testid=page-image]')?.src.includes('/pages/0/image') ?? false);
    await tab.locator('[data-testid=text-layer] .hit.current').waitFor();
    assert.equal((await tab.locator('[data-testid=text-layer] .hit.current').innerText()).trim(), 'The');
    assert.equal(await tab.locator('[data-testid=text-layer] .hit').count(), 3);
    // Words across a line break are one hit.
    await tab.getByLabel('Search in the document').fill('near  the river');
    await tab.getByRole('button', { name: 'Search', exact: true }).click();
    await tab.getByTestId('search-status').filter({ hasText: 'Hit 1 of 1, on page 1' }).waitFor();
    await tab.waitForFunction(() => document.querySelectorAll('[data-testid=text-layer] .hit.current').length === 3);
    assert.deepEqual(await tab.locator('[data-testid=text-layer] .hit.current').evaluateAll((all) => all.map((s) => s.textContent!.trim())), ['near', 'the', 'river']);
    await shot('5-search');
    await assertAccessible(tab, 'viewer with search hits');
  });

  test('an encrypted document opens after its password, and a wrong one is refused', async () => {
    const locked = encryptPdf(linesPdf(), 'open sesame ü', 'owner-secret');
    await put(server, 'secret/locked.pdf', locked);
    await console('#/view?doc=secret/locked.pdf&page=1');
    const field = tab.getByLabel('Document password');
    await field.waitFor();
    await shot('6-password-prompt');
    await assertAccessible(tab, 'password prompt');
    await field.fill('wrong guess');
    await tab.getByRole('button', { name: 'Open' }).click();
    await tab.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
    assert.equal(await tab.getByTestId('page-image').count(), 0, 'no page shown');
    await assertAccessible(tab, 'password refused');
    await field.fill('open sesame ü');
    await tab.getByRole('button', { name: 'Open' }).click();
    await tab.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth === 816 && img.src.startsWith('blob:');
    });
    await tab.locator('[data-testid=text-layer] span').first().waitFor();
    assert.equal(await tab.getByTestId('text-layer').evaluate((el) => el.textContent!.split(/\s+/).filter(Boolean).join(' ')), LINES[0]!.join(' '));
    await tab.getByRole('button', { name: 'Next page' }).click();
    await tab.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-testid=page-image]')?.getAttribute('data-source')?.includes('/pages/1/image') ?? false);
    await tab.getByTestId('text-layer').filter({ hasText: 'Nothing worth' }).waitFor();
    await shot('7-encrypted-open');
    await assertAccessible(tab, 'encrypted document opened');
    assert.deepEqual((await call(server, 'GET', '/documents/secret/locked.pdf')).bytes, locked, 'the stored document is unchanged');
  });
});
