/**
 * OpenTelemetry traces (issue 44, docs/observability.md) against a real OTLP receiver: a minimal OpenTelemetry
 * Collector, built from the Go module proxy by scripts/setup.sh, started here and exporting what it received as OTLP
 * JSON to a listener in this process. An OCR request (OCR runs Tesseract through the supervisor, as a job) must reach
 * the collector as one trace, under the client's `traceparent`, with the request's server
 * span, the job's, the engine tasks' and Tesseract's, each under the right parent. Without OTEL_* settings (or with
 * OTEL_SDK_DISABLED), nothing is exported and the SDK is never loaded: a module hook in the service process prints
 * every OpenTelemetry SDK module it resolves, and the traced service is the hook's positive control.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { call, putPdf } from '../helpers/http.js';
import { startCollector, type Collector, type ReceivedSpan } from '../helpers/otel-collector.js';
import { imagePdf, renderGray } from '../helpers/ocr-fixtures.js';
import { makePdf } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { NODE_FLAGS } from '../../src/start/node-flags.js';

/** Prints `otel-sdk-loaded <url>` for each module of the SDK (or our tracing-sdk.js) the process resolves. */
const LOAD_HOOK = [
  '--import',
  'data:text/javascript,' + encodeURIComponent(
    'import { registerHooks } from "node:module";' +
    'registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context);' +
    ' if (/@opentelemetry\\/(sdk-trace|exporter-|otlp-|resources)|tracing-sdk\\.js/.test(r.url)) process.stderr.write("otel-sdk-loaded " + r.url + "\\n");' +
    ' return r; } });',
  ),
];

const traceId = () => randomBytes(16).toString('hex');
const spanId = () => randomBytes(8).toString('hex');
const tag = (span: ReceivedSpan, key: string) => span.attributes[key];
const parentOf = (span: ReceivedSpan) => span.parentSpanId || undefined;
interface Trace { spans: ReceivedSpan[] }

