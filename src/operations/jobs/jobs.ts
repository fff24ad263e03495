import { ServiceError, ERROR_CATALOG } from '../../errors.js';
import type { TaskProgress } from '../../engine/models.js';
import { detachedTask } from '../../engine/pool.js';
import { documentPathFromBody } from '../../storage/paths.js';
import type { OperationContext } from '../context.js';
import type { ActionRunner, PreparedAction } from '../actions/runner.js';
import type { JobEvent, JobOperationsApi } from './api.js';
import type { DocumentOperations, PreparedUpload } from '../documents.js';
import type { ExecutionContext } from '../execution.js';
import { isFinished, type ActionPayload, type JobError, type JobPayload, type JobProgress, type JobRecord, type JobState } from './model.js';
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
  /** An action on a document larger than this (bytes), or a conversion of an upload larger than this, is long by nature; 0: no size rule. */
  asyncBytes?: number;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** Events kept per running job for clients that resume (Last-Event-ID). */
const HISTORY_LIMIT = 500;

/**
 * What a job keeps in memory only: how to run it (the prepared action or
 * upload, with its files and the request's context, never written to disk)
 * and how to stop it. The context is the submitting request's: its document
 * password and its principal, so the job's store calls act as the user who
 * submitted it (storeUserOf), however much later it runs.
 */
