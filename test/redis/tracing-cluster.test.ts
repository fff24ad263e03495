/**
 * One trace across processes (issue 44, docs/observability.md): a job submitted to an instance that runs no jobs
 * (PDFSERVICE_RUN_JOBS=false) is run by a worker process (`npm run worker`) from the shared BullMQ queue, both with
 * tracing on and exporting to a real OpenTelemetry Collector (test/helpers/otel-collector.ts). The receiver must get
 * one trace: the instance's request span under the client's, and the worker's job span under the request span; the
 * job's webhook carries the same traceparent (the one the job keeps).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, putPdf } from '../helpers/http.js';
import { killProcess, startWorker, until, type WorkerProcess } from '../helpers/jobs.js';
import { startCollector, type Collector } from '../helpers/otel-collector.js';
import { makePdf } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('a job run by a worker joins the trace of the request that submitted it', () => {
  const redis = redisServerForSuite();
  const PREFIX = `t${randomBytes(3).toString('hex')}:`;
  const names = { instance: `pdfservice-a-${randomBytes(3).toString('hex')}`, worker: `pdfservice-w-${randomBytes(3).toString('hex')}` };
  let dataDir: string;
  let collector: Collector;
  let receiver: WebhookReceiver;
  let instance: TestServer;
  let worker: WorkerProcess;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-tracing-cluster-'));
    [collector, receiver] = await Promise.all([startCollector(), startWebhookReceiver()]);
    const env = {
      PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem', PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.2',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlp, OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    instance = await startServer({ dataDir, env: { ...env, PDFSERVICE_RUN_JOBS: 'false', OTEL_SERVICE_NAME: names.instance } });
    worker = await startWorker({ ...env, OTEL_SERVICE_NAME: names.worker }, dataDir);
  });
  after(async () => {
    if (worker) await killProcess(worker.child, 'SIGTERM');
    await instance?.stop();
    await collector?.stop();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('request span on the instance > job span on the worker, one trace id, the webhook naming the request span', async () => {
    assert.equal((await putPdf(instance, 'traced/w.pdf', makePdf({ pages: 2 }))).status, 201);
    const [trace, clientSpan] = [randomBytes(16).toString('hex'), randomBytes(8).toString('hex')];
    const reply = await call(instance, 'POST', '/documents/traced/w.pdf', {
      body: { FlattenAnnotationsAction: {} },
      headers: { traceparent: `00-${trace}-${clientSpan}-01`, 'x-service-webhook-url': `${receiver.url}/traced` },
    });
    assert.equal(reply.status, 202, reply.text);
    const spans = await until(`trace ${trace} at the receiver`, async () => {
      const got = collector.trace(trace);
      return got.some((s) => s.name.startsWith('POST ')) && got.some((s) => s.name === 'job FlattenAnnotationsAction') ? got : undefined;
    }, 300, 100);
    assert.ok(spans.every((s) => s.traceId === trace), 'one trace');
    const request = spans.find((s) => s.name.startsWith('POST '))!;
    const job = spans.find((s) => s.name === 'job FlattenAnnotationsAction')!;
    assert.equal(request.service, names.instance, 'the request span comes from the instance');
    assert.equal(request.parentSpanId, clientSpan);
    assert.equal(job.service, names.worker, 'the job span comes from the worker');
    assert.equal(job.parentSpanId, request.spanId, 'the job span is the child of the instance\'s request span');
    assert.equal(job.attributes['pdfservice.job.id'], reply.json().id);
    assert.equal(job.attributes['pdfservice.job.state'], 'succeeded');
    const engine = spans.filter((s) => s.name.startsWith('engine '));
    assert.ok(engine.some((s) => s.parentSpanId === job.spanId && s.service === names.worker), 'the worker\'s engine tasks under its job');
    const hook = await until('the webhook arrived', async () => receiver.received.find((r) => r.path === '/traced'));
    assert.equal(hook.headers.traceparent, `00-${trace}-${request.spanId}-01`, 'the webhook carries the job\'s one traceparent');
  });
});
