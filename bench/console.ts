/**
 * The web console in Chromium (issue 45, docs/console.md): Debian's chromium driven by playwright-core, launched by
 * the tests' helper (test/helpers/browser.ts; no browser is downloaded). Rows:
 *
 * - a usable folder list of 1,000 documents: from the navigation's start (the page's `performance.now()`, its origin
 *   the navigation) until the table has a row per document and the first document's link takes the focus;
 * - page 500 of a 1,000-page document: the viewer open at page 1 with its page list (thumbnails and the page-number
 *   field) shown, from "Go" to page 500's image decoded;
 * - the JavaScript shipped: console/dist's scripts, gzip -9;
 * - page 1 of a 200 MB PDF (a scan of 300 dpi Flate pages, bench/optimize-large.ts writeScanDocument): the console's
 *   viewer against a page of our own that shows page 1 with pdf.js (pdfjs-dist from npm, installed by the bench into
 *   the fixture cache the first time) at the same 96 dpi, the file served from disk by a local server with byte
 *   ranges (pdf.js's fastest way: it reads the cross-reference table and page 1's objects, not the whole file); from
 *   the navigation's start until the page's pixels are there (our image decoded, pdf.js's render promise resolved).
 *
 * Every repetition runs in a new browser context (an empty cache, the session cookie carried over), ours and the
 * peer interleaved, the side going first alternating. By name only (`--only=console`).
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, signInConsole } from '../test/helpers/browser.js';
import { makeManyPagesPdf, makePdf } from '../test/helpers/pdf.js';
import { ADMIN, type TestServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { startServer } from './build.js';
import { cachedFile, FIXTURE_CACHE, loadNow, median, oursOf, peerOf } from './lib.js';
import { flatePages, uploadFile, writeScanDocument } from './optimize-large.js';

const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist', import.meta.url));
const PDFJS_VERSION = '6.5.438';
const MB = 1024 * 1024;

type Storage = Awaited<ReturnType<BrowserContext['storageState']>>;

/** pdfjs-dist from npm, installed once into the fixture cache (not a dependency of the service or the console). */
function pdfjsDist(): string {
  const prefix = path.join(FIXTURE_CACHE, `pdfjs-dist-${PDFJS_VERSION}`);
  const dist = path.join(prefix, 'node_modules', 'pdfjs-dist');
  if (!existsSync(path.join(dist, 'build', 'pdf.min.mjs'))) {
    console.log(`console: installing pdfjs-dist ${PDFJS_VERSION} from npm into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--omit=optional', '--loglevel=error', `pdfjs-dist@${PDFJS_VERSION}`], { stdio: 'inherit' });
  }
  return dist;
}

/** The peer's page: pdf.js's own API (getDocument, getPage, render), page 1 at 96 dpi, the time it took. */
const PDFJS_PAGE = `<!doctype html><html lang="en"><title>pdf.js page 1</title><canvas id="page"></canvas>
<script type="module">
import * as pdfjs from '/pdfjs/build/pdf.min.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/build/pdf.worker.min.mjs';
const doc = await pdfjs.getDocument({ url: '/file.pdf', standardFontDataUrl: '/pdfjs/standard_fonts/', wasmUrl: '/pdfjs/wasm/' }).promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale: 96 / 72 });
const canvas = document.getElementById('page');
canvas.width = Math.floor(viewport.width);
canvas.height = Math.floor(viewport.height);
await page.render({ canvas, viewport }).promise;
window.renderedAt = performance.now();
</script></html>`;

/** A local static server for the peer: its page, pdfjs-dist's files, and the PDF from disk with byte ranges. */
async function startPeerServer(pdfjs: string, pdf: string): Promise<{ url: string; close: () => Promise<void> }> {
  const types: Record<string, string> = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.pdf': 'application/pdf' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PDFJS_PAGE);
    const file = url.pathname === '/file.pdf' ? pdf : url.pathname.startsWith('/pdfjs/') ? path.join(pdfjs, path.normalize(url.pathname.slice('/pdfjs/'.length))) : '';
    if (!file || (file !== pdf && !file.startsWith(pdfjs)) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    const size = statSync(file).size;
    const headers = { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : size - Number(range[2]);
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) });
      createReadStream(file, { start, end }).pipe(res);
    } else {
      res.writeHead(200, { ...headers, 'content-length': String(size) });
      createReadStream(file).pipe(res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

async function put(server: TestServer, doc: string, body: Buffer): Promise<void> {
  const reply = await fetch(`${server.api}/documents/${doc}`, { method: 'PUT', headers: { authorization: server.adminAuth, 'content-type': 'application/pdf' }, body: new Uint8Array(body) });
  const text = await reply.text();
  if (reply.status >= 300) throw new Error(`PUT ${doc} answered ${reply.status}: ${text.slice(0, 300)}`);
}

/** One measurement in a fresh context (an empty HTTP cache), signed in with the saved session cookie. */
async function inFreshContext<T>(browser: Browser, storageState: Storage | undefined, fn: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...(storageState ? { storageState } : {}) });
  try {
    return await fn(context);
  } finally {
    await context.close();
  }
}

/** ms from the navigation's start until the folder's table lists `count` documents and the first link takes the focus. */
async function folderListMs(browser: Browser, storage: Storage, consoleUrl: string, folder: string, count: number): Promise<number> {
  return inFreshContext(browser, storage, async (context) => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}#/folders/${folder}`);
    const at = await page.waitForFunction((expected) => {
      const links = document.querySelectorAll<HTMLAnchorElement>('table.entries tbody a[href*="view?"]');
      if (links.length < expected) return false;
      links[0]!.focus();
      return document.activeElement === links[0] ? performance.now() : false;
    }, count, { polling: 'raf', timeout: 120_000 });
    return (await at.jsonValue()) as number;
  });
}

