/**
 * The benchmark report: the rows of every benchmark as JSON, as a Markdown
 * table, and as an SVG chart of the ratio to the peer per operation (log
 * scale, 1x marked), so that a person sees at a glance where the service is
 * faster or slower than the tools people know.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Row } from './annotations.js';
import { median, type BenchTime } from './lib.js';

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** A figure with its unit, and its spread (fastest–slowest repetition) when it is a median: "181 ms (175–190)". */
export function formatValue(value: number, unit: string, spread?: [number, number]): string {
  // A figure a side does not have (the export bench's DOCX text boxes while the build has no DOCX export).
  if (Number.isNaN(value)) return '-';
  return `${fmt(value)} ${unit}${spread ? ` (${fmt(spread[0])}–${fmt(spread[1])})` : ''}`;
}

/** The peer's cell: "mutool run: 155 ms (150–160)", or "-". */
export function formatPeer(r: Row): string {
  return r.peer !== undefined ? `${r.peerName ?? 'peer'}: ${formatValue(r.peer, r.unit, r.peerSpread)}` : '-';
}

/** The ratio of the medians with the spread of the pairwise ratios when the row has one: "1.32x (1.10–1.61)". */
export function formatRatio(r: Row): string {
  if (r.peer === undefined || r.peer === 0 || Number.isNaN(r.ours)) return '-';
  const p = r.pairwise;
  if (p) return `median of ${p.pairs} pairwise ratios ${p.median.toFixed(3)}x, ${(p.coverage * 100).toFixed(0)}% interval ${p.low.toFixed(3)}–${p.high.toFixed(3)}${r.ratioSpread ? ` (pairs ${r.ratioSpread[0].toFixed(2)}–${r.ratioSpread[1].toFixed(2)})` : ''}`;
  return `${(r.ours / r.peer).toFixed(2)}x${r.ratioSpread ? ` (${r.ratioSpread[0].toFixed(2)}–${r.ratioSpread[1].toFixed(2)})` : ''}`;
}

/** "2.1→3.4", the 1-minute load average at the row's start and end, or "-". */
export function formatLoad(r: Row): string {
  return r.load ? `${r.load[0].toFixed(1)}→${r.load[1].toFixed(1)}` : '-';
}

/** `--compare REF`: the other build's median and ours over it, with the pairwise spread. */
export function formatRef(r: Row): [string, string] {
  if (r.refError !== undefined) return [`FAILED: ${r.refError.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 200)}`, '-'];
  if (r.ref === undefined) return ['-', '-'];
  const ratio = `${(r.ours / r.ref).toFixed(2)}x${r.refRatioSpread ? ` (${r.refRatioSpread[0].toFixed(2)}–${r.refRatioSpread[1].toFixed(2)})` : ''}`;
  return [formatValue(r.ref, r.unit, r.refSpread), ratio];
}

/** A row's cells as the tables show them: operation, size, ours, peer, ratio, target, met, load (and ref, ours/ref). */
export function cells(r: Row, withRef: boolean): string[] {
  const ref = withRef ? formatRef(r) : [];
  if (r.error !== undefined) return [r.operation, r.size, `FAILED: ${r.error.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 300)}`, '-', '-', r.target ?? '-', '-', formatLoad(r), ...ref];
  if (r.unavailable !== undefined) return [r.operation, r.size, `not available: ${r.unavailable.replace(/\|/g, '/')}`, formatPeer(r), '-', r.target ?? '-', '-', formatLoad(r), ...ref];
  const met = r.met === undefined ? '-' : r.met ? 'yes' : r.undecided ? '**no** (undecided)' : '**no**';
  return [r.operation, r.size, formatValue(r.ours, r.unit, r.oursSpread), formatPeer(r), formatRatio(r), r.target ?? '-', met, formatLoad(r), ...ref];
}

/** The header of those cells. */
export function header(withRef: boolean, refName?: string): string[] {
  return ['operation', 'size', 'ours', 'peer', 'ratio (pairwise min–max)', 'target', 'met', 'load avg start→end', ...(withRef ? [`ref: ${refName ?? 'REF'}`, 'ours / ref (pairwise min–max)'] : [])];
}

