/**
 * The WebDAV store over https (docs/dms.md, "Configuration"): the DMS's
 * certificate is trusted through PDFSERVICE_WEBDAV_CA_FILE, refused without
 * it (503, nothing sent with the password), and accepted blindly only with
 * PDFSERVICE_WEBDAV_INSECURE_TLS.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startDavServer, type DavServer } from '../helpers/dav-server.js';
import { call, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

let dav: DavServer;
const servers: TestServer[] = [];

before(async () => {
  dav = await startDavServer({ tls: true });
});
after(async () => {
  for (const s of servers) await s.stop();
  await dav?.dispose();
});

async function serviceWith(env: Record<string, string>): Promise<TestServer> {
  const server = await startServer({ env: { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: dav.url, ...env } });
  servers.push(server);
  return server;
}

test('with the DMS certificate in PDFSERVICE_WEBDAV_CA_FILE, documents go to and come from the https DMS', async () => {
  assert.match(dav.url, /^https:/);
  const server = await serviceWith({ PDFSERVICE_WEBDAV_CA_FILE: dav.caFile! });
  const auth = basicAuth('alice', dav.users.alice);
  const bytes = makePdf({ text: () => 'Sent over TLS' });
  const put = await call(server, 'PUT', '/documents/home/alice/tls.pdf', { auth, body: bytes, headers: { 'content-type': 'application/pdf' } });
  assert.equal(put.status, 201, put.text);
  assert.equal(sha256(await readFile(path.join(dav.root, 'home', 'alice', 'tls.pdf'))), sha256(bytes));
  const back = await call(server, 'GET', '/documents/home/alice/tls.pdf', { auth });
  assert.ok(back.bytes.equals(bytes));
});

test('without it, an untrusted certificate is 503 DMS_UNAVAILABLE, for a login and for a document', async () => {
  const server = await serviceWith({});
  const login = await call(server, 'POST', '/sessions', { auth: false, body: { username: 'alice', password: dav.users.alice } });
  assert.equal(login.status, 503, login.text);
  assert.equal(login.json().code, 'DMS_UNAVAILABLE');
  const read = await call(server, 'GET', '/documents/home/alice', { auth: basicAuth('alice', dav.users.alice) });
  assert.equal(read.status, 503, read.text);
  assert.equal(read.json().code, 'DMS_UNAVAILABLE');
  assert.match(read.headers.get('retry-after') ?? '', /^\d+$/);
});

test('PDFSERVICE_WEBDAV_INSECURE_TLS accepts the certificate unchecked (tests only)', async () => {
  const server = await serviceWith({ PDFSERVICE_WEBDAV_INSECURE_TLS: 'true' });
  const listed = await call(server, 'GET', '/documents/home/alice', { auth: basicAuth('alice', dav.users.alice) });
  assert.equal(listed.status, 200, listed.text);
  assert.ok(JSON.stringify(listed.json()).includes('tls.pdf'));
});