/** The viewer open at page 1 (its page list shown), then ms from "Go" to page 500's image decoded. */
async function page500Ms(browser: Browser, storage: Storage, consoleUrl: string, doc: string): Promise<number> {
  return inFreshContext(browser, storage, async (context) => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}#/view?doc=${encodeURIComponent(doc)}&page=1`);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth > 0 && img.src.includes('/pages/0/image') && document.querySelectorAll('nav.thumbs a').length > 0;
    }, undefined, { timeout: 120_000 });
    await page.getByLabel('Page number').fill('500');
    const start = await page.evaluate(() => {
      const at = performance.now();
      document.querySelector<HTMLButtonElement>('.toolbar form button[type=submit]')!.click();
      return at;
    });
    const end = await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth > 0 && img.src.includes('/pages/499/image') ? performance.now() : false;
    }, undefined, { polling: 'raf', timeout: 120_000 });
    return ((await end.jsonValue()) as number) - start;
  });
}

/** ms from the navigation's start until the console's viewer shows page 1 of `doc` (its image decoded). */
async function oursPage1Ms(browser: Browser, storage: Storage, consoleUrl: string, doc: string, imageTimes: { start: number; end: number }[]): Promise<number> {
  return inFreshContext(browser, storage, async (context) => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}#/view?doc=${encodeURIComponent(doc)}&page=1`);
    const at = await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth > 0 && img.src.includes('/pages/0/image') ? performance.now() : false;
    }, undefined, { polling: 'raf', timeout: 300_000 });
    // Where the time went: when the page's image was asked for, and when its answer ended (Resource Timing).
    const entry = await page.evaluate(() => {
      const found = performance.getEntriesByType('resource').find((e) => e.name.includes('/pages/0/image') && e.name.includes('dpi=96')) as PerformanceResourceTiming | undefined;
      return found && { startTime: found.startTime, responseEnd: found.responseEnd };
    });
    if (entry) imageTimes.push({ start: entry.startTime, end: entry.responseEnd });
    return (await at.jsonValue()) as number;
  });
}

/** ms from the navigation's start until pdf.js has rendered page 1 (its render promise resolved). */
async function pdfjsPage1Ms(browser: Browser, peerUrl: string): Promise<number> {
  return inFreshContext(browser, undefined, async (context) => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(peerUrl);
    const at = await page.waitForFunction(() => (globalThis as unknown as { renderedAt?: number }).renderedAt ?? false, undefined, { timeout: 300_000 }).catch((error: unknown) => {
      throw new Error(`pdf.js did not render page 1: ${errors.join('; ') || String(error)}`);
    });
    return (await at.jsonValue()) as number;
  });
}

function gzipOf(files: string[]): number {
  return files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
}

/** Ours and the peer, interleaved, the side going first alternating; answers both sides' samples. */
async function interleaved(reps: number, ours: () => Promise<number>, peer: () => Promise<number>): Promise<{ ours: number[]; peer: number[] }> {
  const samples = { ours: [] as number[], peer: [] as number[] };
  for (let i = 0; i < reps; i++) {
    if (i % 2 === 0) {
      samples.ours.push(await ours());
      samples.peer.push(await peer());
    } else {
      samples.peer.push(await peer());
      samples.ours.push(await ours());
    }
  }
  return samples;
}

