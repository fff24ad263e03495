/**
 * The tagging bench's corpus (issue 42, bench/ua.ts): untagged born-digital PDFs, from four sources, all made or read at
 * bench time (nothing of /work/shared/corpus is copied):
 *
 * - **LibreOffice, tagging off**: flat ODF texts written here (headings and paragraphs, tables with a header row,
 *   bulleted and numbered lists, pictures, form fields, a longer mix), uploaded with `tagged=false`;
 * - **Chromium, tagging off**: HTML pages written here with the same kinds of content (forms as `<input>`s), uploaded
 *   with `tagged=false`;
 * - **Office files of the shared corpus** (`office/`, files from Apache POI's, Tika's, docx4j's, odftoolkit's and
 *   python-docx's test suites), read from there and uploaded with `tagged=false` (password-protected ones left out);
 * - **PDFs of the shared corpus** (`MANIFEST.tsv`: pdf.js's, PDFBox's, pypdf's, pdf-lib's and qpdf's test files)
 *   that are untagged, unencrypted, unsigned and have text: veraPDF's own PDF/A and PDF/UA test files are left out
 *   (files made to break one rule each, not documents).
 *
 * Each file is checked untagged (`pdfinfo`: "Tagged: no") with text (`pdftotext`) before it counts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestServer } from '../test/helpers/server.js';
import { xmlEscape } from '../test/helpers/office-fixtures.js';
import { encodeRgbPng } from '../test/helpers/png.js';
import { WORDS, words } from './office-fixtures.js';

export const SHARED_CORPUS = process.env.PDFSERVICE_SHARED_CORPUS ?? '/work/shared/corpus';

export interface CorpusFile {
  /** A short name: its source and file name. */
  name: string;
  source: 'LibreOffice (generated)' | 'Chromium (generated)' | 'shared corpus, Office' | 'shared corpus, PDF';
  bytes: Buffer;
  pages: number;
}

/** A small chart-like picture (bars), different per seed. */
function picture(seed: number): Buffer {
  const width = 120;
  const height = 80;
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      const bar = Math.floor(x / 20);
      const top = 10 + ((seed * 17 + bar * 23) % 60);
      const on = y >= top && x % 20 < 14;
      raw.set(on ? [40 + bar * 30, 90, 180] : [250, 250, 250], row + 1 + x * 3);
    }
  }
  return encodeRgbPng(width, height, raw);
}

type Kind = 'report' | 'table' | 'lists' | 'pictures' | 'form' | 'mixed';
const KINDS: Kind[] = ['report', 'table', 'lists', 'pictures', 'form', 'mixed'];

