/**
 * Tables without ruling lines whose cells wrap onto several lines (docs/export.md, "Tables without rules"), over HTTP
 * against the real server. The ground truth is written here: an HTML page (printed by the service's HTML upload,
 * Chromium) with a table whose cells are top-aligned, the same table with Chromium's default (cells centred
 * vertically, so a short cell sits beside the middle of a tall one) and bottom-aligned, and a table of single figures set tight (no cell
 * padding, rows as close as lines); and a Word document with a borderless table (printed by the service's Office
 * upload, LibreOffice). Each export is read by independent parsers: the DOCX by python-docx, the XLSX by openpyxl, the
 * CSV by Python's csv module.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call } from '../helpers/http.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** Debian's Python, which has python3-docx and python3-openpyxl (scripts/setup.sh). */
const PYTHON = '/usr/bin/python3';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Long texts in the first, second and last columns, so that cells wrap onto two, three and four lines. */
const PROJECTS = [
  ['Project', 'Owner', 'Budget', 'State'],
  ['Bridge repair', 'Alice Smith', '1,200', 'Delayed by the weather and by the planning authority for most of the spring'],
  ['New school building on the north side of the river', 'Bob Jones', '8,000', 'Started'],
  ['Roads', 'Carol White', '3,500', 'Done'],
  ['Library', 'Dan Brown and the committee of the library friends', '450', 'Waiting for the council to approve the second part of the budget next year'],
  ['Park', 'Eve Black', '700', 'Planned'],
  [
    'Harbour',
    'Frank Green',
    '2,750',
    'Waiting for the survey of the old harbour wall, then for the tender, the contract, the divers and the first of the three phases of the work on the wall',
  ],
];
/**
 * Single figures of four digits, about as wide as their columns: two of them and a space are wider than any line of
 * the column (the fit test of a wrapped line passes), and the rows are as close as a cell's lines, yet every row is
 * its own.
 */
const FIGURES = [
  ['Code', 'Count', 'Sum'],
  ['1001', '2001', '3001'],
  ['1002', '2002', '3002'],
  ['1003', '2003', '3003'],
  ['1004', '2004', '3004'],
];

const tableHtml = (rows: string[][], cls: string) =>
  `<table class="${cls}"><tr>${rows[0]!.map((c) => `<th>${c}</th>`).join('')}</tr>${rows
    .slice(1)
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</table>`;

const HTML = `<!DOCTYPE html><html><head><title>Projects</title><style>
body { font-family: serif; font-size: 12pt } th, td { text-align: left; padding: 2px 10px } table { width: 100%; margin: 1em 0 }
table.top td { vertical-align: top } table.bottom td { vertical-align: bottom } table.tight { width: auto } table.tight td, table.tight th { padding: 0 18px 0 0 }
section + section { page-break-before: always }
</style></head><body>
<section><h1>Projects</h1><p>The projects of the year, their cells set at the top.</p>${tableHtml(PROJECTS, 'top')}<p>That is all for this year.</p></section>
<section><h1>Projects again</h1><p>The same projects, their cells centred as a browser sets them.</p>${tableHtml(PROJECTS, 'middle')}<p>That is all again.</p></section>
<section><h1>Projects once more</h1><p>The same projects, their cells set at the bottom.</p>${tableHtml(PROJECTS, 'bottom')}<p>That is all once more.</p></section>
<section><h1>Figures</h1><p>Figures set tight.</p>${tableHtml(FIGURES, 'tight')}<p>The end.</p></section>
</body></html>`;

/**
 * A short table whose last row's first cell is the widest line of its column, with a short paragraph right under it
 * (no spacing): "End." would not fit beside "Large washers and nuts" in the widest line, as a wrapped line would not.
 */
const ITEMS = [
  ['Item', 'Qty', 'Note'],
  ['Bolts', '10', 'Steel'],
  ['Large washers and nuts', '20', 'Zinc'],
];

/** A Word table without borders (no tblBorders, no table style). */
const wordTable = (rows: string[][], widths: number[], cell: (text: string, row: number) => string = paragraph) =>
  '<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid>' +
  widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('') +
  '</w:tblGrid>' +
  rows.map((row, r) => `<w:tr>${row.map((text) => `<w:tc>${cell(text, r)}</w:tc>`).join('')}</w:tr>`).join('') +
  '</w:tbl>';

/** A paragraph between the two Word tables, across their columns (docs/export.md: a short one there is not handled). */
const CLOSING = 'That is all for this year: the second table lists the small parts ordered for the repairs.';

