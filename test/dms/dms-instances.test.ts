/**
 * Two service instances over one DMS (issue 23): each has its own data
 * folder and its own in-process locks, so all that keeps them from
 * overwriting each other is the DMS: a WebDAV LOCK of the target taken only
 * while it is the version read, and the MOVE with an If header naming the
 * lock and that version. Both run against the Apache WebDAV test
 * server; answers, the DMS's disk and its access log are checked.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startDavServer, type DavServer } from '../helpers/dav-server.js';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let dav: DavServer;
let a: TestServer;
let b: TestServer;

before(async () => {
  dav = await startDavServer();
  const env = { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url };
  [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
});
after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dav?.dispose();
});

const alice = () => basicAuth('alice', dav.users.alice);
const onDisk = (documentPath: string) => readFile(path.join(dav.root, ...documentPath.split('/')));
const put = (server: TestServer, documentPath: string, body: Buffer, headers: Record<string, string> = {}) =>
  call(server, 'PUT', `/documents/${documentPath}`, { auth: alice(), body, headers: { 'content-type': 'application/pdf', ...headers } });
const download = (server: TestServer, documentPath: string) => call(server, 'GET', `/documents/${documentPath}`, { auth: alice() });

/** An XFDF import of one text annotation with its own name and contents, which names the version it changes. */
function addNote(server: TestServer, documentPath: string, note: string, ifMatch: string): Promise<Reply> {
  const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>' +
    `<text name="${note}" page="0" rect="500,700,520,720" title="alice"><contents>${note}</contents></text></annots></xfdf>`;
  return call(server, 'POST', `/documents/${documentPath}/annotations/content`, {
    auth: alice(), body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf', 'if-match': ifMatch },
  });
}

/** The names of the annotations on page 0 as an instance lists them. */
async function notes(server: TestServer, documentPath: string): Promise<string[]> {
  const listed = await call(server, 'GET', `/documents/${documentPath}/annotations`, { auth: alice() });
  assert.equal(listed.status, 200, listed.text);
  return (listed.json().annotations as Array<{ name?: string }>).map((n) => n.name ?? '').filter((name) => name.startsWith('note-')).sort();
}

/** How many GETs of a document the DMS has answered (its access log: `%h %u "%r" %>s %b`). */
async function dmsGets(documentPath: string): Promise<number> {
  const log = await readFile(path.join(dav.runDir, 'access.log'), 'utf8');
  return log.split('\n').filter((line) => line.includes(`"GET /dav/${documentPath} `)).length;
}

/** The service's own dead property on the DMS: the ETag it stored with the document. */
async function storedTag(documentPath: string): Promise<string | undefined> {
  const body = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:P="urn:x-pdfservice:props"><D:prop><P:etag/></D:prop></D:propfind>';
  const reply = await fetch(`${dav.url}${documentPath}`, { method: 'PROPFIND', headers: { authorization: alice(), depth: '0', 'content-type': 'application/xml' }, body });
  const xml = await reply.text();
  assert.equal(reply.status, 207, xml);
  return /<(?:\w+:)?etag[^>]*>([^<]*)</.exec(xml)?.[1]?.replace(/&quot;/g, '"');
}

/** Temporary uploads left anywhere on the DMS's disk (none may survive a request). */
async function temporaries(): Promise<string[]> {
  const entries = await readdir(dav.root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.name.startsWith('.pdfservice-tmp-')).map((e) => e.name);
}

test('a document written through A is read by B with the same ETag, taken from the tag A stored on the DMS', async () => {
  const doc = 'home/alice/handover.pdf';
  const bytes = makePdf({ pages: 2, text: (i) => `Handover page ${i + 1}` });
  const created = await put(a, doc, bytes);
  assert.equal(created.status, 201, created.text);
  const tag = created.headers.get('etag')!;
  assert.equal(await storedTag(doc), tag, 'A stored its tag as a dead property');

  // B has never read the document: a stale If-Match is refused from the stored tag alone, without a download.
  const gets = await dmsGets(doc);
  const stale = await call(b, 'DELETE', `/documents/${doc}`, { auth: alice(), headers: { 'if-match': '"not-the-tag"' } });
  assert.equal(stale.status, 412, stale.text);
  assert.equal(await dmsGets(doc), gets, 'B knew the tag without reading the document');

  const read = await download(b, doc);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get('etag'), tag);
  assert.ok(read.bytes.equals(bytes));
});

