import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, jobEnded } from '../helpers/http.js';
import { makePdf, serializePdf } from '../helpers/pdf.js';
import { basicAuth, serverForSuite, type TestServer } from '../helpers/server.js';

/** Samples of a Prometheus text exposition: `name{labels}` → value. Checks every line parses. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // prom-client writes NaN as "Nan" (an empty event-loop-lag histogram early on); Prometheus reads NaN in any case.
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|Nan|\+Inf|-Inf)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

async function scrape(server: TestServer): Promise<Map<string, number>> {
  const reply = await call(server, 'GET', '/metrics');
  assert.equal(reply.status, 200, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseMetrics(reply.text);
}

/** A sample by name and labels in the order prom-client writes them. */
function value(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  const inner = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',');
  return samples.get(inner ? `${name}{${inner}}` : name) ?? 0;
}

describe('metrics', () => {
  // No text prefetch: it would read documents in the background while the test counts bytes read.
  // Instances replaced after each conversion: a conversion then shows a restart in the metrics.
  const server = serverForSuite({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0', PDFSERVICE_OFFICE_RESTART_AFTER: '1' } });
  const DOCUMENT_ROUTE = '/pdfservice/v1/documents/:filePath.pdf';

  test('an upload counts its bytes written, its request by route pattern and status, and its engine task', async () => {
    const before = await scrape(server);
    const pdf = makePdf({ pages: 3, text: (p) => `metrics page ${p}` });
    const put = await call(server, 'PUT', '/documents/metrics/first.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201);
    const after = await scrape(server);

    assert.equal(value(after, 'pdfservice_document_bytes_written_total') - value(before, 'pdfservice_document_bytes_written_total'), pdf.length);
    const labels = { method: 'PUT', route: DOCUMENT_ROUTE, status: '201' };
    assert.equal(value(after, 'pdfservice_http_requests_total', labels) - value(before, 'pdfservice_http_requests_total', labels), 1);
    assert.equal(value(after, 'pdfservice_http_request_duration_seconds_count', labels) - value(before, 'pdfservice_http_request_duration_seconds_count', labels), 1);
    assert.equal(value(after, 'pdfservice_http_request_duration_seconds_bucket', { le: '+Inf', ...labels }), value(after, 'pdfservice_http_request_duration_seconds_count', labels));
    assert.ok(value(after, 'pdfservice_engine_tasks_total', { outcome: 'completed' }) > value(before, 'pdfservice_engine_tasks_total', { outcome: 'completed' }));
    assert.ok(value(after, 'pdfservice_engine_workers') >= 1);
    assert.equal(value(after, 'pdfservice_engine_queue_length'), 0);
    // The upload's check was a task of one of the workers, which had it for some time; no worker has one now.
    const perWorker = (s: Map<string, number>, name: string) => Array.from({ length: value(after, 'pdfservice_engine_workers') }, (_, i) => value(s, name, { worker: String(i) })).reduce((a, b) => a + b, 0);
    assert.ok(perWorker(after, 'pdfservice_engine_worker_tasks_total') > perWorker(before, 'pdfservice_engine_worker_tasks_total'));
    assert.ok(perWorker(after, 'pdfservice_engine_worker_busy_seconds_total') > perWorker(before, 'pdfservice_engine_worker_busy_seconds_total'));
    assert.ok(value(after, 'pdfservice_engine_busy_workers_seconds_total', { busy: '0' }) > 0);
    assert.ok(after.has('process_resident_memory_bytes'), 'process metrics are there too');
  });

  test('the DocumentModel right after an upload or an action needs no engine task and reads no bytes: the write\'s check inspected the version', async () => {
    const pdf = makePdf({ pages: 4, title: 'Checked once' });
    assert.equal((await call(server, 'PUT', '/documents/metrics/model.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const engineTasks = (s: Map<string, number>) => value(s, 'pdfservice_engine_tasks_total', { outcome: 'completed' });
    const bytesRead = (s: Map<string, number>) => value(s, 'pdfservice_document_bytes_read_total');
    let before = await scrape(server);
    const model = await call(server, 'GET', '/documents/metrics/model.pdf', { headers: { accept: 'application/json' } });
    assert.equal(model.status, 200, model.text);
    let after = await scrape(server);
    assert.equal(engineTasks(after), engineTasks(before), 'no engine task');
    assert.equal(bytesRead(after), bytesRead(before), 'no bytes read');
    const m = model.json();
    assert.equal(m.pageCount, 4);
    assert.equal(m.title, 'Checked once');
    assert.equal(m.hasForm, false);
    assert.match(m.pdfVersion, /^1\.\d$/);

    const stamped = await call(server, 'POST', '/documents/metrics/model.pdf/pages', { body: { TextStampAction: { text: 'Once', x: 72, y: 72, savePath: 'metrics/model-stamped.pdf' } } });
    assert.equal(stamped.status, 201, stamped.text);
    before = await scrape(server);
    const output = await call(server, 'GET', '/documents/metrics/model-stamped.pdf', { headers: { accept: 'application/json' } });
    after = await scrape(server);
    assert.equal(output.status, 200, output.text);
    assert.equal(engineTasks(after), engineTasks(before), 'no engine task');
    assert.equal(bytesRead(after), bytesRead(before), 'no bytes read');
    assert.equal(output.json().pageCount, 4);
    assert.equal(output.json().title, 'Checked once');
    assert.equal(output.json().etag, stamped.json().etag);
  });

  test('an action that changes nothing and answers no summary of its own reports its source from the info cache: no engine task but its own', async () => {
    // OptimizeAction answers no summary when the result would not be smaller: this one-page file cannot shrink.
    const tiny = serializePdf(['<</Type/Catalog/Pages 2 0 R>>', '<</Type/Pages/Kids[3 0 R]/Count 1>>', '<</Type/Page/Parent 2 0 R/MediaBox[0 0 99 99]>>'], '/Root 1 0 R');
    const put = await call(server, 'PUT', '/documents/metrics/unchanged.pdf', { body: tiny, headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201, put.text);
    const engineTasks = (s: Map<string, number>) => value(s, 'pdfservice_engine_tasks_total', { outcome: 'completed' }) + value(s, 'pdfservice_engine_tasks_total', { outcome: 'failed' });
    const before = await scrape(server);
    const reply = await call(server, 'POST', '/documents/metrics/unchanged.pdf', { body: { OptimizeAction: { profileName: 'lossless' } } });
    const after = await scrape(server);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().report.changed, false);
    assert.equal(engineTasks(after) - engineTasks(before), 1, 'the optimize task only: the upload\'s check inspected the version');
    assert.equal(reply.json().etag, put.json().etag);
    assert.equal(reply.json().pageCount, 1);
    assert.equal(reply.json().encrypted, false);
  });

  test('a download counts its bytes read; a bad upload counts a failed engine task; unknown URLs are one label', async () => {
    const pdf = makePdf({ pages: 2 });
    assert.equal((await call(server, 'PUT', '/documents/metrics/second.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const before = await scrape(server);
    const download = await call(server, 'GET', '/documents/metrics/second.pdf');
    assert.ok(download.bytes.equals(pdf));
    const bad = await call(server, 'PUT', '/documents/metrics/bad.pdf', { body: Buffer.from('%PDF-1.7\nnot really a PDF at all'), headers: { 'content-type': 'application/pdf' } });
    assert.equal(bad.status, 422);
    for (const name of ['nothing-here', 'nor-here']) assert.equal((await call(server, 'GET', `/${name}`)).status, 404);
    const after = await scrape(server);

    assert.equal(value(after, 'pdfservice_document_bytes_read_total') - value(before, 'pdfservice_document_bytes_read_total'), pdf.length);
    assert.ok(value(after, 'pdfservice_engine_tasks_total', { outcome: 'failed' }) > value(before, 'pdfservice_engine_tasks_total', { outcome: 'failed' }));
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    assert.equal(value(after, 'pdfservice_http_requests_total', unmatched) - value(before, 'pdfservice_http_requests_total', unmatched), 2);
    assert.ok(![...after.keys()].some((k) => k.includes('nothing-here')), 'raw URLs are never labels');
  });

  test('a Word upload counts a LibreOffice run with its duration and outcome', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-metrics-'));
    try {
      writeFileSync(path.join(dir, 'memo.txt'), 'Counted conversion.\n');
      execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'docx', '--outdir', dir, path.join(dir, 'memo.txt')], { stdio: 'ignore' });
      const docx = readFileSync(path.join(dir, 'memo.docx'));
      const before = await scrape(server);
      const reply = await call(server, 'PUT', '/documents/metrics/memo.pdf', {
        body: docx,
        headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', prefer: 'wait=120' },
      });
      assert.equal(reply.status, 201, reply.text);
      const after = await scrape(server);
      const ok = { program: 'soffice', outcome: 'ok' };
      assert.equal(value(after, 'pdfservice_program_runs_total', ok) - value(before, 'pdfservice_program_runs_total', ok), 1);
      assert.equal(value(after, 'pdfservice_program_run_duration_seconds_count', ok) - value(before, 'pdfservice_program_run_duration_seconds_count', ok), 1);
      assert.ok(value(after, 'pdfservice_program_run_duration_seconds_sum', ok) > value(before, 'pdfservice_program_run_duration_seconds_sum', ok));
      // The Office pool: its size, nothing under way or waiting once the answer came, and the instance replaced after its one use.
      const soffice = { program: 'soffice' };
      assert.ok(value(after, 'pdfservice_program_slots', soffice) >= 1);
      assert.equal(value(after, 'pdfservice_program_runs_active', soffice), 0);
      assert.equal(value(after, 'pdfservice_program_runs_waiting', soffice), 0);
      assert.ok(after.has('pdfservice_program_processes{program="soffice"}'));
      const restarts = (s: Map<string, number>) => value(s, 'pdfservice_program_restarts_total', { program: 'soffice', reason: 'uses' });
      for (let i = 0; i < 100 && restarts(await scrape(server)) === restarts(before); i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(restarts(await scrape(server)) - restarts(before), 1, 'the instance was replaced after its one conversion');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('background jobs: submitted, waited, ran and ended by action, state and code; the queue gauges go back to zero', async () => {
    const before = await scrape(server);
    // An Office upload is a job by nature. Its content is an Excel workbook declared as Word: the job fails with
    // MALFORMED_DOCUMENT before LibreOffice is asked (a ZIP is a ZIP in the first bytes, so only the job's check tells).
    const xlsx = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(200, 7)]);
    const reply = await call(server, 'PUT', '/documents/metrics/job.pdf', {
      body: xlsx,
      headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    });
    assert.equal(reply.status, 202, reply.text);
    const job = await jobEnded(server, reply.json().id);
    assert.equal(job.state, 'failed');
    assert.equal(job.error.code, 'MALFORMED_DOCUMENT');
    const after = await scrape(server);
    const upload = { action: 'upload' };
    const failed = { action: 'upload', state: 'failed', code: 'MALFORMED_DOCUMENT' };
    assert.equal(value(after, 'pdfservice_jobs_submitted_total', upload) - value(before, 'pdfservice_jobs_submitted_total', upload), 1);
    assert.equal(value(after, 'pdfservice_jobs_finished_total', failed) - value(before, 'pdfservice_jobs_finished_total', failed), 1);
    assert.equal(value(after, 'pdfservice_job_wait_seconds_count', upload) - value(before, 'pdfservice_job_wait_seconds_count', upload), 1);
    const ran = { action: 'upload', state: 'failed' };
    assert.equal(value(after, 'pdfservice_job_run_seconds_count', ran) - value(before, 'pdfservice_job_run_seconds_count', ran), 1);
    for (const state of ['queued', 'running', 'shared']) assert.equal(value(after, 'pdfservice_jobs', { state }), 0, state);
    assert.ok(after.has('pdfservice_jobs{state="queued"}'));
  });

  test('only admins may read them: another user is 403, no login is 401', async () => {
    const user = { username: 'metrics-reader', password: 'metrics-reader-pw' };
    assert.equal((await call(server, 'POST', '/users', { body: { ...user, rights: ['GET', 'POST', 'PUT', 'DELETE'] } })).status, 201);
    const forbidden = await call(server, 'GET', '/metrics', { auth: basicAuth(user.username, user.password) });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.json().code, 'FORBIDDEN');
    const anonymous = await call(server, 'GET', '/metrics', { auth: false });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json().code, 'AUTHENTICATION_REQUIRED');
  });
});

describe('metrics with PDFSERVICE_METRICS_PUBLIC=true', () => {
  const server = serverForSuite({ env: { PDFSERVICE_METRICS_PUBLIC: 'true' } });

  test('anyone may read them without login', async () => {
    const reply = await call(server, 'GET', '/metrics', { auth: false });
    assert.equal(reply.status, 200, reply.text);
    assert.ok(parseMetrics(reply.text).has('pdfservice_engine_workers'));
  });
});
