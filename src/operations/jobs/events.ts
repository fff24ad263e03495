import type { JobEvent } from './api.js';
import type { JobRecord } from './model.js';

/** Events kept per running job for clients that resume (Last-Event-ID). */
export const HISTORY_LIMIT = 500;

/**
 * Where a job's events go and come from: numbered, kept for clients that
 * resume (Last-Event-ID), and told to whoever follows the job. In memory for
 * the embedded service (LocalJobEvents); in Redis, across instances and
 * workers, with PDFSERVICE_REDIS_URL (redis-backend.ts).
 */
export interface JobEventHub {
  /** Numbers the event, keeps it and tells the job's listeners (in every process). Resolves once it is kept. */
  publish(record: JobRecord, type: JobEvent['type']): Promise<void>;
  /** The job's kept events, oldest first. */
  history(id: string): Promise<JobEvent[]>;
  /** The job's latest kept event (its progress, which the stored record has only at changes of state). */
  latest(id: string): Promise<JobEvent | undefined>;
  /** Calls `listener` after each new event of the job; answers the function that stops it. */
  listen(id: string, listener: () => void): () => void;
  /** Drops what is kept for a job whose record was deleted. */
  forget(id: string): Promise<void>;
}

/** Who follows which job, in this process: both hubs tell their listeners through it. */
export class JobListeners {
  private readonly byJob = new Map<string, Set<() => void>>();

  /** Calls `listener` at each tell(id); answers the function that stops it. */
  add(id: string, listener: () => void): () => void {
    const listeners = this.byJob.get(id) ?? new Set();
    this.byJob.set(id, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.byJob.get(id) === listeners) this.byJob.delete(id);
    };
  }

  tell(id: string): void {
    for (const listener of [...(this.byJob.get(id) ?? [])]) listener();
  }

  tellAll(): void {
    for (const listeners of this.byJob.values()) for (const listener of [...listeners]) listener();
  }
}

/** The embedded hub: events in memory, listeners called at once. */
export class LocalJobEvents implements JobEventHub {
  private readonly kept = new Map<string, JobEvent[]>();
  private readonly listeners = new JobListeners();

  publish(record: JobRecord, type: JobEvent['type']): Promise<void> {
    const events = this.kept.get(record.id) ?? [];
    this.kept.set(record.id, events);
    const seq = (events.at(-1)?.seq ?? 0) + 1;
    events.push({ seq, type, job: structuredClone(record) });
    // Bounded memory: a finished job keeps its end event only (a resuming client needs no more); a running one its
    // latest HISTORY_LIMIT events (a client resuming from further back gets the newer ones: progress is cumulative).
    if (type === 'end') events.splice(0, events.length - 1);
    else if (events.length > HISTORY_LIMIT) events.splice(0, events.length - HISTORY_LIMIT);
    this.listeners.tell(record.id);
    return Promise.resolve();
  }

  history(id: string): Promise<JobEvent[]> {
    return Promise.resolve([...(this.kept.get(id) ?? [])]);
  }

  latest(id: string): Promise<JobEvent | undefined> {
    return Promise.resolve(this.kept.get(id)?.at(-1));
  }

  listen(id: string, listener: () => void): () => void {
    return this.listeners.add(id, listener);
  }

  forget(id: string): Promise<void> {
    this.kept.delete(id);
    return Promise.resolve();
  }
}
