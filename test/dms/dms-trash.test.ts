/**
 * The trash on the WebDAV store through the API (docs/versions.md, "Trash"; docs/dms.md), against the Apache mod_dav
 * test server (test/dav/httpd.conf): DELETE moves a document with its versions (or a folder) into a hidden entry
 * beside it on the DMS, `<folder>/.pdfservice-trash/<entry>/`; GET /trash lists it; a restore puts it back byte for
 * byte with its versions; another user neither sees nor restores the first's entries, whether the DMS hides the folder
 * from them (alice's home) or both may write there (restricted/).
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDavServer, type DavServer, type DavUser } from '../helpers/dav-server.js';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let dav: DavServer;
let server: TestServer;

before(async () => {
  dav = await startDavServer();
  server = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url } });
});
after(async () => {
  await server?.stop();
  await dav?.dispose();
});

const as = (user: DavUser) => ({ auth: basicAuth(user, dav.users[user]) });
const ok = (reply: Reply, status = 200) => assert.equal(reply.status, status, reply.text);
const put = (user: DavUser, doc: string, body: Buffer) => call(server, 'PUT', `/documents/${doc}`, { ...as(user), body, headers: { 'content-type': 'application/pdf' } });
type Entry = { id: string; kind: string; path: string; deletedBy: string | null; size: number; documentCount: number; versionCount: number };
const trash = async (user: DavUser): Promise<{ entries: Entry[]; total: number }> => {
  const reply = await call(server, 'GET', '/trash', { ...as(user), headers: { accept: 'application/json' } });
  ok(reply);
  return reply.json();
};
const versions = async (user: DavUser, doc: string): Promise<{ versions: { id: string; etag: string; operation: string }[]; total: number; current: string }> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`, { ...as(user), headers: { accept: 'application/json' } });
  ok(reply);
  return reply.json();
};
const download = async (user: DavUser, doc: string): Promise<Buffer> => {
  const reply = await call(server, 'GET', `/documents/${doc}`, as(user));
  ok(reply);
  return reply.bytes;
};
/** The names in a folder on the DMS's own disk (none when it is not there). */
const onDisk = async (folder: string) => (await readdir(path.join(dav.root, folder)).catch(() => [] as string[])).filter((n) => n !== '.DAV').sort();

