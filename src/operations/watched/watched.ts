import type { Right } from '../../auth/types.js';
import { ERROR_CATALOG, ServiceError } from '../../errors.js';
import { checkName, documentPathFromBody, folderPathFromBody, StoredPath } from '../../storage/paths.js';
import type { FolderEntry, WriteResult } from '../../storage/store.js';
import type { OperationContext } from '../context.js';
import type { DocumentOperations } from '../documents.js';
import type { FolderOperations } from '../folders.js';
import type { JobOperations } from '../jobs/jobs.js';
import type { JobRecord } from '../jobs/model.js';
import type { PipelineOperations } from '../pipelines/pipelines.js';
import type { SweepLease } from '../retention.js';
import { sameRecord, type WatchBinding, type WatchRun, type WatchStore } from './store.js';

/** Runs kept per binding (finished ones beyond it are dropped, oldest first) and how many GET answers, newest first. */
export const KEPT_RUNS = 1000;
export const LISTED_RUNS = 100;
/** Bindings one user may own. */
export const MAX_BINDINGS_PER_USER = 100;
/** The rights a binding's user needs, at bind and at each run: read the arrival, run the pipeline, write the output. */
const RUN_RIGHTS: readonly Right[] = ['GET', 'POST', 'PUT'];

export interface WatchSettings {
  /** Attempts of one arrival before it is recorded failed and left alone (PDFSERVICE_WATCH_ATTEMPTS). */
  attempts: number;
  /** The wait before the second attempt; it doubles at each one after (PDFSERVICE_WATCH_RETRY_MS). */
  retryMs: number;
}

/** Polling a DMS for documents that appear there by other means (docs/watched-folders.md, "A DMS store"). */
export interface WatchPolling {
  /** Each binding's folder is listed at most once per interval, by one instance (PDFSERVICE_DMS_POLL_SECONDS). */
  intervalMs: number;
  /** One binding's poll lease, by a key of its own: the retention sweep's (RedisSweepLease with Redis, else LocalSweepLease). */
  lease(key: string): SweepLease;
}

/** The longest wait before a folder whose listing failed is listed again (the wait doubles from the interval). */
const POLL_BACKOFF_MAX_MS = 600_000;

/** What runs are checked against, from the service's authentication (start/service.ts). */
export interface RunAccess {
  /** A service user's rights now; undefined when there is no such user. */
  rightsOf(username: string): Promise<Right[] | undefined>;
  /** OpenID Connect as configured now: the issuer, and every right its mapping can give; undefined when it is off. */
  oidc(): { issuer: string; rights: readonly Right[] } | undefined;
}

/** A binding as a client sends it (the route's schema checked its shape). */
export interface WatchBody {
  folder: string;
  pipeline: { name: string; owner?: string; version?: number };
  target?: string;
}

export interface WatchRunView {
  document: string;
  etag: string;
  state: WatchRun['state'];
  attempts: number;
  jobIds: string[];
  jobId?: string;
  started: string;
  ended?: string;
  nextAttempt?: string;
  output?: string;
  error?: Record<string, unknown>;
}

export interface WatchView {
  name: string;
  owner: string;
  folder: string;
  pipeline: { name: string; owner: string; version?: number };
  /** Absent when in place. */
  target?: string;
  inPlace: boolean;
  created: string;
  /** Runs kept in all; `runs` lists the newest LISTED_RUNS of them. */
  runCount: number;
  runs: WatchRunView[];
}

function userOf(ctx: OperationContext): string {
  if (!ctx.principal) throw new ServiceError('AUTHENTICATION_REQUIRED');
  return ctx.principal.username;
}

function isAdmin(ctx: OperationContext): boolean {
  return ctx.principal?.rights.includes('admin') === true;
}

function missingRights(rights: readonly Right[]): Right[] {
  return RUN_RIGHTS.filter((r) => !rights.includes(r));
}

