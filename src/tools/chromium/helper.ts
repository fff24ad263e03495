/**
 * The warm Chromium pool's process (tools/chromium.ts, docs/html.md): run by the supervisor as a `pooled` tool, inside
 * the bubblewrap sandbox (no network, no host files but the system's, read-only). It starts one browser with
 * playwright-core over its pipe transport, says `ready <version>`, then answers one JSON line per request line: one
 * page printed to PDF in a fresh browser context. It imports nothing from the service: only this folder, Node and
 * playwright-core are bound into the sandbox. It exits when its browser goes (killed, crashed): the supervisor
 * replaces it.
 */
import { createInterface } from 'node:readline';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';

/** How a page is loaded and printed (tools/chromium.ts takes them from the upload's options). */
export interface PageSettings {
  javascript: boolean;
  media: 'print' | 'screen';
  waitForSelector?: string | undefined;
  waitForExpression?: string | undefined;
  waitDelayMs?: number | undefined;
  /** page.pdf's options (format, width, height, margin, landscape, scale, printBackground, pageRanges, preferCSSPageSize, header/footer templates, tagged, outline). */
  pdf: Record<string, unknown>;
}

/** One conversion, as tools/chromium.ts sends it. */
export interface HelperRequest extends PageSettings {
  /** Files the page may load, by URL path ("/style.css"), each a file of the run's folder and its media type. */
  files: Record<string, { file: string; type: string }>;
  /** The main page's URL path. */
  main: string;
  /**
   * A web page by URL (docs/html.md, "Web pages by URL"): its address, served from `files[main]`; every other http(s)
   * request of the page is handed to the service (a `fetch` line, answered by a `fetched` line) instead of refused.
   */
  page?: string | undefined;
  output: string;
  timeoutMs: number;
}

/** The answer: `page` a fault of the page (its load, its wait, its size) or of the options, `browser` the browser's. */
export type HelperAnswer = { ok: true } | { ok: false; kind: 'timeout' | 'page' | 'options' | 'browser'; error: string };

/** A web page's request handed to the service while it converts; answered by one `FetchReply` line. */
export interface FetchAsk {
  fetch: { url: string };
}
/** The service's answer to a FetchAsk: the body in a file of the run's folder, or nothing (the request fails). */
export interface FetchReply {
  fetched: { status: number; type: string; file: string } | null;
}

/** The origin the page is served from: a name that never resolves (RFC 6761), answered only by the context's route. */
const BUNDLE_ORIGIN = 'http://document.invalid';

const { chromium } = (await import(process.env.PLAYWRIGHT_CORE!)) as typeof import('playwright-core');
const browser: Browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PROGRAM!,
  // The browser's own namespace sandbox cannot nest in bubblewrap's as playwright starts it: bubblewrap is the sandbox.
  chromiumSandbox: false,
  // No /dev/shm in the sandbox; no crash reports, updates, sync or other background traffic (there is no network anyway).
  args: ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-breakpad', '--disable-component-update', '--disable-sync', '--disable-extensions'],
  handleSIGINT: false,
  handleSIGTERM: false,
});
browser.on('disconnected', () => process.exit(3));

class PageError extends Error {
  constructor(
    readonly kind: 'timeout' | 'page' | 'options',
    message: string,
  ) {
    super(message);
  }
}

/** The lines the service sends: conversion requests, and answers to a web page's fetches. */
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function nextLine(): Promise<string | undefined> {
  const next = await lines.next();
  return next.done ? undefined : next.value;
}

/**
 * Asks the service for one request of a web page, one at a time (the service answers each line with one line). A
 * conversion that has answered asks nothing more: its late requests fail here, so no fetch line follows its answer.
 */
