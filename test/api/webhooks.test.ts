/**
 * Webhooks (docs/webhooks.md): a request that creates a job names a callback URL (X-Service-Webhook-Url); when the
 * job ends the service POSTs the job model there, signed as Standard Webhooks asks with the owner's secret. A loopback
 * receiver on 127.0.0.2 (listed in the allow-list) checks every signature with the `standardwebhooks` package, an
 * implementation other than the service's; retries, a hanging receiver, redirects, URLs the service refuses and a
 * rotated secret are each tried.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { basicAuth, serverForSuite, startServer, type TestServer } from '../helpers/server.js';
import { call, expectUnchanged, jobEnded, putPdf } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { until } from '../helpers/jobs.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const FLATTEN = { FlattenAnnotationsAction: {} };
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('webhooks', () => {
  const server = serverForSuite({
    env: {
      // The receiver's address, a name that resolves to loopback (never allowed by a name alone) and nothing else.
      PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.2, localhost',
      PDFSERVICE_WEBHOOK_ATTEMPTS: '3',
      PDFSERVICE_WEBHOOK_BACKOFF_MS: '100',
      PDFSERVICE_WEBHOOK_TIMEOUT_MS: '1000',
    },
  });
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    assert.equal((await putPdf(server, 'hooks/a.pdf', makePdf({ pages: 2 }))).status, 201);
  });
  after(async () => {
    await receiver?.close();
  });

  async function secret(user = 'admin', auth?: string): Promise<string> {
    const reply = await call(server, 'GET', `/users/${user}/webhook-secret`, auth ? { auth } : {});
    assert.equal(reply.status, 200, reply.text);
    const { secret: value } = reply.json<{ secret: string }>();
    assert.match(value, /^whsec_[A-Za-z0-9+/]+=*$/);
    return value;
  }

  /** Submits a job naming the webhook at `path` of the receiver: the header alone makes it a job (202). */
  async function submit(path: string, headers: Record<string, string> = {}): Promise<string> {
    const reply = await call(server, 'POST', '/documents/hooks/a.pdf', { body: FLATTEN, headers: { 'x-service-webhook-url': `${receiver.url}${path}`, ...headers } });
    assert.equal(reply.status, 202, reply.text);
    const job = reply.json();
    assert.deepEqual(job.webhook, { url: `${receiver.url}${path}`, state: 'pending', deliveries: [] });
    return job.id as string;
  }

  /** The job once its webhook is delivered or given up. */
  function webhookSettled(id: string): Promise<Record<string, any>> {
    return until(`job ${id}'s webhook settled`, async () => {
      const job = (await call(server, 'GET', `/jobs/${id}`)).json();
      return job.webhook?.state === 'pending' ? undefined : job;
    });
  }

  test('a receiver that fails twice gets the job on the third attempt, signed with the owner\'s secret, the log showing three attempts', async () => {
    receiver.answers.set('/flaky', [{ status: 500 }, { status: 503 }, { status: 204 }]);
    const key = await secret();
    const id = await submit('/flaky', { traceparent: TRACEPARENT });
    const job = await webhookSettled(id);
    assert.equal(job.state, 'succeeded');
    assert.equal(job.webhook.state, 'delivered');
    assert.deepEqual(job.webhook.deliveries.map((d: { attempt: number; status: number }) => [d.attempt, d.status]), [[1, 500], [2, 503], [3, 204]]);
    for (const d of job.webhook.deliveries) assert.ok(!Number.isNaN(Date.parse(d.at)), d.at);
    const got = receiver.received.filter((r) => r.path === '/flaky');
    assert.equal(got.length, 3);
    const verifier = new Webhook(key);
    for (const request of got) {
      assert.equal(request.headers['content-type'], 'application/json');
      assert.equal(request.headers['webhook-id'], id, 'one message id for every attempt');
      const payload = verifier.verify(request.body, request.headers as Record<string, string>) as Record<string, any>;
      assert.equal(payload.id, id);
      assert.equal(payload.state, 'succeeded');
      assert.equal(payload.result.path, '/hooks/a.pdf');
      assert.equal(payload.webhook, undefined, 'the delivery log is not in the body');
      assert.equal(request.headers.traceparent, TRACEPARENT, 'the creating request\'s traceparent is sent on');
    }
    // Another secret does not verify it.
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got[0]!.body, got[0]!.headers as Record<string, string>));
  });

  test('a receiver that hangs is given up after the bounded attempts; the job succeeded all the same', async () => {
    receiver.answers.set('/hang', ['hang']);
    const id = await submit('/hang', { traceparent: 'not-a-traceparent' });
    const ended = await jobEnded(server, id);
    assert.equal(ended.state, 'succeeded', 'the receiver does not change the job\'s outcome');
    const job = await webhookSettled(id);
    assert.equal(job.state, 'succeeded');
    assert.equal(job.webhook.state, 'failed');
    assert.equal(job.webhook.deliveries.length, 3);
    for (const d of job.webhook.deliveries) {
      assert.equal(d.status, undefined);
      assert.match(d.error, /No answer within 1000 ms/);
    }
    const got = receiver.received.filter((r) => r.path === '/hang');
    assert.equal(got.length, 3);
    assert.equal(got[0]!.headers.traceparent, undefined, 'an invalid traceparent is not sent on');
  });

  test('a receiver that answers 500 every time: three attempts, failed, the job unaffected', async () => {
    receiver.answers.set('/down', [{ status: 500 }]);
    const id = await submit('/down');
    const job = await webhookSettled(id);
    assert.equal(job.state, 'succeeded');
    assert.equal(job.webhook.state, 'failed');
    assert.deepEqual(job.webhook.deliveries.map((d: { status: number }) => d.status), [500, 500, 500]);
  });

  test('a redirect is never followed: the receiver it points to gets nothing', async () => {
    receiver.answers.set('/moved', [{ status: 307, headers: { location: `${receiver.url}/target` } }]);
    const id = await submit('/moved');
    const job = await webhookSettled(id);
    assert.equal(job.webhook.state, 'failed');
    assert.deepEqual(job.webhook.deliveries.map((d: { status: number }) => d.status), [307, 307, 307]);
    assert.equal(receiver.received.filter((r) => r.path === '/target').length, 0);
  });

  test('URLs off the list, resolving to an unlisted loopback address, link-local, [::1], other schemes: 400 WEBHOOK_URL_REFUSED, no job, the document unchanged', async () => {
    const jobsBefore = (await call(server, 'GET', '/jobs')).json().length;
    const port = new URL(receiver.url).port;
    const cases: [string, RegExp][] = [
      ['http://hooks.example.com/x', /not on the service's webhook allow-list/],
      [`http://127.0.0.1:${port}/x`, /127\.0\.0\.1 is not on/],
      // A listed name is not enough: it resolves to loopback, which the list does not name.
      [`http://localhost:${port}/x`, /localhost resolves to .*(127\.0\.0\.1|::1)/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not on/],
      [`http://[::1]:${port}/x`, /::1 is not on/],
      [`ftp://127.0.0.2:${port}/x`, /http or https, not ftp:/],
      [`http://user:pw@127.0.0.2:${port}/x`, /credentials/],
      ['not a url', /not an absolute URL/],
    ];
    for (const [url, detail] of cases) {
      const reply = await expectUnchanged(server, 'hooks/a.pdf', () => call(server, 'POST', '/documents/hooks/a.pdf', { body: FLATTEN, headers: { 'x-service-webhook-url': url } }), 400, 'WEBHOOK_URL_REFUSED');
      assert.match(reply.json().detail, detail, url);
    }
    // An upload refuses it the same way (every route that creates a job takes the header).
    const upload = await call(server, 'PUT', '/documents/hooks/b.pdf', { body: makePdf(), headers: { 'content-type': 'application/pdf', 'x-service-webhook-url': 'http://169.254.169.254/' } });
    assert.equal(upload.status, 400, upload.text);
    assert.equal(upload.json().code, 'WEBHOOK_URL_REFUSED');
    assert.equal((await call(server, 'GET', '/documents/hooks/b.pdf')).status, 404, 'nothing stored');
    assert.equal((await call(server, 'GET', '/jobs')).json().length, jobsBefore, 'no job was created');
    assert.equal(receiver.received.filter((r) => r.path === '/x').length, 0);
  });

  test('an upload with a webhook is a job whose end is delivered', async () => {
    receiver.answers.set('/upload', [{ status: 200 }]);
    const reply = await call(server, 'PUT', '/documents/hooks/c.pdf', { body: makePdf(), headers: { 'content-type': 'application/pdf', 'x-service-webhook-url': `${receiver.url}/upload` } });
    assert.equal(reply.status, 202, reply.text);
    const job = await webhookSettled(reply.json().id);
    assert.equal(job.webhook.state, 'delivered');
    const [got] = receiver.received.filter((r) => r.path === '/upload');
    const payload = new Webhook(await secret()).verify(got!.body, got!.headers as Record<string, string>) as Record<string, any>;
    assert.equal(payload.action, 'upload');
    assert.equal(payload.state, 'succeeded');
  });

  test('a rotated secret signs from then on: the old one no longer verifies, the new one does', async () => {
    const old = await secret();
    const rotated = await call(server, 'POST', '/users/admin/webhook-secret');
    assert.equal(rotated.status, 200, rotated.text);
    const fresh = rotated.json().secret as string;
    assert.notEqual(fresh, old);
    assert.equal(await secret(), fresh, 'GET answers the new secret');
    receiver.answers.set('/rotated', [{ status: 200 }]);
    const job = await webhookSettled(await submit('/rotated'));
    assert.equal(job.webhook.state, 'delivered');
    const [got] = receiver.received.filter((r) => r.path === '/rotated');
    const headers = got!.headers as Record<string, string>;
    assert.throws(() => new Webhook(old).verify(got!.body, headers), /signature/i);
    assert.equal((new Webhook(fresh).verify(got!.body, headers) as { id: string }).id, job.id);
  });

  test('a user reads and rotates their own secret only; an admin any user\'s; the job\'s owner signs', async () => {
    assert.equal((await call(server, 'POST', '/users', { body: { username: 'hooker', password: 'hooker-password-1', rights: ['GET', 'POST', 'PUT'] } })).status, 201);
    const auth = basicAuth('hooker', 'hooker-password-1');
    const own = await secret('hooker', auth);
    assert.equal(await secret('hooker'), own, 'the admin reads the same');
    const other = await call(server, 'GET', '/users/admin/webhook-secret', { auth });
    assert.equal(other.status, 403, other.text);
    assert.equal(other.json().code, 'FORBIDDEN');
    assert.equal((await call(server, 'POST', '/users/admin/webhook-secret', { auth })).status, 403);
    assert.equal((await call(server, 'GET', '/users/nobody/webhook-secret')).status, 404);
    assert.equal((await putPdf({ ...server, adminAuth: auth }, 'hooker/own.pdf', makePdf())).status, 201);
    receiver.answers.set('/hooker', [{ status: 200 }]);
    const reply = await call(server, 'POST', '/documents/hooker/own.pdf', { auth, body: FLATTEN, headers: { 'x-service-webhook-url': `${receiver.url}/hooker` } });
    assert.equal(reply.status, 202, reply.text);
    await until('delivered', async () => receiver.received.find((r) => r.path === '/hooker'));
    const got = receiver.received.find((r) => r.path === '/hooker')!;
    const headers = got.headers as Record<string, string>;
    assert.equal((new Webhook(own).verify(got.body, headers) as { owner: string }).owner, 'hooker');
    const admins = await secret();
    assert.throws(() => new Webhook(admins).verify(got.body, headers));
  });
});

