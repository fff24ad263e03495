import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.js';

export function registerHealthRoutes(api: FastifyInstance, deps: AppDeps): void {
  api.get('/health', {
    config: { public: true },
    schema: {
      summary: 'Liveness and engine state (no session needed)',
      tags: ['service'],
      response: {
        200: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['ok'] },
            engine: {
              type: 'object',
              properties: { workers: { type: 'integer' }, busy: { type: 'integer' }, queued: { type: 'integer' } },
            },
          },
        },
      },
    },
  }, async () => {
    const { workers, busy, queued } = deps.pool.stats;
    return { status: 'ok', engine: { workers, busy, queued } };
  });
}
