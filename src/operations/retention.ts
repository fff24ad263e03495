import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStore, DocumentTrash, DocumentVersions, Release, VersionRecord } from '../storage/store.js';
import { documentRemovals, userCapRemovals, type PolicyVersion, type RetentionPolicy, type UserVersion } from './retention-policy.js';

/**
 * The retention sweep (docs/versions.md, "Retention"): a short list of tasks run one after the other in the background,
 * by one instance at a time (SweepLease), at most once per interval across instances. Each task gets the sweep's
 * `now` from an injected clock (tests set the time) and a pause() to call between units of work, which yields the
 * event loop and the thread pool to requests.
 */

/** What a task gets: the time the sweep applies its rules at, and the pause to call between documents. */
export interface SweepContext {
  readonly now: Date;
  pause(): Promise<void>;
  /** Whether the service is stopping: a task stops at its next document. */
  readonly stopping: boolean;
}

/** One kind of background clean-up; answers its counts (for the log line). */
export interface SweepTask {
  readonly name: string;
  run(ctx: SweepContext): Promise<Record<string, number>>;
}

/** The store's calls the versions task uses: the versions and the documents' locks. */
export type VersionedStore = Pick<DocumentStore, 'lock'> & { versions: Pick<DocumentVersions, 'documents' | 'list' | 'remove'> };

/** Every version of a document, as the policy sees them; null when the document is gone. */
async function policyVersions(versions: VersionedStore['versions'], p: StoredPath): Promise<{ records: VersionRecord[]; current: string | null } | null> {
  try {
    const slice = await versions.list(p, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return { records: slice.versions, current: slice.current };
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'DOCUMENT_NOT_FOUND') return null; // deleted meanwhile
    throw err;
  }
}

const asPolicy = (records: VersionRecord[], current: string | null): PolicyVersion[] =>
  records.map((r) => ({ id: r.id, created: r.created, size: r.size, by: r.by, pinned: r.pinned, current: r.id === current }));

/** Whether an error means the version changed under us (removed by another, became current): skipped, not a failure. */
function changedMeanwhile(err: unknown): boolean {
  return err instanceof ServiceError && ['VERSION_NOT_FOUND', 'VERSION_IS_CURRENT', 'DOCUMENT_NOT_FOUND'].includes(err.code);
}

/**
 * The versions' retention: every document's versions through the policy (age, thinning, count), then the per-user
 * cap over what is left. A document is read without its lock first, and only one with something to remove is
 * locked: under the lock its versions are read again and the policy decided again (a write, pin or delete may have
 * come between), so what goes is what the policy says of the versions as they are.
 */
export function versionsTask(store: VersionedStore, policy: RetentionPolicy): SweepTask {
  const { versions } = store;
  const locked = async <T>(p: StoredPath, work: () => Promise<T>): Promise<T | 'locked'> => {
    let release: Release;
    try {
      release = await store.lock(p);
    } catch (err) {
      // Held by a long write (with Redis locks, past PDFSERVICE_LOCK_WAIT_MS): the next sweep sees the document again.
      if (err instanceof ServiceError && err.code === 'DOCUMENT_LOCKED') return 'locked';
      throw err;
    }
    try {
      return await work();
    } finally {
      release();
    }
  };
  const removeEach = async (p: StoredPath, ids: Iterable<string>): Promise<number> => {
    let removed = 0;
    for (const id of ids) {
      try {
        await versions.remove(p, id);
        removed++;
      } catch (err) {
        if (!changedMeanwhile(err)) throw err;
      }
    }
    return removed;
  };
  return {
    name: 'versions',
    async run(ctx) {
      const counts = { documents: 0, removed: 0, removedByUserCap: 0, skippedLocked: 0 };
      const perDocument = policy.maxAgeMs > 0 || policy.thinning || policy.maxCount > 0;
      // With a cap: every document's surviving versions of a user, for the second pass (path and id in `key`).
      const forCap: (UserVersion & { path: StoredPath })[] = [];
      for await (const p of versions.documents()) {
        if (ctx.stopping) return counts;
        counts.documents++;
        const found = await policyVersions(versions, p);
        if (!found) continue;
        let survivors = asPolicy(found.records, found.current);
        if (perDocument && documentRemovals(survivors, ctx.now, policy).size > 0) {
          const outcome = await locked(p, async () => {
            const again = await policyVersions(versions, p);
            if (!again) return [];
            const now = asPolicy(again.records, again.current);
            const gone = documentRemovals(now, ctx.now, policy);
            counts.removed += await removeEach(p, gone);
            return now.filter((v) => !gone.has(v.id));
          });
          if (outcome === 'locked') counts.skippedLocked++;
          else survivors = outcome;
        }
        if (policy.userBytes > 0) for (const v of survivors) if (v.by !== null && !v.current) forCap.push({ ...v, key: `${p.toString()}\0${v.id}`, path: p });
        await ctx.pause();
      }
      if (policy.userBytes > 0) {
        const gone = userCapRemovals(forCap, policy);
        const byDocument = new Map<string, { path: StoredPath; ids: string[] }>();
        for (const v of forCap) {
          if (!gone.has(v.key)) continue;
          const entry = byDocument.get(v.path.toString()) ?? { path: v.path, ids: [] };
          entry.ids.push(v.id);
          byDocument.set(v.path.toString(), entry);
        }
        for (const { path: p, ids } of byDocument.values()) {
          if (ctx.stopping) return counts;
          const outcome = await locked(p, async () => {
            // Under the lock, each chosen version still as chosen: there, not pinned since, not current.
            const again = await policyVersions(versions, p);
            if (!again) return 0;
            const still = new Set(asPolicy(again.records, again.current).filter((v) => !v.pinned && !v.current).map((v) => v.id));
            return removeEach(p, ids.filter((id) => still.has(id)));
          });
          if (outcome === 'locked') counts.skippedLocked++;
          else counts.removedByUserCap += outcome;
          await ctx.pause();
        }
      }
      return counts;
    },
  };
}

