import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { makePdf } from '../helpers/pdf.js';
import { rawRequest } from '../helpers/raw-http.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let outside: string;
const SENTINEL = 'SENTINEL-OUTSIDE-THE-DATA-FOLDER';

before(async () => {
  server = await startServer();
  // A folder outside the data folder holding a "secret" PDF, reachable only through symlinks the test plants inside.
  outside = await mkdtemp(path.join(tmpdir(), 'pdfservice-outside-'));
  await writeFile(path.join(outside, 'secret.pdf'), Buffer.concat([makePdf(), Buffer.from(`%${SENTINEL}\n`)]));
  const docs = path.join(server.dataDir, 'documents');
  await mkdir(docs, { recursive: true });
  await symlink(outside, path.join(docs, 'link'));
  await symlink(path.join(outside, 'secret.pdf'), path.join(docs, 'leak.pdf'));
  await writeFile(path.join(server.dataDir, 'outside-of-documents.pdf'), Buffer.from(`%PDF-1.4 ${SENTINEL}`));
});
after(async () => {
  await server.stop();
});

const long = 'a'.repeat(300);
const deep = Array.from({ length: 40 }, () => 'd').join('/');
const wide = Array.from({ length: 30 }, () => 'x'.repeat(40)).join('/');

/** Request targets after /pdfservice/v1/documents/, sent byte for byte. */
const HOSTILE = [
  '../outside-of-documents.pdf',
  '..%2Foutside-of-documents.pdf',
  '%2e%2e/outside-of-documents.pdf',
  '%2e%2e%2foutside-of-documents.pdf',
  '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.pdf',
  '%252e%252e/%252e%252e/outside-of-documents.pdf',
  '..%5coutside-of-documents.pdf',
  'a\\..\\..\\outside-of-documents.pdf',
  '%2e%2e%5c%2e%2e%5coutside-of-documents.pdf',
  '/etc/passwd.pdf',
  '%2fetc%2fpasswd.pdf',
  'C:%5cWindows%5cwin.pdf',
  'c:/boot.pdf',
  'a/./b.pdf',
  'a/%2e/b.pdf',
  'a//b.pdf',
  'a/b/../../../outside-of-documents.pdf',
  '....//....//outside-of-documents.pdf',
  '.hidden.pdf',
  '.pdfservice-tmp-x.pdf',
  '%00.pdf',
  'a%00b.pdf',
  'x.pdf%00.txt',
  'a%0d%0ab.pdf',
  'a%7fb.pdf',
  '%c0%ae%c0%ae/outside-of-documents.pdf',
  '%%32%65%%32%65/outside-of-documents.pdf',
  'link/secret.pdf',
  'leak.pdf',
  'link/new.pdf',
  `${long}.pdf`,
  `${deep}/x.pdf`,
  `${wide}/x.pdf`,
  'trailing./x.pdf',
  'space /x.pdf',
  'x.pdf.d/../../outside-of-documents.pdf',
];
const HOSTILE_FOLDERS = ['..', '..%2F..', '%2e%2e', 'link', 'link/sub', '%2e%2e%2f%2e%2e%2ftmp', 'a/../..', '.'];

test(`${HOSTILE.length} hostile document paths and ${HOSTILE_FOLDERS.length} folder paths get 400 or 404 on every method and touch nothing outside`, async () => {
  const before = await readFile(path.join(outside, 'secret.pdf'));
  const outsideBefore = (await readdir(outside)).sort();
  const dataBefore = (await readdir(server.dataDir)).sort();
  const auth = { authorization: server.adminAuth };
  const pdf = makePdf();
  let checked = 0;
  const expectRefused = (status: number, what: string) => assert.ok(status === 400 || status === 404, `${what} answered ${status}`);

  for (const target of HOSTILE) {
    const url = `/pdfservice/v1/documents/${target}`;
    for (const [method, headers, body] of [
      ['GET', {}, undefined],
      ['GET', { accept: 'application/json' }, undefined],
      ['HEAD', {}, undefined],
      ['PUT', { 'content-type': 'application/pdf' }, pdf],
      ['POST', { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ CopyAction: { savePath: 'copied.pdf' } }))],
      ['DELETE', {}, undefined],
      ['GET', {}, undefined, '/annotations'],
    ] as [string, Record<string, string>, Buffer | undefined, string?][]) {
      const reply = await rawRequest(server.baseUrl, method, url, { ...auth, ...headers }, body);
      expectRefused(reply.status, `${method} ${target}`);
      assert.ok(!reply.text.includes(SENTINEL), `${method} ${target} leaked outside content`);
      assert.ok(!reply.text.includes(server.dataDir), `${method} ${target} revealed the data folder`);
      checked++;
    }
  }
  for (const target of HOSTILE_FOLDERS) {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await rawRequest(server.baseUrl, method, `/pdfservice/v1/documents/${target}?recursive=true`, auth);
      expectRefused(reply.status, `${method} folder ${target}`);
      checked++;
    }
    const form = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="up.pdf"\r\nContent-Type: application/pdf\r\n\r\n' + pdf.toString('latin1') + '\r\n--B--\r\n', 'latin1');
    const upload = await rawRequest(server.baseUrl, 'POST', `/pdfservice/v1/documents/${target}`, { ...auth, 'content-type': 'multipart/form-data; boundary=B' }, form);
    expectRefused(upload.status, `POST folder ${target}`);
    checked++;
  }
  // Hostile savePaths in an action body.
  await rawRequest(server.baseUrl, 'PUT', '/pdfservice/v1/documents/source.pdf', { ...auth, 'content-type': 'application/pdf' }, pdf);
  for (const savePath of ['../escape.pdf', '/etc/escape.pdf', 'link/escape.pdf', 'a\\..\\escape.pdf', '.hidden.pdf', 'a/../../escape.pdf', '', 'c:/escape.pdf']) {
    const body = Buffer.from(JSON.stringify({ CopyAction: { savePath } }));
    const reply = await rawRequest(server.baseUrl, 'POST', '/pdfservice/v1/documents/source.pdf', { ...auth, 'content-type': 'application/json' }, body);
    assert.equal(reply.status, 400, `savePath ${savePath} answered ${reply.status}`);
    checked++;
  }
  // An uploaded file name is a name, never a path.
  const sneaky = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="../../sneaky.pdf"\r\nContent-Type: application/pdf\r\n\r\n' + pdf.toString('latin1') + '\r\n--B--\r\n', 'latin1');
  const named = await rawRequest(server.baseUrl, 'POST', '/pdfservice/v1/documents', { ...auth, 'content-type': 'multipart/form-data; boundary=B' }, sneaky);
  assert.ok([201, 400].includes(named.status), `file name with a path answered ${named.status}`);

  assert.ok(checked >= 30 * 4);
  assert.deepEqual(await readFile(path.join(outside, 'secret.pdf')), before, 'the file outside is unchanged');
  assert.deepEqual((await readdir(outside)).sort(), outsideBefore, 'nothing was written outside');
  assert.deepEqual((await readdir(server.dataDir)).sort(), dataBefore, 'nothing was written beside the documents folder');
  const health = await fetch(`${server.api}/health`);
  assert.equal(health.status, 200);
});