function fetcher(): { fetch: (url: string) => Promise<FetchReply['fetched']>; close: () => void } {
  let open = true;
  let queue: Promise<unknown> = Promise.resolve();
  const fetch = (url: string): Promise<FetchReply['fetched']> => {
    const asked = queue.then(async () => {
      if (!open) return null;
      process.stdout.write(`${JSON.stringify({ fetch: { url } } satisfies FetchAsk)}\n`);
      const line = await nextLine();
      return line === undefined ? null : (JSON.parse(line) as FetchReply).fetched;
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
  return { fetch, close: () => { open = false; } };
}

/** How a conversion hands a web page's request to the service (fetcher). */
type Fetch = ReturnType<typeof fetcher>['fetch'];

const AWAY = { status: 200, body: '', headers: { 'Content-Disposition': 'attachment' } };

/** Every request of the page: the bundle's files from their folder, nothing else (data: URLs never reach a route). */
function serve(request: HelperRequest, fetch: ReturnType<typeof fetcher>['fetch']) {
  return async (route: Route): Promise<void> => {
    let url: URL;
    try {
      url = new URL(route.request().url());
    } catch {
      return route.request().isNavigationRequest() ? route.fulfill(AWAY) : route.abort('blockedbyclient');
    }
    if (request.page !== undefined) return serveWeb(request, route, url, fetch);
    if (url.origin !== BUNDLE_ORIGIN) {
      // A navigation away (a refresh, a link clicked, location set) is answered as a download, which the context
      // refuses: the frame keeps its page, where a refused navigation would print Chromium's error page instead.
      if (route.request().isNavigationRequest()) return route.fulfill(AWAY);
      return route.abort('blockedbyclient');
    }
    let pathName: string;
    try {
      pathName = decodeURIComponent(url.pathname);
    } catch {
      return route.fulfill({ status: 404, body: '' });
    }
    const file = Object.hasOwn(request.files, pathName) ? request.files[pathName] : undefined;
    if (!file) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 200, path: file.file, contentType: file.type, headers: { 'Cache-Control': 'no-store' } });
  };
}

/**
 * A web page's request: the page itself from its file; any other http(s) GET, of the page or of a frame in it, handed
 * to the service, which fetches it only if its policy allows (else the request fails and the page prints without
 * it). The main frame navigating away is answered as a download (kept on its page, as a bundle's page is); other
 * schemes and methods are refused.
 */
async function serveWeb(request: HelperRequest, route: Route, url: URL, fetch: ReturnType<typeof fetcher>['fetch']): Promise<void> {
  const asked = route.request();
  const here = new URL(url.href);
  here.hash = '';
  let mainFrame = false;
  try {
    mainFrame = asked.isNavigationRequest() && asked.frame().parentFrame() === null;
  } catch {
    // frame() throws for a service worker's request (the context blocks them): never the page's own navigation.
  }
  if (mainFrame && here.href === request.page) {
    const file = request.files[request.main]!;
    return route.fulfill({ status: 200, path: file.file, contentType: file.type, headers: { 'Cache-Control': 'no-store' } });
  }
  if (mainFrame) return route.fulfill(AWAY);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || asked.method() !== 'GET') return route.abort('blockedbyclient');
  const fetched = await fetch(here.href);
  // The answer may come after the conversion has ended and its context closed: nothing is left to answer then.
  if (!fetched) return route.abort('blockedbyclient').catch(() => undefined);
  return route.fulfill({ status: fetched.status, path: fetched.file, contentType: fetched.type, headers: { 'Cache-Control': 'no-store' } }).catch(() => undefined);
}

/**
 * A fresh browser context with its routes and its one blank page, made before the conversion that uses it arrives: a
 * new context costs a new renderer process, the larger part of a conversion's time on a warm browser (docs/html.md,
 * "Where the time goes"). It serves nothing until `use` names its conversion, and is used by one conversion only.
 */
interface Prepared {
  context: BrowserContext;
  page: Page;
  use(request: HelperRequest, fetch: Fetch): void;
}

async function prepare(javascript: boolean): Promise<Prepared> {
  const context = await browser.newContext({ javaScriptEnabled: javascript, serviceWorkers: 'block', acceptDownloads: false, bypassCSP: false });
  let serving: { request: HelperRequest; fetch: Fetch } | undefined;
  try {
    // WebSockets are not requests a route sees: each is closed before it connects.
    await context.routeWebSocket(/.*/, (ws) => ws.close());
    // Until its conversion is set, the blank page has nothing to load: anything asked for is refused.
    await context.route('**/*', (route) => (serving ? serve(serving.request, serving.fetch)(route) : route.abort('blockedbyclient')));
    const page = await context.newPage();
    return { context, page, use: (request, fetch) => (serving = { request, fetch }) };
  } catch (err) {
    void context.close().catch(() => undefined);
    throw err;
  }
}

/** The context the next conversion without JavaScript takes (prepared while the service finishes the previous one). */
let spare: Promise<Prepared> | undefined;

function prepareSpare(): void {
  const next = prepare(false);
  next.catch(() => undefined); // a failed spare is made again by the conversion that wanted it
  spare = next;
}

