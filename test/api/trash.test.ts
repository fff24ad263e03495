/**
 * The trash over HTTP (docs/versions.md, "Trash"): DELETE of a document or folder moves it, with its versions, into the
 * deleting user's trash; restore puts it back byte for byte with its versions (at its path or a savePath, 409 when
 * taken); purge; per-user isolation and an admin's ?owner=; a redacted document restored from the trash holds no
 * redacted text; a new document at a deleted path starts with no versions; the service with the trash off.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext, redactablePdf } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const password = 'a-long-test-password';
const alice = basicAuth('trash-alice', password);
const bob = basicAuth('trash-bob', password);
const noPut = basicAuth('trash-no-put', password);

before(async () => {
  server = await startServer();
  for (const [username, rights] of [['trash-alice', ['GET', 'POST', 'PUT', 'DELETE']], ['trash-bob', ['GET', 'POST', 'PUT', 'DELETE']], ['trash-no-put', ['GET', 'POST', 'DELETE']]] as const) {
    const created = await call(server, 'POST', '/users', { body: { username, password, rights } });
    assert.equal(created.status, 201, created.text);
  }
});
after(async () => {
  await server.stop();
});

const ok = (reply: Reply, status = 200) => assert.equal(reply.status, status, reply.text);
const put = (doc: string, body: Buffer, auth?: string) => call(server, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf' }, ...(auth ? { auth } : {}) });
const stamp = (doc: string, text: string, auth?: string) => call(server, 'POST', `/documents/${doc}/pages`, { body: { TextStampAction: { text, x: 72, y: 72, pageIndex: 0 } }, ...(auth ? { auth } : {}) });
type Entry = { id: string; kind: string; path: string; deletedBy: string | null; size: number; documentCount: number; versionCount: number };
const trash = async (auth?: string, query = ''): Promise<{ entries: Entry[]; total: number; owner: string }> => {
  const reply = await call(server, 'GET', `/trash${query}`, { headers: { accept: 'application/json' }, ...(auth ? { auth } : {}) });
  ok(reply);
  return reply.json();
};
const versions = async (doc: string, auth?: string): Promise<{ versions: { etag: string; operation: string }[]; total: number }> => {
  const reply = await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' }, ...(auth ? { auth } : {}) });
  ok(reply);
  return reply.json();
};
const download = async (doc: string, auth?: string): Promise<Buffer> => {
  const reply = await call(server, 'GET', `/documents/${doc}`, auth ? { auth } : {});
  ok(reply);
  return reply.bytes;
};

describe('a deleted document goes to the trash with its versions', () => {
  const doc = 'trash-a/report.pdf';
  const uploaded = makePdf({ pages: 2, text: (p) => `Report page ${p}` });
  let stamped: Buffer;
  let before: { versions: { etag: string; operation: string }[]; total: number };
  let entry: Entry;

  test('delete: gone from the folder and 404, listed in the deleter\'s trash', async () => {
    ok(await put(doc, uploaded, alice), 201);
    ok(await stamp(doc, 'Stamped', alice));
    stamped = await download(doc, alice);
    before = await versions(doc, alice);
    assert.equal(before.total, 2);
    ok(await call(server, 'DELETE', `/documents/${doc}`, { auth: alice }), 204);
    assert.equal((await call(server, 'GET', `/documents/${doc}`, { auth: alice })).status, 404);
    const folder = await call(server, 'GET', '/documents/trash-a', { auth: alice, headers: { accept: 'application/json' } });
    ok(folder);
    assert.deepEqual(folder.json().entries, []);
    const listed = await trash(alice);
    assert.equal(listed.owner, 'trash-alice');
    assert.equal(listed.entries.length, 1);
    entry = listed.entries[0]!;
    assert.deepEqual({ kind: entry.kind, path: entry.path, deletedBy: entry.deletedBy, size: entry.size, documentCount: entry.documentCount, versionCount: entry.versionCount },
      { kind: 'document', path: `/${doc}`, deletedBy: 'trash-alice', size: stamped.length, documentCount: 1, versionCount: 2 });
    // Nothing of it below documents/: the trash is beside it.
    assert.deepEqual(await readdir(path.join(server.dataDir, 'documents', 'trash-a')), []);
    const one = await call(server, 'GET', `/trash/${entry.id}`, { auth: alice });
    ok(one);
    assert.equal(one.json().id, entry.id);
    const xml = await call(server, 'GET', '/trash', { auth: alice, headers: { accept: 'application/xml' } });
    ok(xml);
    assert.match(xml.text, /<Trash>.*<entry>.*<kind>document<\/kind>/s);
  });

  test('a new document at the deleted path starts with no versions', async () => {
    ok(await put(doc, makePdf({ text: () => 'Someone else' }), alice), 201);
    const fresh = await versions(doc, alice);
    assert.equal(fresh.total, 1);
    assert.equal(fresh.versions[0]!.operation, 'upload');
  });

  test('restore to a taken path is 409 TRASH_PATH_TAKEN; with a savePath it lands there, bytes and versions intact', async () => {
    const taken = await call(server, 'POST', `/trash/${entry.id}/restore`, { auth: alice });
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json().code, 'TRASH_PATH_TAKEN');
    const restored = await call(server, 'POST', `/trash/${entry.id}/restore`, { auth: alice, body: { savePath: 'trash-a/report-back.pdf' } });
    ok(restored);
    assert.equal(restored.json().path, '/trash-a/report-back.pdf');
    assert.equal(restored.headers.get('etag'), restored.json().etag);
    assert.equal(sha256(await download('trash-a/report-back.pdf', alice)), sha256(stamped));
    const after = await versions('trash-a/report-back.pdf', alice);
    assert.deepEqual(after.versions.map((v) => [v.etag, v.operation]), before.versions.map((v) => [v.etag, v.operation]));
    // Each version still opens to its bytes: the first is what was uploaded.
    const first = await call(server, 'GET', `/documents/trash-a/report-back.pdf?versionId=${(after.versions.at(-1) as unknown as { id: string }).id}`, { auth: alice });
    ok(first);
    assert.equal(sha256(first.bytes), sha256(uploaded));
    assert.equal((await trash(alice)).total, 0);
    // Restored once: the entry is gone.
    assert.equal((await call(server, 'POST', `/trash/${entry.id}/restore`, { auth: alice })).status, 404);
  });

  test('restore at the original path, and the restored document is a document like any other', async () => {
    const other = 'trash-a/second.pdf';
    ok(await put(other, uploaded, alice), 201);
    ok(await call(server, 'DELETE', `/documents/${other}`, { auth: alice }), 204);
    const id = (await trash(alice)).entries[0]!.id;
    const restored = await call(server, 'POST', `/trash/${id}/restore`, { auth: alice });
    ok(restored);
    assert.equal(sha256(await download(other, alice)), sha256(uploaded));
    ok(await stamp(other, 'After restore', alice));
    assert.equal((await versions(other, alice)).total, 2);
  });
});

describe('a deleted folder goes to the trash whole', () => {
  test('recursive delete, then restore: every document back with its bytes and versions', async () => {
    const docs = { 'trash-f/one.pdf': makePdf({ text: () => 'One' }), 'trash-f/sub/two.pdf': makePdf({ pages: 3, text: (p) => `Two ${p}` }) };
    for (const [doc, bytes] of Object.entries(docs)) ok(await put(doc, bytes, alice), 201);
    ok(await stamp('trash-f/sub/two.pdf', 'Edited', alice));
    const twoNow = await download('trash-f/sub/two.pdf', alice);
    const twoVersions = await versions('trash-f/sub/two.pdf', alice);
    ok(await call(server, 'DELETE', '/documents/trash-f?recursive=true', { auth: alice }), 204);
    assert.equal((await call(server, 'GET', '/documents/trash-f', { auth: alice })).status, 404);
    const entry = (await trash(alice)).entries[0]!;
    assert.deepEqual({ kind: entry.kind, path: entry.path, documentCount: entry.documentCount, versionCount: entry.versionCount },
      { kind: 'folder', path: '/trash-f', documentCount: 2, versionCount: 3 });
    const restored = await call(server, 'POST', `/trash/${entry.id}/restore`, { auth: alice, headers: { accept: 'application/json' } });
    ok(restored);
    assert.deepEqual(restored.json().entries.map((e: { name: string }) => e.name), ['one.pdf', 'sub']);
    assert.equal(sha256(await download('trash-f/one.pdf', alice)), sha256(docs['trash-f/one.pdf']));
    assert.equal(sha256(await download('trash-f/sub/two.pdf', alice)), sha256(twoNow));
    assert.deepEqual((await versions('trash-f/sub/two.pdf', alice)).versions, twoVersions.versions);
  });

  test('a folder restored at a savePath; 409 when that folder exists', async () => {
    ok(await put('trash-g/a.pdf', makePdf(), alice), 201);
    ok(await call(server, 'DELETE', '/documents/trash-g?recursive=true', { auth: alice }), 204);
    const id = (await trash(alice)).entries[0]!.id;
    ok(await call(server, 'PUT', '/documents/trash-g-taken', { auth: alice }), 201);
    const taken = await call(server, 'POST', `/trash/${id}/restore`, { auth: alice, body: { savePath: 'trash-g-taken' } });
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json().code, 'TRASH_PATH_TAKEN');
    ok(await call(server, 'POST', `/trash/${id}/restore`, { auth: alice, body: { savePath: 'elsewhere/trash-g' } }));
    assert.equal((await download('elsewhere/trash-g/a.pdf', alice)).length > 0, true);
  });

  test('an empty folder is erased, not kept', async () => {
    ok(await call(server, 'PUT', '/documents/trash-empty/inner', { auth: alice }), 201);
    const before = (await trash(alice)).total;
    ok(await call(server, 'DELETE', '/documents/trash-empty?recursive=true', { auth: alice }), 204);
    assert.equal((await trash(alice)).total, before);
  });
});

describe('per user', () => {
  let aliceEntry: string;
  before(async () => {
    ok(await put('trash-u/alice.pdf', makePdf({ text: () => 'Alice' }), alice), 201);
    ok(await call(server, 'DELETE', '/documents/trash-u/alice.pdf', { auth: alice }), 204);
    ok(await put('trash-u/bob.pdf', makePdf({ text: () => 'Bob' }), bob), 201);
    ok(await call(server, 'DELETE', '/documents/trash-u/bob.pdf', { auth: bob }), 204);
    aliceEntry = (await trash(alice)).entries.find((e) => e.path === '/trash-u/alice.pdf')!.id;
  });

  test('each user sees only their own entries; another\'s is 404 to get, restore and purge', async () => {
    const bobs = await trash(bob);
    assert.deepEqual(bobs.entries.map((e) => e.path), ['/trash-u/bob.pdf']);
    assert.ok(!(await trash(alice)).entries.some((e) => e.path === '/trash-u/bob.pdf'));
    for (const [method, url] of [['GET', `/trash/${aliceEntry}`], ['POST', `/trash/${aliceEntry}/restore`], ['DELETE', `/trash/${aliceEntry}`]] as const) {
      const reply = await call(server, method, url, { auth: bob });
      assert.equal(reply.status, 404, `${method} ${url}: ${reply.text}`);
      assert.equal(reply.json().code, 'TRASH_ENTRY_NOT_FOUND');
    }
    assert.equal((await call(server, 'GET', '/trash/not-an-id', { auth: bob })).status, 404);
    const forbidden = await call(server, 'GET', '/trash?owner=trash-alice', { auth: bob });
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.equal((await trash(bob, '?owner=trash-bob')).total, 1);
  });

  test('an admin lists another user\'s with ?owner=, everyone\'s with ?owner=*, and may purge any', async () => {
    const alices = await trash(undefined, '?owner=trash-alice');
    assert.equal(alices.owner, 'trash-alice');
    assert.ok(alices.entries.every((e) => e.deletedBy === 'trash-alice'));
    assert.ok(alices.entries.some((e) => e.id === aliceEntry));
    const all = await trash(undefined, '?owner=*');
    assert.ok(all.entries.some((e) => e.deletedBy === 'trash-alice') && all.entries.some((e) => e.deletedBy === 'trash-bob'));
    assert.equal((await trash()).entries.some((e) => e.id === aliceEntry), false, 'the admin\'s own trash holds what the admin deleted');
    const paged = await call(server, 'GET', '/trash?owner=*&limit=1', { headers: { accept: 'application/json' } });
    ok(paged);
    assert.equal(paged.json().entries.length, 1);
    assert.match(paged.headers.get('link') ?? '', /offset=1&limit=1&owner=\*>; rel="next"/);
    assert.equal(paged.json().next, '/pdfservice/v1/trash?offset=1&limit=1&owner=*');
    ok(await call(server, 'DELETE', `/trash/${aliceEntry}`), 204);
    assert.equal((await call(server, 'GET', `/trash/${aliceEntry}`, { auth: alice })).status, 404);
  });

  test('restore needs the PUT right', async () => {
    ok(await put('trash-u/no-put.pdf', makePdf(), alice), 201);
    // Deleted by the user without PUT (DELETE right), who may not write it back.
    ok(await call(server, 'DELETE', '/documents/trash-u/no-put.pdf', { auth: noPut }), 204);
    const id = (await trash(noPut)).entries[0]!.id;
    const refused = await call(server, 'POST', `/trash/${id}/restore`, { auth: noPut });
    assert.equal(refused.status, 403, refused.text);
    assert.equal((await trash(noPut)).total, 1);
  });
});

describe('purge', () => {
  test('DELETE /trash/{id} removes the entry and its files for good', async () => {
    ok(await put('trash-p/gone.pdf', makePdf({ text: () => 'Gone' }), alice), 201);
    ok(await call(server, 'DELETE', '/documents/trash-p/gone.pdf', { auth: alice }), 204);
    const id = (await trash(alice)).entries[0]!.id;
    assert.ok((await readdir(path.join(server.dataDir, 'trash'))).includes(id));
    ok(await call(server, 'DELETE', `/trash/${id}`, { auth: alice }), 204);
    assert.ok(!(await readdir(path.join(server.dataDir, 'trash'))).includes(id));
    assert.equal((await call(server, 'DELETE', `/trash/${id}`, { auth: alice })).status, 404);
    assert.equal((await call(server, 'POST', `/trash/${id}/restore`, { auth: alice })).status, 404);
  });
});

describe('a redacted document through the trash', () => {
  test('trashed and restored, no version and no file of the trash holds the redacted text', async () => {
    const doc = 'trash-r/redacted.pdf';
    ok(await put(doc, redactablePdf(2), alice), 201);
    ok(await stamp(doc, 'Before redaction', alice));
    ok(await call(server, 'POST', `/documents/${doc}`, { body: { ApplyRedactionsAction: {} }, auth: alice }));
    ok(await call(server, 'DELETE', `/documents/${doc}`, { auth: alice }), 204);
    const entry = (await trash(alice)).entries[0]!;
    assert.equal(entry.versionCount, 1);
    // Every file of the entry (the document and its kept bytes) is free of the redacted text.
    const walk = async (dir: string): Promise<string[]> => (await readdir(dir, { withFileTypes: true })).flatMap((e) => (e.isDirectory() ? [] : [path.join(dir, e.name)]))
      .concat(...(await Promise.all((await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => walk(path.join(dir, e.name))))));
    const pdfs = (await walk(path.join(server.dataDir, 'trash', entry.id))).filter((f) => !f.endsWith('.json'));
    assert.ok(pdfs.length >= 2, pdfs.join(', '));
    for (const file of pdfs) assert.doesNotMatch(pdftotext(await readFile(file)), /Secret/, file);
    ok(await call(server, 'POST', `/trash/${entry.id}/restore`, { auth: alice }));
    const text = pdftotext(await download(doc, alice));
    assert.match(text, /Kept 1/);
    assert.doesNotMatch(text, /Secret/);
    const kept = await versions(doc, alice);
    assert.equal(kept.total, 1);
    for (const v of kept.versions as unknown as { id: string }[]) {
      assert.doesNotMatch(pdftotext((await call(server, 'GET', `/documents/${doc}?versionId=${v.id}`, { auth: alice })).bytes), /Secret/);
    }
  });
});

describe('PDFSERVICE_TRASH=false', () => {
  let off: TestServer;
  before(async () => {
    off = await startServer({ env: { PDFSERVICE_TRASH: 'false' } });
  });
  after(async () => {
    await off.stop();
  });

  test('deletes erase (the path is reusable, with no versions) and the trash endpoints answer 501 TRASH_NOT_KEPT', async () => {
    ok(await call(off, 'PUT', '/documents/off/a.pdf', { body: makePdf(), headers: { 'content-type': 'application/pdf' } }), 201);
    ok(await call(off, 'DELETE', '/documents/off/a.pdf'), 204);
    assert.deepEqual(await readdir(path.join(off.dataDir, 'trash')).catch(() => []), []);
    assert.deepEqual(await readdir(path.join(off.dataDir, 'versions', 'off')), []);
    for (const [method, url] of [['GET', '/trash'], ['GET', '/trash/0000000000000000-00000000'], ['POST', '/trash/0000000000000000-00000000/restore'], ['DELETE', '/trash/0000000000000000-00000000']] as const) {
      const reply = await call(off, method, url);
      assert.equal(reply.status, 501, `${method} ${url}: ${reply.text}`);
      assert.equal(reply.json().code, 'TRASH_NOT_KEPT');
    }
    ok(await call(off, 'PUT', '/documents/off/a.pdf', { body: makePdf(), headers: { 'content-type': 'application/pdf' } }), 201);
    const reply = await call(off, 'GET', '/documents/off/a.pdf/versions');
    ok(reply);
    assert.equal(reply.json().total, 1);
  });
});
