/**
 * Issue 40's toolbox rows against their peers, in the same run, interleaved (ours, peer, ours, peer...):
 * `--only=toolbox --rows=merge` picks rows by id. Results: bench/results/toolbox-<row>-2026-11-30.md.
 *
 * Each row keeps its pairs: the ratio of the medians with the lowest and highest ratio of a pair run back to back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { median, oursOf, peerOf, timeCommand, timed, uploadPdf } from './lib.js';

/** The ratio of each interleaved pair, lowest and highest. */
function pairSpread(ours: number[], theirs: number[]): [number, number] {
  const ratios = ours.map((o, i) => o / theirs[i]!);
  return [Math.min(...ratios), Math.max(...ratios)];
}

// ---- split (issue 40): a 1,000-page document into single pages, SplitDocumentAction against qpdf --split-pages ----

const SPLIT_PAGES = 1000;

async function splitThroughApi(server: TestServer, source: string, folder: string): Promise<{ documents: { path: string; pageCount: number }[] }> {
  const reply = await fetch(`${server.api}/documents/${source}/pages`, {
    method: 'POST',
    // wait=600: inline whatever the size, as the peer is (a job would add its queue and polling).
    headers: { authorization: server.adminAuth, 'content-type': 'application/json', accept: 'application/json', prefer: 'wait=600' },
    body: JSON.stringify({ SplitDocumentAction: { everyPages: 1, folder, pattern: 'page-{n}.pdf' } }),
  });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`SplitDocumentAction answered ${reply.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as { documents: { path: string; pageCount: number }[] };
}

/** `qpdf --check` and pdfinfo's page count on the first, middle and last part: both tools' outputs must pass. */
function splitCheck(files: string[], expected: number): string {
  if (files.length !== expected) return `FAILED: ${files.length} files (expected ${expected})`;
  let check = 'clean';
  for (const file of [files[0]!, files[Math.floor(files.length / 2)]!, files[files.length - 1]!]) {
    const pages = /Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1];
    if (pages !== '1') return `FAILED: ${path.basename(file)} has ${pages} pages`;
    try {
      execFileSync('qpdf', ['--check', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      if ((err as { status?: number }).status !== 3) return `FAILED: qpdf --check ${path.basename(file)}`;
      check = 'warnings';
    }
  }
  return check;
}

/**
 * The bench document (text, 20 annotations a page, an image each, a form on page 1), 1,000 pages, split into 1,000
 * documents: ours into a new folder of the store each time (written, stored, listed in the answer with their ETags),
 * qpdf into a new directory each time.
 */
async function splitRow(quick: boolean): Promise<Row[]> {
  const runs = quick ? 2 : 5;
  const pages = quick ? 200 : SPLIT_PAGES;
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-split-'));
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  try {
    const auth = { authorization: server.adminAuth };
    const pdf = makeBenchDocument(pages);
    const input = path.join(dir, 'book.pdf');
    writeFileSync(input, pdf);
    await uploadPdf(`${server.api}/documents/bench/split/book.pdf`, auth, pdf);
    const version = /qpdf version (\S+)/u.exec(execFileSync('qpdf', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
    const peerRun = (n: string) => {
      const out = path.join(dir, `peer-${n}`);
      execFileSync('mkdir', ['-p', out]);
      return ['--warning-exit-0', '--split-pages', input, path.join(out, 'page-%d.pdf')];
    };
    // One untimed run of each: workers warm, the file in the page cache.
    await splitThroughApi(server, 'bench/split/book.pdf', 'bench/split/warm');
    await timeCommand('qpdf', peerRun('warm'));
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < runs; i++) {
      ours.push((await timed(() => splitThroughApi(server, 'bench/split/book.pdf', `bench/split/out-${i}`))).ms);
      theirs.push(await timeCommand('qpdf', peerRun(String(i))));
    }
    const oursDir = path.join(server.documentsDir, 'bench', 'split', 'out-0');
    const peerDir = path.join(dir, 'peer-0');
    const sorted = (d: string) => readdirSync(d).filter((n) => n.endsWith('.pdf')).sort((a, b) => Number(/\d+/u.exec(a)![0]) - Number(/\d+/u.exec(b)![0])).map((n) => path.join(d, n));
    const oursFiles = sorted(oursDir);
    const peerFiles = sorted(peerDir);
    const bytes = (files: string[]) => files.reduce((sum, f) => sum + readFileSync(f).length, 0);
    const checks = `ours ${splitCheck(oursFiles, pages)}, qpdf ${splitCheck(peerFiles, pages)}`;
    const valid = !checks.includes('FAILED');
    const ratio = median(ours) / median(theirs);
    const spread = pairSpread(ours, theirs);
    console.log(`SplitDocumentAction vs qpdf --split-pages, ${pages} pages into single pages: ours ${median(ours).toFixed(0)} ms, qpdf ${median(theirs).toFixed(0)} ms, ` +
      `ratio ${ratio.toFixed(2)} (pairs ${spread[0].toFixed(2)}-${spread[1].toFixed(2)}); outputs ${bytes(oursFiles)} and ${bytes(peerFiles)} bytes in all; ${checks}`);
    return [{
      operation: `SplitDocumentAction into single pages, time (${checks})`,
      size: `${pages} pages (bench document: text, annotations, an image a page, a form)`,
      pages,
      ...oursOf(ours),
      ...peerOf(theirs, `qpdf ${version} --split-pages`),
      unit: 'ms',
      ratioSpread: spread,
      ...(quick ? {} : { target: 'ratio <= 1.0', met: valid && ratio <= 1 }),
    }];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ROWS: Record<string, (quick: boolean) => Promise<Row[]>> = {
  split: splitRow,
};

export async function runToolboxBench(quick: boolean, rows?: string[]): Promise<Row[]> {
  const chosen = rows?.filter((r) => r in ROWS) ?? Object.keys(ROWS);
  const out: Row[] = [];
  for (const id of chosen) out.push(...(await ROWS[id]!(quick)));
  return out;
}
