/**
 * Issue 43's export bench (`--only=export`, by name only: its peers come from PyPI): the quality and speed of our
 * export (`GET .../export`, docs/export.md) on a ground-truth corpus, against the peers, in the same run:
 * - the corpus: 13 Word documents built with python-docx and printed by LibreOffice, 8 HTML pages printed by Chromium,
 *   each with its truth (bench/export-corpus.py; made once and cached, `cachedFile`);
 * - DOCX: ours (`format=docx` when the build answers it, else "docx not available"; the JSON export is scored on the
 *   same figures meanwhile) against LibreOffice's PDF import (`soffice --infilter=writer_pdf_import --convert-to docx`,
 *   what Stirling-PDF runs; one process a document, as Stirling starts it) and pdf2docx (PyPI, MIT);
 * - Markdown: ours against `pdftotext -layout` and PyMuPDF4LLM (PyPI);
 * - figures (bench/export-tools.py `score`): table cell F1, text similarity (words in order), paragraphs kept whole,
 *   heading recall, DOCX text boxes per page (single-column and two-column documents apart), seconds per page.
 * Each document goes through every tool in turn before the next (the order rotating), so load that comes and goes
 * weighs on all alike. The Python peers run in one kept process (export-tools.py `serve`): their time is the library
 * call's, without the interpreter's start, as ours is the request's without the service's.
 * Per-document figures: printed, and written to bench/results/tmp/export-details.md; each tool's outputs of the last
 * repetition are kept in bench/results/tmp/export-outputs/TOOL/ (both ignored by git).
 */
