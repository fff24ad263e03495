/**
 * The DocumentStore contract: one suite that every store implementation must
 * pass (docs/architecture.md, "The store contract"). A store's test file calls
 * storeContract() with a factory; the rules are the interface's
 * (src/storage/store.ts) and what the operations above it rely on.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { buffer as readStream } from 'node:stream/consumers';
import { describe } from 'node:test';
import { ServiceError, type ErrorCode } from '../../src/errors.js';
import { documentPathFromBody, folderPathFromUrl, type StoredPath } from '../../src/storage/paths.js';
import { etagOf, type DocumentStore, type DocumentTrash, type DocumentVersions, type StagedUpload } from '../../src/storage/store.js';
import { freshEach } from './fresh.js';

export interface StoreUnderTest {
  store: DocumentStore;
  /** A new store over the same stored data, as after a restart (the caller runs recover()). */
  reopen(): Promise<DocumentStore>;
  /** How many leftovers the backend holds: staged uploads not committed or discarded, temporary files of writes. */
  leftovers(): Promise<number>;
  /** Leaves in `folder` what a write interrupted by a crash leaves, for stores that can have such a thing. */
  interruptWrite?(folder: StoredPath): Promise<void>;
  /** The bytes a document's versions take on the backend, each stored object once (for stores that keep versions). */
  versionBytes?(p: StoredPath): Promise<number>;
  close(): Promise<void>;
}

const doc = (p: string) => documentPathFromBody(p, 'path');
const folder = (p: string) => folderPathFromUrl(p);
/** Distinct content each call: enough bytes that a torn read could not pass for a whole one. */
const content = (label: string) => Buffer.concat([Buffer.from(`%PDF-1.7 ${label}\n`), randomBytes(64 * 1024)]);

async function rejectsWith(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ServiceError, `expected ServiceError ${code}, got ${String(err)}`);
    assert.equal(err.code, code);
    return true;
  });
}

/** The bytes and tag of a stored document, read the way the operations read it. */
async function readDoc(store: DocumentStore, p: StoredPath): Promise<{ bytes: Buffer; etag: string }> {
  const opened = await store.openDocument(p);
  try {
    return { bytes: await opened.read(), etag: opened.stat.etag };
  } finally {
    await opened.close();
  }
}

async function assertStored(store: DocumentStore, p: StoredPath, bytes: Buffer, why: string): Promise<void> {
  const stored = await readDoc(store, p);
  assert.ok(stored.bytes.equals(bytes), `${why}: the stored bytes`);
  assert.equal(stored.etag, etagOf(bytes), `${why}: the ETag`);
  assert.equal((await store.statDocument(p))?.etag, etagOf(bytes), `${why}: statDocument's ETag`);
}

const stageBytes = (store: DocumentStore, bytes: Buffer, limit = 1 << 30) => store.stage(Readable.from([bytes]), limit);

