/**
 * A job's result file (issue 36): an action that produces a file which is not a stored document (TestExportAction,
 * test only) runs as a job; its record's result.file describes the file, GET /jobs/{id}/result downloads it (ETag,
 * HEAD, If-None-Match, Range, Content-Disposition with its name, Content-Type from the record), it lies beside the job
 * records on disk, and it goes with the record (the retention sweep); a job that fails keeps none.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, jobEnded, putPdf, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import type { TestServer } from '../helpers/server.js';
import { until } from '../helpers/jobs.js';
import { bigExport, exportText, startWithTestActions, type InProcessServer } from '../helpers/test-actions.js';

const EXPORT = { TestExportAction: {} };
const NAME = 'export résumé.md';

/** The job results folder beside the job records (state/jobs/). */
function resultsDir(dataDir: string): string {
  return path.join(dataDir, 'state', 'job-results');
}

async function resultFiles(dataDir: string): Promise<string[]> {
  return existsSync(resultsDir(dataDir)) ? readdir(resultsDir(dataDir)) : [];
}

describe('job result files (embedded)', () => {
  let service: InProcessServer;
  let server: TestServer;

  before(async () => {
    service = await startWithTestActions();
    server = service as unknown as TestServer;
  });

  after(async () => {
    await service?.stop();
    if (service) await rm(service.dataDir, { recursive: true, force: true });
  });

  async function exportJob(document: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const reply = await call(server, 'POST', `/documents/${document}`, { body: { TestExportAction: params } });
    assert.equal(reply.status, 202, reply.text);
    return jobEnded(server, reply.json().id);
  }

  test('a job that produces a file: its record describes it, and GET /jobs/{id}/result downloads it as documents download', async () => {
    const pdf = makePdf({ pages: 2 });
    assert.equal((await putPdf(server, 'results/a.pdf', pdf)).status, 201);
    const sourceEtag = (await call(server, 'GET', '/documents/results/a.pdf', { headers: { accept: 'application/json' } })).json().etag;
    const job = await exportJob('results/a.pdf');
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const expected = Buffer.from(exportText(pdf.length, sourceEtag));
    const file = job.result.file;
    assert.equal(file.name, NAME);
    assert.equal(file.mediaType, 'text/markdown');
    assert.equal(file.size, expected.length);
    assert.equal(file.url, `/pdfservice/v1/jobs/${job.id}/result`);
    // The source, unchanged, is what the result names.
    assert.equal(job.result.path, '/results/a.pdf');
    assert.equal(job.result.document.etag, sourceEtag);

    const got = await call(server, 'GET', `/jobs/${job.id}/result`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.bytes, expected);
    assert.match(got.headers.get('content-type')!, /^text\/markdown\b/);
    assert.equal(got.headers.get('etag'), file.etag);
    assert.equal(got.headers.get('content-length'), String(expected.length));
    assert.equal(got.headers.get('content-disposition'), `attachment; filename="export r_sum_.md"; filename*=UTF-8''export%20r%C3%A9sum%C3%A9.md`);
    // An ETag computed by an independent hash: the first 16 bytes of SHA-256, as documents'.
    assert.equal(file.etag, `"${sha256(expected).slice(0, 32)}"`);

    const head = await call(server, 'HEAD', `/jobs/${job.id}/result`);
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    assert.equal(head.headers.get('etag'), file.etag);
    assert.equal(head.headers.get('content-length'), String(expected.length));

    const unchanged = await call(server, 'GET', `/jobs/${job.id}/result`, { headers: { 'if-none-match': file.etag } });
    assert.equal(unchanged.status, 304);
    const part = await call(server, 'GET', `/jobs/${job.id}/result`, { headers: { range: 'bytes=2-7' } });
    assert.equal(part.status, 206);
    assert.deepEqual(part.bytes, expected.subarray(2, 8));
    assert.equal(part.headers.get('content-range'), `bytes 2-7/${expected.length}`);
    const inline = await call(server, 'GET', `/jobs/${job.id}/result?attachment=false`);
    assert.match(inline.headers.get('content-disposition')!, /^inline; /);
    const refused = await call(server, 'GET', `/jobs/${job.id}/result`, { headers: { accept: 'application/pdf' } });
    assert.equal(refused.status, 406, refused.text);

    // On disk beside the job records, named by the job id, the bytes downloaded.
    assert.deepEqual(await readFile(path.join(resultsDir(service.dataDir), job.id)), expected);
    // Not a document: the folder lists the source only.
    const listing = (await call(server, 'GET', '/documents/results', { headers: { accept: 'application/json' } })).json();
    assert.deepEqual(JSON.stringify(listing).match(/"name":"[^"]*"/g), ['"name":"a.pdf"']);
  });

  test('Prefer: wait answers the file itself when the job ends in time', async () => {
    const pdf = makePdf();
    await putPdf(server, 'results/wait.pdf', pdf);
    const reply = await call(server, 'POST', '/documents/results/wait.pdf', { body: EXPORT, headers: { prefer: 'wait=60' } });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type')!, /^text\/markdown\b/);
    assert.match(reply.text, new RegExp(`^# Export\\n\\n${pdf.length} bytes`));
    assert.match(reply.headers.get('content-disposition')!, /^attachment; /);
  });

  test('a large result is streamed to disk and back whole', async () => {
    await putPdf(server, 'results/big.pdf', makePdf());
    const bytes = 3 * 1024 * 1024 + 17;
    const job = await exportJob('results/big.pdf', { bytes });
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const expected = Buffer.concat([...bigExport(bytes)]);
    assert.equal(job.result.file.size, bytes);
    const got = await call(server, 'GET', `/jobs/${job.id}/result`);
    assert.equal(got.status, 200);
    assert.equal(sha256(got.bytes), sha256(expected));
    const tail = await call(server, 'GET', `/jobs/${job.id}/result`, { headers: { range: 'bytes=-100' } });
    assert.deepEqual(tail.bytes, expected.subarray(bytes - 100));
    // The staged content is gone once kept: the staging folder holds nothing of it.
    assert.deepEqual(await readdir(path.join(service.dataDir, 'staging')), []);
  });

  test('a job that fails keeps no file, and its result is 404 JOB_RESULT_NOT_FOUND in the problem shape', async () => {
    await putPdf(server, 'results/fails.pdf', makePdf());
    const before = await resultFiles(service.dataDir);
    const job = await exportJob('results/fails.pdf', { fail: true });
    assert.equal(job.state, 'failed');
    assert.equal(job.error.code, 'MALFORMED_PDF');
    assert.deepEqual(await resultFiles(service.dataDir), before, 'no file left, no temporary file either');
    const missing = await call(server, 'GET', `/jobs/${job.id}/result`);
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type')!, /^application\/problem\+json/);
    assert.equal(missing.json().code, 'JOB_RESULT_NOT_FOUND');
  });

  test('a job that wrote a document has no result file; an unknown job or another user\'s is 404 JOB_NOT_FOUND', async () => {
    await putPdf(server, 'results/copy.pdf', makePdf());
    const reply = await call(server, 'POST', '/documents/results/copy.pdf', { body: { CopyAction: { savePath: 'results/copied.pdf' } }, headers: { prefer: 'respond-async' } });
    assert.equal(reply.status, 202, reply.text);
    const job = await jobEnded(server, reply.json().id);
    assert.equal(job.state, 'succeeded');
    assert.equal(job.result.file, undefined);
    const none = await call(server, 'GET', `/jobs/${job.id}/result`);
    assert.equal(none.status, 404);
    assert.equal(none.json().code, 'JOB_RESULT_NOT_FOUND');
    assert.equal((await call(server, 'GET', `/jobs/${'0'.repeat(32)}/result`)).json().code, 'JOB_NOT_FOUND');

    const exported = await exportJob('results/copy.pdf');
    const made = await call(server, 'POST', '/users', { body: { username: 'otto', password: 'otto-test-password-1', rights: ['GET', 'POST'] } });
    assert.equal(made.status, 201, made.text);
    const otto = `Basic ${Buffer.from('otto:otto-test-password-1').toString('base64')}`;
    const foreign = await call(server, 'GET', `/jobs/${exported.id}/result`, { auth: otto });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.json().code, 'JOB_NOT_FOUND');
  });

  test('the file goes with its record: the retention sweep deletes both', async () => {
    await putPdf(server, 'results/swept.pdf', makePdf());
    const job = await exportJob('results/swept.pdf');
    const kept = path.join(resultsDir(service.dataDir), job.id);
    assert.ok(existsSync(kept));
    // The job finished two days ago, past the retention (a week by default: 1 day here); the start sweeps it.
    const recordFile = path.join(service.dataDir, 'state', 'jobs', `${job.id}.json`);
    const record = JSON.parse(await readFile(recordFile, 'utf8'));
    record.finished = new Date(Date.now() - 2 * 86400_000).toISOString();
    await writeFile(recordFile, JSON.stringify(record));
    await service.stop();
    service = await startWithTestActions({ PDFSERVICE_JOB_RETENTION_SECONDS: '86400' }, { dataDir: service.dataDir });
    server = service as unknown as TestServer;
    // The start's sweep runs beside the start: wait for the record to go.
    await until('the record is swept', async () => (existsSync(recordFile) ? undefined : true));
    assert.equal(existsSync(kept), false, 'and its file went first');
    assert.equal((await call(server, 'GET', `/jobs/${job.id}/result`)).json().code, 'JOB_NOT_FOUND');
  });
});
