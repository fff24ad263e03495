/**
 * The figure resource (docs/accessibility.md, "Figures and their alternative text"): the Figure elements of a tagged
 * document listed with their page, box and alternate text, and their texts set through PATCH as ordinary writes; the
 * title and language a tagged document needs for PDF/UA through the metadata resource. Real server over HTTP; the
 * tagged document is an HTML upload (Chromium), the results read by qpdf, pdfinfo -struct-text and veraPDF's
 * PDF/UA-1 profile; broken structure trees are built here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { taggedPdf } from '../helpers/figure-fixtures.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { serverForSuite } from '../helpers/server.js';
import { structureTree } from '../helpers/structure-tree.js';
import { verapdfVerdicts } from '../helpers/verapdf.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** A 1x1 PNG. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** Two pictures 40 px square (30 pt), one described, one not. */
const PAGE =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Opening hours</title></head><body><h1>Opening hours</h1>' +
  `<p>Monday to Friday.</p><p><img src="${PNG}" alt="A red dot" width="40" height="40"></p><p><img src="${PNG}" width="40" height="40"></p></body></html>`;

/** poppler's reading of the structure tree. */
const structText = (pdf: Uint8Array) => withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
/** The file uncompressed, as text to search. */
const qdf = (pdf: Uint8Array) => withTempFile(pdf, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { encoding: 'latin1', maxBuffer: 1 << 28 }));

