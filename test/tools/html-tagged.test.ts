/**
 * Markdown made into an HTML page (operations/conversions/html/markdown.ts) and the tagged PDF Chromium prints of a
 * clean page finished for PDF/UA-1 by the engine task `finishTaggedPdf` (engine/pdfua/), run in the worker pool.
 * Chromium (Debian's, through playwright-core) reads the HTML and prints it as the HTML converter does (tagged,
 * outline); the results are checked with veraPDF's PDF/UA-1 profile in a JVM of its own, pdfinfo, pdftotext and qpdf.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { EnginePool } from '../../src/engine/pool.js';
import { markdownToHtml } from '../../src/operations/conversions/html/markdown.js';
import { pdfinfo, pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument } from '../helpers/qpdf-json.js';
import { TEST_TASKS } from '../helpers/test-tasks.js';
import { verapdfVerdict } from '../helpers/verapdf.js';
import { execFileSync } from 'node:child_process';

/** A 1x1 PNG, as a page's image. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const MARKDOWN = `# Annual report 2026

Sales grew in the [third quarter](https://example.com/q3); details at <https://example.org/details>.

## Figures

- North: **12**
- South: *9*
  1. first nested item
  2. second nested item

| Region | Sales | Note |
|:-------|------:|------|
| North  | 12 | ~~old~~ new |
| South  | 9 | \`code\` |

> A block quote that links to [the figures](#figures).

\`\`\`ts
const total = 12 + 9; // < 100
\`\`\`

![A red dot on white](${PNG})

![](${PNG})

## Figures

<abbr title="Portable Document Format">PDF</abbr> kept as raw HTML.

---

### Closing words

That is all.
`;

/** A clean HTML page: headings, paragraphs, a list, a table with header cells, an image with alt text, a link. */
const CLEAN_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Quarterly report</title></head><body>
<h1>Quarterly report</h1>
<p>Sales grew in the <a href="https://example.com/q3">third quarter</a> of the year.</p>
<h2>Regions</h2>
<ul><li>North grew most</li><li>South held steady</li></ul>
<table><thead><tr><th scope="col">Region</th><th scope="col">Sales</th></tr></thead>
<tbody><tr><td>North</td><td>12</td></tr><tr><td>South</td><td>9</td></tr></tbody></table>
<p><img src="${PNG}" alt="A red dot" width="60" height="60"></p>
<h2>Notes</h2><p>Nothing else to report.</p>
</body></html>`;

let browser: Browser;
let pool: EnginePool;

before(async () => {
  browser = await launchChromium();
  pool = new EnginePool({ ...TEST_TASKS, size: 1, taskTimeoutMs: 60_000, maxMemoryBytes: 2 ** 31, queueLimit: 10 });
  await pool.ready();
});

after(async () => {
  await browser?.close();
  await pool?.close();
});

/** The page as Chromium prints it for the HTML converter: tagged, with an outline; the page's own @page size. */
async function print(html: string): Promise<Buffer> {
  const page = await browser.newPage({ javaScriptEnabled: false });
  try {
    await page.setContent(html);
    return await page.pdf({ tagged: true, outline: true, preferCSSPageSize: true });
  } finally {
    await page.close();
  }
}

/** The parsed page, read through Chromium's DOM (an HTML parser independent of the module under test). */
async function dom<T>(html: string, read: () => T): Promise<T> {
  const page = await browser.newPage();
  try {
    await page.setContent(html);
    return await page.evaluate(read);
  } finally {
    await page.close();
  }
}

const finish = (pdf: Buffer, metadata: Record<string, string> = {}) => pool.run('finishTaggedPdf', { pdf: new Uint8Array(pdf), metadata });
const ruleIds = (rules: { clause: string; testNumber: number }[]) => rules.map((r) => `${r.clause}-${r.testNumber}`).sort();
/** The file with every object uncompressed and outside object streams, as text to search. */
const qdf = (pdf: Uint8Array) => withTempFile(pdf, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { encoding: 'latin1', maxBuffer: 1 << 28 }));
const xmpOf = (pdf: Uint8Array) => withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-meta', file], { encoding: 'utf8' }));

test('Markdown becomes a complete HTML page: headings with unique ids, a GFM table with header cells, code, raw HTML kept, the user\'s CSS last', async () => {
  const html = markdownToHtml(MARKDOWN, { css: 'h1 { color: rgb(200, 0, 0); } </style><p>not markup</p>', lang: 'en-GB' });
  assert.match(html, /^<!DOCTYPE html>\n<html lang="en-GB">/);
  const read = await dom(html, () => ({
    title: document.title,
    lang: document.documentElement.lang,
    headings: Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((h) => `${h.tagName} #${h.id} ${h.textContent}`),
    headers: Array.from(document.querySelectorAll('table thead th')).map((th) => `${th.textContent}/${th.getAttribute('scope')}`),
    cells: Array.from(document.querySelectorAll('table tbody td')).map((td) => td.innerHTML),
    code: document.querySelector('pre > code.language-ts')?.textContent,
    image: document.querySelector('img')?.getAttribute('alt'),
    abbr: document.querySelector('abbr')?.getAttribute('title'),
    links: Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href')),
    styles: Array.from(document.querySelectorAll('style')).map((s) => s.textContent ?? ''),
    bodyParagraphs: Array.from(document.querySelectorAll('body > p')).map((p) => p.textContent),
    h1Colour: getComputedStyle(document.querySelector('h1')!).color,
  }));
  assert.equal(read.title, 'Annual report 2026', 'the title is the first heading');
  assert.equal(read.lang, 'en-GB');
  assert.deepEqual(read.headings, ['H1 #annual-report-2026 Annual report 2026', 'H2 #figures Figures', 'H2 #figures-1 Figures', 'H3 #closing-words Closing words']);
  assert.deepEqual(read.headers, ['Region/col', 'Sales/col', 'Note/col']);
  assert.deepEqual(read.cells, ['North', '12', '<s>old</s> new', 'South', '9', '<code>code</code>']);
  assert.equal(read.code, 'const total = 12 + 9; // < 100\n');
  assert.equal(read.image, 'A red dot on white');
  assert.equal(read.abbr, 'Portable Document Format', 'raw HTML is kept');
  assert.deepEqual(read.links, ['https://example.com/q3', 'https://example.org/details', '#figures']);
  assert.equal(read.styles.length, 2, 'the default style sheet, then the user\'s');
  assert.match(read.styles[0]!, /@page \{ size: A4;/);
  assert.match(read.styles[1]!, /h1 \{ color: rgb\(200, 0, 0\); \}/);
  assert.ok(!read.bodyParagraphs.includes('not markup'), 'the user\'s CSS cannot end its <style> element');
  assert.equal(read.h1Colour, 'rgb(200, 0, 0)', 'the user\'s CSS wins over the default');
});

