/**
 * PDFUAConvertAction (issue 42; docs/accessibility.md, "Tagging an untagged document"), through HTTP to the real
 * server. The born-digital sources are made here: a two-page report (headings, a bulleted list, a picture, a link, a
 * running header and page numbers) printed by a LibreOffice run of the test's own with its default export, which is
 * untagged; a page with a table printed by the service's HTML converter with tagged=false. The results are checked
 * with veraPDF's PDF/UA-1 profile (one JVM for the file), pdftotext (the text is unchanged), pdftoppm (the pages draw
 * as before), pdfinfo -struct-text (the structure) and qpdf.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { call, expectUnchanged, jobEnded, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { imagePdf, pageStreams, renderGray } from '../helpers/ocr-fixtures.js';
import { xmlEscape } from '../helpers/office-fixtures.js';
import { pdfinfo, pdftotext, withTempFile } from '../helpers/pdf.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { encodeRgbPng } from '../helpers/png.js';
import { serverForSuite } from '../helpers/server.js';
import { makeKeyStores, pdfsig, signedFieldPdf, STORE_PASSWORD } from '../helpers/signing.js';
import { verapdfVerdicts } from '../helpers/verapdf.js';

const server = serverForSuite();
const WAIT = { prefer: 'wait=300' };

/** A 40 x 30 red PNG. */
const PNG = encodeRgbPng(40, 30, Buffer.alloc(40 * 30 * 3, Buffer.from([200, 30, 30])));

/** The report as flat ODF: two pages, a running header and a page number in the footer. */
function reportFodt(): string {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';
  const item = (t: string) => `<text:list-item><text:p>${xmlEscape(t)}</text:p></text:list-item>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` +
    '<office:meta><dc:title>Annual report</dc:title></office:meta>' +
    '<office:automatic-styles><style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>' +
    '<text:list-style style:name="B"><text:list-level-style-bullet text:level="1" text:bullet-char="•"><style:list-level-properties text:space-before="0.5cm" text:min-label-width="0.5cm"/></text:list-level-style-bullet></text:list-style>' +
    '<style:page-layout style:name="PL"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin="2cm"/></style:page-layout></office:automatic-styles>' +
    '<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="PL"><style:header><text:p>Annual report 2026</text:p></style:header>' +
    '<style:footer><text:p><text:page-number text:select-page="current">1</text:page-number></text:p></style:footer></style:master-page></office:master-styles>' +
    '<office:body><office:text>' +
    '<text:h text:outline-level="1">Annual report</text:h><text:p>Sales rose in every region this year, and costs fell.</text:p>' +
    `<text:h text:outline-level="2">Highlights</text:h><text:list text:style-name="B">${item('New office in Lyon')}${item('Two new products')}${item('Fewer complaints')}</text:list>` +
    '<text:p>The chart below shows the sales.</text:p>' +
    '<text:p><draw:frame draw:name="chart" svg:width="3cm" svg:height="2cm" text:anchor-type="as-char"><draw:image>' +
    `<office:binary-data>${PNG.toString('base64')}</office:binary-data></draw:image></draw:frame></text:p>` +
    '<text:p text:style-name="Break">More on <text:a xlink:type="simple" xlink:href="https://example.com/report">our website</text:a> and in the annex.</text:p>' +
    '<text:h text:outline-level="2">Outlook</text:h><text:p>Next year we expect the same.</text:p>' +
    '</office:text></office:body></office:document>'
  );
}

