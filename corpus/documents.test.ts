import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call, sha256 } from '../test/helpers/http.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

const dir = corpusDir();
if (!dir) {
  console.log('# corpus suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf'));
  const server = serverForSuite();
  const target = (e: CorpusEntry) => `corpus/${e.file.split('/').map(encodeURIComponent).join('/')}`;
  /** Headers carry bytes: a non-ASCII password is sent as its UTF-8 bytes, as curl sends it from a UTF-8 terminal. */
  const passwordHeader = (pw: string) => ({ 'x-service-documentpassword': Buffer.from(pw, 'utf8').toString('latin1') });

  describe(`every corpus PDF uploads and downloads byte-identical (malformed: stored or 422); ${entries.length} files`, () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        const bytes = readFileSync(entry.absolute);
        const put = await call(server, 'PUT', `/documents/${target(entry)}`, { body: bytes, headers: { 'content-type': 'application/pdf' } });
        assert.ok(put.status < 500, `${entry.file}: upload answered ${put.status} ${put.text}`);
        const malformed = entry.features.includes('malformed');
        if (put.status === 422) {
          assert.ok(malformed || entry.publicKey, `${entry.file} was refused (${put.json().code}) but is not marked malformed`);
          assert.ok(['MALFORMED_PDF', 'UNSUPPORTED_ENCRYPTION'].includes(put.json().code));
          return;
        }
        assert.equal(put.status, 201, `${entry.file}: ${put.text}`);
        const get = await call(server, 'GET', `/documents/${target(entry)}`);
        assert.equal(get.status, 200);
        assert.equal(sha256(get.bytes), sha256(bytes), `${entry.file} downloads byte-identical`);
        if (!put.json().encrypted) {
          const model = await call(server, 'GET', `/documents/${target(entry)}`, { headers: { accept: 'application/json' } });
          assert.equal(model.status, 200, `${entry.file}: DocumentModel ${model.text}`);
          assert.equal(model.json().pageCount, put.json().pageCount);
          // Whatever the file holds, listing its annotations answers a list or a documented 4xx.
          const annotations = await call(server, 'GET', `/documents/${target(entry)}/annotations`);
          assert.ok(annotations.status === 200 || (annotations.status >= 400 && annotations.status < 500), `${entry.file}: annotations ${annotations.status} ${annotations.text}`);
        }
      });
    }
  });

  describe('every encrypted corpus PDF answers its DocumentModel with its password and 403 without', () => {
    for (const entry of entries.filter((e) => e.features.includes('encryption'))) {
      test(entry.file, async () => {
        const accept = { accept: 'application/json' };
        const url = `/documents/${target(entry)}`;
        if (entry.publicKey) {
          const reply = await call(server, 'GET', url, { headers: accept });
          assert.ok(reply.status >= 400 && reply.status < 500, `${entry.file}: ${reply.status}`);
          return;
        }
        if (!entry.expectation.startsWith('encrypted')) {
          const plain = await call(server, 'GET', url, { headers: accept });
          assert.equal(plain.status, 200);
          assert.equal(plain.json().encrypted, false);
          return;
        }
        // The MANIFEST's user= says whether the file opens without a password; so does pypdf's check, also where the
        // empty password is the *owner* password (r5/r6-user-password.pdf: `<empty>:owner`), which the service accepts too.
        const opensWithoutPassword = /user=\(empty\)/.test(entry.expectation) || entry.passwords.some((p) => p.password === '' && p.opensAs !== 'no');
        const bare = await call(server, 'GET', url, { headers: accept });
        if (!opensWithoutPassword) {
          assert.equal(bare.status, 403, `${entry.file} without password: ${bare.text}`);
          assert.equal(bare.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
          const wrong = await call(server, 'GET', url, { headers: { ...accept, ...passwordHeader('definitely-wrong-password') } });
          assert.equal(wrong.status, 403);
          assert.equal(wrong.json().code, 'DOCUMENT_PASSWORD_INVALID');
        } else {
          assert.equal(bare.status, 200, `${entry.file} opens with the empty password: ${bare.text}`);
          assert.equal(bare.json().encrypted, true);
        }
        for (const { password, opensAs } of entry.passwords.filter((p) => p.password !== '' && p.opensAs !== 'no')) {
          const reply = await call(server, 'GET', url, { headers: { ...accept, ...passwordHeader(password) } });
          assert.equal(reply.status, 200, `${entry.file} with its ${opensAs} password: ${reply.text}`);
          assert.equal(reply.json().encrypted, true);
          assert.ok(reply.json().pageCount >= 1);
        }
      });
    }
  });

  test('the server process survived the whole run', async () => {
    assert.equal(server.child.exitCode, null);
    const health = await fetch(`${server.api}/health`);
    assert.equal(health.status, 200);
  });
}
