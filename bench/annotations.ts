/**
 * Annotations benchmark (issues 3 and 4): `GET .../annotations` on the
 * generated documents of the size matrix (20 annotations a page and a form),
 * cold and warm, next to a `mutool run` script doing the same listing
 * natively; XFDF export and import; then, on the 200-page document, throughput
 * and latency at 32 concurrent connections next to a bare Fastify route, all
 * in the same run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import { WARM_SERVER_ENV } from './foundation.js';
import { FORM_WIDGETS, makeBenchDocument } from './fixtures.js';
import type { LoadOptions, LoadResult } from './load-process.js';
import { groupBySize, median, oursOf, pagesLabel, peerOf, percentile, repetitions, sizes, startBareServer, TARGET_PAGES, targetAt, timeCommand, timed } from './lib.js';

/** One line of the report. JSON keeps these fields as they are (numbers in `unit`). */
export interface Row {
  operation: string;
  size: string;
  /** Pages of the document measured, for rows of the size matrix. */
  pages?: number;
  /** Our figure: the median of `runs` repetitions when it was measured several times. */
  ours: number;
  /** The fastest and slowest of our repetitions. */
  oursSpread?: [number, number];
  peer?: number;
  /** The fastest and slowest of the peer's repetitions. */
  peerSpread?: [number, number];
  peerName?: string;
  /** Repetitions behind `ours` (and `peer`). */
  runs?: number;
  unit: string;
  target?: string;
  met?: boolean;
  /** The fastest and slowest ratio of ours to the peer over the interleaved pairs (ours then peer, run by run). */
  ratioSpread?: [number, number];
  /**
   * Rows whose verdict is a ratio near 1 (issue 39's versions on/off): the median of the pairwise ratios, its
   * order-statistic interval (lib.ts medianInterval) with the interval's exact coverage, and the number of pairs.
   * `met` is then judged on the interval (bench/README.md, "Versions").
   */
  pairwise?: { median: number; low: number; high: number; coverage: number; pairs: number };
  /** The interval straddles the target: not shown met, not shown missed (`met` is false; the table says undecided). */
  undecided?: boolean;
  /** The 1-minute load average when the row started and when it ended. */
  load?: [number, number];
  /** Why the row failed: it has no figures then (ours is NaN). */
  error?: string;
  /**
   * Our side cannot run on this build (a feature not there yet, such as issue 42's PDFUAConvertAction on a build without
   * it): ours is NaN and shows "not available" with this reason; the peer's figures stay. Not a failure.
   */
  unavailable?: string;
  /** `--compare REF`: the other build's figure (median), its spread, its name, and ours / ref over the interleaved pairs. */
  ref?: number;
  refSpread?: [number, number];
  refName?: string;
  refRatioSpread?: [number, number];
  /** `--compare REF`: why the row failed on the other build (ours may still have its figures). */
  refError?: string;
}

const PER_PAGE = 20;
export const CONNECTIONS = 32;
const LOAD_SCRIPT = fileURLToPath(new URL('./load-process.js', import.meta.url));
const execFileAsync = promisify(execFile);
// bench/ is not copied into dist/, so the script is found next to the sources.
export const PEER_SCRIPT = fileURLToPath(new URL('../../bench/mutool-list-annotations.js', import.meta.url));

interface Listed {
  name: string;
  subtype: string;
}

type Auth = Record<string, string>;

/** A GET timed up to the whole body received; decoding and parsing it are the client's work, done untimed. */
export async function list(url: string, auth: Auth): Promise<{ body: Buffer; requestId: string }> {
  const reply = await fetch(url, { headers: auth });
  const body = Buffer.from(await reply.arrayBuffer());
  if (reply.status !== 200) throw new Error(`GET ${url} answered ${reply.status}: ${body.toString('utf8', 0, 300)}`);
  return { body, requestId: reply.headers.get('x-request-id') ?? '' };
}

async function upload(url: string, auth: Auth, body: Buffer): Promise<void> {
  const r = await fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body: new Uint8Array(body) });
  if (r.status >= 300) throw new Error(`upload failed: ${r.status} ${await r.text()}`);
  await r.arrayBuffer();
}