describe('webhook retries survive a restart (the data folder)', () => {
  let dataDir: string;
  let receiver: WebhookReceiver;
  const servers: TestServer[] = [];
  // The wait after the second attempt (6 s) is far longer than a stop: the first process is gone before the third is due.
  const env = { PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.2', PDFSERVICE_WEBHOOK_ATTEMPTS: '3', PDFSERVICE_WEBHOOK_BACKOFF_MS: '3000', PDFSERVICE_WEBHOOK_TIMEOUT_MS: '2000' };

  before(async () => {
    dataDir = await mkdtemp(nodePath.join(tmpdir(), 'pdfservice-webhook-restart-'));
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('a receiver that fails twice, the service stopped during the backoff and started again: the third attempt arrives signed, the log showing three', async () => {
    const first = await startServer({ dataDir, env });
    servers.push(first);
    assert.equal((await putPdf(first, 'hooks/r.pdf', makePdf())).status, 201);
    receiver.answers.set('/restart', [{ status: 500 }, { status: 502 }, { status: 204 }]);
    const reply = await call(first, 'POST', '/documents/hooks/r.pdf', { body: FLATTEN, headers: { 'x-service-webhook-url': `${receiver.url}/restart`, traceparent: TRACEPARENT } });
    assert.equal(reply.status, 202, reply.text);
    const id = reply.json().id as string;
    const got = () => receiver.received.filter((r) => r.path === '/restart');
    await until('two attempts made', async () => (got().length >= 2 ? true : undefined));
    await until('the second attempt recorded', async () => ((await call(first, 'GET', `/jobs/${id}`)).json().webhook.deliveries.length === 2 ? true : undefined));
    await first.stop();
    servers.splice(servers.indexOf(first), 1);
    assert.equal(got().length, 2, 'the stopped process made no third attempt');

    const second = await startServer({ dataDir, env });
    servers.push(second);
    const job = await until(`job ${id} delivered after the restart`, async () => {
      const body = (await call(second, 'GET', `/jobs/${id}`)).json();
      return body.webhook.state === 'pending' ? undefined : body;
    });
    assert.equal(job.webhook.state, 'delivered');
    assert.deepEqual(job.webhook.deliveries.map((d: { attempt: number; status: number }) => [d.attempt, d.status]), [[1, 500], [2, 502], [3, 204]]);
    const [, second2, third] = job.webhook.deliveries.map((d: { at: string }) => Date.parse(d.at)) as number[];
    assert.ok(third! - second2! >= 6000, 'the third attempt waited out its backoff, counted from the second');
    assert.equal(got().length, 3, 'one attempt after the restart');
    const key = (await call(second, 'GET', '/users/admin/webhook-secret')).json().secret as string;
    const payload = new Webhook(key).verify(got()[2]!.body, got()[2]!.headers as Record<string, string>) as Record<string, any>;
    assert.equal(payload.id, id);
    assert.equal(payload.state, 'succeeded');
    assert.equal(got()[2]!.headers.traceparent, TRACEPARENT, 'the job\'s traceparent is sent on after the restart too');
    assert.equal(got()[2]!.body, got()[0]!.body, 'the same body on every attempt');
  });
});
