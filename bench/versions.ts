/**
 * Versions benchmark (issue 39's bench rows, docs/versions.md):
 *
 * - the time of a write with versions on against the same write with versions off (`PDFSERVICE_VERSIONS=false`): a
 *   TextStampAction on every page of the 200-page bench document, and a 1-annotation edit (an XFDF import of one note)
 *   of the same document; two servers, the same steps on both, in alternating order pair by pair (21 pairs in a full
 *   run). Target: ratio at most 1.05, judged on the median of the pairwise ratios and its 90% interval (onOffRow).
 * - `GET .../versions` of a 1-page document with 1,000 versions (made by 1,000 PUTs through the API; their time is a
 *   row too, the first hundred writes against the last hundred, since each write looks at the document's versions).
 *   Target: under 50 ms.
 * - the disk used by a 50 MB document after 100 annotation edits (101 versions), against the document's size, files
 *   linked twice counted once. Target: at most 2x (the edits are appended and each version kept as a prefix of the
 *   next: docs/versions.md, "Prefixes").
 * - restore of a version of the 200-page document against uploading the same bytes (PUT), alternating.
 *   Target: restore no slower than the upload.
 *
 * `--quick` keeps it small: 1 page instead of 200, a 5 MB document with 10 edits instead of 50 MB with 100, 100
 * versions instead of 1,000, 2 repetitions; the targets of those rows are then not checked (as for the other modules).
 * The quick run is the bench's smoke test (under 2 minutes for every module): the 1,000 PUTs of a 1-page document took
 * 14 to 25 s of it on the loaded 2-core machine.
 */
import { randomBytes } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startDavServer, type DavServer } from '../test/helpers/dav-server.js';
import { makePdf } from '../test/helpers/pdf.js';
import { serializePdf, streamParts } from '../test/helpers/pdf-writer.js';
import { startS3Server, type S3Server } from '../test/helpers/s3-server.js';
import { ADMIN, type TestServer } from '../test/helpers/server.js';
import type { Row } from './annotations.js';
import { startServer } from './build.js';
import { makeBenchDocument } from './fixtures.js';
import { loadNow, median, medianInterval, oursOf, pagesLabel, peerOf, repetitions, timed, uploadPdf } from './lib.js';

/** The stores the rows run on (issue 39: "on every store"); `--stores=s3,webdav` picks some. */
export const STORES = ['filesystem', 's3', 'webdav'] as const;
export type VersionsStore = (typeof STORES)[number];

/**
 * The settings a full run uses (issue 39's) and the small ones of a quick run. A quick run on S3 or WebDAV makes 20
 * versions instead of 100: each PUT there is several requests to a server on the same 2 cores (Swift's are Python
 * processes), and the quick run is a smoke test of seconds.
 */
export function settings(quick: boolean, store: VersionsStore = 'filesystem'): { pages: number; versions: number; bigBytes: number; edits: number } {
  if (!quick) return { pages: 200, versions: 1000, bigBytes: 50 << 20, edits: 100 };
  return { pages: 1, versions: store === 'filesystem' ? 100 : 20, bigBytes: 5 << 20, edits: 10 };
}

/** The lowest and highest ratio of the pairs measured back to back (a[i] / b[i]); none with fewer than 2 pairs. */
export function pairRatios(a: number[], b: number[]): [number, number] | undefined {
  const n = Math.min(a.length, b.length);
  if (n < 2) return undefined;
  const ratios = Array.from({ length: n }, (_, i) => a[i]! / b[i]!);
  return [Math.min(...ratios), Math.max(...ratios)];
}

/**
 * A one-page PDF of at least `bytes` bytes: an RGB image of random pixels, unfiltered (so no save can make it much
 * smaller or larger, and a full rewrite of the document costs its whole size), drawn over the page.
 */
