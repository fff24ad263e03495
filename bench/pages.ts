/**
 * Page text benchmark (issue 7): the text of every page of the generated
 * documents of the size matrix through the API (GET .../text as text/plain), end to end,
 * next to poppler's pdftotext on the same file in the same run. Both results
 * are checked to hold the same words, so a fast wrong answer fails the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { words } from '../test/helpers/poppler-text.js';
import type { TestServer } from '../test/helpers/server.js';
import { sharedServer } from './build.js';
import type { Row } from './annotations.js';
import { makeBenchDocument } from './fixtures.js';
import { cachedFixture, groupBySize, median, oursOf, pagesLabel, peerOf, percentile, repetitions, sampleLatency, sizes, startBareServer, targetAt, timed } from './lib.js';
import { makeManyPagesPdf } from '../test/helpers/pdf.js';
import { basicAuth } from '../test/helpers/server.js';

const LINES = 30;

/** pdftotext's wall time with its text read back through a pipe, as our client reads the response body. */
function popplerText(file: string): { ms: number; text: string } {
  const start = performance.now();
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { ms: performance.now() - start, text };
}

/**
 * How long a client pauses between uploading and reading text in the prefetch row: enough for
 * the idle workers to extract the document (about 1 s at 200 pages on this machine when shared).
 */
function thinkMs(pages: number): number {
  return Math.max(1000, pages * 4);
}

type Auth = Record<string, string>;

/** A distinct version of the document (a comment after %%EOF changes the ETag, not the content), so no cache helps. */
async function uploadVersion(url: string, auth: Auth, document: Buffer, i: number): Promise<void> {
  const body = Buffer.concat([document, Buffer.from(`%rep ${i} ${Date.now()}\n`)]);
  const put = await fetch(url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, body });
  if (put.status >= 300) throw new Error(`upload answered ${put.status}`);
  await put.arrayBuffer();
}

async function getText(url: string, auth: Auth): Promise<string> {
  const r = await fetch(`${url}/text`, { headers: { ...auth, accept: 'text/plain' } });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`GET .../text answered ${r.status}: ${text.slice(0, 200)}`);
  return text;
}

/** The rows at one size on the server without prefetching: first request, again, each page after. */
async function atSize(server: TestServer, dir: string, pages: number, quick: boolean): Promise<{ rows: Row[]; peer: number[] }> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages, { lines: LINES });
  const file = path.join(dir, `text-${pages}.pdf`);
  writeFileSync(file, document);
  const cold: number[] = [];
  const warm: number[] = [];
  const peer: number[] = [];
  let characters = 0;
  const url = `${server.api}/documents/bench/text-${pages}.pdf`;
  for (let i = 0; i < repetitions(pages, quick); i++) {
    await uploadVersion(url, auth, document, i);
    const first = await timed(() => getText(url, auth));
    cold.push(first.ms);
    warm.push((await timed(() => getText(url, auth))).ms);
    const poppler = popplerText(file);
    peer.push(poppler.ms);
    if (i === 0) {
      // Both hold what the annotations and the form's widgets show ("Free text", field values) after the page's text.
      const ours = words(first.value);
      const theirs = words(poppler.text);
      if (ours.length !== theirs.length || ours.some((w, k) => w !== theirs[k])) throw new Error(`our text and pdftotext's differ at ${pages} pages`);
      if (first.value.split('\f').length !== pages + 1) throw new Error('not one form feed per page');
      characters = first.value.length;
    }
  }
  // Every page on its own after the whole document was extracted: served from the text cache.
  const each = await timed(async () => {
    for (let p = 0; p < pages; p++) {
      const r = await fetch(`${url}/pages/${p}/text`, { headers: { ...auth, accept: 'text/plain' } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`page ${p} answered ${r.status}`);
    }
  });
  const size = `${pagesLabel(pages)}, ${Math.round(characters / 1000)}k characters`;
  const peerMs = median(peer);
  const peerSide = peerOf(peer, 'pdftotext');
  return {
    peer,
    rows: [
      { operation: 'page text: whole document, first request, extracted then (GET .../text)', size, pages, ...oursOf(cold), ...peerSide, unit: 'ms', ...targetAt(pages, 'at least as fast', median(cold) <= peerMs) },
      { operation: 'page text: whole document, again (cached by ETag)', size, pages, ...oursOf(warm), ...peerSide, unit: 'ms', ...targetAt(pages, 'at least as fast', median(warm) <= peerMs) },
      { operation: 'page text: each page after the whole document (sequential)', size: `${pages.toLocaleString('en')} request${pages === 1 ? '' : 's'}`, pages, ours: each.ms / pages, unit: 'ms' },
    ],
  };
}

