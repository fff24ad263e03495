import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, jobEnded, storedBytes } from '../helpers/http.js';
import { makePdf, pdfinfo, pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

/** A multi-page TIFF scan becomes a searchable PDF in two calls (docs/ocr.md): upload, then OCRAction. */
const server = serverForSuite();
let dir = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-ocr-tiff-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const PAGES = ['Invoice number 4711 for consulting services', 'Payment is due within thirty days of receipt'];

test('a two-page TIFF scan uploaded, then OCRed as a job: both pages searchable, progress in pages up to all of them', async () => {
  // Two 300 dpi gray frames of text, as a scanner writes them.
  const frames = PAGES.map((text, i) => {
    const file = path.join(dir, `page-${i}.png`);
    execFileSync('/usr/bin/convert', ['-size', '2550x1200', 'xc:white', '-font', 'DejaVu-Sans', '-pointsize', '48', '-fill', 'black', '-annotate', '+150+300', text, '-colorspace', 'Gray', '-density', '300', '-units', 'PixelsPerInch', file]);
    return file;
  });
  const tiff = path.join(dir, 'scan.tif');
  execFileSync('/usr/bin/convert', [...frames, '-compress', 'lzw', tiff]);
  assert.equal((await call(server, 'PUT', '/documents/scans')).status, 201);
  const uploaded = await call(server, 'PUT', '/documents/scans/invoice.pdf', { body: readFileSync(tiff), headers: { 'content-type': 'image/tiff' } });
  assert.equal(uploaded.status, 201, uploaded.text);
  assert.equal(uploaded.json().pageCount, 2);
  assert.equal(pdftotext(await storedBytes(server, 'scans/invoice.pdf')).trim(), '', 'an image-only PDF before OCR');

  // Long by nature: 202 without Prefer.
  const queued = await call(server, 'POST', '/documents/scans/invoice.pdf/pages', { body: { OCRAction: { language: 'eng' } } });
  assert.equal(queued.status, 202, queued.text);
  const done = await jobEnded(server, queued.json().id, { seconds: 240 });
  assert.equal(done.state, 'succeeded', JSON.stringify(done));
  assert.deepEqual({ done: done.progress.done, total: done.progress.total, unit: done.progress.unit, phase: done.progress.phase }, { done: 2, total: 2, unit: 'pages', phase: 'ocr' });
  const report = done.result.document.report as { pages: { pageIndex: number; status: string; words: number }[] };
  assert.deepEqual(report.pages.map((p) => [p.pageIndex, p.status]), [[0, 'recognised'], [1, 'recognised']]);

  const pdf = await storedBytes(server, 'scans/invoice.pdf');
  assert.ok(qpdfCheck(pdf).ok);
  assert.equal(pdfinfo(pdf)['Pages'], '2');
  for (const [i, text] of PAGES.entries()) {
    const found = withTempFile(pdf, (file) => execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' })).replace(/\s+/g, ' ').trim();
    assert.match(found, new RegExp(text.split(' ').slice(0, 4).join(' '), 'i'), `page ${i + 1}: ${found}`);
  }
});

test('an A0 page at 600 dpi is recognised within the 36-megapixel bound, at the dpi that fits, and reported so', async () => {
  // A0 is 2384 x 3370 points: at 600 dpi 560 megapixels, far past the bound (docs/ocr.md).
  assert.equal((await call(server, 'PUT', '/documents/scans/a0.pdf', { body: makePdf({ pages: 1, width: 2384, height: 3370, text: () => ' ' }), headers: { 'content-type': 'application/pdf' } })).status, 201);
  const reply = await call(server, 'POST', '/documents/scans/a0.pdf/pages', { headers: { prefer: 'wait=240' }, body: { OCRAction: { dpi: 600, skipPagesWithText: false } } });
  assert.equal(reply.status, 200, reply.text);
  const [page] = reply.json().report.pages as { status: string; dpi: number; words: number }[];
  // A blank page: nothing read, nothing added (docs/ocr.md).
  assert.equal(page!.status, 'no-text');
  const fit = Math.floor(72 * Math.sqrt(36_000_000 / (2384 * 3370)));
  assert.equal(page!.dpi, fit, 'the highest dpi whose render fits 36 megapixels');
  assert.ok((2384 * page!.dpi / 72) * (3370 * page!.dpi / 72) <= 36_000_000);
});
