import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EnginePool } from '../../src/engine/pool.js';
import { ServiceError } from '../../src/errors.js';
import { makePdf } from '../helpers/pdf.js';
import { busyWait, failWith, TEST_TASKS } from '../helpers/test-tasks.js';

test('a task that answered in time is not a timeout when the event loop was held past its timer (the reply waits to be read)', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    const task = busyWait(pool, { ms: 20 }, { timeoutMs: 300 });
    assert.equal(pool.stats.busy, 1);
    // The main thread held for longer than the timeout, from the check phase as a request's work would be: the timer
    // and the worker's reply are both due when it ends, and the loop runs timers before it reads messages.
    await new Promise<void>((resolve) => setImmediate(() => {
      const until = Date.now() + 800;
      while (Date.now() < until) { /* holding the event loop */ }
      resolve();
    }));
    assert.ok((await task).waited >= 20);
    assert.equal(pool.counters.timedOut, 0);
  } finally {
    await pool.close();
  }
});

test('a task past its timeout is stopped with ENGINE_TIMEOUT and its worker replaced; the pool keeps working', async () => {
  const told: { task: string; workerBusy: number | null }[] = [];
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10, onTimeout: (info) => told.push(info) });
  await pool.ready();
  try {
    const started = Date.now();
    await assert.rejects(busyWait(pool, { ms: 30_000 }, { timeoutMs: 300 }), (err: unknown) => err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT' && err.status === 504);
    assert.ok(Date.now() - started < 5_000, 'the stuck task did not hold the caller');
    assert.equal(pool.counters.timedOut, 1);
    // The timeout is reported with how much of the wait its worker ran: a busy loop ran all of it.
    assert.equal(told.length, 1);
    assert.equal(told[0]!.task, 'busyWait');
    assert.ok(told[0]!.workerBusy !== null && told[0]!.workerBusy > 0.5, `worker busy ${told[0]!.workerBusy}`);
    const info = await pool.run('inspect', { pdf: makePdf({ pages: 3 }) });
    assert.equal(info.pageCount, 3, 'a fresh worker answers after the timeout');
  } finally {
    await pool.close();
  }
});

test('a worker whose task ended in MuPDF\'s "exception stack overflow!" is replaced; one whose task failed otherwise is kept', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    await assert.rejects(failWith(pool, 'cannot find page 2 in page tree'), (err: unknown) => err instanceof ServiceError && err.code === 'PROCESSING_FAILED');
    assert.equal(pool.counters.recycled, 0);
    await assert.rejects(failWith(pool, 'exception stack overflow!'), (err: unknown) => err instanceof ServiceError && err.code === 'PROCESSING_FAILED');
    assert.equal(pool.counters.recycled, 1);
    const info = await pool.run('inspect', { pdf: makePdf({ pages: 2 }) });
    assert.equal(info.pageCount, 2, 'the fresh worker answers');
  } finally {
    await pool.close();
  }
});

test('workers whose WASM memory passes the threshold are recycled after their task, and results are still delivered', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 1, queueLimit: 10 });
  await pool.ready();
  try {
    const results = await Promise.all([1, 2, 3].map((pages) => pool.run('inspect', { pdf: makePdf({ pages }) })));
    assert.deepEqual(results.map((r) => r.pageCount), [1, 2, 3]);
    assert.equal(pool.counters.recycled, 3);
  } finally {
    await pool.close();
  }
});

test('a full queue answers SERVICE_BUSY (503) with Retry-After instead of queuing without bound', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 2 });
  await pool.ready();
  try {
    const running = [busyWait(pool, { ms: 300 }), busyWait(pool, { ms: 10 }), busyWait(pool, { ms: 10 })];
    await assert.rejects(busyWait(pool, { ms: 10 }), (err: unknown) => err instanceof ServiceError && err.code === 'SERVICE_BUSY' && err.headers?.['Retry-After'] === '5');
    await Promise.all(running);
  } finally {
    await pool.close();
  }
});

