import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { everySubtypeFixture, makeAnnotatedPdf } from '../helpers/annotated-pdf.js';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { execFileSync } from 'node:child_process';
import { makePdf, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { countBySubtype, qpdfAnnotations } from '../helpers/qpdf-json.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const fixture = everySubtypeFixture();
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const XFDF = 'application/vnd.adobe.xfdf';
const exportXfdf = (p: string, query = '') => call(server, 'GET', `/documents/${p}/annotations/content${query}`);
const importXfdf = (p: string, xfdf: string, url = 'annotations/content') => call(server, 'POST', `/documents/${p}/${url}`, { body: Buffer.from(xfdf), headers: { 'content-type': XFDF } });
/** XFDF compared canonically: the document ids (which change with every save) aside. */
const canonical = (xfdf: string) => xfdf.replace(/<ids[^>]*\/>/, '');
/**
 * And without <appearance>: the fixture's stamp has no /AP, the import draws
 * one and later exports carry it (test/engine/xfdf-appearance.test.ts tests those).
 */
const withoutAppearances = (xfdf: string) =>
  canonical(xfdf)
    .replace(/\s*<appearance>[^<]*<\/appearance>/g, '')
    .replace(/(<\w+ [^>]*[^/])>\s*<\/\w+>/g, '$1/>'); // an element left empty is written <x/>
const XFDF_SUBTYPES = new Set(['Text', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut', 'Caret', 'Stamp', 'Ink', 'FileAttachment', 'Sound', 'Link', 'Redact']);

describe('export (A6)', () => {
  test('XFDF as Acrobat writes it: namespace, xml:space, <f href>, every annotation XFDF can carry, popups inside their parents', async () => {
    await putPdf(server, 'xfdf/all.pdf', fixture.pdf);
    const reply = await exportXfdf('xfdf/all.pdf');
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/vnd\.adobe\.xfdf/);
    assert.match(reply.text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<xfdf xmlns="http:\/\/ns\.adobe\.com\/xfdf\/" xml:space="preserve">/);
    assert.match(reply.text, /<f href="all\.pdf"\/>/);
    const elements = [...reply.text.matchAll(/^ {4}<(\w+) page="/gm)].map((m) => m[1]);
    const expected = fixture.annotations.filter((a) => XFDF_SUBTYPES.has(a.subtype)).length;
    assert.equal(elements.length, expected);
    assert.match(reply.text, /<text page="0" rect="72,650,92,670" name="note-1"[^>]*>\s*<contents>First note<\/contents>\s*<popup page="0" rect="100,600,300,680" name="note-1-popup"/);
    assert.match(reply.text, /name="reply-1"[^>]*inreplyto="note-1"/);
    assert.match(reply.text, /<highlight [^>]*coords="72,580,200,580,72,560,200,560"/);
    assert.match(reply.text, /<inklist>\s*<gesture>72,352;120,448;160,360<\/gesture>/);
    assert.match(reply.text, /<data MODE="RAW" encoding="hex" length="\d+">[0-9a-f]+<\/data>/);
    const download = await exportXfdf('xfdf/all.pdf', '?attachment=true');
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="all.xfdf"; filename*=UTF-8''all.xfdf`);
    assert.equal((await call(server, 'GET', '/documents/xfdf/all.pdf/annotations/content', { headers: { accept: 'application/json' } })).status, 406);
  });
});

/**
 * An XFDF file as an independent XML 1.0 parser reads it (Python's minidom,
 * which refuses what XML 1.0 cannot hold): each annotation's attributes and
 * <contents>, by name, and its <popup>'s attributes.
 */
function readXfdfIndependently(xfdf: string): Record<string, { attrs: Record<string, string>; contents?: string; popup?: Record<string, string> }> {
  const script = [
    'import json, sys, xml.dom.minidom as m',
    'doc = m.parseString(sys.stdin.buffer.read())',
    'attrs = lambda e: {k: v for k, v in e.attributes.items()}',
    'out = {}',
    'for a in doc.getElementsByTagName("annots")[0].childNodes:',
    '    if a.nodeType != a.ELEMENT_NODE: continue',
    '    c = a.getElementsByTagName("contents")',
    '    p = a.getElementsByTagName("popup")',
    '    out[a.getAttribute("name")] = {"attrs": attrs(a), **({"contents": "".join(n.data for n in c[0].childNodes)} if c else {}), **({"popup": attrs(p[0])} if p else {})}',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script], { input: xfdf, encoding: 'utf8' }));
}

describe('what XFDF carries exactly', () => {
  test('CR in contents, line breaks in attributes, a popup\'s colour and date; control characters as control pictures, with a warning; all back after an import into a fresh copy', async () => {
    await putPdf(server, 'xfdf/chars.pdf', makeAnnotatedPdf({
      pages: 1,
      annotations: [
        { subtype: 'Text', page: 0, name: 'cr-note', rect: [72, 650, 92, 670], contents: 'd\rd', author: 'Ann\nLee\tjr', extra: '/C [0 0 1] /M (D:20260101120000Z) /Popup @ref(1)' },
        { subtype: 'Popup', page: 0, name: 'cr-note-popup', rect: [100, 600, 300, 680], extra: '/Parent @ref(0) /Open true /C [1 0 0] /M (D:20260202101010Z)' },
        { subtype: 'Square', page: 0, name: 'bell', rect: [72, 300, 172, 380], contents: 'ring\x07bell\x10' },
      ],
    }));
    const exported = await exportXfdf('xfdf/chars.pdf');
    assert.equal(exported.status, 200, exported.text);
    const warning = exported.headers.get('x-service-warning') ?? '';
    assert.match(warning, /"bell"/);
    assert.match(warning, /U\+2400/);
    assert.doesNotMatch(warning, /cr-note/);
    const read = readXfdfIndependently(exported.text);
    assert.equal(read['cr-note']!.contents, 'd\rd');
    assert.equal(read['cr-note']!.attrs['title'], 'Ann\nLee\tjr');
    assert.equal(read['cr-note']!.popup!['color'], '#FF0000');
    assert.equal(read['cr-note']!.popup!['date'], 'D:20260202101010Z');
    assert.equal(read['bell']!.contents, 'ring\u2407bell\u2410');

    await putPdf(server, 'xfdf/chars-copy.pdf', makePdf({ pages: 1 }));
    const imported = await importXfdf('xfdf/chars-copy.pdf', exported.text);
    assert.equal(imported.status, 200, imported.text);
    const list = async (p: string) => new Map(((await call(server, 'GET', `/documents/${p}/annotations`)).json().annotations as { name: string }[]).map((a) => [a.name, a as Record<string, unknown>]));
    const [original, copy] = [await list('xfdf/chars.pdf'), await list('xfdf/chars-copy.pdf')];
    assert.equal(copy.get('cr-note')!['contents'], 'd\rd');
    assert.equal(copy.get('cr-note')!['author'], 'Ann\nLee\tjr');
    for (const key of ['color', 'modifiedDate']) assert.equal(copy.get('cr-note-popup')![key], original.get('cr-note-popup')![key], key);
    assert.equal(copy.get('cr-note-popup')!['color'], '#FF0000');
    assert.equal(copy.get('bell')!['contents'], 'ring\u2407bell\u2410');
    // Independently: the popup's /C and /M as qpdf reads them from the stored file.
    const popup = qpdfAnnotations(await storedBytes(server, 'xfdf/chars-copy.pdf')).find((a) => a.subtype === 'Popup');
    assert.deepEqual(popup?.dict['/C'], [1, 0, 0]);
    assert.equal(popup?.dict['/M'], 'u:D:20260202101010Z');
  });
});

describe('import (A5) and the deprecated form (A3)', () => {
  test('export, delete all, import, export: the same XFDF (and again, with the appearance drawn for the stamp); qpdf sees the annotations back', async () => {
    await putPdf(server, 'xfdf/round.pdf', fixture.pdf);
    const first = (await exportXfdf('xfdf/round.pdf')).text;
    assert.ok(!first.includes('<appearance>'), 'the fixture has no appearance streams');
    await call(server, 'DELETE', '/documents/xfdf/round.pdf/annotations');
    const imported = await importXfdf('xfdf/round.pdf', first);
    assert.equal(imported.status, 200, imported.text);
    const body = imported.json();
    assert.equal(body.updated.length, 0);
    assert.deepEqual(body.warnings, []);
    const second = (await exportXfdf('xfdf/round.pdf')).text;
    assert.equal(withoutAppearances(second), withoutAppearances(first));
    assert.match(second, /<stamp [^>]*name="stamp-1"[^>]*>\s*<appearance>/, 'the stamp now carries the appearance the import drew');
    await call(server, 'DELETE', '/documents/xfdf/round.pdf/annotations');
    assert.equal((await importXfdf('xfdf/round.pdf', second)).status, 200);
    assert.equal(canonical((await exportXfdf('xfdf/round.pdf')).text), canonical(second), 'with the appearance carried, the round trip is exact');
    const bytes = await storedBytes(server, 'xfdf/round.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    const independent = countBySubtype(qpdfAnnotations(bytes));
    for (const subtype of XFDF_SUBTYPES) assert.equal(independent[subtype], countBySubtype(fixture.annotations)[subtype], subtype);
  });

  test('existing annotations are kept, new ones added, a matching name is updated in place; replies and popups link whatever the order', async () => {
    await putPdf(server, 'xfdf/merge.pdf', fixture.pdf);
    const before = (await call(server, 'GET', '/documents/xfdf/merge.pdf/annotations')).json().annotations.length;
    const xfdf = `<?xml version="1.0" encoding="UTF-8"?>
<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve">
  <annots>
    <text page="1" rect="10,10,30,30" name="late-reply" title="Dee" inreplyto="new-note"><contents>Reply first in the file</contents></text>
    <square page="0" rect="72,300,172,380" name="shared-name" color="#00FF00"><contents>Updated square</contents></square>
    <text page="1" rect="50,50,70,70" name="new-note" title="Eve" color="#0000FF" icon="Help"><contents>New note</contents><popup page="1" rect="80,40,280,120" open="yes"/></text>
    <scribble page="0" rect="0,0,1,1"/>
  </annots>
</xfdf>`;
    const reply = await importXfdf('xfdf/merge.pdf', xfdf);
    assert.equal(reply.status, 200, reply.text);
    const result = reply.json();
    assert.deepEqual(result.updated, ['shared-name']);
    assert.deepEqual(result.created.sort(), ['late-reply', 'new-note', 'new-note-popup']);
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0], /scribble/);
    const byName = new Map(result.annotations.map((a: { name: string }) => [a.name, a]));
    assert.equal(result.annotations.length, before + 3);
    assert.equal((byName.get('late-reply') as { inReplyTo: string }).inReplyTo, 'new-note');
    assert.equal((byName.get('new-note') as { popup: { name: string } }).popup.name, 'new-note-popup');
    assert.equal((byName.get('new-note-popup') as { parent: string }).parent, 'new-note');
    const square = byName.get('shared-name') as { contents: string; color: string; pageIndex: number };
    assert.equal(square.contents, 'Updated square');
    assert.equal(square.color, '#00FF00');
    const bytes = await storedBytes(server, 'xfdf/merge.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    const fromQpdf = qpdfAnnotations(bytes).find((a) => a.name === 'new-note');
    assert.ok(fromQpdf && fromQpdf.dict['/AP'], 'an appearance was generated for the new note');
  });

  test('the annotations an import answers are those the service reads from the stored document when nothing is cached, and the numbers qpdf reads there', async () => {
    // Only new annotations, into a document that has some: the import answers what it wrote without reading it back.
    // Numbers past what a 32-bit float holds, as MuPDF stores them; a reply to an annotation the document had.
    await putPdf(server, 'xfdf/answer.pdf', fixture.pdf);
    const xfdf = `<?xml version="1.0" encoding="UTF-8"?>
<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve">
  <annots>
    <square page="0" rect="72.123456789,300.987654321,172.5,380.0000001" name="precise" color="#123456" opacity="0.333333333" width="1.23456789" dashes="3.14159265,2"><contents>Ninths</contents></square>
    <text page="1" rect="50,50,70,70" name="answer-note" title="Zoë" icon="Help" inreplyto="note-1"><contents>Über</contents><popup page="1" rect="80.1,40.2,280.3,120.4" open="yes"/></text>
    <line page="0" start="10.5,20.25" end="300.0625,400.1" rect="0,0,612,792" name="answer-line" head="OpenArrow" tail="None"/>
  </annots>
</xfdf>`;
    const reply = await importXfdf('xfdf/answer.pdf', xfdf);
    assert.equal(reply.status, 200, reply.text);
    const answered = reply.json().annotations as { name: string; rectangle?: { x: number; y: number; width: number; height: number }; opacity?: number }[];
    const cold = await startServer({ sameStoreAs: server });
    try {
      const read = await call(cold, 'GET', '/documents/xfdf/answer.pdf/annotations');
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(answered, read.json().annotations);
    } finally {
      await cold.stop();
    }
    const stored = qpdfAnnotations(await storedBytes(server, 'xfdf/answer.pdf'));
    // The service's names: /NM, or "~<object number>" for none or one taken before (the fixture has both).
    const seen = new Set<string>();
    const names = stored.map((a) => (a.name && !seen.has(a.name) ? (seen.add(a.name), a.name) : `~${a.objectNumber}`));
    assert.deepEqual(answered.map((a) => a.name), names);
    const precise = stored.find((a) => a.name === 'precise')!;
    const [x0, y0] = precise.rect;
    const rectangle = answered.find((a) => a.name === 'precise')!.rectangle!;
    // The service gives numbers to 4 decimals.
    assert.deepEqual([rectangle.x, rectangle.y], [x0!, y0!].map((n) => Math.round(n * 1e4) / 1e4));
    assert.notEqual(x0, 72.123456789, 'stored as a 32-bit float');
    assert.equal(answered.find((a) => a.name === 'precise')!.opacity, Math.round(Number(precise.dict['/CA']) * 1e4) / 1e4);
  });

  test('several existing annotations moved off one page by an import: each leaves that page and lands on its new one (found by the robustness suite)', async () => {
    await putPdf(server, 'xfdf/move.pdf', makeAnnotatedPdf({
      pages: 2,
      annotations: [
        { subtype: 'Square', page: 0, name: 'm1', rect: [10, 10, 50, 50] },
        { subtype: 'Square', page: 0, name: 'm2', rect: [60, 10, 100, 50] },
        { subtype: 'Square', page: 0, name: 'm3', rect: [110, 10, 150, 50] },
        { subtype: 'Circle', page: 0, name: 'stays', rect: [160, 10, 200, 50] },
      ],
    }));
    const xfdf = `<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>${['m1', 'm2', 'm3'].map((n, i) => `<square page="1" rect="${10 + 50 * i},10,${50 + 50 * i},50" name="${n}"/>`).join('')}</annots></xfdf>`;
    const reply = await importXfdf('xfdf/move.pdf', xfdf);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().updated, ['m1', 'm2', 'm3']);
    const pages = Object.fromEntries(reply.json().annotations.map((a: { name: string; pageIndex: number }) => [a.name, a.pageIndex]));
    assert.deepEqual(pages, { m1: 1, m2: 1, m3: 1, stays: 0 });
    const bytes = await storedBytes(server, 'xfdf/move.pdf');
    assert.ok(qpdfCheck(bytes).ok);
    assert.deepEqual(qpdfAnnotations(bytes).map((a) => `${a.name}@${a.pageIndex}`).sort(), ['m1@1', 'm2@1', 'm3@1', 'stays@0']);
  });

  test('coordinates are PDF user space, also on rotated pages whose MediaBox does not start at 0,0', async () => {
    await putPdf(server, 'xfdf/offset.pdf', makeAnnotatedPdf({ pages: 1, annotations: [], rotate: () => 90, mediaBox: () => [100, 200, 712, 992] }));
    const xfdf = `<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><square page="0" rect="150,250,250,300" name="sq" color="#FF0000"/><highlight page="0" rect="150,400,300,420" name="hl" coords="150,420,300,420,150,400,300,400"/></annots></xfdf>`;
    assert.equal((await importXfdf('xfdf/offset.pdf', xfdf)).status, 200);
    const listed = (await call(server, 'GET', '/documents/xfdf/offset.pdf/annotations')).json().annotations;
    assert.deepEqual(listed.find((a: { name: string }) => a.name === 'sq').rectangle, { x: 150, y: 250, width: 100, height: 50 });
    assert.deepEqual(listed.find((a: { name: string }) => a.name === 'hl').quadPoints, [150, 420, 300, 420, 150, 400, 300, 400]);
    const raw = qpdfAnnotations(await storedBytes(server, 'xfdf/offset.pdf')).find((a) => a.name === 'sq')!;
    assert.deepEqual(raw.rect, [150, 250, 250, 300]);
    assert.match((await exportXfdf('xfdf/offset.pdf')).text, /<square page="0" rect="150,250,250,300" name="sq"/);
  });

  test('A3 (POST .../annotations with XFDF) imports the same way, marked deprecated with a link to A5', async () => {
    await putPdf(server, 'xfdf/a3.pdf', makePdf({ pages: 2 }));
    const reply = await importXfdf('xfdf/a3.pdf', '<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><circle page="1" rect="10,10,50,50" name="c1"/></annots></xfdf>', 'annotations');
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('deprecation'), '@1795219200');
    assert.equal(reply.headers.get('link'), '</pdfservice/v1/documents/xfdf/a3.pdf/annotations/content>; rel="successor-version"');
    assert.deepEqual(reply.json().created, ['c1']);
  });

  test('hostile and broken XFDF is 400 MALFORMED_XFDF and changes nothing', async () => {
    await putPdf(server, 'xfdf/safe.pdf', fixture.pdf);
    const original = sha256(await storedBytes(server, 'xfdf/safe.pdf'));
    const bodies = [
      '<?xml version="1.0"?><!DOCTYPE xfdf [<!ENTITY x SYSTEM "file:///etc/passwd">]><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0" rect="0,0,1,1"><contents>&x;</contents></text></annots></xfdf>',
      `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "${'a'.repeat(100)}">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><xfdf><annots><text page="0" rect="0,0,1,1"><contents>&j;</contents></text></annots></xfdf>`,
      '<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0"></annots></xfdf>',
      '<notxfdf/>',
      '',
    ];
    for (const body of bodies) {
      const reply = await importXfdf('xfdf/safe.pdf', body);
      assert.equal(reply.status, 400, `${body.slice(0, 60)}: ${reply.text}`);
      assert.equal(reply.json().code, 'MALFORMED_XFDF');
      assert.ok(!reply.text.includes('root:'));
    }
    const wrongType = await call(server, 'POST', '/documents/xfdf/safe.pdf/annotations/content', { body: Buffer.from('<xfdf/>'), headers: { 'content-type': 'text/plain' } });
    assert.equal(wrongType.status, 415);
    const outside = await importXfdf('xfdf/safe.pdf', '<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><square page="9" rect="0,0,1,1" name="far"/></annots></xfdf>');
    assert.equal(outside.status, 200);
    assert.match(outside.json().warnings[0], /page 9/);
    assert.equal(sha256(await storedBytes(server, 'xfdf/safe.pdf')), original, 'nothing was imported, nothing written');
  });
});

describe('FDF (A6, A5)', () => {
  test('FDF export is an FDF file MuPDF reads; importing it into an emptied copy gives the same annotations back', async () => {
    await putPdf(server, 'fdf/all.pdf', fixture.pdf);
    const xfdfBefore = (await exportXfdf('fdf/all.pdf')).text;
    const fdf = await call(server, 'GET', '/documents/fdf/all.pdf/annotations/content?attachment=true', { headers: { accept: 'application/vnd.fdf' } });
    assert.equal(fdf.status, 200);
    assert.equal(fdf.headers.get('content-type'), 'application/vnd.fdf');
    assert.equal(fdf.headers.get('content-disposition'), `attachment; filename="all.fdf"; filename*=UTF-8''all.fdf`);
    assert.match(fdf.bytes.subarray(0, 9).toString('latin1'), /^%FDF-1\.2/);
    const shown = withTempFile(fdf.bytes, (f) => execFileSync('mutool', ['show', f, '1'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }), 'all.fdf');
    assert.match(shown, /\/FDF/);
    assert.match(shown, /\/Annots/);
    await call(server, 'DELETE', '/documents/fdf/all.pdf/annotations');
    const imported = await call(server, 'POST', '/documents/fdf/all.pdf/annotations/content', { body: fdf.bytes, headers: { 'content-type': 'application/vnd.fdf' } });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.json().warnings, []);
    // FDF carries no appearance streams: the stamp's is drawn on import, so <appearance> is left out of the comparison.
    assert.equal(withoutAppearances((await exportXfdf('fdf/all.pdf')).text), withoutAppearances(xfdfBefore), 'FDF carried every annotation XFDF carries, unchanged');
    assert.ok(qpdfCheck(await storedBytes(server, 'fdf/all.pdf')).ok);
  });

  test("an FDF's JavaScript is dropped with a warning; a broken FDF is 400 MALFORMED_FDF and changes nothing", async () => {
    await putPdf(server, 'fdf/js.pdf', makePdf({ pages: 1 }));
    const withScript = Buffer.from(`%FDF-1.2
1 0 obj << /FDF << /Annots [2 0 R] /JavaScript << /Before (app.alert\\('hi'\\)) >> >> >> endobj
2 0 obj << /Type /Annot /Subtype /Square /Page 0 /Rect [10 10 60 60] /NM (sq) /AA << /E << /S /JavaScript /JS (app.alert\\(1\\)) >> >> >> endobj
trailer << /Root 1 0 R >>
%%EOF`, 'latin1');
    const reply = await call(server, 'POST', '/documents/fdf/js.pdf/annotations/content', { body: withScript, headers: { 'content-type': 'application/vnd.fdf' } });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().created, ['sq']);
    assert.ok(reply.json().warnings.some((w: string) => /JavaScript|script/i.test(w)), JSON.stringify(reply.json().warnings));
    const stored = (await storedBytes(server, 'fdf/js.pdf')).toString('latin1');
    assert.ok(!/JavaScript|app\.alert/.test(stored), 'no script reached the document');
    const before = sha256(await storedBytes(server, 'fdf/js.pdf'));
    for (const body of ['not an fdf', '%FDF-1.2\n1 0 obj << /FDF << /Annots [2 0 R >> endobj']) {
      const bad = await call(server, 'POST', '/documents/fdf/js.pdf/annotations/content', { body: Buffer.from(body), headers: { 'content-type': 'application/vnd.fdf' } });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.json().code, 'MALFORMED_FDF');
    }
    assert.equal(sha256(await storedBytes(server, 'fdf/js.pdf')), before);
  });
});
