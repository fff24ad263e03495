/**
 * `npm run bench` (add `-- --quick` for a short run): runs the benchmarks and prints their tables.
 * `-- --only=pages,redaction` runs some of them and leaves bench/results/latest.json as it was.
 * `-- --only=issue38` runs issue 38's rows (bench/issue38.ts; `--rows=upload,text` some of them; with `--only=versions`,
 * `--rows=writes,restore,listing,storage` some of the versions rows; with `--only=toolbox`, `--rows=merge` some of issue 40's;
 * with `--only=ua`, `--rows=preflight` or `--rows=tagging` one of issue 42's);
 * `-- --compare REF` runs the chosen benchmarks (by default all but issue38) on another commit's build too, in the
 * same run: each module whole on ours, REF, REF, ours (bench/build.ts starts its services from the build in turn),
 * issue 38's rows repetition by repetition; the table gains REF's figure and ours / REF, and a summary lists the rows
 * worse than REF by more than 5%.
 * `-- --compare-share-modules`: REF uses our node_modules even when its package-lock.json differs (else `npm ci`).
 * `-- --compare-env NAME=VALUE[,NAME=VALUE]` against this build with those settings (a setting's effect, same loop).
 * `-- --compare-tracing`: against this build exporting its traces over OTLP to an OpenTelemetry Collector started for
 * the run (the cost of tracing, docs/observability.md); REF is the traced side.
 * `-- --out=FILE.md` writes the run's table there. No benchmark stops the run: one that fails is a row with its error. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runAnnotationsBench, type Row } from './annotations.js';
import { disposeEarlyClusterStores, runClusterBench, startClusterStoresEarly } from './cluster.js';
import { runDmsBench } from './dms.js';
import { printRows, runFoundationBench } from './foundation.js';
import { inLockstep, killSharedServers, OURS, stopSharedServers, withBuild, type Build } from './build.js';
import { buildRef } from './compare-ref.js';
import { startCollector } from '../test/helpers/otel-collector.js';
import { runIssue38 } from './issue38.js';
import { benchTime, loadNow, type BenchTime } from './lib.js';
import { runExportBench } from './export.js';
import { runHtmlBench } from './html.js';
import { runJobsBench } from './jobs.js';
import { runLinearizeBench } from './linearize.js';
import { runOptimizeBench } from './optimize.js';
import { runOptimizeLargeBench } from './optimize-large.js';
import { runOcrBench } from './ocr.js';
import { runOfficeBench } from './office.js';
import { runOneShotBench } from './oneshot.js';
import { runPagesBench } from './pages.js';
import { runPdfaBench } from './pdfa.js';
import { runPdfaMemoryBench } from './pdfa-memory.js';
import { runPreflightBench } from './preflight.js';
import { runRedactionBench } from './redaction.js';
import { runResourcesBench } from './resources.js';
import { runSecurityBench } from './security.js';
import { runSigningBench } from './signing.js';
import { markdownTable, mergeBuildRuns, refSummary, timesTable, writeReport } from './report.js';
import { runStampsBench } from './stamps.js';
import { runToolboxBench } from './toolbox.js';
import { runUaBench } from './ua.js';
import { runVersionsBench, STORES, type VersionsStore } from './versions.js';
import { runWatchedBench } from './watched.js';
import { runConsoleBench } from './console.js';

/**
 * `alone`: under --compare, the module runs whole on one build at a time (ours, REF, REF, ours) instead of in lockstep
 * with both builds' services up together: modules that measure memory or start a cluster of processes.
 */
