/**
 * Watched folders across instances (docs/watched-folders.md): two instances on one Redis and one data folder, both
 * running jobs from the shared queue. 100 documents uploaded into a watched folder, through both instances at once,
 * give exactly 100 runs and 100 outputs, each stamped (pdftotext); a restarted instance, which scans the folder for
 * missed arrivals, runs none of them again.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, putPdf, storedBytes } from '../helpers/http.js';
import { until } from '../helpers/jobs.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DOCUMENTS = 100;
const STAMP = 'CLUSTER-WATCHED';

describe('a watched folder with two instances on one Redis', () => {
  const redis = redisServerForSuite();
  const PREFIX = `wf${randomBytes(3).toString('hex')}:`;
  let dataDir: string;
  let env: Record<string, string>;
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-watched-cluster-'));
    env = { PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem', PDFSERVICE_WATCH_RETRY_MS: '500' };
    a = await startServer({ dataDir, env });
    b = await startServer({ dataDir, env });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function runs(server: TestServer): Promise<Record<string, any>> {
    const got = await call(server, 'GET', '/watched-folders/cluster', { headers: { accept: 'application/json' } });
    assert.equal(got.status, 200, got.text);
    return got.json();
  }

  test(`${DOCUMENTS} uploads through both instances give exactly ${DOCUMENTS} runs and ${DOCUMENTS} outputs`, async () => {
    assert.equal((await call(a, 'PUT', '/pipelines/cluster-stamp', { body: { steps: [{ TextStampAction: { text: STAMP, x: 72, y: 72 } }] } })).status, 201);
    for (const folder of ['inbox', 'outbox']) assert.equal((await call(a, 'PUT', `/documents/${folder}`)).status, 201);
    // Bound on B, seen by A at once: the binding is in Redis.
    const bound = await call(b, 'PUT', '/watched-folders/cluster', { body: { folder: 'inbox', pipeline: { name: 'cluster-stamp' }, target: 'outbox' } });
    assert.equal(bound.status, 201, bound.text);

    // Eight uploads in flight at a time, alternating between the instances.
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = next++; i < DOCUMENTS; i = next++) {
        const put = await putPdf(i % 2 === 0 ? a : b, `inbox/doc-${i}.pdf`, makePdf({ pages: 1, text: () => `Document ${i}` }));
        assert.equal(put.status, 201, put.text);
      }
    }));

    const deadline = Date.now() + 300_000;
    let binding = await runs(a);
    while (!(binding.runCount === DOCUMENTS && binding.runs.every((r: any) => r.state === 'succeeded' || r.state === 'failed'))) {
      assert.ok(Date.now() < deadline, `runs did not end: ${binding.runCount} runs, ${binding.runs.filter((r: any) => r.state !== 'succeeded').length} not succeeded`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      binding = await runs(a);
    }
    assert.equal(binding.runCount, DOCUMENTS);
    assert.equal(binding.runs.length, DOCUMENTS);
    assert.deepEqual(binding.runs.filter((r: any) => r.state !== 'succeeded'), []);
    assert.equal(new Set(binding.runs.map((r: any) => r.document)).size, DOCUMENTS);
    const jobIds = binding.runs.map((r: any) => r.jobId);
    assert.equal(new Set(jobIds).size, DOCUMENTS);
    assert.ok(binding.runs.every((r: any) => r.attempts === 1 && r.jobIds.length === 1));
    // B sees the same runs.
    assert.equal((await runs(b)).runCount, DOCUMENTS);

    // Exactly one PipelineAction job per document, and every job is one of the runs'.
    const jobs: any[] = (await call(a, 'GET', '/jobs', { headers: { accept: 'application/json' } })).json().jobs;
    const pipelineJobs = jobs.filter((j) => j.action === 'PipelineAction');
    assert.equal(pipelineJobs.length, DOCUMENTS);
    assert.deepEqual(new Set(pipelineJobs.map((j) => j.id)), new Set(jobIds));

    const outputs = (await readdir(path.join(dataDir, 'documents', 'outbox'))).filter((n) => n.endsWith('.pdf'));
    assert.equal(outputs.length, DOCUMENTS);
    for (let i = 0; i < DOCUMENTS; i++) {
      const text = pdftotext(await storedBytes(a, `outbox/doc-${i}.pdf`));
      assert.match(text, new RegExp(STAMP), `doc-${i}`);
      assert.match(text, new RegExp(`Document ${i}\\b`), `doc-${i}`);
    }

    // A restarted instance scans the folder: every document there has its run, so nothing runs again.
    await b.stop();
    b = await startServer({ dataDir, env });
    // The restarted instance logs its scan's end once what it found is claimed: it claimed nothing.
    const scanned = await until('the restarted instance ends its start-up scan', async () => {
      const line = b.output.find((l) => l.includes('"watched folders: start-up scan done"'));
      return line === undefined ? undefined : (JSON.parse(line) as { bindings: number; missedArrivals: number });
    });
    assert.equal(scanned.bindings, 1);
    assert.equal(scanned.missedArrivals, 0);
    assert.equal((await runs(b)).runCount, DOCUMENTS);
    assert.equal((await readdir(path.join(dataDir, 'documents', 'outbox'))).filter((n) => n.endsWith('.pdf')).length, DOCUMENTS);
  });
});