test('engine errors arrive as service errors: garbage is MALFORMED_PDF, a wrong password DOCUMENT_PASSWORD_INVALID', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 2, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    await assert.rejects(pool.run('validateUpload', { pdf: Buffer.from('not a pdf at all') }), (e: unknown) => e instanceof ServiceError && e.code === 'MALFORMED_PDF');
    await assert.rejects(pool.run('inspect', { pdf: Buffer.from('%PDF-1.4\n garbage') }), (e: unknown) => e instanceof ServiceError && e.status === 422);
  } finally {
    await pool.close();
  }
});

test('the main thread never loads MuPDF: only the worker code (worker, task table, feature folders) imports it', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('../../src/', import.meta.url));
  // The feature folders' modules that the main thread loads too (no MuPDF): ENGINE_SHARED in eslint.config.js.
  const shared = (rel: string) =>
    /^engine\/[\w-]+\/model\.js$/.test(rel) || rel.startsWith('engine/syntax/') || ['engine/core/pdf-source.js', 'engine/office/compound-file.js', 'engine/xfdf/fdf.js', 'engine/xfdf/field-data.js', 'engine/xfdf/parse.js', 'engine/pages/range.js'].includes(rel);
  const workerCode = (rel: string) => rel === 'engine/worker.js' || rel === 'engine/tasks.js' || (/^engine\/[\w-]+\//.test(rel) && !shared(rel));
  // Compiled output keeps only value imports, so every import left in it is a real load.
  const imports = new Map<string, string[]>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('.js')) {
        const rel = path.relative(root, full).split(path.sep).join('/');
        const code = await readFile(full, 'utf8');
        const specs = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
        imports.set(rel, specs.map((spec) => (spec.startsWith('.') ? path.posix.join(path.posix.dirname(rel), spec) : spec)));
      }
    }
  };
  await walk(root);
  assert.ok(imports.has('engine/tasks.js') && imports.has('engine/core/open.js'), 'the compiled engine is where the test expects it');
  const mainThread = [...imports.keys()].filter((rel) => !workerCode(rel));
  // Directly: no main-thread module imports mupdf or a worker module.
  const direct = mainThread.filter((rel) => imports.get(rel)!.some((target) => target === 'mupdf' || workerCode(target)));
  assert.deepEqual(direct, []);
  // Transitively: nothing a main-thread module loads reaches mupdf (a shared module must not lean on worker code).
  const reachesMupdf = (start: string): boolean => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) {
      const rel = stack.pop()!;
      if (rel === 'mupdf') return true;
      if (seen.has(rel)) continue;
      seen.add(rel);
      stack.push(...(imports.get(rel) ?? []));
    }
    return false;
  };
  assert.deepEqual(mainThread.filter(reachesMupdf), []);
});

test('a worker that has failed many tasks is replaced before MuPDF error state can build up', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 200 });
  await pool.ready();
  try {
    // 1,200 broken documents through one worker: more errors than one MuPDF instance survives (about 1,000).
    const garbage = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF');
    for (let batch = 0; batch < 12; batch++) {
      const results = await Promise.allSettled(Array.from({ length: 100 }, () => pool.run('validateUpload', { pdf: garbage })));
      for (const r of results) {
        assert.equal(r.status, 'rejected');
        assert.ok((r as PromiseRejectedResult).reason instanceof ServiceError && (r as PromiseRejectedResult).reason.status === 422, String((r as PromiseRejectedResult).reason));
      }
    }
    assert.ok(pool.counters.recycled >= 20, `recycled ${pool.counters.recycled} times`);
    assert.equal(pool.counters.crashed, 0);
    const info = await pool.run('inspect', { pdf: makePdf({ pages: 2 }) });
    assert.equal(info.pageCount, 2, 'the pool still answers correctly');
  } finally {
    await pool.close();
  }
});

