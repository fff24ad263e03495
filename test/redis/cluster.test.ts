/**
 * The proof of issue 24: the service past one machine. A real Redis, a real S3 server (Swift, test/s3/), two
 * service instances with separate data folders that share nothing but Redis and the bucket and run no jobs
 * themselves (PDFSERVICE_RUN_JOBS=false), one job worker (`npm run worker`) and nginx in front with the
 * repository's deploy/nginx/pdfservice-proxy.conf. Clients talk to the instances directly (to choose which one
 * serves a request) and through nginx (as users would). The last test SIGKILLs instance B. What a killed worker
 * leaves is proved in jobs-cluster.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, type Reply } from '../helpers/http.js';
import { startNginx, type Nginx } from '../helpers/nginx.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { clusterEnv } from '../helpers/cluster-env.js';
import { ADMIN, startServer, type TestServer } from '../helpers/server.js';
import { followEvents, killProcess, startWorker, type WorkerProcess } from '../helpers/jobs.js';

let redis: RedisServer;
let s3: S3Server;
let a: TestServer;
let b: TestServer;
let lb: Nginx;
let worker: WorkerProcess;
let workerDir: string;
/** The balancer as a server for call(): the same API path and admin credentials. */
let viaLb: TestServer;

let env: Record<string, string>;

before(async () => {
  [redis, s3] = await Promise.all([startRedisServer(), startS3Server()]);
  env = {
    ...clusterEnv(redis, s3, { redisPrefix: `cluster-${randomBytes(4).toString('hex')}:`, s3Prefix: 'cluster/', s3TimeoutMs: 5000 }),
    // Short leases: the locks of the instance the last test kills are free again soon.
    PDFSERVICE_LOCK_LEASE_MS: '3000',
  };
  // One after the other: the first creates the admin in Redis, the second finds it.
  const instanceEnv = { ...env, PDFSERVICE_RUN_JOBS: 'false' };
  a = await startServer({ env: instanceEnv });
  b = await startServer({ env: instanceEnv });
  workerDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-worker-'));
  worker = await startWorker(env, workerDir);
  lb = await startNginx([a, b].map((s) => new URL(s.baseUrl).host));
  viaLb = { ...a, baseUrl: lb.url, api: `${lb.url}/pdfservice/v1` };
});
after(async () => {
  if (worker) await killProcess(worker.child, 'SIGTERM');
  await Promise.all([a?.stop(), b?.stop()]);
  if (workerDir) await rm(workerDir, { recursive: true, force: true });
  await lb?.dispose();
  await Promise.all([s3?.dispose(), redis?.dispose()]);
});

const cookieOf = (reply: Reply) => /SESSIONID=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!;
const withSession = (id: string) => ({ auth: false as const, headers: { cookie: `SESSIONID=${id}` } });
const put = (server: TestServer, documentPath: string, body: Buffer) => call(server, 'PUT', `/documents/${documentPath}`, { body, headers: { 'content-type': 'application/pdf' } });

/** An XFDF import of one text annotation of that name: a read-modify-write of the document under its lock. */
function addNote(server: TestServer, documentPath: string, note: string): Promise<Reply> {
  const xfdf = '<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>' +
    `<text name="${note}" page="0" rect="500,700,520,720" title="admin"><contents>${note}</contents></text></annots></xfdf>`;
  return call(server, 'POST', `/documents/${documentPath}/annotations/content`, { body: xfdf, headers: { 'content-type': 'application/vnd.adobe.xfdf' } });
}

async function noteNames(server: TestServer, documentPath: string): Promise<string[]> {
  const listed = await call(server, 'GET', `/documents/${documentPath}/annotations`);
  assert.equal(listed.status, 200, listed.text);
  return (listed.json().annotations as Array<{ name?: string }>).map((n) => n.name ?? '').filter((name) => name.startsWith('note-')).sort();
}