const BENCHMARKS: { name: string; title: string; run: (quick: boolean) => Promise<Row[]>; alone?: boolean }[] = [
  { name: 'foundation', title: 'Foundation', run: async (quick) => (await runFoundationBench(quick)).rows },
  { name: 'annotations', title: 'Annotations', run: runAnnotationsBench },
  { name: 'redaction', title: 'Redaction', run: runRedactionBench },
  { name: 'stamps', title: 'Stamps', run: runStampsBench },
  { name: 'signing', title: 'Signing', run: runSigningBench },
  { name: 'security', title: 'Encryption', run: runSecurityBench },
  { name: 'pages', title: 'Page text', run: runPagesBench },
  { name: 'resources', title: 'Memory and scaling', run: runResourcesBench, alone: true },
  { name: 'jobs', title: 'Background jobs', run: runJobsBench },
  { name: 'ocr', title: 'OCR', run: runOcrBench },
  { name: 'preflight', title: 'PDF/A preflight', run: runPreflightBench },
  { name: 'pdfa', title: 'PDF/A conversion', run: runPdfaBench },
  { name: 'pdfa-memory', title: 'PDF/A conversion of a large image document (memory)', run: runPdfaMemoryBench, alone: true },
  { name: 'linearize', title: 'Linearization', run: runLinearizeBench },
  { name: 'optimize', title: 'Optimization', run: runOptimizeBench },
  { name: 'optimize-large', title: 'Optimization of a large scan (as a job)', run: runOptimizeLargeBench, alone: true },
  { name: 'office', title: 'Office conversion', run: runOfficeBench },
  { name: 'oneshot', title: 'One-shot conversion', run: runOneShotBench },
  // Issue 44's watched folder against a client loop running the same pipeline: by name only (bench/README.md).
  { name: 'watched', title: 'Watched folders (issue 44)', run: runWatchedBench },
  // Issue 45's console in Chromium (folder list, page 500, JavaScript shipped, page 1 of 200 MB against pdf.js): by name only.
  { name: 'console', title: 'Web console in Chromium (issue 45)', run: runConsoleBench, alone: true },
  { name: 'dms', title: 'Document store over WebDAV', run: runDmsBench },
  { name: 'cluster', title: 'Cluster: two instances on Redis + S3 vs one embedded', run: runClusterBench, alone: true },
  { name: 'versions', title: 'Document versions (issue 39)', run: (q) => runVersionsBench(q, versionStores, chosenRows) },
  // Issue 40's toolbox rows against their peers (pdfcpu, qpdf); `--rows=` picks some.
  { name: 'toolbox', title: 'Toolbox (issue 40)', run: (q) => runToolboxBench(q, chosenRows) },
  // Issue 41's Chromium pool against a `chromium --print-to-pdf` loop: by name only (the loop's browser starts take a
  // minute or more on a loaded machine, bench/html.ts).
  { name: 'html', title: 'HTML to PDF (issue 41)', run: runHtmlBench, alone: true },
  // Issue 43's export against LibreOffice's PDF import, pdf2docx, pdftotext and PyMuPDF4LLM on a ground-truth corpus:
  // by name only (its Python peers are installed from PyPI into .venv-bench the first time, bench/export.ts).
  { name: 'export', title: 'Export: quality and speed (issue 43)', run: runExportBench, alone: true },
  // Issue 42's accessibility rows (pdfua1 preflight against veraPDF per file; tagging a corpus against LibreOffice, a
  // soffice per file): by name only, `--rows=preflight,tagging`.
  { name: 'ua', title: 'Accessibility (issue 42)', run: (q) => runUaBench(q, chosenRows, uaSample) },
];

const args = process.argv.slice(2);
/** `--name=value` or `--name value`. */
const option = (name: string): string | undefined => {
  const at = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  return args[at]!.includes('=') ? args[at]!.slice(name.length + 3) : args[at + 1];
};
const quick = args.includes('--quick');
const compare = option('compare');
const compareEnv = option('compare-env');
const chosenRows = option('rows')?.split(',');
// `--only=ua --sample=N`: the tagging rows on N of the corpus's files, stratified by source (bench/ua.ts `stratified`).
const uaSample = option('sample') === undefined ? undefined : Number(option('sample'));
const out = option('out');
// --rows picks issue 38's rows: it is their default then.
const only = option('only')?.split(',') ?? (chosenRows ? ['issue38'] : undefined);
const ours = OURS;
// `--stores=s3,webdav`: the stores the versions rows run on (all three by default).
// A quick run (a smoke test) takes the filesystem store alone: the S3 and WebDAV rows start their servers (Swift's start
// alone is about 15 s), which a full run or `--stores=` asks for.
const versionStores = (option('stores')?.split(',') ?? (quick ? ['filesystem'] : [...STORES])) as VersionsStore[];
const unknownStores = versionStores.filter((store) => !(STORES as readonly string[]).includes(store));
if (unknownStores.length) throw new Error(`unknown store ${unknownStores.join(', ')}; known: ${STORES.join(', ')}`);

