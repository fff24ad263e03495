import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Row } from './annotations.js';
import { measured } from './build.js';
import { NODE_FLAGS } from '../src/start/node-flags.js';
import { encodeRgbPng } from '../test/helpers/png.js';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** The middle value; of an even count, the mean of the two middle ones (with 2 repetitions, not just the faster). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A distribution-free interval for the median of `values` (issue 39's on/off ratios): the order statistics
 * x(k) and x(n+1-k), k the largest rank with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2, so the interval holds the
 * true median with at least `confidence` whatever the distribution (it needs no bootstrap's resampling, and gives the
 * same answer on every run). `coverage` is the exact probability; undefined below 5 values (no such k at 90%).
 */
export function medianInterval(values: number[], confidence = 0.9): { low: number; high: number; coverage: number } | undefined {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  // P(X = i) for X ~ Binomial(n, 1/2), summed from below.
  let below = 0;
  let term = 0.5 ** n;
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (below + term > (1 - confidence) / 2) break;
    below += term;
    term = (term * (n - i)) / (i + 1);
    k = i + 1;
  }
  if (k < 1) return undefined;
  return { low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * below };
}

/**
 * The size matrix (issue 10): page counts of the documents every operation is
 * measured on, up to `maxPages` for operations too slow at 1,000 pages for the
 * run's time budget. The quick run is a smoke test of the bench (issue 38: under
 * 2 minutes): one small size, so the targets, set at 200 pages, are not checked.
 */
export function sizes(quick: boolean, maxPages = Infinity): number[] {
  return (quick ? [1] : [1, 50, 200, 1000]).filter((pages) => pages <= maxPages);
}

/**
 * Repetitions at a size, chosen with the benchmarks' budgets (BUDGETS below: a full run under 20 minutes, a quick
 * one under 2 on an idle 2-core machine). Full runs: 7 up to 200 pages, 3 at 1,000; `heavy` operations (seconds
 * each at 200 pages: redaction, XFDF import; tens of seconds at 1,000, the peer too) 3, and 1 at 1,000 pages, where
 * no target is set and the row shows how the operation scales (2 before issue 38's budget: about 2 minutes of the
 * run for redaction alone). Quick runs (a smoke test): 2, heavy ones 1.
 */
export function repetitions(pages: number, quick: boolean, heavy = false): number {
  if (quick) return heavy ? 1 : 2;
  if (pages > TARGET_PAGES) return heavy ? 1 : 3;
  return heavy ? 3 : 7;
}

/** The size at which the issue sets its targets: other sizes report figures only. */
export const TARGET_PAGES = 200;

/** A row's target and whether it was met, at the target size only. */
export function targetAt(pages: number, target: string, met: boolean): Pick<Row, 'target' | 'met'> {
  return pages === TARGET_PAGES ? { target, met } : {};
}

/** "200 pages" or "1 page". */
export function pagesLabel(pages: number): string {
  return `${pages.toLocaleString('en')} page${pages === 1 ? '' : 's'}`;
}

/**
 * Our side of a row from its samples: the median, and the spread as the
 * fastest and slowest repetition (min–max rather than quartiles: with 2 to 7
 * repetitions quartiles are barely different from the extremes, and the
 * extremes show what a shared machine did to the run).
 */
export function oursOf(samples: number[]): Pick<Row, 'ours' | 'oursSpread' | 'runs'> {
  return { ours: median(samples), oursSpread: [Math.min(...samples), Math.max(...samples)], runs: samples.length };
}

/** The peer's side of a row from its samples, as oursOf. */
export function peerOf(samples: number[], peerName: string): Pick<Row, 'peer' | 'peerSpread' | 'peerName'> {
  return { peer: median(samples), peerSpread: [Math.min(...samples), Math.max(...samples)], peerName };
}

/**
 * Rows of several sizes, grouped by operation (in the order operations first
 * appear) and by ascending page count within each, as the report shows them.
 */
export function groupBySize(rows: Row[]): Row[] {
  const order = new Map<string, number>();
  for (const r of rows) if (!order.has(r.operation)) order.set(r.operation, order.size);
  return [...rows].sort((a, b) => order.get(a.operation)! - order.get(b.operation)! || (a.pages ?? 0) - (b.pages ?? 0));
}

/** Wall time of `fn`; under `--compare` in lockstep (bench/build.ts), a measurement each build takes in turn. */
export function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  return measured(async () => {
    const start = performance.now();
    const value = await fn();
    return { ms: performance.now() - start, value };
  });
}

