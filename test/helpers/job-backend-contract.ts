/**
 * The JobBackend contract: one suite that every job backend passes (the embedded one and Redis with BullMQ). It tests
 * behaviour through the interface (src/operations/jobs/backend.ts) only, as two processes of one deployment see it
 * (`a` and `b`; for the embedded backend, one process, both are the same backend). What a backend has or has not
 * (a shared queue, a key to seal passwords with) is declared by the factory, and checked both ways.
 */
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { JobBackend, JobConsumer } from '../../src/operations/jobs/backend.js';
import type { JobRecord } from '../../src/operations/jobs/model.js';
import { newJobId } from '../../src/operations/jobs/store.js';
import { freshEach } from './fresh.js';
import { jobRecord } from './job-store-contract.js';

export interface JobBackendUnderTest {
  /** Two processes' backends over the same shared state; `a` runs shared jobs once started, `b` does not. */
  a: JobBackend;
  b: JobBackend;
  /** Whether jobs can go on a queue the processes share. */
  sharedQueue: boolean;
  /** Whether a document password can be sealed for the shared queue. */
  seals: boolean;
  close(): Promise<void>;
}

/** A consumer that records what the backend asks of it. */
export function recordingConsumer(answer: 'ran' | 'skipped' | 'busy' = 'ran'): JobConsumer & { ran: { id: string; sealed: string | undefined }[]; aborted: string[]; hooks: { id: string; attempt: number; at: number }[] } {
  const ran: { id: string; sealed: string | undefined }[] = [];
  const aborted: string[] = [];
  const hooks: { id: string; attempt: number; at: number }[] = [];
  return {
    ran,
    aborted,
    hooks,
    attemptWebhook: (id, attempt) => {
      hooks.push({ id, attempt, at: Date.now() });
      return Promise.resolve();
    },
    runShared: (id, sealed) => {
      ran.push({ id, sealed });
      return Promise.resolve(answer);
    },
    abortLocal: (id) => void aborted.push(id),
    interruptDead: () => Promise.resolve(0),
    refreshSharedCount: () => Promise.resolve(),
  };
}

/** Resolves once `check` holds, polling; fails after a generous time (another process's message takes a moment). */
async function eventually(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`timed out waiting until ${what}`);
}

