/**
 * Crash safety of the filesystem store's versions (docs/versions.md, "Crash safety"): a process writing a document
 * over and over (with deletes of versions and purges among the writes) is killed with SIGKILL in the middle of its
 * work, round after round; after each, recover() must leave the document as one of the versions written, and a version
 * list whose every entry opens to the bytes its ETag names, with the current content as its newest, and no pending
 * record, temporary file or unnamed blob left over. The kills land at chosen steps of a write (KillPoint), seen as
 * they happen, with no timing. Most writes append to the document's bytes (as an incremental save does), so their
 * versions are kept as prefixes of the next (filesystem-versions.ts, `p-` pointers): kills land in those steps too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, type FSWatcher, mkdirSync, readdirSync, statSync, watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { documentPathFromBody } from '../../src/storage/paths.js';
import { etagOf } from '../../src/storage/store.js';

const dataDirs: string[] = [];
after(async () => {
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

const DOC = 'crash/doc.pdf';

/**
 * A writer in its own process: recovers, then writes, deletes and purges versions until killed, saying what it starts.
 * Two writes in three append to the current bytes (a prefix kept as a pointer), the third is new bytes.
 */
function writerScript(dataDir: string): string {
  const storeUrl = new URL('../../src/storage/filesystem-store.js', import.meta.url).href;
  const pathsUrl = new URL('../../src/storage/paths.js', import.meta.url).href;
  return `
    const { randomBytes } = await import('node:crypto');
    const { FilesystemStore } = await import(${JSON.stringify(storeUrl)});
    const { documentPathFromBody } = await import(${JSON.stringify(pathsUrl)});
    const { etagOf } = await import(${JSON.stringify(new URL('../../src/storage/store.js', import.meta.url).href)});
    const store = new FilesystemStore(${JSON.stringify(dataDir)});
    await store.init();
    await store.recover();
    const p = documentPathFromBody(${JSON.stringify(DOC)}, 'path');
    let current;
    try {
      const opened = await store.openDocument(p);
      current = await opened.read();
      await opened.close();
    } catch {
      current = undefined;
    }
    for (let i = 0; ; i++) {
      const fresh = Buffer.concat([Buffer.from('%PDF-1.7 write ' + i + '\\n'), randomBytes(256 * 1024)]);
      const bytes = current && i % 3 !== 2 ? Buffer.concat([current, Buffer.from('% update ' + i + '\\n'), randomBytes(1024)]) : fresh;
      console.log('writing ' + etagOf(bytes));
      const release = await store.lock(p);
      try {
        await store.writeDocument(p, bytes, { conflict: 'overwrite', provenance: { by: 'crash', operation: 'write' }, purgeEarlierVersions: i % 7 === 6 });
        current = bytes;
        if (i % 5 === 4) {
          const { versions } = await store.versions.list(p, { offset: 0, limit: 100 });
          if (versions.length > 2) await store.versions.remove(p, versions.at(-1).id);
        }
      } finally {
        release();
      }
      console.log('wrote');
    }
  `;
}

/**
 * Where in a write the kill lands, without timing: `start`, as soon as a write is under way (while its bytes are
 * written and fsynced); `pending`, when its pending version record appears; `renamed`, when the document's rename has
 * happened (before the record is committed); `pointer`, when a prefix's pointer is written or renamed; `blob`, when a
 * blob is removed (the replaced one of a prefix, or a deleted version's). Each seen by the test as it happens (fs.watch), the writer going on.
 */
type KillPoint = 'start' | 'pending' | 'renamed' | 'pointer' | 'blob';

