import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call } from './helpers/http.js';
import { zipOf } from './helpers/office-fixtures.js';
import { pdftotext, qpdfCheck } from './helpers/pdf.js';
import { startServer, type TestServer } from './helpers/server.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
let server: TestServer;
let dir: string;
const words: Record<'doc' | 'docx', Buffer> = { doc: Buffer.alloc(0), docx: Buffer.alloc(0) };

before(async () => {
  server = await startServer();
  // Word files made with LibreOffice from a text file, the way a user's word processor would save them.
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-word-'));
  writeFileSync(path.join(dir, 'memo.txt'), 'Quarterly results are strong.\nThe second line of the memo.\n');
  for (const format of ['doc', 'docx'] as const) {
    execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', format, '--outdir', dir, path.join(dir, 'memo.txt')], { stdio: 'ignore' });
    words[format] = readFileSync(path.join(dir, `memo.${format}`));
  }
});
after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

for (const [format, type] of [['docx', DOCX], ['doc', 'application/msword']] as const) {
  test(`a .${format} upload is stored as a PDF that holds its text`, async () => {
    const reply = await call(server, 'PUT', `/documents/word/memo-${format}.pdf`, { body: words[format], headers: { 'content-type': type } });
    assert.equal(reply.status, 201, reply.text);
    assert.ok(reply.json().pageCount >= 1);
    const pdf = (await call(server, 'GET', `/documents/word/memo-${format}.pdf`)).bytes;
    assert.ok(qpdfCheck(pdf).ok);
    assert.match(pdftotext(pdf), /Quarterly results are strong\./);
  });
}

test('a .docx uploaded by form as application/octet-stream is recognised by its name', async () => {
  const data = new FormData();
  data.append('file', new Blob([words.docx as BlobPart], { type: 'application/octet-stream' }), 'Board memo.docx');
  await call(server, 'PUT', '/documents/word-form');
  const reply = await call(server, 'POST', '/documents/word-form', { body: data });
  assert.equal(reply.status, 201, reply.text);
  assert.equal(reply.json().path, '/word-form/Board memo.pdf');
});

test('bytes that are not a Word document are 422 MALFORMED_DOCUMENT, and nothing is stored', async () => {
  const reply = await call(server, 'PUT', '/documents/word/fake.pdf', { body: Buffer.from('just text pretending to be a docx'), headers: { 'content-type': DOCX } });
  assert.equal(reply.status, 422);
  assert.equal(reply.json().code, 'MALFORMED_DOCUMENT');
  assert.equal((await call(server, 'GET', '/documents/word/fake.pdf')).status, 404);
});

test('a Word file PUT as application/octet-stream is recognised by its content; another ZIP package is 422 MALFORMED_DOCUMENT', async () => {
  const reply = await call(server, 'PUT', '/documents/word/sniffed.pdf', { body: words.docx, headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(reply.status, 201, reply.text);
  assert.match(pdftotext((await call(server, 'GET', '/documents/word/sniffed.pdf')).bytes), /Quarterly results are strong\./);
  const other = await call(server, 'PUT', '/documents/word/other-zip.pdf', { body: zipOf({ 'data.txt': 'not a document' }), headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(other.status, 422, other.text);
  assert.equal(other.json().code, 'MALFORMED_DOCUMENT');
  assert.equal((await call(server, 'GET', '/documents/word/other-zip.pdf')).status, 404);
});