/** One block of content of a kind, as [ODF, HTML]. */
function block(kind: Exclude<Kind, 'mixed'>, seed: number): [string, string] {
  const h1 = `${['Annual', 'Quarterly', 'Monthly', 'Project'][seed % 4]} ${WORDS[seed % WORDS.length]} report ${seed}`;
  const paragraphs = Array.from({ length: 3 + (seed % 3) }, (_, i) => words(seed * 31 + i, 40 + ((seed + i) % 30)));
  const odfP = (t: string) => `<text:p>${xmlEscape(t)}</text:p>`;
  const htmlP = (t: string) => `<p>${xmlEscape(t)}</p>`;
  const head: [string, string] = [`<text:h text:outline-level="1">${xmlEscape(h1)}</text:h>`, `<h1>${xmlEscape(h1)}</h1>`];
  const sub = (t: string): [string, string] => [`<text:h text:outline-level="2">${xmlEscape(t)}</text:h>`, `<h2>${xmlEscape(t)}</h2>`];
  const parts: [string, string][] = [head, [paragraphs.map(odfP).join(''), paragraphs.map(htmlP).join('')]];
  if (kind === 'report') {
    parts.push(sub('Background'), [odfP(words(seed + 7, 60)), htmlP(words(seed + 7, 60))], sub('Findings'), [odfP(words(seed + 9, 80)), htmlP(words(seed + 9, 80))]);
  } else if (kind === 'table') {
    const rows = 5 + (seed % 8);
    const cols = ['Item', 'Quarter', 'Amount', 'Status'];
    const cell = (r: number, c: number) => (c === 0 ? WORDS[(seed + r) % WORDS.length]! : c === 1 ? `Q${(r % 4) + 1}` : c === 2 ? String(100 + ((seed * 13 + r * 7) % 900)) : ['open', 'closed', 'pending'][r % 3]!);
    const odfCell = (t: string) => `<table:table-cell office:value-type="string"><text:p>${xmlEscape(t)}</text:p></table:table-cell>`;
    const odf =
      `<table:table table:name="T${seed}"><table:table-column table:number-columns-repeated="${cols.length}"/>` +
      `<table:table-header-rows><table:table-row>${cols.map(odfCell).join('')}</table:table-row></table:table-header-rows>` +
      Array.from({ length: rows }, (_, r) => `<table:table-row>${cols.map((_, c) => odfCell(cell(r, c))).join('')}</table:table-row>`).join('') +
      '</table:table>';
    const html =
      `<table><thead><tr>${cols.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>` +
      Array.from({ length: rows }, (_, r) => `<tr>${cols.map((_, c) => `<td>${xmlEscape(cell(r, c))}</td>`).join('')}</tr>`).join('') +
      '</tbody></table>';
    parts.push(sub('Figures'), [odf, html]);
  } else if (kind === 'lists') {
    const items = Array.from({ length: 4 + (seed % 5) }, (_, i) => words(seed * 7 + i, 8 + (i % 5)));
    const odfList = (style: string) => `<text:list text:style-name="${style}">${items.map((t) => `<text:list-item>${odfP(t)}</text:list-item>`).join('')}</text:list>`;
    const htmlList = (tag: string) => `<${tag}>${items.map((t) => `<li>${xmlEscape(t)}</li>`).join('')}</${tag}>`;
    parts.push(sub('Points'), [odfList('Bullets'), htmlList('ul')], sub('Steps'), [odfList('Numbers'), htmlList('ol')]);
  } else if (kind === 'pictures') {
    for (let i = 0; i < 1 + (seed % 3); i++) {
      const png = picture(seed + i).toString('base64');
      parts.push(
        [
          `<text:p><draw:frame draw:name="pic${i}" svg:width="6cm" svg:height="4cm" text:anchor-type="as-char"><draw:image><office:binary-data>${png}</office:binary-data></draw:image></draw:frame></text:p>`,
          `<p><img src="data:image/png;base64,${png}" width="227" height="151"></p>`,
        ],
        [odfP(words(seed + 50 + i, 25)), htmlP(words(seed + 50 + i, 25))],
      );
    }
  } else {
    const fields = ['Name', 'Street', 'Town', 'Email', 'Phone'].slice(0, 3 + (seed % 3));
    const controls = fields.map((f, i) => `<form:text form:name="${f.toLowerCase()}" form:id="c${seed}x${i}" xml:id="c${seed}x${i}"/>`).join('');
    parts.push(
      sub('Application form'),
      [
        `<office:forms form:automatic-focus="false" form:apply-design-mode="false"><form:form form:name="F${seed}">${controls}</form:form></office:forms>` +
          fields.map((f, i) => `<text:p>${f}: <draw:control draw:control="c${seed}x${i}" svg:width="7cm" svg:height="0.7cm" text:anchor-type="as-char"/></text:p>`).join(''),
        `<form>${fields.map((f) => `<p><label>${f}: <input type="text" name="${f.toLowerCase()}" size="40"></label></p>`).join('')}<p><label><input type="checkbox" name="agree"> I agree</label></p></form>`,
      ],
    );
  }
  return [parts.map((p) => p[0]).join(''), parts.map((p) => p[1]).join('')];
}