/** A sweep taken by this instance: done() records when it ran (for the interval across instances), release() frees it. */
export interface HeldSweep {
  done(at: Date): Promise<void>;
  release(): void;
}

/**
 * Who may sweep now: one instance at a time, at most once per interval across instances. take() answers null when
 * another holds it or the last sweep (by anyone) ran less than `intervalMs` before `now`.
 */
export interface SweepLease {
  take(now: Date, intervalMs: number): Promise<HeldSweep | null>;
}

/**
 * Without Redis: one process per data folder (docs/deployment.md), so the lease is this process's. The last sweep's
 * time is kept in memory: after a restart the first tick sweeps (a sweep that finds nothing to remove reads the
 * versions and writes nothing).
 */
export class LocalSweepLease implements SweepLease {
  private held = false;
  private last: number | undefined;
  async take(now: Date, intervalMs: number): Promise<HeldSweep | null> {
    if (this.held || (this.last !== undefined && now.getTime() - this.last < intervalMs)) return null;
    this.held = true;
    return {
      done: async (at) => {
        this.last = at.getTime();
      },
      release: () => {
        this.held = false;
      },
    };
  }
}

/** The pause between two units of a sweep's work: as long as the last one took (the sweep uses at most about half of the loop and the thread pool), at least one turn of the loop, at most 100 ms. */
function pacer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    const spent = performance.now() - since;
    await new Promise<void>((resolve) => (spent < 1 ? setImmediate(resolve) : setTimeout(resolve, Math.min(spent, 100))));
    since = performance.now();
  };
}

export interface SweeperOptions {
  tasks: SweepTask[];
  lease: SweepLease;
  intervalMs: number;
  /** The time the rules are applied at; tests inject theirs. */
  clock?: () => Date;
  /** After each sweep this instance ran: each task's counts (or its error). */
  onSwept?: (report: SweepReport) => void;
}

export interface SweepReport {
  at: Date;
  tasks: Record<string, Record<string, number> | { error: unknown }>;
}

/**
 * Runs the tasks: sweepOnce() when the lease allows (tests call it), and start() on a timer. The timer ticks every
 * interval, at most every minute (a tick that finds the last sweep recent does nothing), unref'd: it never keeps the
 * process alive.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopping = false;
  private readonly clock: () => Date;

  constructor(private readonly options: SweeperOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /** One sweep if this instance may run one now; null when not (another holds the lease, or not due yet). */
  async sweepOnce(): Promise<SweepReport | null> {
    const { lease, intervalMs, tasks } = this.options;
    const held = await lease.take(this.clock(), intervalMs);
    if (!held) return null;
    try {
      // Read again once the lease is ours: the rules apply at a time after the previous holder's sweep ended.
      const now = this.clock();
      const pause = pacer();
      const isStopping = () => this.stopping;
      const ctx: SweepContext = { now, pause, get stopping() { return isStopping(); } };
      const report: SweepReport = { at: now, tasks: {} };
      for (const task of tasks) {
        try {
          report.tasks[task.name] = await task.run(ctx);
        } catch (err) {
          report.tasks[task.name] = { error: err };
        }
      }
      if (!this.stopping) await held.done(now);
      this.options.onSwept?.(report);
      return report;
    } finally {
      held.release();
    }
  }

  start(firstDelayMs = 1000): void {
    const tick = () => {
      if (this.stopping || this.running) return;
      this.running = this.sweepOnce()
        .catch((err: unknown) => this.options.onSwept?.({ at: this.clock(), tasks: { lease: { error: err } } }))
        .finally(() => {
          this.running = undefined;
        });
    };
    setTimeout(tick, Math.min(firstDelayMs, this.options.intervalMs)).unref();
    this.timer = setInterval(tick, Math.min(this.options.intervalMs, 60_000));
    this.timer.unref();
  }

  /** Stops the timer and waits for a running sweep to stop at its next document. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }
}

/** The trash's expiry: entries deleted more than `maxAgeMs` before the sweep's time are purged (DocumentTrash.expire). */
export function trashTask(trash: Pick<DocumentTrash, 'expire'>, maxAgeMs: number): SweepTask {
  return {
    name: 'trash',
    run: async (ctx) => ({ purged: await trash.expire(new Date(ctx.now.getTime() - maxAgeMs)) }),
  };
}
