/**
 * Versions on the WebDAV store through the API (docs/versions.md, "Storage (WebDAV)"), against the Apache mod_dav
 * test server (test/dav/httpd.conf): writes keep versions in the hidden collection beside each document, read back
 * byte for byte with ?versionId=; a restore; the DMS's rights on the folder are the rights on its versions; a
 * redaction leaves no file on the DMS, nor in the download cache, that pdftotext finds the redacted text in.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDavServer, type DavServer, type DavUser } from '../helpers/dav-server.js';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext, redactablePdf } from '../helpers/pdf.js';
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

interface Version {
  id: string;
  etag: string;
  operation: string;
  current: boolean;
  label?: string;
}
async function list(user: DavUser, doc: string): Promise<{ versions: Version[]; total: number; current: string }> {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`, as(user));
  ok(reply);
  return reply.json();
}
const version = (user: DavUser, doc: string, id: string) => call(server, 'GET', `/documents/${doc}?versionId=${id}`, as(user));
const current = async (user: DavUser, doc: string) => {
  const reply = await call(server, 'GET', `/documents/${doc}`, as(user));
  ok(reply);
  return reply.bytes;
};

/** The hidden collection of a document on the DMS's disk: its file names. */
async function hidden(doc: string): Promise<string[]> {
  const dir = path.join(dav.root, path.dirname(doc), '.pdfservice-versions', path.basename(doc));
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

function refused(reply: Reply): void {
  assert.equal(reply.status, 403, reply.text);
  assert.equal(reply.json().code, 'DMS_FORBIDDEN');
}

describe('versions on the DMS', () => {
  test('every write keeps a version, read back byte for byte; old bytes are COPYed beside the document, equal bytes once; a restore is a new version', async () => {
    const doc = 'home/alice/history.pdf';
    const v1 = makePdf({ text: () => 'First draft' });
    ok(await put('alice', doc, v1), 201);
    ok(await call(server, 'POST', `/documents/${doc}/pages`, { ...as('alice'), body: { TextStampAction: { text: 'Stamped', x: 72, y: 72, pageIndex: 0 } } }));
    const v2 = await current('alice', doc);
    const v3 = makePdf({ text: () => 'Third draft' });
    ok(await put('alice', doc, v3));

    const { versions, total, current: currentId } = await list('alice', doc);
    assert.equal(total, 3);
    assert.deepEqual(versions.map((v) => v.operation), ['upload', 'TextStampAction', 'upload']);
    assert.equal(currentId, versions[0]!.id);
    assert.deepEqual(versions.map((v) => v.current), [true, false, false]);
    for (const [v, bytes] of [[versions[2]!, v1], [versions[1]!, v2], [versions[0]!, v3]] as const) {
      const read = await version('alice', doc, v.id);
      ok(read);
      assert.equal(sha256(read.bytes), sha256(bytes), `version ${v.operation} read back`);
      assert.equal(read.headers.get('etag'), v.etag);
    }
    const range = await call(server, 'GET', `/documents/${doc}?versionId=${versions[2]!.id}`, { ...as('alice'), headers: { range: 'bytes=0-7' } });
    assert.equal(range.status, 206);
    assert.ok(range.bytes.equals(v1.subarray(0, 8)));

    // On the DMS: three records, their index and the blobs of the two replaced versions (the current one is the document
    // itself). The newest record is still named pending: the next write renames it, before its own MOVE.
    const names = await hidden(doc);
    assert.equal(names.filter((n) => /^v-.*\.json$/.test(n)).length, 2, names.join(' '));
    assert.deepEqual(names.filter((n) => n.endsWith('.pending')), [`v-${versions[0]!.id}-${versions[0]!.etag.replace(/"/g, '')}.pending`], names.join(' '));
    assert.ok(names.includes('index.json'), names.join(' '));
    const blobs = names.filter((n) => n.startsWith('b-'));
    assert.equal(blobs.length, 2, names.join(' '));
    const onDisk = await Promise.all(blobs.map((b) => readFile(path.join(dav.root, 'home/alice/.pdfservice-versions/history.pdf', b))));
    assert.deepEqual(onDisk.map(sha256).sort(), [sha256(v1), sha256(v2)].sort(), 'the blobs hold the replaced bytes');
    // Never listed as a document or folder.
    const listing = await call(server, 'GET', '/documents/home/alice', { ...as('alice'), headers: { accept: 'application/json' } });
    assert.deepEqual(listing.json().entries.map((e: { name: string }) => e.name), ['history.pdf']);

    // Restore the first: a new current version with its bytes; its blob is shared, the replaced third gets one. Its
    // blob is copied by the DMS onto the write's upload (a COPY): no GET of it, no PUT of its bytes.
    const log = async () => (await readFile(path.join(dav.runDir, 'access.log'), 'utf8')).split('\n');
    const logged = (await log()).length;
    const restored = await call(server, 'POST', `/documents/${doc}/versions/${versions[2]!.id}/restore`, { ...as('alice'), headers: { 'if-match': versions[0]!.etag } });
    ok(restored);
    const restoreRequests = (await log()).slice(logged - 1);
    const blobName = `b-${versions[2]!.etag.replace(/"/g, '')}`;
    assert.ok(restoreRequests.some((line) => line.includes(`"COPY /dav/home/alice/.pdfservice-versions/history.pdf/${blobName} `)), restoreRequests.join('\n'));
    assert.ok(!restoreRequests.some((line) => line.includes(`"GET /dav/home/alice/.pdfservice-versions/history.pdf/${blobName} `)), 'the blob is not read');
    assert.ok(!restoreRequests.some((line) => /"PUT \S*\.pdfservice-tmp-/.test(line)), 'no bytes uploaded');
    assert.ok(!restoreRequests.some((line) => /"PROPFIND \S*\/\.pdfservice-versions\/history\.pdf\/ /.test(line)), 'the index alone was read: no PROPFIND of the collection');
    assert.equal(sha256(await current('alice', doc)), sha256(v1));
    const after = await list('alice', doc);
    assert.equal(after.total, 4);
    assert.equal(after.versions[0]!.operation, 'restore');
    assert.equal(after.versions[0]!.etag, versions[2]!.etag);
    assert.equal((await hidden(doc)).filter((n) => n.startsWith('b-')).length, 3, 'v1 and v2 as before, v3 new: equal bytes share one blob');
    // A stale If-Match is 412 and keeps nothing.
    const stale = await call(server, 'POST', `/documents/${doc}/versions/${versions[1]!.id}/restore`, { ...as('alice'), headers: { 'if-match': versions[0]!.etag } });
    assert.equal(stale.status, 412, stale.text);
    assert.equal((await list('alice', doc)).total, 4);

    // Deleting one, then the document: its versions leave the document's folder (with it, into the trash: dms-trash.test.ts).
    ok(await call(server, 'DELETE', `/documents/${doc}/versions/${versions[1]!.id}`, as('alice')), 204);
    assert.equal((await hidden(doc)).filter((n) => n.startsWith('b-')).length, 2, 'the deleted version\'s blob went');
    ok(await call(server, 'DELETE', `/documents/${doc}`, as('alice')), 204);
    assert.deepEqual(await hidden(doc), []);
  });

  test('a listing is one GET of the versions\' index; without it each record is read from the DMS once, and again once it changed; a label set through another instance is seen', async () => {
    const doc = 'home/alice/memo.pdf';
    for (let i = 1; i <= 3; i++) ok(await put('alice', doc, makePdf({ text: () => `Memo ${i}` })), i === 1 ? 201 : 200);
    // Apache's access log (test/dav/httpd.conf): one line per request, written when it ends.
    const logged = async (re: RegExp) => (await readFile(path.join(dav.runDir, 'access.log'), 'utf8')).split('\n').filter((line) => re.test(line)).length;
    const recordGets = () => logged(/"GET \S*\/\.pdfservice-versions\/memo\.pdf\/v-\S*\.(json|pending) /);
    const collectionReads = () => logged(/"PROPFIND \S*\/\.pdfservice-versions\/memo\.pdf\/ /);
    const indexFile = path.join(dav.root, 'home/alice/.pdfservice-versions/memo.pdf/index.json');
    const [records0, propfinds0] = [await recordGets(), await collectionReads()];
    const first = await list('alice', doc);
    assert.equal(first.total, 3);
    assert.deepEqual([await recordGets(), await collectionReads()], [records0, propfinds0], 'the index alone was read: no record, no PROPFIND of the collection');

    // Without the index (removed on the DMS): the records are read, and the index written again.
    await rm(indexFile);
    assert.deepEqual(await list('alice', doc), first, 'the same listing');
    const read = await recordGets();
    assert.equal(read, records0 + 3, 'each record read once');
    await stat(indexFile);
    await rm(indexFile);
    assert.deepEqual(await list('alice', doc), first, 'the same listing');
    assert.equal(await recordGets(), read, 'no record read again while none changed');
    // A second instance on the same DMS labels the oldest version: the first sees the label at its next listing.
    const other = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url } });
    try {
      const oldest = first.versions.at(-1)!.id;
      ok(await call(other, 'PATCH', `/documents/${doc}/versions/${oldest}`, { ...as('alice'), body: { label: 'reviewed' } }));
      const before = await recordGets();
      const labelled = await list('alice', doc);
      assert.equal(labelled.versions.find((v) => v.id === oldest)?.label, 'reviewed');
      assert.equal(await recordGets(), before, 'the index the PATCH wrote says it');
      ok(await call(other, 'PATCH', `/documents/${doc}/versions/${oldest}`, { ...as('alice'), body: { label: 'approved' } }));
      await rm(indexFile);
      const again = await list('alice', doc);
      assert.equal(again.versions.find((v) => v.id === oldest)?.label, 'approved');
      assert.equal(await recordGets(), before + 1, 'without the index, the changed record alone is read again');
    } finally {
      await other.stop();
    }
    // Through this instance too.
    ok(await call(server, 'PATCH', `/documents/${doc}/versions/${first.versions[0]!.id}`, { ...as('alice'), body: { label: 'latest' } }));
    assert.equal((await list('alice', doc)).versions[0]?.label, 'latest');

    // A write's look is the index alone (it names the blobs and pointers too): no PROPFIND of the collection, no record
    // read; without the index (removed on the DMS), the write reads the collection once and writes the index again.
    const [records1, propfinds1] = [await recordGets(), await collectionReads()];
    ok(await put('alice', doc, makePdf({ text: () => 'Memo 4' })));
    assert.deepEqual([await recordGets(), await collectionReads()], [records1, propfinds1], 'the write read the index alone');
    await rm(indexFile);
    ok(await put('alice', doc, makePdf({ text: () => 'Memo 5' })));
    assert.equal(await collectionReads(), propfinds1 + 1, 'without the index, one PROPFIND of the collection');
    await stat(indexFile);
    const five = await list('alice', doc);
    assert.equal(five.total, 5);
    assert.equal(five.versions[2]?.label, 'latest');
  });

  test('the versions\' index: missing, unreadable or stale (the document changed on the DMS directly), a listing answers from the names and writes it again; another instance\'s writes, labels and deletes keep it', async () => {
    const doc = 'home/alice/indexed.pdf';
    const bodies = [1, 2, 3].map((i) => makePdf({ text: () => `Indexed ${i}` }));
    for (const [i, body] of bodies.entries()) ok(await put('alice', doc, body), i === 0 ? 201 : 200);
    const collectionReads = async () => (await readFile(path.join(dav.runDir, 'access.log'), 'utf8')).split('\n').filter((line) => /"PROPFIND \S*\/\.pdfservice-versions\/indexed\.pdf\/ /.test(line)).length;
    const indexFile = path.join(dav.root, 'home/alice/.pdfservice-versions/indexed.pdf/index.json');
    const indexed = async () => JSON.parse(await readFile(indexFile, 'utf8')) as { etag: string; versions: { id: string }[] };
    const fromIndex = async () => {
      const before = await collectionReads();
      const listed = await list('alice', doc);
      assert.equal(await collectionReads(), before, 'listed from the index alone: no PROPFIND of the collection');
      return listed;
    };
    const first = await fromIndex();
    assert.equal(first.total, 3);
    assert.equal((await indexed()).etag, first.versions[0]!.etag, 'written for the current content');
    assert.deepEqual((await indexed()).versions.map((v) => v.id), first.versions.map((v) => v.id).reverse(), 'oldest first');

    // Missing, then unreadable: the same listing, and the index is written again.
    await rm(indexFile);
    assert.deepEqual(await list('alice', doc), first);
    assert.deepEqual(await fromIndex(), first);
    await writeFile(indexFile, '{"etag": "');
    assert.deepEqual(await list('alice', doc), first);
    assert.deepEqual(await fromIndex(), first);

    // Stale: the document replaced on the DMS directly (not through the service): the index names the old content's
    // ETag, so the names decide: the newest version's bytes went with it (not shown), the two kept as blobs are.
    const direct = makePdf({ text: () => 'Written on the DMS' });
    const written = await fetch(`${dav.url}${doc}`, { method: 'PUT', headers: { authorization: basicAuth('alice', dav.users.alice) }, body: new Uint8Array(direct) });
    await written.arrayBuffer();
    assert.ok([201, 204].includes(written.status), String(written.status));
    const stale = await list('alice', doc);
    assert.deepEqual(stale.versions.map((v) => v.id), first.versions.slice(1).map((v) => v.id));
    assert.equal(stale.current, null);
    const directTag = (await call(server, 'GET', `/documents/${doc}`, as('alice'))).headers.get('etag');
    assert.equal((await indexed()).etag, directTag, 'written again for the document as it is');
    assert.deepEqual(await fromIndex(), stale);

    // Another instance over the same DMS (its own data folder) writes, labels and deletes: each is listed here from
    // the index it wrote, and every version listed reads back byte for byte.
    const other = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url } });
    try {
      ok(await call(other, 'PUT', `/documents/${doc}`, { ...as('alice'), body: bodies[0], headers: { 'content-type': 'application/pdf' } }));
      const after = await fromIndex();
      assert.equal(after.total, 4, 'the DMS\'s write kept as an unrecorded version, then the new one');
      assert.equal(after.current, after.versions[0]!.id);
      assert.deepEqual(after.versions.map((v) => v.operation), ['upload', 'unrecorded', 'upload', 'upload']);
      for (const [v, bytes] of after.versions.map((v, i) => [v, [bodies[0]!, direct, bodies[1]!, bodies[0]!][i]!] as const)) {
        const read = await version('alice', doc, v.id);
        ok(read);
        assert.equal(sha256(read.bytes), sha256(bytes), `version ${v.id} read back`);
      }
      ok(await call(other, 'PATCH', `/documents/${doc}/versions/${after.versions[2]!.id}`, { ...as('alice'), body: { label: 'second', pinned: true } }));
      const labelled = await fromIndex();
      assert.equal(labelled.versions[2]!.label, 'second');
      ok(await call(other, 'DELETE', `/documents/${doc}/versions/${after.versions[1]!.id}`, as('alice')), 204);
      const removed = await fromIndex();
      assert.deepEqual(removed.versions.map((v) => v.id), [after.versions[0]!.id, after.versions[2]!.id, after.versions[3]!.id]);
      assert.deepEqual(await list('alice', doc), removed);
      await rm(indexFile);
      assert.deepEqual(await list('alice', doc), removed, 'the index said what the names and records say');
    } finally {
      await other.stop();
    }
  });

  test('versions are readable exactly by those who can read the document: the DMS\'s rights on its folder', async () => {
    const mine = 'home/alice/private.pdf';
    ok(await put('alice', mine, makePdf({ text: () => 'Private one' })), 201);
    ok(await put('alice', mine, makePdf({ text: () => 'Private two' })));
    const { versions } = await list('alice', mine);
    assert.equal(versions.length, 2);
    refused(await call(server, 'GET', `/documents/${mine}/versions`, as('bob')));
    refused(await call(server, 'GET', `/documents/${mine}/versions/${versions[1]!.id}`, as('bob')));
    refused(await version('bob', mine, versions[1]!.id));
    refused(await call(server, 'POST', `/documents/${mine}/versions/${versions[1]!.id}/restore`, as('bob')));
    refused(await call(server, 'DELETE', `/documents/${mine}/versions/${versions[1]!.id}`, as('bob')));
    assert.equal((await list('alice', mine)).total, 2, 'unchanged');

    // shared/: every user reads, alice alone writes: bob reads its versions, and changes none.
    const shared = 'shared/memo.pdf';
    const first = makePdf({ text: () => 'Shared first' });
    ok(await put('alice', shared, first), 201);
    ok(await put('alice', shared, makePdf({ text: () => 'Shared second' })));
    const seen = await list('bob', shared);
    assert.equal(seen.total, 2);
    const old = await version('bob', shared, seen.versions[1]!.id);
    ok(old);
    assert.equal(sha256(old.bytes), sha256(first));
    refused(await call(server, 'POST', `/documents/${shared}/versions/${seen.versions[1]!.id}/restore`, as('bob')));
    refused(await call(server, 'PATCH', `/documents/${shared}/versions/${seen.versions[1]!.id}`, { ...as('bob'), body: { label: 'mine' } }));
    refused(await call(server, 'DELETE', `/documents/${shared}/versions/${seen.versions[1]!.id}`, as('bob')));
    assert.equal((await list('alice', shared)).total, 2);
  });

  test('ApplyRedactionsAction purges every earlier version: no file on the DMS nor in the download cache holds the redacted text', async () => {
    const doc = 'home/alice/redacted.pdf';
    ok(await put('alice', doc, redactablePdf(2)), 201);
    ok(await call(server, 'POST', `/documents/${doc}/pages`, { ...as('alice'), body: { TextStampAction: { text: 'Draft', x: 72, y: 72, pageIndex: 0 } } }));
    // Every earlier version read once, so the download cache holds their bytes too.
    for (const v of (await list('alice', doc)).versions) assert.match(pdftotext((await version('alice', doc, v.id)).bytes), /Secret 1/);
    const applied = await call(server, 'POST', `/documents/${doc}`, { ...as('alice'), body: { ApplyRedactionsAction: {} } });
    ok(applied);
    assert.equal(applied.json().versionsPurged, 2);
    const { versions, total } = await list('alice', doc);
    assert.equal(total, 1);
    for (const v of versions) assert.doesNotMatch(pdftotext((await version('alice', doc, v.id)).bytes), /Secret/);
    assert.match(pdftotext(await current('alice', doc)), /Kept 1/);
    // Over WebDAV's own disk: nothing in the hidden collection, nor anywhere in alice's home, yields the text.
    // (.DAV is mod_dav_fs's database of dead properties; pdftotext reads every file below, it included.)
    assert.deepEqual((await hidden(doc)).filter((n) => !/^v-.*\.(json|pending)$|^index\.json$/.test(n) && n !== '.DAV'), [], 'no blob left');
    const home = path.join(dav.root, 'home/alice');
    let checked = 0;
    for (const entry of await readdir(home, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const bytes = await readFile(path.join(entry.parentPath, entry.name));
      assert.ok(!bytes.includes('Secret'), `${entry.name} on the DMS holds no such bytes`);
      if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) continue;
      checked++;
      assert.doesNotMatch(pdftotext(bytes), /Secret/, `${entry.name} on the DMS`);
    }
    assert.ok(checked >= 1, 'the current document was checked');
    const keptDir = path.join(server.dataDir, 'kept');
    for (const name of await readdir(keptDir).catch(() => [] as string[])) {
      assert.doesNotMatch(pdftotext(await readFile(path.join(keptDir, name))), /Secret/, `kept file ${name}`);
    }
  });
});
