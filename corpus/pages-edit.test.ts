import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call, putPdf, storedBytes } from '../test/helpers/http.js';
import { makePdf, qpdfCheck } from '../test/helpers/pdf.js';
import { qpdfAnnotations } from '../test/helpers/qpdf-json.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest } from './manifest.js';

/**
 * Page actions on real-world files: every corpus PDF that opens without a
 * password is inserted into a small document (all its pages, with their
 * annotations), and has its first page deleted; the results must pass
 * qpdf --check, have the right page count, and keep the annotations of the
 * inserted pages (per qpdf). Malformed files may be refused with a 4xx, never
 * a 5xx.
 */
const dir = corpusDir();
if (!dir) {
  test.skip('corpus page actions (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf') && !e.features.includes('encryption') && !e.publicKey);
  const server = serverForSuite();
  const target = (file: string) => `corpus-pages/${file.split('/').map(encodeURIComponent).join('/')}`;

  describe(`page actions on corpus PDFs: insert all pages, delete the first; ${entries.length} files`, () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        const source = target(entry.file);
        const put = await putPdf(server, source, readFileSync(entry.absolute));
        if (put.status !== 201) {
          assert.ok(put.status >= 400 && put.status < 500, `${entry.file}: upload ${put.status}`);
          return;
        }
        if (put.json().encrypted) return;
        const pages = put.json().pageCount as number;
        const host = `${source}.host.pdf`;
        await putPdf(server, host, makePdf({ pages: 2 }));
        const inserted = await call(server, 'POST', `/documents/${host}/pages`, { body: { InsertUploadedPagesAction: { appendFilePath: source, pageIndex: 1 } }, headers: { accept: 'application/json' } });
        if (inserted.status >= 400 && inserted.status < 500 && entry.features.includes('malformed')) return;
        assert.equal(inserted.status, 200, `${entry.file}: insert ${inserted.text.slice(0, 300)}`);
        assert.equal(inserted.json().pageCount, pages + 2);
        const bytes = await storedBytes(server, host);
        // A source qpdf itself finds fault with (damaged streams, bad content) passes its faults on:
        // then warnings are accepted in the output, errors never.
        const sourceClean = qpdfCheck(await storedBytes(server, source)).ok;
        const check = qpdfCheck(bytes);
        assert.ok(check.ok || (!sourceClean && !/^qpdf: .*(error|ERROR)/m.test(check.output) && /operation succeeded with warnings/.test(check.output)), `${entry.file}: qpdf --check after insert: ${check.output.slice(0, 500)}`);
        if (sourceClean) {
          const before = qpdfAnnotations(await storedBytes(server, source)).length;
          const after = qpdfAnnotations(bytes).filter((a) => a.pageIndex >= 1 && a.pageIndex <= pages).length;
          // Every page is inserted, so every annotation comes along (only links to pages left out would be dropped).
          assert.equal(after, before, `${entry.file}: annotations of the inserted pages (qpdf)`);
        }

        if (pages > 1) {
          const unchanged = await storedBytes(server, source);
          const deleted = await call(server, 'POST', `/documents/${source}/pages`, { body: { DeletePagesAction: { pageRange: '1' } }, headers: { accept: 'application/json' } });
          if (deleted.status === 409 && deleted.json().code === 'DOCUMENT_SIGNED') {
            // The first page shows a signed signature field: deleting it would remove the signature (docs/signing.md).
            assert.ok(entry.features.includes('signatures'), `${entry.file}: DOCUMENT_SIGNED for a file the manifest does not call signed`);
            assert.ok((await storedBytes(server, source)).equals(unchanged), `${entry.file}: unchanged after the refusal`);
            return;
          }
          assert.equal(deleted.status, 200, `${entry.file}: delete ${deleted.text.slice(0, 300)}`);
          assert.equal(deleted.json().pageCount, pages - 1);
          const left = qpdfCheck(await storedBytes(server, source));
          assert.ok(left.ok || (!sourceClean && /operation succeeded with warnings/.test(left.output)), `${entry.file}: qpdf --check after delete: ${left.output.slice(0, 500)}`);
        }
      });
    }
  });
}