/** Polls the receiver until the trace holds spans that `complete` accepts (the service's batch processor takes a moment). */
async function traceWhen(collector: Collector, id: string, complete: (trace: Trace) => boolean): Promise<Trace> {
  let last: Trace = { spans: [] };
  for (let i = 0; i < 150; i++) {
    last = { spans: collector.trace(id) };
    if (complete(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`trace ${id} incomplete at the receiver after 30 s: ${JSON.stringify(last.spans.map((s) => s.name))}`);
}

const sdkLoads = (server: TestServer) => server.output.filter((line) => line.startsWith('otel-sdk-loaded'));

describe('OpenTelemetry traces, exported to a real OpenTelemetry Collector', () => {
  let collector: Collector;
  let server: TestServer;
  // A webhook receiver (docs/webhooks.md): the job's delivery carries the trace on, under the request's span.
  let receiver: Server;
  const hooks: IncomingHttpHeaders[] = [];
  const serviceName = `pdfservice-test-${randomBytes(4).toString('hex')}`;

  before(async () => {
    collector = await startCollector();
    receiver = createServer((req, res) => {
      hooks.push(req.headers);
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server = await startServer({
      nodeFlags: [...NODE_FLAGS, ...LOAD_HOOK],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlp, OTEL_SERVICE_NAME: serviceName, OTEL_BSP_SCHEDULE_DELAY: '100', PDFSERVICE_WEBHOOK_ALLOWLIST: '127.0.0.1' },
    });
  });
  after(async () => {
    await server?.stop();
    await collector?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  test('an OCR request: one trace under the client\'s traceparent, request > job > engine tasks and tesseract', async () => {
    const page = makePdf({ text: () => 'Traces follow a scanned page through the service.' });
    const scan = imagePdf([{ image: renderGray(page, 0, 150), dpi: 150 }]);
    assert.equal((await putPdf(server, 'traced/scan.pdf', scan)).status, 201);
    const [trace, clientSpan] = [traceId(), spanId()];
    const reply = await call(server, 'POST', '/documents/traced/scan.pdf/pages', {
      body: { OCRAction: { language: 'eng' } },
      headers: { prefer: 'wait=300', traceparent: `00-${trace}-${clientSpan}-01`, 'x-service-webhook-url': `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
    });
    assert.equal(reply.status, 200, reply.text);

    const got = await traceWhen(collector, trace, (t) =>
      t.spans.some((s) => s.name.startsWith('POST ')) && t.spans.some((s) => s.name === 'exec tesseract') && t.spans.some((s) => s.name === 'job OCRAction'));
    const byId = new Map(got.spans.map((s) => [s.spanId, s]));
    assert.ok(got.spans.every((s) => s.traceId === trace), 'every span is in the client\'s trace');
    assert.deepEqual(new Set(got.spans.map((s) => s.service)), new Set([serviceName]), 'OTEL_SERVICE_NAME names the service');

    // The request's server span: the client's span is its parent; route template, method and status as attributes.
    const request = got.spans.find((s) => s.name.startsWith('POST '))!;
    assert.equal(parentOf(request), clientSpan);
    assert.equal(request.kind, 'server');
    assert.equal(tag(request, 'http.request.method'), 'POST');
    assert.equal(tag(request, 'http.response.status_code'), 200);
    const route = String(tag(request, 'http.route'));
    assert.ok(route.startsWith('/pdfservice/v1/documents/') && !route.includes('traced/scan'), `a route template, not the document's path: ${route}`);
    assert.equal(request.name, `POST ${route}`);

    // The job's webhook joins the trace at the request's span (not the client's, which the service's spans are under).
    for (let i = 0; i < 150 && hooks.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(hooks.length, 1, 'the webhook was delivered once');
    assert.equal(hooks[0]!.traceparent, `00-${trace}-${request.spanId}-01`);

    // The job: a child of the request that created it.
    const job = got.spans.find((s) => s.name === 'job OCRAction')!;
    assert.equal(parentOf(job), request.spanId);
    assert.equal(tag(job, 'pdfservice.job.state'), 'succeeded');
    assert.match(String(tag(job, 'pdfservice.job.id')), /\S/);

    // Engine tasks and Tesseract: descendants of the job; each engine task has its queue wait and run time.
    const under = (ancestor: ReceivedSpan) => (s: ReceivedSpan): boolean => {
      for (let at: ReceivedSpan | undefined = s; at; at = byId.get(parentOf(at) ?? '')) if (at === ancestor) return true;
      return false;
    };
    const underJob = under(job);
    const engine = got.spans.filter((s) => s.name.startsWith('engine '));
    assert.ok(engine.length >= 1, 'engine task spans');
    for (const span of engine) {
      assert.equal(parentOf(span), job.spanId, `${span.name} is the job's child`);
      assert.equal(tag(span, 'pdfservice.engine.task'), span.name.slice('engine '.length));
      assert.equal(typeof tag(span, 'pdfservice.engine.queue_ms'), 'number');
      assert.equal(typeof tag(span, 'pdfservice.engine.run_ms'), 'number');
    }
    // The tool's version probe runs once, at its first use (when the request checks that Tesseract is there): a
    // program of its own under the request; the recognition's programs run under the job's `program tesseract` runs.
    const execs = got.spans.filter((s) => s.name === 'exec tesseract' && tag(s, 'pdfservice.program.version_probe') !== true);
    for (const probe of got.spans.filter((s) => tag(s, 'pdfservice.program.version_probe') === true)) {
      assert.ok(byId.has(parentOf(probe)!), 'the probe is part of the trace');
      assert.equal(tag(probe, 'process.exit.code'), 0);
    }
    assert.ok(execs.length >= 1, 'tesseract ran');
    // The request's own check of the languages (its prepare) runs Tesseract under the request; the recognition under the job.
    assert.ok(got.spans.some((s) => s.name === 'program tesseract' && underJob(s)), 'the recognition ran in the job');
    for (const exec of execs) {
      const run = byId.get(parentOf(exec)!)!;
      assert.equal(run.name, 'program tesseract', 'a program started by a tesseract run of the supervisor');
      assert.ok(under(request)(run), 'the run is part of the request\'s work');
      assert.equal(tag(exec, 'pdfservice.program'), 'tesseract');
      assert.equal(tag(exec, 'process.exit.code'), 0);
      assert.equal(tag(exec, 'pdfservice.program.killed'), undefined);
    }
    assert.deepEqual(sdkLoads(server).length > 0, true, 'the hook sees the SDK load when tracing is on (the control of the tests below)');
  });

  test('a refused request: its span carries the problem code, and a new trace starts without a traceparent', async () => {
    const [trace, clientSpan] = [traceId(), spanId()];
    const reply = await call(server, 'GET', '/documents/traced/missing.pdf', { headers: { traceparent: `00-${trace}-${clientSpan}-01` } });
    assert.equal(reply.status, 404);
    const got = await traceWhen(collector, trace, (t) => t.spans.length > 0);
    assert.equal(got.spans.length, 1);
    const [span] = got.spans as [ReceivedSpan];
    assert.equal(parentOf(span), clientSpan);
    assert.equal(tag(span, 'error.type'), 'DOCUMENT_NOT_FOUND');
    assert.equal(tag(span, 'http.response.status_code'), 404);
  });
});

describe('OpenTelemetry off', () => {
  test('without OTEL_* settings, and with OTEL_SDK_DISABLED=true, the SDK is not loaded and nothing reaches the receiver', async () => {
    const collector = await startCollector();
    const name = `pdfservice-off-${randomBytes(4).toString('hex')}`;
    // An empty value is an unset one (tracing.ts); the test process's own OTEL_* (if any) must not leak in.
    const unset = { OTEL_TRACES_EXPORTER: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_SDK_DISABLED: '' };
    const servers = await Promise.all([
      startServer({ nodeFlags: [...NODE_FLAGS, ...LOAD_HOOK], env: { ...unset, OTEL_SERVICE_NAME: name } }),
      // Everything set to export to the receiver, but the SDK disabled.
      startServer({ nodeFlags: [...NODE_FLAGS, ...LOAD_HOOK], env: { ...unset, OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlp, OTEL_SERVICE_NAME: name, OTEL_BSP_SCHEDULE_DELAY: '100' } }),
    ]);
    try {
      for (const server of servers) {
        const trace = traceId();
        assert.equal((await putPdf(server, 'plain.pdf', makePdf())).status, 201);
        const reply = await call(server, 'GET', '/documents/plain.pdf/text', { headers: { traceparent: `00-${trace}-${spanId()}-01` } });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(sdkLoads(server), [], 'no SDK module resolved');
        const listening = server.output.find((line) => line.includes('"listening"'));
        assert.match(listening ?? '', /"tracing":"off"/);
      }
      // Stopping flushes whatever a started SDK would hold; then the receiver has heard of neither.
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(!collector.services().includes(name), 'the receiver got no span from the service');
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await collector.stop();
    }
  });
});
