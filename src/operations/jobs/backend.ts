import type { JobEventHub } from './events.js';

/**
 * Where jobs wait and how processes tell each other about them: the queue that
 * processes share, its counts, the heartbeats of running jobs and of the
 * processes themselves, cancel signals and the events hub. The policy (limits,
 * fair share, this process's own queue and its start order, progress, the
 * records' states) is JobOperations' (jobs.ts), the same over every backend;
 * the records are the JobStore's, whose replaceIf settles races.
 *
 * Two implementations, as BullMQ puts a queue behind its connection: the
 * embedded one (embedded-backend.ts: one process, no shared queue, so every job
 * stays on this process's queue) and Redis with BullMQ (redis-backend.ts:
 * instances and `npm run worker` processes share the queue). The contract both
 * pass is test/helpers/job-backend-contract.ts.
 */
export interface JobBackend {
  /** Events numbered, kept for clients that resume, and told to every process following the job. */
  readonly events: JobEventHub;
  /** This process's id, named by the jobs it holds on its own queue (payload.holder); said alive while it lives. */
  readonly holder: string;
  /**
   * Whether this process is the only one using the records: then after a restart, every unfinished record is its
   * predecessor's (recover). Otherwise other processes may be running them, and heartbeats decide (interruptDead).
   */
  readonly sole: boolean;
  /**
   * Whether a job with this document password (or none) may go on the shared queue, and the password sealed for it
   * (secrets.ts); undefined: it stays on this process's queue (no shared queue, or no key to seal the password with).
   */
  shareable(id: string, password: string | undefined): { sealed?: string } | undefined;
  /** The password `shareable` sealed for the job. */
  open(id: string, sealed: string): string;
  /**
   * Puts a job on the shared queue (any process that runs jobs may take it and calls JobConsumer.runShared).
   * `priority` (1 first) is the owner's jobs on it, this one included: the fair order across users (docs/jobs.md).
   */
  enqueue(id: string, sealedPassword: string | undefined, owner: string | null, priority: number): Promise<void>;
  /** Takes a job off the shared queue when it still waits there (best effort: one taken meanwhile is skipped by its taker). */
  dequeue(id: string): Promise<void>;
  /** Jobs waiting on or taken from the shared queue, all processes together. */
  count(): Promise<number>;
  /** The shared queue's jobs (waiting and running, all processes) per owner, with each owner's newest job still waiting. */
  held(): Promise<Map<string | null, SharedHeld>>;
  /** Whether a job of an owner other than `owner` waits at the front of the shared queue. */
  othersWaiting(owner: string | null): Promise<boolean>;
  /** Asks the process running the job to stop it (JobConsumer.abortLocal there). */
  requestCancel(id: string): Promise<void>;
  /** Says, until the returned function is called, that this process runs the job (so nobody marks it interrupted). */
  heartbeat(id: string): () => void;
  /** Whether some process says it runs the job. */
  alive(id: string): Promise<boolean>;
  /** Whether the process of that holder id says it lives. */
  holderAlive(holder: string): Promise<boolean>;
  /**
   * Makes attempt `attempt` of job `id`'s webhook due in `delayMs` (docs/webhooks.md): when it is, one process calls
   * JobConsumer.attemptWebhook. Scheduling an attempt already scheduled does nothing. The embedded backend keeps a timer
   * (the records are the durable part: recover schedules their pending webhooks again); Redis a delayed BullMQ job, which
   * outlives the process that scheduled it and which any instance or worker takes, one of them.
   */
  scheduleWebhook(id: string, attempt: number, delayMs: number): Promise<void>;
  /** Starts delivering to `consumer`: shared jobs to run, cancel signals, the heartbeat check and the shared count. */
  start(consumer: JobConsumer): Promise<void>;
  /** Stops taking jobs and closes connections; running jobs are not waited for. */
  close(): Promise<void>;
}

/** One owner's jobs on the shared queue. */
export interface SharedHeld {
  count: number;
  /** The newest of them still waiting (the one a fair-share push-out takes), if any. */
  newest?: string;
}

/** What a backend calls on the policy (JobOperations). */
export interface JobConsumer {
  /**
   * Runs a job taken from the shared queue. 'skipped': it is no longer queued (cancelled meanwhile, or delivered
   * again after its process died); 'busy': its owner is at its limit here while others wait, so it should wait.
   */
  runShared(id: string, sealedPassword: string | undefined): Promise<'ran' | 'skipped' | 'busy'>;
  /** Stops the job if this process runs it (a cancel signal). */
  abortLocal(id: string): void;
  /** Marks interrupted the jobs whose process stopped saying it runs or holds them; answers how many. */
  interruptDead(): Promise<number>;
  /** Makes a due webhook attempt (JobOperations.attemptWebhook). */
  attemptWebhook(id: string, attempt: number): Promise<void>;
  /** Reads the shared queue's size again (admission answers at once, from the last count). */
  refreshSharedCount(): Promise<void>;
}
