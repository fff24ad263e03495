import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serverForSuite } from '../helpers/server.js';
import { call, engineState, putPdf, storedBytes } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';

describe('a client that goes away stops its engine work', () => {
  const server = serverForSuite({ env: { PDFSERVICE_WORKERS: '1', PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });

  test('closing the connection mid-request cancels the running task, replaces its worker, and writes nothing', async () => {
    assert.equal((await putPdf(server, 'gone/slow.pdf', makePdf({ pages: 1, text: () => 'a'.repeat(40) }))).status, 201);
    const before = await storedBytes(server, 'gone/slow.pdf');
    // A regular expression that backtracks for ever holds its worker for the whole regex budget.
    const client = new AbortController();
    const request = fetch(`${server.api}/documents/gone/slow.pdf/annotations/redaction`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ searchText: '(a+)+b', regex: true }),
      signal: client.signal,
    });
    await engineState(server, (engine) => engine.busy === 1);
    client.abort();
    await assert.rejects(request);
    await engineState(server, (engine) => engine.cancelled === 1 && engine.busy === 0);
    assert.deepEqual(await storedBytes(server, 'gone/slow.pdf'), before, 'nothing was written');
    const text = await call(server, 'GET', '/documents/gone/slow.pdf/text');
    assert.equal(text.status, 200, 'the fresh worker answers');
    const health = (await call(server, 'GET', '/health', { auth: false })).json().engine;
    assert.equal(health.failed, 0, 'the task was stopped, not left to fail at its regex budget');
    const metrics = (await call(server, 'GET', '/metrics')).text;
    assert.match(metrics, /^pdfservice_engine_tasks_total\{outcome="cancelled"\} 1$/m);
    assert.match(metrics, /^pdfservice_engine_worker_restarts_total\{reason="cancel"\} 1$/m);
  });
});
