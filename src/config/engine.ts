import os from 'node:os';
import { integer, MiB, type SettingsFeature } from './setting.js';

/** The engine's worker pool (src/start/engine.ts). */
export interface EngineSettings {
  workers: number;
  engineNice: number;
  engineWarmUp: number;
  taskTimeoutMs: number;
  jobTaskTimeoutMs: number;
  workerMaxMemoryMb: number;
  queueLimit: number;
  userTaskLimit: number;
  textPrefetchMaxBytes: number;
  regexBudgetMs: number;
}

export const ENGINE: SettingsFeature<EngineSettings> = {
  settings: {
    workers: {
      env: 'PDFSERVICE_WORKERS',
      doc: 'Engine worker threads',
      shown: 'number of cores',
      default: () => Math.max(1, os.availableParallelism()),
      parse: integer(1, 64),
    },
    engineNice: {
      env: 'PDFSERVICE_ENGINE_NICE',
      doc:
        "How many steps of Linux nice the engine's worker threads run below the service's event loop: when the workers keep every core busy, the HTTP layer (every request's parse, checks and answer) still gets a core at once. `0`: the workers run at the service's own priority (docs/architecture.md, Decisions)",
      default: 5,
      parse: integer(0, 19),
    },
    engineWarmUp: {
      env: 'PDFSERVICE_ENGINE_WARMUP',
      doc:
        "Rounds of a warm-up each engine worker runs when it starts, before it takes tasks (a one-page document opened, searched, redacted and saved): MuPDF's WebAssembly is compiled then, not during the first requests; with any rounds the service also generates every route's request validators and response serializers before it logs that it listens (else each route's first request does). `0`: none (the first requests after a start are slower)",
      default: 3,
      parse: integer(0, 100),
    },
    taskTimeoutMs: { env: 'PDFSERVICE_TASK_TIMEOUT_MS', doc: 'Longest an engine task may run; past it the worker is stopped and replaced, and the request gets 504', default: 120_000, parse: integer(100, 3_600_000) },
    jobTaskTimeoutMs: {
      env: 'PDFSERVICE_JOB_TASK_TIMEOUT_MS',
      doc: "The same limit for the engine tasks of a background job (`Prefer: respond-async`, or a large document's default); past it the job fails with `ENGINE_TIMEOUT`",
      shown: '`1800000` (30 min)',
      default: 1_800_000,
      parse: integer(100, 86_400_000),
    },
    workerMaxMemoryMb: { env: 'PDFSERVICE_WORKER_MAX_MEMORY_MB', doc: 'A worker whose WASM memory grew past this is replaced after its task (WASM memory never shrinks)', default: 1024, parse: integer(64, 2048) },
    queueLimit: { env: 'PDFSERVICE_QUEUE_LIMIT', doc: 'Engine tasks waiting beyond this are refused with 503 and `Retry-After`; one user may hold at most half of them', default: 64, parse: integer(1, 100_000) },
    userTaskLimit: {
      env: 'PDFSERVICE_USER_TASK_LIMIT',
      doc: "Engine tasks one user may have running at once; the user's further tasks wait for their own, so other users find a worker. The parts of one request spread over the workers (the whole document's text) count as one task",
      shown: '`0` (one less than `PDFSERVICE_WORKERS`, at least 1)',
      default: 0,
      parse: integer(0, 64),
    },
    regexBudgetMs: {
      env: 'PDFSERVICE_REGEX_BUDGET_MS',
      doc: "Time a client's regular expression (a redaction's or a page removal's `regex: true` search) may spend matching over one request's texts; past it the search is refused with 400 `INVALID_SEARCH` and its helper thread stopped (docs/architecture.md, Decisions). Only the matching counts, not the text extraction around it",
      default: 5_000,
      parse: integer(100, 600_000),
    },
    textPrefetchMaxBytes: {
      env: 'PDFSERVICE_TEXT_PREFETCH_MAX_BYTES',
      doc: 'After a write, documents up to this size have their text extracted while the workers are idle, so the first text request is answered from the cache; `0` turns it off',
      shown: '`67108864` (64 MiB)',
      default: 64 * MiB,
      parse: integer(0, 8 * 1024 * MiB),
    },
  },
};

/** PDFSERVICE_USER_TASK_LIMIT as the pool applies it: 0 means one less than the workers, at least 1. */
export function userTaskLimit(config: Pick<EngineSettings, 'userTaskLimit' | 'workers'>): number {
  return config.userTaskLimit > 0 ? config.userTaskLimit : Math.max(1, config.workers - 1);
}
