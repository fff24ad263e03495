/**
 * Tagged output from the converters (issue 42; docs/accessibility.md, "Tagged output from converters"): Office and
 * image uploads and OCRAction, through HTTP to the real server, checked with veraPDF's PDF/UA-1 profile in a JVM of its own (one
 * start for the file), pdfinfo (-struct-text for the structure tree) and pdftotext. The Word files are made by a
 * LibreOffice run of the test's own from flat ODF, as a user's Word would save them (headings, a picture with alt text).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, test } from 'node:test';
import { call, storedBytes } from '../helpers/http.js';
import { imagePdf, pageStreams, renderGray } from '../helpers/ocr-fixtures.js';
import { accessibleFodt, docxByLibreOffice } from '../helpers/office-fixtures.js';
import { pdfinfo, pdftotext, withTempFile } from '../helpers/pdf.js';
import { encodeRgbPng } from '../helpers/png.js';
import { serverForSuite } from '../helpers/server.js';
import { verapdfVerdicts, type VerapdfVerdict } from '../helpers/verapdf.js';

const server = serverForSuite();
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A 40 x 30 red PNG. */
const PNG = encodeRgbPng(40, 30, Buffer.alloc(40 * 30 * 3, Buffer.from([200, 30, 30])));

let titled: Buffer;
let untitled: Buffer;

before(() => {
  [titled, untitled] = docxByLibreOffice([accessibleFodt(PNG, 'Quarterly report'), accessibleFodt(PNG)]) as [Buffer, Buffer];
});

function structText(pdf: Buffer): string {
  return withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
}

async function put(path: string, body: Buffer, type: string, query = ''): Promise<Buffer> {
  const reply = await call(server, 'PUT', `/documents/${path}${query}`, { body, headers: { 'content-type': type, prefer: 'wait=300' } });
  assert.ok(reply.status === 201 || reply.status === 200, `${path}: ${reply.status} ${reply.text}`);
  return storedBytes(server, path);
}

/** Every upload of the file first, then one veraPDF run for all of them (few JVM starts keep the file quick). */
const outputs: Record<string, Buffer> = {};
const ocrReports: Record<string, { tagged?: string }> = {};
let verdicts: Record<string, VerapdfVerdict>;

async function ocr(path: string, params: Record<string, unknown> = {}): Promise<Buffer> {
  const reply = await call(server, 'POST', `/documents/${path}/pages`, { body: { OCRAction: params }, headers: { prefer: 'wait=300' } });
  assert.equal(reply.status, 200, reply.text);
  ocrReports[path] = reply.json().report;
  return storedBytes(server, path);
}

test('uploads: a Word file, an image, each tagged by default and with tagged=false', async () => {
  outputs.word = await put('tagged/report.pdf', titled, DOCX);
  outputs.wordUntitled = await put('tagged/sales-notes.pdf', untitled, DOCX);
  outputs.wordUntagged = await put('tagged/report-untagged.pdf', titled, DOCX, '?tagged=false');
  outputs.wordPdfa = await put('tagged/report-pdfa.pdf', titled, DOCX, '?pdfa=pdfa2b');
  outputs.image = await put('tagged/red-square.pdf', PNG, 'image/png', `?alt=${encodeURIComponent('A red rectangle')}&language=en`);
  outputs.imageNoAlt = await put('tagged/no-alt.pdf', PNG, 'image/png');
  outputs.imageUntagged = await put('tagged/untagged.pdf', PNG, 'image/png', '?tagged=false');
  // A scan of the Word file's page (rendered at 200 dpi, as an untagged image-only PDF), and the same page as an image upload (tagged).
  const page = renderGray(outputs.wordUntagged!, 0, 200);
  outputs.scan = imagePdf([{ image: page, dpi: 200 }]);
  await put('tagged/scan.pdf', outputs.scan, 'application/pdf');
  await put('tagged/scan-untagged.pdf', outputs.scan, 'application/pdf');
  // The image declares no resolution: 72 dpi, so the OCR renders it at 72 dpi to read its pixels as they are.
  const photo = renderGray(outputs.wordUntagged!, 0, 150);
  const rgb = Buffer.alloc(photo.width * photo.height * 3);
  for (let i = 0; i < photo.pixels.length; i++) rgb.fill(photo.pixels[i]!, i * 3, i * 3 + 3);
  await put('tagged/scan-image.pdf', encodeRgbPng(photo.width, photo.height, rgb, 1), 'image/png', `?alt=${encodeURIComponent('The first page of the quarterly report')}&language=en`);
  outputs.scanImageBefore = await storedBytes(server, 'tagged/scan-image.pdf');
  outputs.ocr = await ocr('tagged/scan.pdf');
  outputs.ocrUntagged = await ocr('tagged/scan-untagged.pdf', { tagged: false });
  outputs.ocrKept = await ocr('tagged/scan-image.pdf', { dpi: 72 });
  const files = [
    ['word', 'ua1'],
    ['wordUntitled', 'ua1'],
    ['wordPdfa', 'ua1'],
    ['wordPdfa', '2b'],
    ['image', 'ua1'],
    ['imageNoAlt', 'ua1'],
    ['ocr', 'ua1'],
    ['ocrKept', 'ua1'],
  ] as const;
  const results = verapdfVerdicts(files.map(([name, flavour]) => ({ bytes: outputs[name]!, flavour })));
  verdicts = Object.fromEntries(files.map(([name, flavour], i) => [`${name} ${flavour}`, results[i]!]));
});

