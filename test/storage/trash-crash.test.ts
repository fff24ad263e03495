/**
 * Crash safety of the filesystem store's trash (docs/versions.md, "Trash"): a process that writes a document, deletes
 * it into the trash and restores it, over and over, is killed with SIGKILL at chosen steps of a delete or a restore
 * (seen as they happen with fs.watch, no timing). After each kill, recover() must leave the document either at its
 * path or whole in one trash entry (never both, never half): with every version written before the kill, each opening
 * to the bytes its ETag names, the current content the newest; and no pending record, restore marker or leftover.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { type FSWatcher, mkdirSync, watch } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { etagOf } from '../../src/storage/store.js';

const dataDirs: string[] = [];
after(async () => {
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

const DOC = 'crash/doc.pdf';

/** The writer: recovers, restores what a kill left in the trash, then writes, deletes and restores until killed. */
function writerScript(dataDir: string): string {
  const url = (file: string) => JSON.stringify(new URL(`../../src/storage/${file}`, import.meta.url).href);
  return `
    const { randomBytes } = await import('node:crypto');
    const { FilesystemStore } = await import(${url('filesystem-store.js')});
    const { documentPathFromBody } = await import(${url('paths.js')});
    const { etagOf } = await import(${url('store.js')});
    const store = new FilesystemStore(${JSON.stringify(dataDir)});
    await store.init();
    await store.recover();
    const p = documentPathFromBody(${JSON.stringify(DOC)}, 'path');
    const locked = async (fn) => { const release = await store.lock(p); try { return await fn(); } finally { release(); } };
    for (let i = 0; ; i++) {
      const bytes = Buffer.concat([Buffer.from('%PDF-1.7 write ' + i + '\\n'), randomBytes(64 * 1024)]);
      console.log('writing ' + etagOf(bytes));
      await locked(() => store.writeDocument(p, bytes, { conflict: 'overwrite', provenance: { by: 'crash', operation: 'write' } }));
      console.log('wrote');
      await locked(() => store.deleteDocument(p, undefined, 'crash'));
      const { entries } = await store.trash.list({}, { offset: 0, limit: 10 });
      await locked(() => store.trash.restore(entries[0].id, p));
    }
  `;
}

/**
 * Where the kill lands: `pending`, when a delete's pending entry record appears; `versions`, when the versions folder
 * has been renamed into the entry; `item`, when the document is renamed into the entry (a delete's commit) or out of it
 * (a restore's); `restoring`, when a restore's marker appears.
 */
type KillPoint = 'pending' | 'versions' | 'item' | 'restoring';
const MARKS: Record<KillPoint, string> = { pending: 'entry.pending', versions: 'versions', item: 'item', restoring: 'restore.json' };

/** Runs the writer until it has written `writes` documents and then reached `point`, kills it; answers the ETags it started. */
async function runAndKill(dataDir: string, writes: number, point: KillPoint): Promise<string[]> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', writerScript(dataDir)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const started: string[] = [];
  let wrote = 0;
  // Only after `writes` whole writes, so that the document has versions to carry.
  let watcher: FSWatcher | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const dir = path.join(dataDir, 'trash');
      mkdirSync(dir, { recursive: true });
      watcher = watch(dir, { recursive: true }, (_event, name) => {
        if (wrote >= writes && name !== null && path.basename(name) === MARKS[point] && name.includes(path.sep)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        const m = /^writing (".*")$/.exec(line);
        if (m) started.push(m[1]!);
        else if (line === 'wrote') wrote++;
      });
      child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer ended (${code ?? signal}) before it was killed`))));
      child.once('error', reject);
    });
  } finally {
    watcher?.close();
    child.kill('SIGKILL');
    await exited;
  }
  return started;
}

/** Every version of the document opens to the bytes its ETag names, the newest is the current content; answers their ETags. */
async function checkVersions(store: FilesystemStore, p: StoredPath): Promise<string[]> {
  const { versions, total, current } = await store.versions!.list(p, { offset: 0, limit: 1000 });
  assert.equal(versions.length, total);
  assert.equal(current, versions[0]?.id, 'the newest version is the current content');
  for (const v of versions) {
    const opened = await store.versions!.open(p, v.id);
    try {
      assert.equal(etagOf(await opened.read()), v.etag, 'a version holds the whole bytes its ETag names');
    } finally {
      await opened.close();
    }
  }
  return versions.map((v) => v.etag);
}

test('SIGKILL while deleting into the trash or restoring from it: after recover() the document is at its path or whole in one entry', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-trash-crash-'));
  dataDirs.push(dataDir);
  const p = documentPathFromBody(DOC, 'path');
  /** ETags whose write was seen to end: each must be a version of the document from then on. */
  const written: string[] = [];
  const rounds: [number, KillPoint][] = [[1, 'pending'], [2, 'versions'], [2, 'item'], [3, 'restoring'], [1, 'item'], [3, 'pending'], [2, 'restoring'], [1, 'versions'], [4, 'item'], [2, 'item']];
  const seen = new Set<KillPoint>();
  let inTrash = 0;
  for (const [writes, point] of rounds) {
    const started = await runAndKill(dataDir, writes, point);
    // Every write but the last started ended before the next began (the last may have been killed before its rename).
    written.push(...started.slice(0, -1));
    seen.add(point);
    const store = new FilesystemStore(dataDir);
    await store.init();
    await store.recover();
    const trashDir = path.join(dataDir, 'trash');
    const names = await readdir(trashDir);
    assert.deepEqual(names.filter((n) => n.startsWith('.')), [], 'no entry on its way out is left');
    for (const n of names) {
      assert.deepEqual((await readdir(path.join(trashDir, n))).filter((f) => f === 'entry.pending' || f === 'restore.json'), [], 'no delete or restore is left in flight');
    }
    const { entries } = await store.trash!.list({}, { offset: 0, limit: 10 });
    const stat = await store.statDocument(p);
    assert.equal(entries.length + (stat ? 1 : 0), 1, 'the document is at its path or in one trash entry, not both and not lost');
    if (entries.length === 1) {
      inTrash++;
      assert.equal(entries[0]!.deletedBy, 'crash');
      // Restored after the crash: whole, with its versions.
      await store.trash!.restore(entries[0]!.id, p);
      assert.equal(entries[0]!.versionCount, (await store.versions!.list(p, { offset: 0, limit: 1000 })).total);
    }
    const etags = await checkVersions(store, p);
    const current = await store.statDocument(p);
    assert.ok(current && started.includes(current.etag), 'the document is a version written');
    for (const etag of written) assert.ok(etags.includes(etag), 'every version written is kept');
    assert.deepEqual((await readdir(path.join(dataDir, 'documents', 'crash'))).filter((n) => n !== 'doc.pdf'), [], 'nothing else beside the document');
  }
  assert.equal(seen.size, 4);
  assert.ok(inTrash > 0, 'some kills left the document in the trash');
});