/** The projects' columns narrow enough for the long texts to wrap. */
const WORD = docx(
  paragraph('The projects of the year follow.') +
    wordTable(PROJECTS, [2600, 2400, 1200, 3000]) +
    paragraph(CLOSING) +
    wordTable(ITEMS, [3000, 3000, 3000]) +
    paragraph('End.'),
);

/**
 * A one-line paragraph between two tables without rules, no space above or below it, each table's head row bold (as a
 * Word user sets one): the line is wider than the first table's first cells but for the last, and its first word does
 * not fit beside that one, so that it could be the last cell's wrapped line (docs/export.md, "Wrapped cells").
 */
const PARTS = [
  ['Part', 'Qty', 'Price'],
  ['Bolts', '10', '2.50'],
  ['Washers', '20', '0.40'],
  ['Galvanised steel bolts', '5', '12.00'],
];
const TOOLS = [
  ['Tool', 'Hours', 'Rate'],
  ['Crane', '6', '95.00'],
  ['Welder', '12', '40.00'],
];
const BETWEEN = 'Replacements in May:';
const boldParagraph = (text: string) => `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const headedTable = (rows: string[][], widths: number[]) => wordTable(rows, widths, (text, r) => (r === 0 ? boldParagraph(text) : paragraph(text)));
const WORD_BETWEEN = docx(
  paragraph('The parts and tools of the repairs.') + headedTable(PARTS, [3000, 1500, 1500]) + paragraph(BETWEEN) + headedTable(TOOLS, [3000, 1500, 1500]) + paragraph('End.'),
);

/** The tables of a DOCX as python-docx reads them, cell texts row by row. */
function docxTables(bytes: Buffer): string[][][] {
  const script = `
import sys, json, io, docx
d = docx.Document(io.BytesIO(sys.stdin.buffer.read()))
print(json.dumps([[[c.text for c in r.cells] for r in t.rows] for t in d.tables]))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: bytes }).toString('utf8')) as string[][][];
}

/** The body paragraphs of a DOCX (outside tables) as python-docx reads them. */
function docxParagraphs(bytes: Buffer): string[] {
  const script = 'import sys, json, io, docx\nprint(json.dumps([p.text for p in docx.Document(io.BytesIO(sys.stdin.buffer.read())).paragraphs]))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: bytes }).toString('utf8')) as string[];
}

