/**
 * Export to DOCX (docs/export.md "DOCX"), over HTTP against the real server. The ground truth is an HTML page written
 * here (headings, paragraphs, a bulleted and a numbered list, a 3x4 table, an image, a link, two pages), converted by the
 * service's own HTML upload (Chromium). The DOCX is read by python-docx (Debian's python3-docx), not by the service's
 * code, and opened by LibreOffice, whose PDF of it pdftotext reads.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { describe, test } from 'node:test';
import { exportRefusals } from '../helpers/export-refusals.js';
import { call } from '../helpers/http.js';
import { makePdf, pdftotext, withTempFile } from '../helpers/pdf.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { decodePng, encodeRgbPng } from '../helpers/png.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** Debian's Python, which has python3-docx (scripts/setup.sh). */
const PYTHON = '/usr/bin/python3';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const PARAGRAPH =
  'This report describes the results of the year. It contains enough words to wrap over more than one line of the printed page, so that the export must join its lines into one paragraph again.';
const BULLETS = ['Revenue grew strongly', 'Costs fell', 'New markets opened'];
const STEPS = ['Collect the figures', 'Check them twice'];
const TABLE = [
  ['Region', 'Q1', 'Q2', 'Q3'],
  ['North', '10', '12', '14'],
  ['South', '20', '22', '24'],
];
const LINK = { text: 'the full accounts', uri: 'https://example.org/accounts' };

/** A 60 x 40 RGB image: red left half, blue right half. */
function picture(): Buffer {
  const row = Buffer.alloc(1 + 60 * 3);
  for (let x = 0; x < 60; x++) row.set(x < 30 ? [220, 20, 20] : [20, 20, 220], 1 + x * 3);
  return encodeRgbPng(60, 40, Buffer.concat(Array.from({ length: 40 }, () => row)));
}

const GROUND_TRUTH = `<!DOCTYPE html><html><head><title>Report</title><style>
body { font-family: serif; font-size: 12pt } table { border-collapse: collapse } td, th { border: 1px solid black; padding: 4px }
section + section { page-break-before: always }
</style></head><body>
<section><h1>Annual Report</h1><p>${PARAGRAPH}</p><h2>Highlights</h2><ul>${BULLETS.map((i) => `<li>${i}</li>`).join('')}</ul>
<p>Read <a href="${LINK.uri}">${LINK.text}</a> online.</p>
<p><img src="data:image/png;base64,${picture().toString('base64')}" width="120" height="80" alt="Chart"></p></section>
<section><h2>Figures</h2><table><tr>${TABLE[0]!.map((c) => `<th>${c}</th>`).join('')}</tr>${TABLE.slice(1)
  .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
  .join('')}</table><h2>Next steps</h2><ol>${STEPS.map((i) => `<li>${i}</li>`).join('')}</ol></section>
</body></html>`;

/**
 * A page with a line of text, an 8 x 8 grey image and then a 4,100 x 4,100 one (16.8 megapixels, past the DOCX export's
 * bound of 16; a few kilobytes deflated).
 */
