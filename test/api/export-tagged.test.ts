/**
 * Export of tagged PDFs from their structure tree (docs/export.md, "Tagged PDF"), over HTTP against the real server.
 * The ground truth is written here: an HTML page printed by the service's HTML upload (Chromium, tagged by default)
 * with headings, a bulleted and a numbered list, a ruled table whose head has a cell two rows high and one two columns
 * wide, a table without rules whose cells are sentences, and an image with alt text. The same page uploaded with
 * `tagged=false` shows what the layout analysis makes of it (a heading set at body size is a paragraph, the table of
 * sentences running text); the tagged one gets both right. A copy whose page lost /StructParents (pikepdf) falls
 * back to the layout analysis and says so. DOCX read by python-docx, Markdown as text, JSON as the model.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call } from '../helpers/http.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
/** Debian's Python, which has python3-docx and python3-pikepdf (scripts/setup.sh). */
const PYTHON = '/usr/bin/python3';

/** Sentences in every cell: each cell five words or more, which the layout analysis takes for running text. */
const PROSE = [
  ['Step', 'What happens'],
  ['The request arrives at the gate', 'The guard checks the badge of every visitor'],
  ['The visitor waits in the hall', 'Someone from the team comes down to fetch them'],
];

const HTML = `<!DOCTYPE html><html lang="en"><head><title>Annual report</title><style>
body { font-family: serif; font-size: 12pt } table.ruled td, table.ruled th { border: 1px solid black; padding: 4px } table.ruled { border-collapse: collapse }
h2.plain { font-size: 12pt; font-weight: normal; margin: 0.5em 0 } table.open { width: 100% } table.open td, table.open th { text-align: left; padding: 2px 10px }
</style></head><body>
<h1>Annual report</h1>
<p>Revenue grew in every region, and the costs fell.</p>
<h2 class="plain">Regions</h2>
<ul><li>North</li><li>South</li></ul>
<ol><li>Plan the year</li><li>Count the money</li></ol>
<table class="ruled"><tr><th rowspan="2">Region</th><th colspan="2">First half</th></tr><tr><th>Q1</th><th>Q2</th></tr>
<tr><td>North</td><td>10</td><td>12</td></tr><tr><td>South</td><td>20</td><td>22</td></tr></table>
<h2>Visits</h2>
<table class="open">${PROSE.map((r, i) => `<tr>${r.map((c) => (i === 0 ? `<th>${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`).join('')}</table>
<p><img alt="A green square" width="60" height="60" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC"></p>
<p>That is all.</p>
</body></html>`;

interface Block {
  type: string;
  text?: string;
  level?: number;
  ordered?: boolean;
  alt?: string;
  rows?: { text: string; rowSpan: number; colSpan: number }[][];
}
interface Model {
  pages: { source: string; structureUnused?: string; blocks: Block[] }[];
  warnings: string[];
}

/** A block as one comparable value: a table as its rows of [text, rowSpan, colSpan], the rest as type, level and text. */
const shape = (b: Block) =>
  b.type === 'table'
    ? b.rows!.map((r) => r.map((c) => [c.text, c.rowSpan, c.colSpan]))
    : b.type === 'image'
      ? `image:${b.alt ?? ''}`
      : `${b.type}${b.level ? b.level : ''}${b.ordered ? '#' : ''}:${b.text}`;

const one = (rows: string[][]) => rows.map((r) => r.map((c) => [c, 1, 1]));

/** The blocks the tree gives, in its order. */
const TRUTH = [
  'heading1:Annual report',
  'paragraph:Revenue grew in every region, and the costs fell.',
  'heading2:Regions',
  'listItem:North',
  'listItem:South',
  'listItem#:Plan the year',
  'listItem#:Count the money',
  [
    [['Region', 2, 1], ['First half', 1, 2]],
    [['Q1', 1, 1], ['Q2', 1, 1]],
    [['North', 1, 1], ['10', 1, 1], ['12', 1, 1]],
    [['South', 1, 1], ['20', 1, 1], ['22', 1, 1]],
  ],
  'heading2:Visits',
  one(PROSE),
  'image:A green square',
  'paragraph:That is all.',
];

/** The DOCX as python-docx reads it: each paragraph's style and text, and each table's rows of cell texts. */
function docxContent(bytes: Buffer): { paragraphs: [string, string][]; tables: string[][][] } {
  const script = `
import sys, json, io, docx
d = docx.Document(io.BytesIO(sys.stdin.buffer.read()))
print(json.dumps({"paragraphs": [[p.style.name, p.text] for p in d.paragraphs if p.text.strip()],
  "tables": [[[c.text for c in r.cells] for r in t.rows] for t in d.tables]}))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: bytes }).toString('utf8')) as { paragraphs: [string, string][]; tables: string[][][] };
}