const failed = (verdict: VerapdfVerdict) => verdict.rules.map((r) => `${r.clause}-${r.testNumber} ${r.description}`);

test('a clean Word file (headings, a picture with alt text, a title) passes veraPDF PDF/UA-1, with its structure and text', () => {
  assert.deepEqual(failed(verdicts['word ua1']!), []);
  assert.equal(verdicts['word ua1']!.compliant, true);
  const tree = structText(outputs.word!);
  assert.match(tree, /^\s*H1\b[\s\S]*"Quarterly report"/m);
  assert.match(tree, /^\s*H2\b[\s\S]*"Chart"/m);
  assert.match(tree, /^\s*Figure\b/m);
  const info = pdfinfo(outputs.word!);
  assert.equal(info.Title, 'Quarterly report');
  assert.equal(info.Tagged, 'yes');
  // The text is the same as the untagged conversion's: tagging adds structure, not content.
  assert.equal(pdftotext(outputs.word!), pdftotext(outputs.wordUntagged!));
  assert.match(pdftotext(outputs.word!), /Sales rose in every region this quarter\./);
});

test('a Word file without a title of its own is titled by its file name, and passes PDF/UA-1', () => {
  assert.equal(pdfinfo(outputs.wordUntitled!).Title, 'sales-notes');
  assert.deepEqual(failed(verdicts['wordUntitled ua1']!), []);
});

test('tagged=false gives the untagged output of before: no structure tree, no PDF/UA identification', () => {
  for (const name of ['wordUntagged', 'imageUntagged']) {
    const info = pdfinfo(outputs[name]!);
    assert.equal(info.Tagged, 'no', name);
    assert.doesNotMatch(outputs[name]!.toString('latin1'), /StructTreeRoot|pdfuaid/, name);
  }
});

test('pdfa with tags: PDF/A-2b that is also tagged and passes PDF/UA-1', () => {
  assert.deepEqual(failed(verdicts['wordPdfa 2b']!), []);
  assert.deepEqual(failed(verdicts['wordPdfa ua1']!), []);
  assert.equal(pdfinfo(outputs.wordPdfa!).Tagged, 'yes');
  assert.match(structText(outputs.wordPdfa!), /^\s*Figure\b/m);
});

test('an image with alt text: one Figure with it, titled by the file name, passes PDF/UA-1', () => {
  assert.deepEqual(failed(verdicts['image ua1']!), []);
  const tree = structText(outputs.image!);
  assert.match(tree, /^Document\n\s+Figure\b/m);
  const info = pdfinfo(outputs.image!);
  assert.equal(info.Title, 'red-square');
  assert.equal(info.Tagged, 'yes');
  assert.match(outputs.image!.toString('latin1'), /\/Alt\s*\(A red rectangle\)/);
});

