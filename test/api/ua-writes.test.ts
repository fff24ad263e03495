/**
 * The service's own writes keep a tagged document's structure (docs/accessibility.md, "Writes keep the structure"):
 * stamps and page numbers become artifacts, deleted and extracted pages take their structure with them, merged and
 * inserted documents bring theirs, redacted text leaves the tree. Real server over HTTP; the documents are HTML
 * uploads (the HTML converter's output passes veraPDF PDF/UA-1); every result is judged by veraPDF's PDF/UA-1
 * profile in one JVM of its own for the whole file, and read by qpdf (the structure tree, helpers/structure-tree.ts),
 * pdftotext and pdfinfo -struct-text.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { encodeRgbPng } from '../helpers/png.js';
import { serverForSuite } from '../helpers/server.js';
import { structureTree } from '../helpers/structure-tree.js';
import { verapdfVerdicts, type VerapdfRule } from '../helpers/verapdf.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** A 1x1 PNG, as the pages' image. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A page per chapter, each opened by an H1 (so that any run of pages has properly nested headings). */
function chapters(title: string, lang: string, pages: string[]): string {
  const body = pages.map((p) => `<section style="page-break-after: always">${p}</section>`).join('');
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

const SOURCE = chapters('Annual report', 'en', [
  `<h1>Chapter one</h1><p>The code word is SECRETWORD today.</p><p><img src="${PNG}" alt="Badge showing SECRETWORD" width="40" height="40"></p>`,
  `<h1>Chapter two</h1><p>Regions grew in the <a href="https://example.com/q3">third quarter</a>.</p><p><img src="${PNG}" alt="A red dot" width="40" height="40"></p><ul><li>North</li><li>South</li></ul>`,
  '<h1>Chapter three</h1><p>The outlook is steady.</p>',
]);
/** Minutes with a paragraph to redact whole and one to redact in part. */
const MINUTES = chapters('Board minutes', 'en', [
  '<h1>Board minutes</h1><p>Confidential merger talks with Acme.</p><p>Attendees met at noon and agreed.</p><p>The meeting closed.</p>',
]);
const ANNEX = chapters('Anhang', 'de', ['<h1>Anhang eins</h1><p>Zahlen des Jahres.</p>', '<h1>Anhang zwei</h1><p>Weitere Zahlen.</p>']);

/** The structure tree's text as poppler reads it (pdfinfo -struct-text). */
const structText = (pdf: Uint8Array) => withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
/** The file uncompressed, as text to search. */
const qdf = (pdf: Uint8Array) => withTempFile(pdf, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { encoding: 'latin1', maxBuffer: 1 << 28 }));
/** Page objects in the file, reachable or not from the page tree (qpdf --qdf keeps every object it reaches). */
const pageObjects = (pdf: Uint8Array) => (qdf(pdf).match(/^ {2}\/Type \/Page$/gm) ?? []).length;
const ruleIds = (rules: VerapdfRule[]) => rules.map((r) => `${r.clause}-${r.testNumber} ${r.description}`);

/** Asserts the structure tree is whole: tagged, no /Pg to a page not in the document, parent tree consistent. */
function assertWholeTree(pdf: Uint8Array): ReturnType<typeof structureTree> {
  const tree = structureTree(pdf);
  assert.ok(tree.tagged, 'no StructTreeRoot');
  assert.deepEqual(tree.danglingPages, [], 'structure refers to pages that are not in the document');
  assert.deepEqual(tree.parentTreeMismatches, [], 'marked-content ids whose parent-tree entry names another element');
  assert.deepEqual(tree.pagesWithoutEntry, [], 'pages whose /StructParents has no parent-tree entry');
  const check = qpdfCheck(pdf);
  assert.ok(check.ok, check.output);
  return tree;
}

