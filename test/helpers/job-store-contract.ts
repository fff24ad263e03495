/**
 * The JobStore contract: one suite that every job store passes (the file
 * store, the in-memory one, a Redis store later). It tests behaviour through
 * the interface (src/operations/jobs/store.ts) only; what is particular to
 * a backend (files left by a crash, a restart) lives in that store's test file.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JobRecord, JobState } from '../../src/operations/jobs/model.js';
import { isJobId, newJobId, type JobStore } from '../../src/operations/jobs/store.js';
import { freshEach } from './fresh.js';

export interface JobStoreUnderTest {
  store: JobStore;
  close(): Promise<void>;
}

/** A complete record (every optional field set), so a round trip that drops or changes a field shows. */
export function jobRecord(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id: newJobId(),
    action: 'rotate',
    document: 'reports/q3.pdf',
    owner: 'alice',
    state: 'succeeded',
    progress: { done: 3, total: 3, unit: 'pages', percent: 100, phase: 'writing' },
    created: '2026-11-25T10:00:00.000Z',
    started: '2026-11-25T10:00:01.000Z',
    finished: '2026-11-25T10:00:02.500Z',
    reason: 'none',
    result: { path: 'reports/q3.pdf', created: false, xmlRoot: 'Report', document: { pages: 3, title: 'Q3 «ünïcode»', nested: [1, null, { a: true }] } },
    error: { code: 'INTERNAL', title: 'Internal error', detail: 'kept as given', extra: { report: [1, 'two'] }, inPath: true },
    payload: {
      kind: 'action',
      action: 'rotate',
      target: 'pages',
      params: { angle: 90, pages: [1, 2, 3] },
      prepared: { plan: ['a', 'b'] },
      source: 'reports/q3.pdf',
      output: 'reports/q3.pdf',
      conflict: 'overwrite',
      etag: '"0123456789abcdef0123456789abcdef"',
      resumable: true,
    },
    ...overrides,
  };
}

/** Ids no store generates: a path, empty, too long, too short, upper case, not hex. */
export const MALFORMED_IDS = ['../x', '', '0'.repeat(33), '0'.repeat(31), 'A'.repeat(32), 'g'.repeat(32), `../${'0'.repeat(29)}`, 'x'.repeat(10_000), `${'0'.repeat(32)}/`];