test('Markdown page options: an explicit title wins and is escaped; no lang attribute unless given; no heading, no title', async () => {
  const html = markdownToHtml('# Heading\n\ntext', { title: 'A <b>bold</b> & "quoted" title' });
  assert.doesNotMatch(html, /<html lang/);
  assert.equal(await dom(html, () => document.title), 'A <b>bold</b> & "quoted" title');
  assert.doesNotMatch(markdownToHtml('just text'), /<title>/);
  assert.match(markdownToHtml('# *Emphasis* and `code`'), /<title>Emphasis and code<\/title>/);
});

test('a clean HTML page: Chromium\'s tagged PDF fails PDF/UA-1, finished it passes, with its title, tags, text and structure intact', async () => {
  const raw = await print(CLEAN_PAGE);
  const before = await verapdfVerdict(raw, 'ua1');
  assert.equal(before.compliant, false);
  // What Chromium 156 leaves out (docs/html.md lists them): XMP metadata and the links' alternate descriptions.
  for (const rule of ['7.1-8', '7.18.5-2']) assert.ok(ruleIds(before.rules).includes(rule), `raw output fails ${rule}: ${ruleIds(before.rules).join(', ')}`);

  const { bytes, report } = await finish(raw, { author: 'Ann Author', subject: 'Sales by region', keywords: 'sales, regions' });
  const after = await verapdfVerdict(bytes, 'ua1');
  assert.deepEqual(ruleIds(after.rules), [], 'veraPDF PDF/UA-1 passes');
  assert.equal(after.compliant, true);
  assert.equal(report.pdfuaIdentified, true);
  assert.equal(report.linksDescribed, 1);
  assert.equal(report.figuresWithoutAlt, 0);

  const info = pdfinfo(bytes);
  assert.equal(info['Title'], 'Quarterly report');
  assert.equal(info['Author'], 'Ann Author');
  assert.equal(info['Subject'], 'Sales by region');
  assert.equal(info['Keywords'], 'sales, regions');
  assert.equal(info['Tagged'], 'yes');
  assert.equal(info['Metadata Stream'], 'yes');
  const xmp = xmpOf(bytes);
  assert.match(xmp, /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Quarterly report<\/rdf:li>/);
  assert.match(xmp, /<dc:creator><rdf:Seq><rdf:li>Ann Author<\/rdf:li>/);
  assert.match(xmp, /<dc:description><rdf:Alt><rdf:li xml:lang="x-default">Sales by region<\/rdf:li>/);
  assert.match(xmp, /<pdf:Keywords>sales, regions<\/pdf:Keywords>/);
  assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
  assert.match(xmp, /<xmp:CreateDate>/);
  assert.match(xmp, /<xmp:ModifyDate>/);

  const text = pdftotext(bytes);
  for (const words of ['Quarterly report', 'third quarter', 'North grew most', 'Region', 'Nothing else to report.']) assert.ok(text.includes(words), `text has "${words}"`);
  assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);

  const doc = new QpdfDocument(bytes);
  const catalog = doc.catalog();
  assert.equal(doc.resolve(catalog['/Lang']), 'u:en');
  assert.equal((doc.get(catalog, '/ViewerPreferences') as Record<string, unknown>)['/DisplayDocTitle'], true);
  assert.equal((doc.get(catalog, '/MarkInfo') as Record<string, unknown>)['/Marked'], true);
  const links = (doc.get(doc.resolve(doc.pages[0]) as Record<string, unknown>, '/Annots') as string[]).map((a) => doc.resolve(a) as Record<string, unknown>);
  assert.deepEqual(links.map((l) => l['/Contents']), ['u:third quarter'], 'the link is described by the words it covers');
  assert.match(qdf(bytes), /\/Alt \(A red dot\)/, 'the figure keeps the alt text Chromium wrote');
  const struct = withTempFile(bytes, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
  assert.match(struct, /LI \(block\)\n\s+Lbl \(block\)\n[\s\S]*?LBody \(block\)/, 'list items hold Lbl and LBody');
});

