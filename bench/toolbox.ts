/**
 * Issue 40's toolbox rows against their peers, in the same run, interleaved (ours, peer, ours, peer...):
 * `--only=toolbox --rows=merge` picks rows by id. Results: bench/results/toolbox-<row>-2026-11-30.md.
 *
 * Each row keeps its pairs: the ratio of the medians with the lowest and highest ratio of a pair run back to back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { makePdf } from '../test/helpers/pdf.js';
import { median, oursOf, peerOf, timeCommand, timed, uploadPdf } from './lib.js';

/** The ratio of each interleaved pair, lowest and highest. */
function pairSpread(ours: number[], theirs: number[]): [number, number] {
  const ratios = ours.map((o, i) => o / theirs[i]!);
  return [Math.min(...ratios), Math.max(...ratios)];
}

// ---- merge (issue 40): 100 ten-page documents, MergeDocumentsAction against qpdf --empty --pages ----

const MERGE_DOCS = 100;
const MERGE_PAGES = 10;

async function mergeThroughApi(server: TestServer, sources: string[], out: string): Promise<{ pageCount: number }> {
  const reply = await fetch(`${server.api}/documents/${sources[0]}`, {
    method: 'POST',
    // wait=600: inline whatever the size, as the peer is (a job would add its queue and polling).
    headers: { authorization: server.adminAuth, 'content-type': 'application/json', accept: 'application/json', prefer: 'wait=600' },
    body: JSON.stringify({ MergeDocumentsAction: { sources: sources.slice(1).map((filePath) => ({ filePath })), savePath: out, namingMode: 1 } }),
  });
  const text = await reply.text();
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`MergeDocumentsAction answered ${reply.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as { pageCount: number };
}

/** Pages, `qpdf --check` and the first page text of each source in a merged file: both outputs must pass. */
function mergedCheck(file: string, docs: number): string {
  const pages = /Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1];
  let check = 'clean';
  try {
    execFileSync('qpdf', ['--check', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    check = (err as { status?: number }).status === 3 ? 'warnings' : 'FAILED';
  }
  return pages === String(docs * MERGE_PAGES) ? check : `${check}, ${pages} pages (expected ${docs * MERGE_PAGES})`;
}

/**
 * Two kinds of source: the bench document (text, 20 annotations a page, an image, a form), ten pages, where each
 * source has the same field names, so both tools rename fields; and plain text pages, where neither has forms or
 * annotations to handle (qpdf's fast case).
 */
const mergeOfBench = (quick: boolean) => mergeRowOf(quick, 'bench', makeBenchDocument(MERGE_PAGES), 'text, annotations, an image, a form');
const mergeOfPlain = (quick: boolean) => mergeRowOf(quick, 'plain', makePdf({ pages: MERGE_PAGES, text: (i) => `Page ${i + 1} of a plain document` }), 'text only');

async function mergeRowOf(quick: boolean, kind: string, pdf: Buffer, what: string): Promise<Row[]> {
  const runs = quick ? 2 : 7;
  const docs = quick ? 10 : MERGE_DOCS;
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-merge-'));
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  try {
    const auth = { authorization: server.adminAuth };
    const files: string[] = [];
    const sources: string[] = [];
    for (let i = 0; i < docs; i++) {
      const file = path.join(dir, `in-${i}.pdf`);
      writeFileSync(file, pdf);
      files.push(file);
      sources.push(`bench/merge/${kind}-${i}.pdf`);
      await uploadPdf(`${server.api}/documents/${sources[i]}`, auth, pdf);
    }
    const version = /qpdf version (\S+)/u.exec(execFileSync('qpdf', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
    const peerArgs = (out: string) => ['--warning-exit-0', '--empty', '--pages', ...files, '--', out];
    // One untimed run of each: workers warm, files in the page cache.
    await mergeThroughApi(server, sources, 'bench/merge/warm.pdf');
    await timeCommand('qpdf', peerArgs(path.join(dir, 'warm.pdf')));
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < runs; i++) {
      ours.push((await timed(() => mergeThroughApi(server, sources, 'bench/merge/out.pdf'))).ms);
      theirs.push(await timeCommand('qpdf', peerArgs(path.join(dir, 'peer.pdf'))));
    }
    const served = await fetch(`${server.api}/documents/bench/merge/out.pdf`, { headers: { ...auth, accept: 'application/pdf' } });
    const oursFile = path.join(dir, 'ours.pdf');
    writeFileSync(oursFile, Buffer.from(await served.arrayBuffer()));
    const checks = `ours ${mergedCheck(oursFile, docs)}, qpdf ${mergedCheck(path.join(dir, 'peer.pdf'), docs)}`;
    const valid = !checks.includes('FAILED') && !checks.includes('expected');
    const ratio = median(ours) / median(theirs);
    const spread = pairSpread(ours, theirs);
    console.log(`MergeDocumentsAction vs qpdf --empty --pages, ${docs} x ${MERGE_PAGES} pages (${what}): ours ${median(ours).toFixed(0)} ms, qpdf ${median(theirs).toFixed(0)} ms, ` +
      `ratio ${ratio.toFixed(2)} (pairs ${spread[0].toFixed(2)}-${spread[1].toFixed(2)}); outputs ${readFileSync(oursFile).length} and ${readFileSync(path.join(dir, 'peer.pdf')).length} bytes; ${checks}`);
    return [{
      operation: `MergeDocumentsAction, time (${checks})`,
      size: `${docs} documents of ${MERGE_PAGES} pages (${what})`,
      pages: docs * MERGE_PAGES,
      ...oursOf(ours),
      ...peerOf(theirs, `qpdf ${version} --empty --pages`),
      unit: 'ms',
      ratioSpread: spread,
      ...(quick ? {} : { target: 'ratio <= 1.0', met: valid && ratio <= 1 }),
    }];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Row ids for --rows: `merge` is both kinds of source, `merge-bench` and `merge-plain` one each. */
const ROWS: Record<string, (quick: boolean) => Promise<Row[]>> = {
  merge: async (quick) => [...(await mergeOfBench(quick)), ...(await mergeOfPlain(quick))],
  'merge-bench': mergeOfBench,
  'merge-plain': mergeOfPlain,
};

export async function runToolboxBench(quick: boolean, rows?: string[]): Promise<Row[]> {
  const chosen = rows?.filter((r) => r in ROWS) ?? Object.keys(ROWS);
  const out: Row[] = [];
  for (const id of chosen) out.push(...(await ROWS[id]!(quick)));
  return out;
}
