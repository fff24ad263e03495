import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';

/**
 * The OpenTelemetry SDK as tracing.ts starts it, and only when traces are switched on: this module is imported
 * dynamically, so a service without OTEL_* settings never loads the SDK or its exporter (test/api/tracing.test.ts).
 * The exporter reads its own standard variables (OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS, _TIMEOUT,
 * _COMPRESSION, the TLS files); the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. The SDK of this
 * version leaves the sampler and batch variables to its callers (the Node SDK package reads them): read here.
 */
export function startSdk(env: NodeJS.ProcessEnv): { shutdown(): Promise<void>; summary: Record<string, unknown> } {
  // The SDK's own troubles (an exporter that cannot reach its endpoint) on stderr, once a kind, not per span.
  diag.setLogger({ error: (m) => process.stderr.write(`opentelemetry: ${m}\n`), warn: () => {}, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.ERROR);
  // The operator's service.name (OTEL_SERVICE_NAME, or in OTEL_RESOURCE_ATTRIBUTES) wins over ours: merge gives the later precedence.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'pdfservice' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = new OTLPTraceExporter();
  const number = (name: string) => {
    const value = Number(env[name]);
    return env[name]?.trim() && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const batch = {
    exporter,
    ...definedOnly({
      scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY'),
      exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT'),
      maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE'),
      maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
    }),
  };
  const { sampler, name: samplerName } = samplerFrom(env);
  const provider = new TracerProvider({ resource, sampler, spanProcessors: [new BatchSpanProcessor(batch)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);
  return {
    summary: { exporter: 'otlp/http-protobuf', endpoint: endpointOf(env), sampler: samplerName, serviceName: resource.attributes['service.name'] },
    async shutdown() {
      await provider.shutdown().catch(() => {});
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the specification names them; default parentbased_always_on. */
function samplerFrom(env: NodeJS.ProcessEnv): { sampler: Sampler; name: string } {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = () => new TraceIdRatioBasedSampler(Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1);
  switch (name) {
    case 'always_on': return { sampler: new AlwaysOnSampler(), name };
    case 'always_off': return { sampler: new AlwaysOffSampler(), name };
    case 'traceidratio': return { sampler: ratio(), name };
    case 'parentbased_always_off': return { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), name };
    case 'parentbased_traceidratio': return { sampler: new ParentBasedSampler({ root: ratio() }), name };
    default: return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), name: 'parentbased_always_on' };
  }
}

/** Where spans go, as the exporter resolves it (for the start log line). */
function endpointOf(env: NodeJS.ProcessEnv): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || 'http://localhost:4318';
  return `${base.replace(/\/$/, '')}/v1/traces`;
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
