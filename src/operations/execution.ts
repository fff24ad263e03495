import { ServiceError } from '../errors.js';
import { taskOwner, taskSignal, type EnginePool, type RunOptions } from '../engine/pool.js';
import type { TaskInput, TaskName, TaskOutput, TaskProgress } from '../engine/models.js';

/**
 * What the execute half of an operation is given (DocumentOperations.transform,
 * ActionRunner.execute): a signal that stops it and a callback told of its
 * progress. An inline request passes none (the request's own signal applies
 * through the pool's taskSignal); a background job passes its own.
 */
export interface ExecutionContext {
  /** Stops the work: queued engine tasks leave the queue, running ones are stopped; nothing is written. */
  signal?: AbortSignal | undefined;
  /** Told of progress of the engine tasks the work runs (pages done of total, and the stage). */
  progress?: ((p: TaskProgress) => void) | undefined;
  /** A background job's work: its engine tasks leave one worker for inline requests (pool.ts, RunOptions.background). */
  background?: boolean | undefined;
  /**
   * Told, under the target's lock and just before the new version is written, the ETag it will have: a job records it
   * (persisted before this resolves), so that a process killed between the write and the job's end is reported
   * truthfully. Throwing stops the write.
   */
  beforeWrite?: ((etag: string) => Promise<void>) | undefined;
  /** The background job doing the work, kept with the version it writes (docs/versions.md). */
  jobId?: string | undefined;
}

/** The engine as execute code sees it: the pool, with the execution's signal and progress applied to every task. */
export interface Engine {
  run<K extends TaskName>(task: K, input: TaskInput<K>, options?: RunOptions): Promise<TaskOutput<K>>;
}

/** An Engine that runs `pool`'s tasks under `exec`: one place applies the signal and the progress callback. */
export function engineFor(pool: EnginePool, exec: ExecutionContext = {}): Engine {
  return {
    run: (task, input, options = {}) =>
      pool.run(task, input, {
        ...options,
        signal: options.signal ?? exec.signal,
        onProgress: options.onProgress ?? exec.progress,
        background: options.background ?? exec.background,
      }),
  };
}


/** The execution of an inline request: the signal that fires when its client goes away (runAsRequest), no progress. */
export function requestExecution(): ExecutionContext {
  return { signal: taskSignal.getStore() };
}

/**
 * Runs `fn` (a request's handler) as work for `owner`, so the engine pool
 * counts the tasks it starts against that user's limit, with `signal` as the
 * signal of every engine task and external program it runs inline.
 */
export function runAsRequest<T>(owner: string | undefined, signal: AbortSignal, fn: () => T): T {
  const run = () => taskSignal.run(signal, fn);
  return owner === undefined ? run() : taskOwner.run(owner, run);
}

/** TASK_CANCELLED when `exec` was stopped: execute steps check between their steps, so a stop writes nothing. */
export function throwIfStopped(exec: ExecutionContext): void {
  if (exec.signal?.aborted) throw new ServiceError('TASK_CANCELLED', 'The work was cancelled before it finished');
}
