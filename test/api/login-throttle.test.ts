import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startNginx, type Nginx } from '../helpers/nginx.js';
import { makePdf } from '../helpers/pdf.js';
import { ADMIN, basicAuth, serverForSuite, type TestServer } from '../helpers/server.js';

/**
 * One request from a chosen local address: Linux's loopback answers the whole of 127/8, so a client bound
 * to 127.0.0.2 reaches the server on 127.0.0.1 as a different client address, with no proxy headers.
 */
function from(localAddress: string, server: Pick<TestServer, 'api'>, method: string, path: string, headers: Record<string, string>, body?: object): Promise<{ status: number; code?: string; setCookie?: string }> {
  const url = new URL(`${server.api}${path}`);
  const payload = body ? Buffer.from(JSON.stringify(body)) : undefined;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, localAddress, agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let code: string | undefined;
          try {
            code = (JSON.parse(text) as { code?: string }).code;
          } catch {
            /* not JSON */
          }
          const setCookie = response.headers['set-cookie']?.join('\n');
          resolve({ status: response.statusCode ?? 0, ...(code ? { code } : {}), ...(setCookie ? { setCookie } : {}) });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const login = (address: string, server: Pick<TestServer, 'api'>, username: string, password: string, headers: Record<string, string> = {}) =>
  from(address, server, 'POST', '/sessions', headers, { username, password });

describe('login throttling by name and address together (bug 17)', () => {
  const server = serverForSuite({ env: { PDFSERVICE_LOGIN_MAX_FAILURES: '3', PDFSERVICE_LOGIN_LOCKOUT_SECONDS: '60' } });
  const ATTACKER = '127.0.0.2';
  const USER = '127.0.0.1';

  test('failures from one address lock that name from that address only; the real user elsewhere still gets in', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await login(ATTACKER, server, ADMIN.username, `wrong-${i}-password`)).status, 401);
    // The attacker is throttled, even when it guesses right.
    assert.deepEqual(await login(ATTACKER, server, ADMIN.username, 'wrong-3-password'), { status: 429, code: 'TOO_MANY_REQUESTS' });
    assert.equal((await login(ATTACKER, server, ADMIN.username, ADMIN.password)).status, 429);
    assert.equal((await from(ATTACKER, server, 'GET', '/sessions/current', { authorization: basicAuth(ADMIN.username, ADMIN.password) })).status, 429);

    // The user's Basic script and login from their own address are not affected by the lock.
    const basic = await from(USER, server, 'GET', '/sessions/current', { authorization: basicAuth(ADMIN.username, ADMIN.password) });
    assert.equal(basic.status, 200);
    assert.equal((await login(USER, server, ADMIN.username, ADMIN.password)).status, 201);
    // Without PDFSERVICE_TRUST_PROXY a client's X-Forwarded-For is only a header: it does not lift the lock.
    assert.equal((await login(ATTACKER, server, ADMIN.username, 'wrong-4-password', { 'x-forwarded-for': '10.1.2.3' })).status, 429);
  });

  test('one address failing over many names is throttled on its own, at five times the per-name limit', async () => {
    const ADDRESS = '127.0.0.3';
    // 3 failures per name lock a name; 15 per address lock the address: 5 names × 2 failures stay under both…
    for (let n = 0; n < 5; n++) {
      for (let i = 0; i < 2; i++) assert.equal((await login(ADDRESS, server, `user${n}`, `wrong-${i}-password`)).status, 401, `user${n} #${i}`);
    }
    // …then 5 more on fresh names make 15 failures, which lock the address for every name.
    for (let n = 5; n < 10; n++) assert.equal((await login(ADDRESS, server, `user${n}`, 'wrong-password')).status, 401, `user${n}`);
    assert.deepEqual(await login(ADDRESS, server, 'someone-else', 'wrong-password'), { status: 429, code: 'TOO_MANY_REQUESTS' });
    assert.equal((await login(ADDRESS, server, ADMIN.username, ADMIN.password)).status, 429);
    // Another address is not affected.
    assert.equal((await login('127.0.0.4', server, ADMIN.username, ADMIN.password)).status, 201);
  });
});

/** The values the settings file of docs/deployment.md ("One settings file") gives these variables. */
function documentedSettings(names: readonly string[]): Record<string, string> {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/deployment.md', import.meta.url)), 'utf8');
  return Object.fromEntries(names.map((name) => {
    const value = new RegExp(`^\\s*${name}=(\\S+)$`, 'm').exec(doc)?.[1];
    assert.ok(value, `docs/deployment.md sets ${name}`);
    return [name, value];
  }));
}

