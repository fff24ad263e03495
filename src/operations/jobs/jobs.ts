import { ServiceError, ERROR_CATALOG, type ErrorCode } from '../../errors.js';
import { countJobFinished, countJobStarted, countJobSubmitted, observeJobs } from '../../metrics.js';
import type { TaskProgress } from '../../engine/models.js';
import { detachedTask } from '../../engine/pool.js';
import { documentPathFromBody } from '../../storage/paths.js';
import type { OperationContext } from '../context.js';
import type { ActionRunner, PreparedAction } from '../actions/runner.js';
import type { JobEvent, JobOperationsApi } from './api.js';
import type { PreparedUpload, UploadOperations } from '../uploads.js';
import type { OneShotOperations, PreparedOneShot } from '../oneshot.js';
import type { PreparedCompare } from '../compare.js';
import type { ExecutionContext } from '../execution.js';
import { FINISHED_STATES, fileResult, isFinished, type ComparePayload, type ExportPayload, type ActionPayload, type JobError, type JobPayload, type JobProgress, type JobRecord, type JobState, type JobWebhook, type WebhookDelivery } from './model.js';
import type { Webhooks } from './webhooks.js';
import { newJobId, type JobStore } from './store.js';
import type { JobEventHub } from './events.js';
import type { JobBackend, JobConsumer, SharedHeld } from './backend.js';
import { EmbeddedJobBackend } from './embedded-backend.js';
import { MemoryResultFiles, type JobResultFiles, type OpenResultFile } from './result-files.js';
import { discardFileContent } from '../actions/runner.js';
import { throwIfStopped } from '../execution.js';
import { contextOf, currentTraceparent, failSpan, inSpan } from '../../tracing.js';

export interface JobLimits {
  /** Jobs queued and running at once; past it a submit is 503 SERVICE_BUSY with Retry-After. */
  queueLimit: number;
  /** Jobs running at once, all users together. */
  concurrency: number;
  /**
   * Jobs of one user running at once while other users' jobs wait; a user whose jobs are the only ones waiting gets
   * every free slot (docs/jobs.md, Fair share). The embedded queue's order (fewest running first) keeps it by itself;
   * the shared queue checks it per process (runShared).
   */
  perUser: number;
  /** How long a finished job's record (and its result or error) is kept; then sweep() deletes it. Default 7 days. */
  retentionMs?: number;
  /** An action on a document larger than this (bytes), or a conversion of an upload larger than this, is long by nature; 0: no size rule. */
  asyncBytes?: number;
}

/** What a file job's work answers: the file's content and name, and the document it was read from. */
interface FileAnswer {
  content: Uint8Array;
  name: string;
  source: { path: string };
}