describe('writes keep a tagged document\'s structure (PDF/UA-1)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  /** Every document the writes made, by name; veraPDF's verdict on each, from one JVM. */
  const results = new Map<string, { reply: Reply; pdf: Buffer }>();
  const verdicts = new Map<string, { compliant: boolean; rules: VerapdfRule[] }>();
  let source: Buffer;

  const get = async (path: string) => {
    const reply = await call(server, 'GET', `/documents/${path}`);
    assert.equal(reply.status, 200, `GET ${path}: ${reply.text}`);
    return reply.bytes;
  };
  /** A fresh copy of the source at keep/{name}.pdf, the write posted to it, the result read from `output`. */
  const write = async (name: string, target: '' | '/pages', body: object | FormData, output = `keep/${name}.pdf`) => {
    assert.equal((await putPdf(server, `keep/${name}.pdf`, source)).status, 201);
    const reply = await call(server, 'POST', `/documents/keep/${name}.pdf${target}`, { body });
    assert.ok(reply.status === 200 || reply.status === 201, `${name}: ${reply.status} ${reply.text}`);
    results.set(name, { reply, pdf: await get(output) });
  };

  before(async () => {
    for (const [path, html] of [['keep/source.pdf', SOURCE], ['keep/annex.pdf', ANNEX]] as const) {
      const reply = await call(server, 'PUT', `/documents/${path}`, { body: Buffer.from(html), headers: { 'content-type': 'text/html' } });
      assert.equal(reply.status, 201, reply.text);
    }
    source = await get('keep/source.pdf');
    results.set('source', { reply: {} as Reply, pdf: source });
    results.set('annex', { reply: {} as Reply, pdf: await get('keep/annex.pdf') });

    await write('textstamp', '/pages', { TextStampAction: { text: 'DRAFT', x: 150, y: 300, fontSize: 60, transparency: 0.6 } });
    const form = new FormData();
    form.append('pageAction', new Blob([JSON.stringify({ ImageStampAction: { x: 450, y: 40, width: 60, pageIndex: 0 } })], { type: 'application/json' }));
    form.append('file', new Blob([new Uint8Array(encodeRgbPng(2, 2, Buffer.from([200, 0, 0, 0, 200, 0, 0, 0, 200, 90, 90, 90])))], { type: 'image/png' }), 'logo.png');
    await write('imagestamp', '/pages', form);
    await write('pagenumbers', '/pages', { PageNumbersAction: { format: 'Page {n} of {total}' } });
    await write('delete', '/pages', { DeletePagesAction: { pageRange: '2' } });
    await write('extract', '/pages', { ExtractPagesAction: { pageRange: '2-3', savePath: 'keep/extracted.pdf' } }, 'keep/extracted.pdf');
    await write('split', '/pages', { SplitDocumentAction: { ranges: ['1', '2-3'], folder: 'keep/parts', pattern: 'part-{first}.pdf' } }, 'keep/parts/part-2.pdf');
    results.set('split-1', { reply: results.get('split')!.reply, pdf: await get('keep/parts/part-1.pdf') });
    await write('merge', '', { MergeDocumentsAction: { sources: [{ filePath: 'keep/annex.pdf' }], savePath: 'keep/merged.pdf' } }, 'keep/merged.pdf');
    await write('insert', '/pages', { InsertUploadedPagesAction: { appendFilePath: 'keep/annex.pdf', pageIndex: 1 } });
    await write('move', '/pages', { MovePagesAction: { pageRange: '3', toIndex: 0 } });
    await write('rotate', '/pages', { RotatePagesAction: { rotation: 90, pageRange: '2' } });
    await write('flatten', '', { FlattenAnnotationsAction: {} });
    // Redaction: marked, then applied.
    assert.equal((await putPdf(server, 'keep/redact.pdf', source)).status, 201);
    const marked = await call(server, 'POST', '/documents/keep/redact.pdf/annotations/redaction', { body: { searchText: 'SECRETWORD' } });
    assert.equal(marked.status, 200, marked.text);
    assert.equal(marked.json().count, 1);
    const applied = await call(server, 'POST', '/documents/keep/redact.pdf', { body: { ApplyRedactionsAction: {} } });
    assert.equal(applied.status, 200, applied.text);
    results.set('redact', { reply: applied, pdf: await get('keep/redact.pdf') });
    // With overlay text painted over the box: set in an embedded font, an artifact.
    assert.equal((await putPdf(server, 'keep/redact-overlay.pdf', source)).status, 201);
    const overlaid = await call(server, 'POST', '/documents/keep/redact-overlay.pdf/annotations/redaction', { body: { searchText: 'SECRETWORD', overlayText: 'REMOVED' } });
    assert.equal(overlaid.status, 200, overlaid.text);
    const appliedOverlay = await call(server, 'POST', '/documents/keep/redact-overlay.pdf', { body: { ApplyRedactionsAction: {} } });
    assert.equal(appliedOverlay.status, 200, appliedOverlay.text);
    results.set('redact-overlay', { reply: appliedOverlay, pdf: await get('keep/redact-overlay.pdf') });

    // A whole paragraph and part of another redacted: the first paragraph's element leaves the tree.
    const minutes = await call(server, 'PUT', '/documents/keep/minutes.pdf', { body: Buffer.from(MINUTES), headers: { 'content-type': 'text/html' } });
    assert.equal(minutes.status, 201, minutes.text);
    results.set('minutes', { reply: {} as Reply, pdf: await get('keep/minutes.pdf') });
    for (const searchText of ['Confidential merger talks with Acme.', 'at noon']) {
      const found = await call(server, 'POST', '/documents/keep/minutes.pdf/annotations/redaction', { body: { searchText } });
      assert.equal(found.status, 200, found.text);
      assert.equal(found.json().count, 1, searchText);
    }
    const appliedMinutes = await call(server, 'POST', '/documents/keep/minutes.pdf', { body: { ApplyRedactionsAction: {} } });
    assert.equal(appliedMinutes.status, 200, appliedMinutes.text);
    results.set('redact-paragraph', { reply: appliedMinutes, pdf: await get('keep/minutes.pdf') });

    const names = [...results.keys()];
    verapdfVerdicts(names.map((n) => ({ bytes: results.get(n)!.pdf, flavour: 'ua1' }))).forEach((v, i) => verdicts.set(names[i]!, v));
  });

  /** veraPDF's verdict on a write's result: passes, as the source does. */
  const assertStillPasses = (name: string) => {
    assert.ok(verdicts.get('source')!.compliant, `the source fails PDF/UA-1: ${ruleIds(verdicts.get('source')!.rules)}`);
    const verdict = verdicts.get(name)!;
    assert.ok(verdict.compliant, `${name} fails PDF/UA-1: ${ruleIds(verdict.rules).join('; ')}`);
  };

  test('the source: an HTML upload that passes PDF/UA-1, three chapters in its structure', () => {
    assertStillPasses('source');
    const tree = assertWholeTree(source);
    assert.ok(tree.types.includes('Figure'));
    assert.match(structText(source), /Chapter two/);
  });

  for (const name of ['textstamp', 'imagestamp', 'pagenumbers'] as const) {
    test(`${name}: the drawing is an /Artifact, its fonts embedded; the structure and the document's text are as they were`, () => {
      const { pdf } = results.get(name)!;
      assertStillPasses(name);
      assert.deepEqual(assertWholeTree(pdf).types, structureTree(source).types);
      const text = pdftotext(pdf);
      for (const words of ['Chapter one', 'Chapter two', 'Chapter three', 'The outlook is steady.']) assert.ok(text.includes(words), `${words} missing`);
      if (name === 'textstamp') assert.match(text, /DRAFT/);
      if (name === 'pagenumbers') assert.match(text, /Page 2 of 3/);
      // The stamp's drawing is marked content of its own, an artifact, and not in the structure tree.
      assert.match(qdf(pdf), /\/Artifact BMC\n\/Stamp\w* Do\nEMC/);
      assert.doesNotMatch(structText(pdf), /DRAFT|Page 2 of 3/);
      assert.equal(structText(pdf), structText(source));
    });
  }

  test('DeletePagesAction: the deleted page\'s elements, marked-content ids and parent-tree entry leave with it', () => {
    const { pdf } = results.get('delete')!;
    assertStillPasses('delete');
    const tree = assertWholeTree(pdf);
    const before = structureTree(source);
    // Page 2 held a heading, two paragraphs, a figure, a link and a list of two items.
    assert.ok(tree.types.length < before.types.length - 8, `${before.types.length} elements before, ${tree.types.length} after`);
    assert.ok(!tree.types.includes('L') && !tree.types.includes('Link'), `page 2's list and link still in the tree: ${tree.types}`);
    assert.deepEqual(tree.texts, ['Badge showing SECRETWORD']);
    const struct = structText(pdf);
    assert.doesNotMatch(struct, /Chapter two|third quarter|North/);
    assert.match(struct, /Chapter one[\s\S]*Chapter three/);
    assert.match(pdftotext(pdf), /Chapter one[\s\S]*Chapter three/);
    assert.doesNotMatch(pdftotext(pdf), /Chapter two/);
    // The deleted page is not in the file at all (its elements' /Pg kept it there, content and all, before).
    assert.equal(pageObjects(pdf), 2);
  });

  test('ExtractPagesAction and SplitDocumentAction: each part has the structure of its pages only', () => {
    for (const [name, has, hasNot] of [
      ['extract', /Chapter two[\s\S]*Chapter three/, /Chapter one|SECRETWORD/],
      ['split', /Chapter two[\s\S]*Chapter three/, /Chapter one|SECRETWORD/],
      ['split-1', /Chapter one/, /Chapter two|Chapter three|North/],
    ] as const) {
      const { pdf } = results.get(name)!;
      assertStillPasses(name);
      assertWholeTree(pdf);
      const struct = structText(pdf);
      assert.match(struct, has, name);
      assert.doesNotMatch(struct, hasNot, name);
      assert.match(pdftotext(pdf), has, name);
      assert.equal(pageObjects(pdf), name === 'split-1' ? 1 : 2, `${name}: page objects of other pages are still in the file`);
    }
  });

  test('MergeDocumentsAction: one structure tree with both documents\' elements, the annex in its own language', () => {
    const { pdf } = results.get('merge')!;
    assertStillPasses('merge');
    const tree = assertWholeTree(pdf);
    assert.equal(tree.types.length, structureTree(source).types.length + structureTree(results.get('annex')!.pdf).types.length - 1, 'the two Document elements become one');
    assert.equal(tree.types.filter((t) => t === 'Document').length, 1);
    assert.ok(tree.langs.includes('de'), `no element in German: ${tree.langs}`);
    assert.match(structText(pdf), /Chapter one[\s\S]*Chapter three[\s\S]*Anhang eins[\s\S]*Anhang zwei/);
    assert.match(pdftotext(pdf), /Chapter one[\s\S]*Chapter three[\s\S]*Anhang eins[\s\S]*Anhang zwei/);
    const catalog = qdf(pdf);
    assert.match(catalog, /\/MarkInfo/);
    assert.match(catalog, /\/DisplayDocTitle true/);
  });

  test('InsertUploadedPagesAction: the inserted pages\' structure joins the tree, with fresh parent-tree keys', () => {
    const { pdf } = results.get('insert')!;
    assertStillPasses('insert');
    const tree = assertWholeTree(pdf);
    assert.ok(tree.langs.includes('de'));
    // Inserted after the first page: the structure's reading order follows the pages.
    assert.match(structText(pdf), /Chapter one[\s\S]*Anhang eins[\s\S]*Anhang zwei[\s\S]*Chapter two[\s\S]*Chapter three/);
    assert.match(pdftotext(pdf), /Chapter one[\s\S]*Anhang eins[\s\S]*Anhang zwei[\s\S]*Chapter two/);
  });

  test('MovePagesAction and RotatePagesAction: the structure is untouched, the pages move or turn', () => {
    for (const name of ['move', 'rotate']) {
      const { pdf } = results.get(name)!;
      assertStillPasses(name);
      assertWholeTree(pdf);
      assert.equal(structText(pdf), structText(source), name);
    }
    assert.match(pdftotext(results.get('move')!.pdf), /Chapter three[\s\S]*Chapter one[\s\S]*Chapter two/);
    const rotated = withTempFile(results.get('rotate')!.pdf, (file) => execFileSync('pdfinfo', ['-f', '2', '-l', '2', file], { encoding: 'utf8' }));
    assert.match(rotated, /Page +2 rot: +90/);
  });

  test('FlattenAnnotationsAction on a tagged document keeps it passing', () => {
    assertStillPasses('flatten');
    assertWholeTree(results.get('flatten')!.pdf);
    assert.match(pdftotext(results.get('flatten')!.pdf), /third quarter/);
  });

  test('ApplyRedactionsAction: the redacted word is gone from the page and from the structure\'s alternate texts; the fill is an artifact', () => {
    const { pdf, reply } = results.get('redact')!;
    assert.deepEqual(reply.json().report.applied.length, 1);
    assertStillPasses('redact');
    const tree = assertWholeTree(pdf);
    assert.doesNotMatch(pdftotext(pdf), /SECRETWORD/);
    assert.doesNotMatch(structText(pdf), /SECRETWORD/);
    assert.ok(tree.texts.every((t) => !/SECRETWORD/.test(t)), `still in the structure: ${tree.texts}`);
    assert.ok(tree.texts.includes('Badge showing '), `the figure keeps the rest of its alternate text: ${tree.texts}`);
    assert.match(qdf(pdf), /\/Artifact BMC\nq /);
  });

  test('ApplyRedactionsAction on a whole paragraph and part of another: the emptied element leaves the tree, the other keeps what is left', () => {
    const before = results.get('minutes')!.pdf;
    const { pdf } = results.get('redact-paragraph')!;
    assert.ok(verdicts.get('minutes')!.compliant, `the minutes fail PDF/UA-1 before: ${ruleIds(verdicts.get('minutes')!.rules)}`);
    assertStillPasses('redact-paragraph');
    const tree = assertWholeTree(pdf);
    const paragraphs = (t: string[]) => t.filter((type) => type === 'P').length;
    // Chromium writes one P per paragraph: three before, two after (the redacted one gone, not left empty).
    assert.equal(paragraphs(structureTree(before).types), 3);
    assert.equal(paragraphs(tree.types), 2, `elements after: ${tree.types}`);
    // Chromium puts a paragraph's text in a NonStruct inside its P: the two went, nothing else.
    assert.equal(tree.types.length, structureTree(before).types.length - 2, `only the paragraph went: ${structureTree(before).types} -> ${tree.types}`);
    const struct = structText(pdf);
    assert.doesNotMatch(struct, /Confidential|Acme|noon/);
    assert.match(struct, /Board minutes[\s\S]*"Attendees met\s+and agreed\."[\s\S]*"The meeting closed\."/);
    // No element is left without text: every element poppler prints is followed by its text or by its kids.
    assert.doesNotMatch(struct, /^\s*P\b[^\n]*\n\s*(P\b|$)/m, struct);
    const text = pdftotext(pdf);
    assert.doesNotMatch(text, /Confidential|noon/);
    assert.match(text, /Attendees met\s+and agreed/);
    // The emptied sequence is an artifact now, and its parent-tree slot is null (assertWholeTree: no MCID left pointing elsewhere).
    assert.equal((qdf(pdf).match(/\/MCID \d+/g) ?? []).length, (qdf(before).match(/\/MCID \d+/g) ?? []).length - 1);
  });

  test('ApplyRedactionsAction with overlay text: the text is an artifact in an embedded font, outside the structure; the document still passes', () => {
    const { pdf } = results.get('redact-overlay')!;
    assertStillPasses('redact-overlay');
    assertWholeTree(pdf);
    assert.match(pdftotext(pdf), /REMOVED/);
    assert.doesNotMatch(pdftotext(pdf), /SECRETWORD/);
    assert.doesNotMatch(structText(pdf), /REMOVED|SECRETWORD/);
    const fonts = withTempFile(pdf, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
    const overlayFont = fonts.split('\n').find((line) => /NimbusSans|Helvetica/.test(line));
    assert.ok(overlayFont, fonts);
    assert.match(overlayFont!, /\byes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/, `the overlay's font is embedded:\n${fonts}`);
    assert.match(qdf(pdf), /\/Artifact BMC\nq [\s\S]*?REMOVED/);
  });

  test('broken structure trees (a cycle in /K, an element without /P, a role map that loops): writes answer, do not loop, keep the pages', async () => {
    const broken = brokenTreePdf();
    const writes: [string, '' | '/pages', object][] = [
      ['delete', '/pages', { DeletePagesAction: { pageRange: '2' } }],
      ['extract', '/pages', { ExtractPagesAction: { pageRange: '1', savePath: 'broken/extract-out.pdf' } }],
      ['stamp', '/pages', { TextStampAction: { text: 'DRAFT', x: 100, y: 100 } }],
      ['insert', '/pages', { InsertUploadedPagesAction: { appendFilePath: 'broken/source.pdf' } }],
      ['merge', '', { MergeDocumentsAction: { sources: [{ filePath: 'broken/source.pdf' }], savePath: 'broken/merge-out.pdf' } }],
    ];
    assert.equal((await putPdf(server, 'broken/source.pdf', broken)).status, 201);
    for (const [name, target, body] of writes) {
      assert.equal((await putPdf(server, `broken/${name}.pdf`, broken)).status, 201);
      const reply = await call(server, 'POST', `/documents/broken/${name}.pdf${target}`, { body });
      assert.ok(reply.status < 500, `${name}: ${reply.status} ${reply.text}`);
      assert.ok(reply.status === 200 || reply.status === 201, `${name}: ${reply.status} ${reply.text}`);
    }
    const deleted = await get('broken/delete.pdf');
    assert.ok(qpdfCheck(deleted).ok);
    assert.equal(pdftotext(deleted).match(/Broken page \d/g)?.join(','), 'Broken page 1,Broken page 3');
    assert.deepEqual(structureTree(deleted).danglingPages, []);
    const merged = await get('broken/merge-out.pdf');
    assert.equal(pdftotext(merged).match(/Broken page \d/g)?.length, 6);
    assert.deepEqual(structureTree(merged).danglingPages, []);
  });
});

