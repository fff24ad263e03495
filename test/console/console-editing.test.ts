/**
 * Editing in the console's viewer (docs/console.md#annotations-form-fields-and-redaction) in Debian's Chromium against
 * the real service: a highlight drawn by pointer (on an upright and on a rotated page) is where it was drawn in the
 * annotations API and in qpdf's reading of the file; a note made by keyboard is moved by dragging, its contents edited,
 * and deleted; the XFDF export downloaded from one document and imported into another with the file picker; a write
 * after another client changed the document refused with 412 and the page reloaded; an annotation whose contents are
 * HTML shown as text; a text field filled and a check box ticked (the fields API and qpdf); a word found by the
 * redaction search, one mark removed, the rest applied after the purge warning, and pdftotext no longer finds it.
 * axe-core checks every new screen state; screenshots are kept in a folder the test prints.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, launchChromium, signInConsole } from '../helpers/browser.js';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext, withTempFile } from '../helpers/pdf.js';
import { pdfTextFromJson, qpdfAnnotations } from '../helpers/qpdf-json.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const XSS = '<img src=x onerror=alert(1)>';
const SHOTS = mkdtempSync(path.join(tmpdir(), 'pdfservice-console-editing-screens-'));

interface Annotation { name: string; subtype: string; pageIndex: number; contents?: string; rectangle?: { x: number; y: number; width: number; height: number } }

function ok(reply: Reply, what: string): Reply {
  assert.ok(reply.status >= 200 && reply.status < 300, `${what}: ${reply.status} ${reply.text}`);
  return reply;
}

function close(actual: number, expected: number, what: string, tolerance = 2): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected about ${expected}`);
}

describe('the console: annotations, form fields and redaction in the viewer', () => {
  const server = serverForSuite();
  let browser: Browser;
  let tab: Page;
  const dialogs: string[] = [];

  const annotations = async (doc: string): Promise<Annotation[]> => ok(await call(server, 'GET', `/documents/${doc}/annotations`), 'annotations').json<{ annotations: Annotation[] }>().annotations;
  const bytes = async (doc: string): Promise<Buffer> => ok(await call(server, 'GET', `/documents/${doc}`), 'download').bytes;
  async function view(doc: string): Promise<void> {
    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/#/view?doc=${encodeURIComponent(doc)}&page=1`);
    await tab.getByTestId('page-image').waitFor();
    await tab.waitForFunction(() => (document.querySelector('[data-testid=page-image]') as HTMLImageElement | null)?.complete === true);
  }
  /** Waits for the status line to say `text` after a write (the layer is not busy any more). */
  async function said(text: string | RegExp): Promise<void> {
    await tab.getByTestId('edit-status').filter({ hasText: text }).waitFor();
  }
  async function drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    const box = (await tab.getByTestId('annotation-layer').boundingBox())!;
    await tab.mouse.move(box.x + from.x, box.y + from.y);
    await tab.mouse.down();
    await tab.mouse.move(box.x + (from.x + to.x) / 2, box.y + (from.y + to.y) / 2, { steps: 3 });
    await tab.mouse.move(box.x + to.x, box.y + to.y, { steps: 3 });
    await tab.mouse.up();
  }
  async function screenshot(name: string): Promise<void> {
    await tab.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    console.log(`console screenshots: ${SHOTS}`);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1100 }, acceptDownloads: true });
    tab = await context.newPage();
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signInConsole(tab, `${server.baseUrl}/pdfservice/v1/console/`, ADMIN);
  });
  after(async () => {
    await browser?.close();
  });

  test('a highlight drawn by pointer is where it was drawn: the API and qpdf agree, upright and on a rotated page', async () => {
    ok(await putPdf(server, 'edit/plain.pdf', makePdf({ text: () => 'A line to highlight' })), 'upload');
    // The same page turned a quarter (qpdf sets /Rotate 90): drawing must go through the rotation.
    const rotated = withTempFile(makePdf({ text: () => 'Turned page' }), (file) => {
      execFileSync('qpdf', ['--rotate=+90', file, `${file}.out.pdf`]);
      return readFileSync(`${file}.out.pdf`);
    });
    ok(await putPdf(server, 'edit/rotated.pdf', rotated), 'upload rotated');

    for (const [doc, expected] of [
      // 100% zoom is 96 dpi: a pixel is 0.75 pt. Upright: x = px * 0.75, y = 792 - py * 0.75.
      ['edit/plain.pdf', { x: 75, y: 792 - 140 * 0.75, width: 150, height: 30 }],
      // Rotated 90°: x = py * 0.75 (from the unrotated left), y = px * 0.75 (docs/pages.md#coordinates).
      ['edit/rotated.pdf', { x: 75, y: 75, width: 30, height: 150 }],
    ] as const) {
      await view(doc);
      await tab.getByRole('radio', { name: 'Highlight' }).check();
      await drag({ x: 100, y: 100 }, { x: 300, y: 140 });
      await said('Highlight added');
      const highlights = (await annotations(doc)).filter((a) => a.subtype === 'Highlight');
      assert.equal(highlights.length, 1, JSON.stringify(highlights));
      const rect = highlights[0]!.rectangle!;
      close(rect.x, expected.x, `${doc} x`);
      close(rect.y, expected.y, `${doc} y`);
      close(rect.width, expected.width, `${doc} width`);
      close(rect.height, expected.height, `${doc} height`);
      // qpdf reads the same /Rect from the stored file, on the page's /Annots.
      const inFile = qpdfAnnotations(await bytes(doc)).filter((a) => a.subtype === 'Highlight');
      assert.equal(inFile.length, 1);
      assert.equal(inFile[0]!.name, highlights[0]!.name);
      const [x1, y1, x2, y2] = inFile[0]!.rect as [number, number, number, number];
      close(x1, expected.x, 'qpdf x1');
      close(y1, expected.y, 'qpdf y1');
      close(x2, expected.x + expected.width, 'qpdf x2');
      close(y2, expected.y + expected.height, 'qpdf y2');
      // The box drawn over the page image is where the drag was (the image of the new version is shown).
      const layer = (await tab.getByTestId('annotation-layer').boundingBox())!;
      const shown = (await tab.locator(`.annot[data-name="${highlights[0]!.name}"]`).boundingBox())!;
      close(shown.x - layer.x, 100, 'box left');
      close(shown.y - layer.y, 100, 'box top');
      assert.match(await tab.getByTestId('page-image').getAttribute('src') ?? '', /versionId=/);
    }
    await screenshot('1-highlight-drawn');
    await assertAccessible(tab, 'annotate');
  });

  test('a note made by keyboard is moved by dragging, its contents edited, and deleted', async () => {
    const doc = 'edit/notes.pdf';
    ok(await putPdf(server, doc, makePdf()), 'upload');
    await view(doc);
    await tab.getByText('Add an annotation by its coordinates').click();
    await tab.getByLabel('Kind').selectOption('note');
    await tab.getByLabel('x (points from the left)').fill('150');
    await tab.getByLabel('y (points from the bottom)').fill('600');
    await tab.getByLabel('Width (points)').fill('20');
    await tab.getByLabel('Height (points)').fill('20');
    await tab.getByLabel('Text', { exact: true }).fill('first words');
    await tab.getByRole('button', { name: 'Add annotation' }).click();
    await said('Note added');
    let [note] = (await annotations(doc)).filter((a) => a.subtype === 'Text');
    assert.ok(note, 'the note is in the document');
    assert.equal(note.contents, 'first words');
    assert.deepEqual(note.rectangle, { x: 150, y: 600, width: 20, height: 20 });

    // Drag it 60 px right and 40 px down: 45 pt right, 30 pt down.
    await tab.getByRole('radio', { name: 'Select and move' }).check();
    const box = (await tab.getByRole('button', { name: 'Note: first words' }).first().boundingBox())!;
    const layer = (await tab.getByTestId('annotation-layer').boundingBox())!;
    const start = { x: box.x - layer.x + box.width / 2, y: box.y - layer.y + box.height / 2 };
    await drag(start, { x: start.x + 60, y: start.y + 40 });
    await said('moved');
    [note] = (await annotations(doc)).filter((a) => a.subtype === 'Text');
    close(note!.rectangle!.x, 195, 'moved x', 1);
    close(note!.rectangle!.y, 570, 'moved y', 1);
    assert.equal(note!.contents, 'first words', 'moving keeps the contents');

    await tab.getByLabel('Contents', { exact: true }).fill('second words');
    await tab.getByRole('button', { name: 'Save contents' }).click();
    await said('Contents saved');
    [note] = (await annotations(doc)).filter((a) => a.subtype === 'Text');
    assert.equal(note!.contents, 'second words');
    close(note!.rectangle!.x, 195, 'x kept', 1);
    await screenshot('2-note-selected');
    await assertAccessible(tab, 'annotation selected');

    await tab.getByRole('button', { name: 'Delete Note: second words' }).click();
    await tab.getByRole('button', { name: 'Yes, delete' }).click();
    await said('deleted');
    assert.deepEqual((await annotations(doc)).filter((a) => a.subtype === 'Text'), []);
    assert.equal(qpdfAnnotations(await bytes(doc)).filter((a) => a.subtype === 'Text').length, 0, 'gone from the file too');
  });

  test('annotation contents written as HTML are shown as text and run nothing', async () => {
    const doc = 'edit/xss.pdf';
    ok(await putPdf(server, doc, makePdf()), 'upload');
    await view(doc);
    await tab.getByText('Add an annotation by its coordinates').click();
    await tab.getByLabel('Kind').selectOption('rectangle');
    await tab.getByLabel('Width (points)').fill('100');
    await tab.getByLabel('Text', { exact: true }).fill(XSS);
    await tab.getByRole('button', { name: 'Add annotation' }).click();
    await said('Rectangle added');
    assert.equal((await annotations(doc)).find((a) => a.subtype === 'Square')?.contents, XSS);
    await tab.reload();
    await tab.getByRole('button', { name: `Rectangle: ${XSS}` }).first().waitFor();
    assert.equal(await tab.getByRole('list').getByRole('button', { name: `Rectangle: ${XSS}` }).innerText(), `Rectangle: ${XSS}`);
    assert.equal(await tab.locator('img[src=x]').count(), 0, 'no element made from the contents');
    assert.deepEqual(dialogs, [], 'no dialog opened');
  });

  test('XFDF exported from one document and imported into another with the file picker', async () => {
    const from = 'edit/plain.pdf';
    const to = 'edit/copy-target.pdf';
    ok(await putPdf(server, to, makePdf()), 'upload');
    await view(from);
    const [download] = await Promise.all([tab.waitForEvent('download'), tab.getByRole('button', { name: 'Export XFDF' }).click()]);
    assert.equal(download.suggestedFilename(), 'plain.xfdf');
    const file = await download.path();
    const xfdf = readFileSync(file, 'utf8');
    assert.match(xfdf, /<highlight /);
    await view(to);
    await tab.getByLabel('Import XFDF or FDF').setInputFiles({ name: 'plain.xfdf', mimeType: 'application/vnd.adobe.xfdf', buffer: Buffer.from(xfdf) });
    await said(/Imported plain\.xfdf: 1 created, 0 updated/);
    const source = (await annotations(from)).filter((a) => a.subtype === 'Highlight');
    const copied = (await annotations(to)).filter((a) => a.subtype === 'Highlight');
    assert.deepEqual(copied.map((a) => [a.name, a.rectangle]), source.map((a) => [a.name, a.rectangle]));
    await tab.getByRole('button', { name: 'Highlight' }).first().waitFor();
  });

  test('a write after the document changed elsewhere is refused (412) and the page is read again', async () => {
    const doc = 'edit/race.pdf';
    ok(await putPdf(server, doc, makePdf()), 'upload');
    await view(doc);
    // Another client adds a note after the viewer read the document.
    const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text name="elsewhere" page="0" rect="300,300,320,320"><contents>from elsewhere</contents></text></annots></xfdf>';
    ok(await call(server, 'POST', `/documents/${doc}/annotations/content`, { body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf' } }), 'import');
    await tab.getByRole('radio', { name: 'Rectangle' }).check();
    await drag({ x: 50, y: 50 }, { x: 150, y: 120 });
    await tab.getByRole('alert').filter({ hasText: '412' }).waitFor();
    assert.deepEqual((await annotations(doc)).map((a) => a.subtype), ['Text'], 'nothing overwritten, nothing added');
    // Read again: the other client's note is shown, and the next write goes through.
    await tab.getByRole('button', { name: 'Note: from elsewhere' }).first().waitFor();
    await drag({ x: 50, y: 50 }, { x: 150, y: 120 });
    await said('Rectangle added');
    assert.deepEqual((await annotations(doc)).map((a) => a.subtype).sort(), ['Square', 'Text']);
  });

  test('a text field filled and a check box ticked in place: the fields API and qpdf show the values', async () => {
    const doc = 'edit/form.pdf';
    ok(await putPdf(server, doc, makeFormPdf()), 'upload');
    await view(doc);
    await tab.getByRole('button', { name: 'Fill in the form' }).click();
    const comment = tab.getByLabel('comment', { exact: true });
    await comment.waitFor();
    assert.equal(await comment.inputValue(), 'Hello');
    // The input lies over the widget's rectangle [72 700 272 720]: 96, 96 px from the page's top left, 266 x 26 px.
    const image = (await tab.getByTestId('page-image').boundingBox())!;
    const input = (await comment.boundingBox())!;
    close(input.x - image.x, 96, 'field left');
    close(input.y - image.y, (792 - 720) * 96 / 72, 'field top');
    close(input.width, 200 * 96 / 72, 'field width');
    await comment.fill('Filled by the console');
    await comment.press('Tab');
    await said('comment saved');
    await tab.getByLabel('agree', { exact: true }).check();
    await said('agree saved');
    await screenshot('3-form-filled');
    await assertAccessible(tab, 'form');

    const fields = ok(await call(server, 'GET', `/documents/${doc}/fields`), 'fields').json<{ fields: { name: string; value?: unknown }[] }>().fields;
    assert.equal(fields.find((f) => f.name === 'comment')?.value, 'Filled by the console');
    assert.equal(fields.find((f) => f.name === 'agree')?.value, 'Yes');
    const widgets = qpdfAnnotations(await bytes(doc)).filter((a) => a.subtype === 'Widget');
    const byName = (name: string) => widgets.find((w) => typeof w.dict['/T'] === 'string' && pdfTextFromJson(w.dict['/T'] as string) === name)!;
    assert.equal(pdfTextFromJson(byName('comment').dict['/V'] as string), 'Filled by the console');
    assert.equal(byName('agree').dict['/V'], '/Yes');
    assert.equal(byName('agree').dict['/AS'], '/Yes');
  });

  test('redaction: a word found by search, one mark removed, the rest applied after the purge warning; pdftotext finds it no more', async () => {
    const doc = 'edit/secret.pdf';
    const secret = makePdf({ pages: 2, text: (i) => (i === 0 ? 'Codename Zebra meets Lion' : 'Zebra again and Lion') });
    ok(await putPdf(server, doc, secret), 'upload');
    await view(doc);
    await tab.getByRole('button', { name: 'Redact' }).click();
    await tab.getByLabel('Text to redact').fill('zebra');
    await tab.getByRole('button', { name: 'Find and mark' }).click();
    await said('2 matches of "zebra" marked for redaction');
    await tab.getByLabel('Text to redact').fill('Lion');
    await tab.getByRole('button', { name: 'Find and mark' }).click();
    await said('2 matches of "Lion" marked');
    const marks = (await annotations(doc)).filter((a) => a.subtype === 'Redact');
    assert.equal(marks.length, 4, JSON.stringify(await annotations(doc)));
    assert.equal(await tab.getByTestId('redaction-marks').getByRole('listitem').count(), 4);
    // The marks of page 1 are drawn over it.
    assert.equal(await tab.locator('.layer .mark').count(), 2);
    await screenshot('4-redaction-marks');
    await assertAccessible(tab, 'redaction marks');

    // Lion stays: its marks (the second search's, named after the first's: redaction-3 and -4) are removed one by one.
    const names = marks.map((m) => m.name).sort();
    assert.deepEqual(names, ['redaction-1', 'redaction-2', 'redaction-3', 'redaction-4']);
    const lionMarks = names.slice(2);
    for (const name of lionMarks) {
      await tab.getByRole('button', { name: new RegExp(`^Remove the mark ${name} `) }).click();
      await said(`Mark ${name} removed`);
    }
    assert.deepEqual((await annotations(doc)).filter((a) => a.subtype === 'Redact').map((a) => a.name).sort(), names.slice(0, 2));

    await tab.getByRole('button', { name: 'Apply redactions…' }).click();
    const warning = await tab.getByTestId('purge-warning').innerText();
    const description = ok(await call(server, 'GET', '/openapi.json'), 'openapi').text;
    assert.match(warning, /which still hold the redacted text/);
    assert.ok(description.includes(warning.replace(/^Earlier versions: /, '').replace(/\.$/, '')), `the API's own words: ${warning}`);
    await screenshot('5-redaction-warning');
    await assertAccessible(tab, 'redaction warning');
    await tab.getByRole('button', { name: 'Yes, apply' }).click();
    await said(/Redactions applied: 2\. \d+ earlier versions? removed\. The page was reloaded\./);
    // Every mark and removal wrote a version: all of them hold the text, and all were removed.
    const purged = Number(/(\d+) earlier/.exec(await tab.getByTestId('edit-status').innerText())![1]);
    assert.ok(purged >= 4, `versions purged: ${purged}`);

    const text = pdftotext(await bytes(doc));
    assert.doesNotMatch(text, /Zebra/i);
    assert.match(text, /Codename/);
    assert.match(text, /Lion/);
    assert.equal((await annotations(doc)).filter((a) => a.subtype === 'Redact').length, 0);
    const versions = ok(await call(server, 'GET', `/documents/${doc}/versions`), 'versions').json<{ total: number }>();
    assert.equal(versions.total, 1, 'the earlier versions are purged');
    await tab.getByText('No redaction marks in this document.').waitFor();
    assert.match(await tab.getByTestId('page-image').getAttribute('src') ?? '', /versionId=/);
    await screenshot('6-redaction-applied');
    await assertAccessible(tab, 'redaction applied');
  });
});