test('an image without alt text: tagged, its Figure left undescribed, no PDF/UA claim; veraPDF names the missing text', () => {
  assert.equal(pdfinfo(outputs.imageNoAlt!).Tagged, 'yes');
  assert.match(structText(outputs.imageNoAlt!), /^\s*Figure\b/m);
  assert.doesNotMatch(outputs.imageNoAlt!.toString('latin1'), /pdfuaid|\/Alt\b/);
  const verdict = verdicts['imageNoAlt ua1']!;
  assert.equal(verdict.compliant, false);
  assert.ok(verdict.rules.some((r) => r.clause === '7.3'), failed(verdict).join('\n'));
});

test('alt on an HTML or PDF upload, tagged on a PDF: 400, nothing stored', async () => {
  const cases = [
    { path: 'tagged/page.pdf', type: 'text/html', body: Buffer.from('<!DOCTYPE html><html lang="en"><title>t</title><p>x</p></html>'), query: '?alt=x', detail: /alt applies to image uploads only/ },
    { path: 'tagged/plain.pdf', type: 'application/pdf', body: outputs.imageUntagged!, query: '?alt=x', detail: /alt apply to image uploads only/ },
    { path: 'tagged/plain.pdf', type: 'application/pdf', body: outputs.imageUntagged!, query: '?tagged=true', detail: /tagged apply to converted uploads only/ },
  ];
  for (const c of cases) {
    const reply = await call(server, 'PUT', `/documents/${c.path}${c.query}`, { body: c.body, headers: { 'content-type': c.type } });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json().code, 'BAD_REQUEST');
    assert.match(reply.json().detail, c.detail);
    assert.equal((await call(server, 'GET', `/documents/${c.path}`)).status, 404);
  }
});

test('OCR of an untagged scan: the text layer a P, the scan an artifact; the text as with tagged=false', () => {
  assert.equal(ocrReports['tagged/scan.pdf']!.tagged, 'added');
  assert.equal(pdfinfo(outputs.ocr!).Tagged, 'yes');
  assert.match(structText(outputs.ocr!), /^Document\n\s+P\b[\s\S]*Quarterly report[\s\S]*Sales rose/m);
  assert.equal(pdftotext(outputs.ocr!), pdftotext(outputs.ocrUntagged!));
  assert.match(pdftotext(outputs.ocr!), /Sales rose in every region/);
  // The page's own content stream is as the scan had it: the artifact opens and closes in streams around it.
  assert.ok(pageStreams(outputs.ocr!)[0]!.contents.includes(pageStreams(outputs.scan!)[0]!.contents[0]!));
  // All content is tagged or an artifact (7.1-3), no figure lacks text; what is left needs the document's title and language (metadata).
  const verdict = verdicts['ocr ua1']!;
  assert.ok(!verdict.rules.some((r) => r.clause === '7.1' && r.testNumber === 3), failed(verdict).join('\n'));
  assert.ok(!verdict.rules.some((r) => r.clause === '7.3'), failed(verdict).join('\n'));
  // tagged=false: as before, no tree.
  assert.equal(ocrReports['tagged/scan-untagged.pdf']!.tagged, undefined);
  assert.equal(pdfinfo(outputs.ocrUntagged!).Tagged, 'no');
});

test('OCR of a document that is tagged already keeps its tree, the text layer a P after the page\'s Figure: PDF/UA-1 passes', () => {
  assert.equal(ocrReports['tagged/scan-image.pdf']!.tagged, 'kept');
  // The image upload's Figure (with its alt text) as it was, then the recognised text.
  const before = structText(outputs.scanImageBefore!);
  const after = structText(outputs.ocrKept!);
  assert.match(before, /^Document\n\s+Figure\b/m);
  assert.ok(after.startsWith(before.trimEnd()), `the tree before is kept:\n${before}\n---\n${after}`);
  assert.match(after, /Figure[\s\S]*\n\s+P \(block\)\s+"[^"]*Sales rose in every region/);
  assert.match(pdftotext(outputs.ocrKept!), /Sales rose in every region/);
  assert.deepEqual(failed(verdicts['ocrKept ua1']!), []);
  assert.equal(verdicts['ocrKept ua1']!.compliant, true);
});