/** A context never used before, for `request`: the spare when it fits and was made, else a new one. */
async function contextFor(request: HelperRequest): Promise<Prepared> {
  if (!request.javascript && spare) {
    const taken = spare;
    spare = undefined;
    const ready = await taken.catch(() => undefined);
    if (ready) return ready;
  }
  return prepare(request.javascript);
}

async function convert(request: HelperRequest, prepared: Prepared, deadline: number, fetch: Fetch): Promise<void> {
  const left = () => Math.max(1, deadline - Date.now());
  prepared.use(request, fetch);
  const { page } = prepared;
  await page.emulateMedia({ media: request.media });
  try {
    // Not goto's own "load": a navigation the page starts while it loads (a script setting location, a download link
    // clicked) leaves goto waiting for that navigation in vain; the load event, or else the document's readyState
    // (which a pending style sheet's refusal can leave unpolled), says the page is loaded.
    await page.goto(request.page ?? `${BUNDLE_ORIGIN}${request.main}`, { waitUntil: 'commit', timeout: left() });
    await Promise.any([page.waitForLoadState('load', { timeout: left() }), page.waitForFunction('document.readyState === "complete"', undefined, { timeout: left(), polling: 50 })]);
  } catch (err) {
    if (isTimeout(err)) throw new PageError('timeout', 'the page did not finish loading in time');
    throw new PageError('page', `the page could not be loaded (${firstLine(err)})`);
  }
  try {
    if (request.waitForSelector) await page.waitForSelector(request.waitForSelector, { state: 'attached', timeout: left() });
    if (request.waitForExpression) await page.waitForFunction(request.waitForExpression, undefined, { timeout: left(), polling: 100 });
  } catch (err) {
    if (isTimeout(err)) throw new PageError('timeout', `the page did not reach ${request.waitForSelector ? `waitForSelector ${JSON.stringify(request.waitForSelector)}` : 'waitForExpression'} in time`);
    throw new PageError('options', `waitForSelector or waitForExpression could not be evaluated (${firstLine(err)})`);
  }
  if (request.waitDelayMs) await page.waitForTimeout(Math.min(request.waitDelayMs, left()));
  try {
    await page.pdf({ ...request.pdf, path: request.output });
  } catch (err) {
    const message = firstLine(err);
    // Chromium refuses a page range past the last page, a malformed one, or a paper size it cannot print.
    if (/page range|pageRanges|Invalid|exceeds/i.test(message)) throw new PageError('options', message);
    throw new PageError('page', `the page could not be printed (${message})`);
  }
}

function isTimeout(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.some(isTimeout);
  return err instanceof Error && err.name === 'TimeoutError';
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').replace(/^\w+\.\w+: /, '').slice(0, 300);
}

async function answer(line: string): Promise<HelperAnswer> {
  const request = JSON.parse(line) as HelperRequest;
  const deadline = Date.now() + request.timeoutMs;
  let obtained: Promise<Prepared> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const web = fetcher();
  try {
    // A script that never yields blocks the page's every call: the deadline answers without it (the service then retires this process).
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new PageError('timeout', 'the page did not finish loading and printing in time')), Math.max(1, deadline - Date.now()));
    });
    obtained = contextFor(request);
    await Promise.race([obtained.then((prepared) => convert(request, prepared, deadline, web.fetch)), late]);
    return { ok: true };
  } catch (err) {
    if (err instanceof PageError) return { ok: false, kind: err.kind, error: err.message };
    return { ok: false, kind: browser.isConnected() ? 'page' : 'browser', error: firstLine(err) };
  } finally {
    web.close();
    clearTimeout(timer);
    // A context stuck in a page that never yields is left to the process's replacement.
    void obtained?.then((prepared) => prepared.context.close()).catch(() => undefined);
  }
}

// The first conversion's context is made while the service hears that the browser is ready.
prepareSpare();
process.stdout.write(`ready ${browser.version()}\n`);

for (let line = await nextLine(); line !== undefined; line = await nextLine()) {
  // A fetch's answer that came after its conversion had answered (its deadline passed meanwhile) is no request.
  if (line.trim() === '' || line.startsWith('{"fetched"')) continue;
  const result = await answer(line).catch((err: unknown): HelperAnswer => ({ ok: false, kind: 'browser', error: firstLine(err) }));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // The next conversion's context is made now, while the service finishes this one's PDF.
  if (!spare) prepareSpare();
}
await browser.close().catch(() => undefined);
