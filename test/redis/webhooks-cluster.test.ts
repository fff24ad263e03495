/**
 * Webhooks across instances (docs/webhooks.md): two instances on one Redis and one data folder both run jobs from the
 * shared queue; every job's end is POSTed once, by the instance that recorded it, whichever took the job, and the
 * delivery log in the shared record shows that one attempt on both instances.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { call, putPdf } from '../helpers/http.js';
import { until } from '../helpers/jobs.js';
import { makePdf } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
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
    const env = { PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem', PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.2' };
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
});
