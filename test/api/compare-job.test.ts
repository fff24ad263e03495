/**
 * Compare as a background job (docs/compare.md, docs/jobs.md): Prefer: respond-async (and wait=N) make it a job
 * whose result file is the answer as negotiated at submission; a pair larger than PDFSERVICE_JOB_ASYNC_BYTES goes
 * async without Prefer; every 4xx is answered at submission with no job made; a cancelled compare stops its engine
 * tasks. Results checked against the inline answer and with qpdf and pdftotext.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, engineState, jobEnded, putPdf, type Reply } from '../helpers/http.js';
import { encryptPdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';
import { comparePdf, pageLines, type ComparePageSpec } from '../helpers/compare-fixtures.js';
import { until } from '../helpers/jobs.js';

/** Documents larger than this are long by nature here (the default, 100 MiB, would need huge fixtures). */
const ASYNC_BYTES = 40_000;
const server = serverForSuite({ env: { PDFSERVICE_JOB_ASYNC_BYTES: String(ASYNC_BYTES) } });

const compare = (doc: string, body: object, accept = 'application/json', headers: Record<string, string> = {}) =>
  call(server, 'POST', `/documents/${doc}/compare`, { body, headers: { accept, ...headers } });
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.ok(reply.status === 201 || reply.status === 200, reply.text);
};
const pagesOf = (n: number, from = 1): ComparePageSpec[] => Array.from({ length: n }, (_, i) => ({ lines: pageLines(i + from) }));
const jobIdOf = (reply: Reply): string => {
  assert.equal(reply.status, 202, reply.text);
  const location = reply.headers.get('location') ?? '';
  assert.match(location, /\/pdfservice\/v1\/jobs\/[0-9a-f]{32}$/);
  const id = location.split('/').pop()!;
  // The job model, as JSON, or as XML when that is what Accept asked for.
  if (/json/.test(reply.headers.get('content-type') ?? '')) assert.equal(reply.json().id, id);
  else assert.match(reply.text, new RegExp(`<Job>.*<id>${id}</id>`, 's'));
  return id;
};
const jobIds = async (): Promise<string[]> => {
  const reply = await call(server, 'GET', '/jobs');
  assert.equal(reply.status, 200, reply.text);
  return reply.json().jobs.map((j: { id: string }) => j.id).sort();
};

/** A small pair (under ASYNC_BYTES): a word added on page 2. */
async function smallPair(prefix: string): Promise<{ doc: string; base: string }> {
  const base = pagesOf(4);
  const changed = pagesOf(4);
  changed[1]!.lines[3] = `${changed[1]!.lines[3]} inserted`;
  const pair = { doc: `compare-job/${prefix}-new.pdf`, base: `compare-job/${prefix}-base.pdf` };
  await upload(pair.base, comparePdf(base));
  await upload(pair.doc, comparePdf(changed));
  return pair;
}