describe('export of tagged PDFs from their structure tree', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const tagged = '/documents/tagged-export/report.pdf';
  const untagged = '/documents/tagged-export/untagged.pdf';
  const broken = '/documents/tagged-export/no-struct-parents.pdf';

  test('the ground truth uploads: tagged by default (a StructTreeRoot, pikepdf), and untagged with tagged=false', async () => {
    for (const [path, query] of [[tagged, ''], [untagged, '?tagged=false']] as const) {
      const put = await call(server, 'PUT', `${path}${query}`, { body: Buffer.from(HTML), headers: { 'content-type': 'text/html' } });
      assert.equal(put.status, 201, put.text);
    }
    const hasTree = (bytes: Buffer) =>
      execFileSync(PYTHON, ['-c', 'import sys, io, pikepdf; print("/StructTreeRoot" in pikepdf.open(io.BytesIO(sys.stdin.buffer.read())).Root)'], { input: bytes }).toString('utf8').trim();
    assert.equal(hasTree((await call(server, 'GET', tagged)).bytes), 'True');
    assert.equal(hasTree((await call(server, 'GET', untagged)).bytes), 'False');
  });

  test('JSON: every block from the tree, in its order; headings with their level, lists, spans, the table of sentences, the alt text', async () => {
    const reply = await call(server, 'GET', `${tagged}/export`);
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json() as Model;
    assert.equal(model.pages.length, 1);
    assert.equal(model.pages[0]!.source, 'structure');
    assert.deepEqual(model.pages[0]!.blocks.map(shape), TRUTH);
    assert.deepEqual(model.warnings, []);
  });

  test('the layout analysis gets the same page wrong: the untagged copy loses the plain heading and the table of sentences', async () => {
    const reply = await call(server, 'GET', `${untagged}/export`);
    assert.equal(reply.status, 200, reply.text);
    const page = (reply.json() as Model).pages[0]!;
    assert.equal(page.source, 'layout');
    assert.equal(page.structureUnused, undefined);
    const shapes = page.blocks.map(shape);
    assert.ok(!shapes.includes('heading2:Regions'), JSON.stringify(shapes));
    assert.ok(!page.blocks.some((b) => b.type === 'table' && JSON.stringify(b.rows).includes(PROSE[1]![0]!)), JSON.stringify(shapes));
  });

  test('DOCX (python-docx): heading styles and levels, list and body paragraphs, the merged head cells, the table of sentences', async () => {
    const reply = await call(server, 'GET', `${tagged}/export?format=docx`);
    assert.equal(reply.status, 200, reply.text);
    const { paragraphs, tables } = docxContent(reply.bytes);
    const styled = (text: string) => paragraphs.find(([, t]) => t === text)?.[0];
    assert.equal(styled('Annual report'), 'Heading 1');
    assert.equal(styled('Regions'), 'Heading 2');
    assert.equal(styled('Visits'), 'Heading 2');
    assert.match(styled('North') ?? '', /List/u);
    assert.match(styled('Plan the year') ?? '', /List/u);
    assert.equal(styled('Revenue grew in every region, and the costs fell.'), 'Normal');
    // A merged cell is one cell object over the positions it covers: python-docx gives its text at each of them.
    assert.deepEqual(tables, [
      [
        ['Region', 'First half', 'First half'],
        ['Region', 'Q1', 'Q2'],
        ['North', '10', '12'],
        ['South', '20', '22'],
      ],
      PROSE,
    ]);
  });

  test('Markdown: headings by level, both lists, the tables, the image by its alt text', async () => {
    const reply = await call(server, 'GET', `${tagged}/export?format=markdown`);
    assert.equal(reply.status, 200, reply.text);
    const md = reply.text;
    for (const line of ['# Annual report', '## Regions', '- North', '- South', '1. Plan the year', '2. Count the money', '## Visits', '| North | 10 | 12 |', `| ${PROSE[1]![0]} | ${PROSE[1]![1]} |`])
      assert.ok(md.split('\n').includes(line), `${line} missing in:\n${md}`);
    assert.match(md, /!\[A green square\]\(#page-1-image-1\)/u);
    assert.ok(md.indexOf('# Annual report') < md.indexOf('## Regions') && md.indexOf('## Regions') < md.indexOf('## Visits'));
  });

  test('a page without /StructParents (pikepdf) falls back to the layout analysis and says so', async () => {
    const script = `
import sys, io, pikepdf
pdf = pikepdf.open(io.BytesIO(sys.stdin.buffer.read()))
del pdf.pages[0].obj["/StructParents"]
out = io.BytesIO(); pdf.save(out); sys.stdout.buffer.write(out.getvalue())`;
    const bytes = execFileSync(PYTHON, ['-c', script], { input: (await call(server, 'GET', tagged)).bytes });
    const put = await call(server, 'PUT', broken, { body: bytes, headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201, put.text);
    const reply = await call(server, 'GET', `${broken}/export`);
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json() as Model;
    assert.equal(model.pages[0]!.source, 'layout');
    assert.match(model.pages[0]!.structureUnused ?? '', /StructParents/u);
    assert.match(model.warnings.join('\n'), /structure tree was not used for page 1/u);
    // The layout analysis still reads the page: its first heading and the ruled table's figures.
    assert.equal(shape(model.pages[0]!.blocks[0]!), 'heading1:Annual report');
    assert.ok(model.pages[0]!.blocks.some((b) => b.type === 'table' && JSON.stringify(b.rows).includes('"22"')));
  });
});
