/**
 * Background jobs across processes (issue 24): a real Redis, a real S3 store (Swift), two service instances that
 * only queue jobs (PDFSERVICE_RUN_JOBS=false) and one `npm run worker` process that runs them. A job submitted on
 * instance A is followed on instance B and completes on the worker; a cancel sent to B stops it on the worker; a
 * SIGKILL of the worker mid-job leaves the job interrupted and the document whole; SIGKILL of an instance leaves the
 * jobs on its own queue (running and queued) interrupted; Redis down is 503 on job routes.
 * Long jobs redact every page of a document of thousands of pages (as jobs-lifecycle.test.ts), and the tests act
 * once the job has reported some pages, never after a fixed time.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectRedis } from '../../src/redis.js';
import { call, jobEnded, putPdf, sha256 } from '../helpers/http.js';
import { redactablePdf } from '../helpers/pdf.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { followEvents, inTheMiddle, jobOf, killProcess as kill, startWorker, until, WORKER, type Job, type WorkerProcess } from '../helpers/jobs.js';
import { clusterEnv } from '../helpers/cluster-env.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

const REDACT = { ApplyRedactionsAction: {} };
/** Pages whose redaction runs several seconds on the worker: long enough to act on while it runs. */
const LONG_PAGES = 6000;
const SHORT_PAGES = 200;
/**
 * Pages of the job whose write is stalled: it must still be at work when the test stops S3 (progress comes every
 * 100 ms, and these pages take seconds), but every page runs before the write, so more pages only cost time (the 6,000
 * took 45 s of this file's 123 s on the idle CI machine).
 */
const WRITING_PAGES = 1500;



