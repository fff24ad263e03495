/**
 * Export to JSON, Markdown and HTML (docs/export.md), over HTTP against the real server. The ground truth is an HTML
 * page written here (headings, paragraphs, a list, a 3x4 table), converted by the service's own HTML upload (Chromium);
 * the Markdown is read by markdown-it (GFM tables) and the HTML by Python's html.parser, not by the service's code.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { exportRefusals } from '../helpers/export-refusals.js';
import { call } from '../helpers/http.js';
import { docx } from '../helpers/office-fixtures.js';
import { serverForSuite } from '../helpers/server.js';

const CHROMIUM = '/usr/lib/chromium/chromium';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A ruled table in a Word document (single borders on every edge), one cell long enough to wrap within its column. */
const RULED = [
  ['Site', 'Budget', 'Notes'],
  ['North', '1,250', 'Opened in the spring after a long delay caused by the planning authority and the weather'],
  ['South', '980', 'Unchanged'],
  ['East', '2,400', 'New'],
];
const wordParagraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const RULED_DOCX = docx(
  wordParagraph('The figures of the year follow.') +
    '<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>' +
    ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((edge) => `<w:${edge} w:val="single" w:sz="4" w:space="0" w:color="000000"/>`).join('') +
    '</w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/><w:gridCol w:w="5000"/></w:tblGrid>' +
    RULED.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${wordParagraph(cell)}</w:tc>`).join('')}</w:tr>`).join('') +
    '</w:tbl>' +
    wordParagraph('That is all for this year.'),
);

const HEADINGS = ['Annual Report', 'Highlights', 'Figures'];
const PARAGRAPH =
  'This report describes the results of the year. It contains enough words to wrap over more than one line of the printed page, so that the export must join its lines into one paragraph again.';
const ITEMS = ['Revenue grew strongly', 'Costs fell', 'New markets opened'];
const TABLE = [
  ['Region', 'Q1', 'Q2', 'Q3'],
  ['North', '10', '12', '14'],
  ['South', '20', '22', '24'],
];
const CLOSING = 'Closing remarks follow the table.';

const GROUND_TRUTH = `<!DOCTYPE html><html><head><title>Report</title><style>
body { font-family: serif; font-size: 12pt } table { border-collapse: collapse } td, th { border: 1px solid black; padding: 4px }
.running { position: fixed; top: 0; font-size: 9pt } section + section { page-break-before: always }
</style></head><body>
<div class="running">ACME Confidential</div>
<section><h1>${HEADINGS[0]}</h1><p>${PARAGRAPH}</p><h2>${HEADINGS[1]}</h2><ul>${ITEMS.map((i) => `<li>${i}</li>`).join('')}</ul></section>
<section><h2>${HEADINGS[2]}</h2><table><tr>${TABLE[0]!.map((c) => `<th>${c}</th>`).join('')}</tr>${TABLE.slice(1)
  .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
  .join('')}</table><p>${CLOSING}</p></section>
<section><p>The last page.</p></section>
</body></html>`;

/** The tables of an HTML document, and its headings, read by Python's own parser. */
function parseHtml(html: string): { headings: [string, string][]; tables: string[][][]; lists: string[][] } {
  const script = `
import sys, json
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.h=[]; self.t=[]; self.l=[]; self.cur=None; self.tag=None
    def handle_starttag(self, tag, attrs):
        if tag in ('h1','h2','h3','h4','h5','h6','th','td','li'): self.tag=tag; self.cur=''
        if tag=='table': self.t.append([])
        if tag=='tr': self.t[-1].append([])
        if tag in ('ul','ol'): self.l.append([])
    def handle_data(self, data):
        if self.cur is not None: self.cur += data
    def handle_endtag(self, tag):
        if tag != self.tag or self.cur is None: return
        if tag in ('th','td'): self.t[-1][-1].append(self.cur)
        elif tag=='li': self.l[-1].append(self.cur)
        else: self.h.append([tag, self.cur])
        self.cur=None; self.tag=None
p=P(); p.feed(sys.stdin.read()); p.close()
print(json.dumps({'headings': p.h, 'tables': p.t, 'lists': p.l}))`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: html }).toString('utf8')) as ReturnType<typeof parseHtml>;
}

/** The GFM tables, headings and list items of a Markdown text, as markdown-it reads them. */
function parseMarkdown(markdown: string): ReturnType<typeof parseHtml> {
  return parseHtml(new MarkdownIt().render(markdown));
}

