import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextFromHeaders, SpanKind, SpanStatusCode, startSpan, tracingOn, withActiveSpan, type Span } from '../tracing.js';

/** Each traced request's server span, from its arrival (onRequest) to its answer (onResponse) or abort. */
const spans = new WeakMap<FastifyRequest, Span>();

/**
 * A server span for every request (docs/observability.md): named by method and route template (never the document's
 * path), a child of the client's W3C `traceparent` when it sent one. Registered only when tracing is on, first of the
 * hooks, so that a request refused by a later hook has its span too.
 */
export function registerRequestTracing(app: FastifyInstance): void {
  if (!tracingOn()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = startSpan(`${request.method}${route ? ` ${route}` : ''}`, {
      'http.request.method': request.method,
      ...(route ? { 'http.route': route } : {}),
      'pdfservice.request_id': request.id,
    }, { kind: SpanKind.SERVER, parent: contextFromHeaders(request.headers) });
    if (span) spans.set(request, span);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      // A 4xx is the client's: its span keeps the status unset (OpenTelemetry's HTTP conventions for a server).
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      spans.delete(request);
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('pdfservice.aborted', true);
      span.end();
      spans.delete(request);
    }
    done();
  });
}

/** Runs a request's handler with its span active, so that its jobs, engine tasks and programs are its children. */
export function inRequestSpan<T>(request: FastifyRequest, fn: () => T): T {
  return withActiveSpan(spans.get(request), fn);
}

/** The answer is a problem document: its code goes on the request's span as `error.type`. */
export function noteProblem(request: FastifyRequest, code: string): void {
  spans.get(request)?.setAttribute('error.type', code);
}