import { spawn, spawnSync, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { Row } from './annotations.js';
import { startServer } from './build.js';
import { cachedFile, loadNow, median, timeCommand, uploadPdf } from './lib.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const VENV = path.join(ROOT, '.venv-bench');
const PYTHON = path.join(VENV, 'bin', 'python');
const REQUIREMENTS = path.join(ROOT, 'bench', 'export-requirements.txt');
const TOOLS = path.join(ROOT, 'bench', 'export-tools.py');
const QUICK_DOCS = ['docx-report-ruled', 'docx-two-column', 'docx-wide-unruled', 'html-article', 'html-two-column', 'html-unruled-table'];
const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

type Kind = 'json' | 'markdown' | 'docx' | 'text';
interface Tool {
  id: string;
  name: string;
  kind: Kind;
  run: (pdf: string, doc: string, out: string) => Promise<number>;
}

/** The bench's Python environment (.venv-bench, ignored), made or remade when bench/export-requirements.txt changed. */
function ensureVenv(): void {
  const hash = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
  const stamp = path.join(VENV, '.stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash) return;
  console.log(`export: installing the bench's Python peers into ${VENV} (${path.relative(ROOT, REQUIREMENTS)}; PyPI, the first time)`);
  const run = (command: string, args: string[]) => {
    const done = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${done.status ?? done.signal}`);
  };
  run('python3', ['-m', 'venv', VENV]);
  run(path.join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]);
  writeFileSync(stamp, `${hash}\n`);
}

/** The corpus folder: NAME.pdf and NAME.truth.json for every document (made once per generator version). */
function corpus(): string {
  return cachedFile('export-corpus.dir', { version: 1 }, (dir) => {
    console.log('export: generating the ground-truth corpus (python-docx + LibreOffice, HTML + Chromium; about a minute)');
    const done = spawnSync(PYTHON, [path.join(ROOT, 'bench', 'export-corpus.py'), dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (done.status !== 0) throw new Error(`export-corpus.py exited with ${done.status ?? done.signal}`);
  }, ['../../bench/export-corpus.py']);
}

/** The kept Python process of the library peers: one request at a time, its answer the call's time in ms. */
function pythonPeers(): { call: (tool: string, pdf: string, out: string) => Promise<number>; stop: () => void } {
  const child = spawn(PYTHON, [TOOLS, 'serve'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  let queue = Promise.resolve();
  const call = (tool: string, pdf: string, out: string): Promise<number> => {
    const answer = queue.then(async () => {
      child.stdin!.write(`${JSON.stringify({ tool, pdf, out })}\n`);
      const line = await lines.next();
      if (line.done) throw new Error(`export-tools.py serve ended (${tool} on ${pdf})`);
      const reply = JSON.parse(line.value) as { ms?: number; error?: string };
      if (reply.error !== undefined) throw new Error(`${tool} on ${path.basename(pdf)}: ${reply.error}`);
      return reply.ms!;
    });
    queue = answer.then(() => undefined, () => undefined);
    return answer;
  };
  return { call, stop: () => child.kill() };
}

interface Score {
  doc: string;
  tool: string;
  pages: number;
  columns: number;
  cells: { hits: number; truthCells: number; outputCells: number };
  textSimilarity: number;
  wordF1: number;
  paragraphs: number;
  paragraphsWhole: number;
  headings: number;
  headingsFound: number;
  textBoxes: number | null;
}

/** A tool's figures over the corpus (or some of its documents). */
function totals(scores: Score[]) {
  const sum = (f: (s: Score) => number) => scores.reduce((a, s) => a + f(s), 0);
  const hits = sum((s) => s.cells.hits);
  const precision = hits / Math.max(1, sum((s) => s.cells.outputCells));
  const recall = hits / Math.max(1, sum((s) => s.cells.truthCells));
  const boxes = (columns: number) => {
    const some = scores.filter((s) => s.columns === columns && s.textBoxes !== null);
    return some.length ? some.reduce((a, s) => a + s.textBoxes!, 0) / some.reduce((a, s) => a + s.pages, 0) : undefined;
  };
  return {
    cellF1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    precision,
    recall,
    similarity: sum((s) => s.textSimilarity) / scores.length,
    wordF1: sum((s) => s.wordF1) / scores.length,
    whole: sum((s) => s.paragraphsWhole) / Math.max(1, sum((s) => s.paragraphs)),
    headings: sum((s) => s.headingsFound) / Math.max(1, sum((s) => s.headings)),
    boxesSingle: boxes(1),
    boxesTwo: boxes(2),
  };
}

const f2 = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(2));
const spreadOf = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

export async function runExportBench(quick: boolean): Promise<Row[]> {
  ensureVenv();
  const dir = corpus();
  // The scorer's DOCX reading checked on the corpus' own Word sources (every figure perfect), before it judges anyone.
  const check = spawnSync(PYTHON, [TOOLS, 'selfcheck', dir], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`export-tools.py selfcheck failed: ${check.stdout}${check.stderr}`.slice(0, 2000));
  const all = readdirSync(dir).filter((f) => f.endsWith('.truth.json')).map((f) => f.slice(0, -'.truth.json'.length)).sort();
  const docs = quick ? all.filter((d) => QUICK_DOCS.includes(d)) : all;
  const pagesOf = new Map(docs.map((d) => [d, (JSON.parse(readFileSync(path.join(dir, `${d}.truth.json`), 'utf8')) as { pages: number }).pages]));
  const totalPages = [...pagesOf.values()].reduce((a, b) => a + b, 0);
  const repetitions = quick ? 1 : 2;
  const work = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-export-'));
  // Every tool's outputs of the last repetition, kept for a look (ignored by git), beside the per-document figures.
  const kept = path.join(ROOT, 'bench', 'results', 'tmp', 'export-outputs');
  rmSync(kept, { recursive: true, force: true });
  // Text prefetching off: an export right after the upload measures itself (as issue 38's rows).
  const server = await startServer({ env: { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
  const peers = pythonPeers();
  try {
    const auth = { authorization: server.adminAuth };
    const url = (doc: string) => `${server.api}/documents/bench-export/${doc}.pdf`;
    for (const doc of docs) await uploadPdf(url(doc), auth, readFileSync(path.join(dir, `${doc}.pdf`)));
    const exportTo = async (doc: string, format: string, out: string): Promise<number> => {
      const started = performance.now();
      const reply = await fetch(`${url(doc)}/export?format=${format}`, { headers: auth });
      const body = Buffer.from(await reply.arrayBuffer());
      const ms = performance.now() - started;
      if (reply.status !== 200) throw new Error(`export of ${doc} as ${format} answered ${reply.status}: ${body.toString('utf8').slice(0, 300)}`);
      writeFileSync(out, body);
      return ms;
    };
    // DOCX is being added (issue 43): measured like the peers once the build answers it.
    const probe = await fetch(`${url(docs[0]!)}/export?format=docx`, { headers: auth });
    const probeType = probe.headers.get('content-type') ?? '';
    await probe.arrayBuffer();
    const docxAvailable = probe.status === 200 && probeType.startsWith(DOCX_MEDIA_TYPE);
    if (!docxAvailable) console.log(`export: docx not available (format=docx answered ${probe.status} ${probeType}); the JSON export is scored in its place`);

    const profile = `file://${path.join(work, 'soffice-profile')}`;
    const tools: Tool[] = [
      { id: 'ours-json', name: 'ours (JSON)', kind: 'json', run: (_pdf, doc, out) => exportTo(doc, 'json', out) },
      ...(docxAvailable ? [{ id: 'ours-docx', name: 'ours (DOCX)', kind: 'docx' as const, run: (_pdf: string, doc: string, out: string) => exportTo(doc, 'docx', out) }] : []),
      { id: 'ours-markdown', name: 'ours (Markdown)', kind: 'markdown', run: (_pdf, doc, out) => exportTo(doc, 'markdown', out) },
      {
        id: 'libreoffice',
        name: 'LibreOffice PDF import',
        kind: 'docx',
        run: async (pdf, doc, out) => {
          const outDir = path.join(work, 'soffice-out');
          const ms = await timeCommand('soffice', ['--headless', '--norestore', `-env:UserInstallation=${profile}`, '--infilter=writer_pdf_import', '--convert-to', 'docx', '--outdir', outDir, pdf]);
          writeFileSync(out, readFileSync(path.join(outDir, `${doc}.docx`)));
          return ms;
        },
      },
      { id: 'pdf2docx', name: 'pdf2docx', kind: 'docx', run: (pdf, _doc, out) => peers.call('pdf2docx', pdf, out) },
      { id: 'pdftotext', name: 'pdftotext -layout', kind: 'text', run: (pdf, _doc, out) => timeCommand('pdftotext', ['-layout', pdf, out]) },
      { id: 'pymupdf4llm', name: 'PyMuPDF4LLM', kind: 'markdown', run: (pdf, _doc, out) => peers.call('pymupdf4llm', pdf, out) },
    ];
    const outFile = (tool: Tool, doc: string) => path.join(kept, tool.id, `${doc}.${tool.kind === 'markdown' ? 'md' : tool.kind === 'text' ? 'txt' : tool.kind}`);
    for (const tool of tools) mkdirSync(path.join(kept, tool.id), { recursive: true });

    // Warm-up, untimed: the service's first export, LibreOffice's profile, the libraries' lazy parts.
    const first = docs[0]!;
    for (const tool of tools) await tool.run(path.join(dir, `${first}.pdf`), first, outFile(tool, first));

    const load: [number, number] = [loadNow(), 0];
    // ms[tool][repetition] = the corpus' total; perDoc[tool][doc] = each repetition's ms.
    const totalMs = new Map(tools.map((t) => [t.id, [] as number[]]));
    const perDoc = new Map(tools.map((t) => [t.id, new Map(docs.map((d) => [d, [] as number[]]))]));
    for (let rep = 0; rep < repetitions; rep++) {
      const sums = new Map(tools.map((t) => [t.id, 0]));
      for (const [at, doc] of docs.entries()) {
        const shift = (rep + at) % tools.length;
        for (const tool of [...tools.slice(shift), ...tools.slice(0, shift)]) {
          const ms = await tool.run(path.join(dir, `${doc}.pdf`), doc, outFile(tool, doc));
          sums.set(tool.id, sums.get(tool.id)! + ms);
          perDoc.get(tool.id)!.get(doc)!.push(ms);
        }
      }
      for (const tool of tools) totalMs.get(tool.id)!.push(sums.get(tool.id)!);
    }
    load[1] = loadNow();

    const manifest = tools.flatMap((tool) => docs.map((doc) => ({ doc, tool: tool.id, kind: tool.kind, file: outFile(tool, doc), truth: path.join(dir, `${doc}.truth.json`) })));
    writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest));
    const { stdout } = await promisify(execFile)(PYTHON, [TOOLS, 'score', path.join(work, 'manifest.json')], { maxBuffer: 64 * 1024 * 1024 });
    const scores = JSON.parse(stdout) as Score[];
    const of = (id: string) => scores.filter((s) => s.tool === id);
    const sPerPage = (id: string) => totalMs.get(id)!.map((ms) => ms / 1000 / totalPages);

    // Per document and in total, for the record.
    const lines = [
      `Export bench: ${docs.length} documents, ${totalPages} pages, ${repetitions} repetition(s), load average ${load[0]} → ${load[1]}${docxAvailable ? '' : '; docx not available (the JSON export scored in its place)'}`,
      '',
      '| document | pages | tool | cell F1 (hits / truth / output) | text similarity | word F1 | paragraphs whole | headings | text boxes / page | s / page |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const doc of docs) {
      for (const tool of tools) {
        const s = of(tool.id).find((x) => x.doc === doc)!;
        const { hits, truthCells, outputCells } = s.cells;
        const cellF1 = truthCells + outputCells ? (2 * hits) / (truthCells + outputCells) : undefined;
        lines.push(
          `| ${doc} | ${s.pages} | ${tool.name} | ${cellF1 === undefined ? '-' : `${cellF1.toFixed(2)} (${hits} / ${truthCells} / ${outputCells})`} | ${f2(s.textSimilarity)} | ${f2(s.wordF1)} | ${s.paragraphsWhole} / ${s.paragraphs} | ${s.headingsFound} / ${s.headings} | ${s.textBoxes === null ? '-' : f2(s.textBoxes / s.pages)} | ${f2(median(perDoc.get(tool.id)!.get(doc)!) / 1000 / s.pages)} |`,
        );
      }
    }
    lines.push('', '| tool | cell F1 (precision / recall) | text similarity | word F1 | paragraphs whole | heading recall | text boxes / page, single-column | two-column | s / page (spread) |', '|---|---|---|---|---|---|---|---|---|');
    for (const tool of tools) {
      const t = totals(of(tool.id));
      const s = sPerPage(tool.id);
      lines.push(`| ${tool.name} | ${f2(t.cellF1)} (${f2(t.precision)} / ${f2(t.recall)}) | ${f2(t.similarity)} | ${f2(t.wordF1)} | ${f2(t.whole)} | ${f2(t.headings)} | ${f2(t.boxesSingle)} | ${f2(t.boxesTwo)} | ${median(s).toFixed(3)} (${spreadOf(s).map((v) => v.toFixed(3)).join('–')}) |`);
    }
    console.log(lines.join('\n'));
    const details = path.join(ROOT, 'bench', 'results', 'tmp');
    mkdirSync(details, { recursive: true });
    writeFileSync(path.join(details, 'export-details.md'), `${lines.join('\n')}\n`);

    // The rows: ours against each peer, with issue 43's targets (cell F1 above both peers of its group).
    const size = `${docs.length} documents, ${totalPages} pages`;
    const peerName = (id: string) => tools.find((t) => t.id === id)!.name;
    const speedRow = (operation: string, ourId: string, peer: string): Row => {
      const ours = sPerPage(ourId);
      const theirs = sPerPage(peer);
      return {
        operation,
        size,
        ours: median(ours),
        oursSpread: spreadOf(ours),
        peer: median(theirs),
        peerSpread: spreadOf(theirs),
        peerName: peerName(peer),
        ratioSpread: spreadOf(ours.map((o, i) => o / theirs[i]!)),
        runs: repetitions,
        unit: 's/page',
        target: '<= 0.5 s/page',
        met: median(ours) <= 0.5,
        load,
      };
    };
    const cellRow = (operation: string, ours: number, peer: string, group: string[]): Row => ({
      operation,
      size,
      ours,
      peer: totals(of(peer)).cellF1,
      peerName: peerName(peer),
      unit: 'F1',
      target: '>= 0.9 and above both peers',
      met: ours >= 0.9 && group.every((id) => ours > totals(of(id)).cellF1),
      load,
    });
    const ourDocx = docxAvailable ? 'ours-docx' : 'ours-json';
    const ourDocxName = docxAvailable ? 'DOCX' : 'JSON (docx not available)';
    const oursT = totals(of(ourDocx));
    const rows: Row[] = [];
    const docxPeers = ['libreoffice', 'pdf2docx'];
    for (const peer of docxPeers) {
      const peerT = totals(of(peer));
      const named = { size, peerName: peerName(peer), load };
      rows.push(cellRow(`Export ${ourDocxName}: table cell F1`, oursT.cellF1, peer, docxPeers));
      rows.push({ operation: `Export ${ourDocxName}: text similarity (words in order)`, ours: oursT.similarity, peer: peerT.similarity, unit: 'share', ...named });
      rows.push({ operation: `Export ${ourDocxName}: paragraphs kept whole`, ours: oursT.whole, peer: peerT.whole, unit: 'share', ...named });
      rows.push({
        operation: 'Export DOCX: text boxes per page, single-column documents',
        ...(docxAvailable ? { ours: oursT.boxesSingle ?? NaN, target: '<= 0.1', met: (oursT.boxesSingle ?? Infinity) <= 0.1 } : { ours: NaN, target: '<= 0.1 (docx not available)' }),
        peer: peerT.boxesSingle,
        unit: 'boxes/page',
        ...named,
      });
      rows.push(speedRow(`Export ${ourDocxName}: seconds per page`, ourDocx, peer));
    }
    const md = totals(of('ours-markdown'));
    const markdownPeers = ['pdftotext', 'pymupdf4llm'];
    for (const peer of markdownPeers) {
      const peerT = totals(of(peer));
      const named = { size, peerName: peerName(peer), load };
      rows.push({ operation: 'Export Markdown: heading recall', ours: md.headings, peer: peerT.headings, unit: 'share', ...named });
      rows.push(cellRow('Export Markdown: table cell F1', md.cellF1, peer, markdownPeers));
      rows.push({ operation: 'Export Markdown: text similarity (words in order)', ours: md.similarity, peer: peerT.similarity, unit: 'share', ...named });
      rows.push(speedRow('Export Markdown: seconds per page', 'ours-markdown', peer));
    }
    return rows;
  } finally {
    peers.stop();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
