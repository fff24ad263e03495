/**
 * The document store over WebDAV (issue 23): the 200-page bench document uploaded, its DocumentModel read and its
 * annotations listed through a service whose store is the Apache mod_dav test server (PDFSERVICE_STORE=webdav, the
 * user alice logged in with her DMS password, working in her home collection), against the same sequence through a
 * service with the filesystem store, in the same run, alternating. Target: webdav / filesystem <= 1.5 for the whole
 * sequence. The DMS's own share is measured beside it: a PUT and a GET of the same file straight to Apache, which the
 * WebDAV store cannot do with fewer bytes on the wire.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startDavServer, type DavServer } from '../test/helpers/dav-server.js';
import type { TestServer } from '../test/helpers/server.js';
import { startServer } from './build.js';
import type { Row } from './annotations.js';
import { FORM_WIDGETS, makeBenchDocument } from './fixtures.js';
import { fmt, median, oursOf, peerOf, percentile, timed, TARGET_PAGES } from './lib.js';

const TARGET_RATIO = 1.5;
const ANNOTATIONS = TARGET_PAGES * 20 + FORM_WIDGETS;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Side {
  name: string;
  server: TestServer;
  headers: Record<string, string>;
}

interface Times {
  upload: number[];
  model: number[];
  annotations: number[];
  sequence: number[];
}

/** Logs in through the API (POST /sessions) and answers the session cookie, as a browser client works. */
async function login(server: TestServer, username: string, password: string): Promise<Record<string, string>> {
  const reply = await fetch(`${server.api}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const text = await reply.text();
  if (reply.status !== 201) throw new Error(`login of ${username} answered ${reply.status}: ${text.slice(0, 300)}`);
  const id = /SESSIONID=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1];
  if (!id) throw new Error('login set no session cookie');
  return { cookie: `SESSIONID=${id}` };
}

async function expectOk(reply: Response, what: string): Promise<Buffer> {
  const body = Buffer.from(await reply.arrayBuffer());
  if (reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${body.toString('utf8', 0, 300)}`);
  return body;
}

/** PUT, DocumentModel, annotation listing of `pdf` at `name` in alice's home, each timed until its whole body arrived. */
async function sequence(side: Side, name: string, pdf: Buffer, times: Times | null): Promise<{ model: any; listing: any }> {
  const url = `${side.server.api}/documents/home/alice/${name}`;
  const upload = await timed(async () => expectOk(await fetch(url, { method: 'PUT', headers: { ...side.headers, 'content-type': 'application/pdf' }, body: new Uint8Array(pdf) }), `${side.name} PUT`));
  const model = await timed(async () => expectOk(await fetch(url, { headers: { ...side.headers, accept: 'application/json' } }), `${side.name} DocumentModel`));
  const listing = await timed(async () => expectOk(await fetch(`${url}/annotations`, { headers: { ...side.headers, accept: 'application/json' } }), `${side.name} annotations`));
  if (times) {
    times.upload.push(upload.ms);
    times.model.push(model.ms);
    times.annotations.push(listing.ms);
    times.sequence.push(upload.ms + model.ms + listing.ms);
  }
  return { model: JSON.parse(model.value.toString('utf8')), listing: JSON.parse(listing.value.toString('utf8')) };
}

/** The same bytes straight to the DMS and back, as alice: the DMS's own time for what the store moves. */
async function direct(dav: DavServer, name: string, pdf: Buffer, put: number[] | null, get: number[] | null): Promise<void> {
  const url = `${dav.collections.home('alice')}${name}`;
  const headers = { authorization: dav.auth('alice') };
  const sent = await timed(async () => expectOk(await fetch(url, { method: 'PUT', headers: { ...headers, 'content-type': 'application/pdf' }, body: new Uint8Array(pdf) }), 'direct WebDAV PUT'));
  const got = await timed(async () => expectOk(await fetch(url, { headers }), 'direct WebDAV GET'));
  if (!got.value.equals(pdf)) throw new Error('the direct WebDAV GET did not answer the bytes put');
  put?.push(sent.ms);
  get?.push(got.ms);
}

function count(listing: any): number {
  const items = Array.isArray(listing) ? listing : (listing?.annotations ?? listing?.items);
  if (!Array.isArray(items)) throw new Error(`unexpected annotation listing: ${JSON.stringify(listing).slice(0, 200)}`);
  return items.length;
}

const newTimes = (): Times => ({ upload: [], model: [], annotations: [], sequence: [] });
const summary = (samples: number[]) => `median ${fmt(median(samples))} ms, p95 ${fmt(percentile([...samples].sort((a, b) => a - b), 95))} ms`;