test('a task aborted while it waits in the queue leaves the queue with TASK_CANCELLED; the running task is untouched', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    const running = busyWait(pool, { ms: 500 });
    const controller = new AbortController();
    const queued = busyWait(pool, { ms: 10 }, { signal: controller.signal });
    assert.equal(pool.stats.queued, 1);
    controller.abort();
    await assert.rejects(queued, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED' && err.status === 409);
    assert.equal(pool.stats.queued, 0, 'the aborted task left the queue');
    assert.deepEqual(await running, { waited: 500 });
    assert.equal(pool.counters.cancelled, 1);
    assert.equal(pool.counters.cancelRestarts, 0, 'no worker was replaced for a task that never started');
    assert.equal(pool.counters.completed, 1);
    // A signal aborted already refuses the task at once.
    await assert.rejects(busyWait(pool, { ms: 10 }, { signal: controller.signal }), (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
  } finally {
    await pool.close();
  }
});

test('a task aborted while it runs is stopped by replacing its worker, like a timeout; the next task succeeds', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    const controller = new AbortController();
    const started = Date.now();
    const stuck = busyWait(pool, { ms: 30_000 }, { signal: controller.signal });
    const next = pool.run('inspect', { pdf: makePdf({ pages: 4 }) });
    assert.equal(pool.stats.busy, 1);
    controller.abort();
    await assert.rejects(stuck, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
    assert.ok(Date.now() - started < 5_000, 'the stopped task did not hold the caller');
    assert.equal((await next).pageCount, 4, 'the queued task ran on the fresh worker');
    assert.deepEqual(
      { workers: pool.stats.workers, busy: pool.stats.busy, queued: pool.stats.queued, cancelled: pool.counters.cancelled, cancelRestarts: pool.counters.cancelRestarts, timedOut: pool.counters.timedOut, crashed: pool.counters.crashed, completed: pool.counters.completed },
      { workers: 1, busy: 0, queued: 0, cancelled: 1, cancelRestarts: 1, timedOut: 0, crashed: 0, completed: 1 },
    );
    // Aborting after the answer changes nothing.
    const done = new AbortController();
    assert.equal((await pool.run('inspect', { pdf: makePdf({ pages: 2 }) }, { signal: done.signal })).pageCount, 2);
    done.abort();
    assert.equal(pool.counters.cancelled, 1);
  } finally {
    await pool.close();
  }
});

/** Progress reports as a task sends them: the first and last page always, in between increasing, all of the same total and stage. */
function assertProgress(reports: { done: number; total?: number; stage?: string }[], total: number, stage: string): void {
  assert.ok(reports.length >= 2 && reports.length <= total, `${reports.length} reports`);
  assert.deepEqual(reports[0], { done: 1, total, stage });
  assert.deepEqual(reports.at(-1), { done: total, total, stage }, 'the last page is always reported');
  for (let i = 1; i < reports.length; i++) assert.ok(reports[i]!.done > reports[i - 1]!.done, 'in order');
  assert.ok(reports.every((r) => r.total === total && r.stage === stage));
}

test('multi-page tasks report their progress to the caller, page by page, in order (text extraction, redaction search)', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    const pages = 40;
    const pdf = () => makePdf({ pages, text: (n) => `page ${n} secret` });
    const text: { done: number; total?: number; stage?: string }[] = [];
    const result = await pool.run('documentText', { pdf: pdf() }, { onProgress: (p) => text.push(p) });
    assert.equal(result.texts.length, pages);
    assertProgress(text, pages, 'text');
    const search: { done: number; total?: number; stage?: string }[] = [];
    const marked = await pool.run('createRedactions', { pdf: pdf(), request: { searchText: 'secret' } }, { onProgress: (p) => search.push(p) });
    assert.equal(marked.redactions.length, pages);
    assertProgress(search, pages, 'search');
  } finally {
    await pool.close();
  }
});

