import { userTaskLimit, type Config } from '../config.js';
import { EnginePool } from '../engine/pool.js';
import type { LogRef } from './startup.js';

/** The engine's worker threads (MuPDF runs only there), ready to take tasks. */
export async function startEngine(config: Config, log: LogRef): Promise<EnginePool> {
  const pool = new EnginePool({
    onInternalError: (message, context) => log.current?.error({ ...context, engineMessage: message }, 'engine failure'),
    onTimeout: (info) => log.current?.warn(info, 'engine task stopped at its timeout'),
    size: config.workers,
    nice: config.engineNice,
    warmUp: config.engineWarmUp,
    taskTimeoutMs: config.taskTimeoutMs,
    jobTaskTimeoutMs: config.jobTaskTimeoutMs,
    maxMemoryBytes: config.workerMaxMemoryMb * 1024 * 1024,
    queueLimit: config.queueLimit,
    ownerTaskLimit: userTaskLimit(config),
  });
  await pool.ready();
  return pool;
}