test('a session made through one instance works through the other and through nginx; a logout on one ends it on all', async () => {
  const login = await call(a, 'POST', '/sessions', { auth: false, body: ADMIN });
  assert.equal(login.status, 201, login.text);
  const id = cookieOf(login);
  for (const server of [b, viaLb, a]) {
    const listed = await call(server, 'GET', '/documents', withSession(id));
    assert.equal(listed.status, 200, listed.text);
  }
  assert.equal((await call(b, 'DELETE', '/sessions/current', withSession(id))).status, 204);
  for (const server of [a, viaLb]) assert.equal((await call(server, 'GET', '/documents', withSession(id))).status, 401);
});

test('a document uploaded through one instance is read, annotated and changed by an action through the other', async () => {
  const pdf = makePdf({ pages: 2, text: (page) => `Cluster page ${page}` });
  const uploaded = await put(a, 'shared/report.pdf', pdf);
  assert.equal(uploaded.status, 201, uploaded.text);
  const model = await call(b, 'GET', '/documents/shared/report.pdf', { headers: { accept: 'application/json' } });
  assert.equal(model.status, 200, model.text);
  assert.equal(model.json().pageCount, 2);
  assert.equal(model.headers.get('etag'), uploaded.headers.get('etag'), 'both instances name the version alike');

  assert.equal((await addNote(b, 'shared/report.pdf', 'note-from-b')).status, 200);
  assert.deepEqual(await noteNames(a, 'shared/report.pdf'), ['note-from-b']);

  const stamped = await call(b, 'POST', '/documents/shared/report.pdf/pages', { body: { TextStampAction: { text: 'Stamped on B', x: 72, y: 72, pageIndex: 0 } } });
  assert.equal(stamped.status, 200, stamped.text);
  const fromA = await call(a, 'GET', '/documents/shared/report.pdf', { headers: { accept: 'application/pdf' } });
  assert.equal(fromA.status, 200);
  assert.equal(fromA.headers.get('etag'), stamped.headers.get('etag'));
  assert.match(pdftotext(fromA.bytes), /Stamped on B/);
  assert.match(pdftotext(fromA.bytes), /Cluster page 1/);
  assert.ok(qpdfCheck(fromA.bytes).ok);
});

/**
 * The S3 requests Swift's proxy logged for keys below `folder` (the bucket's own requests, not Swift's internal
 * ones), as "METHOD key status", from `from` lines on: the proxy logs each request once it answered it, over UDP,
 * so this waits until no new line has come for 300 ms. Not those of the documents' versions area (`.versions/`: a
 * listing and a record per write, docs/versions.md "Storage (S3)"), counted by test/s3/s3-versions-crash.test.ts.
 */
