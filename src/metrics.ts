import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ServiceError } from './errors.js';

/**
 * The service's metrics, served by GET /pdfservice/v1/metrics in the
 * Prometheus text format. One registry per process: the layers that count
 * (HTTP, store, external programs) import what they count from here, so none
 * of them needs the others; the engine pool's numbers are read when scraped.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Seconds; from a cached answer to a long conversion or the default task timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequests = new Counter({
  name: 'pdfservice_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern ("unmatched" for unknown URLs) and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'pdfservice_http_request_duration_seconds',
  help: 'Time from receiving a request to sending the last byte of its answer, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Lookups of the read-model caches that name themselves (ReadModelRequest.metric): a hit answers without reading the document. */
export const readModelLookups = new Counter({
  name: 'pdfservice_read_model_lookups_total',
  help: 'Lookups of cached read models (exports), by model and outcome (hit: answered from the cache; miss: computed)',
  labelNames: ['model', 'outcome'] as const,
  registers: [registry],
});

export const documentBytes = {
  read: new Counter({ name: 'pdfservice_document_bytes_read_total', help: 'Bytes of stored documents read (downloads, engine work)', registers: [registry] }),
  written: new Counter({ name: 'pdfservice_document_bytes_written_total', help: 'Bytes of documents stored (uploads and results of operations)', registers: [registry] }),
};

const programRuns = new Counter({
  name: 'pdfservice_program_runs_total',
  help: 'Runs of external programs (LibreOffice for Word uploads), by program and outcome (ok, failed, timeout)',
  labelNames: ['program', 'outcome'] as const,
  registers: [registry],
});

const programDuration = new Histogram({
  name: 'pdfservice_program_run_duration_seconds',
  help: 'Duration of external program runs, by program and outcome',
  labelNames: ['program', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Runs `run` (one run of an external program) and counts it with its duration and outcome; the tool supervisor (src/tools) calls it for every run. */
export async function timeProgramRun<T>(program: string, run: () => Promise<T>): Promise<T> {
  const end = programDuration.startTimer({ program });
  let outcome = 'failed';
  try {
    const result = await run();
    outcome = 'ok';
    return result;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT') outcome = 'timeout';
    throw err;
  } finally {
    end({ outcome });
    programRuns.inc({ program, outcome });
  }
}

/** What the engine pool reports (EnginePool.stats). */
export interface EngineStats {
  workers: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
  timedOut: number;
  cancelled: number;
  cancelRestarts: number;
  crashed: number;
  recycled: number;
  refused: number;
  /** Per worker position: milliseconds with a task, tasks taken. */
  workerBusyMs: number[];
  workerTasks: number[];
  /** Index n: milliseconds during which exactly n workers had a task. */
  concurrentMs: number[];
}

let engineStats: (() => EngineStats) | undefined;

/** Tells the metrics where the engine's numbers come from (the pool's counters, also shown by /health). */
export function observeEngine(stats: () => EngineStats): void {
  engineStats = stats;
}

/** A counter whose values are the pool's own counts, read when scraped (the pool counts; nothing here does). */
function engineCounter(name: string, help: string, label: string, pick: (s: EngineStats) => Record<string, number>): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      const s = engineStats?.();
      if (!s) return;
      this.reset();
      for (const [value, count] of Object.entries(pick(s))) this.inc({ [label]: value }, count);
    },
  });
}

engineCounter(
  'pdfservice_engine_tasks_total',
  'Engine tasks by outcome: completed, failed (errors, bad input included), timed_out, cancelled (aborted by the caller, e.g. the client went away), crashed (the worker died), refused (queue full)',
  'outcome',
  (s) => ({ completed: s.completed, failed: s.failed, timed_out: s.timedOut, cancelled: s.cancelled, crashed: s.crashed, refused: s.refused }),
);
engineCounter(
  'pdfservice_engine_worker_restarts_total',
  'Engine workers replaced, by reason: timeout (task past the timeout), cancel (running task aborted by the caller), crash (died during a task), recycle (precaution: memory, errors, task count)',
  'reason',
  (s) => ({ timeout: s.timedOut, cancel: s.cancelRestarts, crash: s.crashed, recycle: s.recycled }),
);

engineCounter(
  'pdfservice_engine_worker_busy_seconds_total',
  'Seconds each engine worker had a task, by its position in the pool (a replaced worker\'s successor goes on counting)',
  'worker',
  (s) => Object.fromEntries(s.workerBusyMs.map((ms, i) => [String(i), ms / 1000])),
);
engineCounter('pdfservice_engine_worker_tasks_total', 'Engine tasks each worker took, by its position in the pool', 'worker', (s) => Object.fromEntries(s.workerTasks.map((n, i) => [String(i), n])));
engineCounter(
  'pdfservice_engine_busy_workers_seconds_total',
  'Seconds during which exactly this many engine workers had a task: how much the workers ran at the same time',
  'busy',
  (s) => Object.fromEntries(s.concurrentMs.map((ms, n) => [String(n), ms / 1000])),
);

function engineGauge(name: string, help: string, pick: (s: EngineStats) => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const s = engineStats?.();
      if (s) this.set(pick(s));
    },
  });
}