export function largeImagePdf(bytes: number): Buffer {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const pixels = randomBytes(side * side * 3);
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
    streamParts(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8`, pixels),
    streamParts('', 'q 612 0 0 792 0 0 cm /Im1 Do Q'),
  ], '/Root 1 0 R');
}

/** An XFDF body adding one note named `name` on the first page: the 1-annotation edit. */
export function oneNoteXfdf(name: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots><text page="0" rect="40,40,60,60" name="${name}"><contents>Edit ${name}</contents></text></annots></xfdf>\n`;
}

/**
 * Bytes on disk of a set of files, each inode counted once (a version's blob and the current document are one file):
 * the apparent sizes and the allocated blocks.
 */
export async function distinctBytes(files: string[]): Promise<{ bytes: number; allocated: number; files: number }> {
  const seen = new Set<string>();
  let bytes = 0;
  let allocated = 0;
  for (const file of files) {
    const st = await lstat(file);
    const key = `${st.dev}:${st.ino}`;
    if (!st.isFile() || seen.has(key)) continue;
    seen.add(key);
    bytes += st.size;
    allocated += st.blocks * 512;
  }
  return { bytes, allocated, files: seen.size };
}

type Auth = Record<string, string>;

async function send(url: string, init: RequestInit, status: number[]): Promise<Response> {
  const reply = await fetch(url, init);
  const body = await reply.arrayBuffer();
  if (!status.includes(reply.status)) throw new Error(`${init.method ?? 'GET'} ${url} answered ${reply.status}: ${Buffer.from(body).toString('utf8', 0, 300)}`);
  return reply;
}

const stamp = (url: string, auth: Auth) =>
  send(`${url}/pages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ TextStampAction: { text: 'VERSIONED', x: 72, y: 72, fontSize: 24 } }) }, [200]);

const addNote = (url: string, auth: Auth, name: string) =>
  send(`${url}/annotations/content`, { method: 'POST', headers: { ...auth, 'content-type': 'application/vnd.adobe.xfdf' }, body: oneNoteXfdf(name) }, [200]);

async function versionsOf(url: string, auth: Auth, query = ''): Promise<{ versions: { id: string }[]; total: number }> {
  const reply = await fetch(`${url}/versions${query}`, { headers: { ...auth, accept: 'application/json' } });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`GET versions answered ${reply.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { versions: { id: string }[]; total: number };
}

/**
 * A store the rows run on: two services over it (versions on, versions off), each with its own documents (`url` of a
 * document name), the requests the store's server has answered so far (none for the filesystem), and what the
 * document and its versions occupy there.
 */
interface StoreUnderTest {
  store: VersionsStore;
  /** Appended to the operation of each row ("" for the filesystem store: its rows keep their earlier names). */
  suffix: string;
  on: TestServer;
  off: TestServer | undefined;
  auth: Auth;
  url(server: TestServer, name: string): string;
  /** Requests the S3 or WebDAV server has logged so far, by method (undefined for the filesystem store). */
  requests(): Promise<Map<string, number> | undefined>;
  /** The bytes of the document `name` on the versions-on side and of every object or file of its versions. */
  storage(name: string): Promise<{ bytes: number; files: number }>;
  stopOff(): Promise<void>;
  dispose(): Promise<void>;
}

/** What a log line tells of a request: its kind, and the bytes it carried (received and sent, where the log says). */
interface LoggedRequest {
  kind: string;
  bytes?: number;
}

/** Requests by kind in log lines (`parse` answers undefined for a line that is none), and `<kind> bytes` summed. */
function countRequests(lines: string[], parse: (line: string) => LoggedRequest | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const request = parse(line);
    if (!request) continue;
    counts.set(request.kind, (counts.get(request.kind) ?? 0) + 1);
    if (request.bytes) counts.set(`${request.kind} bytes`, (counts.get(`${request.kind} bytes`) ?? 0) + request.bytes);
  }
  return counts;
}

/** `after - before` per kind, as "3 PutObject (4.3 MB), 1 GetObject" (most first), divided by `per`. */
function requestDelta(before: Map<string, number> | undefined, after: Map<string, number> | undefined, per = 1): string {
  if (!before || !after) return '';
  const delta = (kind: string) => ((after.get(kind) ?? 0) - (before.get(kind) ?? 0)) / per;
  const kinds = [...after.keys()].filter((kind) => !kind.endsWith(' bytes') && delta(kind) > 0);
  kinds.sort((a, b) => delta(b) - delta(a));
  const count = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  return kinds.map((kind) => {
    const bytes = delta(`${kind} bytes`);
    return `${count(delta(kind))} ${kind}${bytes >= 1e5 ? ` (${(bytes / 1e6).toFixed(1)} MB)` : ''}`;
  }).join(', ');
}

/**
 * A client's S3 request in a Swift proxy access line ("proxy-server: <client> <remote> <date> <METHOD>
 * /<bucket>/<key>%3F<query> <protocol> <status> <referer> <agent> <token> <bytes received> <bytes sent> ..."; Swift's
 * own sub-requests log "- -" as the client and /v1/ paths): the SDK's `x-id` when it sends one, ListObjectsV2 by its
 * `list-type=2`, else the method; a status other than 2xx is added to the kind. CopyObject's bytes are copied inside
 * Swift and are not in the line.
 */
function s3Request(line: string): LoggedRequest | undefined {
  const request = /^proxy-server: \d\S* \S+ \S+ ([A-Z]+) \/pdfservice-test\/(\S*) \S+ (\d+) \S+ \S+ \S+ (\S+) (\S+) /.exec(line);
  if (!request) return undefined;
  const query = decodeURIComponent(request[2]!);
  const operation = /[?&]x-id=(\w+)/.exec(query)?.[1] ?? (/[?&]list-type=2/.test(query) ? 'ListObjectsV2' : /[?&]uploads/.test(query) ? 'CreateMultipartUpload' : request[1]!);
  const status = request[3]!;
  const bytes = [request[4]!, request[5]!].reduce((sum, field) => sum + (/^\d+$/.test(field) ? Number(field) : 0), 0);
  return { kind: status.startsWith('2') ? operation : `${operation} ${status}`, bytes };
}

/** A request in Apache's access log (test/dav/httpd.conf's "dav" format: `<host> <user> "<METHOD> <path> <protocol>" <status> <bytes sent>`). */
function davRequest(line: string): LoggedRequest | undefined {
  const request = /^\S+ \S+ "([A-Z]+) \S+ \S+" (\d+) (\S+)/.exec(line);
  if (!request) return undefined;
  const status = request[2]!;
  return { kind: status.startsWith('2') ? request[1]! : `${request[1]!} ${status}`, bytes: /^\d+$/.test(request[3]!) ? Number(request[3]) : 0 };
}

/** A store under test from its parts: stopOff stops the versions-off service once; dispose stops both, then the store's server (`disposeStore`). */
function withServers(parts: Omit<StoreUnderTest, 'stopOff' | 'dispose'>, disposeStore: () => Promise<void> = async () => {}): StoreUnderTest {
  const self: StoreUnderTest = {
    ...parts,
    async stopOff() {
      await self.off?.stop();
      self.off = undefined;
    },
    async dispose() {
      await self.stopOff();
      await self.on.stop();
      await disposeStore();
    },
  };
  return self;
}

// Text prefetching off, as in the other benchmarks' servers: it would read every page's text right after each write.
const BASE_ENV = { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' };
const OFF_ENV = { PDFSERVICE_VERSIONS: 'false' };

async function filesystemStore(): Promise<StoreUnderTest> {
  const on = await startServer({ env: BASE_ENV });
  let off: TestServer | undefined;
  try {
    off = await startServer({ env: { ...BASE_ENV, ...OFF_ENV } });
  } catch (error) {
    await on.stop();
    throw error;
  }
  return withServers({
    store: 'filesystem', suffix: '', on, off, auth: { authorization: on.adminAuth },
    url: (server, name) => `${server.api}/documents/bench/${name}`,
    requests: async () => undefined,
    async storage(name) {
      const versionsDir = path.join(on.dataDir, 'versions', 'bench', name);
      const files = [path.join(on.documentsDir, 'bench', name), ...(await readdir(versionsDir)).map((file) => path.join(versionsDir, file))];
      return distinctBytes(files);
    },
  });
}

/**
 * The S3 store on the Swift test server (as test/s3 and bench/cluster.ts start it), no Redis: one bucket, the
 * versions-on service under the prefix `on/`, the versions-off one under `off/`. Requests are counted from Swift's
 * proxy access log (s3api logs each S3 request as the Swift request it makes).
 */
async function s3Store(): Promise<StoreUnderTest> {
  const s3: S3Server = await startS3Server();
  const env = (prefix: string) => ({
    ...BASE_ENV,
    PDFSERVICE_STORE: 's3', PDFSERVICE_S3_ENDPOINT: s3.endpoint, PDFSERVICE_S3_REGION: s3.region, PDFSERVICE_S3_BUCKET: s3.buckets[0]!,
    PDFSERVICE_S3_PREFIX: prefix, PDFSERVICE_S3_ACCESS_KEY_ID: s3.accessKeyId, PDFSERVICE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    PDFSERVICE_S3_TIMEOUT_MS: '60000',
  });
  const servers: TestServer[] = [];
  try {
    servers.push(await startServer({ env: env('on/') }));
    servers.push(await startServer({ env: { ...env('off/'), ...OFF_ENV } }));
  } catch (error) {
    for (const server of servers) await server.stop();
    await s3.dispose();
    throw error;
  }
  const [on] = servers as [TestServer, TestServer];
  const client = s3.client();
  const Bucket = s3.buckets[0]!;
  return withServers({
    store: 's3', suffix: ' (S3 store)', on, off: servers[1], auth: { authorization: on.adminAuth },
    url: (server, name) => `${server.api}/documents/bench/${name}`,
    // Swift logs over UDP: a moment for the last request's line to arrive.
    requests: async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return countRequests(s3.log().split('\n'), s3Request);
    },
    async storage(name) {
      let bytes = 0;
      let files = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `on/.versions/bench/${name}/`, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          bytes += object.Size ?? 0;
          files++;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: `on/bench/${name}` }));
      return { bytes: bytes + (head.ContentLength ?? 0), files: files + 1 };
    },
  }, () => s3.dispose());
}