function runView(run: WatchRun): WatchRunView {
  const jobId = run.jobIds.at(-1);
  return {
    document: `/${run.document}`,
    etag: run.etag,
    state: run.state,
    attempts: run.attempts,
    jobIds: [...run.jobIds],
    ...(jobId !== undefined ? { jobId } : {}),
    started: run.started,
    ...(run.ended !== undefined ? { ended: run.ended } : {}),
    ...(run.nextAttempt !== undefined ? { nextAttempt: run.nextAttempt } : {}),
    ...(run.output !== undefined ? { output: `/${run.output}` } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
  };
}

function newestFirst(a: WatchRun, b: WatchRun): number {
  return a.started < b.started ? 1 : a.started > b.started ? -1 : 0;
}

function problemOf(err: unknown): Record<string, unknown> {
  const error = err instanceof ServiceError ? err : new ServiceError('INTERNAL_ERROR');
  return { type: `urn:pdfservice:error:${error.code}`, title: ERROR_CATALOG[error.code].title, status: error.status, code: error.code, ...(error.detail ? { detail: error.detail } : {}), ...(error.extra ?? {}) };
}

/** A job's error as a problem document (the job record keeps code, title, detail and extra). */
function jobProblem(record: JobRecord): Record<string, unknown> {
  const error = record.error;
  if (!error) return { code: 'INTERRUPTED', title: `The job ended ${record.state}`, ...(record.reason ? { detail: record.reason } : {}) };
  const status = (ERROR_CATALOG as Record<string, { status: number } | undefined>)[error.code]?.status;
  return { type: `urn:pdfservice:error:${error.code}`, title: error.title, ...(status !== undefined ? { status } : {}), code: error.code, ...(error.detail ? { detail: error.detail } : {}), ...(error.extra ?? {}) };
}

/**
 * Watched folders (docs/watched-folders.md): a folder bound to a pipeline. Every document that arrives in it (any
 * write of the operations layer that lands there: DocumentOperations.onWritten, which a restore from the trash
 * announces too) is claimed once in the store (its path and ETag: WatchStore.replaceRun from nothing) and run as a
 * background job of PipelineAction, as its binder, through PipelineOperations' own preparation; the outcome is kept
 * with the binding. start() picks up what was missed while no instance ran: arrivals without a run, runs whose job
 * ended unseen, retries due.
 */
export class WatchedFolderOperations {
  private access: RunAccess = { rightsOf: async () => undefined, oidc: () => undefined };
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Work started by arrivals and retries (not awaited by their callers); start/close and tests wait for it. */
  private readonly pending = new Set<Promise<unknown>>();
  private onError: (err: unknown, what: string) => void = () => {};
  /**
   * Per binding: the store version of each document of its folder as last listed and looked at (FolderEntry.version),
   * so that a poll stats only what changed. In memory: a restart, or another instance's poll, begins from the scan.
   */
  private readonly seen = new Map<string, Map<string, string>>();
  /** Per binding: its poll lease, and the backoff after failed listings. */
  private readonly polls = new Map<string, { lease: SweepLease; failures: number; next: number }>();
  private pollTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: WatchStore,
    private readonly documents: DocumentOperations,
    private readonly folders: FolderOperations,
    private readonly pipelines: PipelineOperations,
    private readonly jobs: JobOperations | undefined,
    private readonly settings: WatchSettings,
  ) {
    documents.onWritten((written, ctx) => this.track(this.arrived(written, ctx), 'arrival'));
  }

  /** How a run finds its user's rights now (the service's users, OpenID Connect); and where errors of unattended work are logged. */
  attach(access: RunAccess, onError: (err: unknown, what: string) => void): void {
    this.access = access;
    this.onError = onError;
  }

  private track(work: Promise<unknown>, what: string): void {
    const tracked = work.catch((err: unknown) => this.onError(err, what)).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  // The resource

  async list(ctx: OperationContext, owner?: string): Promise<WatchView[]> {
    const me = userOf(ctx);
    const whose = owner ?? me;
    if (whose !== me && !isAdmin(ctx)) return [];
    const bindings = (await this.store.list()).filter((b) => b.owner === whose).sort((a, b) => (a.name < b.name ? -1 : 1));
    return Promise.all(bindings.map((b) => this.viewOf(b)));
  }

  async get(ctx: OperationContext, name: string, owner?: string): Promise<WatchView> {
    return this.viewOf(await this.visible(ctx, name, owner));
  }

  /**
   * Binds (or binds again: the runs kept stay) the folder to the pipeline, as the caller. Refused: a caller without
   * GET, POST and PUT (403), a pipeline the caller may not run (404), a folder that does not exist (404), a target
   * that would make arrivals run for ever (400 WATCH_CYCLE).
   */
  async put(ctx: OperationContext, name: string, body: WatchBody, owner?: string): Promise<{ view: WatchView; created: boolean }> {
    checkName(name, 'watched folder name');
    const me = userOf(ctx);
    const whose = owner ?? me;
    if (whose !== me) throw new ServiceError('FORBIDDEN', 'A watched folder runs as the user who binds it: bind it as that user');
    const missing = missingRights(ctx.principal!.rights);
    if (missing.length > 0) throw new ServiceError('FORBIDDEN', `A watched folder's runs read, run and write as their binder, who needs the rights ${RUN_RIGHTS.join(', ')}; ${JSON.stringify(me)} lacks ${missing.join(', ')}`, { requiredRight: missing[0] });
    const folder = folderPathFromBody(body.folder, 'folder');
    const target = body.target === undefined ? null : folderPathFromBody(body.target, 'target');
    const pipeline = await this.pipelines.get(ctx, body.pipeline.name, body.pipeline.owner, body.pipeline.version);
    if (!(await this.folders.exists(folder, ctx))) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${folder.toString()}`);
    const others = (await this.store.list()).filter((b) => !(b.owner === whose && b.name === name));
    if (target) refuseCycle(folder.toString(), target.toString(), others);
    const current = await this.store.get(whose, name);
    // A user of the issuer has no record to read at each run: the rights its token or sign-in carries now are kept.
    const issuer = ctx.principal!.oidc ? this.access.oidc()?.issuer : undefined;
    if (!current && others.filter((b) => b.owner === whose).length >= MAX_BINDINGS_PER_USER) {
      throw new ServiceError('BAD_REQUEST', `A user keeps at most ${MAX_BINDINGS_PER_USER} watched folders: delete one first`);
    }
    const next: WatchBinding = {
      owner: whose,
      name,
      folder: folder.toString(),
      pipeline: { name: pipeline.name, owner: pipeline.owner, ...(body.pipeline.version !== undefined ? { version: body.pipeline.version } : {}) },
      target: target ? target.toString() : null,
      created: current?.created ?? new Date().toISOString(),
      ...(issuer !== undefined ? { oidc: { issuer, rights: [...ctx.principal!.rights] } } : {}),
    };
    // Another bind of the same name at once: the one that lands first wins, the other is told so.
    if (!(await this.store.replace(whose, name, current, next))) throw new ServiceError('PRECONDITION_FAILED', `Watched folder ${JSON.stringify(name)} was changed meanwhile: read it and try again`);
    return { view: await this.viewOf(next), created: current === null };
  }

  async delete(ctx: OperationContext, name: string, owner?: string): Promise<void> {
    const binding = await this.visible(ctx, name, owner);
    if (!(await this.store.replace(binding.owner, name, binding, null))) throw new ServiceError('PRECONDITION_FAILED', `Watched folder ${JSON.stringify(name)} was changed meanwhile: read it and try again`);
  }

  private async visible(ctx: OperationContext, name: string, owner?: string): Promise<WatchBinding> {
    checkName(name, 'watched folder name');
    const me = userOf(ctx);
    const whose = owner ?? me;
    const binding = whose === me || isAdmin(ctx) ? await this.store.get(whose, name) : null;
    if (!binding) throw new ServiceError('WATCHED_FOLDER_NOT_FOUND', `There is no watched folder named ${JSON.stringify(name)}${whose === me ? '' : ` of ${JSON.stringify(whose)}`}`);
    return binding;
  }

  private async viewOf(binding: WatchBinding): Promise<WatchView> {
    const runs = (await this.store.runs(binding.owner, binding.name)).sort(newestFirst);
    return {
      name: binding.name,
      owner: binding.owner,
      folder: `/${binding.folder}`,
      pipeline: { ...binding.pipeline },
      ...(binding.target !== null ? { target: `/${binding.target}` } : {}),
      inPlace: binding.target === null,
      created: binding.created,
      runCount: runs.length,
      runs: runs.slice(0, LISTED_RUNS).map(runView),
    };
  }

  // Arrivals and runs

  /**
   * A document written: each binding watching its folder claims it (one run per binding per arrival, whoever claims
   * first). An in-place run's own new version is no arrival (it is the same document, done): a write by a job that
   * an in-place binding of that folder ran is skipped.
   */
  private async arrived(written: WriteResult, ctx: OperationContext): Promise<void> {
    if (this.closed || !this.jobs || !written.path.isDocument) return;
    const folder = written.path.parent.toString();
    const watching = (await this.store.list()).filter((b) => b.folder === folder);
    if (watching.length === 0) return;
    if (await this.ownOutput(written, ctx, watching)) return;
    await Promise.all(watching.map((binding) => this.claim(binding, written.path.toString(), written.stat.etag)));
  }

  /**
   * Whether the write is an in-place run's own: a PipelineAction job writing the document it read, whose If-Match
   * (the arrival's ETag) names a run of an in-place binding of this folder. Read from the job's record, which exists
   * before the job writes (its id may not be in the run yet when a quick job writes).
   */
  private async ownOutput(written: WriteResult, ctx: OperationContext, watching: WatchBinding[]): Promise<boolean> {
    const jobId = written.record.jobId;
    const inPlace = watching.filter((b) => b.target === null);
    if (!jobId || inPlace.length === 0 || written.record.operation !== 'PipelineAction') return false;
    const job = await this.jobs!.get(jobId, ctx).catch(() => null);
    const payload = job?.payload;
    if (payload?.kind !== 'action' || payload.source !== payload.output || payload.source !== written.path.toString()) return false;
    for (const binding of inPlace) {
      if ((await this.store.runs(binding.owner, binding.name)).some((r) => r.document === payload.source && r.etag === payload.etag)) return true;
    }
    return false;
  }

  /** Claims the arrival for the binding and submits its run; false when it was claimed already (here or elsewhere). */
  private async claim(binding: WatchBinding, document: string, etag: string): Promise<boolean> {
    const run: WatchRun = { document, etag, state: 'queued', jobIds: [], attempts: 0, started: new Date().toISOString() };
    if (!(await this.store.replaceRun(binding.owner, binding.name, null, run))) return false;
    await this.prune(binding);
    await this.attempt(binding, run);
    return true;
  }

  /** Drops the oldest finished runs past KEPT_RUNS. */
  private async prune(binding: WatchBinding): Promise<void> {
    const runs = await this.store.runs(binding.owner, binding.name);
    if (runs.length <= KEPT_RUNS) return;
    const finished = runs.filter((r) => r.state === 'succeeded' || r.state === 'failed').sort(newestFirst).reverse();
    await this.store.dropRuns(binding.owner, binding.name, finished.slice(0, runs.length - KEPT_RUNS));
  }

  /**
   * The context a run goes with: the binder, with the rights they have now (403 when they lack one: a failed attempt).
   * A binder of the OpenID Connect issuer: the rights recorded at bind time, as far as the mapping still gives them.
   */
  private async runContext(binding: WatchBinding): Promise<OperationContext> {
    if (binding.oidc) return this.oidcRunContext(binding, binding.oidc);
    const rights = await this.access.rightsOf(binding.owner);
    if (!rights) throw new ServiceError('FORBIDDEN', `The watched folder's user ${JSON.stringify(binding.owner)} is no user of this service any more`);
    const missing = missingRights(rights);
    if (missing.length > 0) throw new ServiceError('FORBIDDEN', `The watched folder's user ${JSON.stringify(binding.owner)} lacks the rights ${missing.join(', ')} now`, { requiredRight: missing[0] });
    return { principal: { username: binding.owner, rights, via: 'session' } };
  }

  private async oidcRunContext(binding: WatchBinding, bound: NonNullable<WatchBinding['oidc']>): Promise<OperationContext> {
    const who = JSON.stringify(binding.owner);
    const oidc = this.access.oidc();
    if (!oidc || oidc.issuer !== bound.issuer) throw new ServiceError('FORBIDDEN', `The watched folder's user ${who} is a user of the OpenID Connect issuer ${bound.issuer}, whose users the service does not accept now (PDFSERVICE_OIDC_ISSUER)`);
    // The name is a service user's now: that user is not the binder, and the binder's sessions ended too (docs/oidc.md).
    if (await this.access.rightsOf(binding.owner)) throw new ServiceError('FORBIDDEN', `The watched folder was bound by the OpenID Connect user ${who}, and a service user of that name exists now: its runs stop; bind it again as the service user`);
    const rights = bound.rights.filter((right) => oidc.rights.includes(right));
    const missing = missingRights(rights);
    if (missing.length > 0) throw new ServiceError('FORBIDDEN', `The watched folder's user ${who} lacks the rights ${missing.join(', ')} now: PDFSERVICE_OIDC_RIGHTS gives them to no one`, { requiredRight: missing[0] });
    return { principal: { username: binding.owner, rights, via: 'session', oidc: true } };
  }

  /**
   * One attempt: the pipeline prepared as PipelineAction on the arrived version (If-Match its ETag: a document
   * replaced meanwhile is not run again under the old arrival), submitted as a job, and followed to its end.
   */
  private async attempt(binding: WatchBinding, claimed: WatchRun): Promise<void> {
    let run = claimed;
    let record: JobRecord;
    try {
      const ctx = await this.runContext(binding);
      const source = documentPathFromBody(run.document, 'document');
      const output = binding.target === null ? undefined : documentPathFromBody(`${binding.target}/${source.name}`, 'target');
      // namingMode 1: a document arriving again under its name replaces its output, as a new version.
      const pipeline = { ...binding.pipeline, ...(output ? { savePath: output.toString(), namingMode: 1 as const } : {}) };
      const prepared = await this.pipelines.prepareRun(source, pipeline, { ...ctx, ifMatch: run.etag });
      record = await this.jobs!.submit(prepared);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'SERVICE_BUSY') {
        // The job queue is full: not the document's fault, so no attempt is counted; tried again after the wait.
        this.later(this.settings.retryMs, () => this.resume(binding, run));
        return;
      }
      // Refused before any job (rights, a pipeline gone): an attempt all the same, or such a run was retried for ever.
      await this.ended(binding, run, { error: problemOf(err), retry: !(err instanceof ServiceError && err.code === 'PRECONDITION_FAILED'), withoutJob: true });
      return;
    }
    const next: WatchRun = { ...run, state: 'queued', jobIds: [...run.jobIds, record.id], attempts: run.attempts + 1 };
    delete next.nextAttempt;
    if (!(await this.store.replaceRun(binding.owner, binding.name, run, next))) return;
    run = next;
    await this.follow(binding, run, record.id);
  }

  /** Waits for the run's job to end (any instance may run it), then records the outcome. */
  private async follow(binding: WatchBinding, run: WatchRun, jobId: string): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const record = await this.jobs!.waitFor(jobId, 60_000);
      if (!record) {
        await this.ended(binding, run, { error: problemOf(new ServiceError('JOB_NOT_FOUND', `Job ${jobId} is gone`)), retry: true });
        return;
      }
      if (record.state === 'queued' || record.state === 'running') continue;
      if (record.state === 'succeeded') {
        const document = record.result?.document as { path?: string; etag?: string } | undefined;
        const wrote = binding.target !== null || record.result?.path !== undefined;
        await this.ended(binding, run, { ...(wrote && document?.path ? { output: document.path.replace(/^\//, ''), outputEtag: document.etag } : {}) });
      } else {
        await this.ended(binding, run, { error: jobProblem(record), retry: record.error?.code !== 'PRECONDITION_FAILED' });
      }
      return;
    }
  }

  /** Records an attempt's end: succeeded, or failed and retried after a doubling wait until the attempts are spent. */
  private async ended(binding: WatchBinding, run: WatchRun, outcome: { output?: string; outputEtag?: string | undefined; error?: Record<string, unknown>; retry?: boolean; withoutJob?: boolean }): Promise<void> {
    const now = new Date();
    // A submitted job counted its attempt already; one refused before its job is counted here.
    const attempts = outcome.withoutJob ? run.attempts + 1 : Math.max(run.attempts, 1);
    let next: WatchRun;
    if (!outcome.error) {
      next = { ...run, state: 'succeeded', ended: now.toISOString(), ...(outcome.output !== undefined ? { output: outcome.output } : {}), ...(outcome.outputEtag !== undefined ? { outputEtag: outcome.outputEtag } : {}) };
      delete next.error;
    } else if (outcome.retry && attempts < this.settings.attempts) {
      const wait = this.settings.retryMs * 2 ** (attempts - 1);
      next = { ...run, attempts, state: 'retrying', ended: now.toISOString(), nextAttempt: new Date(now.getTime() + wait).toISOString(), error: outcome.error };
    } else {
      next = { ...run, attempts, state: 'failed', ended: now.toISOString(), error: outcome.error };
    }
    if (next.state !== 'retrying') delete next.nextAttempt;
    if (!(await this.store.replaceRun(binding.owner, binding.name, run, next))) return;
    if (next.state === 'retrying') this.later(Date.parse(next.nextAttempt!) - Date.now(), () => this.resume(binding, next));
  }

  /** A run waiting for its next attempt: taken (compare-and-set to queued, so one instance does) and attempted. */
  private async resume(binding: WatchBinding, run: WatchRun): Promise<void> {
    if (this.closed) return;
    const taken: WatchRun = { ...run, state: 'queued' };
    delete taken.nextAttempt;
    if (!sameRecord(run, taken) && !(await this.store.replaceRun(binding.owner, binding.name, run, taken))) return;
    await this.attempt(binding, taken);
  }

  private later(ms: number, work: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(work(), 'retry');
    }, Math.max(0, ms));
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * At start: every binding's runs reconciled (a job that ended while nobody followed it is recorded, one still
   * going is followed, a retry due is scheduled), then its folder scanned for documents that arrived while no instance
   * watched: a document modified since the binding was made whose version has no run, and is no in-place run's output.
   * Resolves once every folder is listed, with the number of bindings scanned and `claimed`: the count of missed
   * arrivals this instance claimed (another instance's claim is not counted), once each is claimed and submitted.
   */
  async start(): Promise<{ bindings: number; claimed: Promise<number> }> {
    if (!this.jobs) return { bindings: 0, claimed: Promise.resolve(0) };
    const bindings = await this.store.list();
    const claims: Promise<boolean>[] = [];
    for (const binding of bindings) {
      try {
        await this.recover(binding, claims);
      } catch (err) {
        this.onError(err, `start of watched folder ${binding.owner}/${binding.name}`);
      }
    }
    const claimed = Promise.allSettled(claims).then((ends) => ends.filter((end) => end.status === 'fulfilled' && end.value).length);
    return { bindings: bindings.length, claimed };
  }

  private async recover(binding: WatchBinding, claims: Promise<boolean>[]): Promise<void> {
    const runs = await this.store.runs(binding.owner, binding.name);
    for (const run of runs) {
      if (run.state === 'retrying') this.later(Date.parse(run.nextAttempt ?? '') - Date.now() || 0, () => this.resume(binding, run));
      const jobId = run.jobIds.at(-1);
      if (run.state !== 'queued') continue;
      if (jobId === undefined) this.track(this.resume(binding, run), 'recovered run');
      else this.track(this.follow(binding, run, jobId), 'recovered run');
    }
    const ctx = await this.runContext(binding).catch(() => null);
    if (!ctx) return;
    await this.scan(binding, ctx, { listed: (folder) => this.folders.entries(folder, ctx).catch(() => null), deferInPlace: false, claims });
  }

  /**
   * Lists the binding's folder once and claims each document directly in it whose current version arrived unseen:
   * modified since the binding was made, its version (ETag) without a run of the binding, and no in-place run's
   * output. A document whose store version (FolderEntry.version: on a DMS its entity tag, length and date) is the one
   * this instance saw at its last scan is not looked at again, so a poll of an unchanged folder is the listing alone;
   * a changed one costs its stat (our tag: the dead property the service stored, else a download to hash it, once per
   * version). `deferInPlace`: a document an in-place run is still working on is left for the next poll, since the run
   * writes its output before it records its tag. A document the binder may list but not read (the DMS refuses its
   * GET) is claimed under the DMS's version (`dms:` and FolderEntry.version), and its attempts fail as a bad
   * document's do. Errors of the listing and of the stats are thrown (the poll backs off). `claims`: the start's
   * collection of the claims made (its count of missed arrivals).
   */
  private async scan(binding: WatchBinding, ctx: OperationContext, options: { listed?: (folder: StoredPath) => Promise<FolderEntry[] | null>; deferInPlace: boolean; claims?: Promise<boolean>[] }): Promise<void> {
    const key = bindingKey(binding);
    const before = this.seen.get(key);
    const folder = binding.folder === '' ? StoredPath.root : folderPathFromBody(binding.folder, 'folder');
    const entries = options.listed ? await options.listed(folder) : await this.folders.entries(folder, ctx);
    if (!entries) return;
    // Whole seconds: a DMS dates files to the second (getlastmodified), so one made in the binding's second is after it.
    const created = Math.floor(Date.parse(binding.created) / 1000) * 1000;
    const seen = new Map<string, string>();
    let runs: WatchRun[] | undefined;
    let known: Set<string> | undefined;
    for (const entry of entries) {
      if (entry.type !== 'document') continue;
      const version = entry.version ?? `|${entry.size ?? ''}|${entry.modified.getTime()}`;
      if (before?.get(entry.name) === version || entry.modified.getTime() < created) {
        seen.set(entry.name, version);
        continue;
      }
      runs ??= await this.store.runs(binding.owner, binding.name);
      known ??= new Set(runs.flatMap((r) => [`${r.document}\u0000${r.etag}`, ...(r.output !== undefined && r.outputEtag !== undefined ? [`${r.output}\u0000${r.outputEtag}`] : [])]));
      const path = folder.child(entry.name);
      const document = path.toString();
      if (options.deferInPlace && binding.target === null && runs.some((r) => r.document === document && (r.state === 'queued' || r.state === 'retrying'))) continue;
      let etag: string | undefined;
      try {
        etag = (await this.documents.find(path, ctx))?.etag;
      } catch (err) {
        if (!(err instanceof ServiceError && err.code === 'DMS_FORBIDDEN' && err.extra?.dmsStatus === 403)) throw err;
        etag = `dms:${version}`;
      }
      if (etag !== undefined && !known.has(`${document}\u0000${etag}`)) {
        const claim = this.claim(binding, document, etag);
        options.claims?.push(claim);
        this.track(claim, 'missed arrival');
      }
      seen.set(entry.name, version);
    }
    this.seen.set(key, seen);
  }

  /**
   * Polls a DMS (docs/watched-folders.md, "A DMS store"): every interval each binding whose lease this instance takes
   * (one instance per binding and interval) has its folder scanned; a listing that fails is logged and its binding left
   * alone for twice the wait of the last (from the interval, at most POLL_BACKOFF_MAX_MS).
   */
  startPolling(polling: WatchPolling): void {
    if (!this.jobs || this.closed || polling.intervalMs <= 0 || this.pollTimer) return;
    let busy = false;
    this.pollTimer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.pollOnce(polling)
        .catch((err: unknown) => this.onError(err, 'poll of the watched folders'))
        .finally(() => (busy = false));
    }, polling.intervalMs);
    this.pollTimer.unref();
  }

  private async pollOnce(polling: WatchPolling): Promise<void> {
    const bindings = await this.store.list();
    const keys = new Set(bindings.map(bindingKey));
    for (const key of this.polls.keys()) {
      if (keys.has(key)) continue;
      this.polls.delete(key);
      this.seen.delete(key);
    }
    for (const binding of bindings) {
      if (this.closed) return;
      const key = bindingKey(binding);
      let poll = this.polls.get(key);
      if (!poll) this.polls.set(key, (poll = { lease: polling.lease(key), failures: 0, next: 0 }));
      const now = new Date();
      if (now.getTime() < poll.next) continue;
      // Once per interval whoever polls: the lease's time, a little short of it so that a timer's jitter skips no round.
      const held = await poll.lease.take(now, polling.intervalMs * 0.9);
      if (!held) continue;
      try {
        await this.scan(binding, await this.runContext(binding), { deferInPlace: true });
        poll.failures = 0;
      } catch (err) {
        poll.failures++;
        const wait = Math.min(polling.intervalMs * 2 ** poll.failures, Math.max(POLL_BACKOFF_MAX_MS, polling.intervalMs));
        poll.next = Date.now() + wait;
        this.onError(err, `poll of watched folder ${binding.owner}/${binding.name} (/${binding.folder}; next in ${Math.round(wait / 1000)} s)`);
      } finally {
        // Done even when it failed: the other instances wait their interval too, rather than retry the DMS at once.
        await held.done(now).finally(() => held.release());
      }
    }
  }

  /** Resolves when the arrivals and retries started so far have been claimed and submitted (not their jobs' ends). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pollTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/** A binding's key among the polls and leases. */
function bindingKey(binding: WatchBinding): string {
  return `watch:${encodeURIComponent(binding.owner)}/${encodeURIComponent(binding.name)}`;
}

/**
 * 400 WATCH_CYCLE when a binding from `folder` to `target` would let outputs arrive again for ever: `target` is
 * `folder`, or some path of bindings (each taking arrivals of its folder to its target) leads from `target` back to
 * `folder`. In-place bindings lead nowhere: their own writes are no arrivals.
 */
export function refuseCycle(folder: string, target: string, others: WatchBinding[]): void {
  const edges = new Map<string, string[]>();
  for (const b of others) if (b.target !== null) edges.set(b.folder, [...(edges.get(b.folder) ?? []), b.target]);
  const show = (p: string) => `/${p}`;
  const path: string[] = [folder, target];
  const seen = new Set<string>();
  const walk = (at: string): boolean => {
    if (at === folder) return true;
    if (seen.has(at)) return false;
    seen.add(at);
    for (const next of edges.get(at) ?? []) {
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  if (walk(target)) {
    throw new ServiceError('WATCH_CYCLE', `Outputs would arrive again for ever: ${path.map(show).join(' → ')}${target === folder ? ' (leave target out to write in place)' : ''}`, { cycle: path.map(show) });
  }
}
