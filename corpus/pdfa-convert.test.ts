/**
 * Issue 20's verification of PDFAConvertAction over the corpus: every corpus
 * PDF that is not malformed and not a PDF/A test file (verapdf/) is converted
 * to PDF/A-1b, -2b and -3b through the API (an encrypted one with a password
 * that opens it as owner; one without such a password cannot be converted and
 * is counted so). Nothing may answer 5xx; a conversion that does not reach
 * PDF/A answers 422 PDFA_CONVERSION_FAILED with its rules, or another
 * documented 4xx. A signed document answers 409 DOCUMENT_SIGNED (the decision
 * of docs/errors.md): as a client would, the test clears its signatures
 * (DELETE .../fields/signature-fields/{name}) and converts again, and counts
 * that conversion. The round trip: GET .../preflight-results?profile= says of
 * each output that it is compliant, and of each input why not (failed rules).
 * The table of passed / attempted per profile is printed; every 1b output is
 * also judged by PDFBox Preflight.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { call, storedBytes } from '../test/helpers/http.js';
import { pdfboxPreflightA1b } from '../test/helpers/pdf.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

const PROFILES = ['pdfa1b', 'pdfa2b', 'pdfa3b'] as const;

const dir = corpusDir();
if (!dir) {
  console.log('# corpus suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf') && !e.features.includes('malformed') && !e.file.startsWith('verapdf/') && !e.publicKey);
  const server = serverForSuite();
  const target = (e: CorpusEntry) => e.file.split('/').map(encodeURIComponent).join('/');
  const tally = new Map<string, { attempted: number; passed: number; pdfbox: number; roundTrip: number; failures: string[] }>(PROFILES.map((p) => [p, { attempted: 0, passed: 0, pdfbox: 0, roundTrip: 0, failures: [] }]));
  const noOwnerPassword: string[] = [];
  const signaturesCleared: string[] = [];
  /** The 1b outputs, for PDFBox Preflight. */
  const oneB: { file: string; bytes: Buffer }[] = [];

  const preflight = async (path: string, profile: string, headers: Record<string, string>) => {
    const reply = await call(server, 'GET', `/documents/${path}/preflight-results?profile=${profile}`, { headers: { ...headers, accept: 'application/json' } });
    assert.equal(reply.status, 200, `preflight ${path} ${profile}: ${reply.text.slice(0, 300)}`);
    return reply.json() as { compliant: boolean; rules: { clause: string; testNumber: number }[] };
  };

  /** A signed document's signatures cleared, as docs/errors.md tells the client to do before converting it. */
  const clearSignatures = async (path: string, headers: Record<string, string>) => {
    const list = await call(server, 'GET', `/documents/${path}/fields/signature-fields`, { headers: { ...headers, accept: 'application/json' } });
    assert.equal(list.status, 200, `${path}: signature fields ${list.text.slice(0, 300)}`);
    const signed = (list.json().signatureFields as { name: string; signed: boolean }[]).filter((f) => f.signed);
    assert.ok(signed.length > 0, `${path}: 409 DOCUMENT_SIGNED but no signed field listed`);
    for (const field of signed) {
      const cleared = await call(server, 'DELETE', `/documents/${path}/fields/signature-fields/${encodeURIComponent(field.name)}`, { headers });
      assert.equal(cleared.status, 204, `${path}: clearing ${field.name}: ${cleared.text.slice(0, 300)}`);
    }
  };

  describe(`PDFAConvertAction over the corpus: ${entries.length} files to ${PROFILES.join(', ')}`, () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        // The manifest lists, for encrypted files, which passwords open them and as what.
        const owner = entry.passwords.find((p) => p.opensAs === 'owner');
        const headers: Record<string, string> = { prefer: 'wait=300' };
        if (owner && owner.password !== '') headers['x-service-documentpassword'] = Buffer.from(owner.password, 'utf8').toString('latin1');
        else if (entry.passwords.length > 0 && !owner) {
          noOwnerPassword.push(entry.file);
          return;
        }
        const put = await call(server, 'PUT', `/documents/in/${target(entry)}`, { body: readFileSync(entry.absolute), headers: { 'content-type': 'application/pdf' } });
        assert.ok(put.status === 201 || put.status === 200, `${entry.file}: upload ${put.status} ${put.text}`);
        for (const profile of PROFILES) {
          const counts = tally.get(profile)!;
          counts.attempted++;
          const out = `out/${profile}/${target(entry)}`;
          const convert = () => call(server, 'POST', `/documents/in/${target(entry)}`, { body: { PDFAConvertAction: { profile, savePath: decodeURIComponent(out) } }, headers });
          let reply = await convert();
          if (reply.status === 409 && reply.json().code === 'DOCUMENT_SIGNED') {
            await clearSignatures(`in/${target(entry)}`, headers);
            if (!signaturesCleared.includes(entry.file)) signaturesCleared.push(entry.file);
            reply = await convert();
          }
          assert.ok(reply.status < 500, `${entry.file} -> ${profile}: ${reply.status} ${reply.text.slice(0, 500)}`);
          if (reply.status === 201) {
            assert.equal(reply.json().report.compliant, true);
            counts.passed++;
            // The round trip: the service's preflight agrees with the conversion about the output, and says why the input was not PDF/A.
            const output = await preflight(out, profile, {});
            const input = await preflight(`in/${target(entry)}`, profile, headers);
            assert.equal(output.compliant, true, `${entry.file} -> ${profile}: preflight of the output: ${JSON.stringify(output.rules).slice(0, 300)}`);
            assert.ok(input.compliant || input.rules.length > 0, `${entry.file}: preflight of the input says neither compliant nor why not`);
            counts.roundTrip++;
            // Judged by PDFBox Preflight all together at the end: one JVM for every output.
            if (profile === 'pdfa1b') oneB.push({ file: entry.file, bytes: await storedBytes(server, decodeURIComponent(out)) });
            continue;
          }
          const problem = reply.json();
          assert.ok(typeof problem.code === 'string', `${entry.file} -> ${profile}: ${reply.text.slice(0, 300)}`);
          const why = problem.code === 'PDFA_CONVERSION_FAILED' ? (problem.report.rules as { clause: string; testNumber: number }[]).slice(0, 4).map((r) => `${r.clause}-${r.testNumber}`).join(', ') : problem.code;
          counts.failures.push(`${entry.file}: ${reply.status} ${why}`);
        }
      });
    }
  });

  test('PDFBox Preflight judges the PDF/A-1b outputs', () => {
    const verdicts = pdfboxPreflightA1b(oneB.map((o) => o.bytes));
    const counts = tally.get('pdfa1b')!;
    oneB.forEach((o, i) => {
      if (verdicts[i]!.valid) counts.pdfbox++;
      else counts.failures.push(`${o.file}: PDFBox Preflight: ${verdicts[i]!.errors.slice(0, 200)}`);
    });
  });

  after(() => {
    console.log('# PDFAConvertAction over the corpus (passed / attempted; PDFBox Preflight on the 1b outputs)');
    for (const [profile, counts] of tally) {
      console.log(`# ${profile}: ${counts.passed} / ${counts.attempted}${profile === 'pdfa1b' ? `, PDFBox Preflight ${counts.pdfbox} / ${counts.passed}` : ''}, round trip through preflight-results ${counts.roundTrip} / ${counts.passed}`);
    }
    if (signaturesCleared.length) console.log(`# converted after clearing their signatures (409 DOCUMENT_SIGNED first): ${signaturesCleared.length} (${signaturesCleared.join(', ')})`);
    if (noOwnerPassword.length) console.log(`# not attempted, no owner password known: ${noOwnerPassword.length} (${noOwnerPassword.join(', ')})`);
    for (const [profile, counts] of tally) for (const failure of counts.failures) console.log(`# ${profile} ${failure}`);
  });
}
