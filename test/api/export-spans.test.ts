/**
 * Merged cells in exported tables (docs/export.md, "Merged cells"), over HTTP against the real server. The ground truth
 * is an HTML table with colspan and rowspan (a two-row head, a cell down two body rows, a cell across three columns),
 * printed to PDF by the service's own HTML upload (Chromium), whose ruling lines leave out the edges inside merged
 * cells. The DOCX is read by python-docx, the workbook by openpyxl, the HTML by Python's html.parser, the Markdown by
 * markdown-it and the CSV by Python's csv: none of them the service's code.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { call } from '../helpers/http.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** Debian's Python, which has python3-docx and python3-openpyxl (scripts/setup.sh). */
const PYTHON = '/usr/bin/python3';

/** The table as HTML writes it: each row's cells with their spans (the cells that start in the row). */
type Cell = [text: string, rowSpan: number, colSpan: number];
const ROWS: Cell[][] = [
  [['Region', 2, 1], ['Year 2025', 1, 2], ['Notes', 2, 1]],
  [['Q1', 1, 1], ['Q2', 1, 1]],
  [['North', 1, 1], ['10', 1, 1], ['12', 1, 1], ['Both grew', 2, 1]],
  [['South', 1, 1], ['20', 1, 1], ['22', 1, 1]],
  [['All regions together', 1, 3], ['64', 1, 1]],
];
/** The grid: a merged cell's text at its top left, the positions it covers empty (Markdown, CSV, XLSX). */
const GRID = [
  ['Region', 'Year 2025', '', 'Notes'],
  ['', 'Q1', 'Q2', ''],
  ['North', '10', '12', 'Both grew'],
  ['South', '20', '22', ''],
  ['All regions together', '', '', '64'],
];

const cellHtml = (tag: string, [text, rowSpan, colSpan]: Cell) =>
  `<${tag}${rowSpan > 1 ? ` rowspan="${rowSpan}"` : ''}${colSpan > 1 ? ` colspan="${colSpan}"` : ''}>${text}</${tag}>`;
const GROUND_TRUTH = `<!DOCTYPE html><html><head><title>Spans</title><style>
body { font-family: serif; font-size: 12pt } table { border-collapse: collapse } td, th { border: 1px solid black; padding: 4px 12px }
</style></head><body>
<h1>Regional figures</h1><p>The table has merged cells.</p>
<table><thead>${ROWS.slice(0, 2).map((r) => `<tr>${r.map((c) => cellHtml('th', c)).join('')}</tr>`).join('')}</thead>
<tbody>${ROWS.slice(2).map((r) => `<tr>${r.map((c) => cellHtml('td', c)).join('')}</tr>`).join('')}</tbody></table>
<p>The end of the figures.</p>
</body></html>`;

const work = mkdtempSync(path.join(tmpdir(), 'pdfservice-spans-'));
after(() => rmSync(work, { recursive: true, force: true }));

function python(script: string, input: Buffer | string, suffix: string): unknown {
  const file = path.join(work, `in-${Math.random().toString(36).slice(2)}${suffix}`);
  writeFileSync(file, input);
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file]).toString('utf8'));
}

/** Each row of the DOCX's table as python-docx reads its w:tc elements: text, gridSpan and vMerge ("restart", "continue" or null). */
const readDocx = (bytes: Buffer) =>
  python(
    `
import sys, json, docx
d = docx.Document(sys.argv[1])
t = d.tables[0]
rows = []
for tr in t._tbl.tr_lst:
    cells = []
    for tc in tr.tc_lst:
        text = ''.join(p.text for p in docx.table._Cell(tc, t).paragraphs)
        cells.append([text, tc.grid_span, tc.vMerge])
    rows.append({'cells': cells, 'header': tr.trPr is not None and tr.trPr.find(docx.oxml.ns.qn('w:tblHeader')) is not None})
print(json.dumps({'tables': len(d.tables), 'rows': rows}))`,
    bytes,
    '.docx',
  ) as { tables: number; rows: { cells: [string, number, string | null][]; header: boolean }[] };

/** The first sheet as openpyxl reads it: values, merged ranges, bold cells of the first two rows, the frozen panes. */
const readXlsx = (bytes: Buffer) =>
  python(
    `
import sys, json, openpyxl
ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
rows = [['' if c.value is None else str(c.value) for c in r] for r in ws.iter_rows()]
print(json.dumps({'rows': rows, 'merged': sorted(str(m) for m in ws.merged_cells.ranges), 'freeze': ws.freeze_panes,
                  'bold': [bool(ws.cell(row=r, column=c).font.b) for r in (1, 2, 3) for c in (2,)]}))`,
    bytes,
    '.xlsx',
  ) as { rows: string[][]; merged: string[]; freeze: string | null; bold: boolean[] };

/** The tables of an HTML document as html.parser reads them: per row, [text, rowspan, colspan, tag]. */
const readHtml = (html: string) =>
  python(
    `
import sys, json
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.t=[]; self.cur=None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table': self.t.append([])
        if tag == 'tr': self.t[-1].append([])
        if tag in ('th', 'td'): self.cur = ['', int(a.get('rowspan', 1)), int(a.get('colspan', 1)), tag]
    def handle_data(self, data):
        if self.cur is not None: self.cur[0] += data
    def handle_endtag(self, tag):
        if tag in ('th', 'td') and self.cur is not None: self.t[-1][-1].append(self.cur); self.cur = None
p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read()); p.close()
print(json.dumps(p.t))`,
    html,
    '.html',
  ) as [string, number, number, string][][][];