/** Lets every callback that is ready run: a lock that is free would have been granted by then. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

export function storeContract(name: string, factory: () => Promise<StoreUnderTest>): void {
  /** Runs `body` against a fresh, empty store. */
  const withStore = freshEach(factory);

  describe(`DocumentStore contract: ${name}`, () => {
    describe('documents and ETags', () => {
      withStore('a written document reads back whole through stat, read, stream and a range', async ({ store }) => {
        const bytes = content('read back');
        const p = doc('a/b.pdf');
        const written = await store.writeDocument(p, bytes, { conflict: 'fail' });
        assert.equal(written.path.toString(), 'a/b.pdf');
        assert.equal(written.created, true);
        assert.equal(written.stat.size, bytes.length);
        assert.match(written.stat.etag, /^"[^"]+"$/, 'a strong, quoted tag');
        assert.ok(written.stat.modified instanceof Date);
        const stat = await store.statDocument(p);
        assert.deepEqual({ size: stat?.size, etag: stat?.etag }, { size: bytes.length, etag: written.stat.etag });

        const opened = await store.openDocument(p);
        assert.equal(opened.size, bytes.length);
        assert.equal(opened.stat.etag, written.stat.etag);
        assert.ok((await opened.read()).equals(bytes));
        if (opened.fd !== undefined) {
          // A descriptor handed out must hold this content (the engine's workers read large documents through it).
          const viaFd = Buffer.alloc(bytes.length);
          assert.equal(readSync(opened.fd, viaFd, 0, bytes.length, 0), bytes.length);
          assert.ok(viaFd.equals(bytes), 'the bytes behind fd');
        }
        assert.ok((await readStream(opened.stream({ start: 10, end: 99 }))).equals(bytes.subarray(10, 100)), 'a range with an inclusive end');
        const again = await store.openDocument(p);
        assert.ok((await readStream(again.stream())).equals(bytes), 'the whole stream');
      });

      withStore('the ETag is the content hash: equal for equal bytes wherever they are, different otherwise, and the same after a restart', async (s) => {
        const bytes = content('tag');
        const first = await s.store.writeDocument(doc('one.pdf'), bytes, { conflict: 'fail' });
        const second = await s.store.writeDocument(doc('f/two.pdf'), bytes, { conflict: 'fail' });
        const other = await s.store.writeDocument(doc('three.pdf'), content('other'), { conflict: 'fail' });
        assert.equal(first.stat.etag, etagOf(bytes), 'derived from the content as etagOf derives it');
        assert.equal(second.stat.etag, first.stat.etag);
        assert.notEqual(other.stat.etag, first.stat.etag);
        const rewritten = await s.store.writeDocument(doc('one.pdf'), Buffer.from(bytes), { conflict: 'overwrite' });
        assert.equal(rewritten.stat.etag, first.stat.etag, 'rewriting the same bytes keeps the tag');
        const reopened = await s.reopen();
        await reopened.recover();
        await assertStored(reopened, doc('one.pdf'), bytes, 'after a restart');
      });

      withStore('read() hands out a buffer of its own: changing or transferring it leaves the document as it was', async ({ store }) => {
        const bytes = content('own buffer');
        const input = Buffer.from(bytes);
        const p = doc('own.pdf');
        await store.writeDocument(p, input, { conflict: 'fail' });
        input.fill(0);
        const opened = await store.openDocument(p);
        const first = await opened.read();
        await opened.close();
        // The engine pool moves a buffer that owns its whole memory to a worker instead of copying it.
        assert.equal(first.byteLength, first.buffer.byteLength, 'the buffer owns its memory');
        structuredClone(first.buffer, { transfer: [first.buffer] });
        assert.equal(first.byteLength, 0, 'transferred');
        await assertStored(store, p, bytes, 'after the writer changed its buffer and a reader gave its away');
      });

      withStore('a missing document: no stat, and 404 DOCUMENT_NOT_FOUND to open or delete', async ({ store }) => {
        assert.equal(await store.statDocument(doc('none.pdf')), null);
        await rejectsWith(store.openDocument(doc('none.pdf')), 'DOCUMENT_NOT_FOUND');
        await rejectsWith(store.deleteDocument(doc('no/none.pdf')), 'DOCUMENT_NOT_FOUND');
      });

      withStore('delete removes the document; a stale If-Match refuses (412) and keeps it', async ({ store }) => {
        const bytes = content('delete');
        const p = doc('d/x.pdf');
        const { stat } = await store.writeDocument(p, bytes, { conflict: 'fail' });
        await rejectsWith(store.deleteDocument(p, '"stale"'), 'PRECONDITION_FAILED');
        await assertStored(store, p, bytes, 'after a refused delete');
        await store.deleteDocument(p, stat.etag);
        assert.equal(await store.statDocument(p), null);
        assert.deepEqual(await store.listFolder(folder('d')), []);
      });
    });

    describe('atomic replace', () => {
      withStore('overwrite replaces the document; a reader that opened it before keeps reading the old version', async ({ store }) => {
        const oldBytes = content('old');
        const newBytes = content('new');
        const p = doc('r.pdf');
        await store.writeDocument(p, oldBytes, { conflict: 'fail' });
        const before = await store.openDocument(p);
        const replaced = await store.writeDocument(p, newBytes, { conflict: 'overwrite' });
        assert.equal(replaced.created, false);
        assert.ok((await before.read()).equals(oldBytes), 'the version opened');
        assert.equal(before.stat.etag, etagOf(oldBytes));
        await before.close();
        await assertStored(store, p, newBytes, 'after the replace');
      });

      withStore('a failed write leaves the old bytes and no leftovers', async (s) => {
        const { store } = s;
        const bytes = content('kept');
        const p = doc('k/kept.pdf');
        await store.writeDocument(p, bytes, { conflict: 'fail' });
        await rejectsWith(store.writeDocument(p, content('stale tag'), { conflict: 'overwrite', ifMatch: '"stale"' }), 'PRECONDITION_FAILED');
        await rejectsWith(store.writeDocument(p, content('taken'), { conflict: 'fail' }), 'ALREADY_EXISTS');
        const foreign: StagedUpload = {
          size: 3,
          etag: etagOf(Buffer.from('abc')),
          read: async () => Buffer.from('abc'),
          open: () => Promise.reject(new Error('not used')),
          discard: async () => {},
        };
        await assert.rejects(store.writeDocument(p, foreign, { conflict: 'overwrite' }), 'a staged upload from elsewhere is refused');
        const staged = await stageBytes(store, content('staged, stale'));
        await rejectsWith(store.writeDocument(p, staged, { conflict: 'overwrite', ifMatch: '"stale"' }), 'PRECONDITION_FAILED');
        await staged.discard(); // as the routes do when the request ends
        await assertStored(store, p, bytes, 'after four failed writes');
        // A refused write into a folder that does not exist leaves no folder behind either.
        await rejectsWith(store.writeDocument(doc('new/x.pdf'), content('new'), { conflict: 'overwrite', ifMatch: '*' }), 'PRECONDITION_FAILED');
        await assert.rejects(store.writeDocument(doc('new/y.pdf'), foreign, { conflict: 'fail' }));
        assert.equal(await store.statFolder(folder('new')), null, 'no folder made by refused writes');
        assert.equal(await s.leftovers(), 0);
      });

      withStore('while writers replace a document, every reader sees one whole version whose tag matches its bytes', async ({ store }) => {
        const p = doc('busy.pdf');
        const versions = Array.from({ length: 8 }, (_, i) => content(`version ${i}`));
        await store.writeDocument(p, versions[0]!, { conflict: 'fail' });
        const known = new Set(versions.map((v) => etagOf(v)));
        const reads = Array.from({ length: 24 }, () => readDoc(store, p));
        const writes = versions.map((v) => store.writeDocument(p, v, { conflict: 'overwrite' }));
        await Promise.all(writes);
        for (const { bytes, etag } of await Promise.all(reads)) {
          assert.equal(etagOf(bytes), etag, 'the bytes are the version the tag names');
          assert.ok(known.has(etag), 'one of the written versions');
        }
        assert.ok(known.has(etagOf((await readDoc(store, p)).bytes)));
      });
    });

    describe('create-if-absent, unique names and If-Match', () => {
      withStore('`fail` creates once and refuses an existing document with 409 ALREADY_EXISTS', async ({ store }) => {
        const p = doc('once.pdf');
        assert.equal((await store.writeDocument(p, content('first'), { conflict: 'fail' })).created, true);
        await assert.rejects(store.writeDocument(p, content('second'), { conflict: 'fail' }), (err: unknown) => err instanceof ServiceError && err.code === 'ALREADY_EXISTS' && err.status === 409);
      });

      withStore('of concurrent `fail` writes to one absent path exactly one wins, and its bytes are stored', async ({ store }) => {
        const p = doc('race/once.pdf');
        const candidates = Array.from({ length: 6 }, (_, i) => content(`racer ${i}`));
        const results = await Promise.allSettled(candidates.map((c) => store.writeDocument(p, c, { conflict: 'fail' })));
        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
        assert.equal(won.length, 1, 'one winner');
        for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as ServiceError).code, 'ALREADY_EXISTS');
        await assertStored(store, p, candidates[won[0]!]!, 'the winner');
      });

      withStore('`unique` keeps the name when free, else stores beside it under a new name, never replacing', async ({ store }) => {
        const original = content('original');
        const p = doc('u/report.pdf');
        const first = await store.writeDocument(p, original, { conflict: 'unique' });
        assert.equal(first.path.toString(), 'u/report.pdf');
        const others = Array.from({ length: 4 }, (_, i) => content(`copy ${i}`));
        const written = await Promise.all(others.map((c) => store.writeDocument(p, c, { conflict: 'unique' })));
        const names = written.map((w) => w.path.toString());
        assert.equal(new Set(names).size, others.length, 'each on its own path');
        for (const [i, w] of written.entries()) {
          assert.match(w.path.toString(), /^u\/report-\d{6}\.pdf$/);
          assert.equal(w.created, true);
          await assertStored(store, w.path, others[i]!, w.path.toString());
        }
        await assertStored(store, p, original, 'the original');
      });

      withStore('If-Match: "*" needs a document, a list matches any of its tags, a stale one refuses; none creates', async ({ store }) => {
        const p = doc('m.pdf');
        await rejectsWith(store.writeDocument(p, content('absent'), { conflict: 'overwrite', ifMatch: '*' }), 'PRECONDITION_FAILED');
        assert.equal(await store.statDocument(p), null, 'nothing created');
        const v1 = content('v1');
        await store.writeDocument(p, v1, { conflict: 'fail' });
        const v2 = content('v2');
        await store.writeDocument(p, v2, { conflict: 'overwrite', ifMatch: '*' });
        const v3 = content('v3');
        await rejectsWith(store.writeDocument(p, v3, { conflict: 'overwrite', ifMatch: etagOf(v1) }), 'PRECONDITION_FAILED');
        await store.writeDocument(p, v3, { conflict: 'overwrite', ifMatch: `"other", ${etagOf(v2)}` });
        await assertStored(store, p, v3, 'after the matching write');
      });
    });

    describe('write records (the seam of versions)', () => {
      withStore('each write records who, which operation and the ETag it replaced (null when it created the document)', async ({ store }) => {
        const p = doc('rec/a.pdf');
        const by = { by: 'alice', operation: 'upload' };
        const v1 = content('v1');
        const created = await store.writeDocument(p, v1, { conflict: 'fail', provenance: by });
        assert.deepEqual(created.record, { by: 'alice', operation: 'upload', replaced: null }, 'a created document replaced nothing');
        const v2 = content('v2');
        const edit = { by: 'bob', operation: 'setFieldValue' };
        const inPlace = await store.writeDocument(p, v2, { conflict: 'overwrite', ifMatch: etagOf(v1), provenance: edit });
        assert.deepEqual(inPlace.record, { by: 'bob', operation: 'setFieldValue', replaced: etagOf(v1) }, 'an in-place change replaced the version it matched');
        const v3 = content('v3');
        const overwrite = await store.writeDocument(p, v3, { conflict: 'overwrite', provenance: { by: null, operation: 'StampAction' } });
        assert.deepEqual(overwrite.record, { by: null, operation: 'StampAction', replaced: etagOf(v2) }, 'an overwrite without If-Match also names what it replaced');
        const beside = await store.writeDocument(p, content('beside'), { conflict: 'unique', provenance: by });
        assert.equal(beside.record.replaced, null, 'a write stored under a new name replaced nothing');
        const unnamed = await store.writeDocument(doc('rec/b.pdf'), content('b'), { conflict: 'fail' });
        assert.deepEqual(unnamed.record, { by: null, operation: 'write', replaced: null }, 'a write that names no provenance is the service\'s own');
        // A refused write records nothing, and changes nothing.
        await rejectsWith(store.writeDocument(p, content('refused'), { conflict: 'overwrite', ifMatch: etagOf(v1), provenance: edit }), 'PRECONDITION_FAILED');
        await assertStored(store, p, v3, 'after the refused write');
      });
    });

    describe('versions (stores that keep them: DocumentVersions)', () => {
      /** The body, for a store that keeps versions; nothing to check for one that keeps none. */
      const withVersions = (title: string, body: (s: StoreUnderTest, versions: DocumentVersions) => Promise<void>) =>
        withStore(title, async (s) => {
          if (s.store.versions) await body(s, s.store.versions);
        });
      const bytesOf = async (versions: DocumentVersions, p: StoredPath, id: string) => {
        const opened = await versions.open(p, id);
        try {
          return { bytes: await opened.read(), etag: opened.stat.etag };
        } finally {
          await opened.close();
        }
      };

      withVersions('every write keeps a version with its bytes and provenance, newest first; the newest is current', async ({ store }, versions) => {
        const p = doc('ver/a.pdf');
        const written = [content('v1'), content('v2'), content('v3')];
        const ops = ['upload', 'StampAction', 'setFieldValue'];
        await store.writeDocument(p, written[0]!, { conflict: 'fail', provenance: { by: 'alice', operation: ops[0]!, requestId: 'req-1', pageCount: 3 } });
        await store.writeDocument(p, written[1]!, { conflict: 'overwrite', ifMatch: etagOf(written[0]!), provenance: { by: 'bob', operation: ops[1]!, jobId: 'job-1' } });
        const last = await store.writeDocument(p, await stageBytes(store, written[2]!), { conflict: 'overwrite', provenance: { by: null, operation: ops[2]! } });
        assert.equal(last.version?.etag, etagOf(written[2]!), 'the write answers the version it kept');
        const { versions: listed, total, current } = await versions.list(p, { offset: 0, limit: 10 });
        assert.equal(total, 3);
        assert.equal(current, listed[0]!.id);
        assert.equal(last.version?.id, current);
        assert.deepEqual(listed.map((v) => v.operation), [...ops].reverse());
        assert.deepEqual(listed.map((v) => v.by), [null, 'bob', 'alice']);
        assert.equal(listed[2]!.requestId, 'req-1');
        assert.equal(listed[2]!.pageCount, 3);
        assert.equal(listed[1]!.jobId, 'job-1');
        assert.equal(listed[0]!.pageCount, null);
        for (const [i, v] of [...listed].reverse().entries()) {
          const kept = await bytesOf(versions, p, v.id);
          assert.ok(kept.bytes.equals(written[i]!), `version ${i}: its bytes`);
          assert.equal(kept.etag, etagOf(written[i]!));
          assert.equal(v.size, written[i]!.length);
        }
        assert.deepEqual((await versions.list(p, { offset: 1, limit: 1 })).versions.map((v) => v.id), [listed[1]!.id]);
        // Versions are no documents: never listed, never reached through a path.
        assert.deepEqual((await store.listFolder(folder('ver'))).map((e) => e.name), ['a.pdf']);
        await assertStored(store, p, written[2]!, 'the current document');
      });

      withVersions('a refused write keeps no version; a unique name keeps its own history', async ({ store }, versions) => {
        const p = doc('ver/b.pdf');
        const v1 = content('b1');
        await store.writeDocument(p, v1, { conflict: 'fail' });
        await rejectsWith(store.writeDocument(p, content('stale'), { conflict: 'overwrite', ifMatch: '"stale"' }), 'PRECONDITION_FAILED');
        await rejectsWith(store.writeDocument(p, content('taken'), { conflict: 'fail' }), 'ALREADY_EXISTS');
        assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 1);
        const beside = await store.writeDocument(p, content('beside'), { conflict: 'unique' });
        assert.notEqual(beside.path.toString(), p.toString());
        assert.equal((await versions.list(beside.path, { offset: 0, limit: 10 })).total, 1);
        assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 1);
      });

      withVersions('a store that restores a version itself (DocumentVersions.restore): If-Match on the current version, a new version with the kept bytes, VERSION_NOT_FOUND', async ({ store }, versions) => {
        if (!versions.restore) return;
        const p = doc('ver/r.pdf');
        const v1 = content('r1');
        const v2 = Buffer.concat([v1, Buffer.from('% appended r2\n')]);
        const v3 = content('r3');
        await store.writeDocument(p, v1, { conflict: 'fail', provenance: { by: 'alice', operation: 'upload', pageCount: 1 } });
        await store.writeDocument(p, v2, { conflict: 'overwrite' });
        await store.writeDocument(p, v3, { conflict: 'overwrite' });
        const listed = (await versions.list(p, { offset: 0, limit: 10 })).versions;
        const idOf = (bytes: Buffer) => listed.find((v) => v.etag === etagOf(bytes))!.id;
        await rejectsWith(versions.restore(p, idOf(v1), { conflict: 'overwrite', ifMatch: etagOf(v2) }), 'PRECONDITION_FAILED');
        await rejectsWith(versions.restore(p, '9999999999999999', { conflict: 'overwrite' }), 'VERSION_NOT_FOUND');
        for (const bytes of [v1, v2, v2]) {
          const written = await versions.restore(p, idOf(bytes), { conflict: 'overwrite', ifMatch: (await store.statDocument(p))!.etag, provenance: { by: 'bob', operation: 'restore' } });
          assert.equal(written.stat.etag, etagOf(bytes));
          await assertStored(store, p, bytes, 'the restored version is the document');
        }
        const after = await versions.list(p, { offset: 0, limit: 10 });
        assert.deepEqual(after.versions.map((v) => [v.operation, v.etag]), [['restore', etagOf(v2)], ['restore', etagOf(v2)], ['restore', etagOf(v1)], ['write', etagOf(v3)], ['write', etagOf(v2)], ['upload', etagOf(v1)]]);
        assert.equal(after.versions[2]!.pageCount, 1, 'the kept version\'s page count');
        for (const v of after.versions) assert.equal(etagOf((await bytesOf(versions, p, v.id)).bytes), v.etag, `version ${v.id} holds its bytes`);
      });

      withVersions('label, pin, delete one (not the current one), purge the earlier ones; unknown ids are VERSION_NOT_FOUND', async ({ store }, versions) => {
        const p = doc('ver/c.pdf');
        const v1 = content('c1');
        await store.writeDocument(p, v1, { conflict: 'fail' });
        await store.writeDocument(p, content('c2'), { conflict: 'overwrite' });
        await store.writeDocument(p, v1, { conflict: 'overwrite' }); // the same bytes as the first: one blob for both
        await store.writeDocument(p, content('c4'), { conflict: 'overwrite' });
        const { versions: listed } = await versions.list(p, { offset: 0, limit: 10 });
        assert.equal(listed.length, 4);
        const labelled = await versions.update(p, listed[3]!.id, { label: 'first', pinned: true });
        assert.equal(labelled.label, 'first');
        assert.equal((await versions.get(p, listed[3]!.id)).pinned, true);
        await rejectsWith(versions.remove(p, listed[0]!.id), 'VERSION_IS_CURRENT');
        await versions.remove(p, listed[3]!.id);
        await rejectsWith(versions.get(p, listed[3]!.id), 'VERSION_NOT_FOUND');
        assert.ok((await bytesOf(versions, p, listed[1]!.id)).bytes.equals(v1), 'equal bytes kept by another version survive a delete');
        await rejectsWith(versions.open(p, 'no-such-id'), 'VERSION_NOT_FOUND');
        assert.equal(await versions.purgeEarlier(p), 2);
        const left = await versions.list(p, { offset: 0, limit: 10 });
        assert.deepEqual(left.versions.map((v) => v.id), [listed[0]!.id]);
        assert.equal(left.current, listed[0]!.id);
        const purged = await store.writeDocument(p, content('c5'), { conflict: 'overwrite', purgeEarlierVersions: true });
        assert.equal(purged.purgedVersions, 1);
        assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 1);
      });

      /** `bytes` and an appended update of `n` bytes: the next version of an incremental save. */
      const appended = (bytes: Buffer, n = 512) => Buffer.concat([bytes, Buffer.from('\n% update\n'), randomBytes(n)]);
      const assertVersions = async (versions: DocumentVersions, p: StoredPath, expected: Buffer[], what: string) => {
        const { versions: listed } = await versions.list(p, { offset: 0, limit: 100 });
        assert.equal(listed.length, expected.length, what);
        for (const [i, v] of [...listed].reverse().entries()) {
          const kept = await bytesOf(versions, p, v.id);
          assert.ok(kept.bytes.equals(expected[i]!), `${what}: version ${i}, its bytes`);
          assert.equal(etagOf(kept.bytes), v.etag, `${what}: version ${i} hashes to its ETag`);
          assert.equal(kept.etag, v.etag);
        }
        return listed;
      };

      withVersions('writes that append to the current bytes keep every version exact, for the room of the longest (prefixes)', async (s, versions) => {
        const { store } = s;
        const p = doc('ver/prefix/a.pdf');
        const v1 = content('p1');
        const v2 = appended(v1);
        const v3 = appended(v2);
        const v4 = appended(v3);
        const v5 = content('p5'); // a full rewrite: no prefix
        const v6 = appended(v5);
        await store.writeDocument(p, v1, { conflict: 'fail' });
        await store.writeDocument(p, v2, { conflict: 'overwrite', ifMatch: etagOf(v1) });
        await store.writeDocument(p, v3, { conflict: 'overwrite' });
        await store.writeDocument(p, await stageBytes(store, v4), { conflict: 'overwrite' }); // an upload that appends
        await store.writeDocument(p, v5, { conflict: 'overwrite' });
        await store.writeDocument(p, v6, { conflict: 'overwrite' });
        const all = [v1, v2, v3, v4, v5, v6];
        const listed = await assertVersions(versions, p, all, 'six versions');
        // Two chains, each kept in the room of its longest version: v4 and v6 (and a little for records).
        if (s.versionBytes) assert.ok((await s.versionBytes(p)) < v4.length + v6.length + 16 * 1024, `${await s.versionBytes(p)} bytes for versions of ${v4.length} and ${v6.length}`);
        // Removing the version whose bytes hold the earlier ones keeps those bytes (oldest first in `listed` reversed).
        await versions.remove(p, listed[2]!.id); // v4
        await versions.remove(p, listed[4]!.id); // v2
        await assertVersions(versions, p, [v1, v3, v5, v6], 'v2 and v4 removed');
        const restarted = await s.reopen();
        await restarted.recover();
        await assertVersions(restarted.versions!, p, [v1, v3, v5, v6], 'after a restart');
        if (store.trash) {
          // To the trash and back: the prefixes travel with their blobs.
          await store.deleteDocument(p, undefined, 'prefix-user');
          const [entry] = (await store.trash.list({ deletedBy: 'prefix-user' }, { offset: 0, limit: 10 })).entries;
          await store.trash.restore(entry!.id, p);
          await assertVersions(versions, p, [v1, v3, v5, v6], 'back from the trash');
        }
        await assertStored(store, p, v6, 'the current document');
        assert.equal(await versions.purgeEarlier(p), 3);
        await assertVersions(versions, p, [v6], 'purged');
        if (s.versionBytes) assert.ok((await s.versionBytes(p)) < v6.length + 4096, 'a purge leaves only the current bytes');
      });

      withVersions('a prefix written again and appended to anew; a version equal to the current one; an upload shorter than the current', async (s, versions) => {
        const { store } = s;
        const p = doc('ver/prefix/b.pdf');
        const v1 = content('q1');
        const v2 = appended(v1);
        const v4 = appended(v1, 2048); // v1 again (a restore), then another update of it
        await store.writeDocument(p, v1, { conflict: 'fail' });
        await store.writeDocument(p, v2, { conflict: 'overwrite' });
        await store.writeDocument(p, v1, { conflict: 'overwrite' });
        await store.writeDocument(p, v4, { conflict: 'overwrite' });
        await store.writeDocument(p, v4, { conflict: 'overwrite' }); // the same bytes again: one blob
        const truncated = v4.subarray(0, v1.length - 1); // shorter than the current: not a prefix of it
        await store.writeDocument(p, Buffer.from(truncated), { conflict: 'overwrite' });
        const listed = await assertVersions(versions, p, [v1, v2, v1, v4, v4, Buffer.from(truncated)], 'six versions');
        await versions.remove(p, listed[1]!.id); // the second v4
        await versions.remove(p, listed[2]!.id); // the first v4: its blob stays, holding both v1 versions
        await assertVersions(versions, p, [v1, v2, v1, Buffer.from(truncated)], 'both v4 removed');
      });

      withVersions('deleting a document or its folder removes its versions; a new document there starts afresh; versions survive a restart', async (s, versions) => {
        const p = doc('ver/d/e.pdf');
        await s.store.writeDocument(p, content('e1'), { conflict: 'fail' });
        await s.store.writeDocument(p, content('e2'), { conflict: 'overwrite' });
        const restarted = await s.reopen();
        await restarted.recover();
        assert.equal((await restarted.versions!.list(p, { offset: 0, limit: 10 })).total, 2, 'kept across a restart');
        await s.store.deleteDocument(p);
        await rejectsWith(versions.list(p, { offset: 0, limit: 10 }), 'DOCUMENT_NOT_FOUND');
        await s.store.writeDocument(p, content('e3'), { conflict: 'fail' });
        assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 1);
        await s.store.deleteFolder(folder('ver/d'), true);
        await s.store.writeDocument(p, content('e4'), { conflict: 'fail' });
        assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 1);
      });

      withVersions('documents() names every document with versions (the retention sweep walks them), not a deleted one', async ({ store }, versions) => {
        const kept = [doc('ver/walk/one.pdf'), doc('ver/walk/deep/two.pdf')];
        const gone = doc('ver/walk/gone.pdf');
        for (const p of [...kept, gone]) await store.writeDocument(p, content(p.toString()), { conflict: 'fail' });
        await store.deleteDocument(gone);
        const named: string[] = [];
        for await (const p of versions.documents()) named.push(p.toString());
        for (const p of kept) assert.ok(named.includes(p.toString()), `${p.toString()} in ${named.join(', ')}`);
        assert.ok(!named.includes(gone.toString()));
        assert.equal(new Set(named).size, named.length, 'each once');
      });
    });

    describe('trash (stores that keep one: DocumentTrash)', () => {
      /** The body, for a store that keeps a trash; nothing to check for one that erases. */
      const withTrash = (title: string, body: (s: StoreUnderTest, trash: DocumentTrash) => Promise<void>) =>
        withStore(title, async (s) => {
          if (s.store.trash) await body(s, s.store.trash);
        });
      const versionTotal = async (store: DocumentStore, p: StoredPath) => (store.versions ? (await store.versions.list(p, { offset: 0, limit: 100 })).total : 0);

      withTrash('a deleted document goes to its deleter\'s trash with its versions, and comes back whole; a taken path is refused', async (s, trash) => {
        const p = doc('tr/a.pdf');
        const v1 = content('t1');
        const v2 = content('t2');
        await s.store.writeDocument(p, v1, { conflict: 'fail' });
        await s.store.writeDocument(p, v2, { conflict: 'overwrite' });
        const kept = await versionTotal(s.store, p);
        await s.store.deleteDocument(p, undefined, 'alice');
        assert.equal(await s.store.statDocument(p), null);
        assert.deepEqual(await s.store.listFolder(folder('tr')), []);
        const { entries, total } = await trash.list({ deletedBy: 'alice' }, { offset: 0, limit: 10 });
        assert.equal(total, 1);
        const entry = entries[0]!;
        assert.deepEqual([entry.kind, entry.path.toString(), entry.deletedBy, entry.size, entry.documentCount, entry.versionCount], ['document', 'tr/a.pdf', 'alice', v2.length, 1, kept]);
        assert.equal((await trash.list({ deletedBy: 'bob' }, { offset: 0, limit: 10 })).total, 0, 'per user');
        assert.equal((await trash.get(entry.id)).id, entry.id);
        // A new document at the path starts afresh, and takes the path: the entry cannot come back there.
        await s.store.writeDocument(p, content('new'), { conflict: 'fail' });
        if (s.store.versions) assert.equal(await versionTotal(s.store, p), 1);
        await rejectsWith(trash.restore(entry.id, p), 'TRASH_PATH_TAKEN');
        const restarted = await s.reopen();
        await restarted.recover();
        assert.equal((await restarted.trash!.list({}, { offset: 0, limit: 10 })).total, 1, 'kept across a restart');
        await trash.restore(entry.id, doc('tr/back.pdf'));
        await assertStored(s.store, doc('tr/back.pdf'), v2, 'restored');
        assert.equal(await versionTotal(s.store, doc('tr/back.pdf')), kept);
        if (s.store.versions) {
          const listed = await s.store.versions.list(doc('tr/back.pdf'), { offset: 0, limit: 10 });
          assert.equal(listed.current, listed.versions[0]!.id, 'the restored content is the current version');
        }
        await rejectsWith(trash.get(entry.id), 'TRASH_ENTRY_NOT_FOUND');
        await rejectsWith(trash.restore(entry.id, p), 'TRASH_ENTRY_NOT_FOUND');
        await rejectsWith(trash.get('no-such-id'), 'TRASH_ENTRY_NOT_FOUND');
      });

      withTrash('a deleted folder goes whole, and comes back with every document; an empty one is erased', async (s, trash) => {
        await s.store.writeDocument(doc('tf/one.pdf'), content('one'), { conflict: 'fail' });
        const two = content('two');
        await s.store.writeDocument(doc('tf/in/two.pdf'), two, { conflict: 'fail' });
        await s.store.deleteFolder(folder('tf'), true, 'bob');
        assert.equal(await s.store.statFolder(folder('tf')), null);
        const [entry] = (await trash.list({ deletedBy: 'bob' }, { offset: 0, limit: 10 })).entries;
        assert.deepEqual([entry!.kind, entry!.path.toString(), entry!.documentCount], ['folder', 'tf', 2]);
        await trash.restore(entry!.id, folder('tf'));
        await assertStored(s.store, doc('tf/in/two.pdf'), two, 'a document of the restored folder');
        assert.deepEqual((await s.store.listFolder(folder('tf'))).map((e) => e.name), ['in', 'one.pdf']);
        await s.store.makeFolder(folder('te/inner'));
        await s.store.deleteFolder(folder('te'), true, 'bob');
        assert.equal((await trash.list({}, { offset: 0, limit: 10 })).total, 0);
      });

      withTrash('purge and expire remove entries for good', async (s, trash) => {
        for (const name of ['x', 'y', 'z']) {
          await s.store.writeDocument(doc(`tp/${name}.pdf`), content(name), { conflict: 'fail' });
          await s.store.deleteDocument(doc(`tp/${name}.pdf`), undefined, null);
        }
        const { entries } = await trash.list({}, { offset: 0, limit: 10 });
        assert.deepEqual(entries.map((e) => e.path.toString()), ['tp/z.pdf', 'tp/y.pdf', 'tp/x.pdf'], 'newest first');
        assert.deepEqual((await trash.list({ deletedBy: null }, { offset: 1, limit: 1 })).entries.map((e) => e.id), [entries[1]!.id]);
        await trash.purge(entries[0]!.id);
        await rejectsWith(trash.purge(entries[0]!.id), 'TRASH_ENTRY_NOT_FOUND');
        assert.equal(await trash.expire(new Date(0)), 0);
        assert.equal(await trash.expire(new Date(Date.now() + 60_000)), 2);
        assert.equal((await trash.list({}, { offset: 0, limit: 10 })).total, 0);
      });
    });

    describe('moves (stores that can: moveDocument, moveFolder)', () => {
      /** The body, for a store that moves; a store without moves is refused above it (MOVE_NOT_SUPPORTED). */
      const withMoves = (title: string, body: (s: StoreUnderTest) => Promise<void>) =>
        withStore(title, async (s) => {
          if (s.store.moveDocument && s.store.moveFolder) await body(s);
        });
      const versionIds = async (store: DocumentStore, p: StoredPath) => (store.versions ? (await store.versions.list(p, { offset: 0, limit: 100 })).versions.map((v) => `${v.id} ${v.etag}`) : []);
      const trashTotal = async (store: DocumentStore) => (store.trash ? (await store.trash.list({}, { offset: 0, limit: 100 })).total : 0);

      withMoves('a moved document keeps its bytes, ETag and versions at the new path; the old path is empty; the trash is untouched', async (s) => {
        const from = doc('mv/a.pdf');
        const to = doc('elsewhere/deep/b.pdf');
        const v1 = content('m1');
        const v2 = content('m2');
        await s.store.writeDocument(from, v1, { conflict: 'fail' });
        await s.store.writeDocument(from, v2, { conflict: 'overwrite' });
        const kept = await versionIds(s.store, from);
        const moved = await s.store.moveDocument!(from, to, { conflict: 'fail', provenance: { by: 'alice', operation: 'MoveAction' } });
        assert.deepEqual([moved.path.toString(), moved.created, moved.stat.etag, moved.stat.size, moved.record.replaced, moved.record.by], ['elsewhere/deep/b.pdf', true, etagOf(v2), v2.length, null, 'alice']);
        await assertStored(s.store, to, v2, 'at the new path');
        assert.equal(await s.store.statDocument(from), null);
        assert.deepEqual(await s.store.listFolder(folder('mv')), []);
        await rejectsWith(s.store.openDocument(from), 'DOCUMENT_NOT_FOUND');
        assert.deepEqual(await versionIds(s.store, to), kept, 'the same versions, no new one');
        if (s.store.versions) {
          assert.equal(kept.length, 2);
          await rejectsWith(s.store.versions.list(from, { offset: 0, limit: 10 }), 'DOCUMENT_NOT_FOUND');
          // A new document at the old path starts afresh.
          await s.store.writeDocument(from, content('new'), { conflict: 'fail' });
          assert.equal((await versionIds(s.store, from)).length, 1);
        }
        assert.equal(await trashTotal(s.store), 0);
        const restarted = await s.reopen();
        await restarted.recover();
        await assertStored(restarted, to, v2, 'after a restart');
        assert.deepEqual(await versionIds(restarted, to), kept, 'versions after a restart');
      });

      withMoves('conflicts: fail refuses, unique picks another name, overwrite replaces as a delete; If-Match, a missing source and the same path are refused', async (s) => {
        const from = doc('mc/a.pdf');
        const to = doc('mc/b.pdf');
        const mine = content('mine');
        const theirs = content('theirs');
        await s.store.writeDocument(from, mine, { conflict: 'fail' });
        await s.store.writeDocument(to, theirs, { conflict: 'fail' });
        await rejectsWith(s.store.moveDocument!(from, to, { conflict: 'fail' }), 'ALREADY_EXISTS');
        await rejectsWith(s.store.moveDocument!(from, doc('mc/c.pdf'), { conflict: 'fail', ifMatch: '"stale"' }), 'PRECONDITION_FAILED');
        await rejectsWith(s.store.moveDocument!(doc('mc/none.pdf'), doc('mc/c.pdf'), { conflict: 'fail' }), 'DOCUMENT_NOT_FOUND');
        await rejectsWith(s.store.moveDocument!(from, from, { conflict: 'overwrite' }), 'MOVE_INTO_ITSELF');
        await assertStored(s.store, from, mine, 'the source after refusals');
        await assertStored(s.store, to, theirs, 'the target after refusals');
        assert.equal(await s.store.statDocument(doc('mc/c.pdf')), null);
        const unique = await s.store.moveDocument!(from, to, { conflict: 'unique' });
        assert.notEqual(unique.path.toString(), 'mc/b.pdf');
        assert.match(unique.path.toString(), /^mc\/b-\d+\.pdf$/);
        await assertStored(s.store, unique.path, mine, 'under the unique name');
        await assertStored(s.store, to, theirs, 'the taken name untouched');
        const theirVersions = await versionIds(s.store, to);
        const myVersions = await versionIds(s.store, unique.path);
        const over = await s.store.moveDocument!(unique.path, to, { conflict: 'overwrite', ifMatch: etagOf(mine), provenance: { by: 'bob', operation: 'MoveAction' } });
        assert.deepEqual([over.path.toString(), over.created, over.record.replaced], ['mc/b.pdf', false, etagOf(theirs)]);
        await assertStored(s.store, to, mine, 'the moved document replaced the other');
        assert.deepEqual(await versionIds(s.store, to), myVersions, 'with its own versions, not the replaced one\'s');
        if (s.store.trash) {
          const { entries } = await s.store.trash.list({}, { offset: 0, limit: 10 });
          assert.deepEqual(entries.map((e) => [e.kind, e.path.toString(), e.deletedBy, e.versionCount]), [['document', 'mc/b.pdf', 'bob', theirVersions.length]], 'the replaced document went to the trash as a delete');
        }
      });

      withMoves('a moved folder takes its documents, subfolders and versions; refused into itself, onto a folder, and when missing', async (s) => {
        const a = content('fa');
        const b = content('fb');
        await s.store.writeDocument(doc('fm/one/a.pdf'), a, { conflict: 'fail' });
        await s.store.writeDocument(doc('fm/one/a.pdf'), content('fa2'), { conflict: 'overwrite' });
        await s.store.writeDocument(doc('fm/one/a.pdf'), a, { conflict: 'overwrite' });
        await s.store.writeDocument(doc('fm/one/sub/b.pdf'), b, { conflict: 'fail' });
        await s.store.writeDocument(doc('fm/other.pdf'), content('other'), { conflict: 'fail' });
        await s.store.makeFolder(folder('fm/taken'));
        const kept = await versionIds(s.store, doc('fm/one/a.pdf'));
        await rejectsWith(s.store.moveFolder!(folder('fm/one'), folder('fm/one/sub/inner')), 'MOVE_INTO_ITSELF');
        await rejectsWith(s.store.moveFolder!(folder('fm/one'), folder('fm/one')), 'MOVE_INTO_ITSELF');
        await rejectsWith(s.store.moveFolder!(folder('fm/one'), folder('fm/taken')), 'ALREADY_EXISTS');
        await rejectsWith(s.store.moveFolder!(folder('fm/none'), folder('fm/two')), 'FOLDER_NOT_FOUND');
        await assertStored(s.store, doc('fm/one/a.pdf'), a, 'after refusals');
        await s.store.moveFolder!(folder('fm/one'), folder('moved/two'));
        await assertStored(s.store, doc('moved/two/a.pdf'), a, 'a document of the folder');
        await assertStored(s.store, doc('moved/two/sub/b.pdf'), b, 'a document of a subfolder');
        assert.equal(await s.store.statFolder(folder('fm/one')), null);
        assert.equal(await s.store.statDocument(doc('fm/one/a.pdf')), null);
        assert.deepEqual((await s.store.listFolder(folder('fm'))).map((e) => e.name), ['other.pdf', 'taken']);
        assert.deepEqual((await s.store.listFolder(folder('moved/two'))).map((e) => `${e.type} ${e.name}`), ['document a.pdf', 'folder sub']);
        assert.deepEqual(await versionIds(s.store, doc('moved/two/a.pdf')), kept, 'versions moved with the folder');
        if (s.store.versions) assert.equal(kept.length, 3);
        assert.equal(await trashTotal(s.store), 0);
        const restarted = await s.reopen();
        await restarted.recover();
        assert.deepEqual(await versionIds(restarted, doc('moved/two/a.pdf')), kept, 'after a restart');
        await assertStored(restarted, doc('moved/two/sub/b.pdf'), b, 'after a restart');
      });
    });

    describe('locks', () => {
      withStore('read-modify-write under the lock loses no update', async ({ store }) => {
        const p = doc('counter.pdf');
        await store.writeDocument(p, Buffer.from('0'), { conflict: 'fail' });
        const increment = async () => {
          const release = await store.lock(p);
          try {
            const { bytes, etag } = await readDoc(store, p);
            await store.writeDocument(p, Buffer.from(String(Number(bytes.toString()) + 1)), { conflict: 'overwrite', ifMatch: etag });
          } finally {
            release();
          }
        };
        await Promise.all(Array.from({ length: 10 }, increment));
        assert.equal((await readDoc(store, p)).bytes.toString(), '10');
      });

      withStore('a second holder of one path waits for the release; another path does not wait', async ({ store }) => {
        const p = doc('l/a.pdf');
        const release = await store.lock(p);
        let granted = false;
        const waiting = store.lock(p).then((r) => {
          granted = true;
          return r;
        });
        const other = await store.lock(doc('l/b.pdf'));
        other();
        await settle();
        assert.equal(granted, false, 'held by the first');
        release();
        (await waiting)();
        assert.equal(granted, true);
      });

      withStore('the lock is released when the work under it fails, and a release twice frees no one else', async ({ store }) => {
        const p = doc('l/fail.pdf');
        await store.writeDocument(p, content('x'), { conflict: 'fail' });
        const failing = async () => {
          const release = await store.lock(p);
          try {
            await store.writeDocument(p, content('y'), { conflict: 'overwrite', ifMatch: '"stale"' });
          } finally {
            release();
            release();
          }
        };
        await rejectsWith(failing(), 'PRECONDITION_FAILED');
        const holder = await store.lock(p);
        let third = false;
        const waiting = store.lock(p).then((r) => ((third = true), r));
        await settle();
        assert.equal(third, false, 'the second release of the failed holder did not free the lock');
        holder();
        (await waiting)();
      });

      withStore('the store takes no lock itself: writes and deletes run while the caller holds it', async ({ store }) => {
        const p = doc('l/held.pdf');
        const release = await store.lock(p);
        try {
          await store.writeDocument(p, content('held'), { conflict: 'fail' });
          await store.deleteDocument(p);
        } finally {
          release();
        }
      });
    });

    describe('folders and listing', () => {
      withStore('a listing holds the folders and documents directly inside, sorted by name', async ({ store }) => {
        const small = Buffer.from('%PDF-1.7 small');
        for (const name of ['b.pdf', 'A.pdf', 'a.pdf', 'x/deep.pdf', 'c/d/e.pdf', 'é.pdf']) await store.writeDocument(doc(`top/${name}`), small, { conflict: 'fail' });
        await store.makeFolder(folder('top/a'));
        const entries = await store.listFolder(folder('top'));
        assert.deepEqual(
          entries.map((e) => [e.name, e.type, e.size]),
          [
            ['A.pdf', 'document', small.length],
            ['a', 'folder', undefined],
            ['a.pdf', 'document', small.length],
            ['b.pdf', 'document', small.length],
            ['c', 'folder', undefined],
            ['x', 'folder', undefined],
            ['é.pdf', 'document', small.length],
          ],
          'names as given (case kept, a folder beside the document of its name), in code-unit order',
        );
        for (const e of entries) assert.ok(e.modified instanceof Date);
        assert.deepEqual((await store.listFolder(folder(''))).map((e) => e.name), ['top']);
        assert.deepEqual((await store.listFolder(folder('top/c'))).map((e) => [e.name, e.type]), [['d', 'folder']]);
      });

      withStore('makeFolder creates the folder and its parents once; statFolder sees folders only', async ({ store }) => {
        assert.ok(await store.statFolder(folder('')), 'the root exists');
        assert.equal(await store.statFolder(folder('p/q')), null);
        assert.deepEqual(await store.makeFolder(folder('p/q')), { created: true });
        assert.deepEqual(await store.makeFolder(folder('p/q')), { created: false });
        assert.ok((await store.statFolder(folder('p')))?.modified instanceof Date);
        await store.writeDocument(doc('p/doc.pdf'), content('doc'), { conflict: 'fail' });
        assert.equal(await store.statFolder(doc('p/doc.pdf')), null, 'a document is not a folder');
        await rejectsWith(store.listFolder(folder('nowhere')), 'FOLDER_NOT_FOUND');
      });

      withStore('deleting folders: never the root; an empty one; a full one only recursively, with all below it', async ({ store }) => {
        await rejectsWith(store.deleteFolder(folder(''), true), 'INVALID_PATH');
        await rejectsWith(store.deleteFolder(folder('gone'), false), 'FOLDER_NOT_FOUND');
        await store.makeFolder(folder('empty'));
        await store.deleteFolder(folder('empty'), false);
        assert.equal(await store.statFolder(folder('empty')), null);
        const bytes = content('inside');
        await store.writeDocument(doc('full/sub/x.pdf'), bytes, { conflict: 'fail' });
        await rejectsWith(store.deleteFolder(folder('full'), false), 'FOLDER_NOT_EMPTY');
        await assertStored(store, doc('full/sub/x.pdf'), bytes, 'after the refused delete');
        await store.deleteFolder(folder('full'), true);
        assert.equal(await store.statFolder(folder('full')), null);
        assert.equal(await store.statFolder(folder('full/sub')), null);
        assert.equal(await store.statDocument(doc('full/sub/x.pdf')), null);
        assert.deepEqual(await store.listFolder(folder('')), []);
      });

      withStore('path rules: only a document path takes a document (400 INVALID_PATH otherwise)', async ({ store }) => {
        await rejectsWith(store.writeDocument(folder('plain'), content('folder path'), { conflict: 'fail' }), 'INVALID_PATH');
        assert.equal(await store.statFolder(folder('plain')), null);
      });
    });

    describe('staging', () => {
      withStore('a staged upload has the size and tag of its bytes, reads back, and is stored as it is', async (s) => {
        const { store } = s;
        const bytes = content('staged');
        const staged = await stageBytes(store, bytes);
        assert.equal(staged.size, bytes.length);
        assert.equal(staged.etag, etagOf(bytes));
        assert.ok((await staged.read()).equals(bytes));
        const opened = await staged.open();
        assert.equal(opened.size, bytes.length);
        assert.ok((await opened.read()).equals(bytes));
        await opened.close();
        const p = doc('s/up.pdf');
        const written = await store.writeDocument(p, staged, { conflict: 'fail' });
        assert.equal(written.stat.etag, etagOf(bytes));
        await staged.discard(); // the routes discard every staged upload when the request ends, written or not
        await assertStored(store, p, bytes, 'after the staged upload was discarded');
        assert.equal(await s.leftovers(), 0);
      });

      withStore('the limit: exactly `limit` bytes are taken, one more is 413 PAYLOAD_TOO_LARGE and leaves nothing', async (s) => {
        const bytes = content('limit');
        const exact = await stageBytes(s.store, bytes, bytes.length);
        assert.equal(exact.size, bytes.length);
        await exact.discard();
        const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000)];
        await rejectsWith(s.store.stage(Readable.from(chunks), bytes.length - 1), 'PAYLOAD_TOO_LARGE');
        assert.equal(await s.leftovers(), 0);
        // Refused in the first chunk, before a local file's asynchronous open has finished: still nothing left
        // (a file store once removed the file before its open created it).
        for (let i = 0; i < 20; i++) await rejectsWith(s.store.stage(Readable.from([bytes]), 10), 'PAYLOAD_TOO_LARGE');
        assert.equal(await s.leftovers(), 0);
      });

      withStore('a body that fails midway rejects and leaves nothing; an empty one is a staged upload of 0 bytes', async (s) => {
        const broken = new Readable({ read() {} });
        broken.push(content('half'));
        setImmediate(() => broken.destroy(new Error('connection reset')));
        await assert.rejects(s.store.stage(broken, 1 << 30), /connection reset/);
        assert.equal(await s.leftovers(), 0);
        const empty = await stageBytes(s.store, Buffer.alloc(0));
        assert.equal(empty.size, 0);
        assert.equal((await empty.read()).length, 0);
        await empty.discard();
        assert.equal(await s.leftovers(), 0);
      });
    });

    describe('recovery', () => {
      withStore('recover() at start removes what interrupted writes and uploads left, and nothing else', async (s) => {
        const bytes = content('survivor');
        await s.store.writeDocument(doc('keep/doc.pdf'), bytes, { conflict: 'fail' });
        await s.store.makeFolder(folder('keep/empty'));
        await stageBytes(s.store, content('abandoned upload'));
        await s.interruptWrite?.(folder('keep'));
        assert.ok((await s.leftovers()) > 0, 'something left over');
        assert.deepEqual((await s.store.listFolder(folder('keep'))).map((e) => e.name), ['doc.pdf', 'empty'], 'leftovers are never listed');
        const restarted = await s.reopen();
        await restarted.recover();
        assert.equal(await s.leftovers(), 0);
        await assertStored(restarted, doc('keep/doc.pdf'), bytes, 'after recovery');
        assert.deepEqual((await restarted.listFolder(folder('keep'))).map((e) => e.name), ['doc.pdf', 'empty']);
      });

      withStore('a folder holding only leftovers is empty: it is deleted without `recursive`', async (s) => {
        await s.store.makeFolder(folder('only'));
        await s.interruptWrite?.(folder('only'));
        await s.store.deleteFolder(folder('only'), false);
        assert.equal(await s.store.statFolder(folder('only')), null);
      });
    });
  });
}
