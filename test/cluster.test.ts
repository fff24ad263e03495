/**
 * The proof of issue 24: the service past one machine. A real Redis, a real S3 server (Swift, test/s3/), two
 * service instances with separate data folders that share nothing but Redis and the bucket, one job worker
 * (`npm run worker`) and nginx in front with the repository's deploy/nginx/pdfservice-proxy.conf. Clients talk
 * to the instances directly (to choose which one serves a request) and through nginx (as users would).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { call, type Reply } from './helpers/http.js';
import { startNginx, type Nginx } from './helpers/nginx.js';
import { makePdf, pdftotext, qpdfCheck } from './helpers/pdf.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';
import { startS3Server, type S3Server } from './helpers/s3-server.js';
import { ADMIN, startServer, type TestServer } from './helpers/server.js';

let redis: RedisServer;
let s3: S3Server;
let a: TestServer;
let b: TestServer;
let lb: Nginx;
/** The balancer as a server for call(): the same API path and admin credentials. */
let viaLb: TestServer;

function clusterEnv(): Record<string, string> {
  return {
    PDFSERVICE_REDIS_URL: redis.url,
    PDFSERVICE_REDIS_PREFIX: `cluster-${randomBytes(4).toString('hex')}:`,
    PDFSERVICE_SECRETS_KEY: randomBytes(32).toString('hex'),
    PDFSERVICE_STORE: 's3',
    PDFSERVICE_S3_ENDPOINT: s3.endpoint,
    PDFSERVICE_S3_REGION: s3.region,
    PDFSERVICE_S3_BUCKET: s3.buckets[0]!,
    PDFSERVICE_S3_PREFIX: 'cluster/',
    PDFSERVICE_S3_ACCESS_KEY_ID: s3.accessKeyId,
    PDFSERVICE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    PDFSERVICE_S3_TIMEOUT_MS: '5000',
    PDFSERVICE_TRUST_PROXY: 'true',
  };
}
let env: Record<string, string>;

before(async () => {
  [redis, s3] = await Promise.all([startRedisServer(), startS3Server()]);
  env = clusterEnv();
  // One after the other: the first creates the admin in Redis, the second finds it.
  a = await startServer({ env });
  b = await startServer({ env });
  lb = await startNginx([a, b].map((s) => new URL(s.baseUrl).host));
  viaLb = { ...a, baseUrl: lb.url, api: `${lb.url}/pdfservice/v1` };
});
after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
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
