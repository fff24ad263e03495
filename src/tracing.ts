import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ServiceError } from './errors.js';

/**
 * OpenTelemetry traces (docs/observability.md). Off unless the operator sets the standard OTEL_* variables
 * (tracingSwitch); then tracing-sdk.ts (the SDK and its OTLP exporter) is imported, and only then. Off, every helper
 * here returns at its first test, before any call into the API, so the service pays one comparison per span site.
 */

/** Set once the SDK has started (startTracing); undefined: tracing is off. */
let tracer: Tracer | undefined;
let sdk: { shutdown(): Promise<void>; summary: Record<string, unknown> } | undefined;

/** What the standard variables say: whether traces are exported, and why (or why not). */
export function tracingSwitch(env: NodeJS.ProcessEnv = process.env): { on: boolean; reason: string } {
  const flag = (name: string) => env[name]?.trim().toLowerCase();
  if (flag('OTEL_SDK_DISABLED') === 'true') return { on: false, reason: 'OTEL_SDK_DISABLED=true' };
  const exporters = (flag('OTEL_TRACES_EXPORTER') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  if (exporters.length > 0) {
    // The specification's other exporters (console, zipkin) are not shipped: only OTLP is.
    if (exporters.includes('otlp')) return { on: true, reason: 'OTEL_TRACES_EXPORTER=otlp' };
    return { on: false, reason: `OTEL_TRACES_EXPORTER=${exporters.join(',')}` };
  }
  // The specification's default exporter is otlp, but a service that sent spans to localhost:4318 by itself would trace
  // every request at a cost nobody asked for: an endpoint (or the exporter named) is the operator's request.
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
    if (env[name]?.trim()) return { on: true, reason: `${name} is set` };
  }
  return { on: false, reason: 'no OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT set' };
}

/** Starts the SDK when tracingSwitch says so (idempotent); answers what the start log line says of it. */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Record<string, unknown> | undefined> {
  if (sdk) return sdk.summary;
  if (!tracingSwitch(env).on) return undefined;
  const { startSdk } = await import('./tracing-sdk.js');
  sdk = startSdk(env);
  tracer = trace.getTracer('pdfservice');
  return sdk.summary;
}

/** Sends the spans still buffered and stops the SDK (at shutdown). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  tracer = undefined;
  await running?.shutdown();
}

/** What the start log line says of tracing: its exporter, endpoint, sampler and service name; undefined when off. */
export function tracingSummary(): Record<string, unknown> | undefined {
  return sdk?.summary;
}

export function tracingOn(): boolean {
  return tracer !== undefined;
}

/** Starts a span, a child of `parent` (default: the active context); undefined when tracing is off. */
export function startSpan(name: string, attributes: Attributes, options: { kind?: SpanKind; parent?: Context } = {}): Span | undefined {
  return tracer?.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, options.parent ?? context.active());
}

/** Runs `fn` with `span` as the active span (its children's parent); `fn` alone when there is none. */
export function withActiveSpan<T>(span: Span | undefined, fn: () => T): T {
  return span ? context.with(trace.setSpan(context.active(), span), fn) : fn();
}

/**
 * Runs `fn` in a span of its own that ends when `fn` settles: a failure is recorded with its problem code
 * (failSpan). Off, `fn` runs as it is.
 */
export async function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span | undefined) => Promise<T>, options: { kind?: SpanKind; parent?: Context } = {}): Promise<T> {
  const span = startSpan(name, attributes, options);
  if (!span) return fn(undefined);
  try {
    return await context.with(trace.setSpan(options.parent ?? context.active(), span), () => fn(span));
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Marks a span failed: `error.type` (OpenTelemetry's attribute for the kind of error) is the problem code of
 * docs/errors.md, the status's message the problem's title; anything else is INTERNAL_ERROR, as the client sees it.
 */
export function failSpan(span: Span | undefined, err: unknown): void {
  if (!span) return;
  const code = err instanceof ServiceError ? err.code : 'INTERNAL_ERROR';
  span.setAttribute('error.type', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof ServiceError ? err.message : 'internal error' });
}

/** The W3C `traceparent` of the active span (a job records its creating request's), when tracing is on. */
export function currentTraceparent(): string | undefined {
  if (!tracer) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a recorded `traceparent` names (a job's parent, on whichever instance runs it). */
export function contextOf(traceparent: string | undefined): Context | undefined {
  if (!tracer || !traceparent) return undefined;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The context a request's headers carry (`traceparent`, `tracestate`, `baggage`). */
export function contextFromHeaders(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

export { SpanKind, SpanStatusCode, type Span };
