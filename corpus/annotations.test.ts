import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { call } from '../test/helpers/http.js';
import { countBySubtype, qpdfAnnotations } from '../test/helpers/qpdf-json.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { corpusDir, readManifest } from './manifest.js';

const dir = corpusDir();
if (!dir) {
  console.log('# corpus annotation suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus annotation suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.features.includes('annotations') && e.file.endsWith('.pdf'));
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  describe(`annotated corpus PDFs: per-subtype counts equal qpdf --json, every name round-trips (${entries.length} files)`, () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        const bytes = readFileSync(entry.absolute);
        const url = `/documents/corpus-annotations/${entry.file.split('/').map(encodeURIComponent).join('/')}`;
        const put = await call(server, 'PUT', url, { body: bytes, headers: { 'content-type': 'application/pdf' } });
        assert.equal(put.status, 201, put.text);
        const listed = await call(server, 'GET', `${url}/annotations`);
        assert.equal(listed.status, 200, listed.text);
        const annotations = listed.json().annotations as { name: string; subtype: string }[];
        // qpdf lists an annotation referenced from two /Annots arrays twice; we list it once.
        const independent = qpdfAnnotations(bytes).filter((a, i, all) => a.objectNumber === undefined || all.findIndex((b) => b.objectNumber === a.objectNumber) === i);
        assert.deepEqual(countBySubtype(annotations), countBySubtype(independent));
        assert.equal(new Set(annotations.map((a) => a.name)).size, annotations.length, 'names are unique');
        for (const a of annotations) {
          const one = await call(server, 'GET', `${url}/annotations/${encodeURIComponent(a.name)}`);
          assert.equal(one.status, 200, `${a.name}: ${one.text}`);
          assert.equal(one.json().subtype, a.subtype);
        }
      });
    }
  });
}