/** PUTs a PDF at a document URL; throws unless it was stored. */
export async function uploadPdf(url: string, auth: Record<string, string>, pdf: Uint8Array): Promise<void> {
  const send = () => fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body: new Uint8Array(pdf) });
  let put: Response;
  try {
    put = await send();
  } catch (error) {
    // A peer timed with execFileSync blocks this process's event loop past the service's keep-alive timeout, so
    // the pooled socket's close is only noticed when the PUT is written to it (EPIPE). A PUT is idempotent: once more.
    if (!isStaleSocket(error)) throw error;
    put = await send();
  }
  await put.arrayBuffer();
  if (put.status >= 300) throw new Error(`upload answered ${put.status}`);
}

function isStaleSocket(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'EPIPE' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/**
 * Wall time of a command-line peer, in ms; throws if it fails. Asynchronous on purpose: a peer run with
 * execFileSync froze this process's event loop for its whole run (tens of seconds at 1,000 pages on a loaded
 * machine), so fetch's pooled keep-alive sockets outlived the service's idle timeout unnoticed and the next
 * upload was written into a closed connection: the `fetch failed: write EPIPE` of issue 38 (the bench's fault,
 * not the service's). With the loop free, the client retires an idle socket before the service closes it.
 * `timeout` (ms): the command is killed then, and the time rejected (a peer that hangs on one file of a corpus).
 */
export function timeCommand(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    // Its output read through a pipe and dropped, as a client reads a response (pdftotext, mutool run print theirs).
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    child.stdout!.resume();
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/** Fields of /proc/PID/stat from the state on (the name before it may hold spaces and brackets). */
function statFields(file: string): string[] {
  const stat = readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Clock ticks a second of /proc's CPU times (USER_HZ): 100 on every Linux build the service runs on. */
const TICK_MS = 10;

/**
 * CPU time (user + system, ms) a process has used, all its threads together, and its main thread's alone (a Node
 * service's event loop; its engine workers are the other threads). Linux only; 10 ms steps. On a loaded machine it
 * tells work from waiting: a request that took longer while using the same CPU time waited for a core.
 */
export function processCpuMs(pid: number): { total: number; main: number } {
  const ms = (f: string[]) => (Number(f[11]) + Number(f[12])) * TICK_MS;
  return { total: ms(statFields(`/proc/${pid}/stat`)), main: ms(statFields(`/proc/${pid}/task/${pid}/stat`)) };
}

/**
 * CPU time (ms, to the nanosecond) the live threads of a process have run, from each thread's /proc/<pid>/task/<tid>/schedstat
 * (its first field: time on a CPU, in ns). processCpuMs counts in 10 ms steps, as coarse as a small request's whole
 * cost; this is fine enough for one request. A thread that ends between two reads takes its time with it: around a
 * request to the service (whose engine workers and libuv threads live on) that is none.
 */
export function processCpuPreciseMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended while the list was read.
    }
  }
  return ns / 1e6;
}

/**
 * CPU time (user + system, ms) of this process's children that have ended and been waited for (cutime + cstime):
 * read before and after a timeCommand, the peer command's own CPU time, when no other child ends meanwhile.
 */
export function endedChildrenCpuMs(): number {
  const f = statFields('/proc/self/stat');
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}

/**
 * The engine pool's time accounting of a server, from its metrics (pool.ts `usage`): per worker, the seconds it had a
 * task and the tasks it took; per number of workers busy at once, the seconds. Read before and after a measurement, it
 * says whether the workers ran at the same time (`concurrent[2]` with two) or took turns, whatever the machine's load.
 */
export async function engineUsage(server: { api: string; adminAuth: string }): Promise<{ busy: number[]; tasks: number[]; concurrent: number[] }> {
  const text = await (await fetch(`${server.api}/metrics`, { headers: { authorization: server.adminAuth } })).text();
  const series = (name: string, label: string): number[] => {
    const values: number[] = [];
    for (const m of text.matchAll(new RegExp(`^${name}\\{${label}="(\\d+)"\\} (\\S+)$`, 'gm'))) values[Number(m[1])] = Number(m[2]);
    return Array.from(values, (v) => v ?? 0);
  };
  return {
    busy: series('pdfservice_engine_worker_busy_seconds_total', 'worker'),
    tasks: series('pdfservice_engine_worker_tasks_total', 'worker'),
    concurrent: series('pdfservice_engine_busy_workers_seconds_total', 'busy'),
  };
}

/** What `engineUsage` grew by between two readings. */
export function usageSince(before: Awaited<ReturnType<typeof engineUsage>>, after: Awaited<ReturnType<typeof engineUsage>>): Awaited<ReturnType<typeof engineUsage>> {
  const minus = (a: number[], b: number[]) => a.map((v, i) => v - (b[i] ?? 0));
  return { busy: minus(after.busy, before.busy), tasks: minus(after.tasks, before.tasks), concurrent: minus(after.concurrent, before.concurrent) };
}