describe('export of merged cells', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const doc = '/documents/spans/regions.pdf';

  test('the ground truth uploads through the HTML converter', async () => {
    const put = await call(server, 'PUT', doc, { body: Buffer.from(GROUND_TRUTH), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
  });

  test('JSON: the merged cells with their rowSpan and colSpan, each in the row where it starts, the text around the table apart', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=json`);
    assert.equal(reply.status, 200, reply.text);
    const blocks = (reply.json() as { pages: { blocks: { type: string; text?: string; rows?: { text: string; rowSpan: number; colSpan: number }[][] }[] }[] }).pages[0]!.blocks;
    assert.deepEqual(blocks.map((b) => b.type), ['heading', 'paragraph', 'table', 'paragraph']);
    assert.deepEqual(blocks[2]!.rows!.map((r) => r.map((c): Cell => [c.text, c.rowSpan, c.colSpan])), ROWS);
  });

  test('DOCX: gridSpan for the cells across columns, vMerge restart and continue down rows, the two head rows repeated (python-docx)', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=docx`);
    assert.equal(reply.status, 200, reply.text);
    const { tables, rows } = readDocx(reply.bytes);
    assert.equal(tables, 1);
    assert.deepEqual(rows.map((r) => r.cells), [
      [['Region', 1, 'restart'], ['Year 2025', 2, null], ['Notes', 1, 'restart']],
      [['', 1, 'continue'], ['Q1', 1, null], ['Q2', 1, null], ['', 1, 'continue']],
      [['North', 1, null], ['10', 1, null], ['12', 1, null], ['Both grew', 1, 'restart']],
      [['South', 1, null], ['20', 1, null], ['22', 1, null], ['', 1, 'continue']],
      [['All regions together', 3, null], ['64', 1, null]],
    ]);
    assert.deepEqual(rows.map((r) => r.header), [true, true, false, false, false]);
  });

  test('XLSX: merged ranges, the value at their top left, the two head rows bold and frozen (openpyxl)', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=xlsx`);
    assert.equal(reply.status, 200, reply.text);
    const sheet = readXlsx(reply.bytes);
    assert.deepEqual(sheet.rows, GRID);
    assert.deepEqual(sheet.merged, ['A1:A2', 'A5:C5', 'B1:C1', 'D1:D2', 'D3:D4']);
    assert.equal(sheet.freeze, 'A3');
    assert.deepEqual(sheet.bold, [true, true, false]);
  });

  test('HTML: th and td with rowspan and colspan, the two head rows as th', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=html`);
    assert.equal(reply.status, 200, reply.text);
    const [table] = readHtml(reply.text);
    assert.deepEqual(table, ROWS.map((r, i) => r.map(([text, rowSpan, colSpan]) => [text, rowSpan, colSpan, i < 2 ? 'th' : 'td'])));
  });

  test('Markdown and CSV (no merged cells in either): the text at the top left, the positions a cell covers empty', async () => {
    const markdown = await call(server, 'GET', `${doc}/export?format=markdown`);
    assert.equal(markdown.status, 200, markdown.text);
    const html = new MarkdownIt().render(markdown.text);
    assert.deepEqual(readHtml(html)[0]!.map((r) => r.map((c) => c[0])), GRID);
    const csv = await call(server, 'GET', `${doc}/export?format=csv`);
    assert.equal(csv.status, 200, csv.text);
    const records = JSON.parse(execFileSync(PYTHON, ['-c', 'import sys, csv, io, json; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))'], { input: csv.text }).toString('utf8')) as string[][];
    assert.deepEqual(records, GRID);
  });

  test('PDFUAConvertAction tags the head rows as TH and a merged cell with /RowSpan and /ColSpan (pdfinfo -struct)', async () => {
    const reply = await call(server, 'POST', doc, { body: { PDFUAConvertAction: { retag: true, savePath: 'spans/tagged.pdf' } }, headers: { prefer: 'wait=300' } });
    assert.ok(reply.status === 200 || reply.status === 201, reply.text);
    const tagged = (await call(server, 'GET', '/documents/spans/tagged.pdf')).bytes;
    const file = path.join(work, 'tagged.pdf');
    writeFileSync(file, tagged);
    // Each TH/TD element with its attributes, as poppler prints the tree (an element's line, then its attributes indented).
    const cells: { type: string; attributes: string[] }[] = [];
    for (const line of execFileSync('pdfinfo', ['-struct', file], { encoding: 'utf8' }).split('\n')) {
      const element = /^\s*(TH|TD)\b/u.exec(line);
      if (element) cells.push({ type: element[1]!, attributes: [] });
      else if (/^\s*\/(RowSpan|ColSpan) \d+/u.test(line)) cells.at(-1)!.attributes.push(line.trim());
      else if (/^\s*(TR|Table|P|H\d)\b/u.test(line)) cells.push({ type: 'other', attributes: [] });
    }
    const tableCells = cells.filter((c) => c.type !== 'other');
    assert.deepEqual(tableCells, ROWS.flatMap((row, r) => row.map(([, rowSpan, colSpan]) => ({
      type: r < 2 ? 'TH' : 'TD',
      attributes: [...(rowSpan > 1 ? [`/RowSpan ${rowSpan}`] : []), ...(colSpan > 1 ? [`/ColSpan ${colSpan}`] : [])],
    }))));
  });
});
