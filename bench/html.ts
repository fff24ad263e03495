/**
 * HTML to PDF through the warm Chromium pool (issue 41, docs/html.md "The pool"), through the API (`PUT` text/html):
 * - the first conversion right after the service starts (its browsers start as it listens: PDFSERVICE_CHROMIUM_PREWARM's
 *   default, which bench/build.ts keeps; the conversion waits for the first one ready): target < 2 s;
 * - latency of a warm 1-page invoice (a table and CSS) with 4 clients at once: p50 < 150 ms, p99 < 1 s;
 * - throughput against a loop of `chromium --headless --no-sandbox --print-to-pdf` (one process per file, as a script
 *   does), in interleaved rounds (ours, loop, ours, loop...): target at least 10x, with the spread of the rounds' ratios;
 * - the pool's peak memory: the sum of the VmRSS of the service's chromium processes (browsers, renderers, GPU and
 *   zygote processes) sampled every 50 ms during the loaded runs (as bench/pdfa-memory.ts samples its programs).
 * The pool drives the headless shell (chromium-headless-shell) where installed; the loop is the full browser's
 * `--headless`, as issue 41 names it.
 * Gotenberg does not run here: its published figure (3-4 s a warm conversion, its issues #623 and #1047) is stated in
 * the results' prose, not measured.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TestServer } from '../test/helpers/server.js';
import { descendants, isChromium } from '../test/helpers/processes.js';
import type { Row } from './annotations.js';
import { startServer } from './build.js';
import { loadNow, median, percentile, timeCommand } from './lib.js';

const CLIENTS = 4;
const MB = 1024 * 1024;

/** A 1-page invoice as an invoicing program writes one: inline CSS, a header block, a 12-line table, totals. */
export function invoiceHtml(number: number): string {
  const lines = Array.from({ length: 12 }, (_, i) => {
    const quantity = (i % 4) + 1;
    const price = 19.5 + i * 7.25;
    return `<tr><td>${i + 1}</td><td>Consulting service item ${i + 1}, on-site work and report</td><td class="n">${quantity}</td><td class="n">${price.toFixed(2)}</td><td class="n">${(quantity * price).toFixed(2)}</td></tr>`;
  }).join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Invoice ${number}</title><style>
@page { size: A4; margin: 18mm 16mm; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 10pt; color: #222; }
header { display: flex; justify-content: space-between; border-bottom: 2px solid #2a5db0; padding-bottom: 8px; }
h1 { color: #2a5db0; font-size: 22pt; margin: 0; }
.addr { line-height: 1.4; }
table { width: 100%; border-collapse: collapse; margin-top: 18px; }
th { background: #2a5db0; color: white; text-align: left; padding: 6px; }
td { border-bottom: 1px solid #ddd; padding: 5px 6px; }
tr:nth-child(even) td { background: #f4f7fb; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
.totals { margin-top: 12px; width: 40%; margin-left: auto; }
.totals td { border: none; }
footer { margin-top: 30px; font-size: 8pt; color: #666; }
</style></head><body>
<header><div><h1>Invoice</h1><p>No. ${number} · 2026-12-01</p></div>
<div class="addr"><strong>Example Consulting GmbH</strong><br>Hauptstraße 1<br>10115 Berlin</div></header>
<p class="addr">Bill to:<br>ACME Corporation<br>500 Market Street<br>San Francisco, CA 94105</p>
<table><thead><tr><th>#</th><th>Description</th><th class="n">Qty</th><th class="n">Price</th><th class="n">Amount</th></tr></thead>
<tbody>${lines}</tbody></table>
<table class="totals"><tr><td>Subtotal</td><td class="n">1,234.50</td></tr><tr><td>VAT 19%</td><td class="n">234.56</td></tr><tr><td><strong>Total</strong></td><td class="n"><strong>1,469.06</strong></td></tr></table>
<footer>Payable within 14 days. IBAN DE00 0000 0000 0000 0000 00.</footer>
</body></html>`;
}

/** One invoice converted and stored; its time in ms. A 503 (queue full) is retried after its Retry-After. */
async function convert(server: TestServer, documentPath: string, html: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const reply = await fetch(`${server.api}/documents/${documentPath}`, {
      method: 'PUT',
      headers: { authorization: server.adminAuth, 'content-type': 'text/html' },
      body: html,
    });
    const text = await reply.text();
    if (reply.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0.2, Number(reply.headers.get('retry-after') ?? '1')) * 1000));
      continue;
    }
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`${documentPath}: the upload answered ${reply.status}: ${text.slice(0, 300)}`);
    return performance.now() - started;
  }
}

/** `count` invoices by `CLIENTS` clients taking the next as each finishes: the wall time and every conversion's time. */
async function convertMany(server: TestServer, count: number, prefix: string): Promise<{ ms: number; samples: number[] }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < count; i = next++) samples.push(await convert(server, `bench-html/${prefix}-${i}.pdf`, invoiceHtml(i)));
    }),
  );
  return { ms: performance.now() - started, samples };
}

/** The sum of the VmRSS of the service's chromium processes now, in bytes. */
function browserRss(root: number): number {
  let bytes = 0;
  for (const [pid, comm] of descendants(root)) {
    if (!isChromium(comm)) continue;
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      bytes += kb ? Number(kb[1]) * 1024 : 0;
    } catch {
      /* ended meanwhile */
    }
  }
  return bytes;
}

/** Samples browserRss every 50 ms until stopped; the largest sum seen. */
function samplePeak(root: number): () => number {
  let peak = browserRss(root);
  const timer = setInterval(() => {
    peak = Math.max(peak, browserRss(root));
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, browserRss(root));
  };
}

/** The peer: one `chromium --headless --no-sandbox --print-to-pdf` process per file, one after the other; each file's ms. */
async function chromiumLoop(work: string, files: string[]): Promise<number[]> {
  const times: number[] = [];
  // Its own HOME, so the loop's profile is made in the run's folder (the first file pays for it, as a script's first run).
  const env = { ...process.env, HOME: work };
  for (const file of files) {
    times.push(await timeCommand('chromium', ['--headless', '--no-sandbox', `--print-to-pdf=${path.join(work, 'out.pdf')}`, `file://${file}`], { env }));
  }
  return times;
}

const spread = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

export async function runHtmlBench(quick: boolean): Promise<Row[]> {
  const rounds = quick ? 2 : 5;
  const perRound = quick ? 8 : 20;
  const latencyCount = quick ? 40 : 200;
  const work = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-html-'));
  const files = Array.from({ length: quick ? 2 : 4 }, (_, i) => {
    const file = path.join(work, `invoice-${i}.html`);
    writeFileSync(file, invoiceHtml(i));
    return file;
  });
  // Its own service: the first conversion after a start is measured, and the browsers' memory is the pool's alone.
  const server = await startServer();
  try {
    const firstLoad = loadNow();
    const first = await convert(server, 'bench-html/first.pdf', invoiceHtml(0));
    const root = server.child.pid!;
    // Warm every browser of the pool (one per core by default).
    await convertMany(server, 2 * CLIENTS, 'warm');

    const stopPeak = samplePeak(root);
    const latencyLoad: [number, number] = [loadNow(), 0];
    const loaded = (await convertMany(server, latencyCount, 'latency')).samples.sort((a, b) => a - b);
    latencyLoad[1] = loadNow();

    const throughputLoad: [number, number] = [loadNow(), 0];
    const ours: number[] = [];
    const peer: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const run = await convertMany(server, perRound, `throughput-${round}`);
      const oursRate = (perRound * 1000) / run.ms;
      const loop = await chromiumLoop(work, files);
      const loopRate = (loop.length * 1000) / loop.reduce((a, b) => a + b, 0);
      ours.push(oursRate);
      peer.push(loopRate);
      ratios.push(oursRate / loopRate);
    }
    throughputLoad[1] = loadNow();
    const peak = stopPeak();
    const p50 = percentile(loaded, 50);
    const p99 = percentile(loaded, 99);
    console.log(
      `html: first conversion ${first.toFixed(0)} ms; ${loaded.length} warm conversions at ${CLIENTS} clients p50 ${p50.toFixed(0)} ms p99 ${p99.toFixed(0)} ms; ` +
        `throughput ${median(ours).toFixed(1)}/s vs the chromium loop ${median(peer).toFixed(2)}/s (ratios ${ratios.map((r) => r.toFixed(1)).join(', ')}); peak browser RSS ${(peak / MB).toFixed(0)} MB`,
    );
    return [
      { operation: 'HTML to PDF: first conversion right after the service starts (browsers starting with it)', size: '1-page invoice', ours: first, runs: 1, unit: 'ms', target: '< 2000 ms', met: first < 2000, load: [firstLoad, loadNow()] },
      {
        operation: `HTML to PDF: warm latency p50, ${CLIENTS} clients`,
        size: '1-page invoice',
        ours: p50,
        oursSpread: spread(loaded),
        runs: loaded.length,
        unit: 'ms',
        target: '< 150 ms',
        met: p50 < 150,
        load: latencyLoad,
      },
      { operation: `HTML to PDF: warm latency p99, ${CLIENTS} clients`, size: '1-page invoice', ours: p99, oursSpread: spread(loaded), runs: loaded.length, unit: 'ms', target: '< 1000 ms', met: p99 < 1000, load: latencyLoad },
      {
        operation: `HTML to PDF: throughput through the API, ${CLIENTS} clients, ${rounds} rounds interleaved with the loop`,
        size: `1-page invoice, ${perRound} a round (loop ${files.length})`,
        ours: median(ours),
        oursSpread: spread(ours),
        peer: median(peer),
        peerSpread: spread(peer),
        peerName: 'chromium --headless --print-to-pdf loop',
        ratioSpread: spread(ratios),
        runs: rounds,
        unit: 'conv/s',
        target: '>= 10x the loop',
        met: median(ours) >= 10 * median(peer),
        load: throughputLoad,
      },
      { operation: 'HTML to PDF: pool peak memory (sum of the chromium processes\' RSS, under load)', size: `${CLIENTS} clients`, ours: peak / MB, runs: 1, unit: 'MB', load: [latencyLoad[0], throughputLoad[1]] },
    ];
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