/** Runs the writer until it has started `writes` writes and then reached `point`, then kills it with SIGKILL; answers the ETags it started. */
async function runAndKill(dataDir: string, writes: number, point: KillPoint): Promise<string[]> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', writerScript(dataDir)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const started: string[] = [];
  const watchers: FSWatcher[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const kill = () => {
        child.kill('SIGKILL');
        resolve();
      };
      const armed = () => started.length >= writes;
      if (point === 'pending' || point === 'pointer' || point === 'blob') {
        // The data folder's whole versions/ (recursive): a document's own folder may be removed and made again by recover().
        const dir = path.join(dataDir, 'versions');
        mkdirSync(dir, { recursive: true });
        const seen = (name: string) => {
          if (point === 'pending') return name.endsWith('.pending');
          if (point === 'pointer') return path.basename(name).startsWith('p-');
          return path.basename(name).startsWith('b-') && !existsSync(path.join(dir, name));
        };
        watchers.push(watch(dir, { recursive: true }, (_event, name) => {
          if (armed() && name !== null && seen(name)) kill();
        }));
      } else if (point === 'renamed') {
        const dir = path.join(dataDir, 'documents');
        mkdirSync(dir, { recursive: true });
        // Any event naming the document is its rename: it is never written in place (Node's recursive watcher on
        // Linux reports a replacing rename as "change").
        watchers.push(watch(dir, { recursive: true }, (_event, name) => {
          if (armed() && name === path.join('crash', 'doc.pdf')) kill();
        }));
      }
      // Node's recursive watcher on Linux can lose a folder that is removed and made again (a purge, recover()) when the
      // machine is loaded: the writer then ran on unkilled and the test hung. A look at the same facts every 5 ms backs it
      // up; a kill it makes lands a step or two later, which is as good a crash point.
      const docVersions = path.join(dataDir, 'versions', ...DOC.split('/'));
      const docFile = path.join(dataDir, 'documents', ...DOC.split('/'));
      const names = () => new Set(readdirSync(docVersions));
      const inode = () => { try { return statSync(docFile).ino; } catch { return undefined; } };
      let lastNames: Set<string> | undefined;
      let lastInode: number | undefined;
      const poll = setInterval(() => {
        if (point === 'start') return;
        let now: Set<string>;
        try { now = names(); } catch { now = new Set(); }
        const ino = inode();
        if (armed() && lastNames !== undefined) {
          const added = [...now].filter((n) => !lastNames!.has(n));
          const removed = [...lastNames].filter((n) => !now.has(n));
          const hit =
            point === 'pending' ? [...now].some((n) => n.endsWith('.pending')) :
            point === 'pointer' ? added.some((n) => n.startsWith('p-')) :
            point === 'blob' ? removed.some((n) => n.startsWith('b-')) :
            ino !== undefined && ino !== lastInode;
          if (hit) kill();
        }
        lastNames = now;
        lastInode = ino;
      }, 5);
      child.once('exit', () => clearInterval(poll));
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        const m = /^writing (".*")$/.exec(line);
        if (!m) return;
        started.push(m[1]!);
        if (point === 'start' && armed()) kill();
      });
      child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer ended (${code ?? signal}) before it was killed`))));
      child.once('error', reject);
    });
  } finally {
    for (const w of watchers) w.close();
    child.kill('SIGKILL');
    await exited;
  }
  return started;
}

test('SIGKILL while writing: after recover() the document is a written version and the version list names only whole versions', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-versions-crash-'));
  dataDirs.push(dataDir);
  const p = documentPathFromBody(DOC, 'path');
  const everStarted: string[] = [];
  // Kills after different numbers of writes, so that they land at different steps of a write.
  const rounds: [number, KillPoint][] = [
    [1, 'start'], [2, 'pending'], [3, 'renamed'], [5, 'start'], [4, 'renamed'], [6, 'pending'], [8, 'renamed'], [7, 'start'], [9, 'renamed'], [5, 'pending'],
    [2, 'pointer'], [3, 'blob'], [4, 'pointer'], [5, 'blob'], [7, 'pointer'], [6, 'blob'], [9, 'pointer'], [8, 'blob'],
  ];
  let prefixes = 0;
  for (const [writes, point] of rounds) {
    everStarted.push(...(await runAndKill(dataDir, writes, point)));
    const dir = path.join(dataDir, 'versions', ...p.segments);
    // The committed records before recover(): it keeps every one (a purge left unfinished aside, which it finishes).
    const before = await readdir(dir).catch(() => [] as string[]);
    const committed = before.some((n) => n.endsWith('.purge')) ? [] : before.filter((n) => /^v-\d+\.json$/.test(n));
    const store = new FilesystemStore(dataDir);
    await store.init();
    await store.recover();
    const stat = await store.statDocument(p);
    if (!stat) {
      // Only possible when the very first write of all was killed before its rename.
      assert.equal(everStarted.length, 1);
      continue;
    }
    assert.ok(everStarted.includes(stat.etag), 'the document is one of the versions written');
    const { versions, total, current } = await store.versions!.list(p, { offset: 0, limit: 1000 });
    assert.equal(versions.length, total);
    assert.ok(total >= 1);
    assert.equal(current, versions[0]!.id, 'the newest version is the current content');
    for (const v of versions) {
      assert.ok(everStarted.includes(v.etag), 'every version is one that was written');
      const opened = await store.versions!.open(p, v.id);
      try {
        const bytes = await opened.read();
        assert.equal(etagOf(bytes), v.etag, 'a version holds the whole bytes its ETag names');
        assert.equal(bytes.length, v.size);
      } finally {
        await opened.close();
      }
    }
    const names = await readdir(dir);
    assert.deepEqual(committed.filter((n) => !names.includes(n)), [], 'every committed version is kept, with its bytes');
    assert.deepEqual(names.filter((n) => n.endsWith('.pending') || n.startsWith('.tmp-')), [], 'no pending record or temporary file is left');
    // Every version's bytes are its blob, or the one its pointer names (one step: recover() shortens longer chains);
    // every blob and pointer is on a version's way to its bytes.
    const named = new Set<string>();
    for (const n of names.filter((x) => /^v-\d+\.json$/.test(x))) {
      const tag = (JSON.parse(await readFile(path.join(dir, n), 'utf8')) as { etag: string }).etag.replace(/"/g, '');
      if (names.includes(`b-${tag}`)) {
        named.add(`b-${tag}`);
        continue;
      }
      const pointer = names.find((x) => x.startsWith(`p-${tag}-`));
      assert.ok(pointer !== undefined, 'a version without its blob has a pointer');
      const into = `b-${pointer.slice(`p-${tag}-`.length)}`;
      assert.ok(names.includes(into), 'a pointer names a blob');
      named.add(pointer).add(into);
      prefixes++;
    }
    assert.deepEqual(names.filter((n) => n.startsWith('b-') || n.startsWith('p-')).sort(), [...named].sort(), 'every blob and pointer is a version\'s, and every version has its bytes');
    assert.deepEqual((await readdir(path.join(dataDir, 'documents', 'crash'))).filter((n) => n !== 'doc.pdf'), [], 'no temporary file beside the document');
  }
  assert.ok(prefixes > 0, 'some versions were kept as prefixes');
});

test('a purging write that stops after its rename, before its purge ends: recover() finishes the purge', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-versions-purge-'));
  dataDirs.push(dataDir);
  const p = documentPathFromBody(DOC, 'path');
  const store = new FilesystemStore(dataDir);
  await store.init();
  const write = (text: string, purge: boolean) => store.writeDocument(p, Buffer.from(`%PDF-1.7 ${text}\n`), { conflict: 'overwrite', provenance: { by: 'crash', operation: 'write' }, purgeEarlierVersions: purge });
  await write('secret one', false);
  await write('secret two', false);
  // The process "dies" where the purge starts: the redacted bytes are the document, the earlier versions still there.
  const versions = store.versions!;
  const purge = versions.purgeEarlier.bind(versions);
  versions.purgeEarlier = () => Promise.reject(new Error('killed'));
  await assert.rejects(write('redacted', true), /killed/);
  versions.purgeEarlier = purge;
  assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 3, 'the earlier versions are still listed before recover()');

  const restarted = new FilesystemStore(dataDir);
  await restarted.init();
  await restarted.recover();
  const after = await restarted.versions!.list(p, { offset: 0, limit: 10 });
  assert.equal(after.total, 1);
  assert.equal(after.versions[0]!.etag, etagOf(Buffer.from('%PDF-1.7 redacted\n')));
  // No file of the versions folder holds the earlier bytes, and no marker is left.
  const dir = path.join(dataDir, 'versions', 'crash', 'doc.pdf');
  for (const name of await readdir(dir)) {
    assert.doesNotMatch(name, /\.purge$/);
    assert.doesNotMatch(await readFile(path.join(dir, name), 'latin1'), /secret/);
  }
});

test('a reader while a write is between its two renames (the document, then its record) sees the new version as the current one; before them, the old', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-versions-reader-'));
  dataDirs.push(dataDir);
  const p = documentPathFromBody(DOC, 'path');
  const store = new FilesystemStore(dataDir);
  await store.init();
  const versions = store.versions!;
  const bytes = (text: string) => Buffer.from(`%PDF-1.7 ${text}\n`);
  const write = (text: string) => store.writeDocument(p, bytes(text), { conflict: 'overwrite', provenance: { by: 'reader', operation: 'write' } });
  const first = (await write('one')).version!;
  // The writer stops where it is told: after its pending record is written (before the document's rename), or after
  // that rename (before the record's commit); the reads below run there, in the same process.
  const gate = () => {
    let open!: () => void;
    let reached!: () => void;
    return { opened: new Promise<void>((r) => (open = r)), arrived: new Promise<void>((r) => (reached = r)), open: () => open(), reached: () => reached() };
  };
  const beforeRename = gate();
  const beforeCommit = gate();
  const prepare = versions.prepare.bind(versions);
  versions.prepare = async (...args) => {
    const pending = await prepare(...args);
    beforeRename.reached();
    await beforeRename.opened;
    return {
      record: pending.record,
      abort: () => pending.abort(),
      commit: async () => {
        beforeCommit.reached();
        await beforeCommit.opened;
        await pending.commit();
      },
    };
  };
  const writing = write('two');

  await beforeRename.arrived;
  const early = await versions.list(p, { offset: 0, limit: 10 });
  assert.deepEqual(early.versions.map((v) => v.id), [first.id], 'a write before its rename is not listed');
  assert.equal(early.current, first.id);

  beforeRename.open();
  await beforeCommit.arrived;
  const between = await versions.list(p, { offset: 0, limit: 10 });
  assert.equal(between.total, 2, 'the document is the new bytes: their version is listed');
  assert.equal(between.current, between.versions[0]!.id, 'and it is the current one');
  assert.equal(between.versions[0]!.etag, etagOf(bytes('two')));
  const opened = await versions.open(p, between.current!);
  assert.deepEqual(await opened.read(), bytes('two'));
  await opened.close();
  assert.equal((await versions.get(p, between.current!)).etag, etagOf(bytes('two')));

  beforeCommit.open();
  await writing;
  versions.prepare = prepare;
  const after = await versions.list(p, { offset: 0, limit: 10 });
  assert.deepEqual(after.versions.map((v) => v.id), between.versions.map((v) => v.id), 'the same versions once committed');
  assert.equal(after.current, between.current);
});
