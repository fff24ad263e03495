import { boolean, integer, MiB, type SettingsFeature } from './setting.js';

/** Background jobs (operations/jobs/, started by src/start/jobs.ts). */
export interface JobSettings {
  jobQueueLimit: number;
  jobConcurrency: number;
  userJobLimit: number;
  jobRetentionSeconds: number;
  jobAsyncBytes: number;
  jobHeartbeatMs: number;
  /** With Redis: whether this instance runs jobs from the shared queue, or only queues them for workers. */
  runJobs: boolean;
  /** Watched folders (docs/watched-folders.md): attempts of one arrival, and the wait before the second (doubling after). */
  watchAttempts: number;
  watchRetryMs: number;
  /** With a DMS store: how often each watched folder is listed for files that appeared there by other means (0: never). */
  dmsPollSeconds: number;
}

export const JOBS: SettingsFeature<JobSettings> = {
  settings: {
    jobQueueLimit: {
      env: 'PDFSERVICE_JOB_QUEUE_LIMIT',
      doc: 'Background jobs (docs/jobs.md) queued and running at once; when full, a further `Prefer: respond-async` request is refused at once with 503 and `Retry-After`, unless its user holds less than the fair share (then the newest waiting job of the user holding the most makes room; docs/jobs.md, Fair share)',
      default: 100,
      parse: integer(1, 100_000),
    },
    jobConcurrency: {
      env: 'PDFSERVICE_JOB_CONCURRENCY',
      doc: 'Background jobs running at once, all users together',
      shown: '`0` (`PDFSERVICE_WORKERS`)',
      default: 0,
      parse: integer(0, 64),
    },
    userJobLimit: {
      env: 'PDFSERVICE_USER_JOB_LIMIT',
      doc: "Background jobs one user may have running at once while other users' jobs wait; a user whose jobs are the only ones waiting gets every free slot",
      default: 1,
      parse: integer(1, 64),
    },
    jobRetentionSeconds: {
      env: 'PDFSERVICE_JOB_RETENTION_SECONDS',
      doc: "How long a finished job's record, with its result or error, is kept; then it is deleted",
      shown: '`604800` (7 days)',
      default: 7 * 86400,
      parse: integer(60, 366 * 86400),
    },
    jobAsyncBytes: {
      env: 'PDFSERVICE_JOB_ASYNC_BYTES',
      doc: 'An action on a document larger than this, or a conversion of an upload larger than this, runs as a background job unless the client sends `Prefer: wait=N` (`0`: no size rule)',
      shown: '`104857600` (100 MiB)',
      default: 100 * MiB,
      parse: integer(0, 64 * 1024 * MiB),
    },
    jobHeartbeatMs: {
      env: 'PDFSERVICE_JOB_HEARTBEAT_MS',
      doc: "With `PDFSERVICE_REDIS_URL`: how long the heartbeat of a running job, and of each instance and worker, lasts without renewal; each process renews its own every third of it, and looks every half of it for jobs whose heartbeat lapsed, which it marks interrupted. Shorter: a killed process's jobs end sooner; too short for a busy process's pauses: live jobs end interrupted ([docs/jobs.md](docs/jobs.md))",
      shown: '`10000` (10 s)',
      default: 10_000,
      parse: integer(1_000, 600_000),
    },
    runJobs: {
      env: 'PDFSERVICE_RUN_JOBS',
      doc: 'With `PDFSERVICE_REDIS_URL`: whether this instance runs background jobs from the shared queue; `false`: it only queues them for other instances and `npm run worker` processes (jobs on uploaded files still run on the instance that received them; [docs/jobs.md](docs/jobs.md))',
      default: true,
      parse: boolean,
    },
    watchAttempts: {
      env: 'PDFSERVICE_WATCH_ATTEMPTS',
      doc: 'Watched folders ([docs/watched-folders.md](docs/watched-folders.md)): how many times a document that arrived is run through the pipeline when its runs fail; then its run is recorded `failed` and left alone',
      default: 3,
      parse: integer(1, 20),
    },
    watchRetryMs: {
      env: 'PDFSERVICE_WATCH_RETRY_MS',
      doc: "Watched folders: the wait after a failed run before the next attempt; it doubles after each one (30 s, 60 s, 120 s...). Also the wait before trying again to queue a run when the job queue was full (not counted as an attempt)",
      shown: '`30000` (30 s)',
      default: 30_000,
      parse: integer(100, 86_400_000),
    },
    dmsPollSeconds: {
      env: 'PDFSERVICE_DMS_POLL_SECONDS',
      doc: "With `PDFSERVICE_STORE=webdav`: every this many seconds each watched folder is listed on the DMS (one `PROPFIND` of depth 1, by one instance at a time), and a document that appeared or changed there by other means than the service (the DMS's web interface, a sync client) arrives and runs its pipeline once ([docs/watched-folders.md](docs/watched-folders.md#a-dms-store)); `0`: no polling, such files are found by the scan at the next start only",
      default: 30,
      parse: integer(0, 86_400),
    },
  },
};

/** PDFSERVICE_JOB_CONCURRENCY as the jobs apply it: 0 means as many as the engine has workers. */
export function jobConcurrency(config: Pick<JobSettings, 'jobConcurrency'> & { workers: number }): number {
  return config.jobConcurrency > 0 ? config.jobConcurrency : config.workers;
}