/**
 * The WebDAV store on the Apache mod_dav test server (as test/helpers/server.ts starts it for PDFSERVICE_TEST_STORE=
 * webdav: the admin a DMS user with the same password, passthrough auth), the versions-on service in the admin's
 * collection `on/`, the versions-off one in `off/`. Requests are counted from Apache's access log; the storage is the
 * files on the DMS's disk (the document and its hidden collection `.pdfservice-versions/<name>/`).
 */
async function webdavStore(): Promise<StoreUnderTest> {
  const dav: DavServer = await startDavServer({ extraUsers: { [ADMIN.username]: ADMIN.password } });
  const home = `${dav.url}home/${ADMIN.username}/`;
  const servers: TestServer[] = [];
  try {
    for (const side of ['on', 'off']) {
      const made = await fetch(`${home}${side}/`, { method: 'MKCOL', headers: { authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}` } });
      await made.arrayBuffer();
      if (made.status !== 201) throw new Error(`MKCOL ${side}/ on the DMS answered ${made.status}`);
    }
    const env = (side: string) => ({ ...BASE_ENV, PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: `${home}${side}/`, PDFSERVICE_WEBDAV_AUTH: 'passthrough' });
    servers.push(await startServer({ env: env('on') }));
    servers.push(await startServer({ env: { ...env('off'), ...OFF_ENV } }));
  } catch (error) {
    for (const server of servers) await server.stop();
    await dav.dispose();
    throw error;
  }
  const [on] = servers as [TestServer, TestServer];
  const root = path.join(dav.root, 'home', ADMIN.username, 'on');
  return withServers({
    store: 'webdav', suffix: ' (WebDAV store)', on, off: servers[1], auth: { authorization: on.adminAuth },
    url: (server, name) => `${server.api}/documents/bench/${name}`,
    requests: async () => countRequests((await readFile(path.join(dav.runDir, 'access.log'), 'utf8').catch(() => '')).split('\n'), davRequest),
    async storage(name) {
      const versionsDir = path.join(root, 'bench', '.pdfservice-versions', name);
      const files = [path.join(root, 'bench', name), ...(await readdir(versionsDir)).map((file) => path.join(versionsDir, file))];
      return distinctBytes(files);
    },
  }, () => dav.dispose());
}

/** Pairs of versions-on and -off writes in a full run: bench/README.md, "Versions", "Judging a 5% target". */
export const WRITE_PAIRS = 21;
/** The ratio the issue allows a write with versions on against off. */
const WRITE_TARGET = 1.05;

/**
 * A row of versions on (ours) against off (the peer), judged on the pairwise ratios (on[i] / off[i], run back to
 * back): their median and its 90% order-statistic interval. The target is met when the whole interval is at most 1.05,
 * missed when the whole interval is above it, and undecided (met false) when it straddles 1.05; at the issue's size only.
 */
export function onOffRow(operation: string, size: string, pages: number, on: number[], off: number[], full: boolean): Row {
  const ratios = on.map((ms, i) => ms / off[i]!);
  const interval = medianInterval(ratios, 0.9);
  const pairwise = interval ? { median: median(ratios), low: interval.low, high: interval.high, coverage: interval.coverage, pairs: ratios.length } : undefined;
  const verdict = full && pairwise ? { target: `median pairwise ratio <= ${WRITE_TARGET}, 90% interval`, met: pairwise.high <= WRITE_TARGET, ...(pairwise.low <= WRITE_TARGET && pairwise.high > WRITE_TARGET ? { undecided: true } : {}) } : {};
  return { operation, size, pages, ...oursOf(on), ...peerOf(off, 'versions off'), unit: 'ms', ratioSpread: pairRatios(on, off), ...(pairwise ? { pairwise } : {}), ...verdict };
}

/** Writes with versions on and off: each repetition uploads a fresh copy to both (untimed), then stamps and edits it. */
async function writeRows(t: StoreUnderTest, pages: number, quick: boolean): Promise<Row[]> {
  const { on, off } = t;
  if (!off) throw new Error('no versions-off service');
  const document = makeBenchDocument(pages);
  const samples = { stampOn: [] as number[], stampOff: [] as number[], editOn: [] as number[], editOff: [] as number[] };
  const auth = (server: TestServer) => ({ authorization: server.adminAuth });
  // One untimed round on each first: engine workers started, code paths warm.
  for (const server of [on, off]) {
    const url = t.url(server, 'versions-warm.pdf');
    await uploadPdf(url, auth(server), document);
    await stamp(url, auth(server));
    await addNote(url, auth(server), 'bench-warm');
  }
  // The target is a 5% difference on a write of a few hundred ms, and on this shared machine single pairs move by more
  // than half (pairwise 0.35x to 3.42x): 21 pairs give the median's 90% interval as the 7th and 15th ratio.
  const reps = quick ? repetitions(pages, quick) : WRITE_PAIRS;
  const began = Date.now();
  const loadAtStart = loadNow();
  // Requests to the store's server during each timed write, summed per side and kind (what versions add to a write).
  const requests = { stampOn: new Map<string, number>(), stampOff: new Map<string, number>(), editOn: new Map<string, number>(), editOff: new Map<string, number>() };
  const counted = async <T>(into: Map<string, number>, fn: () => Promise<T>): Promise<T> => {
    const before = await t.requests();
    const value = await fn();
    for (const [kind, n] of (await t.requests()) ?? []) into.set(kind, (into.get(kind) ?? 0) + n - (before?.get(kind) ?? 0));
    return value;
  };
  for (let i = 0; i < reps; i++) {
    // Which side goes first alternates, so that a machine getting busier or quieter weighs on both alike.
    const order = i % 2 === 0 ? ([['on', on], ['off', off]] as const) : ([['off', off], ['on', on]] as const);
    const variant = Buffer.concat([document, Buffer.from(`%rep ${i}\n`)]);
    const urls = { on: t.url(on, `versions-write-${i}.pdf`), off: t.url(off, `versions-write-${i}.pdf`) };
    for (const [side, server] of order) await uploadPdf(urls[side], auth(server), variant);
    for (const [side, server] of order) {
      const ms = (await counted(side === 'on' ? requests.stampOn : requests.stampOff, () => timed(() => stamp(urls[side], auth(server))))).ms;
      (side === 'on' ? samples.stampOn : samples.stampOff).push(ms);
    }
    for (const [side, server] of order) {
      const ms = (await counted(side === 'on' ? requests.editOn : requests.editOff, () => timed(() => addNote(urls[side], auth(server), `bench-note-${i}`)))).ms;
      (side === 'on' ? samples.editOn : samples.editOff).push(ms);
    }
  }
  if (t.store !== 'filesystem') {
    const none = new Map<string, number>();
    const per = (m: Map<string, number>) => requestDelta(none, m, reps);
    console.log(`versions${t.suffix}: requests to the store's server per write, versions on | off: stamp ${per(requests.stampOn)} | ${per(requests.stampOff)}; edit ${per(requests.editOn)} | ${per(requests.editOff)}`);
  }
  console.log(`versions${t.suffix}: ${reps} pairs of writes in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  // The versions kept on the "on" side: upload, stamp, edit.
  const kept = await versionsOf(t.url(on, 'versions-write-0.pdf'), auth(on));
  if (kept.total !== 3) throw new Error(`the document written three times has ${kept.total} versions`);
  const size = pagesLabel(pages);
  const full = pages === 200;
  // The pairs' own load average (the benchmark's spans every store and row).
  const load: [number, number] = [loadAtStart, loadNow()];
  return [
    { ...onOffRow(`write, versions on vs off: TextStampAction on every page${t.suffix}`, size, pages, samples.stampOn, samples.stampOff, full), load },
    { ...onOffRow(`write, versions on vs off: 1-annotation edit (XFDF import of one note)${t.suffix}`, size, pages, samples.editOn, samples.editOff, full), load },
  ];
}

/** `count` versions of a 1-page document made by PUTs, then its versions listed. */
async function listingRows(t: StoreUnderTest, count: number, quick: boolean): Promise<Row[]> {
  const auth = t.auth;
  const url = t.url(t.on, 'versions-many.pdf');
  const writes: number[] = [];
  const began = Date.now();
  for (let i = 0; i < count; i++) {
    const pdf = makePdf({ text: () => `Version ${i}` });
    writes.push((await timed(() => uploadPdf(url, auth, pdf))).ms);
  }
  const makingSeconds = (Date.now() - began) / 1000;
  const listed = await versionsOf(url, auth);
  if (listed.total !== count) throw new Error(`${count} writes made ${listed.total} versions`);
  const all = await versionsOf(url, auth, `?limit=${count}`);
  if (all.versions.length !== count) throw new Error(`?limit=${count} listed ${all.versions.length} versions`);
  const firstPage: number[] = [];
  const whole: number[] = [];
  const reps = quick ? 5 : 20;
  const before = await t.requests();
  for (let i = 0; i < reps; i++) {
    firstPage.push((await timed(() => versionsOf(url, auth))).ms);
    whole.push((await timed(() => versionsOf(url, auth, `?limit=${count}`))).ms);
  }
  const size = `1 page, ${count.toLocaleString('en')} versions`;
  const full = count === 1000;
  const tenth = Math.max(1, Math.floor(count / 10));
  console.log(`versions${t.suffix}: ${count} writes made in ${makingSeconds.toFixed(1)} s`);
  if (before) console.log(`versions${t.suffix}: requests to the store's server per pair of listings (default page, then all): ${requestDelta(before, await t.requests(), reps)}`);
  return [
    { operation: `GET .../versions (first 100, the default page)${t.suffix}`, size, ...oursOf(firstPage), unit: 'ms', ...(full ? { target: '< 50 ms', met: median(firstPage) < 50 } : {}) },
    { operation: `GET .../versions?limit=${count} (all of them)${t.suffix}`, size, ...oursOf(whole), unit: 'ms', ...(full ? { target: '< 50 ms', met: median(whole) < 50 } : {}) },
    // Each write reads the document's versions: the last writes against the first show what that costs.
    { operation: `PUT of the document, the last ${tenth} writes against the first ${tenth}${t.suffix}`, size, ...oursOf(writes.slice(-tenth)), ...peerOf(writes.slice(0, tenth), `the first ${tenth} writes`), unit: 'ms' },
  ];
}

/** `edits` annotation edits of a large document: the storage its versions and itself use, against its size. */
async function storageRows(t: StoreUnderTest, bytes: number, edits: number): Promise<Row[]> {
  const auth = t.auth;
  const name = 'versions-large.pdf';
  const url = t.url(t.on, name);
  const pdf = largeImagePdf(bytes);
  await uploadPdf(url, auth, pdf);
  const times: number[] = [];
  const before = await t.requests();
  for (let i = 0; i < edits; i++) times.push((await timed(() => addNote(url, auth, `edit-${i}`))).ms);
  const requests = requestDelta(before, await t.requests(), edits);
  const listed = await versionsOf(url, auth);
  if (listed.total !== edits + 1) throw new Error(`${edits} edits after an upload kept ${listed.total} versions`);
  const used = await t.storage(name);
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const size = `${mb(pdf.length)} document, ${edits} annotation edits (${edits + 1} versions)`;
  const ratio = used.bytes / pdf.length;
  const full = edits === 100;
  console.log(`versions${t.suffix}: ${edits} edits of a ${mb(pdf.length)} document use ${mb(used.bytes)} in ${used.files} files or objects, ${ratio.toFixed(2)}x its size${requests ? `; requests to the store's server per edit: ${requests}` : ''}`);
  return [
    { operation: `disk used by the document and its versions, against the document's size${t.suffix}`, size, ours: ratio, unit: 'x', ...(full ? { target: '<= 2x', met: ratio <= 2 } : {}) },
    { operation: `one annotation edit (XFDF import of one note) of that document${t.suffix}`, size, ...oursOf(times), unit: 'ms' },
  ];
}

/** Restore of an earlier version against uploading its bytes, alternating, each repetition on a fresh document. */
async function restoreRows(t: StoreUnderTest, pages: number, quick: boolean): Promise<Row[]> {
  const auth = t.auth;
  const document = makeBenchDocument(pages);
  const uploads: number[] = [];
  const restores: number[] = [];
  const reps = repetitions(pages, quick);
  let requests = '';
  for (let i = 0; i < reps; i++) {
    const url = t.url(t.on, `versions-restore-${i}.pdf`);
    const variant = Buffer.concat([document, Buffer.from(`%rep ${i}\n`)]);
    // The first version is the upload (timed); a stamp makes a second; restoring the first makes a third.
    const beforeUpload = await t.requests();
    uploads.push((await timed(() => uploadPdf(url, auth, variant))).ms);
    const afterUpload = await t.requests();
    await stamp(url, auth);
    const { versions } = await versionsOf(url, auth);
    const first = versions.at(-1)!.id;
    const beforeRestore = await t.requests();
    restores.push((await timed(() => send(`${url}/versions/${first}/restore`, { method: 'POST', headers: auth }, [200, 201]))).ms);
    if (i === reps - 1 && afterUpload) requests = `upload ${requestDelta(beforeUpload, afterUpload)}; restore ${requestDelta(beforeRestore, await t.requests())}`;
  }
  if (requests) console.log(`versions${t.suffix}: requests to the store's server, the last repetition: ${requests}`);
  const ratio = median(restores) / median(uploads);
  return [{
    operation: `restore of a version (POST .../versions/{id}/restore) against uploading its bytes (PUT)${t.suffix}`,
    size: pagesLabel(pages), pages, ...oursOf(restores), ...peerOf(uploads, 'upload (PUT)'), unit: 'ms', ratioSpread: pairRatios(restores, uploads),
    ...(pages === 200 ? { target: 'ratio <= 1.0', met: ratio <= 1 } : {}),
  }];
}

const START: Record<VersionsStore, () => Promise<StoreUnderTest>> = { filesystem: filesystemStore, s3: s3Store, webdav: webdavStore };

/** The groups of rows `--rows` picks from (all by default). */
export const ROW_GROUPS = ['writes', 'restore', 'listing', 'storage'] as const;

/** Every row on one store: the on/off writes first (the off service is then stopped), then the rows of the on side. */
async function runOnStore(store: VersionsStore, quick: boolean, groups: readonly string[]): Promise<Row[]> {
  const { pages, versions, bigBytes, edits } = settings(quick, store);
  const began = Date.now();
  const t = await START[store]();
  try {
    const rows = groups.includes('writes') ? await writeRows(t, pages, quick) : [];
    await t.stopOff();
    if (groups.includes('restore')) rows.push(...(await restoreRows(t, pages, quick)));
    if (groups.includes('listing')) rows.push(...(await listingRows(t, versions, quick)));
    if (groups.includes('storage')) rows.push(...(await storageRows(t, bigBytes, edits)));
    console.log(`versions on the ${store} store: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    return rows;
  } finally {
    await t.dispose();
  }
}

/** The rows on each store in turn (all three by default); a store that fails is a row with its error, the others run. */
export async function runVersionsBench(quick: boolean, stores: readonly VersionsStore[] = STORES, groups: readonly string[] = ROW_GROUPS): Promise<Row[]> {
  const unknown = groups.filter((g) => !(ROW_GROUPS as readonly string[]).includes(g));
  if (unknown.length) throw new Error(`unknown versions rows ${unknown.join(', ')}; known: ${ROW_GROUPS.join(', ')}`);
  const rows: Row[] = [];
  for (const store of stores) {
    try {
      rows.push(...(await runOnStore(store, quick, groups)));
    } catch (error) {
      console.error(`versions on the ${store} store failed:`, error);
      rows.push({ operation: `Document versions on the ${store} store: failed`, size: '-', ours: NaN, unit: '-', error: error instanceof Error ? error.message : String(error) });
    }
  }
  return rows;
}
