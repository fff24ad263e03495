/**
 * Job result files across processes (issue 36): a real Redis, a real S3 store (Swift), two service instances that only
 * queue jobs (PDFSERVICE_RUN_JOBS=false) and a worker that runs them, each with its own data folder and the test-only
 * TestExportAction. The worker keeps the file in the bucket under the reserved prefix `<prefix>.job-results/`; the
 * other instance downloads it; no listing shows it; a failed job leaves nothing there; the retention sweep deletes it
 * with the record.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { connectRedis } from '../../src/redis.js';
import { clusterEnv } from '../helpers/cluster-env.js';
import { call, jobEnded, putPdf, sha256 } from '../helpers/http.js';
import { until } from '../helpers/jobs.js';
import { makePdf } from '../helpers/pdf.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { bigExport, exportText, startWithTestActions, type InProcessServer } from '../helpers/test-actions.js';

const PREFIX = 'docs/';
const REDIS_PREFIX = 'results:';

describe('job result files across instances and a worker (Redis, S3)', () => {
  let redis: RedisServer;
  let s3: S3Server;
  let env: Record<string, string>;
  const started: InProcessServer[] = [];
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    redis = await startRedisServer();
    s3 = await startS3Server();
    env = { ...clusterEnv(redis, s3, { redisPrefix: REDIS_PREFIX, s3Prefix: PREFIX, s3TimeoutMs: 10_000 }), PDFSERVICE_RUN_JOBS: 'false', PDFSERVICE_REDIS_TIMEOUT_MS: '10000' };
    for (const mode of ['service', 'service', 'worker'] as const) started.push(await startWithTestActions(env, { mode }));
    [a, b] = started as unknown as TestServer[];
  });

  after(async () => {
    for (const server of started) await server.stop().catch(() => {});
    for (const server of started) await rm(server.dataDir, { recursive: true, force: true });
    await s3?.dispose();
    await redis?.dispose();
  });

  async function exportOn(server: TestServer, document: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const reply = await call(server, 'POST', `/documents/${document}`, { body: { TestExportAction: params } });
    assert.equal(reply.status, 202, reply.text);
    return jobEnded(server, reply.json().id);
  }

  async function keys(): Promise<string[]> {
    const listed = await s3.client().send(new ListObjectsV2Command({ Bucket: s3.buckets[0]!, Prefix: `${PREFIX}.job-results/` }));
    return (listed.Contents ?? []).map((o) => o.Key!);
  }

  async function present(key: string): Promise<boolean> {
    try {
      await s3.client().send(new HeadObjectCommand({ Bucket: s3.buckets[0]!, Key: key }));
      return true;
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw err;
    }
  }

  test('the worker keeps the file in the bucket; another instance downloads it; no listing shows it', async () => {
    const pdf = makePdf({ pages: 3 });
    assert.equal((await putPdf(a, 'shared/a.pdf', pdf)).status, 201);
    const etag = (await call(a, 'GET', '/documents/shared/a.pdf', { headers: { accept: 'application/json' } })).json().etag;
    const job = await exportOn(a, 'shared/a.pdf');
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    const expected = Buffer.from(exportText(pdf.length, etag));
    const got = await call(b, 'GET', `/jobs/${job.id}/result`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.bytes, expected);
    assert.equal(got.headers.get('etag'), job.result.file.etag);
    assert.match(got.headers.get('content-type')!, /^text\/markdown\b/);
    assert.ok(await present(`${PREFIX}.job-results/${job.id}`), 'kept in the bucket under the reserved prefix');
    // Neither instance kept it in its own data folder; no listing of the store shows it.
    const root = (await call(b, 'GET', '/documents/', { headers: { accept: 'application/json' } })).json();
    assert.ok(!JSON.stringify(root).includes('job-results'), JSON.stringify(root));

    // A large one, streamed from the staged file to S3 and back.
    const bytes = 3 * 1024 * 1024 + 5;
    const big = await exportOn(b, 'shared/a.pdf', { bytes });
    assert.equal(big.state, 'succeeded', JSON.stringify(big));
    const whole = await call(a, 'GET', `/jobs/${big.id}/result`);
    assert.equal(sha256(whole.bytes), sha256(Buffer.concat([...bigExport(bytes)])));
    const part = await call(a, 'GET', `/jobs/${big.id}/result`, { headers: { range: 'bytes=100-199' } });
    assert.equal(part.status, 206);
    assert.deepEqual(part.bytes, Buffer.concat([...bigExport(bytes)]).subarray(100, 200));
  });

  test('a failed job leaves nothing in the bucket', async () => {
    await putPdf(a, 'shared/fails.pdf', makePdf());
    const before = await keys();
    const job = await exportOn(a, 'shared/fails.pdf', { fail: true });
    assert.equal(job.state, 'failed');
    assert.deepEqual(await keys(), before);
    assert.equal((await call(b, 'GET', `/jobs/${job.id}/result`)).json().code, 'JOB_RESULT_NOT_FOUND');
  });

  test('the retention sweep deletes the file with its record', async () => {
    await putPdf(a, 'shared/swept.pdf', makePdf());
    const job = await exportOn(a, 'shared/swept.pdf');
    const key = `${PREFIX}.job-results/${job.id}`;
    assert.ok(await present(key));
    // Finished two days ago; an instance that starts with a retention of one day sweeps it.
    const connection = await connectRedis({ url: redis.url, prefix: REDIS_PREFIX, timeoutMs: 2000 });
    try {
      const record = JSON.parse((await connection.client.get(connection.key('job', job.id)))!);
      record.finished = new Date(Date.now() - 2 * 86400_000).toISOString();
      await connection.client.set(connection.key('job', job.id), JSON.stringify(record));
    } finally {
      await connection.close();
    }
    // A process of its own (it needs no test action to sweep): its start's sweep does not share this process's event loop.
    const sweeper = await startServer({ env: { ...env, PDFSERVICE_WORKERS: '1', PDFSERVICE_JOB_RETENTION_SECONDS: '86400' } });
    try {
      await until('the record is swept', async () => ((await call(a, 'GET', `/jobs/${job.id}`)).status === 404 ? true : undefined));
      assert.equal(await present(key), false, 'its file went with it');
    } finally {
      await sweeper.stop();
    }
  });
});