/** Connections established to `port` on this machine (ss, iproute2). */
function establishedTo(port: string): number {
  const out = spawnSync('ss', ['-Htn', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' }).stdout ?? '';
  return out.split('\n').filter((l) => l.trim()).length;
}

/**
 * Issue 35 items 9, 13 and 16: behind the documented nginx (deploy/nginx/pdfservice-proxy.conf, as
 * test/helpers/nginx.ts runs it) with the documented PDFSERVICE_TRUST_PROXY, the address the throttle counts is
 * the one nginx saw, whatever X-Forwarded-For the client sends; and X-Forwarded-Proto from the trusted proxy,
 * and only from it, makes the session cookie Secure; and more uploads at once than an instance's default cap per
 * address all pass (nginx's connections all come from one address).
 */
describe('behind nginx with the settings of docs/deployment.md', () => {
  // nginx runs on this machine and connects from 127.0.0.1, as deployment.md's settings say.
  const server = serverForSuite({ env: documentedSettings(['PDFSERVICE_TRUST_PROXY', 'PDFSERVICE_MAX_CONNECTIONS_PER_ADDRESS']) });
  let nginx: Nginx;
  let viaNginx: Pick<TestServer, 'api'>;
  before(async () => {
    nginx = await startNginx([new URL(server.baseUrl).host]);
    viaNginx = { api: `${nginx.url}/pdfservice/v1` };
  });
  after(async () => {
    await nginx?.dispose();
  });

  test('five wrong passwords with a new X-Forwarded-For each time, then 429; another client through nginx still logs in', async () => {
    const ATTACKER = '127.0.0.6';
    for (let i = 0; i < 5; i++) {
      const failed = await login(ATTACKER, viaNginx, ADMIN.username, `wrong-${i}-password`, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      assert.equal(failed.status, 401, `attempt ${i + 1}`);
    }
    assert.deepEqual(await login(ATTACKER, viaNginx, ADMIN.username, ADMIN.password, { 'x-forwarded-for': '203.0.113.99' }), { status: 429, code: 'TOO_MANY_REQUESTS' });
    assert.equal((await login('127.0.0.7', viaNginx, ADMIN.username, ADMIN.password, { 'x-forwarded-for': '127.0.0.6' })).status, 201);
  });

  test('a proxy that appends to X-Forwarded-For: the entry it added counts, not the ones the client wrote', async () => {
    // 127.0.0.1 is the trusted proxy; what it appended (198.51.100.7) is the client.
    for (let i = 0; i < 5; i++) {
      const failed = await login('127.0.0.1', server, 'someone', `wrong-${i}-password`, { 'x-forwarded-for': `203.0.113.${i + 1}, 198.51.100.7` });
      assert.equal(failed.status, 401, `attempt ${i + 1}`);
    }
    assert.equal((await login('127.0.0.1', server, 'someone', 'wrong-password', { 'x-forwarded-for': '203.0.113.50, 198.51.100.7' })).status, 429);
    // A client that is not the proxy cannot name itself: its own address counts.
    for (let i = 0; i < 5; i++) {
      assert.equal((await login('127.0.0.8', server, 'someone', `wrong-${i}-password`, { 'x-forwarded-for': `198.51.100.${i + 10}` })).status, 401);
    }
    assert.equal((await login('127.0.0.8', server, 'someone', 'wrong-password', { 'x-forwarded-for': '198.51.100.99' })).status, 429);
  });

  test('the session cookie is Secure when the trusted proxy says the client came over https, and only then', async () => {
    const overTls = await login('127.0.0.1', server, ADMIN.username, ADMIN.password, { 'x-forwarded-proto': 'https' });
    assert.equal(overTls.status, 201);
    assert.match(overTls.setCookie ?? '', /SESSIONID=[^;]+;.*; Secure/);
    // nginx on plain http says http.
    const plain = await login('127.0.0.9', viaNginx, ADMIN.username, ADMIN.password);
    assert.equal(plain.status, 201);
    assert.doesNotMatch(plain.setCookie ?? '', /Secure/);
    // A client that is not the proxy cannot claim https.
    const claimed = await login('127.0.0.9', server, ADMIN.username, ADMIN.password, { 'x-forwarded-proto': 'https' });
    assert.equal(claimed.status, 201);
    assert.doesNotMatch(claimed.setCookie ?? '', /Secure/);
  });
});

describe('uploads through nginx', () => {
  // Left out of the describe above only so that its tests' logins do not wait behind these uploads. A queue for all
  // of them: the engine's default (64 waiting checks of an upload) would answer the rest 503, the service's own
  // "busy", which is not what this test is about.
  const server = serverForSuite({ env: { ...documentedSettings(['PDFSERVICE_TRUST_PROXY', 'PDFSERVICE_MAX_CONNECTIONS_PER_ADDRESS']), PDFSERVICE_QUEUE_LIMIT: '1000' } });
  let nginx: Nginx;
  before(async () => {
    nginx = await startNginx([new URL(server.baseUrl).host]);
  });
  after(async () => {
    await nginx?.dispose();
  });

  test('150 uploads under way at once through nginx (past the default 128 per address) are all stored', { timeout: 120_000 }, async () => {
    const COUNT = 150;
    const pdf = makePdf();
    const half = Math.floor(pdf.length / 2);
    const target = new URL(nginx.url);
    const sent: { request: http.ClientRequest; answer: Promise<number> }[] = [];
    for (let i = 0; i < COUNT; i++) {
      const request = http.request({
        host: target.hostname, port: target.port, method: 'PUT', path: `/pdfservice/v1/documents/many/upload-${i}.pdf`, agent: false,
        headers: { authorization: basicAuth(ADMIN.username, ADMIN.password), 'content-type': 'application/pdf', 'content-length': String(pdf.length) },
      });
      const answer = new Promise<number>((resolve) => {
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', () => resolve(0));
      });
      request.write(pdf.subarray(0, half));
      sent.push({ request, answer });
    }
    // Every upload holds its connection through nginx to the instance before any finishes (nginx streams bodies).
    const port = new URL(server.baseUrl).port;
    for (let i = 0; i < 200 && establishedTo(port) < COUNT; i++) await new Promise((r) => setTimeout(r, 50));
    for (const { request } of sent) request.end(pdf.subarray(half));
    const statuses = await Promise.all(sent.map((s) => s.answer));
    const counts = statuses.reduce<Record<number, number>>((acc, status) => ({ ...acc, [status]: (acc[status] ?? 0) + 1 }), {});
    assert.deepEqual(counts, { 201: COUNT });
  });
});
