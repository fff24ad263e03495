/**
 * Each version of a DMS document is downloaded once where once will do
 * (WebDavStore and DownloadCache): the bytes the service just wrote or read
 * are kept, and a later read asks the DMS, as the requesting user, only
 * whether they are still the document's (a conditional GET, answered 304
 * without a body). Counted in the Apache test server's access log, whose
 * lines read `host user "METHOD path HTTP/1.1" status bytes`.
 */
import assert from 'node:assert/strict';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDavServer, type DavServer, type DavUser } from '../helpers/dav-server.js';
import { call, jobEnded, sha256, type Reply } from '../helpers/http.js';
import { makePdf, pdfinfo } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let dav: DavServer;
let server: TestServer;

before(async () => {
  dav = await startDavServer();
  // Text prefetching off: it reads each new version in the background, which would make the counts depend on when
  // it runs (its read is as cheap as any other read of a kept version, a 304).
  server = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url, PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
});
after(async () => {
  await server?.stop();
  await dav?.dispose();
});

const as = (user: DavUser) => basicAuth(user, dav.users[user]);
const json = { accept: 'application/json' };

interface Get {
  user: string;
  status: number;
  /** Body bytes sent (0 for none). */
  bytes: number;
}

let sentinels = 0;
/**
 * The GETs the DMS answered for one document so far. A request of our own
 * goes last, and the log is read once it holds that request's line, so the
 * lines of the service's requests before it are there too.
 */
async function getsOf(documentPath: string): Promise<Get[]> {
  const mark = `/dav/?log-mark-${++sentinels}`;
  const reply = await fetch(`${dav.origin}${mark}`, { method: 'OPTIONS' });
  await reply.arrayBuffer();
  let log = '';
  for (let i = 0; i < 1000 && !log.includes(mark); i++) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    log = await readFile(path.join(dav.runDir, 'access.log'), 'utf8');
  }
  assert.ok(log.includes(mark), 'the access log has the mark');
  const target = `/dav/${documentPath}`;
  const gets: Get[] = [];
  for (const line of log.split('\n')) {
    const m = /^\S+ (\S+) "GET (\S+) HTTP\/[\d.]+" (\d{3}) (\S+)$/.exec(line);
    if (m && m[2] === target) gets.push({ user: m[1]!, status: Number(m[3]), bytes: m[4] === '-' ? 0 : Number(m[4]) });
  }
  return gets;
}

/** Downloads: GETs the DMS answered with the document's bytes. The others must be 304s, which carry none. */
async function downloadsOf(documentPath: string): Promise<Get[]> {
  const gets = await getsOf(documentPath);
  for (const g of gets) assert.ok(g.status === 200 || (g.status === 304 && g.bytes === 0), `a GET answered ${g.status} with ${g.bytes} bytes`);
  return gets.filter((g) => g.status === 200);
}

/** Puts a file onto the DMS's disk, not through the service (as another DMS client would): renamed into place. */
async function putOnDisk(documentPath: string, bytes: Buffer): Promise<void> {
  const file = path.join(dav.root, ...documentPath.split('/'));
  await writeFile(`${file}.new`, bytes, { mode: 0o644 });
  await rename(`${file}.new`, file);
}

const putPdf = (user: DavUser, documentPath: string, body: Buffer) => call(server, 'PUT', `/documents/${documentPath}`, { auth: as(user), body, headers: { 'content-type': 'application/pdf' } });

function refused(reply: Reply): void {
  assert.equal(reply.status, 403, reply.text);
  assert.equal(reply.json().code, 'DMS_FORBIDDEN');
}