/** The prefetch row at one size, on the default server: the text is extracted while the workers are idle after the upload. */
async function prefetchedAtSize(server: TestServer, pages: number, quick: boolean, peer: number[]): Promise<Row> {
  const auth = { authorization: server.adminAuth };
  const document = makeBenchDocument(pages, { lines: LINES });
  const url = `${server.api}/documents/bench/text-${pages}.pdf`;
  const prefetched: number[] = [];
  for (let i = 0; i < repetitions(pages, quick); i++) {
    await uploadVersion(url, auth, document, i);
    await new Promise((resolve) => setTimeout(resolve, thinkMs(pages)));
    prefetched.push((await timed(async () => {
      const text = await getText(url, auth);
      if (text.split('\f').length !== pages + 1) throw new Error('not one form feed per page');
    })).ms);
  }
  return {
    operation: 'page text: whole document, a moment after the upload (prefetched while idle)',
    size: `${pagesLabel(pages)}, read ${thinkMs(pages) / 1000} s after`,
    pages,
    ...oursOf(prefetched),
    ...peerOf(peer, 'pdftotext'),
    unit: 'ms',
    ...targetAt(pages, 'at least as fast', median(prefetched) <= median(peer)),
  };
}

export async function runPagesBench(quick: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const peers = new Map<number, number[]>();
  // Prefetching after writes is off here, so that the first request measures the extraction itself.
  const server = await sharedServer({ PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' });
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-pages-'));
  try {
    for (const pages of sizes(quick)) {
      const measured = await atSize(server, dir, pages, quick);
      rows.push(...measured.rows);
      peers.set(pages, measured.peer);
    }
    // On the same server (its settings are the ones the listings need): one start fewer (issue 38, the bench's time).
    rows.push(await healthUnderPageListings(quick, server));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // With prefetching on (the default), compared with the same pdftotext runs; the default-settings service the OCR,
  // office and one-shot benchmarks share.
  const prefetching = await sharedServer();
  try {
    for (const pages of sizes(quick)) rows.push(await prefetchedAtSize(prefetching, pages, quick, peers.get(pages)!));
  } finally {
    await prefetching.stop();
  }
  return groupBySize(rows);
}

/**
 * Issue 16, finding 13: ten concurrent XML page listings of a 100,000-page document by a GET-only
 * user froze /health for 9.4 s, when every listing held all the pages, built on the main thread.
 * Listings are now paged (1,000 pages by default) and made in the engine; /health is sampled while
 * rounds of ten listings (each of another slice, so nothing comes from the rendered cache) run.
 */
let readers = 0;

export async function healthUnderPageListings(quick: boolean, server: TestServer): Promise<Row> {
  const pages = quick ? 10_000 : 100_000;
  const admin = { authorization: server.adminAuth };
  const many = cachedFixture('many-pages', { pages }, () => makeManyPagesPdf(pages));
  const put = await fetch(`${server.api}/documents/bench/huge.pdf`, { method: 'PUT', headers: { ...admin, 'content-type': 'application/pdf' }, body: new Uint8Array(many) });
  if (put.status !== 201) throw new Error(`upload failed: ${put.status}`);
  // A name of its own each time: the server is shared (under --compare this runs twice on it).
  const username = `reader-${++readers}`;
  const user = await fetch(`${server.api}/users`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'reader-password-1', rights: ['GET'] }) });
  if (user.status !== 201) throw new Error(`user creation failed: ${user.status}`);
  const reader = { authorization: basicAuth(username, 'reader-password-1'), accept: 'application/xml' };
  let listing = true;
  let listings = 0;
  const round = async (r: number) => {
    await Promise.all(Array.from({ length: 10 }, async (_, i) => {
      const offset = ((r * 10 + i) * 1000) % pages;
      const reply = await fetch(`${server.api}/documents/bench/huge.pdf/pages?offset=${offset}`, { headers: reader });
      const body = await reply.text();
      // The first and last page of the slice (cheap checks: this process also times /health).
      if (reply.status !== 200 || !body.includes(`<pageIndex>${offset}</pageIndex>`) || !body.includes(`<pageIndex>${offset + 999}</pageIndex>`)) throw new Error(`listing failed: ${reply.status}`);
      listings++;
    }));
  };
  const load = (async () => {
    for (let r = 0; listing; r++) await round(r);
  })();
  // The bare route under the same load shows what the machine alone costs (2 cores, shared).
  const bare = await startBareServer();
  try {
    const samples = await sampleLatency(`${server.api}/health`, quick ? 100 : 1000, 5);
    const bareSamples = await sampleLatency(`${bare.url}/health`, quick ? 100 : 1000, 5);
    listing = false;
    await load;
    const p99 = percentile(samples, 99);
    return {
      operation: 'GET /health p99, 10 concurrent page listings (XML)',
      size: `${pages.toLocaleString('en')} pages, ${listings} listings of 1,000`,
      ours: p99,
      peer: percentile(bareSamples, 99),
      peerName: 'bare Fastify',
      unit: 'ms',
      target: '< 20 ms',
      met: p99 < 20,
    };
  } finally {
    listing = false;
    bare.stop();
  }
}
