/**
 * A document above the 16 MiB past which the engine reads a document from
 * its file, through the WebDAV store against the Apache test server: it
 * streams both ways (the upload is staged to a local file and sent from it,
 * a read is spooled to a local file while it arrives), and every local file
 * is gone once the requests are answered.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startDavServer, type DavServer } from '../helpers/dav-server.js';
import { call, sha256 } from '../helpers/http.js';
import { makePdf, paddedPdf } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

const MiB = 1024 * 1024;

let dav: DavServer;
let server: TestServer;

before(async () => {
  dav = await startDavServer();
  server = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url, PDFSERVICE_MAX_UPLOAD_BYTES: String(40 * MiB) } });
});
after(async () => {
  await server?.stop();
  await dav?.dispose();
});

const alice = () => basicAuth('alice', dav.users.alice);
const onDisk = (documentPath: string) => readFile(path.join(dav.root, ...documentPath.split('/')));

test('a 17 MiB document: stored byte for byte, read back, its text and model read, annotated in place; no local file left', async () => {
  const doc = 'home/alice/large.pdf';
  const bytes = paddedPdf(makePdf({ pages: 2, text: (i) => `Large document page ${i + 1}` }));
  assert.ok(bytes.length > 16 * MiB);

  const created = await call(server, 'PUT', `/documents/${doc}`, { auth: alice(), body: bytes, headers: { 'content-type': 'application/pdf' } });
  assert.equal(created.status, 201, created.text);
  assert.equal(sha256(await onDisk(doc)), sha256(bytes), 'the DMS holds exactly the bytes');

  const read = await call(server, 'GET', `/documents/${doc}`, { auth: alice() });
  assert.equal(read.status, 200);
  assert.equal(sha256(read.bytes), sha256(bytes));
  assert.equal(read.headers.get('etag'), created.headers.get('etag'));

  const model = await call(server, 'GET', `/documents/${doc}`, { auth: alice(), headers: { accept: 'application/json' } });
  assert.equal(model.status, 200, model.text);
  assert.equal(model.json().pageCount, 2);
  assert.equal(model.json().size, bytes.length);
  const text = await call(server, 'GET', `/documents/${doc}/pages/1/text`, { auth: alice() });
  assert.equal(text.status, 200, text.text);
  assert.match(text.text, /Large document page 2/);

  const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>' +
    '<text name="large-note" page="1" rect="500,700,520,720" title="alice"><contents>Seen on the large file</contents></text></annots></xfdf>';
  const annotated = await call(server, 'POST', `/documents/${doc}/annotations/content`, {
    auth: alice(), body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf', 'if-match': created.headers.get('etag')! },
  });
  assert.equal(annotated.status, 200, annotated.text);
  const stored = await onDisk(doc);
  assert.notEqual(sha256(stored), sha256(bytes), 'the change reached the DMS');
  // (The edit reads the 17 MiB file; what it writes may be smaller: a rewrite drops the padding nothing refers to.)
  const again = await call(server, 'GET', `/documents/${doc}`, { auth: alice() });
  assert.equal(sha256(again.bytes), sha256(stored), 'what is served is what the DMS holds');
  const listed = await call(server, 'GET', `/documents/${doc}/annotations`, { auth: alice() });
  assert.equal(listed.status, 200, listed.text);
  assert.ok((listed.json().annotations as Array<{ name: string; contents?: string }>).some((a) => a.name === 'large-note'), listed.text);

  for (const folder of ['spool', 'staging']) assert.deepEqual(await readdir(path.join(server.dataDir, folder)), [], `${folder} is empty`);
  const temporaries = (await readdir(dav.root, { recursive: true })).filter((name) => path.basename(name).startsWith('.pdfservice-tmp-'));
  assert.deepEqual(temporaries, []);
});