/** The listing and XFDF rows at one size; answers them and the URL of a listing for the load phase. */
async function atSize(server: TestServer, dir: string, pages: number, quick: boolean): Promise<{ rows: Row[]; listUrl: string }> {
  const auth = { authorization: server.adminAuth };
  const annotations = pages * PER_PAGE;
  // The form's widgets are annotations too: listed, but not exported as XFDF.
  const expected = annotations + FORM_WIDGETS;
  const size = `${pagesLabel(pages)}, ${expected.toLocaleString('en')} annotations`;
  const document = makeBenchDocument(pages);
  const file = path.join(dir, `annotated-${pages}.pdf`);
  const reps = repetitions(pages, quick);
  const warmPerRep = 5;
  const docUrl = (i: number) => `${server.api}/documents/bench/annotated-${pages}-${i}.pdf`;

  const cold: number[] = [];
  const warm: number[] = [];
  const peer: number[] = [];
  const coldIds: string[] = [];
  const warmIds: string[] = [];
  for (let i = 0; i < reps; i++) {
    // A distinct variant (trailing comment) at a distinct path each time, so no cache can answer the cold request.
    const variant = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
    await upload(docUrl(i), auth, variant);
    const first = await timed(() => list(`${docUrl(i)}/annotations`, auth));
    cold.push(first.ms);
    coldIds.push(first.value.requestId);
    for (let w = 0; w < warmPerRep; w++) {
      const again = await timed(() => list(`${docUrl(i)}/annotations`, auth));
      warm.push(again.ms);
      warmIds.push(again.value.requestId);
    }
    writeFileSync(file, variant);
    if (i === 0) {
      const peerOutput = execFileSync('mutool', ['run', PEER_SCRIPT, file], { maxBuffer: 256 << 20 }).toString('utf8');
      checkSameListing(parseOurs(first.value.body.toString('utf8')), parsePeer(peerOutput), expected);
    }
    peer.push(await timeCommand('mutool', ['run', PEER_SCRIPT, file]));
  }
  const coldMs = median(cold);
  const peerMs = median(peer);
  const warmMs = median(warm);
  const peerSide = peerOf(peer, 'mutool run');
  const rows: Row[] = [
    { operation: 'annotations list, cold (first GET after upload)', size, pages, ...oursOf(cold), ...peerSide, unit: 'ms', ...targetAt(pages, 'within 2x', coldMs <= 2 * peerMs) },
    { operation: 'annotations list, warm (cached by ETag)', size, pages, ...oursOf(warm), unit: 'ms', ...targetAt(pages, '< 20 ms', warmMs < 20) },
    // The same requests as the service itself timed them, without the client's share (fetch, transfer).
    { operation: 'annotations list, cold, server time', size, pages, ...oursOf(await serverTimes(server.output, coldIds)), unit: 'ms' },
    { operation: 'annotations list, warm, server time', size, pages, ...oursOf(await serverTimes(server.output, warmIds)), unit: 'ms' },
  ];

  // XFDF export and import of the annotations (issue 4). Export is compared with the native peer
  // reading the same annotation fields; import goes into the same document without annotations.
  // Import takes seconds at 200 pages (an appearance drawn for each annotation): fewer repetitions.
  const exports: number[] = [];
  const imports: number[] = [];
  const withoutAnnotations = makeBenchDocument(pages, { annotationsPerPage: 0 });
  for (let i = 0; i < reps; i++) {
    const e = await timed(async () => {
      const r = await fetch(`${docUrl(i)}/annotations/content`, { headers: auth });
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status !== 200) throw new Error(`XFDF export answered ${r.status}`);
      return body;
    });
    exports.push(e.ms);
    if (i >= repetitions(pages, quick, true)) continue;
    const target = `${server.api}/documents/bench/import-${pages}-${i}.pdf`;
    await upload(target, auth, Buffer.concat([withoutAnnotations, Buffer.from(`%imp ${i}\n`)]));
    const imp = await timed(async () => {
      const r = await fetch(`${target}/annotations/content`, { method: 'POST', headers: { ...auth, 'content-type': 'application/vnd.adobe.xfdf' }, body: new Uint8Array(e.value) });
      const result = (await r.json()) as { created?: string[] };
      if (r.status !== 200 || result.created?.length !== annotations) throw new Error(`XFDF import answered ${r.status}, created ${result.created?.length} of ${annotations}`);
    });
    imports.push(imp.ms);
  }
  const exportMs = median(exports);
  const importMs = median(imports);
  rows.push({ operation: 'XFDF export', size, pages, ...oursOf(exports), ...peerSide, peerName: 'mutool run (listing)', unit: 'ms', ...targetAt(pages, '< 1 s', exportMs < 1000) });
  rows.push({ operation: 'XFDF import (into the document without annotations)', size, pages, ...oursOf(imports), unit: 'ms', ...targetAt(pages, '< 2 s', importMs < 2000) });
  return { rows, listUrl: `${docUrl(0)}/annotations` };
}

