/**
 * Issue 42's bench (`npm run bench -- --only=ua`, `--rows=preflight` or `--rows=tagging`; by name only: its peer starts
 * LibreOffice once per file of a corpus of 80, several minutes). Both rows interleave ours and the peer file by file
 * or repetition by repetition (toolbox.ts `interleave`: the side going first alternating), each with the load average
 * at its start and end:
 *
 * - `preflight`: the `pdfua1` preflight of a 200-page tagged document (the service's own tagged print of a long HTML
 *   source, made at bench time) through `GET .../preflight-results` (the warm veraPDF JVM) against veraPDF in a fresh
 *   JVM per file, as preflight.ts does for PDF/A-2b (its helpers), with the two verdicts' failed checks compared.
 * - `tagging`: a corpus of untagged born-digital PDFs (bench/ua-corpus.ts says where each comes from) tagged by
 *   `PDFUAConvertAction` (`{ lang: 'en-US', title: <file name> }`) and by LibreOffice's PDF import (Draw, its default
 *   for PDF) re-exported with its PDF/UA option, a `soffice` per file, as a user runs it; each output judged by veraPDF
 *   1.30's PDF/UA-1 profile in a JVM of the bench's own (test/helpers/verapdf.ts). Rows: the pass rate (all files and
 *   per source), the failed rules per file, the time per page, and that time against Adobe Auto-Tag's published
 *   limits. On a build without the action (main before issue 42's tagger) our side of each row is "not available"
 *   and the peer's figures stand alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import type { TestServer } from '../test/helpers/server.js';
import { verapdfVerdict, type VerapdfVerdict } from '../test/helpers/verapdf.js';
import type { Row } from './annotations.js';
import { sharedServer } from './build.js';
import { loadNow, median, pagesLabel, timeCommand, timed, uploadPdf } from './lib.js';
import { preflight, verapdfPerFile, version } from './preflight.js';
import { interleave } from './toolbox.js';
import { describePdf, longHtml, uaCorpus, type CorpusFile } from './ua-corpus.js';

const ACTION = 'PDFUAConvertAction';
const PEER_NAME = 'LibreOffice 7.4 PDF import (Draw) + PDF/UA export, a soffice per file';
/** LibreOffice's PDF export with its PDF/UA option (which turns tagging on), on the Draw document its PDF import makes. */
const PEER_FILTER = 'pdf:draw_pdf_Export:{"PDFUACompliance":{"type":"boolean","value":"true"}}';
/** Adobe PDF Services' Auto-Tag API as Adobe publishes it: at most 200 pages a document, 25 requests a minute. */
const ADOBE_PAGES = 200;
const ADOBE_PER_MINUTE = 25;
/** A peer run that takes longer than this on one file is killed and counted as no output. */
const PEER_TIMEOUT_MS = 300_000;

const spread = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

