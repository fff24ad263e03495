import type { OperationContext } from '../context.js';
import type { PreparedAction } from '../actions/runner.js';
import type { PreparedUpload } from '../uploads.js';
import type { JobRecord, JobResultFile, JobState } from './model.js';
import type { OpenResultFile } from './result-files.js';

/** A change of a job, as the events stream (GET /jobs/{id}/events) sends it: the job as it is now, numbered. */
export interface JobEvent {
  /** Rises by one per event of this job; the SSE `id:` (Last-Event-ID resumes after it). */
  seq: number;
  /** `progress` while it runs, `state` on a change of state, `end` once, when it finishes. */
  type: 'progress' | 'state' | 'end';
  job: JobRecord;
}

/**
 * What the HTTP layer asks of background jobs (implemented by
 * operations/jobs/jobs.ts). A job is submitted after prepare has decided
 * every 4xx; its record is written before submit resolves, so a 202 names a
 * job that survives a restart.
 */
export interface JobOperationsApi {
  /**
   * Queues prepared work (an action, or an upload stored or converted) as a job, in one call: 503 SERVICE_BUSY with
   * Retry-After when the queue is full for this user (docs/jobs.md, Fair share), an action's document password checked
   * (403 here, not a failed job); refused, the work's files are discarded.
   */
  submit(work: PreparedAction | PreparedUpload): Promise<JobRecord>;
  /** Whether the work runs as a job unless the client asks to wait: long by nature, or over the size limit. */
  longByNature(work: PreparedAction | PreparedUpload): boolean;
  /** Resolves with the job when it finishes or after `ms`, whichever comes first (Prefer: wait=N). */
  waitFor(id: string, ms: number): Promise<JobRecord>;
  /** The caller's job; 404 JOB_NOT_FOUND for an unknown id or another user's (admins see all). */
  get(id: string, ctx: OperationContext): Promise<JobRecord>;
  /**
   * The caller's job's result file (a file that is not a stored document), open, with its record's description;
   * 404 JOB_NOT_FOUND as get(), 404 JOB_RESULT_NOT_FOUND when the job has none. The caller closes it.
   */
  openResult(id: string, ctx: OperationContext): Promise<{ file: JobResultFile; content: OpenResultFile }>;
  /** Newest first: the caller's, or everyone's / `owner`'s for an admin. */
  list(ctx: OperationContext, filter: { owner?: string; state?: JobState }): Promise<JobRecord[]>;
  /** Cancels a queued or running job (nothing is written); a finished job is 409 JOB_FINISHED. */
  cancel(id: string, ctx: OperationContext): Promise<JobRecord>;
  /** The job's events after `afterSeq` (replayed), then live ones, until it ends or `signal` fires. */
  events(id: string, ctx: OperationContext, afterSeq: number, signal: AbortSignal): AsyncIterable<JobEvent>;
}
