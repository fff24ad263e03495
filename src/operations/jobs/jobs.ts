import { ServiceError, ERROR_CATALOG } from '../../errors.js';
import type { TaskProgress } from '../../engine/models.js';
import { documentPathFromBody } from '../../storage/paths.js';
import type { OperationContext } from '../context.js';
import type { ActionRunner, PreparedAction } from '../actions/runner.js';
import type { JobEvent, JobOperationsApi } from './api.js';
import { isFinished, type JobError, type JobProgress, type JobRecord, type JobState } from './model.js';
import { newJobId, type JobStore } from './store.js';

export interface JobLimits {
  /** Jobs queued and running at once; past it a submit is 503 SERVICE_BUSY with Retry-After. */
  queueLimit: number;
  /** Jobs running at once, all users together. */
  concurrency: number;
  /** Jobs of one user running at once: the others wait while other users' jobs go ahead. */
  perUser: number;
  /** How long a finished job's record (and its result or error) is kept; then sweep() deletes it. Default 7 days. */
  retentionMs?: number;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** Events kept per running job for clients that resume (Last-Event-ID). */
const HISTORY_LIMIT = 500;

/** What a job keeps in memory only: the prepared action with its files and the request's password (never written to disk). */
interface Live {
  prepared: PreparedAction;
  stop: AbortController;
}

/**
 * Background jobs: a bounded queue of prepared actions, run by the same
 * ActionRunner.execute as inline requests (under lock 'write', so a job holds
 * the document's lock only while writing and fails with 412 when the
 * document changed meanwhile), with progress, cancel and an events stream.
 * Records go to the JobStore at every change of state, so a restart finds
 * them (recover()).
 */
export class JobOperations implements JobOperationsApi {
  private readonly live = new Map<string, Live>();
  /** Queued job ids, oldest first. */
  private readonly queue: string[] = [];
  private readonly running = new Set<string>();
  private readonly records = new Map<string, JobRecord>();
  private readonly history = new Map<string, JobEvent[]>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: JobStore,
    private readonly actions: ActionRunner,
    private readonly limits: JobLimits,
  ) {}

  /**
   * After a restart: a job that was running is `interrupted` (its document
   * unchanged: jobs write atomically, under If-Match of the version they
   * read); a queued one runs again from its record, unless it needs what only
   * memory held (its files, the document password): then it is `interrupted`.
   */
  async recover(): Promise<void> {
    const unfinished = await this.store.list({ states: ['queued', 'running'] });
    // Oldest first, so the queue keeps its order.
    for (const record of unfinished.reverse()) {
      if (record.state === 'queued' && record.payload.resumable) {
        this.records.set(record.id, record);
        this.live.set(record.id, { prepared: preparedFrom(record), stop: new AbortController() });
        this.queue.push(record.id);
        continue;
      }
      const ran = record.state === 'running';
      record.state = 'interrupted';
      record.finished = new Date().toISOString();
      record.reason = !ran
        ? 'The service stopped before the job ran, and the job needs what is held in memory only (the document password or uploaded files); the document is unchanged. Submit it again.'
        : 'The service stopped while the job ran; the document is unchanged. Submit it again.';
      await this.store.put(record);
    }
    this.dispatch();
  }

  /**
   * Deletes the records of jobs that finished more than the retention time
   * before `now` (store and memory). Returns how many went. main.ts calls it
   * at start and every hour.
   */
  async sweep(now = Date.now()): Promise<number> {
    const keep = this.limits.retentionMs ?? DEFAULT_RETENTION_MS;
    let deleted = 0;
    for (const record of await this.store.list({ states: ['succeeded', 'failed', 'cancelled', 'interrupted'] })) {
      if (record.finished === undefined || now - Date.parse(record.finished) <= keep) continue;
      await this.store.delete(record.id);
      this.records.delete(record.id);
      this.history.delete(record.id);
      this.listeners.delete(record.id);
      deleted++;
    }
    return deleted;
  }