/** Idle CPU time of the whole machine so far (ms, all cores together: idle and iowait of /proc/stat), Linux only. */
export function machineIdleMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  return (Number(fields[4]) + Number(fields[5])) * TICK_MS;
}

/** The 1-minute load average now, for the record beside a figure measured on a shared machine. */
export function loadNow(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}

/** Starts the bare Fastify server in its own process; resolves its URL and a stop function. */
export async function startBareServer(): Promise<{ url: string; stop: () => void }> {
  // With the Node.js options the service starts with (src/start/node-flags.ts): the peer is the HTTP layer on the same
  // runtime. Without them (until session 18) the two ran with different young generations (2 MB semi-spaces against
  // V8's default), a difference in the collector's work per request that is no part of the HTTP layer.
  const child = spawn(process.execPath, [...NODE_FLAGS, fileURLToPath(new URL('./bare-server.js', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        try {
          const parsed = JSON.parse(line) as { url?: string };
          if (parsed.url) resolve(parsed.url);
        } catch {
          /* partial line */
        }
      }
    });
    child.once('exit', () => reject(new Error('bare server exited')));
  });
  return { url, stop: () => child.kill() };
}

/** Latency samples of sequential GETs, one every `gapMs`, for `count` requests. */
export async function sampleLatency(url: string, count: number, gapMs: number, headers: Record<string, string> = {}): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    samples.push((await timed(async () => (await fetch(url, { headers })).arrayBuffer())).ms);
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
  }
  return samples.sort((a, b) => a - b);
}