const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * What a job keeps in memory only: how to run it (the prepared action or
 * upload, with its files and the request's context, never written to disk)
 * and how to stop it. The context is the submitting request's: its document
 * password and its principal, so the job's store calls act as the user who
 * submitted it (storeUserOf), however much later it runs.
 */
interface Live {
  stop: AbortController;
  /** Runs the work of job `id` under `exec` and answers the job's result; throws the inline request's error. */
  run(exec: ExecutionContext, id: string): Promise<NonNullable<JobRecord['result']>>;
  /** Discards what a job that never runs holds (its staged files). */
  discard(): Promise<unknown>;
}

/**
 * Background jobs: a bounded queue of prepared actions, run by the same
 * ActionRunner.execute as inline requests (under lock 'write', so a job holds
 * the document's lock only while writing and fails with 412 when the
 * document changed meanwhile), with progress, cancel and an events stream.
 * Records go to the JobStore at every change of state, so a restart finds
 * them (recover()); a change two writers may race for is the store's
 * replaceIf. This class is the policy (limits, fair share, this process's
 * queue and its start order, progress); the shared queue, counts, heartbeats,
 * cancel signals and events are the JobBackend's (backend.ts), embedded or on
 * Redis, with no branch on which here.
 */
export class JobOperations implements JobOperationsApi, JobConsumer {
  private readonly live = new Map<string, Live>();
  /** Queued job ids, oldest first. */
  private readonly queue: string[] = [];
  private readonly running = new Set<string>();
  /** Jobs accepted whose record is still being saved, per owner: counted by checkRoom, or a burst of submits all passed it before any was queued. */
  private readonly submitting = new Map<string | null, number>();
  /** When each owner last had a job started (a rising count): between owners with as many jobs running, the one served longest ago goes first. */
  private readonly served = new Map<string | null, number>();
  private turns = 0;
  private readonly records = new Map<string, JobRecord>();
  private readonly hub: JobEventHub;
  /** Running jobs taken from the shared queue (also in `running`). */
  private readonly shared = new Set<string>();
  /** The shared queue's size when last asked (checkRoom must answer at once). */
  private sharedCount = 0;
  /** The shared queue's jobs per owner when last asked, read only when the queue is (nearly) full. */
  private sharedHeld = new Map<string | null, SharedHeld>();

  constructor(
    private readonly store: JobStore,
    private readonly actions: ActionRunner,
    private readonly uploads: UploadOperations,
    private readonly limits: JobLimits,
    private readonly backend: JobBackend = new EmbeddedJobBackend(),
    /** Where jobs keep the files they produce (result-files.ts); in memory by default (tests). */
    private readonly resultFiles: JobResultFiles = new MemoryResultFiles(),
    /** Where jobs' ends are POSTed when their request named a URL (docs/webhooks.md); absent: webhooks are off. */
    private readonly webhooks?: Webhooks,
  ) {
    this.hub = backend.events;
    observeJobs(() => ({ queued: this.queue.length, running: this.running.size, shared: this.sharedCount }));
  }

  /** Starts the backend's deliveries to this process (shared jobs, cancel signals, heartbeat checks). */
  start(): Promise<void> {
    return this.backend.start(this);
  }

  /** Stops them; running jobs are not waited for (across processes their heartbeat lapses and they end interrupted). */
  async close(): Promise<void> {
    // The backend first: an attempt that the close below cuts short then stays unrecorded and due (on Redis its BullMQ
    // job, left active, goes back to the queue for another process), so it is made again rather than lost.
    await this.backend.close();
    this.webhooks?.close();
  }

  /**
   * After a restart: a job that was running is `interrupted` (its document
   * unchanged: jobs write atomically, under If-Match of the version they
   * read); a queued one runs again from its record, unless it needs what only
   * memory held (its files, the document password): then it is `interrupted`.
   */
  async recover(): Promise<void> {
    // Across processes a running record may be another process's live job: interruptDead() decides by heartbeat, and
    // queued ones wait on the shared queue already.
    if (!this.backend.sole) return;
    await this.resumeWebhooks();
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
        : stoppedWhileRunning('The service', record);
      await this.store.put(record);
      this.deliverWebhook(record);
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
      // The file first: a sweep that fails between the two leaves a record to sweep again, never a file without one.
      // An interrupted job may have kept its file just before its process stopped, without recording it.
      if (record.result?.file || record.state === 'interrupted') await this.resultFiles.delete(record.id);
      await this.store.delete(record.id);
      this.records.delete(record.id);
      await this.hub.forget(record.id);
      deleted++;
    }
    return deleted;
  }

  /** Whether work is long by nature: it runs as a job unless the client asks to wait (docs/jobs.md). */
  longByNature(work: PreparedAction | PreparedUpload | PreparedOneShot | Pick<PreparedCompare, 'bytes'>): boolean {
    const limit = this.limits.asyncBytes ?? 0;
    // A one-shot is long by its size only: its client came for the result in the answer (docs/api.md, "One-shot
    // conversions"); so is a compare, by the larger of its two documents (docs/compare.md).
    if ('steps' in work || !('long' in work)) return limit > 0 && work.bytes > limit;
    if ('staged' in work) return work.long || (limit > 0 && work.converts && work.staged.size > limit);
    return work.long || (limit > 0 && work.sourceBytes > limit);
  }

  /**
   * Submits prepared work as a job, in one step: for an action, a full queue answers 503 at once (before the password
   * check takes an engine worker), then a wrong document password is this request's 403 (not a failed job), then the
   * job is queued; whatever refuses it, the work's files are discarded. The record is written before this resolves.
   */
  async submit(work: PreparedAction | PreparedUpload): Promise<JobRecord> {
    if ('staged' in work) return this.submitUpload(work);
    try {
      this.checkRoom(work.ctx);
      await this.actions.checkAccess(work);
      return await this.submitAction(work);
    } catch (err) {
      await Promise.all(work.files.map((f) => f.content.discard()));
      throw err;
    }
  }

  /** Queues a prepared action as it is (submit checks room and access first). */
  async submitAction(prepared: PreparedAction): Promise<JobRecord> {
    // Passwords among the parameters (a merge's sources) stay out of the record, as the document password does.
    const { params, secret } = this.actions.recordParams(prepared);
    const payload: ActionPayload = {
      kind: 'action',
      action: prepared.name,
      target: prepared.target,
      params: params as Record<string, unknown>,
      prepared: prepared.prepared,
      source: prepared.source.toString(),
      output: prepared.output.toString(),
      conflict: prepared.conflict,
      etag: prepared.ctx.ifMatch ?? '',
      resumable: prepared.files.length === 0 && prepared.ctx.documentPassword === undefined && !secret,
    };
    // Uploaded files and parameters left out of the record live on this instance only: such jobs stay on its local queue (docs/jobs.md).
    if (prepared.files.length === 0 && !secret) {
      const id = newJobId();
      const shared = this.backend.shareable(id, prepared.ctx.documentPassword);
      if (shared) return this.submitShared(prepared, payload, id, shared.sealed);
    }
    return this.submitLocal(prepared.name, prepared.source.toString(), prepared.ctx, payload, this.liveAction(prepared));
  }

  /** Writes the record and puts the job on the shared queue, where any process that runs jobs takes it (runShared). */
  private async submitShared(prepared: PreparedAction, payload: ActionPayload, id: string, sealed: string | undefined): Promise<JobRecord> {
    const owner = ownerOf(prepared.ctx);
    const webhook = await this.acceptWebhook(prepared.ctx);
    await this.readShared();
    // No await between the check and the count of this submit, so a burst of submits is counted one by one.
    const victim = this.admission(owner);
    const mine = (this.sharedHeld.get(owner)?.count ?? 0) + (this.submitting.get(owner) ?? 0);
    this.countSubmitting(owner, 1);
    try {
      if (victim && !(await this.pushOut(victim))) throw busy();
      const record = this.newRecord(id, prepared.name, prepared.source.toString(), prepared.ctx, payload, webhook);
      await this.store.put(record);
      countJobSubmitted(record.action);
      await this.hub.publish(record, 'state');
      try {
        await this.backend.enqueue(record.id, sealed, owner, mine + 1);
      } catch (err) {
        // Never on the queue, so nobody would run it: it fails now, if the record can still be written.
        const failed: JobRecord = { ...record, state: 'failed', finished: new Date().toISOString(), error: problemOf(new ServiceError('REDIS_UNAVAILABLE')) };
        if (await this.store.replaceIf(failed, ['queued']).catch(() => false)) await this.hub.publish(failed, 'end').catch(() => {});
        throw err;
      }
      return record;
    } finally {
      this.countSubmitting(owner, -1);
    }
  }

  /**
   * Runs a job taken from the shared queue (the backend calls it: BullMQ's worker in redis-backend.ts). 'skipped': the job is no
   * longer queued (cancelled meanwhile, or delivered again after its process died: interruptDead marks those);
   * 'busy': its owner has PDFSERVICE_USER_JOB_LIMIT jobs running in this process, so it should wait.
   */
  async runShared(id: string, sealedPassword: string | undefined): Promise<'ran' | 'skipped' | 'busy'> {
    const record = await this.store.get(id);
    if (!record || record.state !== 'queued' || record.payload.kind !== 'action') return 'skipped';
    // Work-conserving: past the limit, the owner waits only while someone else's job waits.
    if (this.runningOf(record.owner) >= this.limits.perUser && (await this.backend.othersWaiting(record.owner))) return 'busy';
    const password = sealedPassword === undefined ? undefined : this.backend.open(id, sealedPassword);
    this.records.set(id, record);
    this.live.set(id, this.liveAction(preparedFrom(record, record.payload, password)));
    this.running.add(id);
    this.shared.add(id);
    try {
      await detachedTask(() => this.run(id));
    } finally {
      this.running.delete(id);
      this.shared.delete(id);
      // The shared record is the truth from now on; this process keeps nothing of a job it no longer runs.
      this.records.delete(id);
      this.live.delete(id);
      this.dispatch();
    }
    return 'ran';
  }

  /**
   * Reads the shared queue's size again, for checkRoom (which answers at once); a backend with a shared queue calls it
   * every second. When the queue is (nearly) full, its jobs per owner too, which the fair share needs.
   */
  async refreshSharedCount(): Promise<void> {
    this.sharedCount = await this.backend.count();
    if (this.localHeld() + this.sharedCount + 1 >= this.limits.queueLimit) await this.readShared();
    else this.sharedHeld = new Map();
  }

  /** The shared queue's jobs per owner, read afresh (a submit decides on them). */
  private async readShared(): Promise<void> {
    const held = await this.backend.held();
    this.sharedHeld = held;
    this.sharedCount = [...held.values()].reduce((sum, h) => sum + h.count, 0);
  }

  /** Stops the job if this process runs it (a cancel sent from another instance). */
  abortLocal(id: string): void {
    this.live.get(id)?.stop.abort();
  }

  /**
   * Marks `interrupted` the running jobs whose process stopped saying it runs them (killed mid-job): their document
   * is unchanged, as jobs write under If-Match of the version they read. The same for jobs queued on an instance's
   * own queue (payload.holder) whose instance stopped saying it lives: nobody else can run them (their files or
   * password were in its hands only). Every process checks; the atomic compare-and-set of the state lets one of them
   * win. Answers how many it marked. The backend calls it (embedded: never, as the only process has every job in hand).
   */
  async interruptDead(): Promise<number> {
    const { backend } = this;
    let marked = 0;
    for (const record of await this.store.list({ states: ['queued', 'running'] })) {
      let reason: string;
      if (record.state === 'running') {
        if (this.running.has(record.id) || (await backend.alive(record.id))) continue;
        reason = stoppedWhileRunning('The process that ran the job', record);
      } else {
        // Shared queued jobs (no holder) wait on BullMQ for any process; this process's own are in its queue.
        const holder = record.payload.holder;
        if (holder === undefined || holder === backend.holder || (await backend.holderAlive(holder))) continue;
        reason = 'The instance that held the job on its own queue stopped before the job ran; what the job needed (the uploaded files on its disk, or the document password) was there only, and the document is unchanged. Submit it again.';
      }
      const interrupted: JobRecord = { ...record, state: 'interrupted', finished: new Date().toISOString(), reason };
      if (await this.store.replaceIf(interrupted, [record.state])) {
        await this.ended(interrupted);
        marked++;
      }
    }
    return marked;
  }

  /** Queues a prepared upload (a conversion, or a PDF to check and store) as a job; the job owns its staged content (discarded when refused). */
  async submitUpload(prepared: PreparedUpload): Promise<JobRecord> {
    // Uploads stay on this instance's queue; the fair share counts the shared queue too (embedded: none, at once).
    await this.readShared().catch(() => {});
    try {
      return await this.submitLocal('upload', prepared.target.toString(), prepared.ctx, {
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
        const stored = await this.uploads.executeUpload(prepared, exec, 'write');
        return { path: stored.model.path, created: stored.created, document: stored.model };
      },
      discard: () => prepared.staged.discard(),
      });
    } catch (err) {
      await prepared.staged.discard();
      throw err;
    }
  }

  /** Queues a prepared one-shot conversion as a job whose result is a file (JobResult.file); the job owns its staged files (discarded when refused). */
  async submitOneShot(prepared: PreparedOneShot, oneshot: OneShotOperations): Promise<JobRecord> {
    const staged = () => Promise.all([prepared.main, ...prepared.assets, ...prepared.files].map((f) => f.content.discard()));
    await this.readShared().catch(() => {});
    try {
      return await this.submitLocal('oneshot', prepared.name, prepared.ctx, {
        kind: 'oneshot',
        mediaType: prepared.mediaType,
        steps: prepared.steps.map((step) => step.name),
        bytes: prepared.bytes,
        conflict: 'fail',
        etag: '',
        resumable: false,
      }, (id) => ({
        stop: new AbortController(),
        run: async (exec) => {
          return fileResult(await oneshot.executeToFile(prepared, id, exec));
        },
        discard: staged,
      }));
    } catch (err) {
      await staged();
      throw err;
    }
  }

  /**
   * Queues a prepared compare as a job whose result is a file (JobResult.file): `answer` runs the compare under the
   * job's execution (its signal stops the engine tasks) and renders the answer as negotiated at submission (the
   * report as JSON or XML, or the highlight PDF), kept as the job's result file as a one-shot's is. Nothing is
   * written to the store. It stays on this instance's queue: the passwords and `answer` are held here only.
   */
  async submitCompare(prepared: PreparedCompare, mediaType: string, answer: (exec: ExecutionContext) => Promise<FileAnswer>): Promise<JobRecord> {
    const { path, ctx, other, options } = prepared;
    return this.submitFileJob('compare', path.toString(), ctx, {
      kind: 'compare',
      base: other.path.toString(),
      ...(ctx.versionId !== undefined ? { versionId: ctx.versionId } : {}),
      ...(other.versionId !== undefined ? { baseVersionId: other.versionId } : {}),
      options,
      mediaType,
      bytes: prepared.bytes,
      conflict: 'fail',
      etag: '',
      resumable: false,
    }, answer);
  }

  /**
   * Queues an export (docs/export.md) as a job whose result is a file, as submitCompare does: `answer` exports under
   * the job's execution; the route has decided every 4xx it can before (the password, the page range).
   */
  async submitExport(path: string, ctx: OperationContext, export_: Omit<ExportPayload, 'kind' | 'conflict' | 'etag' | 'resumable'>, answer: (exec: ExecutionContext) => Promise<FileAnswer>): Promise<JobRecord> {
    return this.submitFileJob('export', path, ctx, { kind: 'export', ...export_, conflict: 'fail', etag: '', resumable: false }, answer);
  }

  /**
   * A read whose answer is kept as the job's result file (JobResult.file), its source (the document read, as its
   * DocumentModel) named by the result as an action's file is; it stays on this instance's queue.
   */
  private async submitFileJob(action: string, document: string, ctx: OperationContext, payload: ComparePayload | ExportPayload, answer: (exec: ExecutionContext) => Promise<FileAnswer>): Promise<JobRecord> {
    await this.readShared().catch(() => {});
    return this.submitLocal(action, document, ctx, payload, (id) => ({
      stop: new AbortController(),
      run: async (exec) => {
        const { content, name, source } = await answer(exec);
        // As a write, nothing is kept once the job was stopped.
        throwIfStopped(exec);
        return fileResult(await this.resultFiles.put(id, content, { name, mediaType: payload.mediaType }), source);
      },
      discard: () => Promise.resolve(),
    }));
  }

  /**
   * 503 SERVICE_BUSY with Retry-After when a job of this user would not be admitted (admission): routes ask before
   * work that precedes a submit (the password check). The submit decides again.
   */
  checkRoom(ctx: OperationContext): void {
    this.admission(ownerOf(ctx));
  }

  /**
   * Admission, the fair share of the queue (docs/jobs.md): a job is admitted while the queue has room. When it is
   * full, a job of a user holding fewer jobs than the share (the limit divided among the users holding jobs, this one
   * counted) is admitted too, and the newest waiting job of the user holding the most makes room for it: a user alone
   * may fill the queue, and another user still gets in. Otherwise 503 SERVICE_BUSY. Answers the job to push out; the
   * caller pushes it out before it awaits anything.
   */
  private admission(owner: string | null): Victim | undefined {
    const { held, total } = this.heldByOwner();
    if (total < this.limits.queueLimit) return undefined;
    const users = new Set(held.keys()).add(owner).size;
    const share = Math.max(1, Math.floor(this.limits.queueLimit / users));
    const mine = held.get(owner)?.count ?? 0;
    if (mine < share) {
      // The heaviest user with a job still waiting, if it holds more than this one would after the swap.
      const heaviest = [...held].filter(([who, h]) => who !== owner && h.count > mine + 1 && (h.local !== undefined || h.newest !== undefined)).sort((a, b) => b[1].count - a[1].count)[0];
      if (heaviest) return heaviest[1].local !== undefined ? { local: heaviest[1].local } : { shared: heaviest[1].newest! };
    }
    throw busy();
  }

  /** Jobs held per owner: queued and running here, being submitted, and on the shared queue (as last read). */
  private heldByOwner(): { held: Map<string | null, { count: number; local?: string; newest?: string }>; total: number } {
    const held = new Map<string | null, { count: number; local?: string; newest?: string }>();
    const entry = (owner: string | null) => {
      let h = held.get(owner);
      if (!h) held.set(owner, (h = { count: 0 }));
      return h;
    };
    // Oldest first: the last one seen is the owner's newest.
    for (const id of this.queue) {
      const h = entry(this.records.get(id)!.owner);
      h.count++;
      h.local = id;
    }
    // Shared jobs this process runs are in both `running` and the shared count.
    for (const id of this.running) if (!this.shared.has(id)) entry(this.records.get(id)!.owner).count++;
    for (const [owner, n] of this.submitting) entry(owner).count += n;
    let sharedByOwner = 0;
    for (const [owner, h] of this.sharedHeld) {
      const e = entry(owner);
      e.count += h.count;
      if (h.newest !== undefined) e.newest = h.newest;
      sharedByOwner += h.count;
    }
    let total = 0;
    for (const h of held.values()) total += h.count;
    // The count read every second may be newer than the owners read when the queue filled: the rest, owners unknown.
    return { held, total: total + Math.max(0, this.sharedCount - sharedByOwner) };
  }

  private localHeld(): number {
    let n = this.queue.length + this.running.size - this.shared.size;
    for (const k of this.submitting.values()) n += k;
    return n;
  }

  private countSubmitting(owner: string | null, by: 1 | -1): void {
    const n = (this.submitting.get(owner) ?? 0) + by;
    if (n > 0) this.submitting.set(owner, n);
    else this.submitting.delete(owner);
  }

  /**
   * Ends a waiting job to make room for a user below the fair share: it fails with 503 SERVICE_BUSY and writes
   * nothing. A job on this process's queue leaves it at once (before the first await); a shared one is taken in one
   * atomic step from `queued`. Answers whether it went (a shared job may have started meanwhile).
   */
  private async pushOut(victim: Victim): Promise<boolean> {
    const error = problemOf(busy('The job queue was full and a user holding fewer jobs than the fair share submitted one: this job, the newest waiting job of the user holding the most, made room for it and did not run. Submit it again later.'));
    if (victim.local !== undefined) {
      const at = this.queue.indexOf(victim.local);
      if (at < 0) return false;
      this.queue.splice(at, 1);
      await this.live.get(victim.local)?.discard();
      await this.finish(victim.local, 'failed', { error });
      return true;
    }
    const record = await this.store.get(victim.shared!);
    if (!record || record.state !== 'queued') return false;
    const failed: JobRecord = { ...record, state: 'failed', finished: new Date().toISOString(), error };
    if (!(await this.store.replaceIf(failed, ['queued']))) return false;
    await this.ended(failed);
    await this.backend.dequeue(failed.id);
    return true;
  }

  /** The record is written before this resolves, so a 202 names a job that survives a restart. Admission first (503, or a push-out). */
  private async submitLocal(action: string, document: string, ctx: OperationContext, payload: JobPayload, live: Live | ((id: string) => Live)): Promise<JobRecord> {
    const owner = ownerOf(ctx);
    const webhook = await this.acceptWebhook(ctx);
    const victim = this.admission(owner);
    const id = newJobId();
    // It stays on this process's queue: named so that, across instances, others mark it interrupted if this process dies.
    payload.holder = this.backend.holder;
    const record = this.newRecord(id, action, document, ctx, payload, webhook);
    this.countSubmitting(owner, 1);
    try {
      if (victim && !(await this.pushOut(victim))) throw busy();
      await this.store.put(record);
    } finally {
      this.countSubmitting(owner, -1);
    }
    this.records.set(id, record);
    this.live.set(id, typeof live === 'function' ? live(id) : live);
    this.queue.push(id);
    countJobSubmitted(action);
    await this.emit(record, 'state');
    // The job as submitted (queued); it may start at once.
    const submitted = structuredClone(record);
    this.dispatch();
    return submitted;
  }

  private newRecord(id: string, action: string, document: string, ctx: OperationContext, payload: JobPayload, webhook?: JobWebhook): JobRecord {
    // One traceparent for the job's span and its webhook: the request's span with tracing on, else the client's own.
    const traceparent = currentTraceparent() ?? ctx.webhook?.traceparent;
    if (traceparent) payload.traceparent = traceparent;
    return {
      id,
      action,
      document,
      ...(payload.kind === 'compare' ? { base: payload.base } : {}),
      owner: ownerOf(ctx),
      state: 'queued',
      progress: { done: 0, unit: payload.kind === 'upload' ? 'steps' : 'pages', percent: 0 },
      created: new Date().toISOString(),
      ...(webhook ? { webhook } : {}),
      payload,
    };
  }

  /** The request's webhook checked (400 WEBHOOK_URL_REFUSED: no job is created), as the new job's record keeps it. */
  private async acceptWebhook(ctx: OperationContext): Promise<JobWebhook | undefined> {
    if (!ctx.webhook) return undefined;
    if (!this.webhooks) throw new ServiceError('WEBHOOK_URL_REFUSED', 'Webhooks are off on this service (docs/webhooks.md)');
    return this.webhooks.accept(ctx.webhook.url, ownerOf(ctx));
  }

  /**
   * Tells followers that the job ended and sends its webhook. Called by the one process whose replaceIf recorded the
   * end (the store settles races across instances), so a job's end is delivered once.
   */
  private async ended(record: JobRecord): Promise<void> {
    this.deliverWebhook(record);
    await this.hub.publish(record, 'end');
  }

  /** Makes the first attempt of the ended job's webhook due at once (the backend's schedule: any process may make it). */
  private deliverWebhook(record: JobRecord): void {
    if (record.webhook && this.webhooks) void this.backend.scheduleWebhook(record.id, 1, 0).catch(() => {});
  }

  /**
   * Makes attempt `attempt` of a job's webhook (the backend calls it when the attempt is due, in one process), records
   * it in the job's delivery log and, while the webhook stays pending, schedules the next. An attempt the log already
   * holds (a repeat: BullMQ gives an attempt whose process died to another) is not made twice.
   */
  async attemptWebhook(id: string, attempt: number): Promise<void> {
    if (!this.webhooks) return;
    const record = await this.store.get(id);
    const hook = record?.webhook;
    if (!record || !hook || !isFinished(record.state) || hook.state !== 'pending' || hook.deliveries.length !== attempt - 1) return;
    const sent = await this.webhooks.send(record, attempt);
    if (!sent) return;
    if (!(await this.noteDelivery(record, sent.delivery, sent.state))) return;
    if (sent.retryInMs !== undefined) await this.backend.scheduleWebhook(id, attempt + 1, sent.retryInMs);
  }

  /**
   * After a restart of the sole process: the webhooks still pending in the records (the delivery log is the one record
   * of them) are scheduled again, each next attempt when its backoff after the last one ends.
   */
  private async resumeWebhooks(): Promise<void> {
    if (!this.webhooks) return;
    for (const record of await this.store.list({ states: FINISHED_STATES })) {
      const hook = record.webhook;
      if (hook?.state !== 'pending') continue;
      await this.backend.scheduleWebhook(record.id, hook.deliveries.length + 1, this.webhooks.dueIn(hook));
    }
  }

  /** Appends an attempt to the job's delivery log, in its stored record (and this process's copy); false if it could not. */
  private async noteDelivery(stored: JobRecord, delivery: WebhookDelivery, state: JobWebhook['state']): Promise<boolean> {
    const webhook: JobWebhook = { ...stored.webhook!, state, deliveries: [...stored.webhook!.deliveries, delivery] };
    // Only the process that delivers writes a finished record; a record swept meanwhile stays deleted.
    if (!(await this.store.replaceIf({ ...stored, webhook }, [stored.state]))) return false;
    const mine = this.records.get(stored.id);
    if (mine) mine.webhook = webhook;
    return true;
  }

  /** How a prepared action runs as a job: the same execute as inline, holding the lock only while writing. */
  private liveAction(prepared: PreparedAction): Live {
    return {
      stop: new AbortController(),
      run: async (exec, id) => {
        const answer = await this.actions.execute(prepared, exec, 'write');
        if (answer.kind === 'file') {
          try {
            // Like a write, nothing is kept once the job was stopped.
            throwIfStopped(exec);
            return fileResult(await this.resultFiles.put(id, answer.content, { name: answer.name, mediaType: answer.mediaType }), answer.source);
          } finally {
            await discardFileContent(answer.content);
          }
        }
        return answer.kind === 'document'
          ? { path: answer.model.path, created: answer.created, document: answer.model }
          : { path: `/${prepared.source.toString()}`, created: false, document: answer.model, xmlRoot: answer.xmlRoot };
      },
      discard: () => Promise.all(prepared.files.map((f) => f.content.discard())),
    };
  }

  async get(id: string, ctx: OperationContext): Promise<JobRecord> {
    let record = this.records.get(id) ?? (await this.store.get(id));
    if (!record || !visible(record, ctx)) throw new ServiceError('JOB_NOT_FOUND', `No job ${id.slice(0, 64)}`);
    if (record.state === 'running' && !this.records.has(id)) {
      // Run by another process: its progress is in its latest event (the record is written at changes of state only).
      const latest = (await this.hub.latest(id))?.job;
      if (latest?.state === 'running') record = latest;
    }
    const at = this.startOrder().indexOf(id);
    // A job on the shared queue has no place this process knows.
    return { ...structuredClone(record), ...(record.state === 'queued' && at >= 0 ? { position: at } : {}) };
  }

  /**
   * The caller's job's result file held open with what its record says of it (name, media type, ETag): 404
   * JOB_NOT_FOUND as get() says, 404 JOB_RESULT_NOT_FOUND when the job has none (not finished, failed, or it wrote
   * a document). The caller closes it (or its stream does).
   */
  async openResult(id: string, ctx: OperationContext): Promise<{ file: NonNullable<NonNullable<JobRecord['result']>['file']>; content: OpenResultFile }> {
    const record = await this.get(id, ctx);
    const file = record.state === 'succeeded' ? record.result?.file : undefined;
    const none = () => new ServiceError('JOB_RESULT_NOT_FOUND', `Job ${id} has no result file (${record.state}${record.state === 'succeeded' ? ': it wrote a document' : ''})`);
    if (!file) throw none();
    const content = await this.resultFiles.open(id);
    // Swept between the record's read and the open.
    if (!content) throw none();
    return { file, content };
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
    } else if (this.live.has(id)) {
      // The running execute stops its engine task or program and writes nothing; run() records the end.
      this.live.get(id)?.stop.abort();
      await this.settled(id);
    } else {
      // Another process's job (or one that is ending here): still queued, it ends here in one atomic step (whoever
      // takes it then skips it); running, its process is asked to stop it, and the end comes as its event.
      const stored: JobRecord & { position?: number } = { ...record };
      delete stored.position;
      const cancelled: JobRecord = { ...stored, state: 'cancelled', finished: new Date().toISOString(), error: problemOf(new ServiceError('TASK_CANCELLED', 'The job was cancelled before it started')) };
      if (record.state === 'queued' && (await this.store.replaceIf(cancelled, ['queued']))) {
        await this.ended(cancelled);
        await this.backend.dequeue(id);
      } else {
        await this.backend.requestCancel(id);
        await this.settled(id);
      }
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
      // Listening before reading, so an event that comes between the two wakes the wait below.
      const wake = this.wakeOnEvent(id, signal);
      try {
        const events = await this.hub.history(id);
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
        await wake.woke;
      } finally {
        wake.stop();
      }
    }
  }

  /** A promise that resolves at the job's next event (or when `signal` fires), and how to stop listening. */
  private wakeOnEvent(id: string, signal?: AbortSignal): { woke: Promise<void>; stop: () => void } {
    let wake!: () => void;
    const woke = new Promise<void>((resolve) => (wake = resolve));
    const unlisten = this.hub.listen(id, () => wake());
    signal?.addEventListener('abort', wake, { once: true });
    return {
      woke,
      stop: () => {
        unlisten();
        signal?.removeEventListener('abort', wake);
      },
    };
  }

  /**
   * Starts queued jobs while there is room, in the fair order (startOrder): the oldest job of the user with the fewest
   * jobs running goes first, so a user past PDFSERVICE_USER_JOB_LIMIT starts another only when nobody below it waits,
   * and a user alone gets every slot.
   */
  private dispatch(): void {
    while (this.running.size < this.limits.concurrency) {
      const id = this.startOrder(1)[0];
      if (id === undefined) return;
      this.queue.splice(this.queue.indexOf(id), 1);
      this.running.add(id);
      this.served.set(this.records.get(id)!.owner, ++this.turns);
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

  /**
   * The queued jobs in the order they would start if nothing else arrived or ended (the first `limit` of them): each
   * owner's jobs oldest first, the owners taken by fewest jobs running (those started in this order counted), then by
   * who was served longest ago: round robin across users, fair queuing rather than first come first served.
   */
  private startOrder(limit = Infinity): string[] {
    const owners = new Map<string | null, { ids: string[]; next: number; running: number; served: number }>();
    for (const id of this.queue) {
      const owner = this.records.get(id)!.owner;
      let o = owners.get(owner);
      if (!o) owners.set(owner, (o = { ids: [], next: 0, running: this.runningOf(owner), served: this.served.get(owner) ?? 0 }));
      o.ids.push(id);
    }
    const order: string[] = [];
    let turn = this.turns;
    while (order.length < Math.min(limit, this.queue.length)) {
      let pick: { ids: string[]; next: number; running: number; served: number } | undefined;
      for (const o of owners.values()) {
        if (o.next >= o.ids.length) continue;
        if (!pick || o.running < pick.running || (o.running === pick.running && o.served < pick.served)) pick = o;
      }
      order.push(pick!.ids[pick!.next++]!);
      pick!.running++;
      pick!.served = ++turn;
    }
    return order;
  }

  private runningOf(owner: string | null): number {
    let n = 0;
    for (const id of this.running) if (this.records.get(id)!.owner === owner) n++;
    return n;
  }

  /** Runs a job in its span (docs/observability.md): a child of the request that created it, on any instance. */
  private run(id: string): Promise<void> {
    const record = this.records.get(id)!;
    const parent = contextOf(record.payload.traceparent);
    return inSpan(`job ${record.action}`, { 'pdfservice.job.id': id, 'pdfservice.job.action': record.action }, async (span) => {
      await this.runJob(id);
      const ended = this.records.get(id) ?? record;
      span?.setAttribute('pdfservice.job.state', ended.state);
      if (ended.error) failSpan(span, new ServiceError(ended.error.code as ErrorCode, ended.error.detail));
    }, parent ? { parent } : {});
  }

  private async runJob(id: string): Promise<void> {
    const record = this.records.get(id)!;
    const live = this.live.get(id)!;
    const { stop } = live;
    // Saved before anyone is told: a client that saw `running` must find it so after a crash (interrupted, not run again).
    const started: JobRecord = { ...record, state: 'running', started: new Date().toISOString() };
    // Across processes: said alive before it is running, so no other process takes it for dead.
    const stopHeartbeat = this.backend.heartbeat(id);
    try {
      if (!(await this.store.replaceIf(started, ['queued']))) {
        // Cancelled from another instance before it started: that instance recorded the end.
        await live.discard();
        this.live.delete(id);
        Object.assign(record, (await this.store.get(id)) ?? {});
        return;
      }
      Object.assign(record, started);
      countJobStarted(record);
      await this.emit(record, 'state');
      try {
        const result = await live.run({ signal: stop.signal, progress: (p) => this.progress(record, p), background: true, jobId: id, beforeWrite: (etag) => this.writing(record, etag) }, id);
        // A result file is kept only by a job that ends succeeded (not one cancelled or marked interrupted meanwhile,
        // nor one whose record could not be written).
        const recorded = await this.finish(id, 'succeeded', { result }).catch(async (err: unknown) => {
          if (result.file) await this.resultFiles.delete(id).catch(() => {});
          throw err;
        });
        if (!recorded && result.file) await this.resultFiles.delete(id);
      } catch (err) {
        const error = err instanceof ServiceError ? err : new ServiceError('INTERNAL_ERROR');
        await this.finish(id, error.code === 'TASK_CANCELLED' && stop.signal.aborted ? 'cancelled' : 'failed', { error: problemOf(error) });
      }
    } finally {
      stopHeartbeat();
    }
  }

  /**
   * Records, before the job's result is written, the ETag it will have: a process that stops from here on may have
   * written it, and the job's interruption says so. Only a job still running gets here: one cancelled or marked
   * interrupted meanwhile (by another process) writes nothing.
   */
  private async writing(record: JobRecord, etag: string): Promise<void> {
    const marked: JobRecord = { ...record, payload: { ...record.payload, writing: etag } };
    if (!(await this.store.replaceIf(marked, ['running']))) throw new ServiceError('TASK_CANCELLED', 'The job ended before its result was written');
    record.payload = marked.payload;
  }

  /** Progress never goes backwards: a report below the last one (a new stage starting at 0) keeps the percent. */
  private progress(record: JobRecord, p: TaskProgress): void {
    const fraction = p.total ? Math.min(1, p.done / p.total) : undefined;
    // A pipeline's step: its share of the whole (step i of n), so that percent runs once from 0 to 100 over all the steps.
    const percent = p.step
      ? Math.floor(((p.step.index - 1 + (fraction ?? 0)) / p.step.count) * 100)
      : fraction !== undefined ? Math.floor(fraction * 100) : record.progress.percent;
    const progress: JobProgress = {
      done: p.done,
      ...(p.total !== undefined ? { total: p.total } : {}),
      unit: p.unit ?? 'pages',
      percent: Math.max(record.progress.percent, percent),
      ...(p.stage ? { phase: p.stage } : {}),
      ...(p.step ? { step: p.step } : {}),
    };
    record.progress = progress;
    // Not awaited: the engine reports on; a progress event Redis missed is made good by the next one.
    void this.emit(record, 'progress').catch(() => {});
  }

  /** Records the end; false when the job had ended otherwise meanwhile (the store keeps that end). */
  private async finish(id: string, state: JobState, outcome: Pick<JobRecord, 'result' | 'error'>): Promise<boolean> {
    const record = this.records.get(id)!;
    const ended: JobRecord = { ...record, state, finished: new Date().toISOString(), ...outcome };
    if (state === 'succeeded') ended.progress = { ...record.progress, percent: 100 };
    this.live.delete(id);
    // Only a job still queued or running ends here: one marked interrupted meanwhile (by another process) stays so,
    // and this process keeps what the store holds. Readers see the end, and it is counted, once it is certain.
    if (!(await this.store.replaceIf(ended, ['queued', 'running']))) {
      Object.assign(record, (await this.store.get(id).catch(() => null)) ?? {});
      return false;
    }
    Object.assign(record, ended);
    countJobFinished(record);
    await this.ended(record);
    return true;
  }

  /** Resolves when the job has ended (at once for an ended one). */
  private async settled(id: string): Promise<void> {
    for (;;) {
      const wake = this.wakeOnEvent(id);
      try {
        const record = this.records.get(id) ?? (await this.store.get(id));
        if (!record || isFinished(record.state)) return;
        await wake.woke;
      } finally {
        wake.stop();
      }
    }
  }

  private emit(record: JobRecord, type: JobEvent['type']): Promise<void> {
    return this.hub.publish(record, type);
  }
}

/**
 * A queued job's prepared action, rebuilt from its record after a restart (resumable jobs only: no files, no password).
 * The principal is rebuilt from the record's owner: the name only, no rights and none of what the submitting request's
 * principal held in memory (store credentials, when the auth layer gives them). Its store calls go to the store for that
 * user name without credentials: a store that acts with the user's own credentials (a DMS in passthrough mode) refuses
 * them, and the job fails with that 403, the document unchanged; a store that maps the user to its account runs it.
 */
function preparedFrom(record: JobRecord, payload: ActionPayload, documentPassword?: string): PreparedAction {
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
    ctx: { principal, ...(payload.etag ? { ifMatch: payload.etag } : {}), ...(documentPassword !== undefined ? { documentPassword } : {}) },
    files: [],
  };
}

