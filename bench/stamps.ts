/**
 * Stamp benchmark (issue 7): a text stamp on every page of the generated
 * documents of the size matrix through the API (TextStampAction, end to end), next to
 * `qpdf --overlay` of a one-page stamp PDF (built here) onto the same file, in
 * the same run. Both outputs are checked with pdftotext: every page must show
 * the stamp.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serializePdf } from '../test/helpers/pdf.js';
import { storedBytes } from '../test/helpers/http.js';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { groupBySize, median, oursOf, pagesLabel, peerOf, repetitions, sizes, TARGET_PAGES, targetAt, timeCommand, timed, uploadPdf } from './lib.js';

const STAMP = 'CONFIDENTIAL DRAFT';
const UNICODE_STAMP = 'ΕΜΠΙΣΤΕΥΤΙΚΟ КОНФИДЕНЦИАЛЬНО';
/**
 * The same stamp for both: 48 pt red Helvetica running up the page from (500, 150), half
 * transparent. (A quarter turn rather than a diagonal: pdftotext splits diagonal text
 * into letters, and the check below reads the stamp back.)
 */
const PARAMS = { text: STAMP, x: 500, y: 150, fontSize: 48, color: 0xff0000, rotation: 90, transparency: 0.5 };

/** A one-page PDF with the stamp alone, for qpdf to lay over every page. */
function stampPdf(): Buffer {
  const content = `q /GS0 gs 0 1 -1 0 500 150 cm 1 0 0 rg BT /F1 48 Tf (${STAMP}) Tj ET Q`;
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /ExtGState << /GS0 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /ExtGState /ca 0.5 /CA 0.5 >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ], '/Root 1 0 R');
}

/** One TextStampAction request, read to its end; throws unless it answered `status`. */
async function stamp(url: string, auth: Record<string, string>, params: object, status: number): Promise<void> {
  const r = await fetch(`${url}/pages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ TextStampAction: params }) });
  await r.arrayBuffer();
  if (r.status !== status) throw new Error(`TextStampAction answered ${r.status}`);
}

/** Pages whose text shows the stamp. */
function stampedPages(pdf: string): number {
  const text = execFileSync('pdftotext', [pdf, '-'], { maxBuffer: 256 << 20 }).toString('utf8');
  return text.split('\f').filter((page) => page.includes(STAMP)).length;
}

/** The rows at one size: each repetition stamps a fresh upload; the first one's outputs are checked. */
async function atSize(server: TestServer, dir: string, overlay: string, pages: number, quick: boolean): Promise<Row[]> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages, { word: 'quarterly' });
  const input = path.join(dir, `in-${pages}.pdf`);
  writeFileSync(input, document);
  const ours: number[] = [];
  const unicode: number[] = [];
  const peer: number[] = [];
  // qpdf --overlay slows down more than linearly with the annotations in the document (about 27 s a run
  // at 1,000 pages on this machine): at that size it counts as heavy, for the run's time budget.
  for (let i = 0; i < repetitions(pages, quick, pages > TARGET_PAGES); i++) {
    const doc = `bench/stamp-${pages}-${i}.pdf`;
    const url = `${server.api}/documents/${doc}`;
    await uploadPdf(url, auth, document);
    ours.push((await timed(() => stamp(url, auth, PARAMS, 200))).ms);
    // The same with text that needs an embedded, subset font (DejaVu Sans): no peer for this one.
    const unicodeParams = { ...PARAMS, text: UNICODE_STAMP, x: 560, savePath: `bench/stamp-${pages}-${i}-unicode.pdf` };
    unicode.push((await timed(() => stamp(url, auth, unicodeParams, 201))).ms);
    const output = path.join(dir, `peer-${pages}-${i}.pdf`);
    peer.push(await timeCommand('qpdf', [input, output, '--overlay', overlay, '--repeat=1', '--']));
    if (i === 0) {
      const mine = path.join(dir, `ours-${pages}.pdf`);
      writeFileSync(mine, await storedBytes(server, doc));
      for (const [who, file] of [['our', mine], ['the peer\'s', output]] as const) {
        const count = stampedPages(file);
        if (count !== pages) throw new Error(`${who} output shows the stamp on ${count} of ${pages} pages`);
      }
    }
    rmSync(output, { force: true });
  }
  const size = pagesLabel(pages);
  const oursMs = median(ours);
  const peerMs = median(peer);
  return [
    { operation: 'text stamp on every page (TextStampAction, end to end)', size, pages, ...oursOf(ours), ...peerOf(peer, 'qpdf --overlay'), unit: 'ms', ...targetAt(pages, 'within 2x', oursMs <= 2 * peerMs) },
    { operation: 'the same with Greek and Cyrillic (DejaVu Sans embedded, subset)', size, pages, ...oursOf(unicode), unit: 'ms' },
  ];
}

export async function runStampsBench(quick: boolean): Promise<Row[]> {
  const server = await sharedServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-stamps-'));
  try {
    const overlay = path.join(dir, 'stamp.pdf');
    writeFileSync(overlay, stampPdf());
    const rows: Row[] = [];
    for (const pages of sizes(quick)) rows.push(...(await atSize(server, dir, overlay, pages, quick)));
    return groupBySize(rows);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
