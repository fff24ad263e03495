import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { makePdf, pdfinfo, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

// Two engine workers, whatever the machine's cores: a split is made in one share per worker (SplitDocumentAction,
// makeParts). No text prefetch: its tasks would run on the workers while the test counts the split's.
const server = serverForSuite({ env: { PDFSERVICE_WORKERS: '2', PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });

const split = (doc: string, params: object) =>
  call(server, 'POST', `/documents/${doc}/pages`, { body: { SplitDocumentAction: params }, headers: { accept: 'application/json' } });

/** Tasks each engine worker took so far (pdfservice_engine_worker_tasks_total, by the worker's position). */
async function tasksPerWorker(): Promise<number[]> {
  const reply = await call(server, 'GET', '/metrics');
  assert.equal(reply.status, 200, reply.text);
  const counts: number[] = [];
  for (const match of reply.text.matchAll(/^pdfservice_engine_worker_tasks_total\{worker="(\d+)"\} (\d+)$/gm)) counts[Number(match[1])] = Number(match[2]);
  return counts;
}

/** Each part as stored: qpdf --check clean, pdfinfo's page count as the answer says, and its pages' text (pdftotext), page by page. */
async function partTexts(documents: { path: string; pageCount: number; size: number }[]): Promise<string[][]> {
  const texts: string[][] = [];
  for (const d of documents) {
    const bytes = await storedBytes(server, d.path.slice(1));
    const check = qpdfCheck(bytes);
    assert.ok(check.ok, `${d.path}: ${check.output}`);
    assert.equal(Number(pdfinfo(bytes).Pages), d.pageCount, d.path);
    assert.equal(bytes.length, d.size, d.path);
    texts.push(pdftotext(bytes).split('\f').map((t) => t.trim()).filter(Boolean));
  }
  return texts;
}

describe('SplitDocumentAction in shares (one per engine worker)', () => {
  test('into single pages: both workers make parts, and the parts are complete and in order (qpdf --check, pdfinfo, pdftotext)', async () => {
    const pages = 61;
    const source = makePdf({ pages, text: (i) => `Share${i + 1}` });
    assert.equal((await putPdf(server, 'shares/single/book.pdf', source)).status, 201);
    const before = await tasksPerWorker();
    const reply = await split('shares/single/book.pdf', { everyPages: 1, folder: 'shares/single/out', pattern: '{n:3}.pdf' });
    assert.equal(reply.status, 200, reply.text);
    const after = await tasksPerWorker();
    // The split's tasks alone ran meanwhile: one share on each worker.
    assert.deepEqual(after.map((n, i) => n - (before[i] ?? 0)), [1, 1], 'one split task on each of the two workers');
    const model = reply.json();
    assert.equal(model.pageCount, pages);
    assert.deepEqual(model.documents.map((d: { name: string; pages: string }) => [d.name, d.pages]), Array.from({ length: pages }, (_, i) => [`${String(i + 1).padStart(3, '0')}.pdf`, String(i + 1)]));
    assert.deepEqual(await partTexts(model.documents), Array.from({ length: pages }, (_, i) => [`Share${i + 1}`]), 'every page once, each in its own part, in order');
    assert.equal(sha256(await storedBytes(server, 'shares/single/book.pdf')), sha256(source), 'the source is byte-for-byte unchanged');
  });

  test('page ranges that overlap across the shares\' boundary, and every N pages: each part holds its pages in the order asked', async () => {
    const source = makePdf({ pages: 12, text: (i) => `Range${i + 1}` });
    assert.equal((await putPdf(server, 'shares/ranges/doc.pdf', source)).status, 201);
    const ranges = ['12', '1-3', '3-5', '5,2', '6-9', '9-', '7'];
    const reply = await split('shares/ranges/doc.pdf', { ranges, folder: 'shares/ranges/out', pattern: '{n}-{first}-{last}.pdf' });
    assert.equal(reply.status, 200, reply.text);
    const { documents } = reply.json();
    assert.deepEqual(documents.map((d: { name: string }) => d.name), ['1-12-12.pdf', '2-1-3.pdf', '3-3-5.pdf', '4-5-2.pdf', '5-6-9.pdf', '6-9-12.pdf', '7-7-7.pdf']);
    const expected = [[12], [1, 2, 3], [3, 4, 5], [5, 2], [6, 7, 8, 9], [9, 10, 11, 12], [7]].map((pages) => pages.map((p) => `Range${p}`));
    assert.deepEqual(await partTexts(documents), expected);

    const every = await split('shares/ranges/doc.pdf', { everyPages: 5, folder: 'shares/ranges/every' });
    assert.equal(every.status, 200, every.text);
    assert.deepEqual(await partTexts(every.json().documents), [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12]].map((pages) => pages.map((p) => `Range${p}`)));
  });
});
