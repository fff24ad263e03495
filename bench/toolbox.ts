/**
 * Issue 40's toolbox rows (`npm run bench -- --only=toolbox`, `--rows=nup,booklet` some of them): each tool against
 * its peer, interleaved repetition by repetition (ours, peer, ours, peer..., the side going first alternating), with
 * the spread of the pairwise ratios beside the ratio of the medians and the load average when the row started and
 * ended. Helpers adding tools keep their rows in blocks of their own below.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { sharedServer, startServer } from './build.js';
import { makePdf } from '../test/helpers/pdf.js';
import { makeBenchDocument } from './fixtures.js';
import { loadNow, median, oursOf, peerOf, timeCommand, timed, uploadPdf } from './lib.js';

interface ToolboxRow {
  id: string;
  /** One row, or several where a tool has variants. */
  run(ctx: Context): Promise<Row | Row[]>;
}

/** The server and folder one run of the rows shares. */
class Context {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-toolbox-'));
  private server: Promise<TestServer> | undefined;
  constructor(readonly quick: boolean) {}

  /** Text prefetching after uploads off, as in the other benchmarks: a request right after an upload measures itself. */
  started(): Promise<TestServer> {
    this.server ??= startServer({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
    return this.server;
  }

  file(name: string, bytes: Uint8Array): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  async close(): Promise<void> {
    if (this.server) await (await this.server).stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const spread = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/** `reps` rounds of ours and the peer, the order reversed every other round. */
export async function interleave(reps: number, ours: (i: number) => Promise<number>, peer: (i: number) => Promise<number>): Promise<{ ours: number[]; peer: number[] }> {
  const samples = { ours: [] as number[], peer: [] as number[] };
  for (let i = 0; i < reps; i++) {
    const round = [async () => void samples.ours.push(await ours(i)), async () => void samples.peer.push(await peer(i))];
    for (const take of i % 2 ? round.reverse() : round) await take();
  }
  return samples;
}

/** A row at most 1.0x the peer (ratio of the medians), with the pairwise spread. */
function row(operation: string, size: string, peerName: string, samples: { ours: number[]; peer: number[] }, load: [number, number]): Row {
  const ours = median(samples.ours);
  const peer = median(samples.peer);
  return {
    operation,
    size,
    ours,
    oursSpread: spread(samples.ours),
    runs: samples.ours.length,
    peer,
    peerSpread: spread(samples.peer),
    peerName,
    ratioSpread: spread(samples.ours.map((o, i) => o / samples.peer[i]!)),
    unit: 'ms',
    target: 'at most 1.0x',
    met: ours <= peer,
    load,
  };
}

// ---- Page layout (docs/page-layout.md): N-up and booklet against pdfcpu -------------------------------------------

/** pdfcpu's version: the one issue 40 names, built from the Go module proxy into .tools/ on first use. */
const PDFCPU_VERSION = 'v0.15.0';
const TOOLS = fileURLToPath(new URL('../../.tools/', import.meta.url));

function pdfcpu(): string {
  const bin = path.join(TOOLS, `pdfcpu-${PDFCPU_VERSION}`);
  const exe = path.join(bin, 'pdfcpu');
  if (existsSync(exe)) return exe;
  console.log(`toolbox: building pdfcpu ${PDFCPU_VERSION} from the Go module proxy into ${bin} (once; needs go)`);
  mkdirSync(bin, { recursive: true });
  execFileSync('go', ['install', `github.com/pdfcpu/pdfcpu/cmd/pdfcpu@${PDFCPU_VERSION}`], { stdio: 'inherit', env: { ...process.env, GOBIN: bin, GOFLAGS: '-mod=mod' } });
  return exe;
}

const LAYOUT_PAGES = 200;

/**
 * One layout action into a new document (the upload untimed, each repetition on a document of its own), against
 * pdfcpu on the file; both outputs' page counts checked.
 */
async function layoutRow(ctx: Context, name: string, operation: string, action: (savePath: string) => Record<string, unknown>, sheets: number, peerArgs: (input: string, output: string) => string[], peerName: string): Promise<Row> {
  const server = await ctx.started();
  const tool = pdfcpu();
  const document = makeBenchDocument(LAYOUT_PAGES);
  const input = ctx.file(`${name}-in.pdf`, document);
  const auth = { authorization: server.adminAuth };
  const pageCount = async (doc: string) => ((await (await fetch(`${server.api}/documents/${doc}`, { headers: { ...auth, accept: 'application/json' } })).json()) as { pageCount: number }).pageCount;
  const ours = async (i: number) => {
    const doc = `toolbox/${name}-${i}.pdf`;
    await uploadPdf(`${server.api}/documents/${doc}`, auth, document);
    const ms = (
      await timed(async () => {
        const r = await fetch(`${server.api}/documents/${doc}/pages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(action(`toolbox/${name}-${i}-out.pdf`)) });
        if (r.status !== 201) throw new Error(`${name} answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
        await r.arrayBuffer();
      })
    ).ms;
    if (i === 0 && (await pageCount(`toolbox/${name}-${i}-out.pdf`)) !== sheets) throw new Error(`${name}: not ${sheets} sheets`);
    return ms;
  };
  const peer = async (i: number) => {
    const output = path.join(ctx.dir, `${name}-peer-${i}.pdf`);
    const ms = await timeCommand(tool, peerArgs(input, output));
    if (i === 0) {
      const info = execFileSync('pdfinfo', [output], { encoding: 'utf8' });
      if (!new RegExp(`^Pages:\\s+${sheets}$`, 'm').test(info)) throw new Error(`${peerName}: not ${sheets} sheets`);
    }
    return ms;
  };
  // Both warmed once (a first request loads the engine's workers; pdfcpu's first run its binary).
  await ours(-1);
  await peer(-1);
  const start = loadNow();
  const samples = await interleave(ctx.quick ? 3 : 7, ours, peer);
  return row(operation, `${LAYOUT_PAGES} pages`, peerName, samples, [start, loadNow()]);
}

const LAYOUT_ROWS: ToolboxRow[] = [
  // pdfcpu's N-up keeps the first page's size for the sheet, as NUpAction does.
  { id: 'nup', run: (ctx) => layoutRow(ctx, 'nup', 'N-up 4 (NUpAction into a new document)', (savePath) => ({ NUpAction: { perSheet: 4, savePath } }), LAYOUT_PAGES / 4, (input, output) => ['nup', output, '4', input], 'pdfcpu nup 4') },
  // pdfcpu's booklet sheet is A4 by default; BookletAction is given A4.
  { id: 'booklet', run: (ctx) => layoutRow(ctx, 'booklet', 'booklet (BookletAction, A4, into a new document)', (savePath) => ({ BookletAction: { paperSize: 'A4', savePath } }), LAYOUT_PAGES / 2, (input, output) => ['booklet', output, '2', input], 'pdfcpu booklet 2') },
];

// ---- End of page layout -----------------------------------------------------------------------------------------

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
    // The folders of this run: the server is shared, and a --compare runs the row on it twice.
    const folder = `bench/split/run-${Date.now().toString(36)}`;
    // One untimed run of each: workers warm, the file in the page cache.
    await splitThroughApi(server, 'bench/split/book.pdf', `${folder}/warm`);
    await timeCommand('qpdf', peerRun('warm'));
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < runs; i++) {
      ours.push((await timed(() => splitThroughApi(server, 'bench/split/book.pdf', `${folder}/out-${i}`))).ms);
      theirs.push(await timeCommand('qpdf', peerRun(String(i))));
    }
    const oursDir = path.join(server.documentsDir, ...folder.split('/'), 'out-0');
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

const SPLIT_ROWS: ToolboxRow[] = [{ id: 'split', run: (ctx) => splitRow(ctx.quick) }];

// ---- End of split ----

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

const MERGE_ROWS: ToolboxRow[] = [{ id: 'merge', run: async (ctx) => [...(await mergeOfBench(ctx.quick)), ...(await mergeOfPlain(ctx.quick))] }];

// ---- End of merge ----

// ---- compare (issue 40): two 200-page bench documents, one changed on a few pages, against pdftotext + diff ----

const COMPARE_PAGES = 200;

/**
 * The changed document: the bench document with page 10 taken from the bench document of another word (its text
 * changed, the rest alike), page 50 moved after page 120 and page 150 deleted, put together by qpdf (which keeps the
 * other pages' streams as they are).
 */
function changedBenchDocument(dir: string, base: string): string {
  const other = path.join(dir, 'other.pdf');
  writeFileSync(other, makeBenchDocument(COMPARE_PAGES, { word: 'restricted' }));
  const out = path.join(dir, 'changed.pdf');
  execFileSync('qpdf', ['--warning-exit-0', '--empty', '--pages', base, '1-9', other, '10', base, '11-49,51-120,50,121-149,151-z', '--', out]);
  return out;
}

async function compareThroughApi(server: TestServer, doc: string, base: string): Promise<Record<string, any>> {
  const reply = await fetch(`${server.api}/documents/${doc}/compare`, {
    method: 'POST',
    headers: { authorization: server.adminAuth, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ with: { filePath: base } }),
  });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`compare answered ${reply.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, any>;
}

/**
 * POST .../compare end to end (the JSON report: text and visual diff at 50 dpi) against pdftotext of both documents
 * and diff of their word lists (text only, no pages matched, no boxes), interleaved. Target: under 2 s.
 */
async function compareRow(quick: boolean): Promise<Row[]> {
  const runs = quick ? 3 : 7;
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-compare-'));
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  try {
    const auth = { authorization: server.adminAuth };
    const base = path.join(dir, 'base.pdf');
    writeFileSync(base, makeBenchDocument(COMPARE_PAGES));
    const changed = changedBenchDocument(dir, base);
    // Every repetition compares a pair it has not seen: compare keeps digests and words by version (ETag), so the same
    // pair again would be answered from those caches (the "again" row). A comment after %%EOF makes each copy's bytes,
    // and so its ETag, its own; the pages are the same objects.
    const copies = runs + 1;
    const variant = (file: string, i: number) => Buffer.concat([readFileSync(file), Buffer.from(`\n% bench copy ${i}\n`)]);
    for (let i = 0; i < copies; i++) {
      await uploadPdf(`${server.api}/documents/bench/compare/base-${i}.pdf`, auth, variant(base, i));
      await uploadPdf(`${server.api}/documents/bench/compare/changed-${i}.pdf`, auth, variant(changed, i));
    }
    const words = (file: string, out: string) => `pdftotext -q ${file} - | tr -s ' \\n\\f' '\\n' > ${out}`;
    const peer = () => timeCommand('sh', ['-c', `${words(base, `${dir}/a.txt`)}; ${words(changed, `${dir}/b.txt`)}; diff ${dir}/a.txt ${dir}/b.txt > ${dir}/diff.txt; true`]);
    const pair = (i: number) => compareThroughApi(server, `bench/compare/changed-${i}.pdf`, `bench/compare/base-${i}.pdf`);
    // One untimed run of each: workers warm, the files in the page cache.
    const report = await pair(0);
    await peer();
    const start = loadNow();
    let next = 1;
    const samples = await interleave(runs, async () => (await timed(() => pair(next++))).ms, peer);
    const end = loadNow();
    // The same pairs again: what a client comparing draft after draft against one base, or asking twice, pays.
    let again = 1;
    const cached = await interleave(runs, async () => (await timed(() => pair(again++))).ms, peer);
    const s = report.summary as Record<string, number>;
    const found = `changed ${s.changedPages}, moved ${s.movedPages}, inserted ${s.insertedPages}, deleted ${s.deletedPages}; words +${s.insertedWords} -${s.deletedWords}; regions ${s.visualChanges}`;
    const expected = s.changedPages === 1 && s.movedPages === 1 && s.deletedPages === 1 && s.insertedPages === 0;
    const ours = median(samples.ours);
    const ratio = ours / median(samples.peer);
    console.log(`compare ${COMPARE_PAGES} pages: ours ${ours.toFixed(0)} ms, pdftotext+diff ${median(samples.peer).toFixed(0)} ms, ratio ${ratio.toFixed(2)} ` +
      `(pairs ${pairSpread(samples.ours, samples.peer).map((r) => r.toFixed(2)).join('-')}); found: ${found}; load ${start}-${loadNow()}`);
    return [{
      operation: `compare (POST .../compare, JSON report, text + visual at 50 dpi; found ${found}${expected ? '' : ' UNEXPECTED'})`,
      size: `${COMPARE_PAGES} pages (bench document: text, annotations, an image a page, a form) against the same changed on 3 pages`,
      pages: COMPARE_PAGES,
      ...oursOf(samples.ours),
      ...peerOf(samples.peer, 'pdftotext both + diff of the word lists'),
      unit: 'ms',
      ratioSpread: pairSpread(samples.ours, samples.peer),
      target: 'under 2,000 ms',
      met: expected && ours < 2000,
      load: [start, end],
    }, {
      operation: 'compare, the same pairs again (page digests and words kept by version)',
      size: `${COMPARE_PAGES} pages against the same changed on 3 pages`,
      pages: COMPARE_PAGES,
      ...oursOf(cached.ours),
      ...peerOf(cached.peer, 'pdftotext both + diff of the word lists'),
      unit: 'ms',
      ratioSpread: pairSpread(cached.ours, cached.peer),
      load: [end, loadNow()],
    }];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const COMPARE_ROWS: ToolboxRow[] = [{ id: 'compare', run: (ctx) => compareRow(ctx.quick) }];

// ---- End of compare ----

const ROWS: ToolboxRow[] = [...LAYOUT_ROWS, ...SPLIT_ROWS, ...MERGE_ROWS, ...COMPARE_ROWS];

/** Runs the chosen rows (all by default); a failed row becomes a row with its error, and the run goes on. */
export async function runToolboxBench(quick: boolean, only?: string[]): Promise<Row[]> {
  const unknown = only?.filter((id) => !ROWS.some((r) => r.id === id)) ?? [];
  if (unknown.length) throw new Error(`unknown row ${unknown.join(', ')}; known: ${ROWS.map((r) => r.id).join(', ')}`);
  const ctx = new Context(quick);
  const rows: Row[] = [];
  try {
    for (const r of ROWS.filter((x) => !only || only.includes(x.id))) {
      const start = loadNow();
      try {
        for (const done of [await r.run(ctx)].flat()) {
          rows.push(done);
          console.log(`toolbox ${r.id}: ${done.ours.toFixed(0)} ms vs ${done.peer!.toFixed(0)} ms (${(done.ours / done.peer!).toFixed(2)}x, pairs ${done.ratioSpread!.map((v) => v.toFixed(2)).join('–')}; load ${done.load?.join(' → ') ?? '?'})`);
        }
      } catch (error) {
        console.error(`toolbox row ${r.id} failed:`, error);
        rows.push({ operation: `${r.id}: failed`, size: '-', ours: NaN, unit: '-', error: error instanceof Error ? error.message : String(error), load: [start, loadNow()] });
      }
    }
  } finally {
    await ctx.close();
  }
  return rows;
}
