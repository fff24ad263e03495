import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ServiceError, isErrorCode } from '../errors.js';
import { isSerializedEngineError, type SerializedEngineError } from './errors.js';
import type { PdfSource } from './core/pdf-source.js';
import type { TaskProgress } from './task-context.js';
import type { TaskInput, TaskName, TaskOutput } from './tasks.js';
import type { WorkerSettings } from './worker.js';
import { failSpan, startSpan, type Span } from '../tracing.js';

export interface EnginePoolOptions {
  size: number;
  /** Steps of nice (Linux) the worker threads run below the process (PDFSERVICE_ENGINE_NICE); 0 or absent: at its priority. */
  nice?: number;
  /** Rounds of the warm-up each worker runs before it is ready (engine/core/warmup.ts, PDFSERVICE_ENGINE_WARMUP); 0 or absent: none. */
  warmUp?: number;
  /** Matching time a client's regular expression may take per request (engine/text/regex-budget.ts, PDFSERVICE_REGEX_BUDGET_MS); absent: the default. */
  regexBudgetMs?: number;
  taskTimeoutMs: number;
  /**
   * The limit of a background job's tasks (RunOptions.background); default taskTimeoutMs. Longer: a job is how a
   * client runs work that outlasts a request (a 300 MB scan optimized took 50 to 100 s here, docs/optimize.md).
   */
  jobTaskTimeoutMs?: number;
  maxMemoryBytes: number;
  queueLimit: number;
  /**
   * Tasks one owner (user) may have running at once; their others wait. The
   * parts of one group (RunOptions.group) count as one. Tasks without an owner are not limited.
   */
  ownerTaskLimit?: number;
  /** Told about failures that the client sees only as a code. */
  onInternalError?: (message: string, context: Record<string, unknown>) => void;
  /** Told about each task stopped at its timeout; `workerBusy`: the share of the wait its worker ran (0: it never started). */
  onTimeout?: (info: { task: string; timeoutMs: number; workerTasks: number; workerFailures: number; workerBusy: number | null }) => void;
  /**
   * Tests only: the URL of a module whose `tasks` the workers add to the registry (test/helpers/test-tasks.ts: a
   * task that takes as long as asked), so that the production registry holds no test task.
   */
  extraTasks?: string;
}

export interface RunOptions {
  /** Byte arrays the caller is done with: moved to the worker instead of copied (an open file has nothing to move). */
  transfer?: (Uint8Array | PdfSource)[];
  timeoutMs?: number;
  /**
   * Stops the task: a queued task leaves the queue, a running one is stopped
   * by replacing its worker (as on timeout). Either way the task rejects with
   * TASK_CANCELLED. Without it, the signal of the current request applies (taskSignal).
   */
  signal?: AbortSignal | undefined;
  /** Told of the task's progress reports, in order (throttled in the worker to about ten a second). */
  onProgress?: ((p: TaskProgress) => void) | undefined;
  /**
   * The parts of one piece of work split across workers (the same object for
   * each part, e.g. `{}` made per request): they count as one task against the
   * owner's limit, see EnginePool.withinLimit.
   */
  group?: object | undefined;
  /**
   * Work of a background job: such tasks never take the last free worker
   * (with two or more workers), which stays for inline requests, so reads
   * stay fast however many jobs are queued.
   */
  background?: boolean | undefined;
}

interface Job {
  id: number;
  task: string;
  owner: string | undefined;
  /** What the owner's limit counts: the job's group, or the job itself when it has none. */
  unit: object;
  background: boolean;
  input: unknown;
  transfer: ArrayBuffer[];
  timeoutMs: number;
  onProgress: ((p: TaskProgress) => void) | undefined;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** When it started on a worker (performance.now()): its span tells the wait in the queue from the run. */
  startedAt?: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  tasks: number;
  failures: number;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  retiring: boolean;
  /** The worker's event-loop use when its task started: on a timeout, whether it ran all along or never got the task. */
  eluAtStart?: EventLoopUtilization;
}

type Reply =
  | { ready: true; memory: number }
  | { id: number; progress: TaskProgress }
  | { id: number; ok: true; result: unknown; memory: number; loggedErrors: number }
  | { id: number; ok: false; error: SerializedEngineError; fatal: boolean; memory: number; loggedErrors: number };