/** AES-256 by qpdf: `owner` may change the document. */
async function encrypt(bytes: Buffer, user: string, owner: string): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-cluster-pw-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', ['--encrypt', user, owner, '256', '--', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
    return await readFile(path.join(dir, 'out.pdf'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}




async function submit(server: TestServer, document: string): Promise<Job> {
  const reply = await call(server, 'POST', `/documents/${document}`, { headers: { prefer: 'respond-async' }, body: REDACT });
  assert.equal(reply.status, 202, reply.text);
  return reply.json();
}

async function served(server: TestServer, document: string): Promise<{ sha: string; etag: string | null }> {
  const reply = await call(server, 'GET', `/documents/${document}`, { headers: { accept: 'application/pdf' } });
  assert.equal(reply.status, 200, reply.text);
  return { sha: sha256(reply.bytes), etag: reply.headers.get('etag') };
}

async function upload(server: TestServer, document: string, bytes: Buffer): Promise<void> {
  const made = await call(server, 'PUT', `/documents/${document.slice(0, document.lastIndexOf('/'))}`);
  assert.ok([200, 201].includes(made.status), made.text);
  const put = await putPdf(server, document, bytes);
  assert.equal(put.status, 201, put.text);
}





describe('jobs across two instances and a worker (Redis, S3)', () => {
  let redis: RedisServer;
  let s3: S3Server;
  let a: TestServer;
  let b: TestServer;
  let worker: WorkerProcess;
  let workerDir: string;
  let env: Record<string, string>;

  before(async () => {
    redis = await startRedisServer();
    s3 = await startS3Server();
    // The same secrets key everywhere, so document passwords go on the shared queue sealed.
    // Heartbeats of 6 s instead of 10: the three SIGKILL tests wait for a killed process's heartbeat to lapse (about
    // 11 s each with 10 s, about 6.5 s with 6). Renewed every 2 s, a live one lapses only after 4 s without one: a
    // shorter lifetime would let a pause of a loaded machine end a live job interrupted.
    env = {
      ...clusterEnv(redis, s3, { redisPrefix: 'cluster:', s3Prefix: 'docs/', s3TimeoutMs: 10_000 }),
      PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0',
      PDFSERVICE_JOB_HEARTBEAT_MS: '6000',
    };
    // The instances only queue jobs: whatever runs one is the worker.
    a = await startServer({ env: { ...env, PDFSERVICE_RUN_JOBS: 'false', PDFSERVICE_WORKERS: '1' } });
    b = await startServer({ env: { ...env, PDFSERVICE_RUN_JOBS: 'false', PDFSERVICE_WORKERS: '1' } });
    workerDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-worker-'));
    worker = await startWorker({ ...env, PDFSERVICE_WORKERS: '2' }, workerDir);
  });

  after(async () => {
    if (worker) await kill(worker.child, 'SIGKILL');
    await a?.stop();
    await b?.stop();
    // After a start that failed part-way too: the servers that did start are stopped, or their handles keep this file running.
    if (workerDir) await rm(workerDir, { recursive: true, force: true });
    await s3?.dispose();
    await redis?.dispose();
  });

  /** A long redaction of a new document submitted through A, once B sees it in the middle of its pages; the document as it was before. */
  async function longJobInTheMiddle(document: string, pages = LONG_PAGES): Promise<{ before: { sha: string; etag: string | null }; job: Job }> {
    await upload(a, document, redactablePdf(pages));
    const before = await served(a, document);
    const job = await submit(a, document);
    await inTheMiddle(b, job.id);
    return { before, job };
  }

  test('a job submitted on A is followed through B and completes on the worker', async () => {
    const document = 'cluster/short.pdf';
    await upload(a, document, redactablePdf(SHORT_PAGES));
    const before = await served(b, document);
    const job = await submit(a, document);
    assert.equal(job.state, 'queued');
    const events = await followEvents(b, job.id);
    assert.ok(events.length >= 2, JSON.stringify(events.map((e) => e.type)));
    assert.equal(events.at(-1)!.type, 'end');
    assert.equal(events.at(-1)!.job.state, 'succeeded', JSON.stringify(events.at(-1)!.job));
    assert.ok(events.some((e) => e.type === 'state' && e.job.state === 'running'), 'the running state reached B');
    for (let i = 1; i < events.length; i++) assert.ok(events[i]!.seq > events[i - 1]!.seq, 'ids rise');
    // Both instances read the one record; the document changed where both read it.
    assert.equal((await jobOf(a, job.id)).state, 'succeeded');
    assert.equal((await jobOf(b, job.id)).state, 'succeeded');
    const afterJob = await served(a, document);
    assert.notEqual(afterJob.sha, before.sha);
    assert.notEqual(afterJob.etag, before.etag);
    // Listed on either instance.
    const listed = (await call(b, 'GET', '/jobs')).json() as Job[] | { jobs: Job[] };
    const ids = (Array.isArray(listed) ? listed : listed.jobs).map((j) => j.id);
    assert.ok(ids.includes(job.id));
    // A client that resumes after the last event it saw gets nothing more; one resuming earlier gets the end again.
    const resumed = await fetch(`${b.api}/jobs/${job.id}/events`, { headers: { authorization: b.adminAuth, 'last-event-id': String(events.at(-2)!.seq) } });
    assert.match(await resumed.text(), new RegExp(`^id: ${events.at(-1)!.seq}\\nevent: end\\n`, 'm'));
  });

  test('a cancel sent to B stops the job running on the worker; the document is unchanged', async () => {
    const document = 'cluster/cancel.pdf';
    const { before, job } = await longJobInTheMiddle(document);
    const reply = await call(b, 'DELETE', `/jobs/${job.id}`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().state, 'cancelled');
    assert.equal(reply.json().error.code, 'TASK_CANCELLED');
    assert.equal((await jobOf(a, job.id)).state, 'cancelled');
    assert.deepEqual(await served(b, document), before);
  });

  test('a job still queued is cancelled on B at once and never runs', async () => {
    const document = 'cluster/queued.pdf';
    await upload(a, document, redactablePdf(SHORT_PAGES));
    const before = await served(a, document);
    // Two long jobs of one user take the worker's two job slots (a user alone gets every slot); the third waits on the queue.
    const long = 'cluster/filler.pdf';
    await upload(a, long, redactablePdf(LONG_PAGES));
    const fillers = [await submit(a, long), await submit(a, long)];
    const queued = await submit(a, document);
    assert.equal((await jobOf(b, queued.id)).state, 'queued');
    const reply = await call(b, 'DELETE', `/jobs/${queued.id}`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json().state, 'cancelled');
    for (const filler of fillers) await call(a, 'DELETE', `/jobs/${filler.id}`);
    for (const filler of fillers) assert.ok(['cancelled', 'failed', 'succeeded'].includes((await jobEnded(a, filler.id)).state));
    assert.equal((await jobOf(a, queued.id)).state, 'cancelled');
    assert.deepEqual(await served(a, document), before);
  });

  test('a document password reaches the worker sealed (never in Redis as it is), and the job opens the document with it', async () => {
    const document = 'cluster/locked.pdf';
    const password = `owner-${randomBytes(6).toString('hex')}`;
    await upload(a, document, await encrypt(redactablePdf(SHORT_PAGES), 'user-pw', password));
    const before = await served(a, document);
    // Two long jobs fill the worker, so the job waits on the queue where its entry can be read.
    const long = 'cluster/pw-filler.pdf';
    await upload(a, long, redactablePdf(LONG_PAGES));
    const fillers = [await submit(a, long), await submit(a, long)];
    const reply = await call(a, 'POST', `/documents/${document}`, { headers: { prefer: 'respond-async', 'x-service-documentpassword': password }, body: REDACT });
    assert.equal(reply.status, 202, reply.text);
    const job = reply.json() as Job;
    const connection = await connectRedis({ url: redis.url, prefix: 'cluster:', timeoutMs: 2000 });
    try {
      const entry = await connection.client.hget(`cluster:bull:jobs:j${job.id}`, 'data');
      assert.ok(entry !== null, 'the job is on the shared queue');
      const data = JSON.parse(entry) as { id: string; password?: string };
      assert.equal(data.id, job.id);
      assert.ok(data.password && !data.password.includes(password), 'sealed');
      // No key holds the password as it is.
      for (const key of await connection.client.keys('*')) {
        const type = await connection.client.type(key);
        const dump = type === 'string' ? await connection.client.get(key) : type === 'hash' ? JSON.stringify(await connection.client.hgetall(key)) : type === 'list' ? JSON.stringify(await connection.client.lrange(key, 0, -1)) : '';
        assert.ok(!dump?.includes(password), `${key} holds the password`);
      }
    } finally {
      await connection.close();
    }
    for (const filler of fillers) await call(a, 'DELETE', `/jobs/${filler.id}`);
    const ended = await jobEnded(b, job.id);
    assert.equal(ended.state, 'succeeded', JSON.stringify(ended));
    assert.notEqual((await served(b, document)).sha, before.sha);
  });

  test('fair share on the shared queue: alice fills it (503), bob is still admitted, her newest waiting job making room, and his job is taken before her backlog', async () => {
    const long = 'cluster/fair.pdf';
    await upload(a, long, redactablePdf(LONG_PAGES));
    for (const [username, password] of [['alice', 'alice-password-1'], ['bob', 'bob-password-123']]) {
      assert.equal((await call(a, 'POST', '/users', { body: { username, password, rights: ['GET', 'POST'] } })).status, 201);
    }
    const alice = basicAuth('alice', 'alice-password-1');
    const bob = basicAuth('bob', 'bob-password-123');
    const c = await startServer({ env: { ...env, PDFSERVICE_RUN_JOBS: 'false', PDFSERVICE_WORKERS: '1', PDFSERVICE_JOB_QUEUE_LIMIT: '4' } });
    const send = (auth: string) => call(c, 'POST', `/documents/${long}`, { auth, headers: { prefer: 'respond-async' }, body: REDACT });
    const jobs: Job[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const reply = await send(alice);
        assert.equal(reply.status, 202, reply.text);
        jobs.push(reply.json());
      }
      // The worker runs two (its two slots: alice is alone); two wait on the shared queue.
      await until('two of alice\'s jobs run', async () => {
        const states = await Promise.all(jobs.map(async (job) => (await jobOf(c, job.id)).state));
        return states.filter((state) => state === 'running').length === 2 ? true : undefined;
      });
      const refused = await send(alice);
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.json().code, 'SERVICE_BUSY');

      const admitted = await send(bob);
      assert.equal(admitted.status, 202, admitted.text);
      const bobs: Job = admitted.json();
      jobs.push(bobs);
      const pushed = await jobOf(c, jobs[3]!.id);
      assert.equal(pushed.state, 'failed', JSON.stringify(pushed));
      assert.equal(pushed.error.code, 'SERVICE_BUSY');
      assert.equal((await jobOf(c, jobs[2]!.id)).state, 'queued');

      // A slot frees: the worker takes bob's job (priority 1) before alice's older waiting one (priority 3).
      assert.equal((await call(c, 'DELETE', `/jobs/${jobs[0]!.id}`)).status, 200);
      await until("bob's job runs", async () => ((await jobOf(c, bobs.id)).state === 'running' ? true : undefined));
      assert.equal((await jobOf(c, jobs[2]!.id)).state, 'queued', "alice's backlog waits while bob's job runs");
    } finally {
      for (const job of jobs) await call(c, 'DELETE', `/jobs/${job.id}`);
      for (const job of jobs) assert.ok(['cancelled', 'failed', 'succeeded'].includes((await jobEnded(c, job.id)).state));
      await c.stop();
    }
  });

  test('the queue limit counts the shared queue: an instance with room of its own still answers 503 SERVICE_BUSY', async () => {
    const long = 'cluster/busy.pdf';
    await upload(a, long, redactablePdf(LONG_PAGES));
    const c = await startServer({ env: { ...env, PDFSERVICE_RUN_JOBS: 'false', PDFSERVICE_WORKERS: '1', PDFSERVICE_JOB_QUEUE_LIMIT: '3' } });
    try {
      // Two jobs through the other instances, the third (the limit) through C itself: accepted.
      const fillers = [await submit(a, long), await submit(b, long)];
      fillers.push(await submit(c, long));
      const refused = await call(c, 'POST', `/documents/${long}`, { headers: { prefer: 'respond-async' }, body: REDACT });
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.json().code, 'SERVICE_BUSY');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      for (const filler of fillers) await call(a, 'DELETE', `/jobs/${filler.id}`);
      for (const filler of fillers) assert.ok(['cancelled', 'succeeded'].includes((await jobEnded(a, filler.id)).state));
      // Room again: C queues, the worker runs it.
      const short = 'cluster/busy-short.pdf';
      await upload(a, short, redactablePdf(SHORT_PAGES));
      // A job leaves BullMQ's count just after its end event: C may say busy for a moment still.
      const next = await until('C accepts a job again', async () => {
        const reply = await call(c, 'POST', `/documents/${short}`, { headers: { prefer: 'respond-async' }, body: REDACT });
        if (reply.status === 503) return undefined;
        assert.equal(reply.status, 202, reply.text);
        return reply.json() as Job;
      });
      assert.equal((await jobEnded(b, next.id)).state, 'succeeded');
    } finally {
      await c.stop();
    }
  });

  test('a worker without PDFSERVICE_REDIS_URL refuses to start, in one line', async () => {
    const { PDFSERVICE_REDIS_URL: _url, ...noRedis } = env;
    const child = spawn(process.execPath, [WORKER], { env: { ...process.env, ...noRedis, PDFSERVICE_DATA_DIR: workerDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /^pdfservice worker: PDFSERVICE_REDIS_URL is not set/);
    assert.equal(stderr.trim().split('\n').length, 1);
  });

  test('SIGKILL of an instance holding jobs on its own queue: its running and its queued job end interrupted, seen on A', async () => {
    // Without PDFSERVICE_SECRETS_KEY, C cannot seal a document password: such jobs stay on C's own queue, one at a time.
    const { PDFSERVICE_SECRETS_KEY: _key, ...unsealed } = env;
    // Two engine threads: the running job takes one (a job leaves one for requests), so the second submit's password
    // check does not wait for the first job to end (with one thread it did, and C was killed as that job was writing).
    const c = await startServer({ env: { ...unsealed, PDFSERVICE_RUN_JOBS: 'false', PDFSERVICE_WORKERS: '2', PDFSERVICE_JOB_CONCURRENCY: '1' } });
    try {
      const document = 'cluster/held.pdf';
      const password = `owner-${randomBytes(6).toString('hex')}`;
      await upload(a, document, await encrypt(redactablePdf(LONG_PAGES), 'user-pw', password));
      const before = await served(a, document);
      const submitLocal = async () => {
        const reply = await call(c, 'POST', `/documents/${document}`, { headers: { prefer: 'respond-async', 'x-service-documentpassword': password }, body: REDACT });
        assert.equal(reply.status, 202, reply.text);
        return reply.json() as Job;
      };
      const running = await submitLocal();
      const queued = await submitLocal();
      // Killed while A sees the first job in the middle of its pages, long before it writes anything.
      const seen = await inTheMiddle(a, running.id);
      assert.equal(seen.state, 'running', JSON.stringify(seen));
      assert.equal((await jobOf(a, queued.id)).state, 'queued');
      // A's events stream of the queued job, open before the kill: its end must come through A.
      const streamed = followEvents(a, queued.id);
      await kill(c.child, 'SIGKILL');
      const endedRunning = await jobEnded(a, running.id, { seconds: 90 });
      assert.equal(endedRunning.state, 'interrupted', JSON.stringify(endedRunning));
      assert.match(endedRunning.reason, /stopped while the job ran; the document is unchanged/);
      const endedQueued = await jobEnded(a, queued.id, { seconds: 90 });
      assert.equal(endedQueued.state, 'interrupted', JSON.stringify(endedQueued));
      assert.match(endedQueued.reason, /held the job on its own queue stopped before the job ran/);
      assert.equal(endedQueued.started, undefined, 'never ran');
      const events = await streamed;
      assert.equal(events.at(-1)!.type, 'end');
      assert.equal(events.at(-1)!.job.state, 'interrupted');
      assert.equal((await followEvents(b, running.id)).at(-1)!.job.state, 'interrupted');
      // Marked once: A and B agree, and the document is whole.
      assert.equal((await jobOf(b, queued.id)).finished, endedQueued.finished);
      assert.deepEqual(await served(b, document), before);
    } finally {
      await c.stop();
    }
  });

  test('SIGKILL of the worker mid-job: the job ends interrupted, the document whole; a new worker runs the next job', async () => {
    const document = 'cluster/killed.pdf';
    const { before, job } = await longJobInTheMiddle(document);
    await kill(worker.child, 'SIGKILL');
    // The instances see its heartbeat lapse.
    const ended = await jobEnded(a, job.id, { seconds: 90 });
    assert.equal(ended.state, 'interrupted', JSON.stringify(ended));
    assert.match(ended.reason, /stopped while the job ran; the document is unchanged/);
    const events = await followEvents(b, job.id);
    assert.equal(events.at(-1)!.job.state, 'interrupted');
    assert.deepEqual(await served(b, document), before);

    worker = await startWorker({ ...env, PDFSERVICE_WORKERS: '2' }, workerDir);
    const short = 'cluster/after.pdf';
    await upload(a, short, redactablePdf(SHORT_PAGES));
    const next = await submit(b, short);
    assert.equal((await jobEnded(a, next.id)).state, 'succeeded');
  });

  test('SIGKILL of the worker while it writes the result: the job ends interrupted naming the ETag it was writing; the document is one of the two versions', async () => {
    const document = 'cluster/writing.pdf';
    const { before, job } = await longJobInTheMiddle(document, WRITING_PAGES);
    // S3 stops answering once the document has been read: the job's write waits there, after it recorded what it writes.
    const swift = Object.values(s3.pids()).filter((pid): pid is number => pid !== undefined);
    for (const pid of swift) process.kill(pid, 'SIGSTOP');
    let writing: string;
    const connection = await connectRedis({ url: redis.url, prefix: 'cluster:', timeoutMs: 2000 });
    try {
      writing = await until(`job ${job.id} records the version it writes`, async () => {
        const record = JSON.parse((await connection.client.get(`cluster:job:${job.id}`))!) as { state: string; payload: { writing?: string } };
        assert.equal(record.state, 'running');
        return record.payload.writing;
        // Bounded by the job, not by a time: the probe fails as soon as the job is no longer running. The redaction
        // of 6,000 pages before the write took over 100 s on a loaded 2-core machine (a fixed 4,000 tries failed).
      }, 24_000);
      await kill(worker.child, 'SIGKILL');
    } finally {
      for (const pid of swift) process.kill(pid, 'SIGCONT');
      await connection.close();
    }
    assert.match(writing, /^"[0-9a-f]{32}"$/);
    assert.notEqual(writing, before.etag);
    const ended = await jobEnded(a, job.id, { seconds: 90 });
    assert.equal(ended.state, 'interrupted', JSON.stringify(ended));
    assert.equal(ended.reason, `The process that ran the job stopped while the job was writing its result: the document holds the result if its ETag is ${writing}, else it is unchanged. Check it before submitting again.`);
    // Whichever: the reason lets the client tell, and the document is whole.
    const after = await served(b, document);
    assert.ok(after.etag === before.etag || after.etag === writing, `${after.etag} is neither ${before.etag} nor ${writing}`);
    if (after.etag === before.etag) assert.equal(after.sha, before.sha);
    worker = await startWorker({ ...env, PDFSERVICE_WORKERS: '2' }, workerDir);
  });

  test('Redis down: job routes answer 503 REDIS_UNAVAILABLE', async () => {
    const job = (await call(a, 'GET', '/jobs')).status;
    assert.equal(job, 200);
    await redis.stop();
    for (const [method, route] of [
      ['GET', '/jobs'],
      ['GET', `/jobs/${'0'.repeat(32)}`],
    ] as const) {
      const reply = await call(b, method, route);
      assert.equal(reply.status, 503, `${method} ${route}: ${reply.text}`);
      assert.equal(reply.json().code, 'REDIS_UNAVAILABLE');
    }
  });
});