/** A Markdown table of rows. */
export function markdownTable(rows: Row[]): string[] {
  const withRef = rows.some((r) => r.ref !== undefined || r.refError !== undefined);
  const head = header(withRef, rows.find((r) => r.refName)?.refName);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${cells(r, withRef).join(' | ')} |`)];
}

/** Rows whose figure is better when higher: throughput, speed-ups, cores put to use, OCR's word recall, export scores. */
export function higherIsBetter(r: Row): boolean {
  return ['req/s', 'conv/min', 'jobs/min', 'x', 'cores', 'F1', 'share'].includes(r.unit) || /word recall/.test(r.operation);
}

/**
 * `--compare REF` for the benchmark modules: their runs on each build (run.ts: two rounds in lockstep, or whole runs
 * ours, REF, REF, ours), merged row by row (same operation but for its numbers, in order). Each side's figure is the median
 * of its runs' medians and its spread the fastest and slowest repetition of all of them; ours / REF's spread is the
 * lowest and highest ratio of the runs paired in order (ours 1 with REF 1, ours 2 with REF 2); the peer columns are
 * those of our runs (the peer ran beside ours); the load is the first run's start and the last run's end.
 */
export function mergeBuildRuns(runs: { side: 'ours' | 'ref'; rows: Row[] }[], refName: string): Row[] {
  // Per row (its operation with its numbers left out, and its place among that operation's rows: an operation or a size
  // may hold a measured figure, "ours 10.3 pages/min", "500 listings of 1,000"), its runs in the order they ran.
  const byKey = new Map<string, { side: 'ours' | 'ref'; row: Row }[]>();
  for (const run of runs) {
    const seen = new Map<string, number>();
    for (const row of run.rows) {
      const operation = row.operation.replace(/\d[\d.,]*/g, '#');
      const n = seen.get(operation) ?? 0;
      seen.set(operation, n + 1);
      const k = `${operation}\u0000${n}`;
      byKey.set(k, [...(byKey.get(k) ?? []), { side: run.side, row }]);
    }
  }
  const spreadOf = (rows: Row[], spread: (r: Row) => [number, number] | undefined, value: (r: Row) => number): [number, number] => [
    Math.min(...rows.map((r) => spread(r)?.[0] ?? value(r))),
    Math.max(...rows.map((r) => spread(r)?.[1] ?? value(r))),
  ];
  const firstError = (rows: Row[]) => rows.find((r) => r.error !== undefined)?.error;
  // A module that failed on one side has a row of its own there ("Title: failed"): the error its missing rows show.
  const sideError = (side: 'ours' | 'ref') => firstError([...byKey.values()].filter((t) => t.every((x) => x.side === side)).flatMap((t) => t.map((x) => x.row)));
  const refModuleError = sideError('ref');
  return [...byKey.values()].map((taken) => {
    const ours = taken.filter((t) => t.side === 'ours').map((t) => t.row);
    const ref = taken.filter((t) => t.side === 'ref').map((t) => t.row);
    const loads = taken.map((t) => t.row.load).filter((l) => l !== undefined);
    const load: [number, number] | undefined = loads.length ? [loads[0]![0], loads.at(-1)![1]] : undefined;
    const oursOk = ours.filter((r) => r.error === undefined);
    const refOk = ref.filter((r) => r.error === undefined);
    const refError = ref.length > 0 && refOk.length === ref.length ? undefined : (firstError(ref) ?? refModuleError ?? `no such row on ${refName}`);
    const refSide = refError === undefined ? { ref: median(refOk.map((r) => r.ours)), refSpread: spreadOf(refOk, (r) => r.oursSpread, (r) => r.ours) } : { refError };
    if (oursOk.length === 0 || oursOk.length < ours.length) {
      return { ...(ours[0] ?? ref[0]!), ours: NaN, error: firstError(ours) ?? sideError('ours') ?? `a row of ${refName} only`, load, refName, ...refSide };
    }
    const merged: Row = {
      ...ours[0]!,
      ours: median(oursOk.map((r) => r.ours)),
      oursSpread: spreadOf(oursOk, (r) => r.oursSpread, (r) => r.ours),
      runs: oursOk.reduce((sum, r) => sum + (r.runs ?? 1), 0),
      met: oursOk.some((r) => r.met === false) ? false : oursOk.every((r) => r.met === true) ? true : undefined,
      load,
      refName,
      ...refSide,
    };
    const peers = oursOk.filter((r) => r.peer !== undefined);
    if (peers.length) {
      merged.peer = median(peers.map((r) => r.peer!));
      merged.peerSpread = spreadOf(peers, (r) => r.peerSpread, (r) => r.peer!);
      const ratios = peers.filter((r) => r.ratioSpread);
      merged.ratioSpread = ratios.length ? spreadOf(ratios, (r) => r.ratioSpread, () => NaN) : undefined;
    }
    if (refError === undefined) {
      const pairs = oursOk.slice(0, refOk.length).map((r, i) => r.ours / refOk[i]!.ours);
      merged.refRatioSpread = [Math.min(...pairs), Math.max(...pairs)];
    }
    return merged;
  });
}

/**
 * The `--compare` verdict: rows worse on this build than on REF by more than 5% (slower; for throughput and the like,
 * lower), each with ours / REF and whether its pairwise spread reaches 1.0 (then the difference is within what the
 * runs moved), and rows without a REF figure.
 */
export function refSummary(rows: Row[], refName: string): string[] {
  const compared = rows.filter((r) => r.ref !== undefined && r.ref > 0 && Number.isFinite(r.ours));
  const worse = compared.filter((r) => (higherIsBetter(r) ? r.ref! / r.ours : r.ours / r.ref!) > 1.05);
  const lines = [`**Against ${refName}: ${worse.length} of ${compared.length} compared rows worse by more than 5%${worse.length ? ':' : '.'}**`];
  for (const r of worse) {
    const spread = r.refRatioSpread;
    const overlaps = spread ? spread[0] <= 1 && spread[1] >= 1 : undefined;
    lines.push(`- ${r.operation}, ${r.size}: ours / ref ${formatRef(r)[1]}${higherIsBetter(r) ? ' (higher is better)' : ''}; spread ${overlaps === undefined ? 'not known (one pair)' : overlaps ? 'overlaps 1.0' : 'does not overlap 1.0'}`);
  }
  const missing = rows.filter((r) => r.ref === undefined || !Number.isFinite(r.ours));
  const why = (r: Row) => (r.error !== undefined ? ` (this build: ${r.error.slice(0, 80)})` : r.refError !== undefined ? ` (ref: ${r.refError.slice(0, 80)})` : '');
  if (missing.length) lines.push(`- ${missing.length} row(s) without a figure on both builds: ${missing.map((r) => `${r.operation}, ${r.size}${why(r)}`).join('; ')}`);
  return lines;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** What a report records about its run; `benchmarks`: each benchmark's time against its budget (bench/lib.ts). */
export interface ReportMeta {
  date: string;
  quick: boolean;
  seconds: number;
  node: string;
  benchmarks?: BenchTime[];
}

/** Each benchmark's time, budget on an idle machine, the budget scaled by the load it ran at, and whether it kept to it. */
export function timesTable(times: BenchTime[], quick: boolean): string[] {
  if (!times.length) return [];
  const total = times.reduce((sum, t) => sum + t.seconds, 0);
  const budget = times.reduce((sum, t) => sum + (t.budget ?? 0), 0);
  return [
    `Time per benchmark (${quick ? 'quick' : 'full'} run; budgets are for an idle 2-core machine with the fixtures cached, scaled by the load average on a busy one: bench/README.md, "Time budget"):`,
    '',
    '| benchmark | time | budget | budget at this load | within | load avg start→end |',
    '|---|---|---|---|---|---|',
    ...times.map((t) => `| ${t.name} | ${t.seconds.toFixed(1)} s | ${t.budget === undefined ? '-' : `${t.budget} s`} | ${t.allowed === undefined ? '-' : `${t.allowed} s`} | ${t.allowed === undefined ? '-' : t.seconds <= t.allowed ? 'yes' : '**no**'} | ${t.load[0]}→${t.load[1]} |`),
    `| all | ${total.toFixed(0)} s | ${budget} s | | | |`,
  ];
}

export function markdownReport(rows: Row[], meta: ReportMeta): string {
  const lines = [
    `# Benchmark report (${meta.quick ? 'quick' : 'full'} run, ${meta.date})`,
    '',
    `Produced by \`npm run bench${meta.quick ? ' -- --quick' : ''}\` in ${meta.seconds.toFixed(0)} s on this machine, Node.js ${meta.node}. Timings are medians of several repetitions, each followed by the fastest and slowest repetition in brackets; \`latest.json\` holds the same rows with the count of repetitions. Ratio is our median divided by the peer's (below 1: we are faster or smaller), with the fastest and slowest ratio of the pairs run back to back in brackets; the load average is the machine's 1-minute figure when the row (or its benchmark) started and ended. Targets of operations measured at several sizes are checked at 200 pages, where the issues set them. See [bench/README.md](../README.md) for what each row measures.`,
    '',
    '![ratio per operation](latest.svg)',
    '',
    ...markdownTable(rows),
    ...(meta.benchmarks?.length ? ['', ...timesTable(meta.benchmarks, meta.quick)] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A horizontal bar per row that has a peer: the ratio of the medians on a log
 * scale from 1/16x to 16x (clamped; the figure says the real value), rows of
 * one operation under its name, one bar per size, so that how an operation
 * scales against its peer reads at a glance.
 */
export function svgChart(rows: Row[]): string {
  // Throughput and speed-ups are better when higher: their bars show peer / ours, so that left of the line
  // still means better than the peer for every bar.
  const ratioOf = (r: Row) => (higherIsBetter(r) ? r.peer! / r.ours : r.ours / r.peer!);
  const groups: { operation: string; rows: Row[] }[] = [];
  for (const r of rows) {
    if (r.peer === undefined || !(r.peer > 0) || !(r.ours > 0)) continue;
    const last = groups.at(-1);
    if (last?.operation === r.operation) last.rows.push(r);
    else groups.push({ operation: r.operation, rows: [r] });
  }
  const labelWidth = 300;
  const plotWidth = 520;
  const headingHeight = 20;
  const rowHeight = 18;
  const top = 64;
  const height = top + groups.reduce((sum, g) => sum + headingHeight + g.rows.length * rowHeight + 6, 0) + 30;
  const min = Math.log2(1 / 16);
  const max = Math.log2(16);
  const x = (ratio: number) => labelWidth + ((Math.min(max, Math.max(min, Math.log2(ratio))) - min) / (max - min)) * plotWidth;
  const colours = { met: '#5cb85c', missed: '#d9534f', none: '#5b9bd5' };
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 80}" height="${height}" font-family="sans-serif" font-size="12">`,
    '<rect width="100%" height="100%" fill="white"/>',
    '<text x="10" y="20" font-size="14" font-weight="bold">Ours / peer per operation and size (medians, log scale; left of the line: better than the peer)</text>',
    `<rect x="10" y="32" width="12" height="12" fill="${colours.met}"/><text x="26" y="42">target met</text>`,
    `<rect x="110" y="32" width="12" height="12" fill="${colours.missed}"/><text x="126" y="42">target missed</text>`,
    `<rect x="230" y="32" width="12" height="12" fill="${colours.none}"/><text x="246" y="42">no target at this size</text>`,
  ];
  for (const tick of [1 / 16, 1 / 4, 1, 4, 16]) {
    const tx = x(tick);
    parts.push(`<line x1="${tx}" y1="${top - 8}" x2="${tx}" y2="${height - 25}" stroke="${tick === 1 ? '#333' : '#ddd'}" stroke-width="${tick === 1 ? 2 : 1}"/>`);
    parts.push(`<text x="${tx}" y="${height - 10}" text-anchor="middle">${tick >= 1 ? `${tick}x` : `1/${1 / tick}x`}</text>`);
  }
  let y = top;
  for (const group of groups) {
    const first = group.rows[0]!;
    const heading = `${group.operation} (peer: ${first.peerName ?? 'peer'}${higherIsBetter(first) ? '; higher is better, so the bar is peer / ours' : ''})`;
    parts.push(`<text x="10" y="${y + 14}" font-weight="bold">${escapeXml(heading)}</text>`);
    y += headingHeight;
    for (const r of group.rows) {
      const ratio = ratioOf(r);
      const from = x(1);
      const to = x(ratio);
      const colour = r.met === false ? colours.missed : r.met === true ? colours.met : colours.none;
      parts.push(`<text x="${labelWidth - 8}" y="${y + 13}" text-anchor="end">${escapeXml(r.size.slice(0, 45))}</text>`);
      parts.push(`<rect x="${Math.min(from, to)}" y="${y + 3}" width="${Math.max(1, Math.abs(to - from))}" height="${rowHeight - 6}" fill="${colour}"/>`);
      parts.push(`<text x="${Math.max(from, to) + 4}" y="${y + 13}">${ratio.toFixed(2)}x</text>`);
      y += rowHeight;
    }
    y += 6;
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export function writeReport(dir: string, rows: Row[], meta: ReportMeta): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}latest.json`, `${JSON.stringify({ quick: meta.quick, date: meta.date, seconds: meta.seconds, node: meta.node, benchmarks: meta.benchmarks, rows }, null, 2)}\n`);
  writeFileSync(`${dir}latest.md`, markdownReport(rows, meta));
  writeFileSync(`${dir}latest.svg`, svgChart(rows));
}