export async function runAnnotationsBench(quick: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  // Text prefetching after uploads is off: a listing right after an upload would otherwise wait for the
  // document's text extraction (about doubling the cold listing at 200 pages) and not measure itself.
  // The service foundation started, shared (same settings; documents at names of their own).
  const server = await sharedServer(WARM_SERVER_ENV);
  const bare = await startBareServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-annotations-'));
  try {
    // The load phase on the 200-page document (the quick run's largest, 1 page, in a smoke test).
    let loadUrl = '';
    let loadPages = 0;
    for (const pages of sizes(quick)) {
      const measured = await atSize(server, dir, pages, quick);
      rows.push(...measured.rows);
      if (pages === TARGET_PAGES || quick) [loadUrl, loadPages] = [measured.listUrl, pages];
    }
    const auth = { authorization: server.adminAuth };
    // Sustained load on the warm listing of the 200-page document, and for the HTTP ceiling on a bare route
    // answering a body of the same size (what moving that many bytes costs at all), with the same settings.
    // Quick: 1 s each (a smoke test; the two load phases were 4 of the module's 6 s idle).
    const duration = quick ? 1 : 10;
    const bodySize = (await list(loadUrl, auth)).body.byteLength;
    const ours = await load({ url: loadUrl, connections: CONNECTIONS, duration, headers: auth });
    const ceiling = await load({ url: `${bare.url}/bytes/${bodySize}`, connections: CONNECTIONS, duration });
    const loadSize = `${pagesLabel(loadPages)}, ${CONNECTIONS} connections, ${duration} s`;
    const bareName = 'bare Fastify, same body size';
    const grouped = groupBySize(rows);
    grouped.push({ operation: 'annotations list, throughput', size: loadSize, ours: ours.requests.average, peer: ceiling.requests.average, peerName: bareName, unit: 'req/s' });
    grouped.push({ operation: 'annotations list, latency p50 under load', size: loadSize, ours: percentile(ours.latencies, 50), peer: percentile(ceiling.latencies, 50), peerName: bareName, unit: 'ms' });
    grouped.push({ operation: 'annotations list, latency p99 under load', size: loadSize, ours: percentile(ours.latencies, 99), peer: percentile(ceiling.latencies, 99), peerName: bareName, unit: 'ms' });
    return grouped;
  } finally {
    bare.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs autocannon, in a process of its own (bench/load-process.ts says why), and fails loudly on any error or non-2xx
 * reply, which would make the figures meaningless. Latencies are collected from its response events because its own
 * percentiles are whole milliseconds, which reads as 0 ms for the bare route.
 */
export async function load(options: LoadOptions): Promise<LoadResult & { latencies: number[] }> {
  const { stdout } = await execFileAsync(process.execPath, [LOAD_SCRIPT, JSON.stringify(options)], { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout) as LoadResult & { latencies: number[]; statuses: Record<string, number> };
  if (result.errors || result.timeouts || result.non2xx) {
    const statuses = Object.entries(result.statuses).map(([status, count]) => `${count} x ${status}`).join(', ');
    throw new Error(`autocannon on ${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx replies (${statuses})`);
  }
  return { ...result, latencies: result.latencies.sort((a, b) => a - b) };
}

/** The service's own time for each request: `responseTime` in its "request completed" log line. */
async function serverTimes(output: string[], requestIds: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const id of requestIds) {
    let ms: number | undefined;
    // The log line may arrive a moment after the response itself.
    for (let attempt = 0; ms === undefined && attempt < 50; attempt++) {
      for (const line of output) {
        if (!line.includes(id) || !line.includes('responseTime')) continue;
        ms = (JSON.parse(line) as { responseTime?: number }).responseTime;
      }
      if (ms === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    if (ms === undefined) throw new Error(`no "request completed" log line for request ${id}`);
    times.push(ms);
  }
  return times;
}

function parseOurs(body: string): Listed[] {
  const parsed = JSON.parse(body) as { annotations?: Listed[] };
  if (!Array.isArray(parsed.annotations)) throw new Error(`the listing has no annotations array: ${body.slice(0, 300)}`);
  return parsed.annotations;
}

function parsePeer(stdout: string): Listed[] {
  return (JSON.parse(stdout) as { name?: string; subtype?: string }[]).map((a) => ({ name: a.name ?? '', subtype: a.subtype ?? '' }));
}

/** Both listings must hold every annotation of the fixture, with the same names and subtypes. */
function checkSameListing(ours: Listed[], peer: Listed[], expected: number): void {
  if (ours.length !== expected || peer.length !== expected) {
    throw new Error(`expected ${expected} annotations; the service listed ${ours.length}, mutool ${peer.length}`);
  }
  // Subtype spelling is compared case-insensitively: the service follows the interface's spelling, mutool the PDF name.
  const key = (a: Listed) => `${a.name}\u0000${a.subtype.toLowerCase()}`;
  const peerKeys = new Set(peer.map(key));
  const missing = ours.filter((a) => !peerKeys.has(key(a)));
  if (missing.length > 0) {
    throw new Error(`${missing.length} annotations differ between the service and mutool, e.g. ${JSON.stringify(missing.slice(0, 3))}`);
  }
}