describe('the trash on the DMS', () => {
  test('a deleted document moves beside itself with its versions; restored, its bytes and versions are intact', async () => {
    const doc = 'home/alice/trash/report.pdf';
    const v1 = makePdf({ text: () => 'Report first draft' });
    const v2 = makePdf({ text: () => 'Report second draft' });
    ok(await put('alice', doc, v1), 201);
    ok(await put('alice', doc, v2));
    const before = await versions('alice', doc);
    assert.equal(before.total, 2);

    ok(await call(server, 'DELETE', `/documents/${doc}`, as('alice')), 204);
    assert.equal((await call(server, 'GET', `/documents/${doc}`, as('alice'))).status, 404);
    // On the DMS: the document and its versions collection moved into one entry of the folder's hidden trash.
    assert.deepEqual(await onDisk('home/alice/trash'), ['.pdfservice-trash', '.pdfservice-versions']);
    assert.deepEqual(await onDisk('home/alice/trash/.pdfservice-versions'), []);
    const [dir, ...others] = await onDisk('home/alice/trash/.pdfservice-trash');
    assert.deepEqual(others, []);
    const entryDir = path.join(dav.root, 'home/alice/trash/.pdfservice-trash', dir!);
    assert.deepEqual((await readdir(entryDir)).filter((n) => n !== '.DAV').sort(), ['entry.json', 'item', 'versions']);
    assert.equal(sha256(await readFile(path.join(entryDir, 'item'))), sha256(v2), 'the bytes moved, unchanged');
    assert.match(pdftotext(await readFile(path.join(entryDir, 'item'))), /Report second draft/);

    const listed = await trash('alice');
    assert.equal(listed.total, 1);
    const entry = listed.entries[0]!;
    assert.deepEqual({ kind: entry.kind, path: entry.path, deletedBy: entry.deletedBy, size: entry.size, documentCount: entry.documentCount, versionCount: entry.versionCount },
      { kind: 'document', path: `/${doc}`, deletedBy: 'alice', size: v2.length, documentCount: 1, versionCount: 2 });

    // A new document at the path takes it: the entry is refused there (409), and lands at a savePath.
    ok(await put('alice', doc, makePdf({ text: () => 'Another report' })), 201);
    const taken = await call(server, 'POST', `/trash/${entry.id}/restore`, as('alice'));
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json().code, 'TRASH_PATH_TAKEN');
    ok(await call(server, 'DELETE', `/documents/${doc}`, as('alice')), 204);
    const second = (await trash('alice')).entries.find((e) => e.id !== entry.id)!;
    ok(await call(server, 'DELETE', `/trash/${second.id}`, as('alice')), 204);

    const restored = await call(server, 'POST', `/trash/${entry.id}/restore`, as('alice'));
    ok(restored);
    assert.equal(restored.json().path, `/${doc}`);
    assert.equal(sha256(await download('alice', doc)), sha256(v2));
    const after = await versions('alice', doc);
    assert.deepEqual(after.versions.map((v) => [v.id, v.etag]), before.versions.map((v) => [v.id, v.etag]), 'the same versions');
    assert.equal(after.current, before.current);
    const old = await call(server, 'GET', `/documents/${doc}?versionId=${before.versions[1]!.id}`, as('alice'));
    ok(old);
    assert.equal(sha256(old.bytes), sha256(v1));
    assert.equal((await trash('alice')).total, 0);
    assert.deepEqual(await onDisk('home/alice/trash/.pdfservice-trash'), [], 'the entry went');
  });

  test('a deleted folder goes whole into its parent\'s trash and comes back with every document and version', async () => {
    const one = makePdf({ text: () => 'Folder one' });
    const two = makePdf({ text: () => 'Folder two' });
    ok(await put('alice', 'home/alice/project/one.pdf', one), 201);
    ok(await put('alice', 'home/alice/project/in/two.pdf', makePdf({ text: () => 'Two, first' })), 201);
    ok(await put('alice', 'home/alice/project/in/two.pdf', two));
    ok(await call(server, 'DELETE', '/documents/home/alice/project?recursive=true', as('alice')), 204);
    assert.equal((await call(server, 'GET', '/documents/home/alice/project', as('alice'))).status, 404);
    assert.ok(!(await onDisk('home/alice')).includes('project'));
    const entry = (await trash('alice')).entries.find((e) => e.path === '/home/alice/project')!;
    assert.deepEqual([entry.kind, entry.documentCount, entry.size, entry.versionCount], ['folder', 2, one.length + two.length, 3]);

    ok(await call(server, 'POST', `/trash/${entry.id}/restore`, as('alice')));
    assert.equal(sha256(await download('alice', 'home/alice/project/one.pdf')), sha256(one));
    assert.equal(sha256(await download('alice', 'home/alice/project/in/two.pdf')), sha256(two));
    assert.equal((await versions('alice', 'home/alice/project/in/two.pdf')).total, 2);
    assert.equal((await trash('alice')).total, 0);
  });

  test('an entry older than PDFSERVICE_TRASH_MAX_AGE (30 days) is purged when its user\'s listing meets it', async () => {
    const doc = 'home/alice/old/forgotten.pdf';
    ok(await put('alice', doc, makePdf({ text: () => 'Forgotten' })), 201);
    ok(await call(server, 'DELETE', `/documents/${doc}`, as('alice')), 204);
    const [name] = await onDisk('home/alice/old/.pdfservice-trash');
    // Its record says it was deleted 31 days ago (rewritten on the DMS as alice).
    const record = path.join(dav.root, 'home/alice/old/.pdfservice-trash', name!, 'entry.json');
    const stored = JSON.parse(await readFile(record, 'utf8')) as { deleted: string };
    stored.deleted = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const res = await fetch(`${dav.url}home/alice/old/.pdfservice-trash/${name!}/entry.json`, { method: 'PUT', body: JSON.stringify(stored), headers: { authorization: basicAuth('alice', dav.users.alice) } });
    assert.ok(res.status < 300, `PUT: ${res.status}`);
    assert.ok(!(await trash('alice')).entries.some((e) => e.path === `/${doc}`), 'not listed');
    assert.deepEqual(await onDisk('home/alice/old/.pdfservice-trash'), [], 'and gone from the DMS');
  });

  test('another user neither sees nor restores nor purges the first\'s entries', async () => {
    // In alice's home, which the DMS hides from bob, and in restricted/, where both write.
    for (const doc of ['home/alice/secret.pdf', 'restricted/shared-draft.pdf']) {
      ok(await put('alice', doc, makePdf({ text: () => `Alice's ${doc}` })), 201);
      ok(await call(server, 'DELETE', `/documents/${doc}`, as('alice')), 204);
    }
    const mine = (await trash('alice')).entries;
    assert.deepEqual(mine.map((e) => e.path).sort(), ['/home/alice/secret.pdf', '/restricted/shared-draft.pdf']);
    assert.equal((await trash('bob')).total, 0, 'bob\'s trash has none of them');
    for (const e of mine) {
      for (const [method, url] of [['GET', `/trash/${e.id}`], ['POST', `/trash/${e.id}/restore`], ['DELETE', `/trash/${e.id}`]] as const) {
        const reply = await call(server, method, url, as('bob'));
        assert.equal(reply.status, 404, `${method} ${url} as bob: ${reply.text}`);
        assert.equal(reply.json().code, 'TRASH_ENTRY_NOT_FOUND');
      }
    }
    assert.equal((await call(server, 'GET', '/documents/restricted/shared-draft.pdf', as('bob'))).status, 404, 'not restored by bob');
    assert.equal((await trash('alice')).total, 2, 'still alice\'s');
    for (const e of mine) ok(await call(server, 'DELETE', `/trash/${e.id}`, as('alice')), 204);
  });
});