/** The sheets of an XLSX as openpyxl reads them, each as rows of cell values (as text). */
function xlsxSheets(bytes: Buffer): string[][][] {
  const script = `
import sys, json, io, openpyxl
wb = openpyxl.load_workbook(io.BytesIO(sys.stdin.buffer.read()))
print(json.dumps([[["" if v is None else str(v) for v in row] for row in ws.iter_rows(values_only=True)] for ws in wb.worksheets]))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: bytes }).toString('utf8')) as string[][][];
}

/** A CSV as Python's csv module reads it. */
function csvRows(text: string): string[][] {
  const script = 'import sys, csv, json, io\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: text }).toString('utf8')) as string[][];
}

/** Figures as the XLSX writes them (numbers as numbers: "1,200" is 1200). */
const asSheet = (rows: string[][]) => rows.map((r) => r.map((c) => (/^[\d,]+$/.test(c) ? String(Number(c.replace(/,/g, ''))) : c)));

describe('export of tables without rules whose cells wrap', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const html = '/documents/wrapped/projects.pdf';
  const word = '/documents/wrapped/word.pdf';
  const between = '/documents/wrapped/between.pdf';

  test('the ground truth uploads: an HTML page through Chromium, a Word document through LibreOffice; no ruling lines, and the cells really wrap', async () => {
    const put = await call(server, 'PUT', html, { body: Buffer.from(HTML), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
    const putWord = await call(server, 'PUT', word, { body: WORD, headers: { 'content-type': DOCX, prefer: 'wait=300' } });
    assert.equal(putWord.status, 201, putWord.text);
    for (const path of [html, word]) {
      const printed = execFileSync('pdftotext', ['-layout', '-', '-'], { input: (await call(server, 'GET', path)).bytes }).toString('utf8');
      // No line of the printed page holds a long cell whole: it wraps.
      for (const long of [PROJECTS[1]![3]!, PROJECTS[2]![0]!, PROJECTS[4]![1]!, PROJECTS[4]![3]!]) assert.ok(!printed.includes(long), `${long} does not wrap:\n${printed}`);
    }
  });

  test('DOCX (python-docx): each table row for row and cell for cell as the source, wrapped cells whole; the tight figures not joined', async () => {
    const reply = await call(server, 'GET', `${html}/export?format=docx`);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(docxTables(reply.bytes), [PROJECTS, PROJECTS, PROJECTS, FIGURES]);
    const fromWord = await call(server, 'GET', `${word}/export?format=docx`);
    assert.equal(fromWord.status, 200, fromWord.text);
    assert.deepEqual(docxTables(fromWord.bytes), [PROJECTS, ITEMS]);
  });

  test('JSON: the paragraphs around each table stay paragraphs, a short one right under a table too', async () => {
    const reply = await call(server, 'GET', `${word}/export`);
    assert.equal(reply.status, 200, reply.text);
    const blocks = (reply.json() as { pages: { blocks: { type: string; text?: string; rows?: { text: string }[][] }[] }[] }).pages[0]!.blocks;
    assert.deepEqual(
      blocks.map((b) => (b.type === 'table' ? b.rows!.map((r) => r.map((c) => c.text)) : `${b.type}:${b.text}`)),
      ['paragraph:The projects of the year follow.', PROJECTS, `paragraph:${CLOSING}`, ITEMS, 'paragraph:End.'],
    );
  });

  test('XLSX (openpyxl) and CSV (csv module): the same rows and cells', async () => {
    const xlsx = await call(server, 'GET', `${html}/export?format=xlsx`);
    assert.equal(xlsx.status, 200, xlsx.text);
    assert.deepEqual(xlsxSheets(xlsx.bytes), [asSheet(PROJECTS), asSheet(PROJECTS), asSheet(PROJECTS), asSheet(FIGURES)]);
    for (const [n, truth] of [PROJECTS, PROJECTS, PROJECTS, FIGURES].entries()) {
      const csv = await call(server, 'GET', `${html}/export?format=csv&table=${n + 1}`);
      assert.equal(csv.status, 200, csv.text);
      assert.deepEqual(csvRows(csv.text), truth);
    }
    const csv = await call(server, 'GET', `${word}/export?format=csv`);
    assert.deepEqual(csvRows(csv.text), PROJECTS);
  });

  test('a one-line paragraph between two tables without rules, set with no space: a paragraph, the tables apart (JSON, Markdown, DOCX)', async () => {
    const put = await call(server, 'PUT', between, { body: WORD_BETWEEN, headers: { 'content-type': DOCX, prefer: 'wait=300' } });
    assert.equal(put.status, 201, put.text);
    const pdf = (await call(server, 'GET', between)).bytes;
    // As printed: the line right under the first table's last row and right above the second table's head (pdftotext
    // -layout leaves no empty line between them), and within the first column.
    const printed = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8').split('\n').map((l) => l.trim());
    const at = printed.findIndex((l) => l === BETWEEN);
    assert.ok(at > 0 && printed[at - 1]!.startsWith(PARTS[3]![0]!) && printed[at + 1]!.startsWith(TOOLS[0]![0]!), printed.join('\n'));
    const json = await call(server, 'GET', `${between}/export`);
    assert.equal(json.status, 200, json.text);
    const blocks = (json.json() as { pages: { blocks: { type: string; text?: string; rows?: { text: string }[][] }[] }[] }).pages[0]!.blocks;
    assert.deepEqual(
      blocks.map((b) => (b.type === 'table' ? b.rows!.map((r) => r.map((c) => c.text)) : `${b.type}:${b.text}`)),
      ['paragraph:The parts and tools of the repairs.', PARTS, `paragraph:${BETWEEN}`, TOOLS, 'paragraph:End.'],
    );
    const md = await call(server, 'GET', `${between}/export?format=markdown`);
    assert.equal(md.status, 200, md.text);
    const mdLines = md.text.split('\n');
    const line = mdLines.indexOf(BETWEEN);
    assert.ok(line > 0, md.text);
    assert.equal(mdLines[line - 2], `| ${PARTS[3]!.join(' | ')} |`, md.text);
    assert.equal(mdLines[line + 2], `| ${TOOLS[0]!.join(' | ')} |`, md.text);
    const docxReply = await call(server, 'GET', `${between}/export?format=docx`);
    assert.equal(docxReply.status, 200, docxReply.text);
    assert.deepEqual(docxTables(docxReply.bytes), [PARTS, TOOLS]);
    assert.ok(docxParagraphs(docxReply.bytes).includes(BETWEEN));
  });
});