async function s3RequestsSince(folder: string, from: number): Promise<string[]> {
  const matching = () => s3.log().split('\n').filter((l) => l.startsWith('proxy-server: ') && l.includes(` /${s3.buckets[0]!}/`) && l.includes(folder) && !l.includes('.versions'));
  let lines = matching();
  for (let quiet = 0, waited = 0; quiet < 3 && waited < 5000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = matching();
    quiet = now.length === lines.length ? quiet + 1 : 0;
    lines = now;
  }
  return lines.slice(from).map((l) => {
    const [, method, target, status] = / (\w+) \/[^/ ]+\/(\S*) HTTP\/1\.\d (\d+)/.exec(l)!;
    const key = decodeURIComponent(target!).replace(/\?.*/, '').replace(/^cluster\//, '');
    return `${method} ${key || 'listing'} ${status}`;
  });
}

test('S3 requests per operation, as Swift logs them: upload 3, DocumentModel 0, annotation list 0, stamp saved beside 5, no read asks S3', async () => {
  // The sequence of issue 24's bench, on one instance (which keeps what it wrote and read). Before kept versions and
  // one-PUT creates: 4, 2 and 2 (each read a download), 9 (a download, a multipart upload, a HEAD after it); the
  // text prefetch after each write was a download too. With kept versions alone: 3, 1 (a HEAD: the upload's check gave
  // the model's DocumentInfo), 2 (a HEAD and a GET 304), 6. With the ETag book in Redis, stat and reads of the
  // versions this instance wrote ask S3 nothing.
  assert.equal((await call(a, 'PUT', '/documents/counted')).status, 201);
  const counted = async (run: () => Promise<Reply>): Promise<string[]> => {
    const from = (await s3RequestsSince('counted', 0)).length;
    const reply = await run();
    assert.ok(reply.status < 300, reply.text);
    return s3RequestsSince('counted', from);
  };
  const upload = await counted(() => put(a, 'counted/doc.pdf', makePdf({ pages: 2 })));
  const model = await counted(() => call(a, 'GET', '/documents/counted/doc.pdf', { headers: { accept: 'application/json' } }));
  const annotations = await counted(() => call(a, 'GET', '/documents/counted/doc.pdf/annotations'));
  const stamp = await counted(() => call(a, 'POST', '/documents/counted/doc.pdf/pages', { body: { TextStampAction: { text: 'Counted', x: 72, y: 72, savePath: 'counted/doc-stamped.pdf' } } }));
  const reads = (lines: string[]) => lines.filter((l) => l.startsWith('GET '));
  const others = (lines: string[]) => lines.filter((l) => !l.startsWith('GET '));
  const all = [...upload, ...model, ...annotations, ...stamp];
  const detail = JSON.stringify({ upload, model, annotations, stamp });
  assert.deepEqual(others(upload), ['HEAD counted/doc.pdf 404', 'HEAD counted/ 200', 'PUT counted/doc.pdf 200'], detail);
  assert.deepEqual(model, [], detail);
  assert.deepEqual(annotations, [], detail);
  // The target's HEADs: the operation's check before the work, asked twice (outside the commit lock a 404 is asked once
  // more: Swift answers 404 for an object a PUT is replacing, docs/s3.md), then the one under the commit lock.
  assert.deepEqual(stamp, ['HEAD counted/doc-stamped.pdf 404', 'HEAD counted/doc-stamped.pdf 404', 'HEAD counted/doc-stamped.pdf 404', 'HEAD counted/ 200', 'PUT counted/doc-stamped.pdf 200'], detail);
  // Every read (the model's, the annotations', the stamp's, each write's text prefetch) is of a version the book names and this instance keeps.
  assert.deepEqual(reads(all), [], detail);

  // Through the other instance: the stat from the book (no request), the read one download, the next none.
  const fromB = await counted(() => call(b, 'GET', '/documents/counted/doc.pdf', { headers: { accept: 'application/json' } }));
  const againB = await counted(() => call(b, 'GET', '/documents/counted/doc.pdf/annotations'));
  assert.deepEqual([fromB, againB], [['GET counted/doc.pdf 200'], []], JSON.stringify({ fromB, againB }));
});

test('20 clients writing one document through both instances and nginx lose no update', async () => {
  assert.equal((await put(a, 'shared/busy.pdf', makePdf({ pages: 1 }))).status, 201);
  const servers = [a, b, viaLb, viaLb];
  const names = Array.from({ length: 20 }, (_, i) => `note-${String(i).padStart(2, '0')}`);
  const replies = await Promise.all(names.map((name, i) => addNote(servers[i % servers.length]!, 'shared/busy.pdf', name)));
  const succeeded = names.filter((_, i) => replies[i]!.status === 200);
  // Writers of one document wait for each other (the Redis document lock), so none is refused.
  assert.deepEqual(replies.map((r) => r.status), names.map(() => 200), replies.filter((r) => r.status !== 200).map((r) => r.text).join('\n'));
  assert.deepEqual(await noteNames(b, 'shared/busy.pdf'), succeeded);
  const stored = await call(a, 'GET', '/documents/shared/busy.pdf', { headers: { accept: 'application/pdf' } });
  assert.ok(qpdfCheck(stored.bytes).ok, qpdfCheck(stored.bytes).output);
});

test('a job submitted through nginx is followed through nginx and through B, and the worker runs it', async () => {
  assert.equal((await put(a, 'shared/job.pdf', makePdf({ pages: 3, text: (page) => `Job page ${page}` }))).status, 201);
  const submitted = await call(viaLb, 'POST', '/documents/shared/job.pdf/pages', {
    headers: { prefer: 'respond-async' },
    body: { TextStampAction: { text: 'Stamped by the worker', x: 72, y: 72, pageIndex: 0 } },
  });
  assert.equal(submitted.status, 202, submitted.text);
  const id = submitted.json().id as string;
  // Server-sent events through the proxy arrive as they come (proxy_buffering off) and end with the job.
  const [throughLb, throughB] = await Promise.all([followEvents(viaLb, id), followEvents(b, id)]);
  for (const events of [throughLb, throughB]) {
    assert.equal(events.at(-1)!.type, 'end');
    assert.equal(events.at(-1)!.job.state, 'succeeded', JSON.stringify(events.at(-1)!.job));
  }
  assert.deepEqual(throughLb.map((e) => e.seq), throughB.map((e) => e.seq), 'both streams carry the same numbered events');
  // The worker ran it: the instances run no jobs (PDFSERVICE_RUN_JOBS=false), and it is the only other process.
  const stamped = await call(a, 'GET', '/documents/shared/job.pdf', { headers: { accept: 'application/pdf' } });
  assert.match(pdftotext(stamped.bytes), /Stamped by the worker/);
});

test('SIGKILL of an instance during writes: every document whole, every change answered 2xx kept, its locks freed, nginx goes on', async () => {
  assert.equal((await put(a, 'shared/killed.pdf', makePdf({ pages: 1 }))).status, 201);
  const names = Array.from({ length: 20 }, (_, i) => `note-k${String(i).padStart(2, '0')}`);
  // Half straight to B, half through nginx; B is killed once the first write through it was answered.
  let firstOnB!: () => void;
  const bAnswered = new Promise<void>((resolve) => (firstOnB = resolve));
  const writes = names.map(async (name, i) => {
    const server = i % 2 ? viaLb : b;
    try {
      const reply = await addNote(server, 'shared/killed.pdf', name);
      if (server === b) firstOnB();
      return reply.status;
    } catch {
      return 0; // the connection died with B
    }
  });
  await Promise.race([bAnswered, Promise.all(writes)]);
  await killProcess(b.child, 'SIGKILL');
  const statuses = await Promise.all(writes);
  const kept = names.filter((_, i) => statuses[i] === 200);
  assert.ok(kept.length > 0, `some writes succeeded: ${statuses.join(' ')}`);

  // A write after the kill waits at most for B's leases (3 s) and then goes through; so does one through nginx.
  assert.equal((await addNote(a, 'shared/killed.pdf', 'note-kz-after-a')).status, 200);
  assert.equal((await addNote(viaLb, 'shared/killed.pdf', 'note-kz-after-lb')).status, 200);
  const present = await noteNames(a, 'shared/killed.pdf');
  for (const name of [...kept, 'note-kz-after-a', 'note-kz-after-lb']) assert.ok(present.includes(name), `${name} (answered 200) is in the document`);
  for (const documentPath of ['shared/killed.pdf', 'shared/busy.pdf', 'shared/report.pdf', 'shared/job.pdf']) {
    const stored = await call(viaLb, 'GET', `/documents/${documentPath}`, { headers: { accept: 'application/pdf' } });
    assert.equal(stored.status, 200, `${documentPath}: ${stored.text.slice(0, 200)}`);
    assert.ok(qpdfCheck(stored.bytes).ok, `${documentPath}: ${qpdfCheck(stored.bytes).output}`);
  }
  // No job was left running or queued by the kill.
  const jobs = (await call(a, 'GET', '/jobs')).json() as Array<{ state: string }> | { jobs: Array<{ state: string }> };
  for (const job of Array.isArray(jobs) ? jobs : jobs.jobs) assert.ok(!['queued', 'running'].includes(job.state), JSON.stringify(job));
});