/** The content of a document of `kind`, as [ODF body, HTML body]; a mixed one is several blocks over several pages. */
function content(kind: Kind, seed: number): [string, string] {
  if (kind !== 'mixed') return block(kind, seed);
  const blocks = Array.from({ length: 4 + (seed % 4) }, (_, i) => block(KINDS[i % 5] as Exclude<Kind, 'mixed'>, seed * 10 + i));
  return [blocks.map((b) => b[0]).join(''), blocks.map((b) => b[1]).join('')];
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" ' +
  'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:form="urn:oasis:names:tc:opendocument:xmlns:form:1.0" xmlns:xml="http://www.w3.org/XML/1998/namespace"';
const ODF_LIST_STYLES =
  '<office:styles><text:list-style style:name="Bullets"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/></text:list-style>' +
  '<text:list-style style:name="Numbers"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."/></text:list-style></office:styles>';

function fodtOf(kind: Kind, seed: number): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${ODF_NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` +
      `${ODF_LIST_STYLES}<office:body><office:text>${content(kind, seed)[0]}</office:text></office:body></office:document>`,
  );
}

function htmlOf(kind: Kind, seed: number): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${kind} ${seed}</title><style>` +
    'body { font-family: "DejaVu Sans", sans-serif; font-size: 11pt; } table { border-collapse: collapse; } th, td { border: 1px solid #999; padding: 4px 8px; }' +
    `</style></head><body>${content(kind, seed)[1]}</body></html>`
  );
}

