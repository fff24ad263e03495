import type { Api, AppDeps } from '../context.js';

export function registerHealthRoutes(api: Api, deps: AppDeps): void {
  api.get('/health', {
    config: { public: true },
    schema: {
      summary: 'Liveness, engine state and external tools (no session needed)',
      tags: ['service'],
      response: {
        200: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['ok'] },
            engine: {
              type: 'object',
              description: 'The engine workers now, and counts of engine tasks since the service started',
              properties: {
                workers: { type: 'integer' },
                busy: { type: 'integer' },
                queued: { type: 'integer' },
                completed: { type: 'integer', description: 'tasks that answered with a result' },
                failed: { type: 'integer', description: 'tasks that answered with an error, bad input included' },
                timedOut: { type: 'integer', description: 'tasks stopped at the task timeout' },
                cancelled: { type: 'integer', description: 'tasks stopped because their caller aborted them (the client went away)' },
                crashed: { type: 'integer', description: 'workers that died during a task' },
                recycled: { type: 'integer', description: 'workers replaced as a precaution' },
                refused: { type: 'integer', description: 'tasks refused because the queue was full' },
              },
            },
            tools: {
              type: 'array',
              description: 'The external programs the service runs (LibreOffice for Word uploads), each checked once, on its first use or the first health request (which waits for the checks); a feature whose tool is not available answers 503 COMPONENT_MISSING',
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  debianPackage: { type: 'string', description: 'what installs it' },
                  available: { type: 'boolean' },
                  version: { type: ['string', 'null'], description: 'as the program reports it; null when unknown' },
                  reason: { type: 'string', description: 'why it is not available' },
                },
                required: ['name', 'debianPackage', 'available', 'version'],
              },
            },
          },
        },
      },
    },
  }, async () => {
    const { workers, busy, queued, completed, failed, timedOut, cancelled, crashed, recycled, refused } = deps.operations.engineStats();
    return { status: 'ok', engine: { workers, busy, queued, completed, failed, timedOut, cancelled, crashed, recycled, refused }, tools: await deps.operations.tools.checked() };
  });
}