  async submitAction(prepared: PreparedAction): Promise<JobRecord> {
    if (this.queue.length + this.running.size >= this.limits.queueLimit) {
      throw new ServiceError('SERVICE_BUSY', 'The job queue is full', undefined, { 'Retry-After': '10' });
    }
    const id = newJobId();
    const record: JobRecord = {
      id,
      action: prepared.name,
      document: prepared.source.toString(),
      owner: prepared.ctx.principal?.username ?? null,
      state: 'queued',
      progress: { done: 0, unit: 'pages', percent: 0 },
      created: new Date().toISOString(),
      payload: {
        kind: 'action',
        action: prepared.name,
        target: 'document',
        params: prepared.params as Record<string, unknown>,
        prepared: prepared.prepared,
        source: prepared.source.toString(),
        output: prepared.output.toString(),
        conflict: prepared.conflict,
        etag: prepared.ctx.ifMatch ?? '',
        resumable: prepared.files.length === 0 && prepared.ctx.documentPassword === undefined,
      },
    };
    await this.store.put(record);
    this.records.set(id, record);
    this.live.set(id, { prepared, stop: new AbortController() });
    this.queue.push(id);
    this.emit(record, 'state');
    // The job as submitted (queued); it may start at once.
    const submitted = structuredClone(record);
    this.dispatch();
    return submitted;
  }

  async get(id: string, ctx: OperationContext): Promise<JobRecord> {
    const record = this.records.get(id) ?? (await this.store.get(id));
    if (!record || !visible(record, ctx)) throw new ServiceError('JOB_NOT_FOUND', `No job ${id.slice(0, 64)}`);
    return { ...structuredClone(record), ...(record.state === 'queued' ? { position: this.queue.indexOf(id) } : {}) };
  }

  async list(ctx: OperationContext, filter: { owner?: string; state?: JobState }): Promise<JobRecord[]> {
    const admin = ctx.principal?.rights.includes('admin') === true;
    const owner = admin ? filter.owner : (ctx.principal?.username ?? null);
    const stored = await this.store.list({ ...(owner !== undefined ? { owner } : {}), ...(filter.state ? { states: [filter.state] } : {}) });
    return stored.map((r) => this.records.get(r.id) ?? r).map((r) => structuredClone(r));
  }

  async cancel(id: string, ctx: OperationContext): Promise<JobRecord> {
    const record = await this.get(id, ctx);
    if (isFinished(record.state)) throw new ServiceError('JOB_FINISHED', `Job ${id} has already ended (${record.state})`);
    const at = this.queue.indexOf(id);
    if (at >= 0) {
      this.queue.splice(at, 1);
      // execute discards a job's staged files when it runs; a job that never runs must do it here.
      await Promise.all((this.live.get(id)?.prepared.files ?? []).map((f) => f.content.discard()));
      await this.finish(id, 'cancelled', { error: problemOf(new ServiceError('TASK_CANCELLED', 'The job was cancelled before it started')) });
    } else {
      // The running execute stops its engine task or program and writes nothing; run() records the end.
      this.live.get(id)?.stop.abort();
      await this.settled(id);
    }
    return this.get(id, ctx);
  }

  async waitFor(id: string, ms: number): Promise<JobRecord> {
    const ended = this.settled(id);
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
    return structuredClone(this.records.get(id) ?? (await this.store.get(id))!);
  }

