import { Readable } from 'node:stream';
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { ServiceError } from '../../errors.js';
import { safeXmlParser } from '../../safe-xml.js';

/**
 * The WebDAV requests the store makes, over undici with one connection pool
 * for every user: plain HTTP and a small PROPFIND parser rather than a
 * WebDAV client library, because the store needs each status as the server
 * sent it (412 on a conditional MOVE, 405 on MKCOL of an existing
 * collection), the user's credentials on every request rather than per
 * client, streamed bodies both ways, and no redirects followed.
 */

export interface DavCredentials {
  username: string;
  password: string;
}

export interface DavTlsOptions {
  /** PEM certificates trusted besides the system's (a private CA). */
  ca?: string | Buffer | undefined;
  /** A client certificate and key (PEM), for servers that ask for one. */
  cert?: string | Buffer | undefined;
  key?: string | Buffer | undefined;
  /** false accepts any server certificate: for tests only. */
  rejectUnauthorized?: boolean | undefined;
}

export interface DavClientOptions {
  /** The collection the store's root maps to (http or https, ending in '/' or not). */
  url: string;
  tls?: DavTlsOptions | undefined;
  /** How long a request may wait for the server's headers, and between body chunks. */
  timeoutMs: number;
  /** Connections kept to the server. */
  connections?: number | undefined;
}

/** One entry of a PROPFIND answer. */
export interface DavResource {
  /** The last path segment, decoded ('' for the collection asked about at depth 1). */
  name: string;
  /** The href's path, decoded segment by segment, without a trailing slash. */
  path: string;
  collection: boolean;
  size: number | undefined;
  modified: Date;
  /** The server's own entity tag, as it sent it. */
  davEtag: string | undefined;
  /** Our dead properties (namespace PROPS_NS), by local name. */
  own: Record<string, string>;
  /** Whether a WebDAV lock is on it (its lockdiscovery): asked only by a PROPFIND `withLocks`. */
  locked?: boolean;
}

/**
 * An entity tag without its weakness: Apache marks a tag weak while the file
 * is less than a second old and strong afterwards, for the same version.
 */
export const opaque = (tag: string | undefined) => tag?.replace(/^W\//, '');

/** A resource's version on the DMS as a PROPFIND tells it: what a memo of its content (our tag, a version record) is kept under. */
export const versionOf = (r: { davEtag?: string | undefined; size?: number | undefined; modified: Date }) => `${opaque(r.davEtag) ?? ''}|${r.size ?? ''}|${r.modified.getTime()}`;

/** The namespace of the service's dead properties on the DMS. */
export const PROPS_NS = 'urn:x-pdfservice:props';

/** Seconds a client should wait before retrying when the DMS cannot be reached. */
const RETRY_AFTER_SECONDS = 5;

const OWN_PROPS = ['etag', 'davetag'] as const;

const propfindBody = (locks: boolean) =>
  '<?xml version="1.0" encoding="utf-8"?>' +
  `<D:propfind xmlns:D="DAV:" xmlns:P="${PROPS_NS}"><D:prop>` +
  '<D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/>' +
  (locks ? '<D:lockdiscovery/>' : '') +
  OWN_PROPS.map((p) => `<P:${p}/>`).join('') +
  '</D:prop></D:propfind>';
const PROPFIND_BODY = propfindBody(false);
const PROPFIND_LOCKS_BODY = propfindBody(true);

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Namespace prefixes differ between servers (D:, d:, lp1:, ns0:); every property the store reads has a
// local name of its own, so prefixes are dropped. No DTD (a server's answer is read as hardened as a request body),
// and no entity but XML's five: a multistatus needs no other.
const parse = safeXmlParser({
  maxDepth: 100,
  references: 'predefined',
  shape: {
    removeNSPrefix: true,
    ignoreAttributes: true,
    parseTagValue: false,
    isArray: (name) => name === 'response' || name === 'propstat' || name === 'href',
  },
});

type Xml = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : v && typeof v === 'object' && '#text' in v ? String((v as Xml)['#text']) : undefined);

function decodedPath(href: string): string {
  const pathname = /^[a-z]+:\/\//i.test(href) ? new URL(href).pathname : href.split('?')[0]!;
  return pathname
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join('/')
    .replace(/\/+$/, '');
}