interface Live {
  stop: AbortController;
  /** Runs the work under `exec` and answers the job's result; throws the inline request's error. */
  run(exec: ExecutionContext): Promise<NonNullable<JobRecord['result']>>;
  /** Discards what a job that never runs holds (its staged files). */
  discard(): Promise<unknown>;
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
  /** Jobs accepted whose record is still being saved: counted by checkRoom, or a burst of submits all passed it before any was queued. */
  private submitting = 0;
  private readonly records = new Map<string, JobRecord>();
  private readonly history = new Map<string, JobEvent[]>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: JobStore,
    private readonly actions: ActionRunner,
    private readonly documents: DocumentOperations,
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
      if (record.state === 'queued' && record.payload.resumable && record.payload.kind === 'action') {
        this.records.set(record.id, record);
        this.live.set(record.id, this.liveAction(preparedFrom(record, record.payload as ActionPayload)));
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

  /** Whether work is long by nature: it runs as a job unless the client asks to wait (docs/jobs.md). */
  longByNature(work: PreparedAction | PreparedUpload): boolean {
    const limit = this.limits.asyncBytes ?? 0;
    if ('staged' in work) return work.long || (limit > 0 && work.importer !== null && work.staged.size > limit);
    return work.long || (limit > 0 && work.sourceBytes > limit);
  }

  async submitAction(prepared: PreparedAction): Promise<JobRecord> {
    this.checkRoom();
    return this.submit(prepared.name, prepared.source.toString(), prepared.ctx, {
      kind: 'action',
      action: prepared.name,
      target: prepared.target,
      params: prepared.params as Record<string, unknown>,
      prepared: prepared.prepared,
      source: prepared.source.toString(),
      output: prepared.output.toString(),
      conflict: prepared.conflict,
      etag: prepared.ctx.ifMatch ?? '',
      resumable: prepared.files.length === 0 && prepared.ctx.documentPassword === undefined,
    }, this.liveAction(prepared));
  }

  /** Queues a prepared upload (a conversion, or a PDF to check and store) as a job; the job owns its staged content (discarded when refused). */
  async submitUpload(prepared: PreparedUpload): Promise<JobRecord> {
    try {
      this.checkRoom();
    } catch (err) {
      await prepared.staged.discard();
      throw err;
    }
    return this.submit('upload', prepared.target.toString(), prepared.ctx, {
      kind: 'upload',
      output: prepared.target.toString(),
      mediaType: prepared.mediaType,
      bytes: prepared.staged.size,
      conflict: prepared.conflict,
      etag: prepared.ctx.ifMatch ?? '',
      resumable: false,
    }, {
      stop: new AbortController(),
      run: async (exec) => {
        const stored = await this.documents.executeUpload(prepared, exec, 'write');
        return { path: stored.model.path, status: stored.created ? 201 : 200, document: stored.model };
      },
      discard: () => prepared.staged.discard(),
    });
  }

  /** 503 SERVICE_BUSY with Retry-After when the queue is full: routes ask before work that precedes a submit (the password check). */
  checkRoom(): void {
    if (this.queue.length + this.running.size + this.submitting >= this.limits.queueLimit) {
      throw new ServiceError('SERVICE_BUSY', 'The job queue is full', undefined, { 'Retry-After': '10' });
    }
  }

  /** The record is written before this resolves, so a 202 names a job that survives a restart. */
  private async submit(action: string, document: string, ctx: OperationContext, payload: JobPayload, live: Live): Promise<JobRecord> {
    const id = newJobId();
    const record: JobRecord = {
      id,
      action,
      document,
      owner: ctx.principal?.username ?? null,
      state: 'queued',
      progress: { done: 0, unit: payload.kind === 'upload' ? 'steps' : 'pages', percent: 0 },
      created: new Date().toISOString(),
      payload,
    };
    this.submitting++;
    try {
      await this.store.put(record);
    } finally {
      this.submitting--;
    }
    this.records.set(id, record);
    this.live.set(id, live);
    this.queue.push(id);
    this.emit(record, 'state');
    // The job as submitted (queued); it may start at once.
    const submitted = structuredClone(record);
    this.dispatch();
    return submitted;
  }

  /** How a prepared action runs as a job: the same execute as inline, holding the lock only while writing. */
  private liveAction(prepared: PreparedAction): Live {
    return {
      stop: new AbortController(),
      run: async (exec) => {
        const answer = await this.actions.execute(prepared, exec, 'write');
        return answer.kind === 'document'
          ? { path: answer.model.path, status: answer.status, document: answer.model }
          : { path: `/${prepared.source.toString()}`, status: 200, document: answer.model, xmlRoot: answer.xmlRoot };
      },
      discard: () => Promise.all(prepared.files.map((f) => f.content.discard())),
    };
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
      // A job discards its staged files when it runs; one that never runs must do it here.
      await this.live.get(id)?.discard();
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
      if (!record) return;
      if (isFinished(record.state)) {
        // Nothing more will come. A client whose Last-Event-ID is at or past the end event has seen it; one whose
        // job's events are gone (a restart keeps records, not events) or not yet written gets the end from the record.
        if (!events.some((event) => event.type === 'end')) yield { seq: next, type: 'end', job: structuredClone(record) };
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
      // Run as the service's own work, not inside the async context that called dispatch (the submitting request, or
      // whichever job just ended): otherwise the pool counted the job's engine tasks against that user's inline task
      // limit, so the user's next request (even the access check before another 202 or 503) waited for the whole job.
      // Jobs are limited by perUser and the pool's background share instead, as after a restart (recover) already.
      void detachedTask(() => this.run(id)).finally(() => {
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
    const live = this.live.get(id)!;
    const { stop } = live;
    // Saved before anyone is told: a client that saw `running` must find it so after a crash (interrupted, not run again).
    const started: JobRecord = { ...record, state: 'running', started: new Date().toISOString() };
    await this.store.put(started);
    Object.assign(record, started);
    this.emit(record, 'state');
    try {
      const result = await live.run({ signal: stop.signal, progress: (p) => this.progress(record, p), background: true });
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
      unit: p.unit ?? 'pages',
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

/**
 * A queued job's prepared action, rebuilt from its record after a restart (resumable jobs only: no files, no password).
 * The principal is rebuilt from the record's owner: the name only, no rights and none of what the submitting request's
 * principal held in memory (store credentials, when the auth layer gives them). Its store calls go to the store for that
 * user name without credentials: a store that acts with the user's own credentials (a DMS in passthrough mode) refuses
 * them, and the job fails with that 403, the document unchanged; a store that maps the user to its account runs it.
 */
function preparedFrom(record: JobRecord, payload: ActionPayload): PreparedAction {
  const source = documentPathFromBody(payload.source, 'source');
  const output = documentPathFromBody(payload.output, 'output');
  const principal = record.owner === null ? null : { username: record.owner, rights: [], via: 'session' as const };
  return {
    name: payload.action,
    target: payload.target,
    long: false,
    sourceBytes: 0,
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
  return { status: error.status, code: error.code, title: ERROR_CATALOG[error.code].title, ...(error.detail ? { detail: error.detail } : {}), ...(error.extra ? { extra: error.extra } : {}) };
}

