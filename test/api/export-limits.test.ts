/**
 * Issue 43's bad input that is large or odd rather than wrong (docs/export.md, "Bad input"), over HTTP against the real
 * server: a document of 10,000 pages (a job, with the server's memory bounded), a page of 100,000 glyphs, and a font
 * without a Unicode map (the characters its glyph names name recovered, the rest reported). Each stored document stays
 * byte for byte unchanged; the texts are checked against pdftotext's.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { MemorySampler } from '../../robust/lib/harness.js';
import { call, jobEnded } from '../helpers/http.js';
import { makeManyPagesPdf } from '../helpers/pdf.js';
import { serializePdf } from '../helpers/pdf-writer.js';
import { serverForSuite } from '../helpers/server.js';

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MiB = 1024;

/** A one-page document of `rows` lines of `columns` Courier characters each, set 3 points high. */
function glyphsPdf(rows: number, columns: number): Buffer {
  const line = (i: number) => `w${i} `.padEnd(8, 'x').repeat(Math.ceil(columns / 8)).slice(0, columns);
  const content = `BT /F1 3 Tf ${Array.from({ length: rows }, (_, i) => `1 0 0 1 10 ${rows * 4 - i * 4} Tm (${line(i)}) Tj`).join('\n')} ET`;
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${columns * 2 + 20} ${rows * 4 + 20}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ],
    '/Root 1 0 R',
  );
}

/**
 * A Type 3 font without /ToUnicode: codes 65-72 name the glyphs /H /e /l /o /space /W /r /d (names of the Adobe Glyph
 * List, read as those characters), codes 1-3 /g1 /g2 /g3 (names of no character). Two lines: "Hello World", and three
 * glyphs of the second kind.
 */
function unmappedFontPdf(): Buffer {
  const names = ['H', 'e', 'l', 'o', 'space', 'W', 'r', 'd'];
  const glyph = '500 0 0 0 400 600 d1 0 0 400 600 re f';
  const content = 'BT /F1 24 Tf 72 700 Td (ABCCDEFDGCH) Tj 0 -40 Td (\\001\\002\\003) Tj ET';
  const procs = [...names, 'g1', 'g2', 'g3'].map((n) => `/${n} 7 0 R`).join(' ');
  return serializePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs 6 0 R /Encoding << /Type /Encoding /Differences [1 /g1 /g2 /g3 65 ${names.map((n) => `/${n}`).join(' ')}] >> /FirstChar 1 /LastChar 72 /Widths [${Array(72).fill(500).join(' ')}] >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      `<< ${procs} >>`,
      `<< /Length ${glyph.length} >>\nstream\n${glyph}\nendstream`,
    ],
    '/Root 1 0 R',
  );
}

describe('export of very large and odd documents', () => {
  const server = serverForSuite();
  const put = async (path: string, body: Buffer) => assert.equal((await call(server, 'PUT', path, { body, headers: { 'content-type': PDF } })).status, 201);

  test('10,000 pages: a job without Prefer, whose result has every page; a range of them inline; the server memory bounded, the document unchanged', async () => {
    const doc = '/documents/limits/many.pdf';
    await put(doc, makeManyPagesPdf(10_000));
    const stored = (await call(server, 'GET', doc)).bytes;
    const sampler = new MemorySampler(server.child.pid!);
    const before = MemorySampler.read(server.child.pid!).rssKb;
    sampler.resetHighWater();
    sampler.start();
    const reply = await call(server, 'GET', `${doc}/export?format=markdown`);
    assert.equal(reply.status, 202, reply.text);
    const id = (reply.headers.get('location') ?? '').split('/').pop()!;
    const job = await jobEnded(server, id, { seconds: 600 });
    sampler.stop();
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const md = (await call(server, 'GET', `/jobs/${id}/result`)).text;
    assert.equal(md.split('\n').filter((l) => l === 'Same page').length, 10_000);
    // The model of 10,000 short pages and its Markdown take tens of MiB: the server grows by far less than a page each
    // of the document's raw content would make it.
    const peak = Math.max(sampler.peakRssKb, MemorySampler.read(server.child.pid!).hwmKb);
    assert.ok(peak - before < 512 * MiB, `the server grew by ${Math.round((peak - before) / MiB)} MiB`);
    const range = await call(server, 'GET', `${doc}/export?pageRange=9999-10000`);
    assert.equal(range.status, 200, range.text);
    assert.deepEqual(
      (range.json() as { pages: { pageIndex: number }[] }).pages.map((p) => p.pageIndex),
      [9998, 9999],
    );
    assert.deepEqual((await call(server, 'GET', doc)).bytes, stored);
  });

  test('a page of 100,000 glyphs: answered (JSON and DOCX) with its text; the document unchanged', async () => {
    const doc = '/documents/limits/glyphs.pdf';
    const pdf = glyphsPdf(500, 200);
    await put(doc, pdf);
    const stored = (await call(server, 'GET', doc)).bytes;
    // The page is what it should be (pdftotext reads its first line; it gives only half the 500 lines of so full a
    // page, so the count below is the page's own, by construction).
    const printed = execFileSync('pdftotext', ['-', '-'], { input: stored }).toString('utf8');
    assert.ok(printed.startsWith('w0 xxxxxw0 xxxxx'), printed.slice(0, 200));
    const json = await call(server, 'GET', `${doc}/export`);
    assert.equal(json.status, 200, json.text);
    // Every glyph: 500 lines of 200 characters, 25 spaces each.
    const blocks = (json.json() as { pages: { blocks: { text?: string; rows?: { text: string }[][] }[] }[] }).pages[0]!.blocks;
    const text = blocks.flatMap((b) => (b.rows ? b.rows.flat().map((c) => c.text) : [b.text ?? ''])).join(' ');
    assert.equal(text.replace(/\s/g, '').length, 500 * 175);
    for (let i = 0; i < 500; i++) assert.ok(text.includes(`w${i} `), `line ${i} missing`);
    const docx = await call(server, 'GET', `${doc}/export`, { headers: { accept: DOCX } });
    assert.equal(docx.status, 200, docx.text);
    assert.equal(docx.bytes.subarray(0, 2).toString('latin1'), 'PK');
    assert.deepEqual((await call(server, 'GET', doc)).bytes, stored);
  });

  test('a font without a Unicode map: the glyphs with known names read, the rest U+FFFD with a warning naming the page (JSON, DOCX header); the document unchanged', async () => {
    const doc = '/documents/limits/unmapped.pdf';
    await put(doc, unmappedFontPdf());
    const stored = (await call(server, 'GET', doc)).bytes;
    // pdftotext recovers the same names.
    assert.match(execFileSync('pdftotext', ['-', '-'], { input: stored }).toString('utf8'), /Hello World/);
    const reply = await call(server, 'GET', `${doc}/export`);
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json() as { pages: { blocks: { text?: string }[] }[]; warnings: string[] };
    assert.deepEqual(model.pages[0]!.blocks[0]!.text, 'Hello World');
    assert.ok(model.pages[0]!.blocks.some((b) => b.text?.includes('\uFFFD')), reply.text);
    assert.ok(model.warnings.some((w) => /on page 1 could not be read/.test(w)), JSON.stringify(model.warnings));
    const docx = await call(server, 'GET', `${doc}/export?format=docx`);
    assert.equal(docx.status, 200, docx.text);
    assert.match(docx.headers.get('x-service-warning') ?? '', /on page 1 could not be read/);
    assert.deepEqual((await call(server, 'GET', doc)).bytes, stored);
  });
});