/** The entries of a 207 Multi-Status answer to our PROPFIND. */
export function parseMultistatus(xml: string): DavResource[] {
  const doc = parse(xml, (refusal) => {
    throw dmsUnavailable(`The document server answered PROPFIND with XML the service does not read (${refusal.reason === 'malformed' ? `line ${refusal.line}: ${refusal.message}` : refusal.reason === 'dtd' ? 'a DOCTYPE' : refusal.reason === 'too-deep' ? `nested deeper than ${refusal.maxDepth} levels` : 'it cannot be parsed'})`);
  }) as Xml;
  const multistatus = doc.multistatus as Xml | undefined;
  if (!multistatus || typeof multistatus !== 'object') throw dmsUnavailable('The document server answered PROPFIND with something that is not a multistatus');
  const out: DavResource[] = [];
  for (const response of (multistatus.response as Xml[] | undefined) ?? []) {
    const href = text((response.href as unknown[] | undefined)?.[0]);
    if (href === undefined) continue;
    const props: Xml = {};
    for (const propstat of (response.propstat as Xml[] | undefined) ?? []) {
      if (!/\s2\d\d\s/.test(` ${text(propstat.status) ?? ''} `)) continue;
      Object.assign(props, (propstat.prop as Xml | undefined) ?? {});
    }
    const path = decodedPath(href);
    const resourcetype = props.resourcetype;
    const size = text(props.getcontentlength);
    const modified = text(props.getlastmodified);
    const own: Record<string, string> = {};
    for (const name of OWN_PROPS) {
      const value = text(props[name]);
      if (value) own[name] = value;
    }
    const lockdiscovery = props.lockdiscovery;
    out.push({
      ...(lockdiscovery !== undefined ? { locked: !!lockdiscovery && typeof lockdiscovery === 'object' && 'activelock' in lockdiscovery } : {}),
      name: path.slice(path.lastIndexOf('/') + 1),
      path,
      collection: !!resourcetype && typeof resourcetype === 'object' && 'collection' in resourcetype,
      size: size !== undefined && /^\d+$/.test(size.trim()) ? Number(size) : undefined,
      modified: modified ? new Date(modified) : new Date(0),
      davEtag: text(props.getetag),
      own,
    });
  }
  return out;
}

/**
 * The condition that the DMS still holds the version tagged `davEtag`: a WebDAV If header, which mod_dav compares
 * weakly (RFC 4918 10.4.4), so it works in a file's first second too. (If-Match compares strongly, and a weak tag
 * never matches: with it, a write in that second went unconditionally, and two instances both won.)
 */
export const stillAt = (url: string, davEtag: string | undefined): Record<string, string> => (davEtag ? { if: `<${url}> ([${davEtag}])` } : {});

/** A status the store did not expect from a method: the server does not behave as a WebDAV server should. */
export async function unexpected(method: string, res: Dispatcher.ResponseData): Promise<ServiceError> {
  await res.body.dump();
  return dmsUnavailable(`The document server answered ${method} with ${res.statusCode}`);
}

export function dmsUnavailable(detail: string): ServiceError {
  return new ServiceError('DMS_UNAVAILABLE', detail, undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/** A failure of the connection to the DMS (refused, reset, timed out) as 503 DMS_UNAVAILABLE; anything else as it is. */
export function dmsFailure(err: unknown): unknown {
  return networkFailure(err) ? dmsUnavailable(`The document server cannot be reached (${(err as Error).message})`) : err;
}

function networkFailure(err: unknown): boolean {
  if (err instanceof undiciErrors.UndiciError) return !(err instanceof undiciErrors.RequestAbortedError);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // TLS refusals (an untrusted or expired certificate, a name it does not cover) count too: the DMS cannot be
  // reached safely, which an operator fixes in the configuration (PDFSERVICE_WEBDAV_CA_FILE), not the client.
  return typeof code === 'string' && (/^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|UND_ERR_.*)$/.test(code) || /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code));
}

/** Methods sent again after a closed connection: the safe ones (RFC 9110 9.2.1, and WebDAV's PROPFIND). Not PUT, DELETE, MOVE or COPY: the store sends them with conditions (If-None-Match, If-Match, Overwrite) that a repeat after a first that landed would answer 412 or 404. */
const REPEATABLE = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);

