/** `npm run bench` (add `-- --quick` for a short run): runs the benchmarks and prints their tables. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runAnnotationsBench } from './annotations.js';
import { printRows, runFoundationBench } from './foundation.js';
import { runRedactionBench } from './redaction.js';
import { runStampsBench } from './stamps.js';

const quick = process.argv.includes('--quick');
const started = Date.now();
const foundation = await runFoundationBench(quick);
console.log(`\nFoundation (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()})\n`);
printRows(foundation.rows);
const annotations = await runAnnotationsBench(quick);
console.log(`\nAnnotations (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()})\n`);
printRows(annotations);
const redaction = await runRedactionBench(quick);
console.log(`\nRedaction (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()})\n`);
printRows(redaction);
const stamps = await runStampsBench(quick);
console.log(`\nStamps (${quick ? 'quick' : 'full'} run, ${new Date().toISOString()})\n`);
printRows(stamps);
const resultsDir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(`${resultsDir}latest.json`, `${JSON.stringify({ quick, date: new Date().toISOString(), rows: [...foundation.rows, ...annotations, ...redaction, ...stamps] }, null, 2)}\n`);
console.log(`\nfinished in ${((Date.now() - started) / 1000).toFixed(1)} s; results in bench/results/latest.json`);
