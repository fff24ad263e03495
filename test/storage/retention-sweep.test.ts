/**
 * The retention sweep over a FilesystemStore (src/operations/retention.ts) with a clock the test sets: records dated
 * back by hand (their `created`, as if written then), the sweep run at chosen times, and what is left on disk checked
 * record by record and blob by blob: thinning, count, the per-user cap across documents, pinned and current versions
 * kept, the interval across sweeps, and the walk of every document with versions.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LocalSweepLease, Sweeper, trashTask, versionsTask } from '../../src/operations/retention.js';
import type { RetentionPolicy } from '../../src/operations/retention-policy.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { StoredPath } from '../../src/storage/paths.js';
import { etagOf } from '../../src/storage/store.js';
import { makePdf } from '../helpers/pdf.js';

const HOUR = 3_600_000;
let dataDir: string;
let store: FilesystemStore;

before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-retention-'));
  store = new FilesystemStore(dataDir);
  await store.init();
  await store.recover();
});
after(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const versionsDir = (p: StoredPath) => path.join(dataDir, 'versions', ...p.segments);

/** Writes `count` different contents to `doc` as `by`; answers the contents' ETags in order. */
async function writeMany(doc: string, count: number, by: string): Promise<{ p: StoredPath; etags: string[] }> {
  const p = StoredPath.fromValidSegments(doc.split('/'));
  const etags: string[] = [];
  for (let i = 0; i < count; i++) {
    const content = makePdf({ pages: 1, text: () => `${doc} write ${i}` });
    etags.push(etagOf(content));
    await store.writeDocument(p, content, { conflict: 'overwrite', provenance: { by, operation: 'upload' } });
  }
  return { p, etags };
}

/** Dates the document's records back: the i-th oldest record gets `times[i]` (as if written then). */
async function dateRecords(p: StoredPath, times: string[]): Promise<string[]> {
  const dir = versionsDir(p);
  const names = (await readdir(dir)).filter((n) => /^v-\d{16}\.json$/.test(n)).sort();
  assert.equal(names.length, times.length);
  for (const [i, name] of names.entries()) {
    const record = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { created: string };
    record.created = new Date(times[i]!).toISOString();
    await writeFile(path.join(dir, name), JSON.stringify(record));
  }
  // The records changed behind the store's back: recover() writes their index anew (as after a crash).
  await store.recover();
  return names.map((n) => n.slice(2, 18));
}

const all = async (p: StoredPath) => (await store.versions!.list(p, { offset: 0, limit: 1000 })).versions;
const blobs = async (p: StoredPath) => (await readdir(versionsDir(p))).filter((n) => n.startsWith('b-')).sort();
const blobOf = (etag: string) => `b-${etag.replace(/"/g, '')}`;

function sweeper(policy: Partial<RetentionPolicy>, clock: () => Date, intervalMs = HOUR): Sweeper {
  return new Sweeper({
    tasks: [versionsTask(store as FilesystemStore & { versions: NonNullable<FilesystemStore['versions']> }, { maxCount: 0, maxAgeMs: 0, thinning: true, userBytes: 0, ...policy })],
    lease: new LocalSweepLease(),
    intervalMs,
    clock,
  });
}

