import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { LocalLocks } from '../../src/storage/locks.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { etagOf } from '../../src/storage/store.js';
import { DavClient } from '../../src/storage/webdav/client.js';
import { WebDavBackend, type WebDavStore } from '../../src/storage/webdav/store.js';
import { davServerForSuite } from '../helpers/dav-server.js';
import { freshEach } from '../helpers/fresh.js';
import { storeContract } from '../helpers/store-contract.js';

// The contract runs in alice's home on the Apache test server (test/dav/httpd.conf), a collection per test.
const dav = davServerForSuite();
const alice = () => ({ username: 'alice', password: dav.users.alice });

/** Files below `dir` (recursively) that `counts` names. */
async function countFiles(dir: string, counts: (name: string) => boolean): Promise<number> {
  let n = 0;
  try {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && counts(entry.name)) n++;
  } catch {
    return 0;
  }
  return n;
}

let serial = 0;
const clients: DavClient[] = [];
after(async () => {
  for (const c of clients) await c.close();
});

async function webdavStore() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-contract-'));
  // Each test gets a collection of its own on the server, as its root.
  const name = `contract-${process.pid}-${++serial}`;
  const setup = new DavClient({ url: dav.collections.home('alice'), timeoutMs: 10_000 });
  clients.push(setup);
  const made = await setup.send('MKCOL', setup.url([name], true), alice());
  await made.body.dump();
  const url = setup.url([name], true);
  const open = async () => {
    const client = new DavClient({ url, timeoutMs: 10_000 });
    clients.push(client);
    const backend = new WebDavBackend(client, dataDir, undefined, true, true);
    await backend.init();
    return backend.forUser(alice());
  };
  const store = await open();
  assert.ok(store.trash, 'the contract\'s trash section runs: the store keeps a trash');
  await store.recover();
  const onServer = path.join(dav.root, 'home', 'alice', name);
  return {
    store,
    reopen: open,
    leftovers: async () =>
      (await countFiles(path.join(dataDir, 'staging'), () => true)) +
      (await countFiles(path.join(dataDir, 'spool'), () => true)) +
      (await countFiles(onServer, (n) => n.startsWith('.pdfservice-tmp-'))),
    // A crash between the upload to the temporary name and the MOVE into place.
    interruptWrite: async (folder: StoredPath) => {
      await store.makeFolder(folder);
      const res = await setup.send('PUT', setup.url([name, ...folder.segments, '.pdfservice-tmp-1000-0123456789abcdef'], false), alice(), { body: '%PDF-1.7 half written' });
      await res.body.dump();
    },
    close: async () => {
      const res = await setup.send('DELETE', url, alice());
      await res.body.dump();
      await rm(dataDir, { recursive: true, force: true });
    },
    // The bytes of a document's versions collection on the DMS's disk (src/storage/webdav/versions.ts): the prefix cases' measure.
    versionBytes: async (p: StoredPath) => {
      const dir = path.join(onServer, ...p.parent.segments, '.pdfservice-versions', p.name);
      let sum = 0;
      for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isFile()) sum += (await stat(path.join(dir, entry.name))).size;
      return sum;
    },
    /** The test's collection: as alice over WebDAV, and on the server's disk. */
    dav: { client: setup, name, onServer, url },
  };
}

storeContract('WebDavStore (Apache mod_dav)', webdavStore);

/**
 * What a crash leaves in a document's versions collection (src/storage/webdav/versions.ts), made by hand over WebDAV
 * as alice: what reads show at once, and what recover() leaves.
 */
