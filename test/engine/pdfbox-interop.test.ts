import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { everySubtypeFixture } from '../helpers/annotated-pdf.js';
import { imageStampPdf } from '../helpers/appearance-pdf.js';
import { call, putPdf } from '../helpers/http.js';
import { withTempFile } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Our XFDF and FDF read by an independent implementation: Apache PDFBox 2 (Debian libpdfbox2-java),
 * through a small Java program compiled here (test/java/PdfboxRead.java).
 */
const SOURCE = fileURLToPath(new URL('../../../test/java/PdfboxRead.java', import.meta.url));
const CLASSPATH = ['/usr/share/java/pdfbox2.jar', '/usr/share/java/fontbox2.jar', '/usr/share/java/commons-logging.jar'];
/** What PDFBox 2.0.27 models in XFDF and in FDF (it reports the rest as unsupported). */
const PDFBOX_XFDF = new Set(['Text', 'Caret', 'FreeText', 'FileAttachment', 'Highlight', 'Ink', 'Line', 'Link', 'Circle', 'Square', 'Polygon', 'PolyLine', 'Sound', 'Squiggly', 'Stamp', 'StrikeOut', 'Underline']);
const PDFBOX_FDF = new Set([...PDFBOX_XFDF].filter((s) => s !== 'PolyLine'));

let server: TestServer;
let classes: string;
before(async () => {
  server = await startServer();
  classes = mkdtempSync(path.join(tmpdir(), 'pdfservice-pdfbox-'));
  execFileSync('javac', ['-cp', CLASSPATH.join(':'), '-d', classes, SOURCE]);
});
after(async () => {
  await server.stop();
  rmSync(classes, { recursive: true, force: true });
});

interface Seen {
  annotations: { subtype: string; page: number; name: string; rect: number[] | null; appearance?: { keys: string[]; normalLength?: number; xobjects?: Record<string, number> } }[];
  fields: { name: string; value: string | null }[];
}
function pdfboxRead(kind: 'xfdf' | 'fdf', bytes: Buffer): Seen {
  return withTempFile(bytes, (file) => JSON.parse(execFileSync('java', ['-cp', [classes, ...CLASSPATH].join(':'), 'PdfboxRead', kind, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Seen, `data.${kind}`);
}

test('PDFBox reads our XFDF and FDF exports and finds the same annotations (subtype, page, name, rectangle)', async () => {
  await putPdf(server, 'pdfbox/all.pdf', everySubtypeFixture().pdf);
  const ours = (await call(server, 'GET', '/documents/pdfbox/all.pdf/annotations')).json().annotations as { name: string; subtype: string; pageIndex: number; rectangle: { x: number; y: number; width: number; height: number } }[];
  const expected = (supported: Set<string>) => ours.filter((a) => supported.has(a.subtype)).map((a) => ({
    subtype: a.subtype, page: a.pageIndex, name: a.name, rect: [a.rectangle.x, a.rectangle.y, a.rectangle.x + a.rectangle.width, a.rectangle.y + a.rectangle.height],
  }));
  // PDFBox 2 names the subtype it makes from <polyline> "Polyline" (its spelling): subtypes compare without case.
  const lower = <T extends { subtype: string }>(list: T[]) => list.map((a) => ({ ...a, subtype: a.subtype.toLowerCase() }));
  const xfdf = await call(server, 'GET', '/documents/pdfbox/all.pdf/annotations/content');
  const fromXfdf = pdfboxRead('xfdf', xfdf.bytes);
  assert.deepEqual(lower(fromXfdf.annotations), lower(expected(PDFBOX_XFDF)));
  const fdf = await call(server, 'GET', '/documents/pdfbox/all.pdf/annotations/content', { headers: { accept: 'application/vnd.fdf' } });
  const fromFdf = pdfboxRead('fdf', fdf.bytes);
  assert.deepEqual(fromFdf.annotations, expected(PDFBOX_FDF));
});

test("PDFBox reads a stamp's <appearance> from our XFDF: the normal appearance stream and its image, bytes as stored", async () => {
  const { pdf, image, content } = imageStampPdf();
  await putPdf(server, 'pdfbox/stamp.pdf', pdf);
  const xfdf = await call(server, 'GET', '/documents/pdfbox/stamp.pdf/annotations/content');
  const stamp = pdfboxRead('xfdf', xfdf.bytes).annotations.find((a) => a.name === 'image-stamp');
  assert.ok(stamp?.appearance, JSON.stringify(stamp));
  // PDFBox 2 reads the streams of /AP (N, R); it leaves out state dictionaries such as D.
  assert.deepEqual(stamp.appearance.keys.sort(), ['N', 'R']);
  assert.equal(stamp.appearance.normalLength, content.length);
  assert.deepEqual(stamp.appearance.xobjects, { Im1: image.length });
});

test('PDFBox reads our field data (XFDF and FDF) with the same fully qualified names and values', async () => {
  const { makeFormPdf } = await import('../helpers/form-pdf.js');
  await putPdf(server, 'pdfbox/form.pdf', makeFormPdf());
  const xfdf = await call(server, 'GET', '/documents/pdfbox/form.pdf/fields/content?exportEmptyFields=true');
  assert.equal(xfdf.status, 200, xfdf.text);
  const fdf = await call(server, 'GET', '/documents/pdfbox/form.pdf/fields/content?exportEmptyFields=true', { headers: { accept: 'application/vnd.fdf' } });
  assert.equal(fdf.status, 200, fdf.text);
  const fromXfdf = pdfboxRead('xfdf', xfdf.bytes).fields;
  const fromFdf = pdfboxRead('fdf', fdf.bytes).fields;
  assert.ok(fromXfdf.length > 0);
  // Our own reading of the same export: field names and <value> texts, in order.
  const ours = [...xfdf.text.matchAll(/<field name="([^"]*)"\s*>\s*<value>([^<]*)<\/value>/g)].map((m) => m[2]);
  assert.ok(ours.length > 0);
  const byName = (list: Seen['fields']) => new Map(list.map((f) => [f.name, f.value]));
  const x = byName(fromXfdf);
  const f = byName(fromFdf);
  assert.deepEqual([...f.keys()].sort(), [...x.keys()].sort(), 'PDFBox finds the same fields in our XFDF and our FDF');
  for (const [name, value] of f) {
    // A multi-select list: PDFBox reads the FDF array whole, but keeps one of several XFDF <value>s.
    if (value?.startsWith('COSArrayList')) assert.ok(value.includes(`{${x.get(name)}}`), `${name}: ${value} holds ${x.get(name)}`);
    else assert.equal(value, x.get(name), name);
  }
  const seen = [...x.values(), ...f.values()];
  for (const value of ours) assert.ok(seen.some((v) => v !== null && v.includes(value.replace(/&amp;/g, '&'))), `PDFBox sees the value ${value}`);
});