export async function runUaBench(quick: boolean, rows?: string[], sample?: number): Promise<Row[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-ua-'));
  // Text prefetching off, as in the other benchmarks' servers: a request right after an upload measures itself.
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  const out: Row[] = [];
  try {
    const runs = [['preflight', preflightRow], ['tagging', (s: TestServer, d: string, q: boolean) => taggingRows(s, d, q, sample)]] as const;
    for (const [id, run] of runs) {
      if (rows && !rows.includes(id)) continue;
      try {
        out.push(...(await run(server, dir, quick)));
      } catch (error) {
        console.error(`ua ${id} failed:`, error);
        out.push({ operation: `ua ${id}: failed`, size: '-', ours: NaN, unit: '-', error: error instanceof Error ? error.message : String(error) });
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- Preflight: pdfua1 through the service against veraPDF in a JVM per file ---------------------------------------

async function preflightRow(server: TestServer, dir: string, quick: boolean): Promise<Row[]> {
  const verapdfDir = loadConfig({}).verapdfDir;
  const auth = { authorization: server.adminAuth };
  const wanted = quick ? 20 : 200;
  // The service's tagged print of a long HTML source (Chromium's structure tree, finished for PDF/UA): untimed.
  const put = await fetch(`${server.api}/documents/ua/handbook.pdf`, { method: 'PUT', headers: { ...auth, 'content-type': 'text/html', prefer: 'wait=600' }, body: longHtml(wanted) });
  if (put.status !== 201 && put.status !== 200) throw new Error(`the HTML upload answered ${put.status}: ${(await put.text()).slice(0, 300)}`);
  await put.arrayBuffer();
  const pdf = Buffer.from(await (await fetch(`${server.api}/documents/ua/handbook.pdf`, { headers: { ...auth, accept: 'application/pdf' } })).arrayBuffer());
  const probe = path.join(dir, 'handbook.pdf');
  writeFileSync(probe, pdf);
  const { pages, tagged } = describePdf(probe);
  if (!tagged) throw new Error('the HTML print is not tagged');
  // One warm-up preflight, as a running service has had (veraPDF's JVM started and its code compiled).
  await uploadPdf(`${server.api}/documents/ua/handbook-0.pdf`, auth, version(pdf, 0));
  await preflight(server, 'ua/handbook-0.pdf', 'pdfua1');
  const verdicts: { ours: number[]; peer: number[]; compliant: boolean[] } = { ours: [], peer: [], compliant: [] };
  const ours = async (i: number) => {
    const doc = `ua/handbook-${i + 1}.pdf`;
    await uploadPdf(`${server.api}/documents/${doc}`, auth, version(pdf, i + 1));
    const { ms, value } = await timed(() => preflight(server, doc, 'pdfua1'));
    verdicts.ours[i] = value.failedChecks;
    verdicts.compliant[i] = value.compliant;
    return ms;
  };
  const peer = async (i: number) => {
    const file = path.join(dir, `handbook-${i + 1}.pdf`);
    writeFileSync(file, version(pdf, i + 1));
    const cold = await verapdfPerFile(verapdfDir, file, 'ua1');
    verdicts.peer[i] = cold.failedChecks;
    return cold.ms;
  };
  const start = loadNow();
  const samples = await interleave(quick ? 2 : 5, ours, peer);
  const load: [number, number] = [start, loadNow()];
  verdicts.ours.forEach((failed, i) => {
    if (failed !== verdicts.peer[i]) throw new Error(`the two disagree: ${failed} failed checks warm, ${verdicts.peer[i]} per file`);
  });
  const ratio = median(samples.peer) / median(samples.ours);
  console.log(`ua preflight, ${pagesLabel(pages)} (${verdicts.compliant[0] ? 'compliant' : `not compliant, ${verdicts.ours[0]} failed checks`} by both): the warm service is ${ratio.toFixed(1)}x faster than veraPDF in a JVM per file`);
  return [
    {
      operation: `PDF/UA-1 preflight (pdfua1) of a tagged HTML print: warm veraPDF (service) vs a JVM per file (verdict: ${verdicts.compliant[0] ? 'compliant' : `${verdicts.ours[0]} failed checks`}, both agree)`,
      size: pagesLabel(pages),
      pages,
      ours: median(samples.ours),
      oursSpread: spread(samples.ours),
      runs: samples.ours.length,
      peer: median(samples.peer),
      peerSpread: spread(samples.peer),
      peerName: 'veraPDF 1.30 in a fresh JVM per file',
      ratioSpread: spread(samples.ours.map((o, i) => o / samples.peer[i]!)),
      unit: 'ms',
      ...(pages >= 200 ? { target: 'at least 3x faster (as PDF/A)', met: ratio >= 3 } : {}),
      load,
    },
  ];
}

// ---- Tagging: PDFUAConvertAction against LibreOffice's PDF import + PDF/UA export --------------------------------------

/** One side's outcome on one file. */
interface Outcome {
  ms: number;
  /** veraPDF's UA-1 verdict on the output; undefined when there was none (refused, failed, timed out). */
  verdict?: VerapdfVerdict;
  why?: string;
}

/** Whether this build has the action: its name in the OpenAPI document (the action schemas are listed there). */
async function actionAvailable(server: TestServer): Promise<boolean> {
  const spec = await (await fetch(`${server.api}/openapi.json`)).text();
  return spec.includes(ACTION);
}

/** The action on a stored copy of the file, timed to its answer; veraPDF's verdict on what is stored then. */
async function tagOurs(server: TestServer, file: CorpusFile, i: number): Promise<Outcome> {
  const auth = { authorization: server.adminAuth };
  const doc = `ua-tag/${i}.pdf`;
  await uploadPdf(`${server.api}/documents/${doc}`, auth, file.bytes);
  const title = path.basename(file.name.replace(/^[a-z]+:/, ''));
  const { ms, value: reply } = await timed(async () => {
    // Waited for inline (as pdfa.ts): without `Prefer: wait` a long action answers 202 and runs as a job.
    const r = await fetch(`${server.api}/documents/${doc}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', accept: 'application/json', prefer: 'wait=600' }, body: JSON.stringify({ [ACTION]: { lang: 'en-US', title } }) });
    return { status: r.status, text: await r.text() };
  });
  if (reply.status !== 200 && reply.status !== 201) return { ms, why: `${ACTION} answered ${reply.status}: ${reply.text.slice(0, 160)}` };
  const stored = Buffer.from(await (await fetch(`${server.api}/documents/${doc}`, { headers: { ...auth, accept: 'application/pdf' } })).arrayBuffer());
  return { ms, verdict: await verapdfVerdict(stored, 'ua1') };
}

/** LibreOffice on the file in a process of its own (the bench's profile, made by the warm-up); veraPDF's verdict on its output. */
async function tagPeer(dir: string, file: CorpusFile, i: number): Promise<Outcome> {
  const input = path.join(dir, `in-${i}.pdf`);
  const outdir = path.join(dir, `peer-${i}`);
  mkdirSync(outdir, { recursive: true });
  writeFileSync(input, file.bytes);
  let ms: number;
  try {
    ms = await timeCommand('soffice', [`-env:UserInstallation=file://${dir}/lo-profile`, '--headless', '--infilter=draw_pdf_import', '--convert-to', PEER_FILTER, '--outdir', outdir, input], { timeout: PEER_TIMEOUT_MS });
  } catch (error) {
    return { ms: PEER_TIMEOUT_MS, why: `soffice: ${(error as Error).message.slice(0, 160)}` };
  }
  let output: Buffer;
  try {
    output = readFileSync(path.join(outdir, `in-${i}.pdf`));
  } catch {
    return { ms, why: 'soffice wrote no PDF' };
  }
  return { ms, verdict: await verapdfVerdict(output, 'ua1') };
}

const passed = (o: Outcome) => o.verdict?.compliant === true;
const failedRules = (o: Outcome) => o.verdict?.rules.length;
const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : NaN);

/** The rules failed on most files, "7.1-9: 12, 7.1-10: 12, ..." (veraPDF's clause and test number: how many files). */
function commonRules(outcomes: Outcome[], top = 6): string {
  const files = new Map<string, number>();
  for (const o of outcomes) for (const rule of o.verdict?.rules ?? []) files.set(`${rule.clause}-${rule.testNumber}`, (files.get(`${rule.clause}-${rule.testNumber}`) ?? 0) + 1);
  const sorted = [...files].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, top);
  return sorted.length ? sorted.map(([rule, n]) => `${rule}: ${n}`).join(', ') : 'none';
}

/**
 * `sample` of `files`, stratified by source: each source gets its share of the sample (rounded, at least one file),
 * taken evenly spaced through its files in corpus order (for the generated sources that order cycles through the
 * kinds of document, so every kind stays in). For a run that cannot take the whole corpus on a loaded machine.
 */
export function stratified<T extends { source: string }>(files: readonly T[], sample: number): T[] {
  if (!(sample > 0) || sample >= files.length) return [...files];
  const sources = [...new Set(files.map((f) => f.source))];
  return sources.flatMap((source) => {
    const of = files.filter((f) => f.source === source);
    const share = Math.max(1, Math.round((sample * of.length) / files.length));
    return Array.from({ length: Math.min(share, of.length) }, (_, j) => of[Math.floor((j * of.length) / share)]!);
  });
}

async function taggingRows(server: TestServer, dir: string, quick: boolean, sample?: number): Promise<Row[]> {
  const available = await actionAvailable(server);
  const unavailable = available ? undefined : `${ACTION} is not on this build`;
  const corpus = await uaCorpus(server, quick, dir);
  const files = sample === undefined ? corpus : stratified(corpus, sample);
  if (files.length < corpus.length) console.log(`ua tagging: a stratified sample of ${files.length} of the corpus's ${corpus.length} files (--sample=${sample})`);
  if (files.length === 0) throw new Error('no corpus file');
  const pages = files.reduce((sum, f) => sum + f.pages, 0);
  const size = `${files.length} files, ${pages.toLocaleString('en')} pages`;
  const sources = [...new Set(files.map((f) => f.source))];
  console.log(`ua tagging: ${size} (${sources.map((s) => `${s}: ${files.filter((f) => f.source === s).length}`).join(', ')})${available ? '' : `; ours not available (${unavailable})`}`);
  // Every input fails UA-1 first (untagged): the starting point both sides share.
  const before = await Promise.all(files.map((f) => verapdfVerdict(f.bytes, 'ua1')));
  const alreadyPassing = before.filter((v) => v.compliant).length;
  // The peer's profile made untimed, once (its first start writes it), as a user's LibreOffice has one.
  await tagPeer(dir, files[0]!, -1);
  const ours: Outcome[] = [];
  const peer: Outcome[] = [];
  const start = loadNow();
  await interleave(
    files.length,
    async (i) => {
      if (!available) return 0;
      ours[i] = await tagOurs(server, files[i]!, i);
      return ours[i]!.ms;
    },
    async (i) => {
      peer[i] = await tagPeer(dir, files[i]!, i);
      return peer[i]!.ms;
    },
  );
  const load: [number, number] = [start, loadNow()];
  for (const [i, f] of files.entries()) {
    const line = (o: Outcome | undefined) => (o === undefined ? 'not available' : `${passed(o) ? 'PASS' : 'fail'} ${o.verdict ? `${failedRules(o)} rules` : o.why} ${(o.ms / 1000).toFixed(1)} s`);
    console.log(`  ${f.name} (${f.source}, ${pagesLabel(f.pages)}, before: ${before[i]!.rules.length} rules): ours ${line(ours[i])}; LibreOffice ${line(peer[i])}`);
  }

  const side = (outcomes: Outcome[], subset: number[]) => {
    const taken = subset.map((i) => outcomes[i]!);
    const rules = taken.map((o) => failedRules(o)).filter((n): n is number => n !== undefined);
    return { passRate: percent(taken.filter(passed).length, taken.length), passes: taken.filter(passed).length, rules, totalRules: rules.reduce((a, b) => a + b, 0), noOutput: taken.filter((o) => !o.verdict).length };
  };
  const all = files.map((_, i) => i);
  const oursAll = available ? side(ours, all) : undefined;
  const peerAll = side(peer, all);
  const oursSide = (value: (s: ReturnType<typeof side>) => number, extra: Partial<Row> = {}): Pick<Row, 'ours' | 'unavailable' | 'oursSpread' | 'runs'> =>
    oursAll ? { ours: value(oursAll), runs: files.length, ...extra } : { ours: NaN, unavailable: unavailable! };
  const out: Row[] = [];
  const common = { peerName: PEER_NAME, load };

  out.push({
    operation: `UA-1 pass rate after tagging (veraPDF 1.30 ua1; before: ${alreadyPassing} of ${files.length} pass; ours ${oursAll ? `${oursAll.passes}` : '-'}, peer ${peerAll.passes} of ${files.length}${peerAll.noOutput ? `, peer without output on ${peerAll.noOutput}` : ''})`,
    size,
    ...oursSide((s) => s.passRate),
    peer: peerAll.passRate,
    unit: '%',
    ...common,
  });
  for (const source of sources) {
    const subset = all.filter((i) => files[i]!.source === source);
    const o = available ? side(ours, subset) : undefined;
    const p = side(peer, subset);
    out.push({
      operation: `UA-1 pass rate after tagging: ${source}`,
      size: `${subset.length} files, ${subset.reduce((sum, i) => sum + files[i]!.pages, 0).toLocaleString('en')} pages`,
      ...(o ? { ours: o.passRate, runs: subset.length } : { ours: NaN, unavailable: unavailable! }),
      peer: p.passRate,
      unit: '%',
      ...common,
    });
  }
  const oursTop = available ? commonRules(ours) : '-';
  const peerTop = commonRules(peer);
  console.log(`ua tagging: rules failed most often (clause-test: files): ours ${oursTop}; LibreOffice ${peerTop}`);
  out.push({
    operation: `veraPDF UA-1 rules failed per file after tagging, median (fewest–most; all files together: ours ${oursAll ? oursAll.totalRules : '-'}, peer ${peerAll.totalRules}; before tagging ${before.reduce((sum, v) => sum + v.rules.length, 0)}; most often, clause-test: files: ours ${oursTop}; peer ${peerTop})`,
    size,
    ...oursSide((s) => median(s.rules), oursAll?.rules.length ? { oursSpread: spread(oursAll.rules) } : {}),
    peer: median(peerAll.rules),
    ...(peerAll.rules.length ? { peerSpread: spread(peerAll.rules) } : {}),
    unit: 'rules',
    ...common,
  });
  // Time per page: the corpus's time over its pages; the spread is of the files' own time per page (fastest–slowest)
  // and of the pairwise ratios file by file.
  const perPage = (outcomes: Outcome[]) => outcomes.reduce((sum, o) => sum + o.ms, 0) / 1000 / pages;
  const filePerPage = (outcomes: Outcome[]) => outcomes.map((o, i) => o.ms / 1000 / files[i]!.pages);
  const peerPerPage = perPage(peer);
  out.push({
    operation: 'time per page, tagging (ours: the action, its own veraPDF check included; peer: soffice start, import, export)',
    size,
    ...(available ? { ours: perPage(ours), oursSpread: spread(filePerPage(ours)), runs: files.length } : { ours: NaN, unavailable: unavailable! }),
    peer: peerPerPage,
    peerSpread: spread(filePerPage(peer)),
    ...(available ? { ratioSpread: spread(ours.map((o, i) => o.ms / peer[i]!.ms)) } : {}),
    unit: 's/page',
    ...common,
  });
  // Adobe's limits are published, not measured here: 25 requests a minute of at most 200 pages each is, at best, 5,000
  // pages a minute (0.012 s a page) for a client that always sends 200-page documents, and 2.4 s a request whatever its size.
  const adobePerPage = 60 / ADOBE_PER_MINUTE / ADOBE_PAGES;
  const meanPages = pages / files.length;
  out.push({
    operation: `time per page against Adobe Auto-Tag's published limits (at most ${ADOBE_PAGES} pages a request, ${ADOBE_PER_MINUTE} requests a minute: at best ${adobePerPage.toFixed(3)} s a page with 200-page requests, ${(60 / ADOBE_PER_MINUTE / meanPages).toFixed(2)} s a page at this corpus's ${meanPages.toFixed(1)} pages a file; no page limit here)`,
    size,
    ...(available ? { ours: perPage(ours), runs: files.length } : { ours: NaN, unavailable: unavailable! }),
    peer: 60 / ADOBE_PER_MINUTE / meanPages,
    peerName: `Adobe Auto-Tag's rate limit at ${meanPages.toFixed(1)} pages a request (published, not measured)`,
    unit: 's/page',
    load,
  });
  console.log(
    `ua tagging: pass rate ours ${oursAll ? `${oursAll.passRate.toFixed(1)}%` : 'not available'}, LibreOffice ${peerAll.passRate.toFixed(1)}%; ` +
      `time per page ours ${available ? `${perPage(ours).toFixed(3)} s` : 'not available'}, LibreOffice ${peerPerPage.toFixed(3)} s; Adobe's ceiling ${adobePerPage.toFixed(3)} s a page (200-page requests)`,
  );
  return out;
}
