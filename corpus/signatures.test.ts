import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { call, putPdf, storedBytes, type Reply } from '../test/helpers/http.js';
import { qpdfCheck } from '../test/helpers/pdf.js';
import { serverForSuite } from '../test/helpers/server.js';
import { makeKeyStores, pdfsig, STORE_PASSWORD, type KeyStores } from '../test/helpers/signing.js';
import { corpusDir, readManifest } from './manifest.js';

/**
 * The signature fields of the corpus's signed PDFs: the service's own
 * integrity verdict agrees with poppler's pdfsig for every signature, and a
 * byte changed inside the signed range turns it false. The unsigned signing
 * inputs (and the signed files, with a second signature) are signed through
 * the API and checked with pdfsig and qpdf.
 */

const dir = corpusDir();
if (!dir) {
  console.log('# corpus signatures suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus signatures suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.features.includes('signatures') || e.features.includes('signing-input'));
  const server = serverForSuite();
  let keys: KeyStores;
  before(() => {
    keys = makeKeyStores();
  });

  const json = { accept: 'application/json' };
  const list = (doc: string): Promise<Reply> => call(server, 'GET', `/documents/${doc}/fields/signature-fields`, { headers: json });

  /** The PDF header's version digit changed ("%PDF-1.4" to "%PDF-1.5"): inside the first signed range, harmless to every reader. */
  function flipInSignedRange(bytes: Buffer): Buffer {
    const copy = Buffer.from(bytes);
    const at = copy.indexOf('%PDF-1.') + 7;
    copy[at] = copy[at]! ^ 0x01;
    return copy;
  }

  describe(`signed corpus PDFs: integrity agrees with pdfsig, and a changed byte turns it false; ${entries.length} files`, () => {
    for (const entry of entries) {
      test(entry.file, async (t) => {
        const bytes = readFileSync(entry.absolute);
        const doc = `corpus-sig/${entry.file.replace(/[^A-Za-z0-9]+/g, '-')}.pdf`;
        assert.equal((await putPdf(server, doc, bytes)).status, 201);
        const reply = await list(doc);
        assert.equal(reply.status, 200, reply.text);
        const fields = reply.json().signatureFields as any[];
        const signed = fields.filter((f) => f.signed);
        const verdicts = new Map(pdfsig(bytes).filter((s) => s.validation).map((s) => [s.field, s.validation]));
        assert.equal(signed.length, verdicts.size, `${entry.file}: as many signed fields as pdfsig validates`);
        for (const f of signed) {
          const poppler = verdicts.get(f.name);
          t.diagnostic(`${f.name}: integrity ${f.signature.integrity} (${f.signature.integrityReason ?? 'ok'}); pdfsig: ${poppler}; signer ${f.signature.signer}`);
          assert.equal(f.signature.integrity, poppler === 'Signature is Valid.', `${entry.file} ${f.name}: ours ${f.signature.integrity} (${f.signature.integrityReason}), pdfsig "${poppler}"`);
          assert.ok(f.signature.signer, 'the signer is named');
          assert.ok(f.signature.byteRange.length === 4);
        }
        if (signed.length > 0) {
          const flippedDoc = doc.replace(/\.pdf$/, '-flipped.pdf');
          await putPdf(server, flippedDoc, flipInSignedRange(bytes));
          const flipped = (await list(flippedDoc)).json().signatureFields.filter((f: any) => f.signed);
          assert.equal(flipped.length, signed.length);
          for (const f of flipped) {
            // A digest mismatch, or (without signed attributes) a signature that no longer verifies.
            assert.equal(f.signature.integrity, false, `${entry.file} ${f.name}: a changed byte is detected`);
            assert.match(f.signature.integrityReason, /digest|does not verify|byte range/);
          }
        }

        // Signing it through the API: the first unsigned signature field, else a new invisible one.
        const target = fields.find((f) => !f.signed)?.name ?? 'pdfservice-signature';
        const form = new FormData();
        form.append('signature', new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD, createField: true, signReason: 'corpus' })], { type: 'application/json' }));
        form.append('file', new Blob([new Uint8Array(keys.aes)]), 'signer.p12');
        const signedReply = await call(server, 'POST', `/documents/${doc}/fields/signature-fields/${encodeURIComponent(target)}/signature`, { body: form, headers: json });
        if (signedReply.status === 403 || signedReply.status === 409) {
          // Permissions or a certification that forbid it: a clear refusal, the document unchanged.
          t.diagnostic(`signing refused: ${signedReply.json().code}`);
          assert.ok(['DOCUMENT_PERMISSION_DENIED', 'DOCUMENT_CERTIFIED'].includes(signedReply.json().code), signedReply.text);
          assert.ok((await storedBytes(server, doc)).equals(bytes));
          return;
        }
        assert.equal(signedReply.status, 200, `${entry.file}: ${signedReply.text}`);
        assert.equal(signedReply.json().signature.integrity, true);
        const after = await storedBytes(server, doc);
        assert.ok(after.subarray(0, bytes.length).equals(bytes), 'appended to');
        const check = qpdfCheck(after);
        assert.ok(check.ok || !qpdfCheck(bytes).ok, `${entry.file}: qpdf --check after signing: ${check.output}`);
        const afterVerdicts = new Map(pdfsig(after).filter((s) => s.validation).map((s) => [s.field, s.validation]));
        assert.equal(afterVerdicts.get(target), 'Signature is Valid.', `${entry.file}: pdfsig on the new signature`);
        for (const [field, verdict] of verdicts) assert.equal(afterVerdicts.get(field), verdict, `${entry.file} ${field}: the earlier verdict is kept`);
      });
    }
  });
}
