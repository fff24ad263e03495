import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { exited, freePorts, waitForExit } from './processes.js';

/**
 * A real OTLP receiver for the tracing tests: a minimal OpenTelemetry Collector (test/otel/collector/main.go: the core
 * OTLP receiver and OTLP/HTTP exporter, built by scripts/setup.sh) on free loopback ports. The service exports its
 * spans to the collector's receiver (protobuf); the collector decodes them and exports them again, as OTLP JSON, to a
 * listener in this process, which keeps them for the tests to read. The JSON, not the collector's debug log: it is
 * the OTLP specification's own encoding, with ids, parents and typed attributes, where the debug exporter's text is a
 * format for people that changes between releases.
 */

/** Where scripts/setup.sh keeps the binary: outside the clone, so that other clones on the machine reuse it. */
export const COLLECTOR_VERSION = 'v0.165.0';
export function collectorBinary(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(cache, 'pdfservice', `otelcol-${COLLECTOR_VERSION}`, 'otelcol');
}

/** A span as the collector exported it, its attributes decoded to JS values (an int64 to a number). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** The parent's span id, '' for a root. */
  parentSpanId: string;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer' | 'unspecified';
  attributes: Record<string, unknown>;
  /** The resource's service.name. */
  service: string;
}

export interface Collector {
  /** The OTLP/HTTP base (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlp: string;
  /** The spans of a trace received so far (empty while none). */
  trace(traceId: string): ReceivedSpan[];
  /** The services spans were received from. */
  services(): string[];
  output(): string;
  stop(): Promise<void>;
}

interface AnyValue { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number; arrayValue?: { values?: AnyValue[] } }
interface KeyValue { key: string; value?: AnyValue }
interface TracesData {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number; attributes?: KeyValue[] }[] }[];
  }[];
}

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
function value(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue); // OTLP JSON writes an int64 as a string
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  return undefined;
}
const attributes = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, value(kv.value)]));

/** The listener the collector exports to: OTLP/HTTP with JSON bodies on /v1/traces. */
async function listen(port: number, spans: ReceivedSpan[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(404).end();
        return;
      }
      const data = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TracesData;
      for (const rs of data.resourceSpans ?? []) {
        const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: KINDS[s.kind ?? 0] ?? 'unspecified', attributes: attributes(s.attributes), service });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return server;
}

export async function startCollector(): Promise<Collector> {
  const binary = collectorBinary();
  if (!existsSync(binary)) throw new Error(`no OpenTelemetry Collector at ${binary}: run bash scripts/setup.sh (it builds it from the Go module proxy)`);
  const [otlpPort, sinkPort] = await freePorts(2);
  const spans: ReceivedSpan[] = [];
  const sink = await listen(sinkPort!, spans);
  const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-otelcol-'));
  const config = path.join(dir, 'config.yaml');
  // Only what the tests use, every port a free loopback one: no telemetry server of its own (8888), no gRPC port; no
  // queue or batch, so that a span is at the listener when the service's export to the receiver has been answered.
  await writeFile(config, [
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${otlpPort}`,
    'exporters:',
    '  otlphttp:',
    `    endpoint: http://127.0.0.1:${sinkPort}`,
    '    encoding: json',
    '    compression: none',
    '    sending_queue:',
    '      enabled: false',
    'service:',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      exporters: [otlphttp]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: warn',
    '',
  ].join('\n'));
  const child: ChildProcess = spawn(binary, ['--config', `file:${config}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  const otlp = `http://127.0.0.1:${otlpPort}`;
  const stop = async () => {
    if (!exited(child)) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 10_000))) child.kill('SIGKILL');
    }
    await new Promise((resolve) => sink.close(resolve));
    await rm(dir, { recursive: true, force: true });
  };
  // Ready when the receiver answers (a GET on its path is 405, but it answers).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited(child)) {
      await stop();
      throw new Error(`the OpenTelemetry Collector exited at start:\n${output}`);
    }
    if (await fetch(`${otlp}/v1/traces`).then(() => true, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the OpenTelemetry Collector did not start within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    otlp,
    trace: (traceId) => spans.filter((s) => s.traceId === traceId),
    services: () => [...new Set(spans.map((s) => s.service))],
    output: () => output,
    stop,
  };
}
