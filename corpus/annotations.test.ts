import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call } from '../test/helpers/http.js';
import { countBySubtype, qpdfAnnotations } from '../test/helpers/qpdf-json.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest } from './manifest.js';

const dir = corpusDir();
if (!dir) {
  console.log('# corpus annotation suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus annotation suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.features.includes('annotations') && e.file.endsWith('.pdf'));
  const server = serverForSuite();

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

  describe('XFDF: export, delete all, import, export gives the same XFDF for every annotated corpus PDF', () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        const url = `/documents/corpus-xfdf/${entry.file.split('/').map(encodeURIComponent).join('/')}`;
        assert.equal((await call(server, 'PUT', url, { body: readFileSync(entry.absolute), headers: { 'content-type': 'application/pdf' } })).status, 201);
        const first = await call(server, 'GET', `${url}/annotations/content`);
        assert.equal(first.status, 200, first.text);
        assert.equal((await call(server, 'DELETE', `${url}/annotations`)).status, 200);
        const imported = await call(server, 'POST', `${url}/annotations/content`, { body: first.bytes, headers: { 'content-type': 'application/vnd.adobe.xfdf' } });
        assert.equal(imported.status, 200, imported.text);
        const second = await call(server, 'GET', `${url}/annotations/content`);
        // A stamp that had no /AP gets one drawn on import, which the second export carries: <appearance> is compared apart.
        const canonical = (x: string) =>
          x.replace(/<ids[^>]*\/>/, '').replace(/\s*<appearance>[^<]*<\/appearance>/g, '').replace(/(<\w+ [^>]*[^/])>\s*<\/\w+>/g, '$1/>');
        assert.equal(canonical(second.text), canonical(first.text));
        const withAppearance = (x: string) => [...x.matchAll(/<\w+ [^>]*name="([^"]*)"[^>]*>\s*<appearance>/g)].map((m) => m[1]);
        const carried = new Set(withAppearance(second.text));
        for (const name of withAppearance(first.text)) assert.ok(carried.has(name), `${name} keeps its appearance`);
      });
    }
  });

  test('PDFBox\'s XFDF test file (18 annotations on pages 0, 2 and 3) imports into tracemonkey.pdf', async () => {
    const tracemonkey = readManifest(dir).find((e) => e.file.endsWith('/tracemonkey.pdf'));
    const xfdf = readManifest(dir).find((e) => e.file.endsWith('xfdf-test-document-annotations.xml'));
    assert.ok(tracemonkey && xfdf, 'the corpus has both files');
    const url = '/documents/corpus-xfdf/tracemonkey-with-pdfbox-xfdf.pdf';
    assert.equal((await call(server, 'PUT', url, { body: readFileSync(tracemonkey.absolute), headers: { 'content-type': 'application/pdf' } })).status, 201);
    const before = (await call(server, 'GET', `${url}/annotations`)).json().annotations.length;
    const reply = await call(server, 'POST', `${url}/annotations/content`, { body: readFileSync(xfdf.absolute), headers: { 'content-type': 'application/vnd.adobe.xfdf' } });
    assert.equal(reply.status, 200, reply.text);
    const result = reply.json();
    assert.equal(result.created.length + result.updated.length, 18);
    assert.deepEqual(result.warnings, []);
    const added = result.annotations.length - before;
    assert.equal(added, 18);
    const pages = new Set(result.annotations.filter((a: { name: string }) => result.created.includes(a.name)).map((a: { pageIndex: number }) => a.pageIndex));
    assert.deepEqual([...pages].sort(), [0, 2, 3]);
    const links = result.annotations.filter((a: { subtype: string; uri?: string }) => a.subtype === 'Link' && a.uri?.includes('dropbox'));
    assert.equal(links.length, 9);
  });
}
