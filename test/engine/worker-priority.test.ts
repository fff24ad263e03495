import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { startServer } from '../helpers/server.js';

/** Each thread of a process: its name and nice value, from /proc (field 19 of stat, after the name in parentheses). */
async function threads(pid: number): Promise<{ tid: number; name: string; nice: number }[]> {
  const out = [];
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.push({ tid: Number(tid), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), nice: Number(fields[16]) });
  }
  return out;
}

const linux = process.platform === 'linux';

test('the engine workers run below the event loop: PDFSERVICE_ENGINE_NICE steps of nice on their threads only (Linux)', { skip: !linux && 'nice values per thread are Linux only' }, async () => {
  const server = await startServer({ env: { PDFSERVICE_WORKERS: '2', PDFSERVICE_ENGINE_NICE: '7' } });
  after(() => server.stop());
  const pid = server.child.pid!;
  const all = await threads(pid);
  // Node names a worker thread's own thread "WorkerThread"; the main thread's id is the process's.
  // Steps above the process's own: a test run started with nice has its service start so too.
  const own = all.find((t) => t.tid === pid)!.nice;
  const workers = all.filter((t) => t.name === 'WorkerThread');
  assert.equal(workers.length, 2, `two engine worker threads, found ${JSON.stringify(all)}`);
  for (const w of workers) assert.equal(w.nice, Math.min(19, own + 7), `worker thread ${w.tid} runs 7 steps of nice below the main thread (${own})`);
  // Nothing else was lowered: the libuv pool, V8's helpers and the rest stay at the process's priority.
  for (const t of all.filter((t) => t.name !== 'WorkerThread')) assert.equal(t.nice, own, `${t.name} (${t.tid}) keeps nice ${own}`);
});

test('PDFSERVICE_ENGINE_NICE=0 leaves the workers at the process priority', { skip: !linux && 'nice values per thread are Linux only' }, async () => {
  const server = await startServer({ env: { PDFSERVICE_WORKERS: '1', PDFSERVICE_ENGINE_NICE: '0' } });
  after(() => server.stop());
  const all = await threads(server.child.pid!);
  const own = all.find((t) => t.tid === server.child.pid)!.nice;
  for (const t of all) assert.equal(t.nice, own, `${t.name} (${t.tid}) at nice ${own}, the process's`);
});
