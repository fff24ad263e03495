import { userTaskLimit, type Config } from '../config.js';
import { EnginePool } from '../engine/pool.js';
import type { LogRef } from './startup.js';

/**
 * The engine's worker threads (MuPDF runs only there), started: they load MuPDF in their threads while the main thread
 * builds the rest (the HTTP app, about as long). Whoever serves with them awaits `pool.ready()` first: the service
 * before it listens (startService), the job worker before it takes jobs (startJobWorker).
 */
export function startEngine(config: Config, log: LogRef): EnginePool {
  return new EnginePool({
    onInternalError: (message, context) => log.current?.error({ ...context, engineMessage: message }, 'engine failure'),
    onTimeout: (info) => log.current?.warn(info, 'engine task stopped at its timeout'),
    size: config.workers,
    nice: config.engineNice,
    warmUp: config.engineWarmUp,
    regexBudgetMs: config.regexBudgetMs,
    taskTimeoutMs: config.taskTimeoutMs,
    jobTaskTimeoutMs: config.jobTaskTimeoutMs,
    maxMemoryBytes: config.workerMaxMemoryMb * 1024 * 1024,
    queueLimit: config.queueLimit,
    ownerTaskLimit: userTaskLimit(config),
  });
}
