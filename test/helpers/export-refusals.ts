import assert from 'node:assert/strict';
import { call, type Reply } from './http.js';
import { encryptPdf, makePdf } from './pdf.js';
import type { TestServer } from './server.js';

/**
 * The refusals every export format shares (docs/export.md "Bad input"), in `folder`: a document without text is 422
 * NO_TEXT naming OCRAction; an encrypted one is 403 without its password or with a wrong one, and exported with it; the
 * stored documents unchanged. Answers the export of the encrypted document (text "Secret minutes"), for the caller to read.
 */
export async function exportRefusals(server: TestServer, folder: string, format: string): Promise<Reply> {
  const blank = makePdf({ pages: 2, text: () => '' });
  assert.equal((await call(server, 'PUT', `${folder}/blank.pdf`, { body: blank, headers: { 'content-type': 'application/pdf' } })).status, 201);
  const none = await call(server, 'GET', `${folder}/blank.pdf/export?format=${format}`);
  assert.equal(none.status, 422, none.text);
  assert.equal(none.json().code, 'NO_TEXT');
  assert.match(none.json().detail, /OCRAction/);
  assert.deepEqual((await call(server, 'GET', `${folder}/blank.pdf`)).bytes, blank);

  const locked = encryptPdf(makePdf({ text: () => 'Secret minutes' }), 'user-pw', 'owner-pw');
  assert.equal((await call(server, 'PUT', `${folder}/locked.pdf`, { body: locked, headers: { 'content-type': 'application/pdf' } })).status, 201);
  const without = await call(server, 'GET', `${folder}/locked.pdf/export?format=${format}`);
  assert.equal(without.status, 403, without.text);
  assert.equal(without.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
  const wrong = await call(server, 'GET', `${folder}/locked.pdf/export?format=${format}`, { headers: { 'x-service-documentpassword': 'nope' } });
  assert.equal(wrong.json().code, 'DOCUMENT_PASSWORD_INVALID');
  const right = await call(server, 'GET', `${folder}/locked.pdf/export?format=${format}`, { headers: { 'x-service-documentpassword': 'owner-pw' } });
  assert.equal(right.status, 200, right.text);
  assert.deepEqual((await call(server, 'GET', `${folder}/locked.pdf`)).bytes, locked);
  return right;
}