/** This checkout's server with some settings changed (`--compare-env PDFSERVICE_ENGINE_NICE=0`): what a setting does, measured in the same loop. */
function settingsBuild(list: string): { build: Build; remove: () => void } {
  const extra = Object.fromEntries(list.split(',').map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--compare-env takes NAME=VALUE pairs, got ${pair}`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
  const build: Build = {
    name: `this checkout, ${list}`,
    startServer: (options = {}) => ours.startServer({ ...options, env: { ...options.env, ...extra } }),
    startWorker: (env, dataDir) => ours.startWorker({ ...env, ...extra }, dataDir),
  };
  return { build, remove: () => undefined };
}
// Issue 38's rows: not in the default run (they measure again what the other benchmarks do, interleaved), by name only.
// They take the builds themselves and interleave them repetition by repetition.
BENCHMARKS.push({ name: 'issue38', title: "Issue 38's rows", run: (q) => runIssue38(refBuild ? [ours, refBuild.build] : [ours], q, chosenRows) });
const unknown = only?.filter((name) => !BENCHMARKS.some((b) => b.name === name)) ?? [];
if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
const compareTracing = args.includes('--compare-tracing');
if ([compare, compareEnv, compareTracing || undefined].filter(Boolean).length > 1) throw new Error('--compare, --compare-env and --compare-tracing: one of them');
const refBuild = compare ? await buildRef(compare, args.includes('--compare-share-modules')) : compareEnv ? settingsBuild(compareEnv) : compareTracing ? await tracingBuild() : undefined;

/**
 * This checkout's server with its traces exported to a real receiver (test/helpers/otel-collector.ts), every span
 * sampled, with the SDK's default batching (5 s delay, 512 spans a batch), as an operator runs it: the upload rows'
 * whole-row CPU time (bench/issue38.ts ROW_SETTLE_MS) counts the exports.
 */
async function tracingBuild(): Promise<{ build: Build; remove: () => void }> {
  const collector = await startCollector();
  const { build } = settingsBuild(`OTEL_EXPORTER_OTLP_ENDPOINT=${collector.otlp},OTEL_SERVICE_NAME=pdfservice-bench`);
  return { build: { ...build, name: 'this checkout, traced (OTLP to an OpenTelemetry Collector)' }, remove: () => void collector.stop() };
}
// A comparison stopped with Ctrl-C or a kill removes REF's worktree too (the finally below does not run then).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killSharedServers();
    // Early-started Redis and Swift die with this process (their parent-death signal).
    refBuild?.remove();
    process.exit(130);
  });
}

/** One run of a module on the build of its lane; a failure is its row. */
async function runModule(bench: (typeof BENCHMARKS)[number], build: Build): Promise<Row[]> {
  const began = Date.now();
  const loadAtStart = loadNow();
  let rows: Row[];
  try {
    rows = await bench.run(quick);
  } catch (error) {
    console.error(`${bench.name} on ${build.name} failed:`, error);
    rows = [{ operation: `${bench.title}: failed`, size: '-', ours: NaN, unit: '-', error: error instanceof Error ? error.message : String(error) }];
  }
  const load: [number, number] = [loadAtStart, loadNow()];
  for (const row of rows) row.load ??= load;
  console.log(`${bench.name} on ${build.name}: ${((Date.now() - began) / 1000).toFixed(1)} s, load ${load[0]} → ${load[1]}`);
  return rows;
}

/**
 * A module's rows; with a build to compare against, the module on both builds, merged row by row: two rounds in
 * lockstep (bench/build.ts: the builds take turns at every measurement, ours first in the first round, REF first in
 * the second), or, for a module marked `alone`, its whole run on ours, REF, REF, ours. Either way a machine getting
 * busier or quieter weighs on both alike, and each row has two pairs for the spread of ours / REF. Issue 38's rows
 * compare themselves.
 */
async function runOn(bench: (typeof BENCHMARKS)[number]): Promise<Row[]> {
  if (!refBuild || bench.name === 'issue38') return bench.run(quick);
  const ref = refBuild.build;
  const runs: { side: 'ours' | 'ref'; rows: Row[] }[] = [];
  if (bench.alone) {
    for (const side of ['ours', 'ref', 'ref', 'ours'] as const) {
      const build = side === 'ours' ? ours : ref;
      runs.push({ side, rows: await withBuild(build, () => runModule(bench, build)) });
    }
  } else {
    for (const first of [0, 1] as const) {
      const [a, b] = await inLockstep([ours, ref], first, (build) => runModule(bench, build));
      const rowsOf = (settled: PromiseSettledResult<Row[]>) => (settled.status === 'fulfilled' ? settled.value : []);
      const round = [{ side: 'ours' as const, rows: rowsOf(a!) }, { side: 'ref' as const, rows: rowsOf(b!) }];
      runs.push(...(first ? round.reverse() : round));
    }
  }
  return mergeBuildRuns(runs, ref.name);
}
const started = Date.now();
const rows: Row[] = [];
/** Each benchmark's time against its budget (bench/lib.ts BUDGETS), printed and kept in the report. */
const times: BenchTime[] = [];
try {
  // The toolbox rows need pdfcpu (built with go): by name only, as issue 38's.
  const chosen = BENCHMARKS.filter((b) => (only ? only.includes(b.name) : !['issue38', 'toolbox', 'html', 'export', 'ua', 'watched', 'console'].includes(b.name)));
  for (const bench of chosen) {
    // Quick: the cluster's Redis and Swift start in the background from the one-shot benchmark on (or the first chosen
    // after it), whose LibreOffice conversions, and dms's, leave a core idle (bench/cluster.ts startClusterStoresEarly).
    const at = BENCHMARKS.indexOf(bench);
    if (quick && at >= BENCHMARKS.findIndex((b) => b.name === 'oneshot') && chosen.some((b) => b.name === 'cluster' && BENCHMARKS.indexOf(b) >= at)) startClusterStoresEarly();
    const benchStarted = Date.now();
    const loadAtStart = loadNow();
    let result: Row[];
    try {
      result = await runOn(bench);
    } catch (error) {
      // A benchmark that fails is reported with its error, and the run goes on.
      console.error(`${bench.name} failed:`, error);
      result = [{ operation: `${bench.title}: failed`, size: '-', ours: NaN, unit: '-', error: error instanceof Error ? error.message : String(error) }];
    }
    // Rows that did not record their own load average get their benchmark's.
    const load: [number, number] = [loadAtStart, loadNow()];
    for (const row of result) row.load ??= load;
    // Under --compare a benchmark runs on both builds: its budget is for one.
    const time = benchTime(bench.name, (Date.now() - benchStarted) / 1000 / (refBuild && bench.name !== 'issue38' ? 2 : 1), quick, load);
    times.push({ name: time.name, seconds: time.seconds, budget: time.budget, allowed: time.allowed, load: time.load });
    console.log(`\n${bench.title} (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()}, ${time.line}, load average ${load[0]} → ${load[1]})\n`);
    printRows(result);
    rows.push(...result);
  }
} finally {
  // The services benchmarks shared (bench/build.ts sharedServer), before REF's worktree goes.
  await stopSharedServers();
  await disposeEarlyClusterStores();
  refBuild?.remove();
}
const seconds = (Date.now() - started) / 1000;
const summary = refBuild ? refSummary(rows, refBuild.build.name) : undefined;
if (summary) console.log(`\n${summary.join('\n')}`);
// A comparison is not the bench's report: latest.* stay as they were.
if (!only && !refBuild) writeReport(fileURLToPath(new URL('../../bench/results/', import.meta.url)), rows, { date: new Date().toISOString(), quick, seconds, node: process.version, benchmarks: times });
if (out) {
  const heading = `# ${only?.join(', ') ?? 'All benchmarks'} (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()}, ${seconds.toFixed(0)} s, Node.js ${process.version}${refBuild ? `, against ${refBuild.build.name}` : ''})`;
  const verdict = summary ? `\n${summary.join('\n')}\n` : '';
  writeFileSync(out, `${heading}\n\n\`node dist/bench/run.js ${args.join(' ')}\`\n\n${markdownTable(rows).join('\n')}\n${verdict}\n${timesTable(times, quick).join('\n')}\n`);
}
console.log(`\n${timesTable(times, quick).join('\n')}`);
console.log(`\nfinished in ${seconds.toFixed(1)} s${only || refBuild ? '' : '; report in bench/results/latest.md (and .json, .svg)'}${out ? `; table in ${out}` : ''}`);