describe('a version is downloaded once', () => {
  test('an upload (PUT) and its DocumentModel: the bytes just written are not downloaded at all', async () => {
    const bytes = makePdf({ pages: 3, text: (i) => `Uploaded page ${i + 1}` });
    const created = await putPdf('alice', 'home/alice/upload.pdf', bytes);
    assert.equal(created.status, 201, created.text);
    const model = await call(server, 'GET', '/documents/home/alice/upload.pdf', { auth: as('alice'), headers: json });
    assert.equal(model.status, 200, model.text);
    assert.equal(model.json().pageCount, 3);
    assert.equal(model.json().etag, created.headers.get('etag'));
    const pages = await call(server, 'GET', '/documents/home/alice/upload.pdf/pages', { auth: as('alice'), headers: json });
    assert.equal(pages.status, 200, pages.text);
    const download = await call(server, 'GET', '/documents/home/alice/upload.pdf', { auth: as('alice') });
    assert.equal(sha256(download.bytes), sha256(bytes), 'the bytes served are the bytes uploaded');
    assert.deepEqual(await downloadsOf('home/alice/upload.pdf'), []);
    const gets = await getsOf('home/alice/upload.pdf');
    assert.ok(gets.length > 0 && gets.every((g) => g.user === 'alice' && g.status === 304), 'each read asked the DMS as alice, which answered 304');
  });

  test('a form upload (POST to the folder) and its DocumentModel: no download either', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(makePdf({ pages: 2 }))], { type: 'application/pdf' }), 'form.pdf');
    const created = await call(server, 'POST', '/documents/home/alice', { auth: as('alice'), body: form });
    assert.equal(created.status, 201, created.text);
    const model = await call(server, 'GET', '/documents/home/alice/form.pdf', { auth: as('alice'), headers: json });
    assert.equal(model.json().pageCount, 2);
    assert.deepEqual(await downloadsOf('home/alice/form.pdf'), []);
  });

  test('the DocumentModel of a document put onto the DMS disk directly: one download for its tag and its model', async () => {
    const bytes = makePdf({ pages: 4, text: (i) => `Direct page ${i + 1}` });
    await putOnDisk('shared/direct.pdf', bytes);
    const model = await call(server, 'GET', '/documents/shared/direct.pdf', { auth: as('bob'), headers: json });
    assert.equal(model.status, 200, model.text);
    assert.equal(model.json().pageCount, 4);
    assert.equal(model.json().size, bytes.length);
    assert.deepEqual((await downloadsOf('shared/direct.pdf')).map((g) => g.user), ['bob']);

    // Changed on the DMS by someone else: the next read gets the new bytes (downloaded once more), never the kept ones.
    const changed = makePdf({ pages: 5, text: (i) => `Changed page ${i + 1}` });
    await putOnDisk('shared/direct.pdf', changed);
    const again = await call(server, 'GET', '/documents/shared/direct.pdf', { auth: as('bob'), headers: json });
    assert.equal(again.json().pageCount, 5);
    assert.notEqual(again.json().etag, model.json().etag);
    const download = await call(server, 'GET', '/documents/shared/direct.pdf', { auth: as('bob') });
    assert.equal(sha256(download.bytes), sha256(changed));
    assert.equal((await downloadsOf('shared/direct.pdf')).length, 2, 'one download per version');
  });

  test('an action on a document the service did not write: one download for the tag, the work and the answer', async () => {
    await putOnDisk('home/alice/rotate.pdf', makePdf({ pages: 2 }));
    const rotated = await call(server, 'POST', '/documents/home/alice/rotate.pdf/pages', { auth: as('alice'), body: { RotatePagesAction: { pageRange: '1', rotation: 90 } } });
    assert.equal(rotated.status, 200, rotated.text);
    const onDisk = await readFile(path.join(dav.root, 'home', 'alice', 'rotate.pdf'));
    assert.equal(pdfinfo(onDisk)['Page rot'], '90', 'the rotation reached the DMS');
    const model = await call(server, 'GET', '/documents/home/alice/rotate.pdf', { auth: as('alice'), headers: json });
    assert.equal(model.json().etag, rotated.headers.get('etag'));
    assert.equal((await downloadsOf('home/alice/rotate.pdf')).length, 1, 'the version found on the DMS, once; the one written, never');
  });

  test('an annotation import on a document the service did not write: one download', async () => {
    await putOnDisk('home/bob/notes.pdf', makePdf({ pages: 2 }));
    const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text name="n1" page="0" rect="500,700,520,720" title="Bob"><contents>Counted once</contents></text></annots></xfdf>';
    const imported = await call(server, 'POST', '/documents/home/bob/notes.pdf/annotations/content', { auth: as('bob'), body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf' } });
    assert.ok(imported.status === 200 || imported.status === 201, imported.text);
    const listed = await call(server, 'GET', '/documents/home/bob/notes.pdf/annotations', { auth: as('bob'), headers: json });
    assert.ok(JSON.stringify(listed.json()).includes('Counted once'));
    assert.equal((await downloadsOf('home/bob/notes.pdf')).length, 1);
  });

  test('an action as a job (its password checked before it is accepted, then run): one download', async () => {
    const bytes = makePdf({ pages: 3 });
    await putOnDisk('home/alice/job.pdf', bytes);
    const accepted = await call(server, 'POST', '/documents/home/alice/job.pdf/pages', {
      auth: as('alice'),
      headers: { prefer: 'respond-async' },
      body: { RotatePagesAction: { pageRange: '2', rotation: 180 } },
    });
    assert.equal(accepted.status, 202, accepted.text);
    const done = await jobEnded(server, accepted.json().id, { auth: as('alice') });
    assert.equal(done.state, 'succeeded', JSON.stringify(done));
    const onDisk = await readFile(path.join(dav.root, 'home', 'alice', 'job.pdf'));
    assert.notEqual(sha256(onDisk), sha256(bytes), 'the job\'s change reached the DMS');
    assert.equal(pdfinfo(onDisk)['Pages'], '3');
    assert.equal((await downloadsOf('home/alice/job.pdf')).length, 1, 'the password check\'s download serves the job');
  });
});