  async *events(id: string, ctx: OperationContext, afterSeq: number, signal: AbortSignal): AsyncIterable<JobEvent> {
    await this.get(id, ctx);
    let next = afterSeq + 1;
    for (;;) {
      const events = this.history.get(id) ?? [];
      for (const event of events) {
        if (event.seq < next) continue;
        next = event.seq + 1;
        yield event;
        if (event.type === 'end') return;
      }
      const record = this.records.get(id) ?? (await this.store.get(id));
      if (!record || (isFinished(record.state) && events.length === 0)) {
        if (record) yield { seq: next, type: 'end', job: structuredClone(record) };
        return;
      }
      if (signal.aborted) return;
      await new Promise<void>((resolve) => {
        const listeners = this.listeners.get(id) ?? new Set();
        this.listeners.set(id, listeners);
        const done = () => {
          listeners.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        listeners.add(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Starts queued jobs while there is room, skipping users at their own limit. */
  private dispatch(): void {
    while (this.running.size < this.limits.concurrency) {
      const at = this.queue.findIndex((id) => this.runningOf(this.records.get(id)!.owner) < this.limits.perUser);
      if (at < 0) return;
      const [id] = this.queue.splice(at, 1) as [string];
      this.running.add(id);
      void this.run(id).finally(() => {
        this.running.delete(id);
        this.dispatch();
      });
    }
  }

  private runningOf(owner: string | null): number {
    let n = 0;
    for (const id of this.running) if (this.records.get(id)!.owner === owner) n++;
    return n;
  }

  private async run(id: string): Promise<void> {
    const record = this.records.get(id)!;
    const { prepared, stop } = this.live.get(id)!;
    record.state = 'running';
    record.started = new Date().toISOString();
    await this.store.put(record);
    this.emit(record, 'state');
    try {
      const answer = await this.actions.execute(prepared, { signal: stop.signal, progress: (p) => this.progress(record, p), background: true }, 'write');
      const result = answer.kind === 'document'
        ? { path: answer.model.path, status: answer.status, document: answer.model }
        : { path: `/${prepared.source.toString()}`, status: 200, document: answer.model };
      await this.finish(id, 'succeeded', { result });
    } catch (err) {
      const error = err instanceof ServiceError ? err : new ServiceError('INTERNAL_ERROR');
      await this.finish(id, error.code === 'TASK_CANCELLED' && stop.signal.aborted ? 'cancelled' : 'failed', { error: problemOf(error) });
    }
  }

  /** Progress never goes backwards: a report below the last one (a new stage starting at 0) keeps the percent. */
  private progress(record: JobRecord, p: TaskProgress): void {
    const percent = p.total ? Math.min(100, Math.floor((p.done / p.total) * 100)) : record.progress.percent;
    const progress: JobProgress = {
      done: p.done,
      ...(p.total !== undefined ? { total: p.total } : {}),
      unit: 'pages',
      percent: Math.max(record.progress.percent, percent),
      ...(p.stage ? { phase: p.stage } : {}),
    };
    record.progress = progress;
    this.emit(record, 'progress');
  }

  private async finish(id: string, state: JobState, outcome: Pick<JobRecord, 'result' | 'error'>): Promise<void> {
    const record = this.records.get(id)!;
    Object.assign(record, { state, finished: new Date().toISOString() }, outcome);
    if (state === 'succeeded') record.progress = { ...record.progress, percent: 100 };
    this.live.delete(id);
    await this.store.put(record);
    this.emit(record, 'end');
  }

  /** Resolves when the job has ended (at once for an ended one). */
  private settled(id: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const record = this.records.get(id);
        if (!record || isFinished(record.state)) {
          this.listeners.get(id)?.delete(check);
          resolve();
        }
      };
      const listeners = this.listeners.get(id) ?? new Set();
      this.listeners.set(id, listeners);
      listeners.add(check);
      check();
    });
  }

  private emit(record: JobRecord, type: JobEvent['type']): void {
    const events = this.history.get(record.id) ?? [];
    this.history.set(record.id, events);
    const seq = (events.at(-1)?.seq ?? 0) + 1;
    events.push({ seq, type, job: structuredClone(record) });
    // Bounded memory: a finished job keeps its end event only (a resuming client needs no more); a running one its
    // latest HISTORY_LIMIT events (a client resuming from further back gets the newer ones: progress is cumulative).
    if (type === 'end') events.splice(0, events.length - 1);
    else if (events.length > HISTORY_LIMIT) events.splice(0, events.length - HISTORY_LIMIT);
    for (const listener of [...(this.listeners.get(record.id) ?? [])]) listener();
  }
}

/** A queued job's prepared action, rebuilt from its record after a restart (resumable jobs only: no files, no password). */
function preparedFrom(record: JobRecord): PreparedAction {
  const { payload } = record;
  const source = documentPathFromBody(payload.source, 'source');
  const output = documentPathFromBody(payload.output, 'output');
  const principal = record.owner === null ? null : { username: record.owner, rights: [], via: 'session' as const };
  return {
    name: payload.action,
    params: payload.params,
    prepared: payload.prepared,
    source,
    output,
    inPlace: source.equals(output),
    conflict: payload.conflict,
    ctx: { principal, ...(payload.etag ? { ifMatch: payload.etag } : {}) },
    files: [],
  };
}

function visible(record: JobRecord, ctx: OperationContext): boolean {
  return ctx.principal?.rights.includes('admin') === true || record.owner === (ctx.principal?.username ?? null);
}

function problemOf(error: ServiceError): JobError {
  return { status: error.status, code: error.code, title: ERROR_CATALOG[error.code].title, ...(error.detail ? { detail: error.detail } : {}) };
}

