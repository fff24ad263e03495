import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, jobEnded } from '../helpers/http.js';
import { zipOf } from '../helpers/office-fixtures.js';
import { pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Office conversions run as background jobs unless the client asks to wait (docs/jobs.md): these tests wait, and get the inline answer. */
const WAIT = { prefer: 'wait=120' };
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
    const reply = await call(server, 'PUT', `/documents/word/memo-${format}.pdf`, { body: words[format], headers: { 'content-type': type, ...WAIT } });
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
  const reply = await call(server, 'POST', '/documents/word-form', { body: data, headers: WAIT });
  assert.equal(reply.status, 201, reply.text);
  assert.equal(reply.json().path, '/word-form/Board memo.pdf');
});

test('bytes that are not a Word document are 422 MALFORMED_DOCUMENT, and nothing is stored', async () => {
  const reply = await call(server, 'PUT', '/documents/word/fake.pdf', { body: Buffer.from('just text pretending to be a docx'), headers: { 'content-type': DOCX, ...WAIT } });
  assert.equal(reply.status, 422);
  assert.equal(reply.json().code, 'MALFORMED_DOCUMENT');
  assert.equal((await call(server, 'GET', '/documents/word/fake.pdf')).status, 404);
});

test('a Word file PUT as application/octet-stream is recognised by its content; another ZIP package is 422 MALFORMED_DOCUMENT', async () => {
  const reply = await call(server, 'PUT', '/documents/word/sniffed.pdf', { body: words.docx, headers: { 'content-type': 'application/octet-stream', ...WAIT } });
  assert.equal(reply.status, 201, reply.text);
  assert.match(pdftotext((await call(server, 'GET', '/documents/word/sniffed.pdf')).bytes), /Quarterly results are strong\./);
  const other = await call(server, 'PUT', '/documents/word/other-zip.pdf', { body: zipOf({ 'data.txt': 'not a document' }), headers: { 'content-type': 'application/octet-stream', ...WAIT } });
  assert.equal(other.status, 422, other.text);
  assert.equal(other.json().code, 'MALFORMED_DOCUMENT');
  assert.equal((await call(server, 'GET', '/documents/word/other-zip.pdf')).status, 404);
});

test('without Prefer, a Word upload is a background job (202): it reports its phases and stores the PDF', async () => {
  const reply = await call(server, 'PUT', '/documents/word/async.pdf', { body: words.docx, headers: { 'content-type': DOCX } });
  assert.equal(reply.status, 202, reply.text);
  const job = reply.json();
  assert.equal(reply.headers.get('location'), `/pdfservice/v1/jobs/${job.id}`);
  assert.equal(reply.headers.get('preference-applied'), null, 'the client asked for nothing');
  assert.equal(job.action, 'upload');
  assert.equal(job.document, 'word/async.pdf');
  assert.equal(job.progress.unit, 'steps');
  const done = await jobEnded(server, job.id);
  assert.equal(done.state, 'succeeded', JSON.stringify(done));
  assert.equal(done.progress.percent, 100);
  assert.equal(done.result.status, 201);
  assert.equal(done.result.path, '/word/async.pdf');
  assert.equal(done.result.url, '/pdfservice/v1/documents/word/async.pdf');
  assert.equal(done.result.document.path, '/word/async.pdf');
  const pdf = (await call(server, 'GET', '/documents/word/async.pdf')).bytes;
  assert.ok(qpdfCheck(pdf).ok);
  assert.match(pdftotext(pdf), /Quarterly results are strong\./);
  assert.equal(done.result.document.etag, (await call(server, 'GET', '/documents/word/async.pdf')).headers.get('etag'));
});

test('a background Word conversion of bytes that are not Word fails with the inline 422, and nothing is stored', async () => {
  const reply = await call(server, 'PUT', '/documents/word/async-fake.pdf', { body: Buffer.from('not a docx at all'), headers: { 'content-type': DOCX } });
  assert.equal(reply.status, 202, reply.text);
  const done = await jobEnded(server, reply.json().id);
  assert.equal(done.state, 'failed');
  assert.equal(done.error.status, 422);
  assert.equal(done.error.code, 'MALFORMED_DOCUMENT');
  assert.equal((await call(server, 'GET', '/documents/word/async-fake.pdf')).status, 404);
});

test('a PNG upload runs inline by default and as a job with Prefer: respond-async; a clash under namingMode 0 is 409 at once', async () => {
  execFileSync('/usr/bin/convert', ['-size', '30x20', 'xc:blue', path.join(dir, 'tile.png')]);
  const png = readFileSync(path.join(dir, 'tile.png'));
  await call(server, 'PUT', '/documents/images');
  const inline = await call(server, 'PUT', '/documents/images/inline.pdf', { body: png, headers: { 'content-type': 'image/png' } });
  assert.equal(inline.status, 201, inline.text);
  const form = new FormData();
  form.append('file', new Blob([png as BlobPart], { type: 'image/png' }), 'tile.png');
  const queued = await call(server, 'POST', '/documents/images', { body: form, headers: { prefer: 'respond-async' } });
  assert.equal(queued.status, 202, queued.text);
  assert.equal(queued.headers.get('preference-applied'), 'respond-async');
  const done = await jobEnded(server, queued.json().id);
  assert.equal(done.state, 'succeeded', JSON.stringify(done));
  assert.equal(done.result.path, '/images/tile.pdf');
  assert.ok(qpdfCheck((await call(server, 'GET', '/documents/images/tile.pdf')).bytes).ok);
  const again = new FormData();
  again.append('file', new Blob([png as BlobPart], { type: 'image/png' }), 'tile.png');
  const clash = await call(server, 'POST', '/documents/images?namingMode=0', { body: again, headers: { prefer: 'respond-async' } });
  assert.equal(clash.status, 409, clash.text);
  assert.equal(clash.json().code, 'ALREADY_EXISTS');
});