describe('a kept version is served only to users the DMS lets read it', () => {
  test('alice\'s read is kept; carol, whom the DMS refuses, still gets 403; bob, whom it lets read, gets it without a download', async () => {
    const bytes = makePdf({ pages: 2, text: (i) => `Minutes page ${i + 1}` });
    await putOnDisk('restricted/minutes.pdf', bytes);
    const read = await call(server, 'GET', '/documents/restricted/minutes.pdf', { auth: as('alice') });
    assert.equal(read.status, 200, read.text);
    assert.equal(sha256(read.bytes), sha256(bytes));

    refused(await call(server, 'GET', '/documents/restricted/minutes.pdf', { auth: as('carol') }));
    refused(await call(server, 'GET', '/documents/restricted/minutes.pdf', { auth: as('carol'), headers: json }));
    refused(await call(server, 'GET', '/documents/restricted/minutes.pdf/pages/0/text', { auth: as('carol') }));
    // Straight at the kept version's check: a conditional GET as carol is refused by the DMS, not answered 304.
    const direct = await fetch(`${dav.collections.restricted}minutes.pdf`, { headers: { authorization: as('carol'), 'if-none-match': '*' } });
    await direct.arrayBuffer();
    assert.equal(direct.status, 403);

    const bobs = await call(server, 'GET', '/documents/restricted/minutes.pdf', { auth: as('bob') });
    assert.equal(bobs.status, 200, bobs.text);
    assert.equal(sha256(bobs.bytes), sha256(bytes));
    const gets = await getsOf('restricted/minutes.pdf');
    assert.deepEqual(gets.filter((g) => g.status === 200).map((g) => g.user), ['alice'], 'downloaded once, by alice');
    assert.ok(gets.some((g) => g.user === 'bob' && g.status === 304), 'bob\'s read was confirmed by the DMS for bob');
  });

  test('a password changed on the DMS: the kept version is not served on the old password', async () => {
    const bytes = makePdf({ text: () => 'Carol private' });
    assert.equal((await putPdf('carol', 'home/carol/private.pdf', bytes)).status, 201);
    const old = as('carol');
    assert.equal((await call(server, 'GET', '/documents/home/carol/private.pdf', { auth: old })).status, 200);
    await dav.setPassword('carol', 'carol-changed-password-3');
    const refusedNow = await call(server, 'GET', '/documents/home/carol/private.pdf', { auth: old });
    assert.ok(refusedNow.status === 401 || refusedNow.status === 403, `${refusedNow.status} ${refusedNow.text}`);
    const back = await call(server, 'GET', '/documents/home/carol/private.pdf', { auth: as('carol') });
    assert.equal(back.status, 200);
    assert.equal(sha256(back.bytes), sha256(bytes));
  });
});
