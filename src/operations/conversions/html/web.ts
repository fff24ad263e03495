import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { ServiceError } from '../../../errors.js';
import { bareHost, isForbiddenAddress, isLoopback, pinnedRequest, resolveHost, type ResolvedAddress } from '../../../outbound.js';

export { isForbiddenAddress } from '../../../outbound.js';

/**
 * Web pages by URL (docs/html.md, "Web pages by URL"): the service, never the browser, fetches every request of such a
 * page. The browser has no network (bubblewrap's empty namespace); its helper hands each request over, and this
 * module fetches it only when its origin is on the operator's allow-list and its name resolves to public addresses
 * only, connecting to the address it checked (no second lookup: DNS rebinding cannot switch it), following redirects
 * itself with each hop checked again, within a byte budget per page and a time bound per request. No cookies, no
 * credentials, GET only.
 */

/** What the operator allows (config: PDFSERVICE_URL_*). */
export interface WebPolicy {
  /** Allowed origins, normalised (`https://example.com`, `http://intranet.example:8080`). Empty: URLs are off. */
  allowlist: readonly string[];
  /** Bytes one page may fetch in all (its document and every sub-resource); each response is bounded by what is left. */
  maxBytes: number;
  /**
   * Tests only (honoured only with NODE_ENV=test, config/tools.ts): names answered without DNS, each with one address;
   * `exempt` lets that one address be loopback (never another kind of private address).
   */
  testHosts?: ReadonlyMap<string, { address: string; exempt: boolean }> | undefined;
}

/** Redirects one request may follow; each hop is checked as the first. */
export const MAX_REDIRECTS = 5;
/** Longest one request (with its redirects) may take: connecting, headers and body. */
export const FETCH_TIMEOUT_MS = 15_000;
/** The longest URL taken (the body of a text/uri-list upload, a page's request). */
export const MAX_URL_LENGTH = 8_192;

/** The URL of a text/uri-list body: its one URL line (comments, `#`, and blank lines left out). */
export function urlOfList(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.length !== 1) throw new ServiceError('BAD_REQUEST', `A text/uri-list upload names exactly one URL; this one names ${lines.length}`);
  return lines[0]!;
}

/**
 * The URL parsed and allowed: 403 URL_FETCH_DISABLED without an allow-list, 400 for what is no absolute URL or has
 * credentials in it, 403 URL_NOT_ALLOWED for another scheme than http and https or an origin not on the list.
 * Nothing is resolved or fetched here.
 */
export function allowedUrl(policy: WebPolicy | undefined, raw: string): URL {
  if (!policy || policy.allowlist.length === 0) {
    throw new ServiceError('URL_FETCH_DISABLED', 'Web pages by URL are off: the operator has not set PDFSERVICE_URL_ALLOWLIST, the origins the service may fetch from (docs/html.md, "Web pages by URL")');
  }
  if (raw.length > MAX_URL_LENGTH) throw new ServiceError('BAD_REQUEST', `The URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('BAD_REQUEST', 'The URL is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ServiceError('URL_NOT_ALLOWED', `Only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new ServiceError('BAD_REQUEST', 'The URL carries credentials: the service sends none');
  if (!policy.allowlist.includes(url.origin)) throw new ServiceError('URL_NOT_ALLOWED', `The origin ${url.origin} is not on the service's allow-list (PDFSERVICE_URL_ALLOWLIST)`);
  return url;
}

/** The one address a host is reached at, checked: 403 URL_NOT_ALLOWED when the name has any address the service refuses. */
async function checkedAddress(policy: WebPolicy, host: string): Promise<ResolvedAddress> {
  const name = bareHost(host);
  const test = policy.testHosts?.get(name.toLowerCase());
  let addresses: ResolvedAddress[];
  if (test) addresses = [{ address: test.address, family: isIP(test.address) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolveHost(name);
    } catch (err) {
      throw new ServiceError('URL_FETCH_FAILED', `The name ${name} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  // Every address the name has is checked, not only the one used: a name with one private address is refused whole.
  const exempt = (address: string) => test?.exempt === true && address === test.address && isLoopback(address);
  const refused = addresses.find(({ address }) => isForbiddenAddress(address) && !exempt(address));
  if (refused || addresses.length === 0) {
    throw new ServiceError('URL_NOT_ALLOWED', `${name} resolves to ${refused?.address ?? 'no address'}, a private, loopback, link-local or otherwise non-public address the service never connects to`);
  }
  return addresses[0]!;
}

/** A fetched response: its final URL (after redirects), status, media type and the file its body was written to. */
export interface Fetched {
  url: string;
  status: number;
  type: string;
  file: string;
  bytes: number;
}

/** What a page fetched so far: its bytes against the policy's budget. */
export class FetchBudget {
  used = 0;
  constructor(readonly max: number) {}
  get left(): number {
    return Math.max(0, this.max - this.used);
  }
}

/**
 * One GET of an allowed URL, its redirects followed (each hop allowed and resolved again, at most MAX_REDIRECTS), its
 * body written to `file` within what is left of `budget`: 403 URL_NOT_ALLOWED for a hop the policy refuses, 422
 * URL_FETCH_FAILED for a body past the budget, a request past the time bound, a connection that fails or too many
 * redirects. `signal` stops it.
 */
export async function fetchAllowed(policy: WebPolicy, start: URL, file: string, budget: FetchBudget, signal?: AbortSignal): Promise<Fetched> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let url = start;
  for (let hop = 0; ; hop++) {
    allowedUrl(policy, url.href);
    const pinned = await checkedAddress(policy, url.hostname);
    // No cookies and no credentials are ever sent; an identity body, so the byte bound is the bytes received.
    const headers = { 'User-Agent': 'pdfservice (web page to PDF)', Accept: '*/*', 'Accept-Encoding': 'identity' };
    const response = await pinnedRequest(url, pinned, { method: 'GET', headers, signal: stop }).catch((err: unknown) => {
      throw timeout.aborted ? new ServiceError('URL_FETCH_FAILED', `${url.origin} did not answer within ${FETCH_TIMEOUT_MS / 1000} s`) : err instanceof ServiceError ? err : new ServiceError('URL_FETCH_FAILED', `${url.href} could not be fetched (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new ServiceError('URL_FETCH_FAILED', `${start.href} redirects more than ${MAX_REDIRECTS} times`);
      try {
        url = new URL(location, url);
      } catch {
        throw new ServiceError('URL_FETCH_FAILED', `${url.href} redirects to an address that is no URL`);
      }
      continue;
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > budget.left) {
      response.destroy();
      throw tooLarge(url, budget);
    }
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > budget.left) done(tooLarge(url, budget));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(response, count, createWriteStream(file), { signal: stop });
    } catch (err) {
      await rm(file, { force: true });
      if (err instanceof ServiceError) throw err;
      if (timeout.aborted) throw new ServiceError('URL_FETCH_FAILED', `${url.href} was not fetched within ${FETCH_TIMEOUT_MS / 1000} s`);
      throw new ServiceError('URL_FETCH_FAILED', `${url.href} could not be read (${(err as Error).message})`);
    }
    budget.used += bytes;
    return { url: url.href, status, type: String(response.headers['content-type'] ?? 'application/octet-stream'), file, bytes };
  }
}

function tooLarge(url: URL, budget: FetchBudget): ServiceError {
  return new ServiceError('URL_FETCH_FAILED', `${url.href} is larger than the ${budget.left} bytes left of the page's ${budget.max} (PDFSERVICE_URL_MAX_BYTES)`);
}
