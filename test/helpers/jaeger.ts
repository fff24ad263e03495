import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { exited, freePorts, waitForExit } from './processes.js';

/**
 * A real OTLP receiver for the tracing tests: Jaeger (v2, the OpenTelemetry Collector with Jaeger's storage and
 * query), built from the Go module proxy by scripts/setup.sh (test/otel/jaeger/go.mod), with in-memory storage, an
 * OTLP/HTTP receiver and its query API on free loopback ports. Its query API's JSON (/api/traces, /api/services) is
 * what the tests read the spans from.
 */

/** Where scripts/setup.sh keeps the binary: outside the clone, so that other clones on the machine reuse it. */
export const JAEGER_VERSION = 'v1.76.0';
export function jaegerBinary(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(cache, 'pdfservice', `jaeger-${JAEGER_VERSION}`, 'jaeger');
}

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; type: string; value: unknown }[];
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: { key: string; value: unknown }[] }>;
}

export interface Jaeger {
  /** The OTLP/HTTP base (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlp: string;
  /** The query API's base. */
  query: string;
  /** The trace, as Jaeger's query API answers it, or null while Jaeger has none of its spans. */
  trace(traceId: string): Promise<JaegerTrace | null>;
  /** The services Jaeger has received spans from. */
  services(): Promise<string[]>;
  output(): string;
  stop(): Promise<void>;
}

export async function startJaeger(): Promise<Jaeger> {
  const binary = jaegerBinary();
  if (!existsSync(binary)) throw new Error(`no Jaeger at ${binary}: run bash scripts/setup.sh (it builds it from the Go module proxy)`);
  const [otlpPort, queryPort, grpcPort] = await freePorts(3);
  const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-jaeger-'));
  const config = path.join(dir, 'config.yaml');
  // Only what the tests use, every port a free loopback one: no telemetry server of its own (8888), no other receivers.
  await writeFile(config, [
    'service:',
    '  extensions: [jaeger_storage, jaeger_query]',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      processors: [batch]',
    '      exporters: [jaeger_storage_exporter]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: warn',
    'extensions:',
    '  jaeger_query:',
    '    storage:',
    '      traces: memstore',
    '    http:',
    `      endpoint: 127.0.0.1:${queryPort}`,
    '    grpc:',
    `      endpoint: 127.0.0.1:${grpcPort}`,
    '  jaeger_storage:',
    '    backends:',
    '      memstore:',
    '        memory:',
    '          max_traces: 10000',
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${otlpPort}`,
    'processors:',
    '  batch:',
    '    timeout: 100ms',
    'exporters:',
    '  jaeger_storage_exporter:',
    '    trace_storage: memstore',
    '',
  ].join('\n'));
  const child: ChildProcess = spawn(binary, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  const query = `http://127.0.0.1:${queryPort}`;
  const otlp = `http://127.0.0.1:${otlpPort}`;
  const stop = async () => {
    if (!exited(child)) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 10_000))) child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  // Ready when both the query API and the receiver answer (a GET on the receiver's path is 405, but it answers).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited(child)) {
      await stop();
      throw new Error(`Jaeger exited at start:\n${output}`);
    }
    const up = await Promise.all([fetch(`${query}/api/services`), fetch(`${otlp}/v1/traces`)]).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Jaeger did not start within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    otlp,
    query,
    async trace(traceId) {
      const response = await fetch(`${query}/api/traces/${traceId}`);
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`Jaeger answered ${response.status} for trace ${traceId}: ${await response.text()}`);
      const body = (await response.json()) as { data?: JaegerTrace[] };
      return body.data?.[0] ?? null;
    },
    async services() {
      const body = (await (await fetch(`${query}/api/services`)).json()) as { data?: string[] | null };
      return body.data ?? [];
    },
    output: () => output,
    stop,
  };
}
