/**
 * Webhooks across instances (docs/webhooks.md): two instances on one Redis and one data folder both run jobs from the
 * shared queue; every job's end is POSTed once, whichever process took the job and whichever made the attempt, and
 * the delivery log in the shared record shows that one attempt on both instances. The retries wait in Redis: an
 * instance stopped during a backoff leaves its webhook to the other. A job run by a worker process (`npm run worker`)
 * is delivered signed with its owner's secret, the worker alone being there to send it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { call, putPdf } from '../helpers/http.js';
import { killProcess, startWorker, until } from '../helpers/jobs.js';
import { makePdf } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const JOBS = 8;

describe('webhooks with two instances on one Redis', () => {
  const redis = redisServerForSuite();
  const PREFIX = `w${randomBytes(3).toString('hex')}:`;
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;
  let receiver: WebhookReceiver;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-webhooks-cluster-'));
    receiver = await startWebhookReceiver();
    // Retries 3 s and then 6 s apart: far longer than an instance's stop.
    const env = {
      PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem', PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.2',
      PDFSERVICE_WEBHOOK_ATTEMPTS: '3', PDFSERVICE_WEBHOOK_BACKOFF_MS: '3000', PDFSERVICE_WEBHOOK_TIMEOUT_MS: '2000',
    };
    a = await startServer({ dataDir, env });
    b = await startServer({ dataDir, env });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('jobs submitted through both instances are each delivered once, verified with the owner\'s secret', async () => {
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const server = i % 2 ? b : a;
      assert.equal((await putPdf(server, `cluster/d${i}.pdf`, makePdf({ pages: 1 }))).status, 201);
      const reply = await call(server, 'POST', `/documents/cluster/d${i}.pdf`, { body: { FlattenAnnotationsAction: {} }, headers: { 'x-service-webhook-url': `${receiver.url}/hook` } });
      assert.equal(reply.status, 202, reply.text);
      ids.push(reply.json().id);
    }
    // Read through the instance that did not take the request: the log is in the shared record.
    const jobs = await Promise.all(ids.map((id, i) => until(`job ${id} delivered`, async () => {
      const job = (await call(i % 2 ? a : b, 'GET', `/jobs/${id}`)).json();
      return job.webhook?.state === 'delivered' ? job : undefined;
    })));
    for (const job of jobs) {
      assert.equal(job.state, 'succeeded');
      assert.equal(job.webhook.deliveries.length, 1, JSON.stringify(job.webhook));
      assert.equal(job.webhook.deliveries[0].status, 200);
    }
    const secret = (await call(a, 'GET', '/users/admin/webhook-secret')).json().secret as string;
    const verifier = new Webhook(secret);
    const seen = receiver.received.map((r) => (verifier.verify(r.body, r.headers as Record<string, string>) as { id: string }).id);
    assert.deepEqual([...seen].sort(), [...ids].sort(), 'each job delivered exactly once');
  });

  test('instance A stopped during the backoff: instance B makes the third attempt, signed, the log showing three', async () => {
    receiver.answers.set('/failover', [{ status: 500 }, { status: 503 }, { status: 204 }]);
    assert.equal((await putPdf(a, 'cluster/failover.pdf', makePdf({ pages: 1 }))).status, 201);
    const reply = await call(a, 'POST', '/documents/cluster/failover.pdf', { body: { FlattenAnnotationsAction: {} }, headers: { 'x-service-webhook-url': `${receiver.url}/failover` } });
    assert.equal(reply.status, 202, reply.text);
    const id = reply.json().id as string;
    const got = () => receiver.received.filter((r) => r.path === '/failover');
    await until('two attempts recorded', async () => ((await call(b, 'GET', `/jobs/${id}`)).json().webhook.deliveries.length === 2 ? true : undefined));
    await a.stop();
    const stopped = Date.now();
    assert.equal(got().length, 2, 'no third attempt yet');
    const job = await until(`job ${id} delivered by B`, async () => {
      const body = (await call(b, 'GET', `/jobs/${id}`)).json();
      return body.webhook.state === 'pending' ? undefined : body;
    });
    assert.equal(job.webhook.state, 'delivered');
    assert.deepEqual(job.webhook.deliveries.map((d: { attempt: number; status: number }) => [d.attempt, d.status]), [[1, 500], [2, 503], [3, 204]]);
    assert.ok(Date.parse(job.webhook.deliveries[2].at) >= stopped, 'the third attempt came after A stopped: B made it');
    assert.equal(got().length, 3, 'each attempt made once');
    const secret = (await call(b, 'GET', '/users/admin/webhook-secret')).json().secret as string;
    assert.equal((new Webhook(secret).verify(got()[2]!.body, got()[2]!.headers as Record<string, string>) as { id: string }).id, id);
  });
});

describe('a job run by a worker process delivers its webhook', () => {
  const redis = redisServerForSuite();
  const PREFIX = `v${randomBytes(3).toString('hex')}:`;
  let dataDir: string;
  let receiver: WebhookReceiver;
  let instance: TestServer | undefined;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-webhooks-worker-'));
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    if (worker) await killProcess(worker.child, 'SIGTERM');
    await instance?.stop();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('submitted to an instance that runs no jobs and then stops, run by the worker, signed with the owner\'s secret', async () => {
    const env = { PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem', PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.2' };
    instance = await startServer({ dataDir, env: { ...env, PDFSERVICE_RUN_JOBS: 'false' } });
    assert.equal((await call(instance, 'POST', '/users', { body: { username: 'owner', password: 'owner-password-1', rights: ['GET', 'POST', 'PUT'] } })).status, 201);
    const auth = basicAuth('owner', 'owner-password-1');
    const secret = (await call(instance, 'GET', '/users/owner/webhook-secret', { auth })).json().secret as string;
    assert.equal((await putPdf({ ...instance, adminAuth: auth }, 'owner/w.pdf', makePdf({ pages: 2 }))).status, 201);
    const reply = await call(instance, 'POST', '/documents/owner/w.pdf', { auth, body: { FlattenAnnotationsAction: {} }, headers: { 'x-service-webhook-url': `${receiver.url}/worker` } });
    assert.equal(reply.status, 202, reply.text);
    const id = reply.json().id as string;
    assert.equal(reply.json().state, 'queued');
    // The instance is gone before the job runs: the worker runs it and is the only process left to deliver it.
    await instance.stop();
    instance = undefined;
    worker = await startWorker(env, dataDir);
    const hook = await until('the webhook arrived', async () => receiver.received.find((r) => r.path === '/worker'));
    const job = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as Record<string, any>;
    assert.equal(job.id, id);
    assert.equal(job.owner, 'owner');
    assert.equal(job.state, 'succeeded');
    assert.equal(job.result.path, '/owner/w.pdf');
    // The log is in the shared record: an instance started again shows the one delivery.
    instance = await startServer({ dataDir, env: { ...env, PDFSERVICE_RUN_JOBS: 'false' } });
    const seen = await until('the delivery recorded', async () => {
      const body = (await call(instance!, 'GET', `/jobs/${id}`)).json();
      return body.webhook.state === 'delivered' ? body : undefined;
    });
    assert.deepEqual(seen.webhook.deliveries.map((d: { attempt: number; status: number }) => [d.attempt, d.status]), [[1, 200]]);
    assert.equal(receiver.received.filter((r) => r.path === '/worker').length, 1);
  });
});
