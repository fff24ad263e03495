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
