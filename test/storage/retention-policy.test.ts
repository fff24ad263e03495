/**
 * The retention policy (src/operations/retention-policy.ts, docs/versions.md "Retention") with the time set by the
 * test: the thinning schedule over many creation times against survivors listed by hand (UTC hours, UTC days, weeks
 * from Thursday), age, count, pinned and current versions never removed, and the per-user cap across documents.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { documentRemovals, userCapRemovals, type PolicyVersion, type RetentionPolicy, type UserVersion } from '../../src/operations/retention-policy.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const THIN: RetentionPolicy = { maxCount: 0, maxAgeMs: 0, thinning: true, userBytes: 0 };
const NONE: RetentionPolicy = { maxCount: 0, maxAgeMs: 0, thinning: false, userBytes: 0 };

let n = 0;
/** A version created at `iso` (ids follow creation order, as the store's do). */
function v(iso: string, extra: Partial<PolicyVersion> = {}): PolicyVersion {
  const created = new Date(iso);
  return { id: `${String(created.getTime()).padStart(14, '0')}${String(n++ % 100).padStart(2, '0')}`, created, size: 100, by: 'ann', pinned: false, current: false, ...extra };
}

/** The creation times (ISO) of the versions the policy keeps. */
function survivors(versions: PolicyVersion[], now: string, policy: RetentionPolicy): string[] {
  const gone = documentRemovals(versions, new Date(now), policy);
  return versions.filter((x) => !gone.has(x.id)).map((x) => x.created.toISOString()).sort();
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('thinning', () => {
  test('a version every 10 minutes for 60 days: all of the last hour, then the newest of each UTC hour, UTC day and week from Thursday', () => {
    const now = Date.parse('2026-11-30T00:00:00Z'); // a Monday
    const versions: PolicyVersion[] = [];
    for (let k = 60 * 144; k >= 0; k--) versions.push(v(iso(now - k * 10 * MIN), { current: k === 0 }));
    const expected: string[] = [];
    // Weeks (age 30 days and more): buckets start on Thursdays (1 January 1970 was one): 1, 8, 15, 22, 29 October.
    for (const last of ['2026-10-07T23:50', '2026-10-14T23:50', '2026-10-21T23:50', '2026-10-28T23:50', '2026-10-31T00:00']) expected.push(`${last}:00.000Z`);
    // Days (24 hours to 30 days): the newest of 31 October ... 28 November; of 29 November only its midnight is that old.
    for (let day = Date.parse('2026-10-31T00:00:00Z'); day < Date.parse('2026-11-29T00:00:00Z'); day += DAY) expected.push(iso(day + 23 * HOUR + 50 * MIN));
    expected.push('2026-11-29T00:00:00.000Z');
    // Hours (1 to 24 hours): the newest of each hour of 29 November; of 23:00 only 23:00 itself is an hour old.
    for (let hour = 0; hour < 23; hour++) expected.push(iso(Date.parse('2026-11-29T00:00:00Z') + hour * HOUR + 50 * MIN));
    expected.push('2026-11-29T23:00:00.000Z');
    // The last hour: every version (23:10 ... 23:50 and the current one at midnight).
    for (const m of [10, 20, 30, 40, 50]) expected.push(`2026-11-29T23:${m}:00.000Z`);
    expected.push('2026-11-30T00:00:00.000Z');
    const kept = survivors(versions, iso(now), THIN);
    assert.equal(kept.length, 65);
    assert.deepEqual(kept, expected.sort());
    // A second sweep at the same time removes nothing more.
    const left = versions.filter((x) => kept.includes(x.created.toISOString()));
    assert.equal(documentRemovals(left, new Date(now), THIN).size, 0);
  });

  test('irregular times: buckets per tier, so an hour-old version and a day-old one of the same UTC day both stay', () => {
    const versions = [
      v('2026-11-30T12:29:00Z', { current: true }),
      v('2026-11-30T12:25:00Z'), v('2026-11-30T11:40:00Z'), // the last hour: kept
      v('2026-11-30T11:29:00Z'), v('2026-11-30T11:20:00Z'), v('2026-11-30T11:00:00Z'), // hour 11: 11:29 stays
      v('2026-11-30T10:50:00Z'), // hour 10
      v('2026-11-30T09:30:00Z'), v('2026-11-30T09:20:00Z'), // hour 9: 09:30
      v('2026-11-29T13:00:00Z'), // 23.5 hours old: the hour tier
      v('2026-11-29T11:00:00Z'), v('2026-11-29T03:00:00Z'), // 25.5 hours and more: the day tier, 29 November: 11:00
      v('2026-11-28T23:00:00Z'), v('2026-11-28T08:00:00Z'), // 28 November: 23:00
      v('2026-11-27T10:00:00Z'),
    ];
    assert.deepEqual(survivors(versions, '2026-11-30T12:30:00Z', THIN), [
      '2026-11-27T10:00:00.000Z', '2026-11-28T23:00:00.000Z', '2026-11-29T11:00:00.000Z', '2026-11-29T13:00:00.000Z',
      '2026-11-30T09:30:00.000Z', '2026-11-30T10:50:00.000Z', '2026-11-30T11:29:00.000Z', '2026-11-30T11:40:00.000Z',
      '2026-11-30T12:25:00.000Z', '2026-11-30T12:29:00.000Z',
    ]);
  });

  test('pinned and current versions are kept and take no bucket: the newest unpinned one of their bucket stays too', () => {
    const versions = [
      v('2026-11-20T18:00:00Z', { current: true }), // a document untouched for ten days: its current version is old
      v('2026-11-20T17:00:00Z'), v('2026-11-20T16:00:00Z'),
      v('2026-11-19T12:00:00Z', { pinned: true }), v('2026-11-19T10:00:00Z'), v('2026-11-19T09:00:00Z'),
    ];
    assert.deepEqual(survivors(versions, '2026-11-30T12:00:00Z', THIN), ['2026-11-19T10:00:00.000Z', '2026-11-19T12:00:00.000Z', '2026-11-20T17:00:00.000Z', '2026-11-20T18:00:00.000Z']);
  });

  test('a version dated after now (another instance\'s clock ahead) counts as new: kept', () => {
    const versions = [v('2026-11-30T12:05:00Z', { current: true }), v('2026-11-30T12:01:00Z'), v('2026-11-30T12:00:30Z')];
    assert.equal(documentRemovals(versions, new Date('2026-11-30T12:00:00Z'), THIN).size, 0);
  });

  test('thinning off keeps every version', () => {
    const versions = Array.from({ length: 50 }, (_, i) => v(iso(Date.parse('2026-01-01T00:00:00Z') + i * MIN), { current: i === 49 }));
    assert.equal(documentRemovals(versions, new Date('2026-11-30T00:00:00Z'), NONE).size, 0);
  });
});

describe('count and age', () => {
  const doc = () => [
    v('2026-11-30T10:00:00Z', { current: true }),
    v('2026-11-30T09:50:00Z'), v('2026-11-30T09:40:00Z'),
    v('2026-11-30T09:30:00Z', { pinned: true }),
    v('2026-11-30T09:20:00Z'), v('2026-11-30T09:10:00Z'),
  ];
  const at = '2026-11-30T10:00:00Z';

  test('max count: the oldest unpinned go until the document has that many, the current and pinned ones counted', () => {
    assert.deepEqual(survivors(doc(), at, { ...NONE, maxCount: 3 }), ['2026-11-30T09:30:00.000Z', '2026-11-30T09:50:00.000Z', '2026-11-30T10:00:00.000Z']);
    assert.deepEqual(survivors(doc(), at, { ...NONE, maxCount: 5 }), ['2026-11-30T09:20:00.000Z', '2026-11-30T09:30:00.000Z', '2026-11-30T09:40:00.000Z', '2026-11-30T09:50:00.000Z', '2026-11-30T10:00:00.000Z']);
  });

  test('max count below the pinned and current ones: only those stay', () => {
    assert.deepEqual(survivors(doc(), at, { ...NONE, maxCount: 1 }), ['2026-11-30T09:30:00.000Z', '2026-11-30T10:00:00.000Z']);
  });

  test('max age: older versions go, but not a pinned one, nor an old current one', () => {
    assert.deepEqual(survivors(doc(), at, { ...NONE, maxAgeMs: 25 * MIN }), ['2026-11-30T09:30:00.000Z', '2026-11-30T09:40:00.000Z', '2026-11-30T09:50:00.000Z', '2026-11-30T10:00:00.000Z']);
    assert.deepEqual(survivors(doc(), '2027-06-01T00:00:00Z', { ...NONE, maxAgeMs: DAY }), ['2026-11-30T09:30:00.000Z', '2026-11-30T10:00:00.000Z']);
  });

  test('age, thinning and count together: the count applies to what age and thinning left', () => {
    const versions = [
      v('2026-11-30T10:00:00Z', { current: true }),
      v('2026-11-30T09:45:00Z'), v('2026-11-30T09:30:00Z'), // the last hour
      v('2026-11-30T08:40:00Z'), v('2026-11-30T08:10:00Z'), // hour 8: 08:40
      v('2026-11-30T07:40:00Z'), // hour 7
      v('2026-11-28T07:40:00Z'), // older than two days: age
    ];
    assert.deepEqual(survivors(versions, at, { maxCount: 4, maxAgeMs: 2 * DAY, thinning: true, userBytes: 0 }), ['2026-11-30T08:40:00.000Z', '2026-11-30T09:30:00.000Z', '2026-11-30T09:45:00.000Z', '2026-11-30T10:00:00.000Z']);
  });
});

describe('per-user cap', () => {
  const uv = (key: string, isoTime: string, by: string | null, size: number, extra: Partial<PolicyVersion> = {}): UserVersion => ({ ...v(isoTime, { by, size, ...extra }), key });

  test("a user's oldest unpinned non-current versions go, across documents, until the user is at or under the cap", () => {
    const versions = [
      uv('a.pdf/1', '2026-11-01T00:00:00Z', 'ann', 400),
      uv('b.pdf/1', '2026-11-02T00:00:00Z', 'ann', 300, { pinned: true }), // counts, never goes
      uv('a.pdf/2', '2026-11-03T00:00:00Z', 'ann', 300),
      uv('b.pdf/2', '2026-11-04T00:00:00Z', 'ann', 200),
      uv('a.pdf/3', '2026-11-05T00:00:00Z', 'ann', 5000, { current: true }), // the current content: not counted
      uv('c.pdf/1', '2026-11-01T00:00:00Z', 'bob', 900),
      uv('c.pdf/2', '2026-11-01T00:00:00Z', null, 9000), // nobody's
    ];
    // ann: 400 + 300 + 300 + 200 = 1200 over 600: a.pdf/1 (800 left), a.pdf/2 (500 left); bob 900 over 600: c.pdf/1.
    assert.deepEqual([...userCapRemovals(versions, { userBytes: 600 })].sort(), ['a.pdf/1', 'a.pdf/2', 'c.pdf/1']);
    assert.deepEqual([...userCapRemovals(versions, { userBytes: 1200 })], []);
    assert.deepEqual([...userCapRemovals(versions, { userBytes: 0 })], []);
  });

  test('pinned versions alone above the cap: nothing else of the user stays, and the pinned ones do', () => {
    const versions = [uv('a/1', '2026-11-01T00:00:00Z', 'ann', 100), uv('a/2', '2026-11-02T00:00:00Z', 'ann', 1000, { pinned: true }), uv('a/3', '2026-11-03T00:00:00Z', 'ann', 100)];
    assert.deepEqual([...userCapRemovals(versions, { userBytes: 500 })].sort(), ['a/1', 'a/3']);
  });
});

describe('settings', () => {
  test('durations: a whole number with a unit (none: seconds), 0 where allowed, refused otherwise', async () => {
    const { duration } = await import('../../src/config/retention.js');
    const age = duration(60_000, 100 * 366 * DAY, true);
    assert.equal(age('90d'), 90 * DAY);
    assert.equal(age('2w'), 14 * DAY);
    assert.equal(age('3600'), HOUR);
    assert.equal(age('0'), 0);
    for (const bad of ['10', '1.5d', '-1d', 'd', '3 days']) assert.throws(() => age(bad), bad);
    assert.throws(() => duration(1000, DAY)('0'));
    assert.equal(duration(1000, DAY)('1s'), 1000);
  });
});
