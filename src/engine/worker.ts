/**
 * Worker-thread entry: loads MuPDF once, then runs tasks posted by the pool.
 * Each reply carries the worker's WASM memory size and the number of errors
 * MuPDF has logged, so the pool can replace the worker in time.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
// Before MuPDF (imported below): its Emscripten module is core/wasm.ts's handle (the WASM memory's size after each task).
import { wasmBytes } from './core/wasm.js';
import { EngineError, type SerializedEngineError } from './errors.js';
import type { TaskContext, TaskProgress } from './task-context.js';

interface TaskMessage {
  id: number;
  task: string;
  input: unknown;
  /** No one follows the task's progress (EnginePool: a task without onProgress): its reports are dropped here. */
  quiet?: boolean;
}

/** What the pool tells each worker (EnginePool.spawn). */
export interface WorkerSettings {
  nice: number;
  /** Rounds of engine/core/warmup.ts run before the worker says it is ready (0: none). */
  warmUp: number;
  /** PDFSERVICE_REGEX_BUDGET_MS (engine/text/regex-budget.ts); absent: its default. */
  regexBudgetMs?: number;
  /** Tests only (EnginePoolOptions.extraTasks). */
  extraTasks?: string;
}
const settings = workerData as WorkerSettings;

// Below the event loop's priority (PDFSERVICE_ENGINE_NICE): with every core busy with engine work, the main thread
// waited for a core, and a job's 202 took 200 ms at p99 where it takes 5 (bench/results/issue38-accept-2026-11-29.md).
// Linux keeps a nice value per thread, and pid 0 is the calling thread (elsewhere it would be the whole process). Steps
// above the thread's own (the service's), so a service started with nice keeps its workers below its loop; raising a
// nice value needs no privilege, and should it fail all the same the worker runs as before.
if (process.platform === 'linux' && settings.nice > 0) {
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + settings.nice));
  } catch {
    /* the process's own priority */
  }
}

const mupdf = await import('mupdf');
// MuPDF's messages are not shown (they name internals); errors are counted, because an
// instance that has seen too many is replaced by the pool (see MAX_LOGGED_ERRORS in pool.ts).
let loggedErrors = 0;
mupdf.setLog({ error: () => void loggedErrors++, warning: () => {} });
// The task registry: each feature folder's modules are loaded when this worker first runs one of its tasks (tasks.ts).
const { loadCore, loadTask } = await import('./tasks.js');
await loadCore();
type Registry = Record<string, (input: unknown, ctx: TaskContext) => unknown>;
// Tests add their own tasks (EnginePoolOptions.extraTasks); the production registry has none.
const extraTasks = settings.extraTasks;
const extra: Registry = extraTasks ? ((await import(extraTasks)) as { tasks: Registry }).tasks : {};

/** At most one progress report per this many milliseconds and task, besides the first and the last (done === total). */
const PROGRESS_INTERVAL_MS = 100;

/** A task's context when no one follows its progress. */
const QUIET: TaskContext = { progress() {} };

/** The context of one task: its progress reports go to the pool, tagged with the task's id, throttled. */
function contextFor(id: number): TaskContext {
  let last = -Infinity;
  return {
    progress(p: TaskProgress) {
      const now = performance.now();
      if (now - last < PROGRESS_INTERVAL_MS && p.done !== p.total) return;
      last = now;
      parentPort!.postMessage({ id, progress: { ...p } });
    },
  };
}

/** Uint8Arrays in the result (top level and one level down) move to the main thread without copying. */
function transferables(result: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const visit = (value: unknown, depth: number) => {
    if (value instanceof Uint8Array) {
      if (value.buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) found.add(value.buffer);
    } else if (depth < 2 && value && typeof value === 'object') {
      for (const v of Object.values(value)) visit(v, depth + 1);
    }
  };
  visit(result, 0);
  return [...found];
}

function serialize(err: unknown): { error: SerializedEngineError; fatal: boolean } {
  if (err instanceof EngineError) {
    return { error: { code: err.code, message: err.message, ...(err.extra ? { extra: err.extra } : {}), ...(err.origin.inPath ? { inPath: true } : {}) }, fatal: false };
  }
  // A WebAssembly trap (out of memory, abort) leaves the instance unusable, and so does a stack
  // overflow inside it: MuPDF's own error stack is left mid-call. So does MuPDF's "exception stack overflow!" (its
  // fz_try nesting at the limit, unwound through the JS boundary), suspected in the hostile-files suite's only engine
  // timeout: a 20 dpi render of a 4.7 KB file that takes 18 ms alone took over 10 s in a worker that had run a run's
  // dozen of those (twice in CI, never reproduced). A fresh worker costs about 55 ms; these errors come from hostile files.
  const message = err instanceof Error ? err.message : String(err);
  const fatal = err instanceof WebAssembly.RuntimeError || (err instanceof RangeError && /memory|call stack/i.test(err.message)) || /exception stack overflow/i.test(message);
  return { error: { code: 'ENGINE_FAILURE', message }, fatal };
}

// A task may answer a promise (the DOCX export's writer does); it does its work synchronously all the same, since
// the pool sends a worker its next task only after the answer to the last.
parentPort!.on('message', async (msg: TaskMessage) => {
  try {
    const fn = Object.hasOwn(extra, msg.task) ? extra[msg.task] : await loadTask(msg.task);
    if (!fn) throw new EngineError('INTERNAL_ERROR', `Unknown engine task ${msg.task}`);
    const result: unknown = await fn(msg.input, msg.quiet ? QUIET : contextFor(msg.id));
    parentPort!.postMessage({ id: msg.id, ok: true, result, memory: wasmBytes(), loggedErrors }, transferables(result));
  } catch (err) {
    const { error, fatal } = serialize(err);
    parentPort!.postMessage({ id: msg.id, ok: false, error, fatal, memory: wasmBytes(), loggedErrors });
  }
});

// MuPDF's code compiled before the first task (engine/core/warmup.ts), not during it.
if (settings.warmUp > 0) (await import('./core/warmup.js')).warmUp(settings.warmUp);
parentPort!.postMessage({ ready: true, memory: wasmBytes() });