export function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/** A large, highly compressible RGB PNG made in code: cheap to send, expensive to convert. */
export function makeLargePng(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([(x * 7) & 255, (x * 3) & 255, 128], 1 + x * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return encodeRgbPng(width, height, raw);
}

/**
 * Seconds each benchmark may take on an idle 2-core machine (issue 38: a full run under 20 minutes, a quick one under
 * 2), with the fixtures already generated (`cachedFixture`). run.ts prints each benchmark's time against its budget
 * and records both in the report. The full budgets add up to 1,140 s, the quick ones to 119 s.
 */
export const BUDGETS: Record<string, { full: number; quick: number }> = {
  foundation: { full: 30, quick: 4 },
  annotations: { full: 60, quick: 3 },
  redaction: { full: 120, quick: 3 },
  stamps: { full: 60, quick: 2 },
  signing: { full: 30, quick: 3 },
  security: { full: 20, quick: 2 },
  pages: { full: 50, quick: 5 },
  resources: { full: 45, quick: 12 },
  jobs: { full: 60, quick: 10 },
  ocr: { full: 150, quick: 10 },
  preflight: { full: 50, quick: 8 },
  pdfa: { full: 40, quick: 6 },
  'pdfa-memory': { full: 50, quick: 6 },
  linearize: { full: 20, quick: 2 },
  optimize: { full: 140, quick: 8 },
  'optimize-large': { full: 150, quick: 10 },
  office: { full: 30, quick: 5 },
  oneshot: { full: 5, quick: 2 },
  dms: { full: 15, quick: 3 },
  cluster: { full: 40, quick: 12 },
  // Full: every store (bench/README.md, "Time budget"): filesystem ~60 s (21 on/off write pairs ~35 s), S3 ~150 s
  // (its 1,000 PUTs ~95 s), WebDAV ~90 s, scaled from runs at load 14 to 21 (2026-11-30, 2026-12-01).
  versions: { full: 300, quick: 3 },
  // Layout rows ~20 s, split ~120 s (five 1,000-page splits and qpdf's), merge ~60 s, on an idle machine.
  toolbox: { full: 240, quick: 40 },
  // The chromium loop's 5 rounds of 4 browser starts (about 1 s each idle) and 300 conversions through the pool.
  html: { full: 90, quick: 30 },
  // 10 rounds of 10 documents each way (with the warm-up), 2 pipeline steps per document: ~70 s at load 13, ~15 s idle.
  watched: { full: 20, quick: 8 },
  // The 20 documents (33 pages) through 6 tools, 2 repetitions; LibreOffice's start a document and the Python peers
  // (PyMuPDF4LLM's layout model) take most of it: 1,227 s at load 15 to 20 (2026-12-01), of the order of 150 s idle
  // scaled by load / 2 cores. The corpus' generation (about 40 s, once, then cached) not counted.
  export: { full: 300, quick: 60 },
  // The pdfua1 preflight of 200 pages, 5 pairs (the JVM per file ~10 s each idle); the tagging corpus (~80 files, a
  // soffice per file ~3 s idle, the action and two veraPDF verdicts a file); the quick run 8 files and 20 pages.
  ua: { full: 600, quick: 90 },
  // 7 repetitions of 4 page loads in Chromium, a fresh context each, and 1,000 uploads; the 200 MB scan's generation
  // (once, then cached) not counted.
  console: { full: 120, quick: 60 },
  issue38: { full: 1200, quick: 120 },
};

/** One benchmark's time in a run, beside its budget (`BUDGETS`) and the load average it ran at. */
export interface BenchTime {
  name: string;
  seconds: number;
  /** Seconds allowed on an idle machine. */
  budget?: number;
  /** The budget scaled by the load (`budgetAt`): what the time is held to on a machine that was not idle. */
  allowed?: number;
  load: [number, number];
}

/**
 * A budget scaled by the machine's load: a benchmark that runs at load L on C cores gets about C / L of the CPU it
 * would have alone, so an idle-machine budget becomes budget × L / C (never less than the budget). Rough: sleeps
 * and waits do not stretch with the load, and the bench's own processes count in L; it says whether a loaded
 * run's time is in line with the idle budget, not what the idle time is.
 */
export function budgetAt(budget: number, load: [number, number]): number {
  const cores = availableParallelism();
  return budget * Math.max(1, (load[0] + load[1]) / 2 / cores);
}

/** A benchmark's time against its budget, for the record and the console ("12.3 s, budget 10 s (at load 4.1: 20.5 s)"). */
export function benchTime(name: string, seconds: number, quick: boolean, load: [number, number]): BenchTime & { line: string } {
  const budget = BUDGETS[name]?.[quick ? 'quick' : 'full'];
  const allowed = budget === undefined ? undefined : Math.round(budgetAt(budget, load) * 10) / 10;
  const within = allowed === undefined ? '' : seconds <= allowed ? ', within' : ', OVER BUDGET';
  const scaled = allowed !== undefined && allowed > budget! ? ` (scaled by load ${((load[0] + load[1]) / 2).toFixed(1)} on ${availableParallelism()} cores: ${allowed} s)` : '';
  const line = `${seconds.toFixed(1)} s${budget === undefined ? '' : `, budget ${budget} s${scaled}${within}`}`;
  return { name, seconds: Math.round(seconds * 10) / 10, ...(budget === undefined ? {} : { budget, allowed }), load, line };
}

/** Where generated fixtures are kept between runs (`PDFSERVICE_BENCH_CACHE`, by default in the temporary folder). */
export const FIXTURE_CACHE = process.env.PDFSERVICE_BENCH_CACHE ?? path.join(tmpdir(), 'pdfservice-bench-fixtures');

/**
 * The modules whose code makes most fixtures' bytes (paths from this folder of the build): a change to any of them
 * makes the cached fixtures stale. A fixture made by code elsewhere names its module too (`cachedFile`'s `from`).
 */
const GENERATORS = ['./fixtures.js', './ocr-fixtures.js', '../test/helpers/pdf.js', '../test/helpers/pdf-writer.js', '../test/helpers/optimize-fixtures.js'];
const sourceHashes = new Map<string, string>();

/** The cache file of a fixture: its name, and a hash of its generator's parameters and of the generators' code. */
function fixturePath(name: string, params: unknown, from: string[]): string {
  const hash = createHash('sha256').update(JSON.stringify(params) ?? '');
  for (const module of [...GENERATORS, ...from]) {
    if (!sourceHashes.has(module)) sourceHashes.set(module, createHash('sha256').update(readFileSync(new URL(module, import.meta.url))).digest('hex'));
    hash.update(sourceHashes.get(module)!);
  }
  // "ocr-page.pgm": a file of its own type; the rest are PDF.
  const [base, ext = 'pdf'] = name.split('.');
  return path.join(FIXTURE_CACHE, `${base}-${hash.digest('hex').slice(0, 20)}.${ext}`);
}

/**
 * A generated file, made once and kept on disk by its generator's parameters (issue 38: the fixtures, such as the
 * 300 MB scans and the 20-page photo album, took minutes of every run to generate). `write` writes the file at the
 * path it is given; the answer is the cached file's path. Written under a temporary name and renamed, so a run
 * stopped half-way, or two runs at once, never leave a partial file under the final name. Generators are
 * deterministic (the same parameters give the same bytes), so a cached file is the file a new run would write.
 * `from`: modules besides GENERATORS whose code makes the file (`'./optimize-large.js'`).
 */
export function cachedFile(name: string, params: unknown, write: (file: string) => void, from: string[] = []): string {
  const file = fixturePath(name, params, from);
  if (existsSync(file)) return file;
  mkdirSync(FIXTURE_CACHE, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  try {
    write(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return file;
}

/** `cachedFile` for a generator that answers the bytes. */
export function cachedFixture(name: string, params: unknown, make: () => Uint8Array, from: string[] = []): Buffer {
  return readFileSync(cachedFile(name, params, (file) => writeFileSync(file, make()), from));
}
