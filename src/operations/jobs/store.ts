import { randomBytes } from 'node:crypto';
import type { JobRecord, JobState } from './model.js';

/**
 * Where job records live. The embedded default keeps one file per job under
 * the data folder (file-store.ts); a Redis store (issue 19) implements the
 * same interface. Records are replaced whole. Where two writers may race for
 * a job (a cancel and the start, a process marking a dead one's job
 * interrupted), they replace it with replaceIf, the compare-and-set of its
 * state, so it lives with the records.
 */
export interface JobStore {
  /** Writes the record (created or replaced) so that it survives a crash of the service once this resolves. */
  put(record: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  /** Every record, or those of one owner, newest first, optionally in some states. */
  list(filter?: { owner?: string | null | undefined; states?: readonly JobState[] | undefined }): Promise<JobRecord[]>;
  delete(id: string): Promise<void>;
  /**
   * Replaces the record only if the stored one exists and its state is one of `from`, in one atomic step against
   * every other put and replaceIf of this store (across processes, for a shared store): answers whether it did.
   */
  replaceIf(record: JobRecord, from: readonly JobState[]): Promise<boolean>;
}

/** Job ids are 32 lowercase hex characters (128 random bits): unguessable, and safe as a file name or key. */
const JOB_ID = /^[0-9a-f]{32}$/;

export function newJobId(): string {
  return randomBytes(16).toString('hex');
}

/** Whether `id` has the form newJobId() gives; stores answer anything else as not found, so an id never becomes a path. */
export function isJobId(id: string): boolean {
  return JOB_ID.test(id);
}

export type JobFilter = Parameters<JobStore['list']>[0];

/** Whether a record passes a list() filter (shared by the stores, so they filter alike). */
export function matchesJobFilter(record: JobRecord, filter: JobFilter): boolean {
  if (filter?.owner !== undefined && record.owner !== filter.owner) return false;
  if (filter?.states !== undefined && !filter.states.includes(record.state)) return false;
  return true;
}

/** list()'s order: newest `created` first, then by id, so equal times list the same way every time. */
export function compareJobs(a: JobRecord, b: JobRecord): number {
  const byCreated = Date.parse(b.created) - Date.parse(a.created);
  if (byCreated !== 0 && !Number.isNaN(byCreated)) return byCreated;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
