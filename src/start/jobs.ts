import { jobConcurrency, type Config } from '../config.js';
import type { Operations } from '../operations/index.js';
import { FileJobStore } from '../operations/jobs/file-store.js';
import { BlobResultFiles, directoryResultFiles } from '../operations/jobs/result-files.js';
import type { DocumentStoreSetup } from './stores.js';
import type { SharedState } from './shared-state.js';
import type { LogRef } from './startup.js';

/**
 * Background jobs' store, queue and limits as createOperations takes them. With Redis, job records, events and the
 * queue are shared by every instance and worker (docs/jobs.md); without it, records in the data folder and the
 * queue in this process.
 */
export type JobSetup = Awaited<ReturnType<typeof openJobs>>;

export async function openJobs(config: Config, shared: SharedState, documentStore: Pick<DocumentStoreSetup, 'blobs'>, mode: 'service' | 'worker', log: LogRef) {
  const redisJobs = shared.redis ? await Promise.all([import('../operations/jobs/redis-store.js'), import('../operations/jobs/redis-backend.js')]) : undefined;
  const store = shared.redis ? new redisJobs![0].RedisJobStore(shared.redis) : new FileJobStore(config.dataDir, { onSkip: (file, err) => log.current?.warn({ file, err }, 'a damaged job record was skipped') });
  const backend = shared.redis
    ? new redisJobs![1].RedisJobBackend(shared.redis, { runJobs: mode === 'worker' || config.runJobs, concurrency: jobConcurrency(config), retentionMs: config.jobRetentionSeconds * 1000, heartbeatMs: config.jobHeartbeatMs, sealer: shared.sealer })
    : undefined;
  const limits = {
    queueLimit: config.jobQueueLimit,
    concurrency: jobConcurrency(config),
    perUser: config.userJobLimit,
    retentionMs: config.jobRetentionSeconds * 1000,
    asyncBytes: config.jobAsyncBytes,
  };
  // Result files where the records' readers find them: beside the records in the data folder (embedded, and instances
  // sharing one data folder), or in the S3 bucket every instance and worker shares (docs/architecture.md, Decisions).
  const resultFiles = documentStore.blobs ? new BlobResultFiles(documentStore.blobs('job-results')) : await directoryResultFiles(config.dataDir);
  return { store, limits, resultFiles, ...(backend ? { backend } : {}) };
}

/**
 * The service's care of its job records: jobs left by the last run (queued ones that can run again are queued
 * again, the others are marked interrupted), and finished jobs' records deleted after the retention time
 * (PDFSERVICE_JOB_RETENTION_SECONDS), checked hourly.
 */
export async function keepJobRecords(operations: Operations, log: LogRef): Promise<void> {
  await operations.jobs?.recover();
  const sweepJobs = () => operations.jobs?.sweep().catch((err: unknown) => log.current?.warn({ err }, 'job record sweep failed'));
  // The first sweep before the service listens: a record past its retention must not be served by the first requests
  // (left running beside them, it lost the race once the start got faster; recover() has just read the same records).
  await sweepJobs();
  setInterval(() => void sweepJobs(), 3_600_000).unref();
}