describe('WebDAV versions after a crash', () => {
  const withStore = freshEach(webdavStore);
  const p = documentPathFromBody('crash/doc.pdf', 'path');
  const bytes = (label: string) => Buffer.concat([Buffer.from(`%PDF-1.7 ${label}\n`), randomBytes(4096)]);
  const hexOf = (b: Buffer) => etagOf(b).replace(/"/g, '');

  withStore('a write that died before its MOVE is not shown; one that died after it is; recover() settles both', async (s) => {
    const versions = s.store.versions!;
    const [v1, v2, lost] = [bytes('v1'), bytes('v2'), bytes('never committed')];
    await s.store.writeDocument(p, v1, { conflict: 'fail' });
    await s.store.writeDocument(p, v2, { conflict: 'overwrite' });
    const before = await versions.list(p, { offset: 0, limit: 10 });
    assert.equal(before.total, 2);
    const file = (name: string) => s.dav.client.url([s.dav.name, 'crash', '.pdfservice-versions', 'doc.pdf', name], false);
    const send = async (method: string, name: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
      const res = await s.dav.client.send(method, file(name), alice(), init);
      await res.body.dump();
      assert.ok(res.statusCode < 300, `${method} ${name}: ${res.statusCode}`);
    };
    const record = (id: string, content: Buffer) => JSON.stringify({ id, etag: etagOf(content), size: content.length, created: new Date().toISOString(), by: null, operation: 'write', requestId: null, jobId: null, pageCount: null, label: null, pinned: false });
    // Died before its MOVE: a pending record of bytes that are nowhere.
    const lostId = String(Number(before.current) + 10).padStart(16, '0');
    await send('PUT', `v-${lostId}-${hexOf(lost)}.pending`, { body: record(lostId, lost) });
    // After its MOVE, the current version's record is still pending (as after a write killed before renaming it): the
    // next write renames it, before its own MOVE.
    const onDisk = async () => (await readdir(path.join(s.dav.onServer, 'crash', '.pdfservice-versions', 'doc.pdf'))).filter((n) => n !== '.DAV').sort();
    assert.ok((await onDisk()).includes(`v-${before.current!}-${hexOf(v2)}.pending`), (await onDisk()).join(' '));
    const shown = await versions.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(shown.versions.map((v) => v.etag), [etagOf(v2), etagOf(v1)], 'the committed write shown, the lost one not');
    assert.equal(shown.current, before.current);
    await assert.rejects(versions.get(p, lostId), /no version/);
    const restarted = await s.reopen();
    await restarted.recover();
    const names = (await readdir(path.join(s.dav.onServer, 'crash', '.pdfservice-versions', 'doc.pdf'))).filter((n) => n !== '.DAV').sort();
    assert.deepEqual(names, [`b-${hexOf(v1)}`, 'index.json', `v-${before.versions[1]!.id}-${hexOf(v1)}.json`, `v-${before.current!}-${hexOf(v2)}.json`].sort());
  });

  withStore('a pending record older than the current version\'s (a write of the same bytes killed before its MOVE) is not shown; the next write without an index tidies it, one with the index renames the current record', async (s) => {
    const versions = s.store.versions!;
    const [v1, v2] = [bytes('one'), bytes('two')];
    await s.store.writeDocument(p, v1, { conflict: 'fail' });
    await s.store.writeDocument(p, v2, { conflict: 'overwrite' });
    const before = await versions.list(p, { offset: 0, limit: 10 });
    const dir = path.join(s.dav.onServer, 'crash', '.pdfservice-versions', 'doc.pdf');
    const names = async () => (await readdir(dir)).filter((n) => n !== '.DAV').sort();
    const url = (name: string) => s.dav.client.url([s.dav.name, 'crash', '.pdfservice-versions', 'doc.pdf', name], false);
    // A killed write of v2's bytes, between v1's record and v2's: pending, older than the committed write's pending record.
    const lostId = String(Number(before.versions[1]!.id) + 1).padStart(16, '0');
    const put = await s.dav.client.send('PUT', url(`v-${lostId}-${hexOf(v2)}.pending`), alice(), { body: JSON.stringify({ id: lostId, etag: etagOf(v2), size: v2.length, created: new Date().toISOString(), by: null, operation: 'lost', requestId: null, jobId: null, pageCount: null, label: null, pinned: false }) });
    await put.body.dump();
    const dropIndex = async () => {
      const gone = await s.dav.client.send('DELETE', url('index.json'), alice());
      await gone.body.dump();
    };
    await dropIndex();
    const shown = await versions.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(shown.versions.map((v) => v.id), before.versions.map((v) => v.id), 'the names decide as the index did: the lost write is not shown');
    // The listing wrote the index again (from the names); without it, the next write reads the collection and tidies:
    // the lost record goes, v2's is committed.
    await dropIndex();
    const v3 = bytes('three');
    await s.store.writeDocument(p, v3, { conflict: 'overwrite' });
    const third = (await versions.list(p, { offset: 0, limit: 10 })).versions[0]!;
    assert.ok(!(await names()).some((n) => n.startsWith(`v-${lostId}-`)), (await names()).join(' '));
    assert.ok((await names()).includes(`v-${before.current!}-${hexOf(v2)}.json`), (await names()).join(' '));
    // With the index: v3's record, pending, is renamed by the write after it, before that write's MOVE.
    await s.store.writeDocument(p, bytes('four'), { conflict: 'overwrite' });
    const after = await names();
    assert.ok(after.includes(`v-${third.id}-${hexOf(v3)}.json`) && !after.includes(`v-${third.id}-${hexOf(v3)}.pending`), after.join(' '));
    assert.equal(after.filter((n) => n.endsWith('.pending')).length, 1, after.join(' '));
    assert.equal((await versions.list(p, { offset: 0, limit: 10 })).total, 4);
  });

  withStore('a redaction that died after its MOVE shows no earlier version, and recover() deletes their bytes; a blob gone hides its version', async (s) => {
    const versions = s.store.versions!;
    const [v1, v2, v3] = [bytes('secret one'), bytes('secret two'), bytes('redacted')];
    for (const [i, b] of [v1, v2, v3].entries()) await s.store.writeDocument(p, b, { conflict: i === 0 ? 'fail' : 'overwrite' });
    const { current } = await versions.list(p, { offset: 0, limit: 10 });
    const dir = path.join(s.dav.onServer, 'crash', '.pdfservice-versions', 'doc.pdf');
    const dropIndex = async () => {
      const gone = await s.dav.client.send('DELETE', s.dav.client.url([s.dav.name, 'crash', '.pdfservice-versions', 'doc.pdf', 'index.json'], false), alice());
      await gone.body.dump();
      assert.equal(gone.statusCode, 204);
    };
    // A blob deleted behind the service's back (not a crash of ours): the index, valid while the document is unchanged,
    // still lists its version, whose read is 404 (never other bytes); without the index, the names hide it, as no bytes back it.
    const res = await s.dav.client.send('DELETE', s.dav.client.url([s.dav.name, 'crash', '.pdfservice-versions', 'doc.pdf', `b-${hexOf(v2)}`], false), alice());
    await res.body.dump();
    const listed = await versions.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(listed.versions.map((v) => v.etag), [etagOf(v3), etagOf(v2), etagOf(v1)]);
    await assert.rejects(versions.open(p, listed.versions[1]!.id), /no version/);
    await dropIndex();
    assert.deepEqual((await versions.list(p, { offset: 0, limit: 10 })).versions.map((v) => v.etag), [etagOf(v3), etagOf(v1)]);
    // The purge marker of the current version's write, left by a crash before its purge (whose index, written before
    // its MOVE, names the current version alone; here removed, so that the names decide): nothing earlier is shown.
    const marker = await s.dav.client.send('PUT', s.dav.client.url([s.dav.name, 'crash', '.pdfservice-versions', 'doc.pdf', `v-${current!}.purge`], false), alice(), { body: '' });
    await marker.body.dump();
    await dropIndex();
    const left = await versions.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(left.versions.map((v) => v.etag), [etagOf(v3)]);
    assert.ok((await readdir(dir)).includes(`b-${hexOf(v1)}`), 'the bytes are still there before recover()');
    const restarted = await s.reopen();
    await restarted.recover();
    const names = (await readdir(dir)).filter((n) => n !== '.DAV');
    assert.deepEqual(names.sort(), ['index.json', `v-${current!}-${hexOf(v3)}.json`], 'only the current record and the index: no earlier bytes, no marker');
    assert.deepEqual((await versions.list(p, { offset: 0, limit: 10 })).versions.map((v) => v.etag), [etagOf(v3)]);
  });

  withStore('a document written with versions off is kept as an "unrecorded" version by its first write with them on', async (s) => {
    const client = new DavClient({ url: s.dav.url, timeoutMs: 10_000 });
    clients.push(client);
    const offDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-off-'));
    const off = new WebDavBackend(client, offDir, undefined, false);
    await off.init();
    const [v1, v2] = [bytes('written with versions off'), bytes('with them on')];
    await off.forUser(alice()).writeDocument(p, v1, { conflict: 'fail' });
    assert.equal(off.forUser(alice()).versions, undefined, 'versions off: the store has none (VERSIONS_NOT_KEPT)');
    await rm(offDir, { recursive: true, force: true });
    await s.store.writeDocument(p, v2, { conflict: 'overwrite', provenance: { by: 'alice', operation: 'upload' } });
    const { versions: listed, current } = await s.store.versions!.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(listed.map((v) => [v.operation, v.by, v.etag]), [['upload', 'alice', etagOf(v2)], ['unrecorded', null, etagOf(v1)]]);
    assert.equal(current, listed[0]!.id);
    const opened = await s.store.versions!.open(p, listed[1]!.id);
    assert.ok((await opened.read()).equals(v1));
    await opened.close();
  });

  withStore('appended writes keep their replaced versions as empty pointers; a full rewrite\'s COPY holds them; removals and a purge', async (s) => {
    const versions = s.store.versions!;
    const dir = path.join(s.dav.onServer, 'crash', '.pdfservice-versions', 'doc.pdf');
    const area = async () => Promise.all((await readdir(dir)).filter((n) => n !== '.DAV').map(async (name) => ({ name, size: (await stat(path.join(dir, name))).size })));
    const written = [bytes('appended 0')];
    for (let i = 1; i <= 20; i++) written.push(Buffer.concat([written.at(-1)!, Buffer.from(`\n% update ${i}\n`), randomBytes(2048)]));
    await s.store.writeDocument(p, written[0]!, { conflict: 'fail' });
    for (const b of written.slice(1)) await s.store.writeDocument(p, b, { conflict: 'overwrite' });
    const allVersions = async (expected: Buffer[], what: string) => {
      const { versions: listed } = await versions.list(p, { offset: 0, limit: 100 });
      assert.equal(listed.length, expected.length, what);
      for (const [i, v] of [...listed].reverse().entries()) {
        const opened = await versions.open(p, v.id);
        const got = await opened.read();
        await opened.close();
        assert.equal(etagOf(got), v.etag, `${what}: version ${i} hashes to its ETag`);
        assert.ok(got.equals(expected[i]!), `${what}: version ${i}, its bytes`);
      }
      return listed;
    };
    await allVersions(written, '21 appended versions');
    const size = written.at(-1)!.length;
    assert.deepEqual((await area()).filter((o) => o.name.startsWith('b-')), [], 'no blob: every earlier version is a prefix of the document');
    assert.equal((await area()).filter((o) => o.name.startsWith('p-')).length, 20, 'a pointer per replaced version');
    // A full rewrite: the one COPY it makes holds every earlier version.
    const rewrite = bytes('rewritten');
    await s.store.writeDocument(p, rewrite, { conflict: 'overwrite' });
    const all = [...written, rewrite];
    const listed = await allVersions(all, 'after a full rewrite');
    assert.deepEqual((await area()).filter((o) => o.name.startsWith('b-')).map((o) => o.size), [size], 'one blob, the last appended version');
    // Removing the version whose bytes hold the others keeps its blob; removing a middle one keeps the chain.
    await versions.remove(p, listed[1]!.id);
    await versions.remove(p, listed[10]!.id);
    const left = all.filter((_, i) => i !== all.length - 2 && i !== all.length - 11);
    await allVersions(left, 'two removed');
    const restarted = await s.reopen();
    await restarted.recover();
    await allVersions(left, 'after a restart');
    assert.equal(await versions.purgeEarlier(p), left.length - 1);
    assert.deepEqual((await area()).filter((o) => !o.name.startsWith('v-') && o.name !== 'index.json'), [], 'a purge leaves no blob or pointer');
    assert.deepEqual((await versions.list(p, { offset: 0, limit: 100 })).versions.map((v) => v.etag), [etagOf(left.at(-1)!)], 'the index lists what is left');
  });

  withStore('a prefix read while a full rewrite replaces the document looks its way up again and reads the rewrite\'s COPY', async (s) => {
    const versions = s.store.versions!;
    const v1 = bytes('first');
    const v2 = Buffer.concat([v1, Buffer.from('\n% update\n'), randomBytes(512)]);
    const rewrite = bytes('rewritten');
    await s.store.writeDocument(p, v1, { conflict: 'fail' });
    await s.store.writeDocument(p, v2, { conflict: 'overwrite' });
    const { versions: listed } = await versions.list(p, { offset: 0, limit: 10 });
    // The rewrite lands between the read's look (the way: a pointer into the document) and its Range GET.
    const store = s.store as unknown as { openStart(url: string, bytes: number): Promise<unknown> };
    const original = store.openStart.bind(store);
    const from: string[] = [];
    store.openStart = async (url, n) => {
      if (from.length === 0) await s.store.writeDocument(p, rewrite, { conflict: 'overwrite' });
      from.push(url.slice(url.lastIndexOf('/') + 1));
      return original(url, n);
    };
    const opened = await versions.open(p, listed[1]!.id);
    const got = await opened.read();
    await opened.close();
    assert.ok(got.equals(v1), 'the version\'s bytes, from the blob the rewrite made');
    assert.deepEqual(from, ['doc.pdf', `b-${hexOf(v2)}`], 'the document first (the rewrite\'s bytes: refused), then the blob');
  });

  withStore('a prefix version whose document was replaced on the DMS directly is not shown, nor served from the new bytes', async (s) => {
    const versions = s.store.versions!;
    const v1 = bytes('first');
    const v2 = Buffer.concat([v1, Buffer.from('\n% update\n'), randomBytes(512)]);
    await s.store.writeDocument(p, v1, { conflict: 'fail' });
    await s.store.writeDocument(p, v2, { conflict: 'overwrite' });
    const { versions: listed } = await versions.list(p, { offset: 0, limit: 10 });
    const other = bytes('written by a DMS user');
    const res = await s.dav.client.send('PUT', s.dav.client.url([s.dav.name, 'crash', 'doc.pdf'], false), alice(), { body: other.toString('latin1'), headers: { 'content-type': 'application/pdf' } });
    await res.body.dump();
    await assert.rejects(versions.open(p, listed[1]!.id), /no version/, 'the pointer leads to bytes that are not the document\'s any more');
  });

  withStore('a DELETE with If-Match checks the content\'s tag under its LOCK, not the DMS\'s entity tag alone', async (s) => {
    const v1 = bytes('kept');
    await s.store.writeDocument(p, v1, { conflict: 'fail' });
    const url = s.dav.client.url([s.dav.name, 'crash', 'doc.pdf'], false);
    // Between the delete's check of If-Match and its LOCK, another writer's version of the same size lands in the same
    // clock tick: mod_dav_fs's entity tag (size and time) is unchanged, the content's tag kept with the document is not.
    const client = (s.store as unknown as { client: DavClient }).client;
    const lock = client.lock.bind(client);
    let replaced = 0;
    client.lock = async (...args) => {
      if (replaced++ === 0) {
        const [now] = (await client.propfind(url, alice(), 0)) ?? [];
        assert.ok(await client.setOwnProps(url, alice(), { etag: etagOf(bytes('another writer')), davetag: now!.davEtag! }));
      }
      return lock(...args);
    };
    try {
      await assert.rejects(s.store.deleteDocument(p, etagOf(v1), 'alice'), (err) => err instanceof ServiceError && err.code === 'PRECONDITION_FAILED');
    } finally {
      client.lock = lock;
    }
    assert.equal(replaced, 1, 'the delete took the LOCK');
    assert.ok(await s.store.statDocument(p), 'not deleted');
    assert.deepEqual(await s.store.trash!.list({}, { offset: 0, limit: 10 }).then((l) => l.total), 0, 'nothing in the trash');
  });

  withStore('versions of a document deleted on the DMS directly are not shown as a new document\'s at that path', async (s) => {
    const versions = s.store.versions!;
    await s.store.writeDocument(p, bytes('old one'), { conflict: 'fail' });
    await s.store.writeDocument(p, bytes('old two'), { conflict: 'overwrite' });
    const res = await s.dav.client.send('DELETE', s.dav.client.url([s.dav.name, 'crash', 'doc.pdf'], false), alice());
    await res.body.dump();
    const fresh = bytes('new');
    const created = await s.store.writeDocument(p, fresh, { conflict: 'fail' });
    const listed = await versions.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(listed.versions.map((v) => v.id), [created.version!.id]);
    const names = (await readdir(path.join(s.dav.onServer, 'crash', '.pdfservice-versions', 'doc.pdf'))).filter((n) => n !== '.DAV');
    assert.deepEqual(names.sort(), ['index.json', `v-${created.version!.id}-${hexOf(fresh)}.pending`], 'the old versions deleted once the new document was there');
  });
});

/**
 * Writers of one document that hold no lock (the contract's "while writers replace a document", here with its versions
 * looked at): each write's tidy of the versions collection, the rename of its record and the stat it remembers its tag
 * by happen inside its commit (WebDavStore.moveIntoPlace). Outside it, one writer's tidy, by a version another had
 * replaced meanwhile, removed that writer's newest record, or renamed it as its writer did (503: the second MOVE found
 * nothing).
 */
describe('WebDAV versions of concurrent writes', () => {
  const withStore = freshEach(webdavStore);
  const p = documentPathFromBody('cw/doc.pdf', 'path');
  const bytes = (label: string) => Buffer.concat([Buffer.from(`%PDF-1.7 ${label}\n`), randomBytes(8192)]);

  withStore('every overwrite made at once keeps its version, listed with its bytes; the document is the last one kept', async (s) => {
    const versions = s.store.versions!;
    const first = bytes('first');
    await s.store.writeDocument(p, first, { conflict: 'fail' });
    const contents = Array.from({ length: 8 }, (_, i) => bytes(`writer ${i}`));
    const written = await Promise.all(contents.map((c) => s.store.writeDocument(p, c, { conflict: 'overwrite' })));
    const { versions: listed, total, current } = await versions.list(p, { offset: 0, limit: 20 });
    assert.equal(total, 1 + contents.length, `a version per write: ${listed.map((v) => v.etag).join(', ')}`);
    const byId = new Map(listed.map((v) => [v.id, v]));
    for (const [i, w] of written.entries()) {
      assert.equal(byId.get(w.version!.id)?.etag, etagOf(contents[i]!), `writer ${i}'s version is listed`);
      const opened = await versions.open(p, w.version!.id);
      assert.ok((await opened.read()).equals(contents[i]!), `writer ${i}'s version, its bytes`);
      await opened.close();
    }
    const stored = await s.store.openDocument(p);
    const now = await stored.read();
    await stored.close();
    assert.equal(current, listed[0]!.id, 'the newest version is current');
    assert.equal(listed[0]!.etag, etagOf(now), 'and is the document');
    assert.equal((await s.store.statDocument(p))?.etag, etagOf(now), 'statDocument names the document\'s bytes');
  });
});

/**
 * What a crash leaves in a trash entry on the DMS (src/storage/webdav/trash.ts), made by hand over WebDAV as alice: a
 * delete or restore in flight is not listed, and recover() (or, once it is an hour old, a listing) finishes or rolls
 * it back, so a document is where it was or whole in the trash, with its versions.
 */
describe('WebDAV trash after a crash', () => {
  const withStore = freshEach(webdavStore);
  const p = documentPathFromBody('tc/doc.pdf', 'path');
  const bytes = (label: string) => Buffer.concat([Buffer.from(`%PDF-1.7 ${label}\n`), randomBytes(4096)]);
  type S = Awaited<ReturnType<typeof webdavStore>>;
  const url = (s: S, segments: string[], collection = false) => s.dav.client.url([s.dav.name, ...segments], collection);
  const send = async (s: S, method: string, target: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await s.dav.client.send(method, target, alice(), init);
    await res.body.dump();
    assert.ok(res.statusCode < 300, `${method} ${target}: ${res.statusCode}`);
  };
  const versionsUrl = (s: S, name = 'doc.pdf') => url(s, ['tc', '.pdfservice-versions', name], true);
  const entryNames = async (s: S) => (await readdir(path.join(s.dav.onServer, 'tc', '.pdfservice-trash')).catch(() => [] as string[])).filter((n) => n !== '.DAV');
  const twoVersions = async (s: S) => {
    const [v1, v2] = [bytes('one'), bytes('two')];
    await s.store.writeDocument(p, v1, { conflict: 'fail' });
    await s.store.writeDocument(p, v2, { conflict: 'overwrite' });
    return v2;
  };

  withStore('a delete that died before the document\'s MOVE is rolled back by the first listing an hour later: its versions come back', async (s) => {
    const trash = s.store.trash!;
    const v2 = await twoVersions(s);
    // Started two hours ago: record written, versions moved into the entry, the document still in place.
    const name = `${String((Date.now() - 2 * 3600_000) * 1000).padStart(16, '0')}-0badc0de`;
    await send(s, 'MKCOL', url(s, ['tc', '.pdfservice-trash'], true));
    await send(s, 'MKCOL', url(s, ['tc', '.pdfservice-trash', name], true));
    const record = { id: `${name}-${Buffer.from('tc').toString('base64url')}`, kind: 'document', path: ['tc', 'doc.pdf'], deleted: new Date().toISOString(), deletedBy: 'alice', size: v2.length, documentCount: 1, versionCount: 2, hasVersions: true };
    await send(s, 'PUT', url(s, ['tc', '.pdfservice-trash', name, 'entry.pending']), { body: JSON.stringify(record) });
    await send(s, 'MOVE', versionsUrl(s), { headers: { destination: url(s, ['tc', '.pdfservice-trash', name, 'versions'], true) } });
    assert.equal((await s.store.versions!.list(p, { offset: 0, limit: 10 })).total, 0, 'meanwhile the versions are away');
    assert.equal((await trash.list({}, { offset: 0, limit: 10 })).total, 0, 'a delete in flight is not listed');
    assert.deepEqual(await entryNames(s), [], 'the listing rolled it back');
    assert.equal((await s.store.versions!.list(p, { offset: 0, limit: 10 })).total, 2, 'the versions are back beside the document');
    await assertBytes(s, v2);
  });

  withStore('a delete that died after the document\'s MOVE is committed by recover(), and restores whole', async (s) => {
    const trash = s.store.trash!;
    const v2 = await twoVersions(s);
    await s.store.deleteDocument(p, undefined, 'alice');
    const [name] = await entryNames(s);
    // The record's rename back undone: as if the crash came just before it.
    await send(s, 'MOVE', url(s, ['tc', '.pdfservice-trash', name!, 'entry.json']), { headers: { destination: url(s, ['tc', '.pdfservice-trash', name!, 'entry.pending']) } });
    assert.equal((await trash.list({}, { offset: 0, limit: 10 })).total, 0, 'not listed while pending');
    const restarted = await s.reopen();
    await restarted.recover();
    const { entries } = await trash.list({}, { offset: 0, limit: 10 });
    assert.equal(entries.length, 1);
    await trash.restore(entries[0]!.id, p);
    await assertBytes(s, v2);
    assert.equal((await s.store.versions!.list(p, { offset: 0, limit: 10 })).total, 2);
  });

  withStore('a restore that died after moving the versions back, before the document\'s MOVE, is rolled back: the entry is whole again', async (s) => {
    const trash = s.store.trash!;
    const v2 = await twoVersions(s);
    await s.store.deleteDocument(p, undefined, 'alice');
    const [name] = await entryNames(s);
    const entryId = (await trash.list({}, { offset: 0, limit: 1 })).entries[0]!.id;
    await send(s, 'PUT', url(s, ['tc', '.pdfservice-trash', name!, 'restore.json']), { body: JSON.stringify(['tc', 'doc.pdf']) });
    await send(s, 'MOVE', url(s, ['tc', '.pdfservice-trash', name!, 'versions'], true), { headers: { destination: versionsUrl(s) } });
    assert.equal((await trash.list({}, { offset: 0, limit: 10 })).total, 0, 'not listed while being restored');
    const restarted = await s.reopen();
    await restarted.recover();
    const names = (await readdir(path.join(s.dav.onServer, 'tc', '.pdfservice-trash', name!))).filter((n) => n !== '.DAV').sort();
    assert.deepEqual(names, ['entry.json', 'item', 'versions']);
    await trash.restore(entryId, p);
    await assertBytes(s, v2);
    assert.equal((await s.store.versions!.list(p, { offset: 0, limit: 10 })).total, 2);
  });

  async function assertBytes(s: S, expected: Buffer): Promise<void> {
    const opened = await s.store.openDocument(p);
    assert.ok((await opened.read()).equals(expected), 'the document\'s bytes');
    await opened.close();
  }
});

/**
 * Two instances on one DMS (two backends over the same collection, each with its own data folder) whose trash entry
 * locks are one provider, as RedisLocks is for every instance of a service (src/start/stores.ts): restores and purges
 * of one entry sent to both at once take turns under the entry's key, as on the filesystem and S3 (`.trash/<id>`), so
 * exactly one acts and the other finds no entry. Unserialized, the second restore could delete the versions the first
 * had just moved beside the target (found there with no document yet), or a purge remove the item a restore was
 * about to move back.
 */
describe('WebDAV trash entries across instances', () => {
  const withStore = freshEach(webdavStore);
  const p = documentPathFromBody('ti/doc.pdf', 'path');
  const bytes = (label: string) => Buffer.concat([Buffer.from(`%PDF-1.7 ${label}\n`), randomBytes(4096)]);

  withStore('restores and purges of one entry through two instances take turns under the entry\'s shared lock: one acts, whole', async (s) => {
    const shared = new LocalLocks();
    const keys: string[] = [];
    const locks = { acquire: (key: string) => (keys.push(key), shared.acquire(key)) };
    const dataDirs: string[] = [];
    const instance = async () => {
      const client = new DavClient({ url: s.dav.url, timeoutMs: 10_000 });
      clients.push(client);
      const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-instance-'));
      dataDirs.push(dataDir);
      const backend = new WebDavBackend(client, dataDir, undefined, true, true, 0, locks);
      await backend.init();
      return backend.forUser(alice());
    };
    const [a, b] = [await instance(), await instance()];
    const outcome = (r: PromiseSettledResult<void>) => (r.status === 'fulfilled' ? 'done' : r.reason instanceof ServiceError ? r.reason.code : String(r.reason));
    try {
      for (const second of ['restore', 'purge'] as const) {
        const [v1, v2] = [bytes(`${second} one`), bytes(`${second} two`)];
        await a.writeDocument(p, v1, { conflict: 'fail' });
        await a.writeDocument(p, v2, { conflict: 'overwrite' });
        await a.deleteDocument(p, undefined, 'alice');
        const [entry] = (await a.trash!.list({}, { offset: 0, limit: 10 })).entries;
        keys.length = 0;
        const results = (await Promise.allSettled([a.trash!.restore(entry!.id, p), second === 'restore' ? b.trash!.restore(entry!.id, p) : b.trash!.purge(entry!.id)])).map(outcome);
        assert.deepEqual(keys, [`.trash/${entry!.id}`, `.trash/${entry!.id}`], 'both took the entry\'s lock');
        assert.equal(results.filter((r) => r === 'done').length, 1, `one acted: ${results.join(', ')}`);
        assert.ok(results.includes('TRASH_ENTRY_NOT_FOUND'), `the other found no entry: ${results.join(', ')}`);
        await assert.rejects(a.trash!.get(entry!.id), /no entry/);
        if (second === 'restore' || results[0] === 'done') {
          const opened = await b.openDocument(p);
          assert.ok((await opened.read()).equals(v2), 'the restored bytes');
          await opened.close();
          assert.equal((await b.versions!.list(p, { offset: 0, limit: 10 })).total, 2, 'restored with both versions');
          await a.deleteDocument(p, undefined, 'alice');
          await a.trash!.purge((await a.trash!.list({}, { offset: 0, limit: 1 })).entries[0]!.id);
        } else {
          assert.equal(await a.statDocument(p), null, 'purged: not restored');
        }
        assert.deepEqual((await readdir(path.join(s.dav.onServer, 'ti', '.pdfservice-trash'))).filter((n) => n !== '.DAV'), [], 'no entry left');
      }
    } finally {
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Readers of a document that writers replace: mod_dav's MOVE onto an existing document removes it before it renames
 * onto it, and reads take no lock, so a read in that gap found no document (DOCUMENT_NOT_FOUND) for one that exists
 * before and after every write. No read may: in the writers' process the read waits for the MOVE in flight; in another
 * instance it sees the writer's commit LOCK on a document with no content (mod_dav's lock-null resource) and waits for
 * the rename; without versions no LOCK is taken, and the process's own MOVEs are what it waits for.
 */
describe('WebDAV reads while writers replace a document', () => {
  const withStore = freshEach(webdavStore);
  const p = documentPathFromBody('rr/doc.pdf', 'path');
  const bytes = (label: string) => Buffer.concat([Buffer.from(`%PDF-1.7 ${label}\n`), randomBytes(4096)]);

  /** Two writers replace the document `rounds` times each while six readers stat and open it in a loop: every read finds one of the versions written, whole. */
  async function hammer(writer: WebDavStore, reader: WebDavStore): Promise<void> {
    const rounds = 40;
    const first = bytes('first');
    await writer.writeDocument(p, first, { conflict: 'fail' });
    const known = new Set([etagOf(first)]);
    let writing = true;
    const failures: string[] = [];
    let reads = 0;
    const readLoop = async () => {
      while (writing) {
        const stat = await reader.statDocument(p);
        if (!stat) failures.push('statDocument found no document');
        else if (!known.has(stat.etag)) failures.push(`statDocument named an unknown version ${stat.etag}`);
        try {
          const opened = await reader.openDocument(p);
          const read = await opened.read();
          await opened.close();
          if (etagOf(read) !== opened.stat.etag || !known.has(opened.stat.etag)) failures.push('openDocument gave bytes that are not the version it named');
        } catch (err) {
          failures.push(`openDocument: ${err instanceof ServiceError ? err.code : String(err)}`);
        }
        reads++;
      }
    };
    const writeLoop = async (w: number) => {
      for (let i = 0; i < rounds; i++) {
        const next = bytes(`writer ${w} round ${i}`);
        known.add(etagOf(next));
        await writer.writeDocument(p, next, { conflict: 'overwrite' });
      }
    };
    const readers = Array.from({ length: 6 }, readLoop);
    try {
      await Promise.all([writeLoop(0), writeLoop(1)]);
    } finally {
      writing = false;
      await Promise.all(readers);
    }
    assert.ok(reads >= 6, `the readers read during the writes (${reads})`);
    assert.deepEqual(failures, [], `${failures.length} of ${reads} reads failed`);
  }

  const instance = async (url: string, versions: boolean) => {
    const client = new DavClient({ url, timeoutMs: 10_000 });
    clients.push(client);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-reader-'));
    const backend = new WebDavBackend(client, dataDir, undefined, versions, versions);
    await backend.init();
    return { store: backend.forUser(alice()), dispose: () => rm(dataDir, { recursive: true, force: true }) };
  };

  withStore('readers in the writers\' process never find the document missing (versions on: the writes LOCK)', async (s) => {
    await hammer(s.store, s.store);
  });

  withStore('readers in the writers\' process never find the document missing (versions off: no LOCK, the process\'s MOVEs are waited for)', async (s) => {
    const plain = await instance(s.dav.url, false);
    try {
      await hammer(plain.store, plain.store);
    } finally {
      await plain.dispose();
    }
  });

  withStore('readers in another instance never find the document missing (they wait out the writer\'s LOCK on the gap)', async (s) => {
    const other = await instance(s.dav.url, true);
    try {
      await hammer(s.store, other.store);
    } finally {
      await other.dispose();
    }
  });

  withStore('readers in another instance never find the document missing with versions off (an overwrite LOCKs all the same)', async (s) => {
    const [writer, reader] = [await instance(s.dav.url, false), await instance(s.dav.url, false)];
    try {
      await hammer(writer.store, reader.store);
    } finally {
      await writer.dispose();
      await reader.dispose();
    }
  });
});
