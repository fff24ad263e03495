/**
 * PDF/X preflight over the corpus: every PDF answers a report or a documented
 * 4xx (never 5xx), encrypted files opened with their password fail the
 * encryption rule, and where a veraPDF PDF/A-1 test file's clause is also a
 * PDF/X rule (6.1.10: no LZW; 6.2.5: no PostScript XObjects) our rule agrees
 * with the file's expected verdict.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call } from '../test/helpers/http.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

const dir = corpusDir();
if (!dir) {
  console.log('# corpus PDF/X suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus PDF/X suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf'));
  const server = serverForSuite();
  const target = (e: CorpusEntry, folder = 'corpus-pdfx') => `${folder}/${e.file.split('/').map(encodeURIComponent).join('/')}`;
  const passwordHeader = (pw: string) => ({ 'x-service-documentpassword': Buffer.from(pw, 'utf8').toString('latin1') });
  const failed = (report: any) => report.rules.map((r: any) => r.testNumber) as number[];

  /** Uploads the entry; false when the service refuses it (malformed or unsupported encryption: a 422 of the upload). */
  const upload = async (entry: CorpusEntry, folder?: string): Promise<boolean> => {
    const put = await call(server, 'PUT', `/documents/${target(entry, folder)}`, { body: readFileSync(entry.absolute), headers: { 'content-type': 'application/pdf' } });
    assert.ok(put.status === 201 || put.status === 422, `${entry.file}: upload ${put.status} ${put.text}`);
    return put.status === 201;
  };

  describe(`every corpus PDF answers a PDF/X report or a 4xx (${entries.length} files)`, () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        if (!(await upload(entry))) return;
        const password = entry.passwords.find((p) => p.password !== '' && p.opensAs !== 'no')?.password;
        for (const profile of ['pdfx1a2001', 'pdfx4']) {
          const reply = await call(server, 'GET', `/documents/${target(entry)}/preflight-results?profile=${profile}`, { headers: password ? passwordHeader(password) : {} });
          assert.ok(reply.status === 200 || (reply.status >= 400 && reply.status < 500), `${entry.file} ${profile}: ${reply.status} ${reply.text}`);
          if (reply.status !== 200) {
            assert.ok(['DOCUMENT_PASSWORD_REQUIRED', 'DOCUMENT_PASSWORD_INVALID', 'MALFORMED_PDF', 'UNSUPPORTED_ENCRYPTION'].includes(reply.json().code), `${entry.file}: ${reply.text}`);
            continue;
          }
          const report = reply.json();
          assert.equal(report.profile, profile);
          assert.equal(report.compliant, report.rules.length === 0);
          // None of the corpus files is PDF/X; an encrypted one that opened fails the encryption rule.
          assert.equal(report.compliant, false, entry.file);
          if (entry.expectation.startsWith('encrypted')) assert.ok(failed(report).includes(2), `${entry.file}: ${failed(report)}`);
        }
      });
    }
  });

  describe('veraPDF PDF/A-1 test files whose clause is a PDF/X rule agree with their verdict', () => {
    const cases = [
      { clause: '6-1-10', rule: 4 },
      { clause: '6-2-5', rule: 26 },
    ];
    for (const { clause, rule } of cases) {
      for (const entry of entries.filter((e) => path.basename(e.file).startsWith(`${clause}-`) && e.file.includes('PDF_A-1'))) {
        const fails = path.basename(entry.file).includes('-fail-');
        test(`${entry.file}: rule ${rule} ${fails ? 'fails' : 'passes'}`, async () => {
          assert.ok(await upload(entry, 'corpus-pdfx-clauses'));
          const reply = await call(server, 'GET', `/documents/${target(entry, 'corpus-pdfx-clauses')}/preflight-results?profile=pdfx32002`);
          assert.equal(reply.status, 200, reply.text);
          assert.equal(failed(reply.json()).includes(rule), fails, JSON.stringify(reply.json().rules));
        });
      }
    }
  });
}