describe('figures and their alternate text', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const get = async (path: string) => {
    const reply = await call(server, 'GET', `/documents/${path}`);
    assert.equal(reply.status, 200, `GET ${path}: ${reply.text}`);
    return reply.bytes;
  };
  const versionCount = async (path: string) => {
    const reply = await call(server, 'GET', `/documents/${path}/versions`);
    assert.equal(reply.status, 200, reply.text);
    return reply.json().total as number;
  };

  before(async () => {
    const reply = await call(server, 'PUT', '/documents/alt/page.pdf', { body: Buffer.from(PAGE), headers: { 'content-type': 'text/html' } });
    assert.equal(reply.status, 201, reply.text);
  });

  test('the list: each Figure in tree order with its page, box, alternate text and page image; XML; 304; ?versionId=', async () => {
    const reply = await call(server, 'GET', '/documents/alt/page.pdf/figures');
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.tagged, true);
    assert.equal(model.figures.length, 2, reply.text);
    const [described, bare] = model.figures;
    assert.deepEqual([described.index, described.pageIndex, described.alt, described.hasAlt], [0, 0, 'A red dot', true]);
    assert.deepEqual([bare.index, bare.pageIndex, bare.alt, bare.hasAlt], [1, 0, undefined, false]);
    // 40 CSS pixels are 30 points; the second picture is below the first (PDF y grows upwards).
    for (const f of model.figures) {
      const [x0, y0, x1, y1] = f.bbox;
      assert.ok(Math.abs(x1 - x0 - 30) < 1 && Math.abs(y1 - y0 - 30) < 1, `a 30 pt box: ${f.bbox}`);
      assert.ok(x0 > 0 && y1 < 842, `on the A4 page: ${f.bbox}`);
    }
    assert.ok(bare.bbox[3] < described.bbox[1], `the second below the first: ${described.bbox} ${bare.bbox}`);
    assert.equal(described.thumbnail, '/pdfservice/v1/documents/alt/page.pdf/pages/0/image');
    const image = await call(server, 'GET', described.thumbnail.replace('/pdfservice/v1', ''));
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');

    const etag = reply.headers.get('etag')!;
    assert.equal((await call(server, 'GET', '/documents/alt/page.pdf/figures', { headers: { 'if-none-match': etag } })).status, 304);
    const xml = await call(server, 'GET', '/documents/alt/page.pdf/figures', { headers: { accept: 'application/xml' } });
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.text, /<Figures>\s*<tagged>true<\/tagged>\s*<figures>\s*<figure>\s*<index>0<\/index>.*<alt>A red dot<\/alt>/s);
    assert.match(xml.text, /<bbox>[\d.]+ [\d.]+ [\d.]+ [\d.]+<\/bbox>/);
  });

  test('PATCH one figure: an ordinary write (If-Match, a version) that pdfinfo and veraPDF see; 412 on a stale ETag', async () => {
    assert.equal((await putPdf(server, 'alt/one.pdf', await get('alt/page.pdf'))).status, 201);
    const source = await get('alt/one.pdf');
    const versions = await versionCount('alt/one.pdf');
    const head = await call(server, 'GET', '/documents/alt/one.pdf/figures');
    const etag = (await call(server, 'HEAD', '/documents/alt/one.pdf')).headers.get('etag')!;

    const patched = await call(server, 'PATCH', '/documents/alt/one.pdf/figures/1', { body: { alt: 'A second red dot', actualText: 'dot' }, headers: { 'if-match': etag } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.json().index, patched.json().alt, patched.json().actualText, patched.json().hasAlt], [1, 'A second red dot', 'dot', true]);
    assert.notEqual(patched.headers.get('etag'), etag);
    assert.equal(await versionCount('alt/one.pdf'), versions + 1, 'the write kept a version');

    // A stale If-Match: 412, the document unchanged.
    await expectUnchanged(server, 'alt/one.pdf', () => call(server, 'PATCH', '/documents/alt/one.pdf/figures/0', { body: { alt: 'x' }, headers: { 'if-match': etag } }), 412, 'PRECONDITION_FAILED');

    const written = await get('alt/one.pdf');
    assert.ok(qpdfCheck(written).ok);
    assert.deepEqual(structureTree(written).texts.filter((t) => /dot/.test(t)), ['A red dot', 'A second red dot', 'dot']);
    // poppler reads the tree with both figures (its -struct-text prints no /Alt: the texts are read with qpdf above).
    assert.equal((structText(written).match(/^\s*Figure\b/gm) ?? []).length, 2);
    const list = (await call(server, 'GET', '/documents/alt/one.pdf/figures')).json();
    assert.deepEqual(list.figures.map((f: { hasAlt: boolean }) => f.hasAlt), [true, true]);
    assert.deepEqual(list.figures[1].bbox, head.json().figures[1].bbox, 'the box stays');

    // veraPDF: the source fails 7.3 (a Figure without alternate text); the written document no longer does.
    const [before, after] = verapdfVerdicts([{ bytes: source, flavour: 'ua1' }, { bytes: written, flavour: 'ua1' }]);
    const altRule = (rules: { clause: string }[]) => rules.filter((r) => r.clause === '7.3');
    assert.ok(altRule(before!.rules).length > 0, `the source fails 7.3: ${JSON.stringify(before!.rules)}`);
    assert.deepEqual(altRule(after!.rules), [], `after: ${JSON.stringify(after!.rules)}`);

    // Null removes; the earlier version still reads as it was (?versionId=).
    const removed = await call(server, 'PATCH', '/documents/alt/one.pdf/figures/1', { body: { actualText: null }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.json().actualText, undefined);
    assert.doesNotMatch(qdf(await get('alt/one.pdf')), /\/ActualText/);
    // Newest first: the last is the upload.
    const history = (await call(server, 'GET', '/documents/alt/one.pdf/versions')).json().versions as { id: string }[];
    const old = history[history.length - 1]!;
    const oldList = await call(server, 'GET', `/documents/alt/one.pdf/figures?versionId=${old.id}`);
    assert.equal(oldList.status, 200, oldList.text);
    assert.equal(oldList.json().figures[1].alt, undefined, 'the first version has no alt on figure 1');
    assert.equal(oldList.json().figures[0].thumbnail, `/pdfservice/v1/documents/alt/one.pdf/pages/0/image?versionId=${old.id}`);
  });

  test('PATCH the list: several figures in one version, all or none; bad indexes, bodies and untagged documents refused with nothing written', async () => {
    assert.equal((await putPdf(server, 'alt/bulk.pdf', await get('alt/page.pdf'))).status, 201);
    const versions = await versionCount('alt/bulk.pdf');
    const reply = await call(server, 'PATCH', '/documents/alt/bulk.pdf/figures', { body: { figures: [{ index: 1, alt: 'Zweiter Punkt' }, { index: 0, alt: null }] } });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().figures.map((f: { index: number; alt?: string }) => [f.index, f.alt]), [[1, 'Zweiter Punkt'], [0, undefined]]);
    assert.equal(await versionCount('alt/bulk.pdf'), versions + 1);

    const path = 'alt/bulk.pdf';
    const patch = (url: string, body: object) => () => call(server, 'PATCH', `/documents/${path}${url}`, { body });
    await expectUnchanged(server, path, patch('/figures', { figures: [{ index: 0, alt: 'ok' }, { index: 2, alt: 'none' }] }), 400, 'FIGURE_NOT_FOUND');
    await expectUnchanged(server, path, patch('/figures/2', { alt: 'none' }), 404, 'FIGURE_NOT_FOUND');
    await expectUnchanged(server, path, patch('/figures/-1', { alt: 'none' }), 404, 'FIGURE_NOT_FOUND');
    await expectUnchanged(server, path, patch('/figures/first', { alt: 'none' }), 404, 'FIGURE_NOT_FOUND');
    await expectUnchanged(server, path, patch('/figures', { figures: [{ index: 0, alt: 'a' }, { index: 0, alt: 'b' }] }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, path, patch('/figures', { figures: [] }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, path, patch('/figures/0', { alt: 42 }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, path, patch('/figures/0', { title: 'no such field' }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, path, patch('/figures/0', { alt: 'x'.repeat(10_001) }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, path, patch('/figures/0', { alt: 'bell \u0007' }), 400, 'VALIDATION_FAILED');
    await expectUnchanged(server, path, () => call(server, 'PATCH', `/documents/${path}/figures/0`, { body: Buffer.from('<Figure><alt>x</alt></Figure>'), headers: { 'content-type': 'application/xml' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal((await call(server, 'PATCH', '/documents/alt/missing.pdf/figures/0', { body: { alt: 'x' } })).status, 404);

    // An untagged document: an empty list that says so; a write is 409 and changes nothing.
    assert.equal((await putPdf(server, 'alt/untagged.pdf', taggedPdf({ tagged: false }))).status, 201);
    const untagged = await call(server, 'GET', '/documents/alt/untagged.pdf/figures');
    assert.equal(untagged.status, 200, untagged.text);
    assert.equal(untagged.json().tagged, false);
    assert.deepEqual(untagged.json().figures, []);
    assert.match(untagged.json().detail, /PDFUAConvertAction/);
    await expectUnchanged(server, 'alt/untagged.pdf', () => call(server, 'PATCH', '/documents/alt/untagged.pdf/figures/0', { body: { alt: 'x' } }), 409, 'DOCUMENT_NOT_TAGGED');
    await expectUnchanged(server, 'alt/untagged.pdf', () => call(server, 'PATCH', '/documents/alt/untagged.pdf/figures', { body: { figures: [{ index: 0, alt: 'x' }] } }), 409, 'DOCUMENT_NOT_TAGGED');
  });

  test('a role-mapped figure, a Layout /BBox, marked content through /Properties, a page past the first', async () => {
    assert.equal((await putPdf(server, 'alt/built.pdf', taggedPdf({ tagged: true }))).status, 201);
    const reply = await call(server, 'GET', '/documents/alt/built.pdf/figures');
    assert.equal(reply.status, 200, reply.text);
    const figures = reply.json().figures;
    assert.deepEqual(figures.map((f: { pageIndex: number; bbox: number[]; alt?: string }) => [f.pageIndex, f.bbox, f.alt ?? null]), [
      [0, [100, 500, 200, 600], 'Logo'], // Layout attribute
      [1, [72, 300, 172, 350], null], // /Image role-mapped to Figure; its image drawn at 72 300, 100 x 50
      [1, [300, 300, 340, 360], null], // marked content named through the page's /Properties: a path
    ]);
  });

  test('the title and language for PDF/UA: the metadata write sets dc:title, /DisplayDocTitle on a tagged document, and /Lang', async () => {
    assert.equal((await putPdf(server, 'alt/title.pdf', taggedPdf({ tagged: true }))).status, 201);
    assert.equal((await putPdf(server, 'alt/title-untagged.pdf', taggedPdf({ tagged: false }))).status, 201);
    for (const path of ['alt/title.pdf', 'alt/title-untagged.pdf']) {
      const reply = await call(server, 'PATCH', `/documents/${path}/metadata`, { body: { title: 'Annual report', language: 'de-CH' } });
      assert.equal(reply.status, 200, reply.text);
    }
    const tagged = qdf(await get('alt/title.pdf'));
    assert.match(tagged, /\/DisplayDocTitle true/);
    assert.match(tagged, /\/Lang \(de-CH\)/);
    const xmp = await call(server, 'GET', '/documents/alt/title.pdf/metadata/xmp');
    assert.match(xmp.text, /<dc:title>\s*<rdf:Alt>\s*<rdf:li xml:lang="x-default">Annual report<\/rdf:li>/);
    const untagged = qdf(await get('alt/title-untagged.pdf'));
    assert.doesNotMatch(untagged, /DisplayDocTitle/, 'an untagged document\'s viewer preferences are its own');
    assert.match(untagged, /\/Lang \(de-CH\)/);
    // Through the XMP packet too.
    assert.equal((await putPdf(server, 'alt/title-xmp.pdf', taggedPdf({ tagged: true }))).status, 201);
    const packet = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">From XMP</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>';
    const put = await call(server, 'PUT', '/documents/alt/title-xmp.pdf/metadata/xmp', { body: Buffer.from(packet), headers: { 'content-type': 'application/rdf+xml' } });
    assert.equal(put.status, 200, put.text);
    assert.match(qdf(await get('alt/title-xmp.pdf')), /\/DisplayDocTitle true/);
  });

  test('broken structure trees: cycles in /K and /P, missing parents, role maps that loop, 100,000 elements: answered, never 5xx, never a hang', async () => {
    const cases: [string, Buffer, number][] = [
      ['cycles', brokenPdf('cycles'), 2],
      ['orphans', brokenPdf('orphans'), 2],
      ['rolemap', brokenPdf('rolemap'), 1],
      ['many', brokenPdf('many'), 1000],
    ];
    for (const [name, pdf, figures] of cases) {
      const path = `alt/broken-${name}.pdf`;
      assert.equal((await putPdf(server, path, pdf)).status, 201);
      const list = await call(server, 'GET', `/documents/${path}/figures`);
      assert.equal(list.status, 200, `${name}: ${list.status} ${list.text.slice(0, 300)}`);
      assert.equal(list.json().figures.length, figures, name);
      // A write to the last figure works and is read back; nothing else changes.
      const before = sha256(await storedBytes(server, path));
      const reply = await call(server, 'PATCH', `/documents/${path}/figures/${figures - 1}`, { body: { alt: `Described ${name}` } });
      assert.equal(reply.status, 200, `${name}: ${reply.status} ${reply.text.slice(0, 300)}`);
      assert.equal(reply.json().alt, `Described ${name}`);
      assert.notEqual(sha256(await storedBytes(server, path)), before);
      const again = (await call(server, 'GET', `/documents/${path}/figures`)).json();
      assert.equal(again.figures[figures - 1].alt, `Described ${name}`);
      assert.ok(qpdfCheck(await get(path)).ok, name);
      await expectUnchanged(server, path, () => call(server, 'PATCH', `/documents/${path}/figures/${figures}`, { body: { alt: 'x' } }), 404, 'FIGURE_NOT_FOUND');
    }
  });
});

/**
 * One page and a hostile structure tree: `cycles`, a Document whose /K holds itself and a Figure whose /K holds the
 * Document (and whose /P is itself), the Figure also named twice; `orphans`, Figures without /P, a /P to a missing
 * object, a /Pg that is no page; `rolemap`, /Pic -> /Pict -> /Pic (a loop, never Figure) beside /Image -> /Figure;
 * `many`, 100,000 elements (99,000 P and 1,000 Figures) in one Document.
 */
function brokenPdf(kind: 'cycles' | 'orphans' | 'rolemap' | 'many'): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pagesNode = o.reserve();
  const root = o.reserve();
  const doc = o.reserve();
  const content = o.stream('', '/Figure << /MCID 0 >> BDC 0 0 1 rg 100 500 100 100 re f EMC /Figure << /MCID 1 >> BDC 300 500 50 50 re f EMC');
  const page = o.add(`<< /Type /Page /Parent ${pagesNode} 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /StructParents 0 >>`);
  let kids: number[] = [];
  let roleMap = '';
  if (kind === 'cycles') {
    const a = o.reserve();
    const b = o.reserve();
    o.set(a, `<< /Type /StructElem /S /Figure /P ${a} 0 R /Pg ${page} 0 R /K [0 ${doc} 0 R ${a} 0 R] >>`);
    o.set(b, `<< /Type /StructElem /S /Figure /P ${b} 0 R /Pg ${page} 0 R /K [1 ${a} 0 R ${b} 0 R] >>`);
    kids = [doc, a, b, a];
  } else if (kind === 'orphans') {
    const a = o.add(`<< /Type /StructElem /S /Figure /Pg ${page} 0 R /K 0 >>`);
    const b = o.add(`<< /Type /StructElem /S /Figure /P 9999 0 R /Pg ${content} 0 R /K [1] >>`);
    kids = [a, b];
  } else if (kind === 'rolemap') {
    const a = o.add(`<< /Type /StructElem /S /Pic /P ${doc} 0 R /Pg ${page} 0 R /K 0 >>`);
    const b = o.add(`<< /Type /StructElem /S /Image /P ${doc} 0 R /Pg ${page} 0 R /K 1 >>`);
    kids = [a, b];
    roleMap = '/RoleMap << /Pic /Pict /Pict /Pic /Image /Figure >>';
  } else {
    for (let i = 0; i < 100_000; i++) kids.push(o.add(`<< /Type /StructElem ${i % 100 === 99 ? '/S /Figure /K 0' : '/S /P /K []'} /P ${doc} 0 R /Pg ${page} 0 R >>`));
  }
  o.set(doc, `<< /Type /StructElem /S /Document /P ${root} 0 R /K [${kids.map((k) => `${k} 0 R`).join(' ')}] >>`);
  const parentTree = o.add(`<< /Nums [0 [${kids[0]} 0 R ${kids[1]} 0 R]] >>`);
  o.set(root, `<< /Type /StructTreeRoot /K ${doc} 0 R /ParentTree ${parentTree} 0 R /ParentTreeNextKey 1 ${roleMap} >>`);
  o.setPageTree(catalog, pagesNode, [page]);
  o.set(catalog, `<< /Type /Catalog /Pages ${pagesNode} 0 R /StructTreeRoot ${root} 0 R /MarkInfo << /Marked true >> /Lang (en) >>`);
  return o.finish(`/Root ${catalog} 0 R`);
}