/** A long tagged HTML source: `pages` pages, each a heading, paragraphs, a list and a small table (the preflight row's document). */
export function longHtml(pages: number): string {
  const page = (n: number) =>
    `<section style="break-after: page"><h2>Section ${n + 1}</h2>` +
    Array.from({ length: 4 }, (_, i) => `<p>${xmlEscape(words(n * 11 + i, 70))}</p>`).join('') +
    `<ul>${Array.from({ length: 3 }, (_, i) => `<li>${xmlEscape(words(n * 13 + i, 9))}</li>`).join('')}</ul>` +
    `<table><thead><tr><th>Item</th><th>Amount</th></tr></thead><tbody>${Array.from({ length: 4 }, (_, i) => `<tr><td>${WORDS[(n + i) % WORDS.length]}</td><td>${100 + ((n * 7 + i) % 900)}</td></tr>`).join('')}</tbody></table></section>`;
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Council handbook</title><style>body { font-family: "DejaVu Sans", sans-serif; font-size: 11pt; }</style></head>` +
    `<body><h1>Council handbook</h1>${Array.from({ length: pages }, (_, n) => page(n)).join('')}</body></html>`
  );
}

/** Pages of a PDF file (pdfinfo), and whether it is tagged, encrypted and has text (pdftotext). */
export function describePdf(file: string): { pages: number; tagged: boolean; encrypted: boolean; text: number } {
  let info: string;
  try {
    info = execFileSync('pdfinfo', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return { pages: 0, tagged: false, encrypted: true, text: 0 };
  }
  const field = (name: string) => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '';
  let text = 0;
  try {
    text = execFileSync('pdftotext', ['-q', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }).replace(/\s+/g, '').length;
  } catch {
    /* no text */
  }
  return { pages: Number(field('Pages')) || 0, tagged: field('Tagged') === 'yes', encrypted: field('Encrypted').startsWith('yes'), text };
}

/** An upload converted by the service with `tagged=false`; the stored PDF's bytes. */
async function untaggedUpload(server: TestServer, doc: string, contentType: string, body: Uint8Array | string): Promise<Buffer> {
  const auth = { authorization: server.adminAuth };
  const put = await fetch(`${server.api}/documents/${doc}?tagged=false`, { method: 'PUT', headers: { ...auth, 'content-type': contentType, prefer: 'wait=600' }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await put.text();
  if (put.status !== 201 && put.status !== 200) throw new Error(`${doc}: the upload answered ${put.status}: ${text.slice(0, 200)}`);
  const get = await fetch(`${server.api}/documents/${doc}`, { headers: { ...auth, accept: 'application/pdf' } });
  if (get.status !== 200) throw new Error(`${doc}: GET answered ${get.status}`);
  return Buffer.from(await get.arrayBuffer());
}

/** The shared corpus's Office files that LibreOffice can open without a password. */
function corpusOfficeFiles(): string[] {
  const root = path.join(SHARED_CORPUS, 'office');
  if (!existsSync(root)) return [];
  const files: string[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name === 'licenses') continue;
    for (const name of readdirSync(path.join(root, dir.name))) {
      if (/pass|pwd|protect|encrypt|crypt/i.test(name)) continue;
      if (/\.(docx|docm|doc|odt|rtf|pptx|ppt|odp|xlsx|xls|ods)$/i.test(name)) files.push(path.join(dir.name, name));
    }
  }
  return files.sort();
}

/** The shared corpus's PDFs (MANIFEST.tsv) that may be untagged born-digital documents, before the pdfinfo check. */
function corpusPdfCandidates(): string[] {
  const manifest = path.join(SHARED_CORPUS, 'MANIFEST.tsv');
  if (!existsSync(manifest)) return [];
  return readFileSync(manifest, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter(([file, , , , feature]) => file?.endsWith('.pdf') && !/pdfa-validation|pdfua-validation|encryption|malformed|signatures|signing|ocr/.test(feature ?? ''))
    .map(([file]) => file!);
}

/**
 * The corpus, made through `server` (conversions untimed). `quick`: two files of each source. Files that are not
 * untagged PDFs with text (a conversion that failed, a tagged or image-only PDF) are left out, each with a line saying why.
 */
export async function uaCorpus(server: TestServer, quick: boolean, dir: string): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  const take = (n: number) => (quick ? Math.min(n, 2) : n);
  const keep = (candidate: Omit<CorpusFile, 'pages'>) => {
    const file = path.join(dir, 'corpus-check.pdf');
    writeFileSync(file, candidate.bytes);
    const info = describePdf(file);
    if (info.tagged || info.encrypted || info.text < 20 || info.pages === 0) {
      console.log(`  ua corpus: ${candidate.name} left out (${info.tagged ? 'tagged' : info.encrypted ? 'encrypted or unreadable' : 'no text'})`);
      return;
    }
    files.push({ ...candidate, pages: info.pages });
  };
  // The generated sources: each kind in turn, a seed of its own per file.
  const generated: [CorpusFile['source'], string, number, string, (kind: Kind, seed: number) => Buffer | string][] = [
    ['LibreOffice (generated)', 'lo', 24, 'application/vnd.oasis.opendocument.text-flat-xml', (kind, i) => fodtOf(kind, i + 1)],
    ['Chromium (generated)', 'chromium', 18, 'text/html', (kind, i) => htmlOf(kind, i + 101)],
  ];
  for (const [source, prefix, count, type, make] of generated) {
    for (let i = 0; i < take(count); i++) {
      const kind = KINDS[i % KINDS.length]!;
      const name = `${prefix}-${kind}-${i}`;
      try {
        keep({ name, source, bytes: await untaggedUpload(server, `ua-corpus/${name}.pdf`, type, make(kind, i)) });
      } catch (error) {
        console.log(`  ua corpus: ${name} left out (${(error as Error).message})`);
      }
    }
  }
  let officeTaken = 0;
  for (const file of corpusOfficeFiles()) {
    if (officeTaken >= take(Infinity)) break;
    const bytes = readFileSync(path.join(SHARED_CORPUS, 'office', file));
    const name = `office:${file}`;
    // Sent as application/octet-stream: the service sniffs the container and the format in it (docs/office.md).
    try {
      const before = files.length;
      keep({ name, source: 'shared corpus, Office', bytes: await untaggedUpload(server, `ua-corpus/office-${officeTaken}.pdf`, 'application/octet-stream', bytes) });
      if (files.length > before) officeTaken++;
    } catch (error) {
      console.log(`  ua corpus: ${name} left out (${(error as Error).message.slice(0, 120)})`);
    }
  }
  let pdfTaken = 0;
  for (const file of corpusPdfCandidates()) {
    if (pdfTaken >= take(Infinity)) break;
    const before = files.length;
    keep({ name: `pdf:${file}`, source: 'shared corpus, PDF', bytes: readFileSync(path.join(SHARED_CORPUS, file)) });
    if (files.length > before) pdfTaken++;
  }
  return files;
}