export function jobStoreContract(name: string, factory: () => Promise<JobStoreUnderTest>): void {
  /** Runs `body` against a fresh, empty store. */
  const withStore = freshEach(factory);

  describe(`JobStore contract: ${name}`, () => {
    test('newJobId gives distinct ids of the form isJobId accepts', () => {
      const ids = new Set(Array.from({ length: 100 }, () => newJobId()));
      assert.equal(ids.size, 100);
      for (const id of ids) assert.ok(isJobId(id), id);
      for (const id of MALFORMED_IDS) assert.ok(!isJobId(id), id);
    });

    withStore('a record put reads back deep-equal; an unknown id is null', async ({ store }) => {
      const record = jobRecord();
      await store.put(record);
      assert.deepEqual(await store.get(record.id), record);
      const minimal = jobRecord({ owner: null, state: 'queued', progress: { done: 0, unit: 'pages', percent: 0 } });
      for (const key of ['started', 'finished', 'reason', 'result', 'error'] as const) delete minimal[key];
      await store.put(minimal);
      assert.deepEqual(await store.get(minimal.id), minimal, 'absent optional fields stay absent');
      assert.equal(await store.get(newJobId()), null);
    });

    withStore('put replaces a record whole', async ({ store }) => {
      const record = jobRecord({ state: 'running' });
      await store.put(record);
      const replaced = jobRecord({ id: record.id, state: 'failed', reason: 'replaced' });
      delete replaced.result;
      await store.put(replaced);
      assert.deepEqual(await store.get(record.id), replaced);
      assert.deepEqual(await store.list(), [replaced]);
    });

    withStore('delete removes one record; deleting an unknown or deleted id does nothing', async ({ store }) => {
      const kept = jobRecord();
      const gone = jobRecord();
      await store.put(kept);
      await store.put(gone);
      await store.delete(gone.id);
      assert.equal(await store.get(gone.id), null);
      await store.delete(gone.id);
      await store.delete(newJobId());
      assert.deepEqual(await store.list(), [kept]);
    });

    withStore('list: newest created first, equal times by id; owner and state filters', async ({ store }) => {
      assert.deepEqual(await store.list(), [], 'an empty store');
      const at = (minute: number) => `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`;
      const specs: [string | null, JobState, number][] = [
        ['alice', 'queued', 1],
        ['bob', 'running', 5],
        ['alice', 'succeeded', 3],
        [null, 'failed', 4],
        ['alice', 'cancelled', 3],
        ['bob', 'interrupted', 2],
      ];
      const records = specs.map(([owner, state, minute]) => jobRecord({ owner, state, created: at(minute) }));
      for (const record of records) await store.put(record);
      const ids = (list: JobRecord[]) => list.map((r) => r.id);
      const expected = [...records].sort((a, b) => (a.created === b.created ? (a.id < b.id ? -1 : 1) : a.created < b.created ? 1 : -1));
      assert.deepEqual(ids(await store.list()), ids(expected));
      assert.deepEqual(await store.list({}), expected, 'an empty filter is no filter');
      assert.deepEqual(await store.list({ owner: undefined, states: undefined }), expected);
      const only = (keep: (r: JobRecord) => boolean) => ids(expected.filter(keep));
      assert.deepEqual(ids(await store.list({ owner: 'alice' })), only((r) => r.owner === 'alice'));
      assert.deepEqual(ids(await store.list({ owner: null })), only((r) => r.owner === null), 'null: the records without owner');
      assert.deepEqual(await store.list({ owner: 'carol' }), []);
      assert.deepEqual(ids(await store.list({ states: ['queued', 'running'] })), only((r) => r.state === 'queued' || r.state === 'running'));
      assert.deepEqual(ids(await store.list({ owner: 'alice', states: ['succeeded', 'cancelled', 'running'] })), only((r) => r.owner === 'alice' && (r.state === 'succeeded' || r.state === 'cancelled')));
      assert.deepEqual(await store.list({ states: [] }), [], 'no state matches an empty list');
    });

    withStore('malformed ids are not found: get is null, delete does nothing, put rejects and stores nothing', async ({ store }) => {
      const record = jobRecord();
      await store.put(record);
      for (const id of MALFORMED_IDS) {
        assert.equal(await store.get(id), null, JSON.stringify(id));
        await store.delete(id);
        await assert.rejects(store.put(jobRecord({ id })), JSON.stringify(id));
      }
      assert.deepEqual(await store.list(), [record]);
    });

    withStore('replaceIf replaces only a stored record in one of the given states, and answers whether it did', async ({ store }) => {
      const queued = jobRecord({ state: 'queued' });
      await store.put(queued);
      const running = { ...queued, state: 'running' as const, started: '2026-11-25T10:00:05.000Z' };
      assert.equal(await store.replaceIf(running, ['succeeded', 'failed']), false, 'a state not listed');
      assert.deepEqual(await store.get(queued.id), queued, 'unchanged when refused');
      assert.equal(await store.replaceIf(running, []), false, 'no state matches an empty list');
      assert.equal(await store.replaceIf(running, ['queued']), true);
      assert.deepEqual(await store.get(queued.id), running);
      assert.deepEqual(await store.list(), [running], 'listed as replaced');
      const absent = jobRecord({ state: 'queued' });
      assert.equal(await store.replaceIf(absent, ['queued']), false, 'an unknown id is never created');
      assert.equal(await store.get(absent.id), null);
      for (const id of MALFORMED_IDS) assert.equal(await store.replaceIf(jobRecord({ id }), ['queued', 'succeeded']), false, JSON.stringify(id));
    });

    withStore('replaceIf: of racing replacements from the same state exactly one wins', async ({ store }) => {
      const record = jobRecord({ state: 'queued' });
      await store.put(record);
      const ends = (['cancelled', 'failed', 'running', 'interrupted'] as const).map((state) => ({ ...record, state }));
      const won = await Promise.all(ends.map((end) => store.replaceIf(end, ['queued'])));
      assert.equal(won.filter(Boolean).length, 1, JSON.stringify(won));
      assert.deepEqual(await store.get(record.id), ends[won.indexOf(true)]);
    });

    withStore('replaceIf racing delete: the record is gone afterwards, never written back', async ({ store }) => {
      // A job ending (replaceIf from running) while the sweep or its owner deletes it: whichever goes first, a
      // deleted record stays deleted (and a replaceIf after the delete finds nothing to replace).
      // The delete comes a few event-loop turns after the replaceIf starts, a different number each round, so that it
      // lands in each step of the replacement's write (no timing: turns, not milliseconds).
      for (let round = 0; round < 40; round++) {
        const record = jobRecord({ state: 'running' });
        await store.put(record);
        const ending = store.replaceIf({ ...record, state: 'succeeded' }, ['running']);
        for (let turn = 0; turn < round % 10; turn++) await new Promise((resolve) => setImmediate(resolve));
        const [replaced] = await Promise.all([ending, store.delete(record.id)]);
        assert.equal(await store.get(record.id), null, `round ${round}: replaceIf answered ${replaced}, and the record is back`);
        assert.equal(await store.replaceIf({ ...record, state: 'failed' }, ['running', 'succeeded']), false, `round ${round}: replaced after the delete`);
      }
      assert.deepEqual(await store.list(), []);
    });

    withStore('records are copied in and out: changing one a caller holds does not change the stored one', async ({ store }) => {
      const record = jobRecord();
      const original = structuredClone(record);
      await store.put(record);
      record.state = 'failed';
      record.progress.percent = 1;
      assert.equal(record.payload.kind, 'action');
      (record.payload.params['pages'] as number[]).push(99);
      assert.deepEqual(await store.get(original.id), original, 'after put');
      const got = await store.get(original.id);
      assert.ok(got !== null);
      got.progress.done = 42;
      assert.equal(got.payload.kind, 'action');
      got.payload.params['angle'] = 180;
      const [listed] = await store.list();
      assert.ok(listed !== undefined);
      listed.owner = 'mallory';
      assert.deepEqual(await store.get(original.id), original, 'after changing what get and list returned');
      assert.deepEqual(await store.list(), [original]);
    });
  });
}
