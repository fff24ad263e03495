import { tracingSummary } from '../tracing.js';
import { hostname } from 'node:os';
import { writeSync } from 'node:fs';
import { pino } from 'pino';
import { jobConcurrency, type Config } from '../config.js';
import type { EnginePool } from '../engine/pool.js';
import type { Operations } from '../operations/index.js';
import type { ToolSupervisor } from '../tools/index.js';
import type { JobSetup } from './jobs.js';
import type { SharedState } from './shared-state.js';
import { warnMissingNodeFlags } from './node-flags.js';
import type { DocumentStoreSetup } from './stores.js';
import type { LogRef } from './startup.js';

/**
 * The job worker (`npm run worker`, src/worker.ts): the same engine pool, stores and jobs as the service, no HTTP;
 * it runs jobs from the queue the instances share through Redis.
 */
export async function startJobWorker(
  config: Config,
  parts: { shared: SharedState; documentStore: DocumentStoreSetup; tools: ToolSupervisor; pool: EnginePool; operations: Operations; jobs: JobSetup; log: LogRef },
): Promise<{ url: string; stop: () => Promise<void> }> {
  const { shared, documentStore, tools, pool, operations, log } = parts;
  // No HTTP, so no app logger: the worker's own, in the same JSON lines, for what goes wrong outside a job's record
  // (engine failures, record sweeps).
  log.current = pino({ level: config.logLevel, base: { pid: process.pid, hostname: hostname(), role: 'worker' } });
  await pool.ready();
  await operations.jobs?.start();
  const redisShown = (await import('../redis.js')).redactedRedisUrl(config.redisUrl!); // ioredis only where Redis is used
  writeSync(1, `pdfservice worker running jobs from ${redisShown} (pid ${process.pid})\n`);
  warnMissingNodeFlags(log.current);
  log.current.info({ redis: redisShown, concurrency: jobConcurrency(config), workers: config.workers, tracing: tracingSummary() ?? 'off' }, 'worker running jobs');
  return {
    url: '',
    stop: async () => {
      await operations.jobs?.close();
      await tools.close();
      await pool.close();
      await shared.redis?.close();
      await documentStore.close();
    },
  };
}