/**
 * Three pages of tagged text whose structure tree is broken: the Document element's /K holds itself (a cycle), one
 * paragraph has no /P, and the role map sends /Para to /Graf and back.
 */
function brokenTreePdf(): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pagesNode = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const root = o.reserve();
  const documentElement = o.reserve();
  const paragraphs = [o.reserve(), o.reserve(), o.reserve()];
  const pages = [1, 2, 3].map((n, i) => {
    const content = o.stream('', `/P << /MCID 0 >> BDC BT /F1 24 Tf 72 700 Td (Broken page ${n}) Tj ET EMC`);
    return o.add(`<< /Type /Page /Parent ${pagesNode} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R /StructParents ${i} >>`);
  });
  paragraphs.forEach((p, i) => {
    const parent = i === 1 ? '' : `/P ${documentElement} 0 R `;
    o.set(p, `<< /Type /StructElem /S /Para ${parent}/Pg ${pages[i]} 0 R /K 0 >>`);
  });
  o.set(documentElement, `<< /Type /StructElem /S /Document /P ${root} 0 R /K [${documentElement} 0 R ${paragraphs.map((p) => `${p} 0 R`).join(' ')}] >>`);
  const parentTree = o.add(`<< /Nums [${paragraphs.map((p, i) => `${i} [${p} 0 R]`).join(' ')}] >>`);
  o.set(root, `<< /Type /StructTreeRoot /K ${documentElement} 0 R /ParentTree ${parentTree} 0 R /ParentTreeNextKey 3 /RoleMap << /Para /Graf /Graf /Para >> >>`);
  o.setPageTree(catalog, pagesNode, pages);
  o.set(catalog, `<< /Type /Catalog /Pages ${pagesNode} 0 R /StructTreeRoot ${root} 0 R /MarkInfo << /Marked true >> /Lang (en) >>`);
  return o.finish(`/Root ${catalog} 0 R`);
}