function pdfWithHugeImage(): Buffer {
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const pages = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const image = (side: number, grey: number) => pdf.stream(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, deflateSync(Buffer.alloc(side * side, grey)));
  const small = image(8, 80);
  const huge = image(4100, 160);
  const content = pdf.stream('', 'BT /F1 12 Tf 72 720 Td (Two pictures follow.) Tj ET q 100 0 0 100 72 500 cm /Small Do Q q 200 0 0 200 72 250 cm /Huge Do Q');
  const page = pdf.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Small ${small} 0 R /Huge ${huge} 0 R >> >> /Contents ${content} 0 R >>`);
  pdf.setPageTree(catalog, pages, [page]);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

interface DocxRead {
  paragraphs: { style: string; text: string; list: string | null; pageBreakBefore: boolean }[];
  tables: { cells: string[][]; headerRows: number }[];
  images: string[];
  links: { text: string; uri: string }[];
  textBoxes: number;
}

/** The DOCX as python-docx reads it: paragraphs (style, text, list kind from numbering.xml), tables, images, links. */
function readDocx(docx: Buffer): DocxRead {
  const script = `
import sys, json, base64, io
import docx
from docx.oxml.ns import qn
d = docx.Document(io.BytesIO(sys.stdin.buffer.read()))
numbering = d.part.numbering_part.element
def list_kind(p):
    numPr = p._p.pPr.numPr if p._p.pPr is not None else None
    if numPr is None or numPr.numId is None: return None
    num = [n for n in numbering.findall(qn('w:num')) if n.get(qn('w:numId')) == str(numPr.numId.val)][0]
    abstract = num.find(qn('w:abstractNumId')).get(qn('w:val'))
    a = [x for x in numbering.findall(qn('w:abstractNum')) if x.get(qn('w:abstractNumId')) == abstract][0]
    return a.find(qn('w:lvl')).find(qn('w:numFmt')).get(qn('w:val'))
def is_header(row):
    h = row._tr.trPr.find(qn('w:tblHeader')) if row._tr.trPr is not None else None
    return h is not None and h.get(qn('w:val')) in (None, 'true', '1', 'on')
def text_of(p):
    return ''.join(t.text or '' for t in p._p.iter(qn('w:t')))
paragraphs = [{'style': p.style.name, 'text': text_of(p), 'list': list_kind(p),
               'pageBreakBefore': p._p.pPr is not None and p._p.pPr.find(qn('w:pageBreakBefore')) is not None} for p in d.paragraphs]
tables = [{'cells': [[c.text for c in r.cells] for r in t.rows],
           'headerRows': sum(1 for r in t.rows if is_header(r))} for t in d.tables]
images = [base64.b64encode(d.part.related_parts[s._inline.graphic.graphicData.pic.blipFill.blip.embed].blob).decode() for s in d.inline_shapes]
links = [{'text': ''.join(t.text or '' for t in h.iter(qn('w:t'))), 'uri': d.part.rels[h.get(qn('r:id'))].target_ref} for h in d.element.body.iter(qn('w:hyperlink'))]
boxes = len(list(d.element.body.iter(qn('w:txbxContent'))))
print(json.dumps({'paragraphs': paragraphs, 'tables': tables, 'images': images, 'links': links, 'textBoxes': boxes}))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: docx }).toString('utf8')) as DocxRead;
}

/** The DOCX opened by LibreOffice and printed to PDF, as pdftotext reads it; and the PDF's page count. */
function libreOfficeText(docx: Buffer): { text: string; pages: number } {
  return withTempFile(
    docx,
    (file) => {
      const dir = path.dirname(file);
      execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', dir, file], { stdio: 'ignore', timeout: 120_000 });
      const pdf = readFileSync(path.join(dir, 'export.pdf'));
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8'))?.[1]);
      return { text: pdftotext(pdf).replace(/\s+/g, ' '), pages };
    },
    'export.docx',
  );
}

