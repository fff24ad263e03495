import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Principal } from '../../src/auth/types.js';
import type { EnginePool } from '../../src/engine/pool.js';
import { ServiceError } from '../../src/errors.js';
import type { Operations } from '../../src/operations/index.js';
import { JobOperations } from '../../src/operations/jobs/jobs.js';
import { MemoryJobStore } from '../../src/operations/jobs/memory-store.js';
import { documentPathFromBody } from '../../src/storage/paths.js';
import { makePdf } from '../helpers/pdf.js';
import { operationsUnderTest, type OperationsUnderTest } from '../helpers/operations.js';
import { busyWait } from '../helpers/test-tasks.js';

/**
 * The job core of issue 18 (operations/jobs/jobs.ts) on the in-memory
 * stores with a real engine pool: the queue, its limits, cancel, the owner
 * rule, the events history and what a restart does to unfinished jobs.
 */
describe('background jobs: the core', () => {
  let pool: EnginePool;
  let ops: Operations;
  let scratch: string;
  const alice = { principal: { username: 'alice', rights: ['GET', 'POST'], via: 'basic' } as Principal };
  const bob = { principal: { username: 'bob', rights: ['GET', 'POST'], via: 'basic' } as Principal };
  const doc = documentPathFromBody('jobs/doc.pdf', 'path');

  let under: OperationsUnderTest;
  before(async () => {
    under = await operationsUnderTest([[doc, makePdf({ pages: 12 })]]);
    ({ ops, pool, scratch } = under);
  });
  after(() => under.close());

  const bytesOf = async () => under.bytesOf(doc);
  const prepare = (body: unknown, ctx = alice) => ops.actions.prepare(doc, body, 'pages', [], ctx);

  /** Occupies both engine workers for `ms`, so a job's engine task waits in the pool's queue meanwhile. */
  const occupyEngine = (ms: number) => Promise.all([busyWait(pool, { ms }), busyWait(pool, { ms })]);
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 200; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.fail(`timed out waiting until ${what}`);
  };

  test('a job runs the prepared action and records its result; its events rise in order and end once', async () => {
    const jobs = new JobOperations(new MemoryJobStore(), ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    // The engine busy at first: the job cannot end before its events are followed.
    const busy = occupyEngine(800);
    const job = await jobs.submitAction(await prepare({ ExtractPagesAction: { pageRange: '2-4', savePath: 'jobs/extract.pdf' } }));
    assert.equal(job.state, 'queued');
    assert.equal(job.owner, 'alice');
    const following = (async () => {
      const seen = [];
      for await (const event of jobs.events(job.id, alice, 0, new AbortController().signal)) seen.push(event);
      return seen;
    })();
    await busy;
    const done = await jobs.waitFor(job.id, 30_000);
    assert.equal(done.state, 'succeeded', JSON.stringify(done.error));
    assert.equal(done.result?.path, '/jobs/extract.pdf');
    assert.equal(done.result?.created, true);
    assert.ok(!('status' in done.result!), 'a record says what happened, not an HTTP status');
    assert.equal(done.progress.percent, 100);
    const written = await ops.documents.read(documentPathFromBody('jobs/extract.pdf', 'path'), alice, (s) => s.bytes());
    const file = path.join(scratch, 'extract.pdf');
    writeFileSync(file, written);
    assert.equal(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }).trim(), '3');

    const seen = await following;
    assert.deepEqual(seen.map((e) => e.seq), seen.map((_, i) => i + 1));
    assert.deepEqual(seen.map((e) => e.job.state), ['queued', 'running', 'succeeded']);
    assert.deepEqual(seen.map((e) => e.type), ['state', 'state', 'end']);
    // Resuming after the second event, once the job has ended, gives the end event only.
    const resumed = [];
    for await (const event of jobs.events(job.id, alice, 2, new AbortController().signal)) resumed.push(event.seq);
    assert.deepEqual(resumed, [3]);
  });

  test('another user gets 404 for a job, admins see it; a full queue is 503 at once; a queued job cancels without touching the document', async () => {
    const jobs = new JobOperations(new MemoryJobStore(), ops.actions, ops.uploads, { queueLimit: 2, concurrency: 1, perUser: 1 });
    const original = await bytesOf();
    const first = await jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 90, savePath: 'jobs/r1.pdf' } }));
    const second = await jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 90 } }));
    await assert.rejects(
      jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 180, savePath: 'jobs/r3.pdf' } })),
      (err: unknown) => err instanceof ServiceError && err.code === 'SERVICE_BUSY' && err.headers?.['Retry-After'] !== undefined,
    );
    await assert.rejects(jobs.get(second.id, bob), (err: unknown) => err instanceof ServiceError && err.code === 'JOB_NOT_FOUND');
    const admin = { principal: { username: 'root', rights: ['GET', 'admin'], via: 'basic' } as Principal };
    assert.equal((await jobs.get(second.id, admin)).id, second.id);
    assert.deepEqual((await jobs.list(bob, {})).map((j) => j.id), []);

    const cancelled = await jobs.cancel(second.id, alice);
    assert.equal(cancelled.state, 'cancelled');
    assert.equal(cancelled.error?.code, 'TASK_CANCELLED');
    await assert.rejects(jobs.cancel(second.id, alice), (err: unknown) => err instanceof ServiceError && err.code === 'JOB_FINISHED');
    assert.equal((await jobs.waitFor(first.id, 30_000)).state, 'succeeded');
    assert.deepEqual(await bytesOf(), original, 'the cancelled in-place rotation wrote nothing');
  });

  test('after a restart: a running job is interrupted, a queued one runs, one that needs a password held in memory is interrupted', async () => {
    const jobStore = new MemoryJobStore();
    const jobs = new JobOperations(jobStore, ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    const finished = await jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 90, savePath: 'jobs/r4.pdf', namingMode: 1 } }));
    await jobs.waitFor(finished.id, 30_000);
    const record = structuredClone(await jobStore.get(finished.id))!;
    const [running, queued, withPassword, writing] = ['a', 'b', 'c', 'd'].map((c) => c.repeat(32));
    // The finished job recorded the version it wrote, just before writing it.
    assert.equal(record.payload.writing, record.result?.document && (record.result.document as { etag?: string }).etag);
    const { writing: _written, ...notWriting } = record.payload;
    const at = (s: number) => new Date(Date.parse(record.created) + s * 1000).toISOString();
    await jobStore.put({ ...record, id: running!, state: 'running', created: at(1), started: at(2), payload: notWriting });
    await jobStore.put({ ...record, id: writing!, state: 'running', created: at(1), started: at(2), payload: { ...notWriting, writing: '"0123456789abcdef0123456789abcdef"' } });
    const queuedPayload = { ...record.payload, params: { rotation: 180, savePath: 'jobs/after-restart.pdf', namingMode: 1 }, output: 'jobs/after-restart.pdf' };
    await jobStore.put({ ...record, id: queued!, state: 'queued', created: at(3), payload: queuedPayload });
    await jobStore.put({ ...record, id: withPassword!, state: 'queued', created: at(4), payload: { ...queuedPayload, resumable: false } });
    for (const r of [running, queued, withPassword, writing]) {
      const stored = (await jobStore.get(r!))!;
      delete stored.result;
      delete stored.finished;
      await jobStore.put(stored);
    }
    const restarted = new JobOperations(jobStore, ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    await restarted.recover();
    const wasRunning = await restarted.get(running!, alice);
    assert.equal(wasRunning.state, 'interrupted');
    assert.equal(wasRunning.reason, 'The service stopped while the job ran; the document is unchanged. Submit it again.');
    const wasWriting = await restarted.get(writing!, alice);
    assert.equal(wasWriting.state, 'interrupted');
    assert.equal(wasWriting.reason, 'The service stopped while the job was writing its result: the document holds the result if its ETag is "0123456789abcdef0123456789abcdef", else it is unchanged. Check it before submitting again.');
    const needed = await restarted.get(withPassword!, alice);
    assert.equal(needed.state, 'interrupted');
    assert.match(needed.reason ?? '', /held in memory only/);
    const ran = await restarted.waitFor(queued!, 30_000);
    assert.equal(ran.state, 'succeeded', JSON.stringify(ran.error));
    assert.equal(ran.result?.path, '/jobs/after-restart.pdf');
    assert.ok(await ops.documents.exists(documentPathFromBody('jobs/after-restart.pdf', 'path'), alice));
    assert.equal((await restarted.get(finished.id, alice)).state, 'succeeded');
  });

  test('cancel of a running job stops its engine task; nothing is written', async () => {
    const jobs = new JobOperations(new MemoryJobStore(), ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    const original = await bytesOf();
    const busy = occupyEngine(1500);
    const job = await jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 270 } }));
    await until('the job waits for the engine', async () => pool.stats.queued > 0);
    assert.equal((await jobs.get(job.id, alice)).state, 'running');
    const cancelled = await jobs.cancel(job.id, alice);
    assert.equal(cancelled.state, 'cancelled');
    assert.equal(cancelled.error?.code, 'TASK_CANCELLED');
    await busy;
    assert.deepEqual(await bytesOf(), original, 'byte-for-byte as it was');
  });

  test('a document changed while its job ran: the job fails with 412 and the change is kept', async () => {
    const jobs = new JobOperations(new MemoryJobStore(), ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1 });
    const busy = occupyEngine(1500);
    const job = await jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 90 } }));
    // Its engine task in the pool's queue: the job has read the document and waits for a worker.
    await until('the job waits for the engine', async () => pool.stats.queued > 0);
    // It holds no lock, so this write goes ahead at once.
    const meanwhile = makePdf({ pages: 5, text: () => 'changed meanwhile' });
    await ops.documents.transform({ target: doc, conflict: 'overwrite', ctx: bob, exec: {}, work: async () => ({ content: meanwhile, result: null }) });
    await busy;
    const failed = await jobs.waitFor(job.id, 30_000);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.error?.code, 'PRECONDITION_FAILED');
    assert.ok(!('status' in failed.error!), 'a record says what happened, not an HTTP status (the route maps the code to 412)');
    assert.deepEqual(await bytesOf(), meanwhile);
  });

  test('finished jobs are deleted after the retention time, unfinished ones never', async () => {
    const jobStore = new MemoryJobStore();
    const jobs = new JobOperations(jobStore, ops.actions, ops.uploads, { queueLimit: 10, concurrency: 1, perUser: 1, retentionMs: 60_000 });
    const job = await jobs.submitAction(await prepare({ RotatePagesAction: { rotation: 90, savePath: 'jobs/kept.pdf', namingMode: 1 } }));
    const done = await jobs.waitFor(job.id, 30_000);
    const queued = { ...structuredClone(done), id: 'd'.repeat(32), state: 'queued' as const };
    delete queued.finished;
    await jobStore.put(queued);
    const finishedAt = Date.parse(done.finished!);
    assert.equal(await jobs.sweep(finishedAt + 30_000), 0, 'kept within the retention time');
    assert.equal((await jobs.get(job.id, alice)).state, 'succeeded');
    assert.equal(await jobs.sweep(finishedAt + 61_000), 1);
    await assert.rejects(jobs.get(job.id, alice), (err: unknown) => err instanceof ServiceError && err.code === 'JOB_NOT_FOUND');
    assert.ok(await jobStore.get(queued.id), 'an unfinished job is never swept');
  });
});