engineGauge('pdfservice_engine_workers', 'Engine worker threads', (s) => s.workers);
engineGauge('pdfservice_engine_workers_busy', 'Engine workers running a task now', (s) => s.busy);
engineGauge('pdfservice_engine_queue_length', 'Engine tasks waiting for a worker now', (s) => s.queued);

/** What the tool supervisor reports of each external program now (ToolSupervisor.poolStats). */
export interface ProgramPoolStats {
  /** The label its runs are counted under (pdfservice_program_runs_total). */
  program: string;
  /** Runs at once (the tool's concurrency: a pooled tool's instances). */
  slots: number;
  active: number;
  waiting: number;
  /** Processes alive now: a pooled tool's warm instances (idle or busy), a per-run tool's running programs. */
  processes: number;
}

let programStats: (() => ProgramPoolStats[]) | undefined;

/** Tells the metrics where the programs' numbers come from (the supervisor of the process; the last one made). */
export function observePrograms(stats: () => ProgramPoolStats[]): void {
  programStats = stats;
}

function programGauge(name: string, help: string, pick: (s: ProgramPoolStats) => number): void {
  new Gauge({
    name,
    help,
    labelNames: ['program'] as const,
    registers: [registry],
    collect() {
      const all = programStats?.();
      if (!all) return;
      this.reset();
      for (const s of all) this.set({ program: s.program }, pick(s));
    },
  });
}

programGauge('pdfservice_program_slots', 'Runs of an external program at once (its concurrency; for LibreOffice and veraPDF the size of the warm pool)', (s) => s.slots);
programGauge('pdfservice_program_runs_active', 'Runs of an external program under way now', (s) => s.active);
programGauge('pdfservice_program_runs_waiting', 'Runs of an external program waiting for a slot now (the line a 503 SERVICE_BUSY protects)', (s) => s.waiting);
programGauge('pdfservice_program_processes', 'Processes of an external program alive now: a pool\'s warm instances, idle or busy, or the per-run programs running', (s) => s.processes);

const programRestarts = new Counter({
  name: 'pdfservice_program_restarts_total',
  help: 'Warm instances of pooled programs (LibreOffice, veraPDF) replaced, by program and reason: uses (restart after N runs), memory (resident memory past the limit), failed (died, timed out or was cancelled during a run), unfit (it said so after a run), exited (found dead while idle)',
  labelNames: ['program', 'reason'] as const,
  registers: [registry],
});

export type ProgramRestartReason = 'uses' | 'memory' | 'failed' | 'unfit' | 'exited';

/** Counts the replacement of a warm instance (the supervisor calls it; not at shutdown). */
export function countProgramRestart(program: string, reason: ProgramRestartReason): void {
  programRestarts.inc({ program, reason });
}

/** What the job queue of this process reports (JobOperations.stats). */
export interface JobStats {
  /** Jobs waiting on this process's own queue. */
  queued: number;
  /** Jobs this process runs now. */
  running: number;
  /** Jobs waiting on or taken from the queue shared by the instances (with Redis), as last counted; 0 without. */
  shared: number;
}

let jobStats: (() => JobStats) | undefined;

export function observeJobs(stats: () => JobStats): void {
  jobStats = stats;
}

new Gauge({
  name: 'pdfservice_jobs',
  help: 'Background jobs now, by state: queued (on this process\'s queue), running (in this process), shared (on the queue the instances share, with Redis, as last counted)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const s = jobStats?.();
    if (!s) return;
    this.set({ state: 'queued' }, s.queued);
    this.set({ state: 'running' }, s.running);
    this.set({ state: 'shared' }, s.shared);
  },
});

const jobsSubmitted = new Counter({
  name: 'pdfservice_jobs_submitted_total',
  help: 'Background jobs accepted (202), by action (the action\'s name, or upload)',
  labelNames: ['action'] as const,
  registers: [registry],
});

const jobsFinished = new Counter({
  name: 'pdfservice_jobs_finished_total',
  help: 'Background jobs ended in this process, by action, state (succeeded, failed, cancelled) and error code (none when it succeeded)',
  labelNames: ['action', 'state', 'code'] as const,
  registers: [registry],
});

/** Jobs run from seconds to the conversion and OCR time limits (minutes). */
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

const jobWait = new Histogram({
  name: 'pdfservice_job_wait_seconds',
  help: 'Time a background job waited in the queue before it started, by action',
  labelNames: ['action'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

const jobRun = new Histogram({
  name: 'pdfservice_job_run_seconds',
  help: 'Time a background job ran, from its start to its end, by action and state',
  labelNames: ['action', 'state'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

function secondsBetween(from: string, to: string): number {
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}

export function countJobSubmitted(action: string): void {
  jobsSubmitted.inc({ action });
}

/** A job started: its wait in the queue (its record's ISO times). */
export function countJobStarted(job: { action: string; created: string; started?: string | undefined }): void {
  if (job.started) jobWait.observe({ action: job.action }, secondsBetween(job.created, job.started));
}

/** A job ended in this process: its state and code, and how long it ran (a job cancelled before it started did not run). */
export function countJobFinished(job: { action: string; state: string; started?: string | undefined; finished?: string | undefined; error?: { code: string } | undefined }): void {
  jobsFinished.inc({ action: job.action, state: job.state, code: job.error?.code ?? 'none' });
  if (job.started && job.finished) jobRun.observe({ action: job.action, state: job.state }, secondsBetween(job.started, job.finished));
}