/**
 * Who the tasks started in the current asynchronous context are for: the HTTP
 * layer runs each request's handler inside it (app.ts), so every task a
 * request causes is counted for its user without passing the user through
 * every operation. Work the service does of its own accord runs outside it.
 */
export const taskOwner = new AsyncLocalStorage<string>();

/**
 * The abort signal of the current asynchronous context: the HTTP layer runs
 * each request's handler with one that fires when the client goes away
 * before its answer (app.ts), so the engine stops work nobody will read.
 */
export const taskSignal = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` as the service's own work: for no user (no task limit) and not stopped with the request that caused it. */
export function detachedTask<T>(fn: () => T): T {
  return taskOwner.exit(() => taskSignal.exit(fn));
}

const WORKER_URL = new URL('./worker.js', import.meta.url);
const MAX_START_FAILURES = 5;
/**
 * Measured: a MuPDF WASM instance corrupts its heap after about 1,000 errors
 * thrown out of MuPDF (every later call then traps). Errors caught inside a task
 * cannot all be seen from outside, and MuPDF logs only some of them, so three
 * bounds together keep a worker far from that point: failed tasks, errors
 * MuPDF logged, and tasks in all (a fresh worker costs about 55 ms).
 */
const MAX_FAILURES_PER_WORKER = 50;
const MAX_LOGGED_ERRORS = 300;
const MAX_TASKS_PER_WORKER = 500;

/**
 * A fixed set of worker threads that run MuPDF, so the event loop never does.
 * We keep our own small pool rather than a general one because the engine needs
 * to replace a specific worker at a specific moment: after a task past its
 * timeout (terminate + replace), after a task whose WASM memory passed a
 * threshold (WASM memory never shrinks), after a WebAssembly trap, and after a
 * number of failed tasks (see MAX_FAILURES_PER_WORKER).
 */
export class EnginePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  private readonly readyWaiters: (() => void)[] = [];
  /** Per owner, its units (groups or single jobs) running, each with its number of running tasks. */
  private readonly running = new Map<string, Map<object, number>>();
  readonly counters = { completed: 0, failed: 0, timedOut: 0, cancelled: 0, cancelRestarts: 0, recycled: 0, crashed: 0, refused: 0 };
  /**
   * Where the workers' time goes (metrics): per position in the pool (a replaced worker's successor continues its
   * count), the milliseconds it had a task and the tasks it ended; and the milliseconds during which exactly n workers
   * had a task (index n), which says whether the workers ran at the same time or took turns. Brought up to date at
   * every start and end of a task, and when read.
   */
  private readonly usage = { busyMs: [] as number[], tasks: [] as number[], concurrentMs: [] as number[], at: performance.now() };

  constructor(private readonly options: EnginePoolOptions) {
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
    this.usage.busyMs = this.slots.map(() => 0);
    this.usage.tasks = this.slots.map(() => 0);
    this.usage.concurrentMs = [0, ...this.slots.map(() => 0)];
  }

  /** Resolves when every worker has loaded MuPDF. */
  async ready(): Promise<void> {
    while (this.slots.some((s) => !s.ready)) {
      if (this.startFailures >= MAX_START_FAILURES) throw new Error('Engine workers fail to start');
      await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
    }
  }

  run<K extends TaskName>(task: K, input: TaskInput<K>, options: RunOptions = {}): Promise<TaskOutput<K>> {
    if (this.closed) return Promise.reject(new ServiceError('SERVICE_BUSY', 'The service is shutting down'));
    if (this.startFailures >= MAX_START_FAILURES) {
      return Promise.reject(new ServiceError('COMPONENT_MISSING', 'The PDF engine cannot start'));
    }
    const signal = options.signal ?? taskSignal.getStore();
    if (signal?.aborted) return Promise.reject(cancelled());
    const owner = taskOwner.getStore();
    if (this.queue.length >= this.options.queueLimit || (owner !== undefined && this.waiting(owner) >= this.ownerQueueLimit)) {
      this.counters.refused++;
      return Promise.reject(new ServiceError('SERVICE_BUSY', 'Too many documents are being processed', undefined, { 'Retry-After': '5' }));
    }
    // A span from the call to the answer, a child of the caller's (docs/observability.md); undefined when tracing is off.
    const span = startSpan(`engine ${task}`, { 'pdfservice.engine.task': task, 'pdfservice.engine.background': options.background === true });
    const queuedAt = span ? performance.now() : 0;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.cancel(job);
      const settled = (err?: Error) => {
        signal?.removeEventListener('abort', onAbort);
        if (span) endTaskSpan(span, queuedAt, job.startedAt, err);
      };
      const job: Job = {
        id: this.nextId++,
        task,
        owner,
        unit: options.group ?? {}, // a task without a group is a unit of its own
        background: options.background === true,
        input,
        transfer: (options.transfer ?? []).flatMap((a) => (a instanceof Uint8Array && ownsWholeBuffer(a) ? [a.buffer as ArrayBuffer] : [])),
        timeoutMs: options.timeoutMs ?? (options.background ? (this.options.jobTaskTimeoutMs ?? this.options.taskTimeoutMs) : this.options.taskTimeoutMs),
        onProgress: options.onProgress,
        resolve: (value) => {
          settled();
          resolve(value as TaskOutput<K>);
        },
        reject: (err) => {
          settled(err);
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** An aborted task: taken from the queue if it waits there, stopped with its worker if it runs. */
  private cancel(job: Job): void {
    const index = this.queue.indexOf(job);
    if (index >= 0) {
      this.queue.splice(index, 1);
      this.counters.cancelled++;
      job.reject(cancelled());
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) {
      this.counters.cancelled++;
      this.counters.cancelRestarts++;
      this.stop(slot, cancelled());
    }
  }

  /** One owner may hold at most half of the queue, so that one client alone cannot have the others refused. */
  private get ownerQueueLimit(): number {
    return Math.max(1, Math.ceil(this.options.queueLimit / 2));
  }

  private waiting(owner: string): number {
    let n = 0;
    for (const job of this.queue) if (job.owner === owner) n++;
    return n;
  }

  /** Number of workers: how many tasks can run at once. */
  get size(): number {
    return this.slots.length;
  }

  get stats() {
    this.account();
    return {
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      ...this.counters,
      workerBusyMs: [...this.usage.busyMs],
      workerTasks: [...this.usage.tasks],
      concurrentMs: [...this.usage.concurrentMs],
    };
  }

  /** Adds the time since the last call to the workers busy meanwhile (usage); called before a worker's task changes. */
  private account(): void {
    const now = performance.now();
    const elapsed = now - this.usage.at;
    this.usage.at = now;
    let busy = 0;
    this.slots.forEach((slot, i) => {
      if (!slot.job) return;
      busy++;
      this.usage.busyMs[i]! += elapsed;
    });
    this.usage.concurrentMs[busy]! += elapsed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new ServiceError('SERVICE_BUSY', 'The service is shutting down'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const workerData: WorkerSettings = { nice: this.options.nice ?? 0, warmUp: this.options.warmUp ?? 0, ...(this.options.regexBudgetMs ? { regexBudgetMs: this.options.regexBudgetMs } : {}), ...(this.options.extraTasks ? { extraTasks: this.options.extraTasks } : {}) };
    const worker = new Worker(WORKER_URL, { workerData });
    const slot: Slot = { worker, ready: false, tasks: 0, failures: 0, job: null, timer: null, retiring: false };
    worker.on('message', (reply: Reply) => this.onReply(slot, reply));
    worker.on('error', (err) => this.onWorkerGone(slot, `worker error: ${err.message}`));
    worker.on('exit', (code) => this.onWorkerGone(slot, `worker exited with code ${code}`));
    return slot;
  }

  private replace(slot: Slot): void {
    slot.retiring = true;
    if (slot.timer) clearTimeout(slot.timer);
    void slot.worker.terminate();
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
  }

  private onReply(slot: Slot, reply: Reply): void {
    if ('ready' in reply) {
      slot.ready = true;
      this.startFailures = 0;
      this.readyWaiters.splice(0).forEach((w) => w());
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if ('progress' in reply) {
      job.onProgress?.(reply.progress);
      return;
    }
    if (slot.timer) clearTimeout(slot.timer);
    this.finish(slot);
    slot.timer = null;
    slot.tasks++;
    if (reply.ok) {
      this.counters.completed++;
      job.resolve(reply.result);
    } else {
      this.counters.failed++;
      slot.failures++;
      job.reject(this.toServiceError(reply.error, job));
    }
    const worn = slot.failures >= MAX_FAILURES_PER_WORKER || slot.tasks >= MAX_TASKS_PER_WORKER || reply.loggedErrors >= MAX_LOGGED_ERRORS;
    if ((!reply.ok && reply.fatal) || worn || reply.memory > this.options.maxMemoryBytes) {
      this.counters.recycled++;
      this.replace(slot);
    }
    this.dispatch();
  }

  private onWorkerGone(slot: Slot, reason: string): void {
    if (slot.retiring || this.closed) return;
    slot.retiring = true;
    if (!slot.ready) this.startFailures++;
    const job = this.finish(slot);
    if (job) {
      this.counters.crashed++;
      this.options.onInternalError?.(reason, { task: job.task });
      job.reject(new ServiceError('PROCESSING_FAILED', 'The engine stopped while processing this document'));
    }
    this.replace(slot);
    if (this.startFailures >= MAX_START_FAILURES) {
      this.readyWaiters.splice(0).forEach((w) => w());
      for (const queued of this.queue.splice(0)) queued.reject(new ServiceError('COMPONENT_MISSING', 'The PDF engine cannot start'));
    }
    this.dispatch();
  }

  /**
   * Starts queued tasks on free workers, in order, skipping the tasks of an
   * owner who already has ownerTaskLimit tasks (or groups, see withinLimit)
   * running while other users' tasks wait: those go ahead. An owner alone past
   * the limit may still take free workers, all but the last (mayOverflow).
   */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job || slot.retiring) continue;
      const backgroundFull = this.slots.filter((s) => s.job?.background).length >= Math.max(1, this.slots.length - 1);
      const free = this.slots.filter((s) => s.ready && !s.job && !s.retiring).length;
      const startable = (job: Job) => !(job.background && backgroundFull) && this.withinLimit(job);
      const index = this.queue.findIndex((job) => startable(job) || (!(job.background && backgroundFull) && this.mayOverflow(job, free, startable)));
      if (index < 0) return;
      const [job] = this.queue.splice(index, 1) as [Job];
      this.start(slot, job);
    }
  }

  /**
   * The owner's limit counts units, not tasks: a unit is one task, or all the
   * parts of a group (one request's text extraction split across the
   * workers). A part whose group already runs may start beside it, so one
   * request can use every free worker as it would without a limit; the limit
   * still holds between the owner's separate requests, which are separate
   * units. Counting each part as a task made a user's own split request wait
   * for itself, one part after the other (page text went from 0.89x to 1.51x
   * pdftotext's time in the bench).
   */
  private withinLimit(job: Job): boolean {
    const limit = this.options.ownerTaskLimit;
    if (job.owner === undefined || limit === undefined) return true;
    const units = this.running.get(job.owner);
    return !units || units.has(job.unit) || units.size < limit;
  }

  /**
   * Work-conserving (as jobs are, docs/jobs.md "Fair share"): a task past its owner's limit starts when no other
   * owner's task that could start waits, so one client's parallel requests use idle workers. Not the last free worker:
   * a running task is not stopped for anyone, so that one stays for another user's next request, which the limit
   * promised a worker without waiting for this owner's tasks (a user alone gets every worker but one).
   */
  private mayOverflow(job: Job, free: number, startable: (job: Job) => boolean): boolean {
    return free > 1 && !this.queue.some((other) => other.owner !== job.owner && startable(other));
  }

  private start(slot: Slot, job: Job): void {
    this.account();
    slot.job = job;
    job.startedAt = performance.now();
    slot.eluAtStart = slot.worker.performance.eventLoopUtilization();
    if (job.owner !== undefined) {
      let units = this.running.get(job.owner);
      if (!units) this.running.set(job.owner, (units = new Map()));
      units.set(job.unit, (units.get(job.unit) ?? 0) + 1);
    }
    // The timeout is judged after the loop's next poll: when the event loop was held (timers run before the worker's
    // reply is read), a reply already waiting ends the task, instead of a 504 for work that finished in time.
    slot.timer = setTimeout(() => setImmediate(() => this.onTimeout(slot, job)), job.timeoutMs);
    try {
      // A task no one follows (an inline request's) reports no progress: its worker posts nothing until it answers.
      slot.worker.postMessage({ id: job.id, task: job.task, input: job.input, ...(job.onProgress ? {} : { quiet: true }) }, job.transfer);
    } catch (err) {
      // An input that cannot be sent (not cloneable, or a buffer already transferred) fails its task now, instead of
      // holding the worker until the task's timeout; the worker never saw it and takes the next one.
      clearTimeout(slot.timer);
      slot.timer = null;
      this.finish(slot);
      const message = err instanceof Error ? err.message : String(err);
      this.options.onInternalError?.(`the task could not be sent to an engine worker: ${message}`, { task: job.task });
      job.reject(new ServiceError('INTERNAL_ERROR', 'The document could not be handed to the engine'));
      queueMicrotask(() => this.dispatch());
    }
  }

  /** Takes the slot's task off it (ended, failed, timed out or lost with its worker). */
  private finish(slot: Slot): Job | null {
    const job = slot.job;
    if (job) {
      this.account();
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.usage.tasks[index]!++;
    }
    slot.job = null;
    const units = job?.owner !== undefined ? this.running.get(job.owner) : undefined;
    if (job && units) {
      const n = (units.get(job.unit) ?? 1) - 1;
      if (n > 0) units.set(job.unit, n);
      else units.delete(job.unit);
      if (units.size === 0) this.running.delete(job.owner!);
    }
    return job;
  }

  private onTimeout(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    this.counters.timedOut++;
    const elu = slot.eluAtStart ? slot.worker.performance.eventLoopUtilization(slot.eluAtStart) : undefined;
    this.options.onTimeout?.({ task: job.task, timeoutMs: job.timeoutMs, workerTasks: slot.tasks, workerFailures: slot.failures, workerBusy: elu ? Math.round(elu.utilization * 100) / 100 : null });
    this.stop(slot, new ServiceError('ENGINE_TIMEOUT', `Processing took longer than ${job.timeoutMs < 10_000 ? `${job.timeoutMs} ms` : `${Math.round(job.timeoutMs / 1000)} s`} and was stopped`));
  }

  /** Stops the slot's running task (timed out or aborted): a synchronous task cannot be interrupted, so its worker is terminated and replaced. */
  private stop(slot: Slot, error: ServiceError): void {
    const job = this.finish(slot);
    job?.reject(error);
    this.replace(slot);
    this.dispatch();
  }

  private toServiceError(error: SerializedEngineError, job: Job): ServiceError {
    if (isSerializedEngineError(error) && isErrorCode(error.code)) {
      return new ServiceError(error.code, error.message, error.extra, undefined, { inPath: error.inPath });
    }
    this.options.onInternalError?.(error.message, { task: job.task });
    return new ServiceError('PROCESSING_FAILED', 'The engine could not process this document');
  }
}

/** Ends a task's span: its wait for a worker and its run, in milliseconds, and its problem code when it failed. */
function endTaskSpan(span: Span, queuedAt: number, startedAt: number | undefined, err: Error | undefined): void {
  const now = performance.now();
  span.setAttribute('pdfservice.engine.queue_ms', Math.round(((startedAt ?? now) - queuedAt) * 10) / 10);
  if (startedAt !== undefined) span.setAttribute('pdfservice.engine.run_ms', Math.round((now - startedAt) * 10) / 10);
  if (err) failSpan(span, err);
  span.end();
}

function cancelled(): ServiceError {
  return new ServiceError('TASK_CANCELLED', 'The work was cancelled before it finished');
}

/** Transferring a view of a shared pool buffer would detach unrelated data: only whole buffers move. */
function ownsWholeBuffer(a: Uint8Array): boolean {
  return a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength;
}