test('an edit through B with the ETag read from A succeeds; A sees the new version; A with the old ETag is 412 and B\'s bytes stay', async () => {
  const doc = 'home/alice/contract.pdf';
  const bytes = makePdf({ pages: 3, text: (i) => `Contract page ${i + 1}` });
  assert.equal((await put(a, doc, bytes)).status, 201);
  const seenByA = await call(a, 'GET', `/documents/${doc}`, { auth: alice(), headers: { accept: 'application/json' } });
  assert.equal(seenByA.status, 200, seenByA.text);
  const oldTag = seenByA.headers.get('etag')!;

  const edited = await call(b, 'POST', `/documents/${doc}/pages`, { auth: alice(), headers: { 'if-match': oldTag }, body: { RotatePagesAction: { pageRange: '2', rotation: 90 } } });
  assert.equal(edited.status, 200, edited.text);
  const newTag = edited.json().etag as string;
  assert.notEqual(newTag, oldTag);
  const bsBytes = await onDisk(doc);
  assert.notEqual(sha256(bsBytes), sha256(bytes), 'B\'s edit reached the DMS');

  const now = await download(a, doc);
  assert.equal(now.status, 200);
  assert.equal(now.headers.get('etag'), newTag, 'A sees B\'s version');
  assert.ok(now.bytes.equals(bsBytes));

  const replace = await put(a, doc, makePdf({ text: () => 'A overwrites' }), { 'if-match': oldTag });
  assert.equal(replace.status, 412, replace.text);
  assert.equal(replace.json().code, 'PRECONDITION_FAILED');
  const action = await call(a, 'POST', `/documents/${doc}/pages`, { auth: alice(), headers: { 'if-match': oldTag }, body: { RotatePagesAction: { pageRange: '1', rotation: 180 } } });
  assert.equal(action.status, 412, action.text);
  assert.equal(action.json().code, 'PRECONDITION_FAILED');
  assert.equal(sha256(await onDisk(doc)), sha256(bsBytes), 'the DMS holds B\'s bytes, byte for byte');
  assert.deepEqual(await temporaries(), []);
});

/**
 * Fires `perInstance` changes at each instance at once, all naming the same
 * version: exactly one may win, every other must be 412, and what the DMS
 * holds afterwards is the winner's version.
 */
async function race(doc: string, perInstance: number, change: (server: TestServer, i: number, tag: string) => Promise<Reply>, check: (winner: number, finalBytes: Buffer) => Promise<void>): Promise<void> {
  const created = await put(a, doc, makePdf({ pages: 4, text: (i) => `Raced page ${i + 1}` }));
  assert.equal(created.status, 201, created.text);
  const tag = created.headers.get('etag')!;
  const servers = [a, b];
  const replies = await Promise.all(Array.from({ length: perInstance * 2 }, (_, i) => change(servers[i % 2]!, i, tag)));
  const statuses = replies.map((r) => r.status);
  const winners = statuses.flatMap((status, i) => (status >= 200 && status < 300 ? [i] : []));
  assert.equal(winners.length, 1, `exactly one winner: ${statuses.join(' ')}`);
  for (const [i, reply] of replies.entries()) {
    if (i === winners[0]) continue;
    // A loser that reads while the winner's MOVE replaces the file can find no file at all: mod_dav removes an
    // existing destination before it renames onto it, so for that moment the DMS answers 404 (DOCUMENT_NOT_FOUND).
    // Refused either way, never written; the 404 is a known gap of mod_dav_fs (docs/dms.md).
    const refused = reply.status === 412 ? 'PRECONDITION_FAILED' : 'DOCUMENT_NOT_FOUND';
    assert.ok(reply.status === 412 || reply.status === 404, reply.text);
    assert.equal(reply.json().code, refused, reply.text);
  }
  const finalBytes = await onDisk(doc);
  for (const server of servers) {
    const read = await download(server, doc);
    assert.ok(read.bytes.equals(finalBytes), 'both instances serve what the DMS holds');
    assert.notEqual(read.headers.get('etag'), tag);
  }
  await check(winners[0]!, finalBytes);
  assert.deepEqual(await temporaries(), []);
}

test('annotations added at once through both instances to one version: one wins, the others are 412, the winner\'s note is on the DMS', async () => {
  const doc = 'home/alice/raced-notes.pdf';
  await race(doc, 3, (server, i, tag) => addNote(server, doc, `note-${i}`, tag), async (winner) => {
    for (const server of [a, b]) assert.deepEqual(await notes(server, doc), [`note-${winner}`], 'the winner\'s note, and only it');
  });
});

test('in-place actions fired at once through both instances at one version: one wins, the others are 412, the DMS holds the winner\'s pages', async () => {
  const doc = 'home/alice/raced-pages.pdf';
  // Each request rotates a page of its own, so the file on the DMS says whose change it holds.
  await race(doc, 2, (server, i, tag) => call(server, 'POST', `/documents/${doc}/pages`, { auth: alice(), headers: { 'if-match': tag }, body: { RotatePagesAction: { pageRange: String(i + 1), rotation: 90 } } }), async (winner) => {
    const pages = await call(a, 'GET', `/documents/${doc}/pages`, { auth: alice() });
    assert.equal(pages.status, 200, pages.text);
    const rotations = (pages.json().pages as Array<{ rotation?: number }>).map((p) => p.rotation ?? 0);
    assert.deepEqual(rotations, [0, 1, 2, 3].map((p) => (p === winner ? 90 : 0)), JSON.stringify(pages.json()));
  });
});
