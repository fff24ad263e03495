import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { call, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

test('20 parallel PUTs of different content to one path end with one complete upload; readers never see a partial document', async () => {
  const uploads = Array.from({ length: 20 }, (_, i) => makePdf({ pages: 1 + (i % 5), text: (p) => `upload ${i} page ${p} ${'x'.repeat(i * 50)}` }));
  const hashes = new Set(uploads.map(sha256));
  await call(server, 'PUT', '/documents/race/doc.pdf', { body: uploads[0]!, headers: { 'content-type': 'application/pdf' } });
  const readerSeen: string[] = [];
  let writing = true;
  const reader = (async () => {
    while (writing) {
      const r = await call(server, 'GET', '/documents/race/doc.pdf');
      if (r.status === 200) readerSeen.push(sha256(r.bytes));
    }
  })();
  const replies = await Promise.all(uploads.map((body) => call(server, 'PUT', '/documents/race/doc.pdf', { body, headers: { 'content-type': 'application/pdf' } })));
  writing = false;
  await reader;
  for (const r of replies) assert.ok([200, 201].includes(r.status), r.text);
  const final = await readFile(path.join(server.dataDir, 'documents', 'race', 'doc.pdf'));
  assert.ok(hashes.has(sha256(final)), 'the stored document is exactly one of the uploads');
  const download = await call(server, 'GET', '/documents/race/doc.pdf');
  assert.equal(sha256(download.bytes), sha256(final));
  assert.equal(download.headers.get('etag'), replies.find((r) => r.json().etag === download.headers.get('etag'))?.json().etag);
  assert.ok(readerSeen.length > 0);
  for (const seen of readerSeen) assert.ok(hashes.has(seen), 'a reader saw a document that was never uploaded');
  assert.deepEqual(await readdir(path.join(server.dataDir, 'documents', 'race')), ['doc.pdf'], 'no temporary files remain');
});
