import type { JobRecord, JobState } from './model.js';

/**
 * Where job records live. The embedded default keeps one file per job under
 * the data folder (file-store.ts); a Redis store (issue 19) implements the
 * same interface. Records are replaced whole: a job has one writer, the
 * service that runs it.
 */
export interface JobStore {
  /** Writes the record (created or replaced) so that it survives a crash of the service once this resolves. */
  put(record: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  /** Every record, or those of one owner, newest first, optionally in some states. */
  list(filter?: { owner?: string | null | undefined; states?: readonly JobState[] | undefined }): Promise<JobRecord[]>;
  delete(id: string): Promise<void>;
}