describe('the sweep over a filesystem store', () => {
  test('documents(): every document that has versions, in folders too', async () => {
    await writeMany('walk/one.pdf', 1, 'ann');
    await writeMany('walk/deeper/two.pdf', 2, 'ann');
    const found: string[] = [];
    for await (const p of store.versions!.documents()) found.push(p.toString());
    for (const doc of ['walk/one.pdf', 'walk/deeper/two.pdf']) assert.ok(found.includes(doc), `${doc} in ${found.join(', ')}`);
    await store.deleteFolder(StoredPath.fromValidSegments(['walk']), true);
  });

  test('thinning at a time the test sets: records and bytes of the thinned versions go, pinned and current stay', async () => {
    const { p, etags } = await writeMany('thin/report.pdf', 7, 'ann');
    const ids = await dateRecords(p, ['2026-11-28T09:10:00Z', '2026-11-28T09:40:00Z', '2026-11-29T08:05:00Z', '2026-11-29T08:50:00Z', '2026-11-30T10:20:00Z', '2026-11-30T11:45:00Z', '2026-11-30T11:50:00Z']);
    await store.versions!.update(p, ids[0]!, { pinned: true });
    let now = new Date('2026-11-30T12:00:00Z');
    const sweep = sweeper({}, () => now);
    const report = await sweep.sweepOnce();
    assert.ok(report);
    // 28 Nov: 09:10 pinned (kept), 09:40 the newest unpinned; 29 Nov (day tier): 08:50; hour 10: 10:20; last hour: 11:45, 11:50 (current).
    // Gone: 29 Nov 08:05.
    assert.deepEqual((report.tasks.versions as Record<string, number>).removed, 1);
    assert.deepEqual((await all(p)).map((r) => r.id).sort(), [ids[0], ids[1], ids[3], ids[4], ids[5], ids[6]]);
    assert.deepEqual(await blobs(p), etags.filter((_, i) => i !== 2).map(blobOf).sort());
    // Within the interval a second sweep does not run; after it, the same rules remove nothing more.
    assert.equal(await sweep.sweepOnce(), null);
    now = new Date(now.getTime() + HOUR);
    const again = await sweep.sweepOnce();
    assert.equal((again?.tasks.versions as Record<string, number>).removed, 0);
    // Two days on: 10:20 and 11:45 share 30 Nov's day bucket, 11:45 (the newer) stays; the current one takes no bucket.
    now = new Date('2026-12-02T12:00:00Z');
    await sweep.sweepOnce();
    assert.deepEqual((await all(p)).map((r) => r.id).sort(), [ids[0], ids[1], ids[3], ids[5], ids[6]]);
    assert.equal((await store.versions!.list(p, { offset: 0, limit: 1 })).current, ids[6]);
    await store.deleteFolder(StoredPath.fromValidSegments(['thin']), true); // the next test's count would apply to it too
  });

  test('max count, and the per-user cap across documents (each version at its record size)', async () => {
    const a = await writeMany('cap/a.pdf', 4, 'cap-user');
    const b = await writeMany('cap/b.pdf', 3, 'cap-user');
    const other = await writeMany('cap/other.pdf', 2, 'someone-else');
    const aIds = await dateRecords(a.p, ['2026-11-30T11:01:00Z', '2026-11-30T11:02:00Z', '2026-11-30T11:03:00Z', '2026-11-30T11:04:00Z']);
    const bIds = await dateRecords(b.p, ['2026-11-30T11:05:00Z', '2026-11-30T11:06:00Z', '2026-11-30T11:07:00Z']);
    await dateRecords(other.p, ['2026-11-30T11:00:00Z', '2026-11-30T11:08:00Z']); // one earlier version, under the cap alone
    const sizes = new Map((await Promise.all([a.p, b.p].map(all))).flat().map((r) => [r.id, r.size]));
    // The cap allows b's two earlier versions and not one byte more.
    const cap = sizes.get(bIds[0]!)! + sizes.get(bIds[1]!)!;
    const now = new Date('2026-11-30T11:30:00Z'); // all in the last hour: thinning keeps every one
    const report = await sweeper({ maxCount: 3, userBytes: cap }, () => now).sweepOnce();
    const counts = report!.tasks.versions as Record<string, number>;
    // Count: a's oldest goes (4 > 3). Cap: cap-user's non-current after that are a's 2nd and 3rd and b's 1st and 2nd:
    // the oldest go until the rest fit, a's 2nd and 3rd.
    assert.equal(counts.removed, 1);
    assert.equal(counts.removedByUserCap, 2);
    assert.deepEqual((await all(a.p)).map((r) => r.id).sort(), [aIds[3]]);
    assert.deepEqual((await all(b.p)).map((r) => r.id).sort(), bIds);
    assert.equal((await all(other.p)).length, 2, "another user's versions are not counted to this user");
  });
});

describe('the trash expiry task', () => {
  test('purges the entries deleted longer ago than the age, and only those, at the time the sweep applies', async () => {
    // A store of its own: the other tests' folders went to the trash of theirs.
    const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-trash-expiry-'));
    try {
      const own = new FilesystemStore(dir);
      await own.init();
      await own.recover();
      const trash = own.trash!;
      const write = async (doc: string) => {
        const p = StoredPath.fromValidSegments(doc.split('/'));
        await own.writeDocument(p, makePdf({ pages: 1, text: () => doc }), { conflict: 'overwrite', provenance: { by: 'u', operation: 'upload' } });
        return p;
      };
      const first = await write('expiry/first.pdf');
      const second = await write('expiry/second.pdf');
      const DAY = 24 * HOUR;
      await own.deleteDocument(first, undefined, 'u');
      const firstDeleted = Date.now();
      // The second is deleted "a day later": its entry's record is dated so, as the clock the sweep runs by is.
      await own.deleteDocument(second, undefined, 'u');
      const entryDirs = (await readdir(path.join(dir, 'trash'))).filter((n) => /^\d{16}-[0-9a-f]{8}$/.test(n)).sort();
      assert.equal(entryDirs.length, 2);
      const secondRecord = path.join(dir, 'trash', entryDirs[1]!, 'entry.json');
      const stored = JSON.parse(await readFile(secondRecord, 'utf8')) as { deleted: string };
      stored.deleted = new Date(firstDeleted + DAY).toISOString();
      await writeFile(secondRecord, JSON.stringify(stored));
      let now = new Date(firstDeleted + 29 * DAY);
      const sweep = new Sweeper({ tasks: [trashTask(trash, 30 * DAY)], lease: new LocalSweepLease(), intervalMs: HOUR, clock: () => now });
      const left = async () => (await trash.list({ deletedBy: 'u' }, { offset: 0, limit: 100 })).entries.map((e) => e.path.toString()).sort();
      assert.deepEqual((await sweep.sweepOnce())!.tasks.trash, { purged: 0 });
      assert.deepEqual(await left(), ['expiry/first.pdf', 'expiry/second.pdf'], 'both kept at 29 days');
      now = new Date(firstDeleted + 30 * DAY + HOUR);
      assert.deepEqual((await sweep.sweepOnce())!.tasks.trash, { purged: 1 });
      assert.deepEqual(await left(), ['expiry/second.pdf'], 'the first is past 30 days, the second is not');
      assert.equal((await readdir(path.join(dir, 'trash'))).filter((n) => !n.startsWith('.')).length, 1, "the first entry's folder is gone");
      now = new Date(firstDeleted + 31 * DAY + 2 * HOUR);
      assert.deepEqual((await sweep.sweepOnce())!.tasks.trash, { purged: 1 });
      assert.deepEqual(await left(), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
