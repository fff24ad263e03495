import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call } from './http.js';
import { exited } from './processes.js';
import { NODE_FLAGS } from '../../src/start/node-flags.js';
import type { TestServer } from './server.js';

/** What the tests of background jobs share: waiting on a job, `npm run worker` processes, event streams. */

export type Job = Record<string, any>;

/** Calls `probe` every `everyMs` until it answers something, at most `tries` times (30 s by default: a loaded machine is slow). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, tries = 1200, everyMs = 25): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting until ${what}`);
}

export async function jobOf(server: TestServer, id: string): Promise<Job> {
  const reply = await call(server, 'GET', `/jobs/${id}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
}

/**
 * Waits (at most `tries` polls 25 ms apart) until the job is in the middle of its work, seen through `server`
 * whichever process runs it: running, with some of its pages done and not all.
 */
export function inTheMiddle(server: TestServer, id: string, tries = 1200): Promise<Job> {
  return until(`job ${id} is in the middle of its work`, async () => {
    const job = await jobOf(server, id);
    assert.ok(['queued', 'running'].includes(job.state), `job ${id} ended before it was seen at work: ${JSON.stringify(job)}`);
    if (job.state !== 'running' || !(job.progress.done > 0)) return undefined;
    assert.ok(job.progress.done < job.progress.total, `job ${id} has done all its pages already: ${JSON.stringify(job)}`);
    return job;
  }, tries);
}

export const WORKER = fileURLToPath(new URL('../../src/worker.js', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  output: string[];
}

/**
 * `npm run worker` (dist/src/worker.js) with `env` and its own data folder; resolves once it says it runs jobs.
 * `worker`: another build's dist/src/worker.js (the bench's --compare), started like ours. No engine warm-up, as
 * startServer (helpers/server.ts says why).
 */
export async function startWorker(env: Record<string, string>, dataDir: string, worker = WORKER, nodeFlags: readonly string[] = NODE_FLAGS): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...nodeFlags, worker], { env: { ...process.env, PDFSERVICE_DATA_DIR: dataDir, PDFSERVICE_LOG_LEVEL: 'info', PDFSERVICE_ENGINE_WARMUP: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not start within 60 s:\n${output.join('')}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      if (output.join('').includes('pdfservice worker running jobs')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output.join('')}`));
    });
  });
  return { child, output };
}

/** Sends `signal` and waits for the exit. */
export async function killProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await gone;
}

export interface JobEventSeen {
  seq: number;
  type: string;
  job: Record<string, any>;
}

/** GET /jobs/{id}/events through `server` until the stream ends (after the job's `end` event). */
export async function followEvents(server: Pick<TestServer, 'api' | 'adminAuth'>, id: string, headers: Record<string, string> = {}): Promise<JobEventSeen[]> {
  const stream = await fetch(`${server.api}/jobs/${id}/events`, { headers: { authorization: server.adminAuth, ...headers } });
  assert.equal(stream.status, 200);
  const text = await stream.text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => ({
      seq: Number(/^id: (\d+)$/m.exec(block)?.[1]),
      type: /^event: (\w+)$/m.exec(block)?.[1] ?? '',
      job: JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Record<string, any>,
    }));
}