/** The flat ODF printed by LibreOffice's default PDF export (untagged), in a profile of its own. */
function printedByLibreOffice(fodt: string): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-uatag-'));
  try {
    const file = path.join(dir, 'report.fodt');
    writeFileSync(file, fodt);
    execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', dir, file], { stdio: 'ignore', timeout: 120_000 });
    return readFileSync(path.join(dir, 'report.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const structText = (pdf: Buffer) => withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
const xmp = (pdf: Buffer) => withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-meta', file], { encoding: 'utf8' }));
const pageCount = (pdf: Buffer) => Number(pdfinfo(pdf)['Pages']);

function assertSameRenders(before: Buffer, after: Buffer): void {
  for (let i = 0; i < pageCount(before); i++) {
    const a = renderGray(before, i, 50);
    const b = renderGray(after, i, 50);
    assert.equal(b.width, a.width);
    assert.ok(a.pixels.equals(b.pixels), `page ${i + 1} draws as before`);
  }
}

function convert(documentPath: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call(server, 'POST', `/documents/${documentPath}`, { body: { PDFUAConvertAction: params }, headers: { ...WAIT, ...headers } });
}

let report: Buffer;

before(() => {
  report = printedByLibreOffice(reportFodt());
});

/** The outputs checked by veraPDF together at the end of the file (one JVM start). */
const outputs: Record<string, Buffer> = {};

test('an untagged report: tagged, the figure described by index, PDF/UA-1 claimed and passed; text and drawing unchanged', async () => {
  assert.ok(!structText(report).includes('Document'), 'the source is untagged');
  assert.equal((await putPdf(server, 'ua/report.pdf', report)).status, 201);
  const reply = await convert('ua/report.pdf', { lang: 'en-GB', figures: [{ index: 0, alt: 'Bar chart of the sales by region' }] });
  assert.equal(reply.status, 200, reply.text);
  const r = reply.json().report;
  assert.equal(r.tagged, 'added');
  assert.equal(r.compliant, true, JSON.stringify(r.rules));
  assert.equal(r.pdfuaIdentified, true);
  assert.deepEqual(r.figuresWithoutAlt, []);
  assert.equal(r.title, 'Annual report');
  assert.equal(r.language, 'en-GB');
  assert.ok(r.artifacts > 0, 'the running header and page numbers are artifacts');
  const out = await storedBytes(server, 'ua/report.pdf');
  outputs.report = out;
  assert.equal(pdftotext(out), pdftotext(report));
  assertSameRenders(report, out);
  const tree = structText(out);
  for (const expected of ['Document', 'H1', '"Annual report"', 'H2', '"Highlights"', 'L (block)', 'LI', 'LBody', '"Two new products"', 'Figure', 'Link', '"our website"', 'P (block)']) {
    assert.ok(tree.includes(expected), `${expected} in the structure:\n${tree}`);
  }
  // The running header and the page numbers are no element's content.
  assert.ok(!tree.includes('Annual report 2026'), tree);
  assert.match(xmp(out), /pdfuaid:part>1</);
  assert.match(xmp(out), /Annual report/);
});

test('without the alt text: written tagged, no PDF/UA claim, the figure and the failed rule reported', async () => {
  assert.equal((await putPdf(server, 'ua/no-alt.pdf', report)).status, 201);
  const reply = await convert('ua/no-alt.pdf', { lang: 'en-GB', title: 'Report without alt text' });
  assert.equal(reply.status, 200, reply.text);
  const r = reply.json().report;
  assert.equal(r.compliant, false);
  assert.equal(r.pdfuaIdentified, false);
  assert.equal(r.figuresWithoutAlt.length, 1);
  assert.equal(r.figuresWithoutAlt[0].index, 0);
  assert.equal(r.figuresWithoutAlt[0].pageIndex, 0);
  assert.deepEqual(r.rules.map((rule: { clause: string; testNumber: number }) => `${rule.clause}-${rule.testNumber}`), ['7.3-1']);
  assert.ok(r.accessibility.checkpoints.some((c: { checkpoint: string }) => c.checkpoint === '13'), JSON.stringify(r.accessibility.checkpoints));
  assert.ok(r.accessibility.humanChecks.length > 0);
  const out = await storedBytes(server, 'ua/no-alt.pdf');
  outputs.noAlt = out;
  assert.doesNotMatch(xmp(out), /pdfuaid/);
  assert.equal(pdfinfo(out)['Title'], 'Report without alt text');
  assert.ok(structText(out).includes('Figure'));
});

test('a table printed untagged from HTML: Table, TR, TH and TD', async () => {
  const html =
    '<!DOCTYPE html><html><head><title>Prices</title><style>td,th{border:1px solid #000;padding:4px}table{border-collapse:collapse}</style></head><body>' +
    '<h1>Prices</h1><p>The prices of this year.</p><table><tr><th>Item</th><th>Price</th><th>Stock</th></tr><tr><td>Apples</td><td>3</td><td>40</td></tr>' +
    '<tr><td>Pears</td><td>4</td><td>25</td></tr><tr><td>Plums</td><td>5</td><td>12</td></tr></table><p>Prices include tax.</p></body></html>';
  const put = await call(server, 'PUT', '/documents/ua/prices.pdf?tagged=false', { body: Buffer.from(html), headers: { 'content-type': 'text/html', ...WAIT } });
  assert.equal(put.status, 201, put.text);
  const source = await storedBytes(server, 'ua/prices.pdf');
  assert.ok(!structText(source).includes('Table'));
  const reply = await convert('ua/prices.pdf', { lang: 'en' });
  assert.equal(reply.status, 200, reply.text);
  const out = await storedBytes(server, 'ua/prices.pdf');
  outputs.prices = out;
  const tree = structText(out);
  for (const expected of ['Table', 'TR', 'TH', '"Item"', 'TD', '"Apples"', 'H1']) assert.ok(tree.includes(expected), `${expected} in the structure:\n${tree}`);
  assert.equal(reply.json().report.elements.TH, 3);
  assert.equal(pdftotext(out), pdftotext(source));
  assertSameRenders(source, out);
});

test('a tagged document is kept (nothing written) unless retag, which replaces its tree', async () => {
  const before = await storedBytes(server, 'ua/report.pdf');
  const versions = (await call(server, 'GET', '/documents/ua/report.pdf/versions')).json();
  const kept = await convert('ua/report.pdf', { lang: 'en-GB' });
  assert.equal(kept.status, 200, kept.text);
  assert.equal(kept.json().report.tagged, 'kept');
  assert.equal(sha256(await storedBytes(server, 'ua/report.pdf')), sha256(before));
  assert.deepEqual((await call(server, 'GET', '/documents/ua/report.pdf/versions')).json(), versions);

  const retagged = await convert('ua/report.pdf', { retag: true, figures: [{ index: 0, alt: 'Bar chart of the sales by region' }] });
  assert.equal(retagged.status, 200, retagged.text);
  assert.equal(retagged.json().report.tagged, 'replaced');
  assert.equal(retagged.json().report.compliant, true, JSON.stringify(retagged.json().report.rules));
  const out = await storedBytes(server, 'ua/report.pdf');
  outputs.retagged = out;
  // One tree, each block once: the old marked content was taken out, not nested.
  const tree = structText(out);
  assert.equal(tree.split('"Highlights"').length, 2, tree);
  assert.equal(pdftotext(out), pdftotext(report));
});

test('as a background job (the default without Prefer: wait): the job ends with the written document and the report', async () => {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pages = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const content = o.stream('', 'BT /F1 18 Tf 20 100 Td (Opening hours) Tj ET');
  const page = o.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`);
  o.setPageTree(catalog, pages, [page]);
  const source = o.finish(`/Root ${catalog} 0 R`);
  assert.equal((await putPdf(server, 'ua/hours.pdf', source)).status, 201);
  const reply = await call(server, 'POST', '/documents/ua/hours.pdf', { body: { PDFUAConvertAction: { lang: 'en-US', title: 'Opening hours' } } });
  assert.equal(reply.status, 202, reply.text);
  const job = await jobEnded(server, reply.json().id);
  assert.equal(job.state, 'succeeded', JSON.stringify(job));
  assert.equal(job.result.document.report.compliant, true, JSON.stringify(job.result.document.report));
  // Helvetica, named without its program, now embedded (a metric-compatible substitute): PDF/UA-1 7.21.4.1.
  assert.equal(job.result.document.report.fontsEmbedded, 1);
  const out = await storedBytes(server, 'ua/hours.pdf');
  outputs.hours = out;
  assert.equal(pdftotext(out), pdftotext(source));
  assertSameRenders(source, out);
});

/**
 * A letter whose first page is drawn by one form XObject (as a page imported by pdfpages or an n-up tool is): a heading,
 * a paragraph, a photo, a closing line and a rule; and a logo, a form drawing an image, on both pages, at another place
 * on each (the same place on every page would make it a running image, an artifact: the next test).
 */
function formLetter(): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pages = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const image = o.stream('/Type /XObject /Subtype /Image /Width 20 /Height 20 /ColorSpace /DeviceRGB /BitsPerComponent 8', Buffer.alloc(1200, 90));
  const logo = o.stream(`/Type /XObject /Subtype /Form /BBox [0 0 40 40] /Resources << /XObject << /Im0 ${image} 0 R >> >>`, 'q 40 0 0 40 0 0 cm /Im0 Do Q');
  const letter = o.stream(
    `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im0 ${image} 0 R >> >>`,
    'BT /F1 24 Tf 72 700 Td (Quarterly letter) Tj ET\nBT /F1 12 Tf 72 660 Td (Dear readers, this quarter went well.) Tj ET\n' +
      'q 120 0 0 90 72 540 cm /Im0 Do Q\nBT /F1 12 Tf 72 500 Td (Thank you for reading.) Tj ET\n0 0 1 rg 72 480 400 2 re f',
  );
  const resources = `/Font << /F1 ${font} 0 R >> /XObject << /Letter ${letter} 0 R /Logo ${logo} 0 R >>`;
  const first = o.stream('', 'q /Letter Do Q q 1 0 0 1 520 740 cm /Logo Do Q');
  const second = o.stream('', 'BT /F1 18 Tf 72 700 Td (Second page) Tj ET BT /F1 12 Tf 72 660 Td (More text on the second page.) Tj ET q 1 0 0 1 520 40 cm /Logo Do Q');
  const kids = [first, second].map((c) => o.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << ${resources} >> /Contents ${c} 0 R >>`));
  o.setPageTree(catalog, pages, kids);
  return o.finish(`/Root ${catalog} 0 R`);
}

test('content drawn by form XObjects: a form drawn once is marked inside, one drawn on every page is one sequence at each drawing; retag re-marks both', async () => {
  const source = formLetter();
  assert.equal((await putPdf(server, 'ua/letter.pdf', source)).status, 201);
  const figures = [0, 1, 2].map((index) => ({ index, alt: index === 0 ? 'Photo of the team' : 'Company logo' }));
  const reply = await convert('ua/letter.pdf', { lang: 'en', figures });
  assert.equal(reply.status, 200, reply.text);
  const r = reply.json().report;
  assert.equal(r.compliant, true, JSON.stringify(r.rules));
  assert.deepEqual(r.elements, { Document: 1, H1: 1, H2: 1, P: 3, Figure: 3 });
  const out = await storedBytes(server, 'ua/letter.pdf');
  outputs.formLetter = out;
  assert.equal(pdftotext(out), pdftotext(source));
  assertSameRenders(source, out);
  // Each block of the form's content is its own element (before, the whole form was one sequence of one of them).
  assert.match(structText(out), /H1 \(block\)\s+"Quarterly letter"\s+P \(block\)\s+"Dear readers, this quarter went well."\s+Figure:[^"]*""\s+P \(block\)\s+"Thank you for reading."/);
  // qpdf: the letter's form holds the marked content and has its parent-tree key; the page draws it bare. The logo's
  // form is unchanged, and each page wraps its Do in a Figure sequence.
  const [page1, page2] = pageStreams(out, true);
  const formData = Buffer.from(page1!.xobjects['/Letter']!.data, 'base64').toString('latin1');
  assert.match(page1!.xobjects['/Letter']!.dict, /"\/StructParents":\d+/);
  assert.deepEqual(formData.match(/\/\w+ <<\/MCID \d+>> BDC/g), ['/H1 <</MCID 0>> BDC', '/P <</MCID 1>> BDC', '/Figure <</MCID 2>> BDC', '/P <</MCID 3>> BDC']);
  assert.match(formData, /\/Artifact BMC\s+72 480 400 2 re f\s+EMC/);
  const page1Content = Buffer.from(page1!.contents.join(''), 'base64').toString('latin1');
  assert.match(page1Content, /^q \/Letter Do Q/);
  assert.doesNotMatch(page1!.xobjects['/Logo']!.dict, /StructParents/);
  assert.equal(Buffer.from(page1!.xobjects['/Logo']!.data, 'base64').toString('latin1'), 'q 40 0 0 40 0 0 cm /Im0 Do Q');
  for (const page of [page1!, page2!]) assert.match(Buffer.from(page.contents.join(''), 'base64').toString('latin1'), /\/Figure <<\/MCID \d+>> BDC\s+\/Logo Do\s+EMC/);

  // retag: the forms' old marked content is taken out and written anew, never nested.
  const retagged = await convert('ua/letter.pdf', { retag: true, figures });
  assert.equal(retagged.status, 200, retagged.text);
  assert.equal(retagged.json().report.compliant, true, JSON.stringify(retagged.json().report.rules));
  const again = await storedBytes(server, 'ua/letter.pdf');
  outputs.formLetterRetagged = again;
  const [again1] = pageStreams(again, true);
  assert.equal(Buffer.from(again1!.xobjects['/Letter']!.data, 'base64').toString('latin1').match(/BDC/g)?.length, 4);
  assert.equal(structText(again).split('"Quarterly letter"').length, 2);

  // Merged after another tagged document, the form's parent-tree key is renumbered with the pages' (no two share one).
  const merged = await call(server, 'POST', '/documents/ua/hours.pdf', { body: { MergeDocumentsAction: { sources: [{ filePath: 'ua/letter.pdf' }], savePath: 'ua/letter-merged.pdf' } }, headers: WAIT });
  assert.ok(merged.status === 200 || merged.status === 201, merged.text);
  const mergedPdf = await storedBytes(server, 'ua/letter-merged.pdf');
  outputs.formLetterMerged = mergedPdf;
  const keys = pageStreams(mergedPdf, true).map((page) => /"\/StructParents":(\d+)/.exec(page.xobjects['/Letter']?.dict ?? '')?.[1]).filter((k) => k !== undefined);
  assert.equal(new Set(keys).size, 1, `the letter's form keeps one key: ${keys}`);
  assert.match(structText(mergedPdf), /Opening hours[\s\S]*Quarterly letter[\s\S]*Thank you for reading/);
});

/**
 * A three-page letter with running pictures: a letterhead logo (an image XObject) at the top and a footer badge (a form
 * drawing an image and a rule) at the bottom of every page, at the same place and size; and on the second page a chart,
 * a picture drawn once.
 */
function letterhead(): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pages = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const pixels = (grey: number) => o.stream('/Type /XObject /Subtype /Image /Width 20 /Height 20 /ColorSpace /DeviceRGB /BitsPerComponent 8', Buffer.alloc(1200, grey));
  const logo = pixels(60);
  const chart = pixels(160);
  const badge = o.stream(`/Type /XObject /Subtype /Form /BBox [0 0 60 30] /Resources << /XObject << /Im0 ${pixels(220)} 0 R >> >>`, 'q 30 0 0 30 0 0 cm /Im0 Do Q 0 0 0 RG 0 0 m 60 0 l S');
  const resources = `/Font << /F1 ${font} 0 R >> /XObject << /Logo ${logo} 0 R /Chart ${chart} 0 R /Badge ${badge} 0 R >>`;
  const running = 'q 60 0 0 40 480 730 cm /Logo Do Q q 1 0 0 1 276 30 cm /Badge Do Q';
  const bodies = [
    'BT /F1 20 Tf 72 680 Td (Annual letter) Tj ET BT /F1 12 Tf 72 650 Td (Dear members, the year went well.) Tj ET',
    'BT /F1 12 Tf 72 680 Td (Our membership grew, as the chart shows.) Tj ET q 200 0 0 120 72 500 cm /Chart Do Q',
    'BT /F1 12 Tf 72 680 Td (We thank every member for their support.) Tj ET',
  ];
  const kids = bodies.map((body) => o.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << ${resources} >> /Contents ${o.stream('', `${running}\n${body}`)} 0 R >>`));
  o.setPageTree(catalog, pages, kids);
  return o.finish(`/Root ${catalog} 0 R`);
}

test('running pictures (a letterhead logo, a footer badge drawn by a form) are artifacts on every page, not figures; a picture drawn once is a figure', async () => {
  const source = letterhead();
  assert.equal((await putPdf(server, 'ua/letterhead.pdf', source)).status, 201);
  const bare = await convert('ua/letterhead.pdf', { lang: 'en' });
  assert.equal(bare.status, 200, bare.text);
  // One figure needs a description (the chart, on the second page), not one per page for the logo and the badge.
  const needs = bare.json().report.figuresWithoutAlt;
  assert.equal(needs.length, 1, JSON.stringify(needs));
  assert.equal(needs[0].pageIndex, 1);
  assert.equal(bare.json().report.elements.Figure, 1);
  const described = await convert('ua/letterhead.pdf', { retag: true, figures: [{ index: 0, alt: 'Bar chart: membership up by a fifth' }] });
  assert.equal(described.status, 200, described.text);
  assert.equal(described.json().report.compliant, true, JSON.stringify(described.json().report.rules));
  const out = await storedBytes(server, 'ua/letterhead.pdf');
  outputs.letterhead = out;
  assert.equal(pdftotext(out), pdftotext(source));
  assertSameRenders(source, out);
  const streams = pageStreams(out, true).map((page) => Buffer.from(page.contents.join(''), 'base64').toString('latin1'));
  assert.equal(streams.length, 3);
  for (const content of streams) {
    assert.match(content, /\/Artifact BMC\s+\/Logo Do\s+EMC/, content);
    assert.match(content, /\/Artifact BMC\s+\/Badge Do\s+EMC/, content);
    assert.doesNotMatch(content, /BDC\s+\/(Logo|Badge) Do/, content);
  }
  assert.match(streams[1]!, /\/Figure <<\/MCID \d+>> BDC\s+\/Chart Do\s+EMC/);
  const tree = structText(out);
  assert.equal(tree.match(/Figure/g)?.length, 1, tree);
  assert.match(tree, /Annual letter[\s\S]*Our membership grew[\s\S]*We thank every member/);
});

/** A tagged page whose tree loops: /K of Document names itself, the role map loops, one element has no /P. */
function brokenTree(): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pages = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const root = o.reserve();
  const doc = o.reserve();
  const para = o.reserve();
  const content = o.stream('', '/Para << /MCID 0 >> BDC BT /F1 24 Tf 72 700 Td (A looping tree) Tj ET EMC');
  const page = o.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R /StructParents 0 >>`);
  o.set(para, `<< /Type /StructElem /S /Para /Pg ${page} 0 R /K [0 ${doc} 0 R] >>`);
  o.set(doc, `<< /Type /StructElem /S /Document /P ${root} 0 R /K [${doc} 0 R ${para} 0 R] >>`);
  const parentTree = o.add(`<< /Nums [0 [${para} 0 R]] >>`);
  o.set(root, `<< /Type /StructTreeRoot /K ${doc} 0 R /ParentTree ${parentTree} 0 R /RoleMap << /Para /Graf /Graf /Para >> >>`);
  o.setPageTree(catalog, pages, [page]);
  o.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R /StructTreeRoot ${root} 0 R /MarkInfo << /Marked true >> >>`);
  return o.finish(`/Root ${catalog} 0 R`);
}

test('a document signed through the service: refused with 409 DOCUMENT_SIGNED, and its signature still verifies (pdfsig)', async () => {
  const doc = 'ua/signed-for-real.pdf';
  assert.equal((await putPdf(server, doc, report)).status, 201);
  const field = `/documents/${doc}/fields/signature-fields/approval`;
  const made = await call(server, 'PUT', field, { body: { widget: [{ pageIndex: 0, rectangle: { x: 100, y: 100, width: 200, height: 50 } }] } });
  assert.equal(made.status, 201, made.text);
  const form = new FormData();
  form.set('signature', new Blob([JSON.stringify({ keystorePassword: STORE_PASSWORD })], { type: 'application/json' }));
  form.set('file', new Blob([new Uint8Array(makeKeyStores().aes)], { type: 'application/x-pkcs12' }), 'key.p12');
  const signed = await call(server, 'POST', `${field}/signature`, { body: form });
  assert.equal(signed.status, 200, signed.text);
  const valid = (pdf: Buffer) => pdfsig(pdf).filter((s) => s.validation !== undefined).map((s) => s.validation);
  assert.deepEqual(valid(await storedBytes(server, doc)), ['Signature is Valid.']);
  const refused = await expectUnchanged(server, doc, () => convert(doc, { lang: 'en' }), 409, 'DOCUMENT_SIGNED');
  assert.match(refused.json().detail, /signature/i);
  assert.deepEqual(valid(await storedBytes(server, doc)), ['Signature is Valid.']);
});

test('bad input: encrypted without the password, signed, no text, a figure that is not there: refused, nothing changed; a looping tree is replaced with retag', async () => {
  const encrypted = withTempFile(report, (file) => execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--', file, '-']));
  assert.equal((await putPdf(server, 'ua/encrypted.pdf', encrypted)).status, 201);
  await expectUnchanged(server, 'ua/encrypted.pdf', () => convert('ua/encrypted.pdf', { lang: 'en' }), 403, 'DOCUMENT_PASSWORD_REQUIRED');

  assert.equal((await putPdf(server, 'ua/signed.pdf', signedFieldPdf())).status, 201);
  await expectUnchanged(server, 'ua/signed.pdf', () => convert('ua/signed.pdf', { lang: 'en' }), 409, 'DOCUMENT_SIGNED');

  const scan = imagePdf([{ image: { width: 20, height: 20, pixels: Buffer.alloc(400, 128) }, dpi: 72 }]);
  assert.equal((await putPdf(server, 'ua/scan.pdf', scan)).status, 201);
  const noText = await expectUnchanged(server, 'ua/scan.pdf', () => convert('ua/scan.pdf', { lang: 'en' }), 422, 'NO_TEXT');
  assert.match(noText.json().detail, /OCRAction/);

  assert.equal((await putPdf(server, 'ua/figures.pdf', report)).status, 201);
  const noFigure = await expectUnchanged(server, 'ua/figures.pdf', () => convert('ua/figures.pdf', { figures: [{ index: 1, alt: 'Nothing' }] }), 400, 'VALIDATION_FAILED');
  assert.match(noFigure.json().detail, /1 figure/);
  await expectUnchanged(server, 'ua/figures.pdf', () => convert('ua/figures.pdf', { lang: 'not a tag' }), 400, 'VALIDATION_FAILED');

  assert.equal((await putPdf(server, 'ua/broken.pdf', brokenTree())).status, 201);
  const broken = await convert('ua/broken.pdf', { lang: 'en', retag: true });
  assert.equal(broken.status, 200, broken.text);
  assert.equal(broken.json().report.tagged, 'replaced');
  const out = await storedBytes(server, 'ua/broken.pdf');
  assert.match(structText(out), /P \(block\)\s+"A looping tree"/);
  assert.doesNotMatch(structText(out), /Para/);
});

test("veraPDF's own verdicts on the stored outputs agree with the action's reports", () => {
  const names = Object.keys(outputs);
  const verdicts = verapdfVerdicts(names.map((name) => ({ bytes: outputs[name]!, flavour: 'ua1' })));
  const byName = Object.fromEntries(names.map((name, i) => [name, verdicts[i]!]));
  assert.equal(byName.report?.compliant, true, JSON.stringify(byName.report?.rules));
  assert.equal(byName.retagged?.compliant, true, JSON.stringify(byName.retagged?.rules));
  assert.equal(byName.hours?.compliant, true, JSON.stringify(byName.hours?.rules));
  assert.equal(byName.formLetter?.compliant, true, JSON.stringify(byName.formLetter?.rules));
  assert.equal(byName.formLetterRetagged?.compliant, true, JSON.stringify(byName.formLetterRetagged?.rules));
  assert.equal(byName.formLetterMerged?.compliant, true, JSON.stringify(byName.formLetterMerged?.rules));
  assert.equal(byName.letterhead?.compliant, true, JSON.stringify(byName.letterhead?.rules));
  // Without alt text only the figure's description is missing, and the missing identification it no longer claims.
  assert.deepEqual(new Set(byName.noAlt?.rules.map((r) => `${r.clause}-${r.testNumber}`)), new Set(['7.3-1', '5-1']));
});