export function jobBackendContract(name: string, factory: () => Promise<JobBackendUnderTest>): void {
  const withBackend = freshEach(factory);

  describe(`JobBackend contract: ${name}`, () => {
    withBackend('events: numbered from 1 in order, kept, the latest one at hand, told to every follower', async ({ a, b }) => {
      await a.start(recordingConsumer());
      await b.start(recordingConsumer());
      const record = jobRecord({ state: 'queued' });
      let told = 0;
      const stop = b.events.listen(record.id, () => told++);
      assert.deepEqual(await a.events.history(record.id), [], 'none before the first');
      assert.equal(await a.events.latest(record.id), undefined);
      await a.events.publish(record, 'state');
      const running: JobRecord = { ...record, state: 'running', progress: { done: 1, total: 3, unit: 'pages', percent: 33 } };
      await a.events.publish(running, 'progress');
      const history = await b.events.history(record.id);
      assert.deepEqual(history.map((e) => [e.seq, e.type, e.job.state]), [[1, 'state', 'queued'], [2, 'progress', 'running']]);
      assert.deepEqual(history[1]!.job, running, 'the job as it was published');
      assert.deepEqual((await b.events.latest(record.id))?.seq, 2);
      await eventually('the follower was told twice', () => told >= 2);
      // Publishing from the other process continues the numbering.
      await b.events.publish(running, 'progress');
      assert.deepEqual((await a.events.history(record.id)).map((e) => e.seq), [1, 2, 3]);
      await eventually('the third event was told', () => told >= 3);
      stop();
      const after = told;
      await a.events.publish(running, 'progress');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(told, after, 'a follower that stopped is told no more');
    });

    withBackend('events: the end keeps the end event alone; forget drops what is kept; jobs apart', async ({ a, b }) => {
      const record = jobRecord({ state: 'queued' });
      const other = jobRecord({ state: 'queued' });
      await a.events.publish(record, 'state');
      await a.events.publish(other, 'state');
      await a.events.publish({ ...record, state: 'succeeded' }, 'end');
      const kept = await b.events.history(record.id);
      assert.deepEqual(kept.map((e) => [e.seq, e.type]), [[2, 'end']]);
      assert.deepEqual((await b.events.history(other.id)).map((e) => e.seq), [1], "another job's numbering is its own");
      await b.events.forget(record.id);
      assert.deepEqual(await a.events.history(record.id), []);
      assert.equal(await a.events.latest(record.id), undefined);
      assert.equal((await a.events.history(other.id)).length, 1);
    });

    withBackend('heartbeats: a job is alive while some process beats for it; a process while it runs', async ({ a, b }) => {
      await a.start(recordingConsumer());
      const id = newJobId();
      assert.equal(await b.alive(id), false);
      const stop = a.heartbeat(id);
      assert.equal(await b.alive(id), true);
      stop();
      await eventually('the heartbeat ended', async () => !(await b.alive(id)));
      stop(); // stopping twice is harmless
      assert.equal(await b.holderAlive(a.holder), true, 'a started process says it lives');
      assert.equal(await b.holderAlive('not-a-process'), false);
      assert.ok(a.holder.length > 0);
    });

    withBackend('a cancel signal reaches the process that runs the job', async ({ a, b }) => {
      const consumer = recordingConsumer();
      await a.start(consumer);
      const id = newJobId();
      await b.requestCancel(id);
      await eventually('the job was asked to stop', () => consumer.aborted.includes(id));
    });

    withBackend('the shared queue: counted, held per owner with the newest waiting, taken off, delivered to a process that runs jobs', async ({ a, b, sharedQueue }) => {
      if (!sharedQueue) {
        // One process: every job stays on its own queue; nothing is shared, and nothing can be put there.
        assert.equal(a.shareable(newJobId(), undefined), undefined);
        assert.equal(await a.count(), 0);
        assert.deepEqual(await a.held(), new Map());
        assert.equal(await a.othersWaiting('alice'), false);
        await assert.rejects(a.enqueue(newJobId(), undefined, 'alice', 1));
        await a.dequeue(newJobId());
        return;
      }
      const first = newJobId();
      const second = newJobId();
      const bobs = newJobId();
      assert.deepEqual(b.shareable(first, undefined), {}, 'a job without a password is shared');
      await b.enqueue(first, undefined, 'alice', 1);
      await b.enqueue(second, undefined, 'alice', 2);
      await b.enqueue(bobs, undefined, 'bob', 1);
      assert.equal(await a.count(), 3);
      const held = await a.held();
      assert.deepEqual(held.get('alice'), { count: 2, newest: second });
      assert.deepEqual(held.get('bob'), { count: 1, newest: bobs });
      assert.equal(await a.othersWaiting('alice'), true);
      assert.equal(await a.othersWaiting('carol'), true);
      await a.dequeue(bobs);
      await a.dequeue(bobs); // already gone: nothing happens
      assert.equal(await b.count(), 2);
      assert.equal(await b.othersWaiting('alice'), false, "only alice's jobs wait");
      const consumer = recordingConsumer();
      await a.start(consumer);
      await eventually('both jobs were delivered', () => consumer.ran.length === 2);
      assert.deepEqual(consumer.ran.map((r) => r.id), [first, second], 'in priority order');
      await eventually('the queue is empty', async () => (await b.count()) === 0);
    });

    withBackend('webhook attempts: each made once when due, by one process, scheduling one twice adding it once', async ({ a, b, sharedQueue }) => {
      const [ca, cb] = [recordingConsumer(), recordingConsumer()];
      await a.start(ca);
      if (b !== a) await b.start(cb);
      const [now, later] = [newJobId(), newJobId()];
      const since = Date.now();
      await b.scheduleWebhook(later, 2, 600);
      await a.scheduleWebhook(now, 1, 0);
      await a.scheduleWebhook(now, 1, 0); // the same attempt again: still one
      const all = () => [...ca.hooks, ...(b !== a ? cb.hooks : [])];
      await eventually('both attempts were made', () => all().length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const made = all().sort((x, y) => x.at - y.at);
      assert.deepEqual(made.map((h) => [h.id, h.attempt]), [[now, 1], [later, 2]], 'each attempt once, the due one first');
      // By the wall clock a timer may fire a millisecond or so early (timers run on the monotonic clock).
      assert.ok(made[1]!.at - since >= 590, `not before its time (${made[1]!.at - since} ms)`);
      if (sharedQueue) {
        // Across processes the attempt waits in the shared state: scheduled by a process that then stops, another makes it.
        const orphan = newJobId();
        await b.scheduleWebhook(orphan, 3, 300);
        await b.close();
        await eventually('the other process made it', () => ca.hooks.some((h) => h.id === orphan && h.attempt === 3));
      }
    });

    withBackend('a document password travels sealed, and opens for its job only', async ({ a, b, seals }) => {
      const id = newJobId();
      const shared = b.shareable(id, 'secret password');
      if (!seals) {
        assert.equal(shared, undefined, 'a job with a password stays on its process');
        return;
      }
      assert.ok(shared?.sealed !== undefined);
      assert.ok(!shared.sealed.includes('secret'), 'sealed, not plain');
      assert.equal(a.open(id, shared.sealed), 'secret password');
      assert.throws(() => a.open(newJobId(), shared.sealed!), 'another job cannot open it');
    });
  });
}

/** For backends that run in one process only: `a` and `b` are the same backend. */
export function oneProcess(backend: JobBackend): Pick<JobBackendUnderTest, 'a' | 'b'> {
  return { a: backend, b: backend };
}