test('a Markdown page printed and finished passes PDF/UA-1 on A4, with the language given and the text of every block', async () => {
  const raw = await print(markdownToHtml(MARKDOWN, { lang: 'en-GB' }));
  assert.equal((await verapdfVerdict(raw, 'ua1')).compliant, false);
  const { bytes, report } = await finish(raw);
  const after = await verapdfVerdict(bytes, 'ua1');
  assert.deepEqual(ruleIds(after.rules), [], 'veraPDF PDF/UA-1 passes');
  assert.deepEqual(report.roleMapped, { Strong: 'Span', Em: 'Span' });
  assert.ok(report.listItemsFixed >= 2);
  assert.equal(report.artifactsMarked, 1, 'the image with empty alt text, which Chromium draws untagged, is an artifact');
  assert.equal(report.linksDescribed, 3);
  assert.equal(report.title, 'Annual report 2026');
  assert.equal(report.language, 'en-GB');
  const info = pdfinfo(bytes);
  assert.equal(info['Title'], 'Annual report 2026');
  assert.equal(info['Tagged'], 'yes');
  assert.match(info['Page size']!, / pts \(A4\)$/, 'the default style sheet\'s @page size');
  const text = pdftotext(bytes);
  for (const words of ['Annual report 2026', 'first nested item', 'North', 'const total = 12 + 9; // < 100', 'A block quote', 'PDF kept as raw HTML', 'That is all.']) assert.ok(text.includes(words), `text has "${words}"`);
  assert.ok(qpdfCheck(bytes).ok);
  const catalog = new QpdfDocument(bytes).catalog();
  assert.equal(catalog['/Lang'], 'u:en-GB');
});

test('a figure without alt text is left without: counted, still flagged by veraPDF, and the file does not claim PDF/UA', async () => {
  const raw = await print(`<!DOCTYPE html><html lang="en"><head><title>Photo</title></head><body><h1>Photo</h1><p><img src="${PNG}" width="40" height="40"></p></body></html>`);
  const { bytes, report } = await finish(raw);
  assert.equal(report.figuresWithoutAlt, 1);
  assert.equal(report.pdfuaIdentified, false);
  const verdict = await verapdfVerdict(bytes, 'ua1');
  assert.equal(verdict.compliant, false);
  assert.ok(ruleIds(verdict.rules).includes('7.3-1'), 'Figure without alternative text');
  assert.doesNotMatch(qdf(bytes), /\/Alt\b/, 'no alt text was invented');
  assert.doesNotMatch(xmpOf(bytes), /pdfuaid/);
  assert.equal(pdfinfo(bytes)['Title'], 'Photo', 'the rest is finished all the same');
});

test('titles: Chromium\'s about:blank stand-in is replaced by the first heading, dropped without one, and the options win', async () => {
  const untitled = await print('<!DOCTYPE html><html lang="de"><body><h1>Bericht</h1><p>Text.</p></body></html>');
  assert.equal(pdfinfo(untitled)['Title'], 'about:blank', 'Chromium names a page without <title> by its address');
  const headed = await finish(untitled);
  assert.equal(headed.report.title, 'Bericht');
  assert.equal(pdfinfo(headed.bytes)['Title'], 'Bericht');
  assert.equal((await verapdfVerdict(headed.bytes, 'ua1')).compliant, true);

  const bare = await finish(await print('<!DOCTYPE html><html lang="de"><body><p>Nur Text.</p></body></html>'));
  assert.equal(bare.report.title, undefined);
  assert.equal(bare.report.pdfuaIdentified, false);
  assert.equal(pdfinfo(bare.bytes)['Title'], undefined);
  assert.ok(ruleIds((await verapdfVerdict(bare.bytes, 'ua1')).rules).includes('7.1-9'), 'no dc:title is reported, not made up');

  const named = await finish(untitled, { title: 'Jahresbericht', language: 'de-AT' });
  assert.equal(pdfinfo(named.bytes)['Title'], 'Jahresbericht');
  assert.equal(new QpdfDocument(named.bytes).catalog()['/Lang'], 'u:de-AT');
  assert.match(xmpOf(named.bytes), /<dc:language><rdf:Bag><rdf:li>de-AT<\/rdf:li>/);
});
