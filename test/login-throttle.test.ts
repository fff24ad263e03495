import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { ADMIN, basicAuth, serverForSuite, type TestServer } from './helpers/server.js';

/**
 * One request from a chosen local address: Linux's loopback answers the whole of 127/8, so a client bound
 * to 127.0.0.2 reaches the server on 127.0.0.1 as a different client address, with no proxy headers.
 */
function from(localAddress: string, server: TestServer, method: string, path: string, headers: Record<string, string>, body?: object): Promise<{ status: number; code?: string }> {
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
          resolve({ status: response.statusCode ?? 0, ...(code ? { code } : {}) });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const login = (address: string, server: TestServer, username: string, password: string) =>
  from(address, server, 'POST', '/sessions', {}, { username, password });

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