test('background tasks leave one worker for inline ones: an inline task starts at once while jobs wait', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 2, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  try {
    await pool.ready();
    const order: string[] = [];
    const track = (name: string, p: Promise<unknown>) => p.then(() => order.push(name));
    const jobs = [track('job 1', busyWait(pool, { ms: 600 }, { background: true })), track('job 2', busyWait(pool, { ms: 600 }, { background: true }))];
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(pool.stats.busy, 1, 'the second background task waits although a worker is free');
    const started = Date.now();
    await track('inline', busyWait(pool, { ms: 50 }));
    assert.ok(Date.now() - started < 500, 'the inline task did not wait for a job');
    await Promise.all(jobs);
    assert.deepEqual(order, ['inline', 'job 1', 'job 2']);
  } finally {
    await pool.close();
  }
});

test('a task whose input cannot be sent to a worker fails at once with INTERNAL_ERROR; the worker is not held and takes the next task', async () => {
  const errors: string[] = [];
  const pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10, onInternalError: (message) => errors.push(message) });
  await pool.ready();
  try {
    const started = Date.now();
    // A function cannot be structured-cloned: postMessage throws DataCloneError.
    const unsendable = { pdf: (() => 1) as unknown as Uint8Array };
    const next = pool.run('inspect', { pdf: makePdf({ pages: 2 }) });
    await assert.rejects(pool.run('inspect', unsendable), (err: unknown) => err instanceof ServiceError && err.code === 'INTERNAL_ERROR');
    assert.ok(Date.now() - started < 5_000, 'not after the 60 s task timeout');
    assert.match(errors.join('\n'), /could not be sent to an engine worker/);
    assert.equal((await next).pageCount, 2);
    assert.equal((await pool.run('inspect', { pdf: makePdf({ pages: 4 }) })).pageCount, 4, 'the worker still answers');
  } finally {
    await pool.close();
  }
});

test('the pool accounts each worker\'s busy time and tasks, and the time its workers ran at once', async () => {
  const pool = new EnginePool({ ...TEST_TASKS, size: 2, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
  try {
    const started = performance.now();
    await Promise.all([1, 2, 3, 4].map(() => busyWait(pool, { ms: 200 })));
    const elapsed = performance.now() - started;
    const { workerBusyMs, workerTasks, concurrentMs } = pool.stats;
    assert.equal(workerTasks.length, 2);
    assert.equal(workerTasks[0]! + workerTasks[1]!, 4);
    assert.ok(workerTasks.every((n) => n >= 1), `both workers took tasks: ${workerTasks.join(', ')}`);
    // Each task spins 200 ms by Date.now() (199 ms and a bit at least), so the busy time has a lower bound whatever the
    // machine's load; the bounds below leave room for the clock's millisecond steps.
    assert.ok(workerBusyMs[0]! + workerBusyMs[1]! >= 4 * 190, `busy ${workerBusyMs.join(', ')}`);
    // The first two tasks were queued together and started together: both workers had a task for that long at least.
    assert.ok(concurrentMs[2]! >= 190, `both busy for ${concurrentMs[2]} ms`);
    // The time by number of workers busy adds up to the workers' busy time, and to the pool's life.
    const weighted = concurrentMs.reduce((sum, ms, n) => sum + n * ms, 0);
    assert.ok(Math.abs(weighted - (workerBusyMs[0]! + workerBusyMs[1]!)) < 1, `${weighted} against ${workerBusyMs.join(' + ')}`);
    assert.ok(concurrentMs.reduce((a, b) => a + b, 0) >= elapsed);
  } finally {
    await pool.close();
  }
});

test("every feature folder's entry in the task registry names exactly the tasks of its map (a worker loads a folder by these names)", async () => {
  const { taskFeatures } = await import('../../src/engine/tasks.js');
  assert.ok(Object.keys(taskFeatures).length >= 29, 'every folder has its entry');
  for (const [folder, feature] of Object.entries(taskFeatures)) {
    const map = await feature.load();
    assert.deepEqual([...feature.names].sort(), Object.keys(map).sort(), `${folder}: the names in src/engine/tasks.ts are its map's`);
  }
});