describe('compare as a job', () => {
  test('Prefer: respond-async gives 202 and Location; the job ends with the report the inline request answers, JSON and XML', async () => {
    const { doc, base } = await smallPair('async');
    const body = { with: { filePath: base } };
    const inline = await compare(doc, body);
    assert.equal(inline.status, 200, inline.text);

    const reply = await compare(doc, body, 'application/json', { prefer: 'respond-async' });
    const id = jobIdOf(reply);
    assert.equal(reply.headers.get('preference-applied'), 'respond-async');
    const job = await jobEnded(server, id);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    assert.equal(job.action, 'compare');
    // The record names both documents.
    assert.equal(job.document, doc);
    assert.equal(job.base, base);
    assert.equal(job.result.status, 200);
    // The result names the document compared, as every file result made from a stored document.
    assert.equal(job.result.path, `/${doc}`);
    assert.equal(job.result.file.mediaType, 'application/json');
    assert.equal(job.result.file.name, 'async-new-compare.json');
    const download = await call(server, 'GET', `/jobs/${id}/result`);
    assert.equal(download.status, 200, download.text);
    assert.equal(download.headers.get('etag'), job.result.file.etag);
    assert.deepEqual(download.json(), inline.json());
    assert.deepEqual(download.json().pages[1].insertedWords.map((w: { text: string }) => w.text), ['inserted']);

    // XML as negotiated at submission.
    const xmlInline = await compare(doc, body, 'application/xml');
    assert.equal(xmlInline.status, 200, xmlInline.text);
    const xmlJob = await jobEnded(server, jobIdOf(await compare(doc, body, 'application/xml', { prefer: 'respond-async' })));
    assert.equal(xmlJob.state, 'succeeded', JSON.stringify(xmlJob));
    assert.equal(xmlJob.result.file.mediaType, 'application/xml');
    const xml = await call(server, 'GET', `/jobs/${xmlJob.id}/result`, { headers: { accept: 'application/xml' } });
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.text, /<CompareReport>/);
    assert.equal(xml.text, xmlInline.text);
  });

  test('the highlight PDF as a job result downloads and passes qpdf --check; wait=N answers inline when in time', async () => {
    const { doc, base } = await smallPair('pdf');
    const body = { with: { filePath: base } };
    const reply = await compare(doc, body, 'application/pdf', { prefer: 'respond-async' });
    const job = await jobEnded(server, jobIdOf(reply));
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    assert.equal(job.result.file.mediaType, 'application/pdf');
    const download = await call(server, 'GET', `/jobs/${job.id}/result`);
    assert.equal(download.status, 200, download.text);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.equal(download.bytes.length, job.result.file.size);
    const check = qpdfCheck(download.bytes);
    assert.ok(check.ok, check.output);
    assert.match(pdftotext(download.bytes), /Comparison summary/);
    assert.match(pdftotext(download.bytes), /inserted words: inserted/);

    // Waited for and ended in time: the answer is the result itself, as inline.
    const inline = await compare(doc, body);
    const waited = await compare(doc, body, 'application/json', { prefer: 'respond-async, wait=120' });
    assert.equal(waited.status, 200, waited.text);
    assert.match(waited.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(waited.json(), inline.json());
    const waitedPdf = await compare(doc, body, 'application/pdf', { prefer: 'respond-async, wait=120' });
    assert.equal(waitedPdf.status, 200, waitedPdf.text);
    assert.equal(waitedPdf.headers.get('content-type'), 'application/pdf');
    assert.ok(qpdfCheck(waitedPdf.bytes).ok);
    // wait=N alone on ordinary work: inline, the preference not applied.
    const plain = await compare(doc, body, 'application/json', { prefer: 'wait=5' });
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.headers.get('preference-applied'), null);
    assert.match(plain.headers.get('etag') ?? '', /^W\/"compare-/);
  });

  test('a pair larger than PDFSERVICE_JOB_ASYNC_BYTES goes async without Prefer; with wait=N it answers inline', async () => {
    const base = comparePdf(pagesOf(120));
    const changedPages = pagesOf(120);
    changedPages[60]!.lines[2] = `${changedPages[60]!.lines[2]} added`;
    const changed = comparePdf(changedPages);
    assert.ok(base.length > ASYNC_BYTES && changed.length > ASYNC_BYTES, `fixtures of ${base.length} and ${changed.length} bytes`);
    await upload('compare-job/large-base.pdf', base);
    await upload('compare-job/large-new.pdf', changed);
    const body = { with: { filePath: 'compare-job/large-base.pdf' } };
    const reply = await compare('compare-job/large-new.pdf', body);
    const id = jobIdOf(reply);
    assert.equal(reply.headers.get('preference-applied'), null);
    const job = await jobEnded(server, id, { seconds: 180 });
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const report = (await call(server, 'GET', `/jobs/${id}/result`)).json();
    assert.equal(report.summary.changedPages, 1);
    assert.deepEqual(report.pages[60].insertedWords.map((w: { text: string }) => w.text), ['added']);

    const waited = await compare('compare-job/large-new.pdf', body, 'application/json', { prefer: 'wait=180' });
    assert.equal(waited.status, 200, waited.text);
    assert.deepEqual(waited.json(), report);
  });

  test('two versions of one document: the record names the document as both, the report the version', async () => {
    const doc = 'compare-job/versions.pdf';
    const changed = pagesOf(3);
    changed[2]!.lines[1] = `${changed[2]!.lines[1]} later`;
    await upload(doc, comparePdf(pagesOf(3)));
    await upload(doc, comparePdf(changed));
    const versions = await call(server, 'GET', `/documents/${doc}/versions`);
    assert.equal(versions.status, 200, versions.text);
    const list = versions.json();
    const first = (list.versions.find((v: { id: string }) => v.id !== list.current) ?? list.versions.at(-1)).id as string;
    const job = await jobEnded(server, jobIdOf(await compare(doc, { with: { versionId: first } }, 'application/json', { prefer: 'respond-async' })));
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    assert.equal(job.document, doc);
    assert.equal(job.base, doc);
    const report = (await call(server, 'GET', `/jobs/${job.id}/result`)).json();
    assert.equal(report.base.versionId, first);
    assert.deepEqual(report.pages[2].insertedWords.map((w: { text: string }) => w.text), ['later']);
  });

  test('bad input is answered 4xx at submission, and no job is made', async () => {
    const { doc, base } = await smallPair('bad');
    await upload('compare-job/locked.pdf', encryptPdf(comparePdf(pagesOf(2)), 'user-pw', 'owner-pw', '256', ['--extract=n']));
    const before = await jobIds();
    const refusals: [object, string, number, string][] = [
      [{ with: { filePath: 'compare-job/nothing.pdf' } }, 'application/json', 404, 'DOCUMENT_NOT_FOUND'],
      [{ with: { filePath: base, versionId: '999' } }, 'application/json', 404, 'VERSION_NOT_FOUND'],
      [{ with: { filePath: 'compare-job/memo.txt' } }, 'application/json', 400, 'INVALID_PATH'],
      [{ with: {} }, 'application/json', 400, 'VALIDATION_FAILED'],
      [{ with: { filePath: base }, dpi: 1000 }, 'application/json', 400, 'VALIDATION_FAILED'],
      [{ with: { filePath: base } }, 'image/png', 406, 'NOT_ACCEPTABLE'],
      [{ with: { filePath: 'compare-job/locked.pdf' } }, 'application/json', 403, 'DOCUMENT_PASSWORD_REQUIRED'],
      [{ with: { filePath: 'compare-job/locked.pdf', password: 'wrong' } }, 'application/json', 403, 'DOCUMENT_PASSWORD_INVALID'],
      // Opened with its user password, the document forbids copying text: text: true is refused at submission.
      [{ with: { filePath: 'compare-job/locked.pdf', password: 'user-pw' } }, 'application/json', 403, 'DOCUMENT_PERMISSION_DENIED'],
    ];
    for (const [body, accept, status, code] of refusals) {
      for (const prefer of ['respond-async', 'respond-async, wait=30']) {
        const reply = await compare(doc, body, accept, { prefer });
        assert.equal(reply.status, status, `${JSON.stringify(body)} ${prefer}: ${reply.text}`);
        assert.equal(reply.json().code, code, JSON.stringify(body));
      }
    }
    assert.deepEqual(await jobIds(), before, 'no job was made');
    // text: false compares it, as a job too.
    const job = await jobEnded(server, jobIdOf(await compare(doc, { with: { filePath: 'compare-job/locked.pdf', password: 'user-pw' }, text: false }, 'application/json', { prefer: 'respond-async' })));
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
  });

  test('cancel: the job ends cancelled, keeps no result, and its engine tasks stop', async () => {
    // Every page differs (other lines), rendered at the highest resolution: seconds of engine work.
    const pages = 400;
    await upload('compare-job/cancel-base.pdf', comparePdf(pagesOf(pages)));
    await upload('compare-job/cancel-new.pdf', comparePdf(pagesOf(pages, 1000)));
    const reply = await compare('compare-job/cancel-new.pdf', { with: { filePath: 'compare-job/cancel-base.pdf' }, dpi: 150 }, 'application/pdf', { prefer: 'respond-async' });
    const id = jobIdOf(reply);
    // Running, with engine work under way.
    await until('the compare job is running', async () => ((await call(server, 'GET', `/jobs/${id}`)).json().state === 'running' ? true : undefined));
    let before = 0;
    await engineState(server, (engine) => {
      before = engine.cancelled;
      return engine.busy > 0;
    });
    const cancelled = await call(server, 'DELETE', `/jobs/${id}`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.json().state, 'cancelled');
    // Its engine tasks were stopped (counted as cancelled by the pool), not left to run on.
    await engineState(server, (engine) => engine.busy === 0 && engine.queued === 0 && engine.cancelled > before);
    const result = await call(server, 'GET', `/jobs/${id}/result`);
    assert.equal(result.status, 404, result.text);
    assert.equal(result.json().code, 'JOB_RESULT_NOT_FOUND');
  });
});