describe('export', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: apt-get install chromium` }, () => {
  const server = serverForSuite({ env: { PDFSERVICE_CHROMIUM_INSTANCES: '1' } });
  const doc = '/documents/export/report.pdf';
  let stored: Buffer;

  test('the ground truth uploads through the HTML converter', async () => {
    const put = await call(server, 'PUT', doc, { body: Buffer.from(GROUND_TRUTH), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
    stored = (await call(server, 'GET', doc)).bytes;
    assert.equal(execFileSync('pdfinfo', ['-'], { input: stored }).toString('utf8').match(/Pages:\s+(\d+)/)?.[1], '3');
  });

  test('Markdown: the headings in order, the paragraph joined, the list, and the table cell for cell; the running header left out', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=markdown`);
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/markdown; charset=utf-8/);
    const md = parseMarkdown(reply.text);
    assert.deepEqual(md.headings, [['h1', HEADINGS[0]], ['h2', HEADINGS[1]], ['h2', HEADINGS[2]]]);
    assert.deepEqual(md.tables, [TABLE]);
    assert.deepEqual(md.lists, [ITEMS]);
    assert.ok(reply.text.includes(PARAGRAPH), reply.text);
    assert.doesNotMatch(reply.text, /ACME Confidential/);
    // By Accept instead of ?format=: the same export.
    const byAccept = await call(server, 'GET', `${doc}/export`, { headers: { accept: 'text/markdown' } });
    assert.equal(byAccept.text, reply.text);
  });

  test("JSON: the blocks' reading order is the source's; the table has rows and cells; the running header is counted as removed", async () => {
    const reply = await call(server, 'GET', `${doc}/export`);
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json() as { pageCount: number; pages: { pageIndex: number; blocks: { type: string; text?: string; level?: number; rows?: { text: string }[][]; rectangle: { x: number; y: number } }[] }[]; removed: { runningLines: number } };
    assert.equal(model.pageCount, 3);
    const sequence = model.pages.flatMap((p) => p.blocks.map((b) => (b.type === 'table' ? `table:${JSON.stringify(b.rows!.map((r) => r.map((c) => c.text)))}` : `${b.type}${b.level ?? ''}:${b.text}`)));
    assert.deepEqual(sequence, [
      `heading1:${HEADINGS[0]}`,
      `paragraph:${PARAGRAPH}`,
      `heading2:${HEADINGS[1]}`,
      ...ITEMS.map((i) => `listItem:${i}`),
      `heading2:${HEADINGS[2]}`,
      `table:${JSON.stringify(TABLE)}`,
      `paragraph:${CLOSING}`,
      'paragraph:The last page.',
    ]);
    assert.equal(model.removed.runningLines, 3);
    // Boxes in PDF user space: the first heading lies above the paragraph (y grows upwards).
    const [h1, p] = model.pages[0]!.blocks;
    assert.ok(h1!.rectangle.y > p!.rectangle.y);
  });

  test('HTML: it parses, with the headings, the list and the table (header cells as th)', async () => {
    const reply = await call(server, 'GET', `${doc}/export?format=html`);
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    const html = parseHtml(reply.text);
    assert.deepEqual(html.headings, [['h1', HEADINGS[0]], ['h2', HEADINGS[1]], ['h2', HEADINGS[2]]]);
    assert.deepEqual(html.tables, [TABLE]);
    assert.deepEqual(html.lists, [ITEMS]);
    assert.match(reply.text, /<th>Region<\/th>/);
    // A page range: the second page only. The document is tagged: its heading keeps the level of its H2 element.
    const some = parseHtml((await call(server, 'GET', `${doc}/export?format=html&pageRange=2`)).text);
    assert.deepEqual(some.headings, [['h2', HEADINGS[2]]]);
    // Untagged, levels rank the sizes of the pages exported, so its one heading is h1.
    const untagged = `${doc.replace(/\.pdf$/u, '')}-untagged.pdf`;
    const put = await call(server, 'PUT', `${untagged}?tagged=false`, { body: Buffer.from(GROUND_TRUTH), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
    const layout = parseHtml((await call(server, 'GET', `${untagged}/export?format=html&pageRange=2`)).text);
    assert.deepEqual(layout.headings, [['h1', HEADINGS[2]]]);
    assert.deepEqual(some.tables, [TABLE]);
  });

  test('bad input: a range past the end or malformed, an unknown format, an Accept it cannot meet; the stored document unchanged', async () => {
    const past = await call(server, 'GET', `${doc}/export?format=markdown&pageRange=4`);
    assert.equal(past.status, 400, past.text);
    assert.equal(past.json().code, 'PAGE_OUT_OF_RANGE');
    const malformed = await call(server, 'GET', `${doc}/export?pageRange=3-1`);
    assert.equal(malformed.status, 400, malformed.text);
    assert.equal(malformed.json().code, 'INVALID_PAGE_RANGE');
    const format = await call(server, 'GET', `${doc}/export?format=rtf`);
    assert.equal(format.status, 400, format.text);
    const accept = await call(server, 'GET', `${doc}/export`, { headers: { accept: 'image/png' } });
    assert.equal(accept.status, 406, accept.text);
    const clash = await call(server, 'GET', `${doc}/export?format=html`, { headers: { accept: 'application/json' } });
    assert.equal(clash.status, 406, clash.text);
    assert.deepEqual((await call(server, 'GET', doc)).bytes, stored);
  });

  test('a document without text is 422 NO_TEXT naming OCRAction; an encrypted one needs its password', async () => {
    const right = await exportRefusals(server, '/documents/export', 'markdown');
    assert.match(right.text, /Secret minutes/);
  });

  test('a ruled table printed by LibreOffice (a Word document): its cells from the drawn grid, a wrapped cell whole, the paragraphs around it apart', async () => {
    const put = await call(server, 'PUT', '/documents/export/ruled.pdf', { body: RULED_DOCX, headers: { 'content-type': DOCX, prefer: 'wait=300' } });
    assert.equal(put.status, 201, put.text);
    // The wrapped cell really wraps on the printed page (else this would not test rows taken from the rules).
    const printed = execFileSync('pdftotext', ['-layout', '-', '-'], { input: (await call(server, 'GET', '/documents/export/ruled.pdf')).bytes }).toString('utf8');
    assert.ok(!printed.split('\n').some((line) => line.includes(RULED[1]![2]!)), printed);
    const reply = await call(server, 'GET', '/documents/export/ruled.pdf/export');
    assert.equal(reply.status, 200, reply.text);
    const blocks = (reply.json() as { pages: { blocks: { type: string; text?: string; rows?: { text: string }[][] }[] }[] }).pages[0]!.blocks;
    assert.deepEqual(
      blocks.map((b) => (b.type === 'table' ? b.rows!.map((r) => r.map((c) => c.text)) : `${b.type}:${b.text}`)),
      ['paragraph:The figures of the year follow.', RULED, 'paragraph:That is all for this year.'],
    );
  });

  test('ETag by version and options: If-None-Match answers 304', async () => {
    const first = await call(server, 'GET', `${doc}/export?format=markdown`);
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    const again = await call(server, 'GET', `${doc}/export?format=markdown`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.notEqual((await call(server, 'GET', `${doc}/export?format=html`)).headers.get('etag'), etag);
  });

  test('every format: 304 for its ETag, with the headers of the other read models (ETag, Vary, Cache-Control)', async () => {
    // A read model answered by sendVersionedModel, for the headers every versioned representation carries.
    const pages = await call(server, 'GET', `${doc}/pages`);
    assert.equal(pages.status, 200, pages.text);
    const model = { vary: pages.headers.get('vary'), cacheControl: pages.headers.get('cache-control') };
    assert.deepEqual(model, { vary: 'Accept', cacheControl: 'private, no-cache' });
    const etags = new Set<string>();
    for (const format of ['json', 'markdown', 'html', 'docx', 'xlsx', 'csv']) {
      const first = await call(server, 'GET', `${doc}/export?format=${format}`);
      assert.equal(first.status, 200, `${format}: ${first.text}`);
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^W\/"/u, format);
      etags.add(etag);
      assert.deepEqual({ vary: first.headers.get('vary'), cacheControl: first.headers.get('cache-control') }, model, format);
      const again = await call(server, 'GET', `${doc}/export?format=${format}`, { headers: { 'if-none-match': `"other", ${etag}` } });
      assert.equal(again.status, 304, `${format}: ${again.text}`);
      assert.equal(again.bytes.length, 0);
      assert.deepEqual({ etag: again.headers.get('etag'), vary: again.headers.get('vary'), cacheControl: again.headers.get('cache-control') }, { etag, ...model }, format);
      // Another ETag (an older version's) is answered in full.
      const stale = await call(server, 'GET', `${doc}/export?format=${format}`, { headers: { 'if-none-match': '"not-this-version"' } });
      assert.equal(stale.status, 200, format);
      assert.deepEqual(stale.bytes, first.bytes, format);
    }
    assert.equal(etags.size, 6, 'an ETag per format');
  });
});
