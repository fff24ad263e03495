/**
 * Engine tasks for tests only, loaded by the workers of a pool made with TEST_TASKS (EnginePoolOptions.extraTasks):
 * the production registry (src/engine/tasks.ts) holds none of them.
 */
import type { RunOptions } from '../../src/engine/pool.js';

export const tasks = {
  /** Spins for `ms` milliseconds, like a document that takes long. */
  busyWait: (input: { ms: number }) => {
    const end = Date.now() + input.ms;
    while (Date.now() < end) {
      /* spin */
    }
    return { waited: input.ms };
  },
  /** Fails with `message`, as a MuPDF call that threw it would. */
  fail: (input: { message: string }) => {
    throw new Error(input.message);
  },
};

/** The pool option that gives its workers these tasks. */
export const TEST_TASKS = { extraTasks: new URL('./test-tasks.js', import.meta.url).href };

/** Runs busyWait on a pool (or an Engine) made with TEST_TASKS; its run() is typed by the production registry. */
export function busyWait(engine: { run: unknown }, input: { ms: number }, options?: RunOptions): Promise<{ waited: number }> {
  return (engine.run as (task: string, input: unknown, options?: RunOptions) => Promise<{ waited: number }>).call(engine, 'busyWait', input, options);
}

/** Runs the `fail` task on a pool made with TEST_TASKS. */
export function failWith(engine: { run: unknown }, message: string): Promise<unknown> {
  return (engine.run as (task: string, input: unknown) => Promise<unknown>).call(engine, 'fail', { message });
}
