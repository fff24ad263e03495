/**
 * Sessions and login throttling shared through Redis (PDFSERVICE_REDIS_URL): a real Redis
 * (test/helpers/redis-server.ts) and two service instances A and B on it, as behind a load balancer.
 * The filesystem pair shares one data folder for its documents (users are in Redis too, redis-shared-state.test.ts);
 * they are started one after the other, so that B's start-up clean-up
 * (the store's recover()) runs before any write is under way.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Sealer } from '../../src/secrets.js';
import { startDavServer, type DavServer } from '../helpers/dav-server.js';
import { call, sha256, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { redisServerForSuite, startRedisServer } from '../helpers/redis-server.js';
import { ADMIN, basicAuth, startServer, type TestServer } from '../helpers/server.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

const cookieOf = (reply: Reply) => /SESSIONID=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!;
const withSession = (id: string) => ({ auth: false as const, headers: { cookie: `SESSIONID=${id}` } });
const login = (server: TestServer, username: string, password: string) => call(server, 'POST', '/sessions', { auth: false, body: { username, password } });
const current = (server: TestServer, id: string) => call(server, 'GET', '/sessions/current', withSession(id));

/** Every key under the prefix with its value as text (strings, hashes and sorted sets, which is what the service writes). */
async function dump(client: Redis, prefix: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', '*', 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      assert.ok(key.startsWith(prefix), `${key} starts with the prefix ${prefix}`);
      const type = await client.type(key);
      // A short-lived key (the retention sweep's lock, released by DEL) may go between SCAN and TYPE.
      if (type === 'none') continue;
      const value =
        type === 'string' ? ((await client.get(key)) ?? '') :
        type === 'hash' ? JSON.stringify(await client.hgetall(key)) :
        type === 'zset' ? JSON.stringify(await client.zrange(key, 0, -1)) :
        assert.fail(`unexpected ${type} at ${key}`);
      found.set(key, value);
    }
  } while (cursor !== '0');
  return found;
}

