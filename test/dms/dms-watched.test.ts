/**
 * Watched folders on a DMS (docs/watched-folders.md, "A DMS store"): files that appear in a bound folder on the
 * Apache WebDAV test server by other means than the service (a PUT straight to Apache, a file dropped on its disk)
 * are found by the poll (PDFSERVICE_DMS_POLL_SECONDS=1) and run the pipeline once per version: the output is read
 * back from the DMS's disk (qpdf --check, pdftotext), the same version listed again runs nothing and is not
 * downloaded again, a new version runs once more, a restart runs nothing again; a file that is no PDF and one the
 * DMS will not let the binder read end `failed` after their attempts; two instances on one Redis run each arrival
 * once. The service runs in mapped mode: a run acts as its binder's mapped DMS account.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDavServer, type DavServer } from '../helpers/dav-server.js';
import { call } from '../helpers/http.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

const KEY = randomBytes(32).toString('base64');
const ANN = { username: 'ann', password: 'ann-service-password' };
const STAMP = 'DMS-POLLED';

let dav: DavServer;
before(async () => {
  dav = await startDavServer();
});
after(async () => {
  await dav?.dispose();
});

const ann = () => basicAuth(ANN.username, ANN.password);
const mappedEnv = (extra: Record<string, string> = {}) => ({
  PDFSERVICE_STORE: 'webdav',
  PDFSERVICE_WEBDAV_URL: dav.url,
  PDFSERVICE_WEBDAV_AUTH: 'mapped',
  PDFSERVICE_SECRETS_KEY: KEY,
  PDFSERVICE_DMS_POLL_SECONDS: '1',
  PDFSERVICE_WATCH_ATTEMPTS: '2',
  PDFSERVICE_WATCH_RETRY_MS: '200',
  PDFSERVICE_WORKERS: '1',
  ...extra,
});

/** ann, a service user mapped to the DMS account alice (on this instance's data folder). */
async function mapAnn(server: TestServer, create: boolean): Promise<void> {
  if (create) {
    const made = await call(server, 'POST', '/users', { body: { ...ANN, rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
    assert.equal(made.status, 201, made.text);
  }
  const mapped = await call(server, 'PUT', '/users/ann/dms-account', { body: { username: 'alice', password: dav.users.alice } });
  assert.ok(mapped.status === 201 || mapped.status === 200, mapped.text);
}

/** ann's stamping pipeline, the folders in alice's home, and the binding `name` of `inbox` to `done`. */
async function bind(server: TestServer, name: string, inbox: string, done: string): Promise<void> {
  const pipeline = await call(server, 'PUT', `/pipelines/${name}`, { auth: ann(), body: { steps: [{ TextStampAction: { text: STAMP, x: 72, y: 40 } }] } });
  assert.ok(pipeline.status === 201 || pipeline.status === 200, pipeline.text);
  for (const folder of [inbox, done]) assert.equal((await call(server, 'PUT', `/documents/home/alice/${folder}`, { auth: ann() })).status, 201);
  const bound = await call(server, 'PUT', `/watched-folders/${name}`, { auth: ann(), body: { folder: `home/alice/${inbox}`, pipeline: { name }, target: `home/alice/${done}` } });
  assert.equal(bound.status, 201, bound.text);
}

/** A PUT straight to Apache as alice: the service is not told. */
async function putOnDms(documentPath: string, body: Buffer): Promise<void> {
  const put = await fetch(`${dav.url}${documentPath}`, { method: 'PUT', headers: { authorization: dav.auth('alice'), 'content-type': 'application/pdf' }, body: new Uint8Array(body) });
  assert.ok(put.status === 201 || put.status === 204, `${put.status} ${await put.text()}`);
}

interface Run { document: string; etag: string; state: string; attempts: number; jobIds: string[]; output?: string; error?: { code?: string; status?: number } }

async function binding(server: TestServer, name: string): Promise<{ runCount: number; runs: Run[] }> {
  const got = await call(server, 'GET', `/watched-folders/${name}`, { auth: ann(), headers: { accept: 'application/json' } });
  assert.equal(got.status, 200, got.text);
  return got.json();
}

/** Waits until the binding has `count` runs, each ended (succeeded or failed); answers them. */
async function ended(server: TestServer, name: string, count: number): Promise<Run[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { runCount, runs } = await binding(server, name);
    assert.ok(runCount <= count, `more runs than arrivals: ${JSON.stringify(runs)}`);
    if (runCount === count && runs.every((r) => r.state === 'succeeded' || r.state === 'failed')) return runs;
    assert.ok(Date.now() < deadline, `runs did not end: ${JSON.stringify(runs)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The access log's requests of a method on a path (`%h %u "%r" %>s %b`). */
async function requests(method: string, urlPath: string): Promise<number> {
  const log = await readFile(path.join(dav.runDir, 'access.log'), 'utf8');
  return log.split('\n').filter((line) => line.includes(`"${method} ${urlPath} `)).length;
}

/** Waits until the folder has been listed `more` more times (by the polls), so that they saw what is there now. */
async function polled(folderPath: string, more: number): Promise<void> {
  const target = (await requests('PROPFIND', `/dav/${folderPath}/`)) + more;
  const deadline = Date.now() + 60_000;
  while ((await requests('PROPFIND', `/dav/${folderPath}/`)) < target) {
    assert.ok(Date.now() < deadline, `the folder /${folderPath} was not listed ${more} more times`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stampedOutput(documentPath: string, text: string): Promise<void> {
  const bytes = await readFile(path.join(dav.root, ...documentPath.split('/')));
  const check = qpdfCheck(bytes);
  assert.ok(check.ok, check.output);
  const words = pdftotext(bytes);
  assert.match(words, new RegExp(STAMP));
  assert.match(words, new RegExp(text));
}

describe('one instance', () => {
  let dataDir: string;
  let server: TestServer;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dms-watched-'));
    server = await startServer({ dataDir, env: mappedEnv() });
    await mapAnn(server, true);
  });
  after(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('a file put straight on the DMS runs once; seen again unchanged it runs not again and is not downloaded; replaced, it runs again; a restart runs nothing', async () => {
    await bind(server, 'polled', 'inbox', 'done');
    await putOnDms('home/alice/inbox/scan.pdf', makePdf({ text: () => 'First scan' }));
    let runs = await ended(server, 'polled', 1);
    assert.equal(runs[0]!.state, 'succeeded', JSON.stringify(runs[0]));
    assert.equal(runs[0]!.document, '/home/alice/inbox/scan.pdf');
    assert.equal(runs[0]!.output, '/home/alice/done/scan.pdf');
    assert.equal(runs[0]!.jobIds.length, 1);
    await stampedOutput('home/alice/done/scan.pdf', 'First scan');

    // Listed again and again unchanged: no run, and no GET of the file (only the listing).
    const gets = await requests('GET', '/dav/home/alice/inbox/scan.pdf');
    await polled('home/alice/inbox', 3);
    assert.equal((await binding(server, 'polled')).runCount, 1);
    assert.equal(await requests('GET', '/dav/home/alice/inbox/scan.pdf'), gets, 'an unchanged file is not read');

    // A new version, again straight on the DMS: one more run, whose output replaces the first.
    await putOnDms('home/alice/inbox/scan.pdf', makePdf({ text: () => 'Second scan, other content' }));
    runs = await ended(server, 'polled', 2);
    assert.deepEqual(runs.map((r) => r.state), ['succeeded', 'succeeded']);
    assert.notEqual(runs[0]!.etag, runs[1]!.etag);
    await stampedOutput('home/alice/done/scan.pdf', 'Second scan');

    // A restart: the scan at start and the polls after it find both versions run.
    await server.stop();
    server = await startServer({ dataDir, env: mappedEnv() });
    await polled('home/alice/inbox', 2);
    assert.equal((await binding(server, 'polled')).runCount, 2);
  });

  test('a file that is no PDF, and one the DMS does not let the binder read, end failed after their attempts', async () => {
    await bind(server, 'bad', 'bad-in', 'bad-out');
    await putOnDms('home/alice/bad-in/garbage.pdf', Buffer.from('this is not a PDF at all\n'.repeat(20)));
    let runs = await ended(server, 'bad', 1);
    assert.equal(runs[0]!.state, 'failed', JSON.stringify(runs[0]));
    // Refused when its run is prepared (the document is opened then): each attempt without a job.
    assert.equal(runs[0]!.attempts, 2, JSON.stringify(runs[0]));
    assert.equal(runs[0]!.error?.status, 422, JSON.stringify(runs[0]!.error));

    // Made on the DMS's disk unreadable to httpd (mode 0), then moved into the folder: listed, never readable.
    const hidden = path.join(dav.root, 'home', 'alice', '.staged-locked.pdf');
    await writeFile(hidden, makePdf({ text: () => 'locked' }));
    await chmod(hidden, 0);
    await rename(hidden, path.join(dav.root, 'home', 'alice', 'bad-in', 'locked.pdf'));
    runs = await ended(server, 'bad', 2);
    const locked = runs.find((r) => r.document === '/home/alice/bad-in/locked.pdf')!;
    assert.equal(locked.state, 'failed', JSON.stringify(locked));
    assert.equal(locked.attempts, 2);
    assert.equal(locked.error?.code, 'DMS_FORBIDDEN', JSON.stringify(locked.error));
    assert.match(locked.etag, /^dms:/);
    await polled('home/alice/bad-in', 2);
    assert.equal((await binding(server, 'bad')).runCount, 2, 'failed runs are not tried again');
  });
});

describe('two instances on one Redis', () => {
  const redis = redisServerForSuite();
  const dataDirs: string[] = [];
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    const env = mappedEnv({ PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: `dw${randomBytes(3).toString('hex')}:` });
    for (let i = 0; i < 2; i++) dataDirs.push(await mkdtemp(path.join(tmpdir(), 'pdfservice-dms-watched-')));
    a = await startServer({ dataDir: dataDirs[0]!, env });
    b = await startServer({ dataDir: dataDirs[1]!, env });
    // The users are in Redis; each data folder keeps its own mapped accounts.
    await mapAnn(a, true);
    await mapAnn(b, false);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  test('files put straight on the DMS run once each, whichever instance polls', async () => {
    await bind(b, 'shared-poll', 'cluster-in', 'cluster-out');
    const files = 5;
    for (let i = 0; i < files; i++) await putOnDms(`home/alice/cluster-in/doc-${i}.pdf`, makePdf({ text: () => `Cluster document ${i}` }));
    const runs = await ended(a, 'shared-poll', files);
    assert.deepEqual(runs.filter((r) => r.state !== 'succeeded'), []);
    assert.equal(new Set(runs.map((r) => r.document)).size, files);
    assert.ok(runs.every((r) => r.attempts === 1 && r.jobIds.length === 1));
    await polled('home/alice/cluster-in', 3);
    assert.equal((await binding(b, 'shared-poll')).runCount, files);
    for (let i = 0; i < files; i++) await stampedOutput(`home/alice/cluster-out/doc-${i}.pdf`, `Cluster document ${i}`);
  });
});
