/**
 * `npm run bench` (add `-- --quick` for a short run): runs the benchmarks and prints their tables.
 * `-- --only=pages,redaction` runs some of them and leaves bench/results/latest.json as it was.
 */
import { fileURLToPath } from 'node:url';
import { runAnnotationsBench, type Row } from './annotations.js';
import { runClusterBench } from './cluster.js';
import { runDmsBench } from './dms.js';
import { printRows, runFoundationBench } from './foundation.js';
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
import { writeReport } from './report.js';
import { runStampsBench } from './stamps.js';

const BENCHMARKS: { name: string; title: string; run: (quick: boolean) => Promise<Row[]> }[] = [
  { name: 'foundation', title: 'Foundation', run: async (quick) => (await runFoundationBench(quick)).rows },
  { name: 'annotations', title: 'Annotations', run: runAnnotationsBench },
  { name: 'redaction', title: 'Redaction', run: runRedactionBench },
  { name: 'stamps', title: 'Stamps', run: runStampsBench },
  { name: 'signing', title: 'Signing', run: runSigningBench },
  { name: 'security', title: 'Encryption', run: runSecurityBench },
  { name: 'pages', title: 'Page text', run: runPagesBench },
  { name: 'resources', title: 'Memory and scaling', run: runResourcesBench },
  { name: 'jobs', title: 'Background jobs', run: runJobsBench },
  { name: 'ocr', title: 'OCR', run: runOcrBench },
  { name: 'preflight', title: 'PDF/A preflight', run: runPreflightBench },
  { name: 'pdfa', title: 'PDF/A conversion', run: runPdfaBench },
  { name: 'pdfa-memory', title: 'PDF/A conversion of a large image document (memory)', run: runPdfaMemoryBench },
  { name: 'linearize', title: 'Linearization', run: runLinearizeBench },
  { name: 'optimize', title: 'Optimization', run: runOptimizeBench },
  { name: 'optimize-large', title: 'Optimization of a large scan (as a job)', run: runOptimizeLargeBench },
  { name: 'office', title: 'Office conversion', run: runOfficeBench },
  { name: 'oneshot', title: 'One-shot conversion', run: runOneShotBench },
  { name: 'dms', title: 'Document store over WebDAV', run: runDmsBench },
  { name: 'cluster', title: 'Cluster: two instances on Redis + S3 vs one embedded', run: runClusterBench },
];

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const unknown = only?.filter((name) => !BENCHMARKS.some((b) => b.name === name)) ?? [];
if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
const started = Date.now();
const rows: Row[] = [];
for (const bench of BENCHMARKS.filter((b) => !only || only.includes(b.name))) {
  const benchStarted = Date.now();
  const result = await bench.run(quick);
  console.log(`\n${bench.title} (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()}, ${((Date.now() - benchStarted) / 1000).toFixed(1)} s)\n`);
  printRows(result);
  rows.push(...result);
}
const seconds = (Date.now() - started) / 1000;
if (!only) writeReport(fileURLToPath(new URL('../../bench/results/', import.meta.url)), rows, { date: new Date().toISOString(), quick, seconds, node: process.version });
console.log(`\nfinished in ${seconds.toFixed(1)} s${only ? '' : '; report in bench/results/latest.md (and .json, .svg)'}`);