/** A job to push out: on this process's queue, or on the shared one. */
type Victim = { local: string; shared?: undefined } | { local?: undefined; shared: string };

function ownerOf(ctx: OperationContext): string | null {
  return ctx.principal?.username ?? null;
}

function busy(detail = 'The job queue is full'): ServiceError {
  return new ServiceError('SERVICE_BUSY', detail, undefined, { 'Retry-After': '10' });
}

function visible(record: JobRecord, ctx: OperationContext): boolean {
  return ctx.principal?.rights.includes('admin') === true || record.owner === (ctx.principal?.username ?? null);
}

function problemOf(error: ServiceError): JobError {
  return { code: error.code, title: ERROR_CATALOG[error.code].title, ...(error.detail ? { detail: error.detail } : {}), ...(error.extra ? { extra: error.extra } : {}), ...(error.origin.inPath ? { inPath: true as const } : {}) };
}

/**
 * Why a job that was running is interrupted. Before its result is written the document is unchanged (jobs write
 * atomically, after recording the ETag they write: JobOperations.writing); after that it may hold the result.
 */
function stoppedWhileRunning(who: string, record: JobRecord): string {
  const etag = record.payload.writing;
  if (etag === undefined) return `${who} stopped while the job ran; the document is unchanged. Submit it again.`;
  return `${who} stopped while the job was writing its result: the document holds the result if its ETag is ${etag}, else it is unchanged. Check it before submitting again.`;
}