export async function runDmsBench(quick: boolean): Promise<Row[]> {
  const runs = quick ? 3 : 9;
  // Text prefetching off, as in the other benchmarks' servers: it would read the whole text right after each upload.
  const env = { PDFSERVICE_TEXT_PREFETCH_MAX_BYTES: '0' };
  // Apache and the filesystem store's service start at once, the WebDAV store's as soon as Apache is up: each start is
  // a second or more of waiting on a process (three in turn were most of this benchmark's quick run).
  const filesStart = startServer({ env });
  const davStart = startDavServer();
  const webdavStart = davStart.then((d) => startServer({ env: { ...env, PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: d.url } }));
  const [davStarted, ...serverStarts] = await Promise.allSettled([davStart, filesStart, webdavStart]);
  const servers = serverStarts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = [davStarted, ...serverStarts].find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.allSettled([...servers.map((s) => s.stop()), davStarted.status === 'fulfilled' ? davStarted.value.dispose() : undefined]);
    throw failed.reason;
  }
  const dav = (davStarted as PromiseFulfilledResult<DavServer>).value;
  const [files, webdav] = servers as [TestServer, TestServer];
  try {
    const filesystem: Side = { name: 'filesystem store', server: files, headers: await login(files, 'admin', 'admin-test-password-1') };
    const dms: Side = { name: 'WebDAV store', server: webdav, headers: await login(webdav, 'alice', dav.users.alice) };
    const document = makeBenchDocument(TARGET_PAGES);
    // A distinct document at a fresh name each time, so no cache (read model, listing, known tags) answers for an earlier one.
    const variant = (i: number | string) => Buffer.concat([document, Buffer.from(`%dms ${i} ${Date.now()}\n`)]);

    // Untimed first round: engine workers warm, connections open, the correctness checks.
    const first = variant('warm');
    const onFiles = await sequence(filesystem, 'dms-warm.pdf', first, null);
    const onDms = await sequence(dms, 'dms-warm.pdf', first, null);
    for (const [side, got] of [[filesystem, onFiles], [dms, onDms]] as const) {
      if (got.model.pageCount !== TARGET_PAGES) throw new Error(`${side.name}: page count ${got.model.pageCount}`);
      if (count(got.listing) !== ANNOTATIONS) throw new Error(`${side.name}: ${count(got.listing)} annotations listed, expected ${ANNOTATIONS}`);
    }
    if (onFiles.model.etag !== undefined && onFiles.model.etag !== onDms.model.etag) throw new Error('the two stores give one content different tags');
    if (sha256(await readFile(path.join(dav.root, 'home', 'alice', 'dms-warm.pdf'))) !== sha256(first)) throw new Error('the DMS does not hold the bytes uploaded');
    await direct(dav, 'direct-warm.pdf', first, null, null);

    const fsTimes = newTimes();
    const davTimes = newTimes();
    const directPut: number[] = [];
    const directGet: number[] = [];
    for (let i = 0; i < runs; i++) {
      const pdf = variant(i);
      // Alternating which store goes first, so that other work on the shared machine weighs on both alike.
      const order = i % 2 ? [dms, filesystem] : [filesystem, dms];
      for (const side of order) await sequence(side, `dms-${i}.pdf`, pdf, side === dms ? davTimes : fsTimes);
      await direct(dav, `direct-${i}.pdf`, pdf, directPut, directGet);
    }

    const size = `${TARGET_PAGES} pages (${(document.length / 1e6).toFixed(1)} MB), ${ANNOTATIONS.toLocaleString('en')} annotations`;
    const ops: [string, keyof Times][] = [
      ['upload (PUT, checked by the engine)', 'upload'],
      ['DocumentModel (first GET after the upload)', 'model'],
      ['annotations list (first GET after the upload)', 'annotations'],
      ['upload + DocumentModel + annotations list', 'sequence'],
    ];
    console.log(`WebDAV store vs filesystem store, ${size}, ${runs} runs:`);
    for (const [label, key] of ops) {
      const ratio = median(davTimes[key]) / median(fsTimes[key]);
      console.log(`  ${label}: WebDAV ${summary(davTimes[key])}; filesystem ${summary(fsTimes[key])}; ratio ${ratio.toFixed(2)}${key === 'sequence' ? ` (target <= ${TARGET_RATIO})` : ''}`);
    }
    console.log(`  the DMS alone (direct WebDAV as alice): PUT ${summary(directPut)}; GET ${summary(directGet)}`);
    const rows: Row[] = ops.map(([label, key]) => {
      const ratio = median(davTimes[key]) / median(fsTimes[key]);
      return {
        operation: `${label}: WebDAV store over Apache mod_dav`,
        size,
        pages: TARGET_PAGES,
        ...oursOf(davTimes[key]),
        ...peerOf(fsTimes[key], 'filesystem store'),
        unit: 'ms',
        ...(key === 'sequence' ? { target: `ratio <= ${TARGET_RATIO}`, met: ratio <= TARGET_RATIO } : {}),
      };
    });
    rows.push({ operation: 'the DMS alone: direct WebDAV PUT of the file (as alice)', size, ...oursOf(directPut), unit: 'ms' });
    rows.push({ operation: 'the DMS alone: direct WebDAV GET of the file (as alice)', size, ...oursOf(directGet), unit: 'ms' });
    return rows;
  } finally {
    for (const server of servers) await server.stop();
    await dav.dispose();
  }
}
