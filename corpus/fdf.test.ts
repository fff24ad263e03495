import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, putPdf, storedBytes } from '../test/helpers/http.js';
import { pdftotext, qpdfCheck, withTempFile } from '../test/helpers/pdf.js';
import { serverForSuite } from '../test/helpers/server.js';
import { parseFieldsXfdf } from '../src/engine/xfdf/field-data.js';
import { corpusDir, readManifest } from './manifest.js';

interface QpdfField {
  fullname: string;
  fieldtype: string;
  value: unknown;
}

function qpdfFields(bytes: Buffer): QpdfField[] {
  const json = withTempFile(bytes, (file) => {
    const run = spawnSync('qpdf', ['--json', '--json-key=acroform', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    // Exit 3 means warnings only (common in real files); the JSON is still complete.
    if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf failed (${run.status}): ${run.stderr}`);
    return run.stdout;
  });
  return (JSON.parse(json) as { acroform: { fields: QpdfField[] } }).acroform.fields;
}

/** Field values as qpdf reads them (text strings "u:..." as text). */
function qpdfFieldValues(bytes: Buffer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of qpdfFields(bytes)) out[f.fullname] = typeof f.value === 'string' && f.value.startsWith('u:') ? f.value.slice(2) : f.value;
  return out;
}

const dir = corpusDir();
if (!dir) {
  console.log('# corpus FDF suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus FDF suite (no corpus found)');
} else {
  const server = serverForSuite();

  const target = readFileSync(path.join(dir, 'pdfbox/fdf-target/SimpleForm2Fields.pdf'));

  describe("PDFBox's FDF files into the form they belong to: Field1 = Test1, Field2 = Test2", () => {
    for (const name of ['withcatalog.fdf', 'nocatalog.fdf']) {
      test(name, async () => {
        const doc = `corpus-fdf/${name.replace('.fdf', '.pdf')}`;
        assert.equal((await putPdf(server, doc, target)).status, 201);
        assert.deepEqual(qpdfFieldValues(target), { Field1: null, Field2: null }, 'the form starts empty');

        const fdf = readFileSync(path.join(dir, 'pdfbox/fdf', name));
        const reply = await call(server, 'POST', `/documents/${doc}/fields/content`, { body: fdf, headers: { 'content-type': 'application/vnd.fdf' } });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(reply.json(), { set: ['Field1', 'Field2'], unknown: [], warnings: [] });

        const bytes = await storedBytes(server, doc);
        assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
        assert.deepEqual(qpdfFieldValues(bytes), { Field1: 'Test1', Field2: 'Test2' });
        // The widgets had no appearance and the form does not ask viewers to make one: what poppler shows, we drew.
        const text = pdftotext(bytes);
        assert.match(text, /Test1/);
        assert.match(text, /Test2/);

        const exported = await call(server, 'GET', `/documents/${doc}/fields/content`);
        assert.equal(exported.status, 200, exported.text);
        assert.match(exported.text, /<field name="Field1">\n<value>Test1<\/value>\n<\/field>\n<field name="Field2">\n<value>Test2<\/value>\n<\/field>/);
        assert.match(exported.text, /<ids original="3C671FDA08B5E9ECCAE30650DA1E0ABF" modified="[0-9A-F]{32}"\/>/);
      });
    }
  });

  describe('every AcroForm in the corpus: exported values agree with qpdf; export, import into a fresh copy, export gives the same file', () => {
    const forms = readManifest(dir).filter((e) => e.file.endsWith('.pdf') && (e.features.includes('forms') || /acroform/i.test(e.expectation)) && e.passwords.every((p) => p.password === ''));
    for (const entry of forms) {
      test(entry.file, async () => {
        const bytes = readFileSync(entry.absolute);
        const doc = `corpus-forms/${entry.file.split('/').join('-')}`;
        const copy = doc.replace(/\.pdf$/, '-copy.pdf');
        assert.equal((await putPdf(server, doc, bytes)).status, 201);
        assert.equal((await putPdf(server, copy, bytes)).status, 201);
        for (const format of ['application/vnd.adobe.xfdf', 'application/vnd.fdf']) {
          const exported = await call(server, 'GET', `/documents/${doc}/fields/content?exportEmptyFields=true`, { headers: { accept: format } });
          assert.equal(exported.status, 200, exported.text);
          const imported = await call(server, 'POST', `/documents/${copy}/fields/content`, { body: exported.bytes, headers: { 'content-type': format } });
          assert.equal(imported.status, 200, imported.text);
          assert.deepEqual(imported.json().unknown, []);
          const again = await call(server, 'GET', `/documents/${copy}/fields/content?exportEmptyFields=true`, { headers: { accept: format } });
          // The file names differ, and the ids once the copy is saved; everything else is the same.
          const withoutIds = (b: Buffer) => b.toString('latin1').replace(/<ids [^>]*\/>|\/ID \[[^\]]*\]/, '').replace(/<f href="[^"]*"\/>|\/F \([^)]*\)/, '');
          assert.equal(withoutIds(again.bytes), withoutIds(exported.bytes), format);
          if (format === 'application/vnd.adobe.xfdf') {
            // Text values as qpdf reads them from the original are what we exported.
            const ours = new Map(parseFieldsXfdf(exported.bytes).values.map((v) => [v.name, v.value]));
            for (const f of qpdfFields(bytes)) {
              if (f.fieldtype === '/Tx' && typeof f.value === 'string' && f.value.startsWith('u:') && f.value.length > 2) {
                assert.equal(ours.get(f.fullname), f.value.slice(2), f.fullname);
              }
            }
          }
        }
        assert.ok(qpdfCheck(await storedBytes(server, copy)).ok || !qpdfCheck(bytes).ok, 'the written copy passes qpdf --check (when the original does)');
      });
    }
  });
}