/** The connection was closed by the server before any answer came. */
function closedBeforeAnswer(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

export interface DavRequest {
  headers?: Record<string, string> | undefined;
  body?: string | Buffer | Readable | undefined;
  signal?: AbortSignal | undefined;
}

export class DavClient {
  private readonly agent: Agent;
  /** The root collection's URL, ending in '/'. */
  readonly root: URL;

  constructor(options: DavClientOptions) {
    const root = new URL(options.url);
    if (root.protocol !== 'http:' && root.protocol !== 'https:') throw new Error(`the WebDAV URL must be http or https: ${options.url}`);
    if (!root.pathname.endsWith('/')) root.pathname += '/';
    root.search = '';
    root.hash = '';
    this.root = root;
    const tls = options.tls ?? {};
    this.agent = new Agent({
      connections: options.connections ?? 16,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: {
        timeout: Math.min(options.timeoutMs, 10_000),
        ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
        ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
        ...(tls.key !== undefined ? { key: tls.key } : {}),
        ...(tls.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
      },
    });
  }

  /** The URL of a path below the root: each segment percent-encoded, collections with a trailing '/'. */
  url(segments: readonly string[], collection: boolean): string {
    const tail = segments.map((s) => encodeURIComponent(s)).join('/');
    return new URL(tail + (collection && tail ? '/' : ''), this.root).toString();
  }

  /** The decoded path of the root, as parseMultistatus gives hrefs (no trailing slash). */
  get rootPath(): string {
    return decodedPath(this.root.pathname);
  }

  /**
   * One request as `user`. Network failures and server errors are 503
   * DMS_UNAVAILABLE; 401 and 403 are 403 DMS_FORBIDDEN (the DMS decides what
   * a user may do); 507 is DMS_INSUFFICIENT_STORAGE. Every other status is
   * the caller's to read (see unexpected()); the caller must consume or dump
   * the body.
   */
  async send(method: string, url: string, user: DavCredentials | undefined, req: DavRequest = {}): Promise<Dispatcher.ResponseData> {
    // Nobody acts at the DMS without credentials: a service password or an API token does not reach it.
    if (!user) {
      throw new ServiceError(
        'DMS_FORBIDDEN',
        'The service holds no DMS credentials for this user (passthrough: log in with the DMS user name and password; mapped: an admin maps the user to a DMS account)',
        { dmsStatus: null },
      );
    }
    const headers: Record<string, string> = { ...req.headers };
    headers.authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`, 'utf8').toString('base64')}`;
    if (typeof req.body === 'string' && !headers['content-type']) headers['content-type'] = 'application/xml; charset=utf-8';
    let res: Dispatcher.ResponseData;
    const send = () => request(url, { method: method as Dispatcher.HttpMethod, headers, body: req.body ?? null, dispatcher: this.agent, signal: req.signal ?? null });
    try {
      res = await send();
    } catch (err) {
      // A kept-alive connection the server closed as this request went out ("other side closed"): sent again once on
      // a new connection when the request can be repeated (safe, its body not a consumed stream). Seen with
      // Apache under concurrent writes.
      if (!(closedBeforeAnswer(err) && REPEATABLE.has(method) && !(req.body instanceof Readable))) throw dmsFailure(err);
      try {
        res = await send();
      } catch (again) {
        throw dmsFailure(again);
      }
    }
    const status = res.statusCode;
    if (status === 401 || status === 403) {
      await res.body.dump();
      // dmsStatus tells a client whether to log in again (401: the DMS no longer takes the password) or to ask for rights (403).
      throw new ServiceError('DMS_FORBIDDEN', status === 401 ? 'The document server did not accept the user\'s credentials; log in again' : 'The document server refused this request for the user', { dmsStatus: status });
    }
    if (status === 423) {
      await res.body.dump();
      // Another client holds a WebDAV lock on it (an editor that opened it from the DMS, or another instance committing).
      throw new ServiceError('DMS_LOCKED', `The document server has the document locked for another client (${method})`);
    }
    if (status === 507) {
      await res.body.dump();
      throw new ServiceError('DMS_INSUFFICIENT_STORAGE');
    }
    if (status >= 500) {
      await res.body.dump();
      throw dmsUnavailable(`The document server answered ${method} with ${status}`);
    }
    return res;
  }

  /**
   * An exclusive write lock on `url` (depth 0), taken only while the
   * resource is still the version `ifVersion` names (412 otherwise: null is
   * returned then): its lock token. undefined when the server does not do
   * locks (class 1 only: 405 or 501), so the caller goes on without one.
   * Throws DMS_LOCKED (423) while another client holds a lock on it.
   */
  async lock(url: string, user: DavCredentials | undefined, ifVersion: Record<string, string>, timeoutSeconds: number): Promise<string | null | undefined> {
    const body =
      '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
      '<D:locktype><D:write/></D:locktype><D:owner>pdfservice</D:owner></D:lockinfo>';
    const res = await this.send('LOCK', url, user, { headers: { depth: '0', timeout: `Second-${timeoutSeconds}`, ...ifVersion }, body });
    await res.body.dump();
    if (res.statusCode === 412) return null;
    if (res.statusCode === 405 || res.statusCode === 501) return undefined;
    const token = res.headers['lock-token'];
    if ((res.statusCode !== 200 && res.statusCode !== 201) || typeof token !== 'string') throw dmsUnavailable(`The document server answered LOCK with ${res.statusCode}`);
    return token.trim();
  }

  /** Ends a lock; a failure is left to the lock's timeout. */
  async unlock(url: string, user: DavCredentials | undefined, token: string): Promise<void> {
    try {
      const res = await this.send('UNLOCK', url, user, { headers: { 'lock-token': token } });
      await res.body.dump();
    } catch {
      // The lock ends by its timeout.
    }
  }

  /**
   * Whether the server accepts these credentials: anything but 401 to a
   * PROPFIND of the root (a 403 is a user the server knows and keeps out of
   * the root, who may still own collections below it).
   */
  async accepts(user: DavCredentials): Promise<boolean> {
    try {
      const res = await this.send('PROPFIND', this.root.toString(), user, { headers: { depth: '0' }, body: PROPFIND_BODY });
      await res.body.dump();
      return true;
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'DMS_FORBIDDEN') return !(err.extra?.dmsStatus === 401);
      throw err;
    }
  }

  /** PROPFIND at depth 0 or 1: null when nothing is there (404). `withLocks`: each resource's `locked` too. */
  async propfind(url: string, user: DavCredentials | undefined, depth: 0 | 1, withLocks = false): Promise<DavResource[] | null> {
    const res = await this.send('PROPFIND', url, user, { headers: { depth: String(depth) }, body: withLocks ? PROPFIND_LOCKS_BODY : PROPFIND_BODY });
    if (res.statusCode === 404 || res.statusCode === 409) {
      await res.body.dump();
      return null;
    }
    if (res.statusCode !== 207) throw await unexpected('PROPFIND', res);
    return parseMultistatus(await res.body.text().catch((err: unknown) => Promise.reject(dmsFailure(err))));
  }

  /** Sets our dead properties on a resource (PROPPATCH); false when the server refused them. */
  async setOwnProps(url: string, user: DavCredentials | undefined, props: Partial<Record<(typeof OWN_PROPS)[number], string>>): Promise<boolean> {
    const set = Object.entries(props).map(([k, v]) => `<P:${k}>${xmlEscape(v)}</P:${k}>`).join('');
    const body = `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:P="${PROPS_NS}"><D:set><D:prop>${set}</D:prop></D:set></D:propertyupdate>`;
    const res = await this.send('PROPPATCH', url, user, { body });
    const answer = await res.body.text().catch((err: unknown) => Promise.reject(dmsFailure(err)));
    return res.statusCode === 207 ? !/<[^>]*status[^>]*>[^<]*\s[45]\d\d\s/i.test(answer) : res.statusCode < 300;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * The collections kept in a hidden collection named `hidden` of every folder `user` may list (the versions' and the
 * trash's walks: `<folder>/<hidden>/<name>/`), whose names pass `accept`; one PROPFIND a folder, and one a hidden
 * collection found. Folders the DMS refuses the user are passed over.
 */
export async function* hiddenCollections(client: DavClient, user: DavCredentials | undefined, hidden: string, accept: (name: string) => boolean): AsyncGenerator<{ folder: string[]; name: string }> {
  const walk = async function* (segments: string[]): AsyncGenerator<{ folder: string[]; name: string }> {
    let found: DavResource[] | null;
    try {
      found = await client.propfind(client.url(segments, true), user, 1);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'DMS_FORBIDDEN') return; // not this user's to walk
      throw err;
    }
    const self = [client.rootPath, ...segments].join('/').replace(/\/+$/, '');
    for (const r of found ?? []) {
      if (r.path !== `${self}/${r.name}` || !r.collection) continue;
      if (r.name === hidden) {
        const inner = await client.propfind(client.url([...segments, hidden], true), user, 1);
        const base = `${self}/${hidden}`;
        for (const e of inner ?? []) if (e.path === `${base}/${e.name}` && e.collection && accept(e.name)) yield { folder: segments, name: e.name };
      } else if (!r.name.startsWith('.')) {
        yield* walk([...segments, r.name]);
      }
    }
  };
  yield* walk([]);
}
