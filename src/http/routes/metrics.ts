import type { FastifyInstance } from 'fastify';
import { httpDuration, httpRequests, observeEngine, registry } from '../../metrics.js';
import type { Api, AppDeps } from '../context.js';
import { errorResponses } from '../schemas/common.js';

/** Methods are labels; anything else a client invents is counted as "other", so it cannot grow the label set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Counts every answered request by its route pattern (never the raw URL, which would grow without bound). */
export function registerRequestMetrics(app: FastifyInstance, deps: AppDeps): void {
  observeEngine(() => deps.operations.engineStats());
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: METHODS.has(request.method) ? request.method : 'other',
      route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      status: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

export function registerMetricsRoute(api: Api, deps: AppDeps): void {
  api.get('/metrics', {
    // Admins only, unless the operator made it public (a scraper inside a trusted network).
    config: deps.config.metricsPublic ? { public: true } : { right: 'admin' },
    schema: {
      summary: 'Metrics in the Prometheus text format',
      description:
        'Requests by route pattern and status with latency histograms, engine tasks and workers, external program runs, pools and restarts, ' +
        'background jobs (queued, running, submitted, ended by state and code, wait and run times), ' +
        'document bytes read and written, and the Node.js process. Needs the admin right, or nothing when PDFSERVICE_METRICS_PUBLIC=true.',
      tags: ['service'],
      ...(deps.config.metricsPublic ? { security: [] } : {}),
      response: {
        200: { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...errorResponses,
      },
    },
  }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).header('Cache-Control', 'no-store').send(text);
  });
}