function spread(values: number[]): string {
  return `median ${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
}

export async function runConsoleBench(quick: boolean): Promise<Row[]> {
  if (!existsSync(path.join(CONSOLE_DIST, 'index.html'))) throw new Error(`${CONSOLE_DIST} is missing: bash scripts/setup.sh builds the console`);
  const reps = quick ? 3 : 7;
  const megabytes = quick ? 40 : 200;
  const rows: Row[] = [];

  // The JavaScript the console ships (every script of its build), and the peer page's (pdf.js and its worker).
  const scripts = readdirSync(path.join(CONSOLE_DIST, 'assets')).filter((f) => f.endsWith('.js')).map((f) => path.join(CONSOLE_DIST, 'assets', f));
  const pdfjs = pdfjsDist();
  const ours = gzipOf(scripts) / 1024;
  const peer = gzipOf(['pdf.min.mjs', 'pdf.worker.min.mjs'].map((f) => path.join(pdfjs, 'build', f))) / 1024;
  console.log(`console: JavaScript shipped ${ours.toFixed(1)} KB gzip (${scripts.length} files); pdf.js ${peer.toFixed(1)} KB`);
  rows.push({
    operation: 'Console: JavaScript shipped (console/dist/assets/*.js, gzip -9)',
    size: `${scripts.length} file${scripts.length === 1 ? '' : 's'}`,
    ours, peer, peerName: `pdfjs-dist ${PDFJS_VERSION} pdf.min.mjs + pdf.worker.min.mjs (a viewer's core, no UI)`,
    unit: 'KB', target: 'under 250 KB', met: ours < 250, load: [loadNow(), loadNow()],
  });

  const scan = cachedFile('console-scan', { megabytes }, (file) => writeScanDocument(file, megabytes, flatePages()), ['./optimize-large.js']);
  const scanBytes = statSync(scan).size;
  const server = await startServer({ env: { PDFSERVICE_MAX_UPLOAD_BYTES: String(512 * MB), PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' } });
  const browser = await launchChromium();
  const peerServer = await startPeerServer(pdfjs, scan);
  try {
    const consoleUrl = `${server.baseUrl}/pdfservice/v1/console/`;
    // 1,000 one-page documents in a folder, and a 1,000-page document (uploads untimed).
    for (let i = 0; i < 1000; i++) await put(server, `bench-console/thousand/doc-${String(i).padStart(4, '0')}.pdf`, makePdf({ text: () => `Document ${i + 1}` }));
    await put(server, 'bench-console/big/thousand-pages.pdf', makeManyPagesPdf(1000));
    await uploadFile(server, 'bench-console/scan.pdf', scan);
    const signed = await browser.newContext();
    await signInConsole(await signed.newPage(), consoleUrl, ADMIN);
    const storage = await signed.storageState();
    await signed.close();

    // Warm-up, untimed: the service's first render and listing, Chromium's first start of each page.
    await folderListMs(browser, storage, consoleUrl, 'bench-console/thousand', 1000);
    await page500Ms(browser, storage, consoleUrl, 'bench-console/big/thousand-pages.pdf');
    await oursPage1Ms(browser, storage, consoleUrl, 'bench-console/scan.pdf', []);
    await pdfjsPage1Ms(browser, peerServer.url);

    let load: [number, number] = [loadNow(), 0];
    const list: number[] = [];
    for (let i = 0; i < reps; i++) list.push(await folderListMs(browser, storage, consoleUrl, 'bench-console/thousand', 1000));
    load[1] = loadNow();
    console.log(`console: folder list of 1,000 documents usable ${spread(list)}, load ${load[0]} → ${load[1]}`);
    rows.push({
      operation: 'Console: folder list usable (1,000 rows rendered, the first link focused), from navigation start, new context each',
      size: '1,000 one-page documents', ...oursOf(list), unit: 'ms', target: 'under 1,000 ms', met: median(list) < 1000, load,
    });

    load = [loadNow(), 0];
    const jump: number[] = [];
    for (let i = 0; i < reps; i++) jump.push(await page500Ms(browser, storage, consoleUrl, 'bench-console/big/thousand-pages.pdf'));
    load[1] = loadNow();
    console.log(`console: page 500 after the page list ${spread(jump)}, load ${load[0]} → ${load[1]}`);
    rows.push({
      operation: 'Console: page 500 shown (image decoded), from "Go" in the viewer open at page 1',
      size: '1,000 pages', ...oursOf(jump), unit: 'ms', target: 'under 300 ms', met: median(jump) < 300, load,
    });

    load = [loadNow(), 0];
    const imageTimes: { start: number; end: number }[] = [];
    const page1 = await interleaved(reps, () => oursPage1Ms(browser, storage, consoleUrl, 'bench-console/scan.pdf', imageTimes), () => pdfjsPage1Ms(browser, peerServer.url));
    load[1] = loadNow();
    const ratios = page1.ours.map((ms, i) => ms / page1.peer[i]!).sort((a, b) => a - b);
    const ratio = median(page1.ours) / median(page1.peer);
    console.log(`console: page 1 of a ${(scanBytes / 1e6).toFixed(0)} MB PDF, console ${spread(page1.ours)}, pdf.js ${spread(page1.peer)}; ratio ${ratio.toFixed(2)}x, per pair ${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)}x, load ${load[0]} → ${load[1]}`);
    if (imageTimes.length) console.log(`console: of which page 1's image asked for at ${spread(imageTimes.map((t) => t.start))}, answered in ${spread(imageTimes.map((t) => t.end - t.start))}`);
    rows.push({
      operation: 'Console: page 1 shown at 96 dpi, from navigation start, new context each, interleaved',
      size: `${(scanBytes / 1e6).toFixed(0)} MB scan (300 dpi Flate pages)`,
      ...oursOf(page1.ours), ...peerOf(page1.peer, `pdf.js ${PDFJS_VERSION} (getDocument + render, our page), file from disk over HTTP with ranges`),
      ratioSpread: [ratios[0]!, ratios.at(-1)!], unit: 'ms', target: 'faster than pdf.js (at most 1.0x)', met: ratio <= 1, load,
    });
  } finally {
    await peerServer.close();
    await browser.close();
    await server.stop();
  }
  return rows;
}
