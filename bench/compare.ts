/**
 * Compares two benchmark reports row by row (same operation and size): how
 * much slower or faster each of our figures got. Issue 17 asks that no
 * operation be more than 5% slower than the report of 2026-11-21
 * (`baseline-2026-11-21.json`). Where a row has a peer measured in the same
 * run, the ratio to the peer is compared as well: it cancels out a machine
 * that is busier or slower on one day than on the other.
 *
 *   node dist/bench/compare.js [baseline.json] [current.json]
 *
 * Writes bench/results/compare.md and prints it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Row } from './annotations.js';
import { formatValue, higherIsBetter } from './report.js';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results');
const LIMIT = 1.05;

interface Report {
  date: string;
  quick: boolean;
  rows: Row[];
}

/** Above 1: slower (or less throughput) now than then. */
const change = (now: number, then: number, r: Row) => (higherIsBetter(r) ? then / now : now / then);

function read(file: string): Report {
  return JSON.parse(readFileSync(file, 'utf8')) as Report;
}

const [baselineFile = path.join(RESULTS, 'baseline-2026-11-21.json'), currentFile = path.join(RESULTS, 'latest.json')] = process.argv.slice(2);
const baseline = read(baselineFile);
const current = read(currentFile);
const before = new Map(baseline.rows.map((r) => [`${r.operation}\u0000${r.size}`, r]));

const lines = [
  `# Benchmark comparison: ${current.date} against ${baseline.date}`,
  '',
  `Produced by \`node dist/bench/compare.js\`. "now/then" is our median now over our median then (for throughput, then over now): above 1.05 is more than 5% slower. ` +
    '"vs peer" compares our ratio to the peer, measured in the same run each time, so a machine that is slower on one day cancels out. ' +
    'A row is flagged only when both say slower by more than 5% (or the row has no peer and its median is above the old spread).',
  '',
  '| operation | size | then | now | now/then | vs peer now/then | flag |',
  '|---|---|---|---|---|---|---|',
];
let flagged = 0;
for (const r of current.rows) {
  const old = before.get(`${r.operation}\u0000${r.size}`);
  if (!old || old.unit !== r.unit) continue;
  const own = change(r.ours, old.ours, r);
  const peer = r.peer !== undefined && old.peer !== undefined && r.peer > 0 && old.peer > 0 ? change(r.ours / r.peer, old.ours / old.peer, r) : undefined;
  const outsideSpread = old.oursSpread ? (higherIsBetter(r) ? r.ours < old.oursSpread[0] : r.ours > old.oursSpread[1]) : true;
  const slower = own > LIMIT && (peer !== undefined ? peer > LIMIT : outsideSpread);
  if (slower) flagged++;
  lines.push(
    `| ${r.operation} | ${r.size} | ${formatValue(old.ours, old.unit, old.oursSpread)} | ${formatValue(r.ours, r.unit, r.oursSpread)} | ${own.toFixed(2)} | ${peer === undefined ? '-' : peer.toFixed(2)} | ${slower ? '**slower**' : ''} |`,
  );
}
lines.push('', `${flagged} row(s) flagged.`, '');
const text = lines.join('\n');
writeFileSync(path.join(RESULTS, 'compare.md'), text);
process.stdout.write(text);
