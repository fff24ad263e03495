/**
 * The filesystem versions' index (src/storage/filesystem-versions.ts, `index.jsonl`): list() reads it alone when it is
 * current, and answers from the records whenever it is not: missing (versions from before it), behind its records (a
 * writer killed between its commit and its append), or naming a record that is gone. The next write under the lock,
 * or recover(), writes it anew from the records.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { StoredPath } from '../../src/storage/paths.js';
import { makePdf } from '../helpers/pdf.js';

let dataDir: string;
let store: FilesystemStore;
before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-versions-index-'));
  store = new FilesystemStore(dataDir);
  await store.init();
});
after(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const write = (p: StoredPath, i: number) => store.writeDocument(p, makePdf({ pages: 1, text: () => `${p.toString()} ${i}` }), { conflict: 'overwrite', provenance: { by: 'ann', operation: 'upload' } });
const ids = async (p: StoredPath) => (await store.versions!.list(p, { offset: 0, limit: 100 })).versions.map((v) => v.id);
const indexFile = (p: StoredPath) => path.join(dataDir, 'versions', ...p.segments, 'index.jsonl');
/** The ids the index itself names (what a list would show from it alone). */
async function indexed(p: StoredPath): Promise<string[]> {
  const live = new Map<string, true>();
  for (const line of (await readFile(indexFile(p), 'utf8')).split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { id?: string; removed?: string };
    if (entry.removed) live.delete(entry.removed);
    else live.set(entry.id!, true);
  }
  return [...live.keys()].sort().reverse();
}

test('a missing index: the list from the records, and the next write writes it whole', async () => {
  const p = StoredPath.fromValidSegments(['idx', 'missing.pdf']);
  for (let i = 0; i < 3; i++) await write(p, i);
  const before = await ids(p);
  assert.equal(before.length, 3);
  await unlink(indexFile(p));
  assert.deepEqual(await ids(p), before);
  await write(p, 3);
  const after = await ids(p);
  assert.equal(after.length, 4);
  assert.deepEqual(await indexed(p), after);
});

test('an index behind its records (the last append lost): the list is still whole; a write or recover() mends the index', async () => {
  const p = StoredPath.fromValidSegments(['idx', 'behind.pdf']);
  for (let i = 0; i < 3; i++) await write(p, i);
  const all = await ids(p);
  // As if the third write was killed after its commit and before its append.
  const lines = (await readFile(indexFile(p), 'utf8')).split('\n').filter(Boolean);
  await writeFile(indexFile(p), lines.slice(0, 2).join('\n') + '\n');
  assert.deepEqual(await ids(p), all, 'the list from the records: the index\'s newest is not the document');
  await store.recover();
  assert.deepEqual(await indexed(p), all);
  await writeFile(indexFile(p), lines.slice(0, 2).join('\n') + '\n');
  await write(p, 3);
  assert.deepEqual(await indexed(p), await ids(p));
  assert.equal((await ids(p)).length, 4);
});

test('removals leave the index first; a torn last line is skipped; recover() drops a record the index names but the records lack', async () => {
  const p = StoredPath.fromValidSegments(['idx', 'removed.pdf']);
  for (let i = 0; i < 4; i++) await write(p, i);
  const all = await ids(p);
  await store.versions!.remove(p, all[2]!);
  assert.deepEqual(await indexed(p), [all[0], all[1], all[3]]);
  // After a removal or an older record's update, the last line is the newest record's (what a write reads of it).
  const lastId = async () => (JSON.parse((await readFile(indexFile(p), 'utf8')).trim().split('\n').at(-1)!) as { id?: string }).id;
  assert.equal(await lastId(), all[0]);
  await store.versions!.update(p, all[3]!, { label: 'older' });
  assert.equal(await lastId(), all[0]);
  assert.equal((await store.versions!.list(p, { offset: 2, limit: 1 })).versions[0]?.label, 'older');
  assert.deepEqual(await ids(p), [all[0], all[1], all[3]]);
  // A torn append (cut short by a crash) at the end.
  await writeFile(indexFile(p), (await readFile(indexFile(p), 'utf8')) + '{"removed":"');
  assert.deepEqual(await ids(p), [all[0], all[1], all[3]]);
  // The index names a record whose file is gone (its line restored by hand): recover() writes it from the records.
  const lines = (await readFile(indexFile(p), 'utf8')).split('\n').filter((l) => !l.includes('"removed"'));
  await writeFile(indexFile(p), lines.join('\n') + '\n');
  await store.recover();
  assert.deepEqual(await indexed(p), [all[0], all[1], all[3]]);
  assert.deepEqual(await ids(p), [all[0], all[1], all[3]]);
});