describe('export to DOCX', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const doc = '/documents/export-docx/report.pdf';
  let stored: Buffer;
  let docx: Buffer;

  test('the ground truth uploads through the HTML converter', async () => {
    const put = await call(server, 'PUT', doc, { body: Buffer.from(GROUND_TRUTH), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
    stored = (await call(server, 'GET', doc)).bytes;
    assert.equal(execFileSync('pdfinfo', ['-'], { input: stored }).toString('utf8').match(/Pages:\s+(\d+)/)?.[1], '2');
  });

  test('python-docx reads headings and paragraphs with their styles, Word lists, the table cell for cell with its header row, the image and the link', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=docx`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), DOCX);
    assert.match(reply.headers.get('content-disposition') ?? '', /^attachment; filename="report\.docx"/);
    docx = reply.bytes;
    const read = readDocx(docx);
    const styled = read.paragraphs.filter((p) => p.text !== '').map((p) => [p.style, p.list ?? '', p.text]);
    assert.deepEqual(styled, [
      ['Heading 1', '', 'Annual Report'],
      ['Normal', '', PARAGRAPH],
      ['Heading 2', '', 'Highlights'],
      ...BULLETS.map((b) => ['List Paragraph', 'bullet', b]),
      ['Normal', '', `Read ${LINK.text} online.`],
      ['Heading 2', '', 'Figures'],
      ['Heading 2', '', 'Next steps'],
      ...STEPS.map((s) => ['List Paragraph', 'decimal', s]),
    ]);
    assert.deepEqual(read.tables, [{ cells: TABLE, headerRows: 1 }]);
    assert.deepEqual(read.links, [LINK]);
    // The image, in its place on page 1 (between the link's paragraph and the page break), as the source's pixels.
    assert.equal(read.images.length, 1);
    const image = decodePng(Buffer.from(read.images[0]!, 'base64'));
    assert.deepEqual([image.width, image.height], [60, 40]);
    // One page break, before the second page's first paragraph; no text boxes.
    const breaks = read.paragraphs.filter((p) => p.pageBreakBefore);
    assert.deepEqual(breaks.map((p) => p.text), ['Figures']);
    assert.equal(read.textBoxes, 0);
    // By Accept instead of ?format=: the same document (the file's parts, so not the zip's dates, compared).
    const byAccept = await call(server, 'GET', `${doc}/export`, { headers: { accept: DOCX } });
    assert.equal(byAccept.status, 200);
    assert.deepEqual(readDocx(byAccept.bytes), read);
  });

  test('LibreOffice opens it: its PDF has the text in order, on two pages', () => {
    const { text, pages } = libreOfficeText(docx);
    assert.equal(pages, 2);
    const expected = ['Annual Report', PARAGRAPH, 'Highlights', ...BULLETS, `Read ${LINK.text} online.`, 'Figures', TABLE[0]!.join(' '), 'Next steps', ...STEPS];
    let at = 0;
    for (const piece of expected) {
      const found = text.indexOf(piece, at);
      assert.ok(found >= 0, `"${piece}" after ${at} in ${text}`);
      at = found + piece.length;
    }
  });

  test('a page range: the second page alone, without a page break', async () => {
    const read = readDocx((await call(server, 'GET', `${doc}/export?format=docx&pageRange=2`)).bytes);
    assert.deepEqual(read.tables.map((t) => t.cells), [TABLE]);
    // Tagged (Chromium): the headings keep their elements' level (H2) whatever pages are exported.
    assert.deepEqual(read.paragraphs.filter((p) => p.style.startsWith('Heading')).map((p) => [p.style, p.text]), [['Heading 2', 'Figures'], ['Heading 2', 'Next steps']]);
    assert.equal(read.paragraphs.filter((p) => p.pageBreakBefore).length, 0);
    assert.equal(read.images.length, 0);
  });

  test('bad input as the other formats: a bad range, an Accept it cannot meet, no text, an encrypted document; nothing changed', async () => {
    const past = await call(server, 'GET', `${doc}/export?format=docx&pageRange=3`);
    assert.equal(past.status, 400, past.text);
    assert.equal(past.json().code, 'PAGE_OUT_OF_RANGE');
    const malformed = await call(server, 'GET', `${doc}/export?format=docx&pageRange=2-1`);
    assert.equal(malformed.json().code, 'INVALID_PAGE_RANGE');
    const clash = await call(server, 'GET', `${doc}/export?format=docx`, { headers: { accept: 'text/html' } });
    assert.equal(clash.status, 406, clash.text);
    assert.deepEqual((await call(server, 'GET', doc)).bytes, stored);

    const right = await exportRefusals(server, '/documents/export-docx', 'docx');
    assert.deepEqual(readDocx(right.bytes).paragraphs.map((p) => p.text), ['Secret minutes']);
  });

  test('a page without text among others: a warning header, and the page still breaks', async () => {
    const mixed = makePdf({ pages: 2, text: (page) => (page === 0 ? 'Only the first page has text' : '') });
    assert.equal((await call(server, 'PUT', '/documents/export-docx/mixed.pdf', { body: mixed, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const reply = await call(server, 'GET', '/documents/export-docx/mixed.pdf/export?format=docx');
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('x-service-warning') ?? '', /No text on page 2/);
    const read = readDocx(reply.bytes);
    assert.deepEqual(read.paragraphs.map((p) => [p.text, p.pageBreakBefore]), [['Only the first page has text', false], ['', true]]);
  });

  test('an image past the bound is a caption in its place, with a warning; the one within it is kept', async () => {
    const pdf = pdfWithHugeImage();
    assert.equal((await call(server, 'PUT', '/documents/export-docx/pictures.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const reply = await call(server, 'GET', '/documents/export-docx/pictures.pdf/export?format=docx');
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('x-service-warning') ?? '', /1 image left out \(larger than 16 megapixels/);
    const read = readDocx(reply.bytes);
    assert.equal(read.images.length, 1);
    const kept = decodePng(Buffer.from(read.images[0]!, 'base64'));
    assert.deepEqual([kept.width, kept.height], [8, 8]);
    assert.deepEqual(read.paragraphs.map((p) => p.text).filter((t) => t !== ''), ['Two pictures follow.', '[Image 2 on page 1]']);
    assert.deepEqual((await call(server, 'GET', '/documents/export-docx/pictures.pdf')).bytes, pdf);
  });
});