/** Checks that an instance knows a user another one created (at once: users are in Redis; a few tries for safety). */
async function knownOn(server: TestServer, username: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await call(server, 'GET', `/users/${username}`)).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${username} is unknown on ${server.baseUrl}`);
}

describe('two instances on one Redis and one data folder', () => {
  // Users and API tokens live in Redis too, so it keeps its data across the restart below, as in production.
  const redis = redisServerForSuite({ persistent: true });
  const PREFIX = `t${randomBytes(3).toString('hex')}:`;
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;
  let client: Redis;
  const env = () => ({ PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_LOGIN_MAX_FAILURES: '4', PDFSERVICE_STORE: 'filesystem' });

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-redis-'));
    a = await startServer({ dataDir, env: env() });
    b = await startServer({ dataDir, env: env() });
    client = new Redis(redis.url);
    client.on('error', () => {}); // Redis is stopped on purpose below; the commands that meet it say so
  });
  after(async () => {
    client?.disconnect();
    await a?.stop();
    await b?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a session made on A works on B, and a document uploaded on A is read through B', async () => {
    const made = await login(a, ADMIN.username, ADMIN.password);
    assert.equal(made.status, 201, made.text);
    const id = cookieOf(made);
    const onB = await current(b, id);
    assert.equal(onB.status, 200, onB.text);
    assert.equal(onB.json().username, ADMIN.username);
    assert.equal(onB.json().via, 'session');

    const pdf = makePdf({ pages: 2, text: (p) => `shared page ${p}` });
    const put = await call(a, 'PUT', '/documents/shared/one.pdf', { auth: false, body: pdf, headers: { cookie: `SESSIONID=${id}`, 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201, put.text);
    const read = await call(b, 'GET', '/documents/shared/one.pdf', { auth: false, headers: { cookie: `SESSIONID=${id}`, accept: 'application/pdf' } });
    assert.equal(read.status, 200, read.text);
    assert.equal(sha256(read.bytes), sha256(pdf));
    assert.equal(sha256(await readFile(path.join(dataDir, 'documents', 'shared', 'one.pdf'))), sha256(pdf));

    // Redis holds the session under the hash of its id, not the id a client presents.
    const keys = [...(await dump(client, PREFIX)).keys()];
    assert.ok(keys.some((k) => k.startsWith(`${PREFIX}session:`)), keys.join(' '));
    assert.ok(!keys.some((k) => k.includes(id)), 'no key holds the session id');
  });

  test('logging out on B ends the session on A', async () => {
    const id = cookieOf(await login(a, ADMIN.username, ADMIN.password));
    assert.equal((await current(a, id)).status, 200);
    const out = await call(b, 'DELETE', '/sessions/current', withSession(id));
    assert.equal(out.status, 204);
    const after = await current(a, id);
    assert.equal(after.status, 401);
    assert.equal(after.json().code, 'AUTHENTICATION_REQUIRED');
  });

  test('a password changed on A ends the user\'s sessions on B at once', async () => {
    const made = await call(a, 'POST', '/users', { body: { username: 'carl', password: 'carl-password-1', rights: ['GET'] } });
    assert.equal(made.status, 201, made.text);
    await knownOn(b, 'carl');
    const first = cookieOf(await login(b, 'carl', 'carl-password-1'));
    const second = cookieOf(await login(a, 'carl', 'carl-password-1'));
    assert.equal((await current(b, first)).status, 200);
    assert.equal((await client.zcard(`${PREFIX}user-sessions:carl`)), 2, 'both sessions in the user\'s index');

    const changed = await call(a, 'PATCH', '/users/carl', { body: { password: 'carl-password-2' } });
    assert.equal(changed.status, 200, changed.text);
    // Ended in Redis (deleteUser), not only refused by the stamp later: the index and the records are gone.
    assert.equal(await client.exists(`${PREFIX}user-sessions:carl`), 0);
    for (const id of [first, second]) {
      assert.equal((await current(b, id)).status, 401);
      assert.equal((await current(a, id)).status, 401);
    }
    // Users are in Redis: B refuses the old password and takes the new one at once.
    assert.equal((await login(b, 'carl', 'carl-password-1')).status, 401);
    assert.equal((await login(a, 'carl', 'carl-password-2')).status, 201);
  });

  test('failed logins split across A and B lock the name and address out on both (429)', async () => {
    assert.equal((await call(a, 'POST', '/users', { body: { username: 'dora', password: 'dora-password-1', rights: ['GET'] } })).status, 201);
    await knownOn(b, 'dora');
    // PDFSERVICE_LOGIN_MAX_FAILURES=4: two failures on each instance.
    for (const server of [a, b, a, b]) assert.equal((await login(server, 'dora', 'wrong-password')).status, 401);
    for (const server of [a, b]) {
      const locked = await login(server, 'dora', 'dora-password-1');
      assert.equal(locked.status, 429, locked.text);
      assert.equal(locked.json().code, 'TOO_MANY_REQUESTS');
      assert.ok(Number(locked.headers.get('retry-after')) >= 1);
      // HTTP Basic is throttled alike.
      assert.equal((await call(server, 'GET', '/sessions/current', { auth: basicAuth('dora', 'dora-password-1') })).status, 429);
    }
    // Other names from the same address are not locked (the address's own limit is 5 × 4).
    assert.equal((await login(b, ADMIN.username, ADMIN.password)).status, 201);
    // The counters name nobody: their keys are hashes.
    const keys = [...(await dump(client, PREFIX)).keys()].filter((k) => k.startsWith(`${PREFIX}login:`));
    assert.ok(keys.length >= 2, keys.join(' '));
    assert.ok(!keys.some((k) => k.includes('dora') || k.includes('127.0.0.1')));
    for (const key of keys) {
      const ttl = await client.pttl(key);
      assert.ok(ttl > 0 && ttl <= 60_000, `${key} expires with its window (${ttl} ms)`);
    }
  });

  test('Redis stopped: logins, session and API token requests are 503 REDIS_UNAVAILABLE with Retry-After; after a restart they work again', async () => {
    const id = cookieOf(await login(a, ADMIN.username, ADMIN.password));
    const token = await call(a, 'POST', '/tokens', { body: { name: 'while-redis-is-down' } });
    assert.equal(token.status, 201, token.text);
    await redis.stop();
    for (const server of [a, b]) {
      const refused = await login(server, ADMIN.username, ADMIN.password);
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.json().code, 'REDIS_UNAVAILABLE');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const resumed = await current(server, id);
      assert.equal(resumed.status, 503, resumed.text);
      assert.equal(resumed.json().code, 'REDIS_UNAVAILABLE');
    }
    // API tokens are in Redis too (shared by the instances): refused as unavailable, not as unknown.
    for (const server of [a, b]) {
      const bearer = await call(server, 'GET', '/sessions/current', { auth: `Bearer ${token.json().token}` });
      assert.equal(bearer.status, 503, bearer.text);
      assert.equal(bearer.json().code, 'REDIS_UNAVAILABLE');
    }
    for (const server of [a, b]) assert.ok(server.child.exitCode === null && server.child.signalCode === null, 'the instance keeps running');

    await redis.restart();
    // A client retries after Retry-After; the service reconnects by itself (a login sent meanwhile waits for that).
    for (const server of [a, b]) {
      let reply = await login(server, ADMIN.username, ADMIN.password);
      for (let tries = 0; reply.status === 503 && tries < 5; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(reply.headers.get('retry-after') ?? 1)));
        reply = await login(server, ADMIN.username, ADMIN.password);
      }
      assert.equal(reply.status, 201, reply.text);
      assert.equal((await current(a === server ? b : a, cookieOf(reply))).status, 200);
    }
    // Redis kept its data: the session from before and the token work again, on either instance.
    assert.equal((await current(a, id)).status, 200);
    assert.equal((await call(b, 'GET', '/sessions/current', { auth: `Bearer ${token.json().token}` })).status, 200);
  });
});

describe('passthrough WebDAV sessions through Redis', () => {
  const redis = redisServerForSuite({ password: 'redis-test-password' });
  const key = randomBytes(32);
  const IDLE_SECONDS = 3;
  let dav: DavServer;
  let a: TestServer;
  let b: TestServer;
  let client: Redis;

  before(async () => {
    dav = await startDavServer();
    const env = {
      PDFSERVICE_REDIS_URL: redis.url,
      PDFSERVICE_STORE: 'webdav',
      PDFSERVICE_WEBDAV_URL: dav.url,
      PDFSERVICE_WEBDAV_AUTH: 'passthrough',
      PDFSERVICE_SECRETS_KEY: key.toString('base64'),
      PDFSERVICE_SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
      PDFSERVICE_WORKERS: '1',
    };
    // Two data folders: with the DMS holding documents, the instances share nothing but Redis and the DMS.
    a = await startServer({ env });
    b = await startServer({ env });
    client = new Redis(redis.url);
    client.on('error', () => {}); // Redis is stopped on purpose below; the commands that meet it say so
  });
  after(async () => {
    client?.disconnect();
    await a?.stop();
    await b?.stop();
    await dav?.dispose();
  });

  test('a session made on A reaches the DMS through B, and Redis holds the DMS password only sealed', async () => {
    const made = await login(a, 'alice', dav.users.alice);
    assert.equal(made.status, 201, made.text);
    const id = cookieOf(made);
    const pdf = makePdf({ text: () => 'through B' });
    const put = await call(b, 'PUT', '/documents/home/alice/via-b.pdf', { auth: false, body: pdf, headers: { cookie: `SESSIONID=${id}`, 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201, put.text);
    assert.equal(sha256(await readFile(path.join(dav.root, 'home', 'alice', 'via-b.pdf'))), sha256(pdf), 'on the DMS disk, written as alice');
    const back = await call(a, 'GET', '/documents/home/alice/via-b.pdf', { auth: false, headers: { cookie: `SESSIONID=${id}`, accept: 'application/pdf' } });
    assert.equal(back.status, 200);
    assert.equal(sha256(back.bytes), sha256(pdf));
    // The DMS still decides: alice's session does not reach bob's home.
    assert.equal((await call(b, 'GET', '/documents/home/bob', { auth: false, headers: { cookie: `SESSIONID=${id}` } })).status, 403);

    const password = dav.users.alice;
    const values = await dump(client, 'pdfservice:');
    assert.ok(values.size > 0);
    for (const [k, value] of values) {
      for (const form of [password, Buffer.from(password).toString('base64'), Buffer.from(password).toString('hex')]) {
        assert.ok(!k.includes(form) && !value.includes(form), `${k} holds no form of the password`);
      }
      assert.ok(!value.includes('"password"'), `${k} has no password field`);
    }
    // What it holds is the credentials sealed under the secrets key with the session id as context.
    const records = [...values].filter(([k]) => k.startsWith('pdfservice:session:')).map(([, v]) => JSON.parse(v) as { username: string; sealedCredentials?: string });
    const alices = records.filter((r) => r.username === 'alice');
    assert.equal(alices.length, 1);
    const opened = JSON.parse(new Sealer(key).open(`session:${id}`, alices[0]!.sealedCredentials!)) as { username: string; password: string };
    assert.deepEqual(opened, { username: 'alice', password });
    assert.throws(() => new Sealer(key).open('session:another-id', alices[0]!.sealedCredentials!));
  });

  test('the idle limit holds across instances: a touch on either restarts it, disuse ends it on both', async () => {
    const id = cookieOf(await login(a, 'bob', dav.users.bob));
    const recordKey = [...(await dump(client, 'pdfservice:'))].find(([k, v]) => k.startsWith('pdfservice:session:') && (JSON.parse(v) as { username: string }).username === 'bob')![0];
    const before = await client.pttl(recordKey);
    assert.ok(before > 0 && before <= IDLE_SECONDS * 1000, `the record expires with the idle limit (${before} ms)`);
    // Some of the idle time passes first, so that a touch shows however fast it comes (right after the login, the
    // two readings could be the same millisecond).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const decayed = await client.pttl(recordKey);
    assert.ok(decayed < before, `the expiry comes closer while unused (${before} → ${decayed} ms)`);
    assert.equal((await current(b, id)).status, 200);
    const touched = await client.pttl(recordKey);
    assert.ok(touched > decayed, `a use on B pushed the expiry back (${decayed} → ${touched} ms)`);

    // Gone within the idle limit and half a second, as before, but looked for until then rather than after it.
    const unused = Date.now();
    while ((await client.exists(recordKey)) === 1 && Date.now() - unused < IDLE_SECONDS * 1000 + 500) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await client.exists(recordKey), 0, 'Redis expired the record');
    for (const server of [a, b]) assert.equal((await current(server, id)).status, 401);
  });
});

describe('start-up with Redis', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [MAIN], { env: { ...process.env, PDFSERVICE_PORT: '0', PDFSERVICE_ADMIN_PASSWORD: 'long-enough-password', PDFSERVICE_WORKERS: '1', ...env }, encoding: 'utf8', timeout: 30_000 });
  const oneLine = (stderr: string, pattern: RegExp) => {
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, pattern);
  };
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-redis-start-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a Redis that cannot be reached stops the start with one line naming it, without the password', async () => {
    const gone = await startRedisServer();
    const url = gone.url.replace('redis://', 'redis://:secret-in-url@');
    await gone.dispose();
    const result = run({ PDFSERVICE_DATA_DIR: dataDir, PDFSERVICE_REDIS_URL: url });
    assert.equal(result.status, 2);
    oneLine(result.stderr, /^pdfservice: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(PDFSERVICE_REDIS_URL\): connection refused$/);
    assert.doesNotMatch(result.stderr, /secret-in-url/);
  });

  test('a wrong Redis password stops the start with one line saying so', async () => {
    const locked = await startRedisServer({ password: 'the-right-one' });
    try {
      const result = run({ PDFSERVICE_DATA_DIR: dataDir, PDFSERVICE_REDIS_URL: locked.url.replace('the-right-one', 'a-wrong-one') });
      assert.equal(result.status, 2);
      oneLine(result.stderr, /cannot reach Redis .*refused the user or password/);
    } finally {
      await locked.dispose();
    }
  });

  test('Redis with passthrough WebDAV and no secrets key stops the start with one line saying why', () => {
    const result = run({ PDFSERVICE_DATA_DIR: dataDir, PDFSERVICE_REDIS_URL: 'redis://127.0.0.1:1', PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: 'http://127.0.0.1:1/dav/' });
    assert.equal(result.status, 2);
    oneLine(result.stderr, /PDFSERVICE_REDIS_URL with PDFSERVICE_WEBDAV_AUTH=passthrough needs PDFSERVICE_SECRETS_KEY/);
  });

  test('a URL that is not redis:// or rediss:// is refused', () => {
    const result = run({ PDFSERVICE_DATA_DIR: dataDir, PDFSERVICE_REDIS_URL: 'http://127.0.0.1:6379' });
    assert.equal(result.status, 2);
    oneLine(result.stderr, /PDFSERVICE_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });
});
