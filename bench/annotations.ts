/**
 * Annotations benchmark (issue 3): `GET .../annotations` on a generated 200-page
 * document with 20 annotations a page, cold and warm, next to a `mutool run`
 * script doing the same listing natively; then throughput and latency at 32
 * concurrent connections next to a bare Fastify route, all in the same run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../test/helpers/server.js';
import type { FoundationResult } from './foundation.js';
import { makeAnnotatedDocument } from './fixtures.js';
import { median, percentile, startBareServer, timeCommand, timed } from './lib.js';

export type Row = FoundationResult['rows'][number];

interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}
interface LoadResult {
  requests: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
// autocannon ships no type declarations, and a default import of an untyped package
// fails under strict: load it through require and type the part used here. Its
// result is an EventEmitter that is also a promise of the results.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: LoadOptions) => PromiseLike<LoadResult> & {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): unknown;
};

const PAGES = 200;
const PER_PAGE = 20;
const EXPECTED = PAGES * PER_PAGE;
const CONNECTIONS = 32;
// bench/ is not copied into dist/, so the script is found next to the sources.
const PEER_SCRIPT = fileURLToPath(new URL('../../bench/mutool-list-annotations.js', import.meta.url));

interface Listed {
  name: string;
  subtype: string;
}

export async function runAnnotationsBench(quick: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startServer({ env: { PDFSERVICE_LOG_LEVEL: 'info' } });
  const bare = await startBareServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-annotations-'));
  try {
    const auth = { authorization: server.adminAuth };
    const size = `${PAGES} pages, ${EXPECTED} annotations`;
    const document = makeAnnotatedDocument(PAGES, PER_PAGE);
    const file = path.join(dir, 'annotated.pdf');
    const reps = quick ? 3 : 7;
    const warmPerRep = 5;
    const listUrl = (i: number) => `${server.api}/documents/bench/annotated-${i}.pdf/annotations`;
    // Timed up to the whole body received; decoding and parsing it are the client's work, done untimed.
    const list = async (url: string) => {
      const reply = await fetch(url, { headers: auth });
      const body = Buffer.from(await reply.arrayBuffer());
      if (reply.status !== 200) throw new Error(`GET ${url} answered ${reply.status}: ${body.toString('utf8', 0, 300)}`);
      return { body, requestId: reply.headers.get('x-request-id') ?? '' };
    };

    const cold: number[] = [];
    const warm: number[] = [];
    const peer: number[] = [];
    const coldIds: string[] = [];
    const warmIds: string[] = [];
    for (let i = 0; i < reps; i++) {
      // A distinct variant (trailing comment) at a distinct path each time, so no cache can answer the cold request.
      const variant = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
      const upload = await fetch(`${server.api}/documents/bench/annotated-${i}.pdf`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body: variant });
      if (upload.status >= 300) throw new Error(`upload failed: ${upload.status} ${await upload.text()}`);
      await upload.arrayBuffer();

      const first = await timed(() => list(listUrl(i)));
      cold.push(first.ms);
      coldIds.push(first.value.requestId);
      for (let w = 0; w < warmPerRep; w++) {
        const again = await timed(() => list(listUrl(i)));
        warm.push(again.ms);
        warmIds.push(again.value.requestId);
      }

      writeFileSync(file, variant);
      if (i === 0) {
        const peerOutput = execFileSync('mutool', ['run', PEER_SCRIPT, file], { maxBuffer: 64 << 20 }).toString('utf8');
        checkSameListing(parseOurs(first.value.body.toString('utf8')), parsePeer(peerOutput));
      }
      peer.push(timeCommand('mutool', ['run', PEER_SCRIPT, file]));
    }
    const coldMs = median(cold);
    const peerMs = median(peer);
    const warmMs = median(warm);
    rows.push({ operation: 'annotations list, cold (first GET after upload)', size, ours: coldMs, peer: peerMs, peerName: 'mutool run', unit: 'ms', target: 'within 2x', met: coldMs <= 2 * peerMs });
    rows.push({ operation: 'annotations list, warm (cached by ETag)', size, ours: warmMs, unit: 'ms', target: '< 20 ms', met: warmMs < 20 });
    // The same requests as the service itself timed them, without the client's share (fetch, transfer).
    rows.push({ operation: 'annotations list, cold, server time', size, ours: median(await serverTimes(server.output, coldIds)), unit: 'ms' });
    rows.push({ operation: 'annotations list, warm, server time', size, ours: median(await serverTimes(server.output, warmIds)), unit: 'ms' });

    // XFDF export and import of the 4,000 annotations (issue 4). Export is compared with the native peer
    // reading the same annotation fields; import goes into a copy whose annotations were deleted.
    const exports: number[] = [];
    const imports: number[] = [];
    for (let i = 0; i < reps; i++) {
      const e = await timed(async () => {
        const r = await fetch(`${server.api}/documents/bench/annotated-${i}.pdf/annotations/content`, { headers: auth });
        const body = Buffer.from(await r.arrayBuffer());
        if (r.status !== 200) throw new Error(`XFDF export answered ${r.status}`);
        return body;
      });
      exports.push(e.ms);
      const target = `${server.api}/documents/bench/import-${i}.pdf`;
      await (await fetch(target, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body: new Uint8Array(Buffer.concat([makeAnnotatedDocument(PAGES, 0), Buffer.from(`%imp ${i}\n`)])) })).arrayBuffer();
      const imp = await timed(async () => {
        const r = await fetch(`${target}/annotations/content`, { method: 'POST', headers: { ...auth, 'content-type': 'application/vnd.adobe.xfdf' }, body: new Uint8Array(e.value) });
        const result = (await r.json()) as { created?: string[] };
        if (r.status !== 200 || result.created?.length !== EXPECTED) throw new Error(`XFDF import answered ${r.status}, created ${result.created?.length}`);
      });
      imports.push(imp.ms);
    }
    const exportMs = median(exports);
    rows.push({ operation: 'XFDF export', size, ours: exportMs, peer: peerMs, peerName: 'mutool run (listing)', unit: 'ms', target: '< 1 s', met: exportMs < 1000 });
    rows.push({ operation: 'XFDF import (into a document without annotations)', size, ours: median(imports), unit: 'ms', target: '< 2 s', met: median(imports) < 2000 });

    // Sustained load on the warm listing, and for the HTTP ceiling on a bare route answering a body of
    // the same size (what moving that many bytes costs at all), with the same settings.
    const duration = quick ? 3 : 10;
    const bodySize = (await (await fetch(listUrl(0), { headers: auth })).arrayBuffer()).byteLength;
    const ours = await load({ url: listUrl(0), connections: CONNECTIONS, duration, headers: auth });
    const ceiling = await load({ url: `${bare.url}/bytes/${bodySize}`, connections: CONNECTIONS, duration });
    const loadSize = `${CONNECTIONS} connections, ${duration} s`;
    rows.push({ operation: 'annotations list, throughput', size: loadSize, ours: ours.requests.average, peer: ceiling.requests.average, peerName: 'bare Fastify, same body size', unit: 'req/s' });
    rows.push({ operation: 'annotations list, latency p50 under load', size: loadSize, ours: percentile(ours.latencies, 50), peer: percentile(ceiling.latencies, 50), peerName: 'bare Fastify, same body size', unit: 'ms' });
    rows.push({ operation: 'annotations list, latency p99 under load', size: loadSize, ours: percentile(ours.latencies, 99), peer: percentile(ceiling.latencies, 99), peerName: 'bare Fastify, same body size', unit: 'ms' });
    return rows;
  } finally {
    bare.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs autocannon and fails loudly on any error or non-2xx reply, which would make the
 * figures meaningless. Latencies are collected from its response events because its own
 * percentiles are whole milliseconds, which reads as 0 ms for the bare route.
 */
async function load(options: LoadOptions): Promise<LoadResult & { latencies: number[] }> {
  const latencies: number[] = [];
  const instance = autocannon(options);
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`autocannon on ${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx replies`);
  }
  return { ...result, latencies: latencies.sort((a, b) => a - b) };
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
function checkSameListing(ours: Listed[], peer: Listed[]): void {
  if (ours.length !== EXPECTED || peer.length !== EXPECTED) {
    throw new Error(`expected ${EXPECTED} annotations; the service listed ${ours.length}, mutool ${peer.length}`);
  }
  // Subtype spelling is compared case-insensitively: the service follows the interface's spelling, mutool the PDF name.
  const key = (a: Listed) => `${a.name}\u0000${a.subtype.toLowerCase()}`;
  const peerKeys = new Set(peer.map(key));
  const missing = ours.filter((a) => !peerKeys.has(key(a)));
  if (missing.length > 0) {
    throw new Error(`${missing.length} annotations differ between the service and mutool, e.g. ${JSON.stringify(missing.slice(0, 3))}`);
  }
}
