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
import { median, startBareServer, timeCommand, timed } from './lib.js';

export type Row = FoundationResult['rows'][number];

interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
// autocannon ships no type declarations, and a typed default import of an untyped
// package fails under strict: load it through require and type the part used here.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<LoadResult>;

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
    const list = async (url: string) => {
      const reply = await fetch(url, { headers: auth });
      const body = await reply.text();
      if (reply.status !== 200) throw new Error(`GET ${url} answered ${reply.status}: ${body.slice(0, 300)}`);
      return body;
    };

    const cold: number[] = [];
    const warm: number[] = [];
    const peer: number[] = [];
    for (let i = 0; i < reps; i++) {
      // A distinct variant (trailing comment) at a distinct path each time, so no cache can answer the cold request.
      const variant = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
      const upload = await fetch(`${server.api}/documents/bench/annotated-${i}.pdf`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body: variant });
      if (upload.status >= 300) throw new Error(`upload failed: ${upload.status} ${await upload.text()}`);
      await upload.arrayBuffer();

      // Timed up to the whole body received; parsing it is the client's work, done untimed for the check.
      const first = await timed(() => list(listUrl(i)));
      cold.push(first.ms);
      for (let w = 0; w < warmPerRep; w++) warm.push((await timed(() => list(listUrl(i)))).ms);

      writeFileSync(file, variant);
      if (i === 0) checkSameListing(parseOurs(first.value), parsePeer(execFileSync('mutool', ['run', PEER_SCRIPT, file], { maxBuffer: 64 << 20 }).toString('utf8')));
      peer.push(timeCommand('mutool', ['run', PEER_SCRIPT, file]));
    }
    const coldMs = median(cold);
    const peerMs = median(peer);
    const warmMs = median(warm);
    rows.push({ operation: 'annotations list, cold (first GET after upload)', size, ours: coldMs, peer: peerMs, peerName: 'mutool run', unit: 'ms', target: 'within 2x', met: coldMs <= 2 * peerMs });
    rows.push({ operation: 'annotations list, warm (cached by ETag)', size, ours: warmMs, unit: 'ms', target: '< 20 ms', met: warmMs < 20 });

    // Sustained load on the warm listing, and on the bare route for the HTTP ceiling, with the same settings.
    const duration = quick ? 3 : 10;
    const ours = await load({ url: listUrl(0), connections: CONNECTIONS, duration, headers: auth });
    const ceiling = await load({ url: `${bare.url}/health`, connections: CONNECTIONS, duration });
    const loadSize = `${CONNECTIONS} connections, ${duration} s`;
    rows.push({ operation: 'annotations list, throughput', size: loadSize, ours: ours.requests.average, peer: ceiling.requests.average, peerName: 'bare Fastify /health', unit: 'req/s' });
    rows.push({ operation: 'annotations list, latency p50 under load', size: loadSize, ours: ours.latency.p50, peer: ceiling.latency.p50, peerName: 'bare Fastify /health', unit: 'ms' });
    rows.push({ operation: 'annotations list, latency p99 under load', size: loadSize, ours: ours.latency.p99, peer: ceiling.latency.p99, peerName: 'bare Fastify /health', unit: 'ms' });
    return rows;
  } finally {
    bare.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs autocannon and fails loudly on any error or non-2xx reply, which would make the figures meaningless. */
async function load(options: Parameters<typeof autocannon>[0]): Promise<LoadResult> {
  const result = await autocannon(options);
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`autocannon on ${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx replies`);
  }
  return result;
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
