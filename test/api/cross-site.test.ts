/**
 * Cross-site request forgery (docs/console.md, "Security"; refuseCrossSite in src/http/plugins/auth.ts): a request
 * that changes something and authenticates with the session cookie is refused (403 CROSS_SITE_REQUEST) when its Origin
 * is another site's, or, without Origin, when Sec-Fetch-Site says another site's page sent it; a login too. The same
 * requests from the service's own origin, a listed CORS origin, with no browser header at all, or with Authorization
 * pass. Nothing is written by a refused request.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

const LISTED = 'https://app.example';

describe('cross-site requests with the session cookie', () => {
  const server = serverForSuite({ env: { PDFSERVICE_CORS_ORIGINS: LISTED } });
  const own = () => server.baseUrl;

  async function login(): Promise<string> {
    const answer = await call(server, 'POST', '/sessions', { auth: false, body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(answer.status, 201, answer.text);
    const cookie = /SESSIONID=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '');
    assert.ok(cookie, 'a session cookie');
    return `SESSIONID=${cookie[1]}`;
  }
  const withCookie = (cookie: string, headers: Record<string, string> = {}) => ({ auth: false as const, headers: { cookie, ...headers } });
  const exists = async (folder: string) => (await call(server, 'GET', `/documents/${folder}`)).status === 200;

  test('a PUT, POST or DELETE with the cookie from another origin is 403 CROSS_SITE_REQUEST and changes nothing', async () => {
    const cookie = await login();
    const put = await call(server, 'PUT', '/documents/forged', withCookie(cookie, { origin: 'https://evil.example' }));
    assert.equal(put.status, 403, put.text);
    assert.equal(put.json().code, 'CROSS_SITE_REQUEST');
    assert.match(put.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(await exists('forged'), false);

    const stored = makePdf({ pages: 1 });
    assert.equal((await call(server, 'PUT', '/documents/kept.pdf', { body: stored, headers: { 'content-type': 'application/pdf' } })).status, 201);
    const removed = await call(server, 'DELETE', '/documents/kept.pdf', withCookie(cookie, { origin: 'null' }));
    assert.equal(removed.status, 403, removed.text);
    assert.equal(removed.json().code, 'CROSS_SITE_REQUEST');
    const still = await call(server, 'GET', '/documents/kept.pdf');
    assert.equal(still.status, 200);
    assert.deepEqual(still.bytes, stored, 'the document is byte for byte unchanged');

    // Without Origin, the browser's Sec-Fetch-Site decides; a same-site page (another port or subdomain) is refused too.
    for (const site of ['cross-site', 'same-site']) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(stored)], { type: 'application/pdf' }), 'forged.pdf');
      const posted = await call(server, 'POST', '/documents', { ...withCookie(cookie, { 'sec-fetch-site': site }), body: form });
      assert.equal(posted.status, 403, `${site}: ${posted.text}`);
      assert.equal(posted.json().code, 'CROSS_SITE_REQUEST');
    }
    assert.equal((await call(server, 'GET', '/documents/forged.pdf')).status, 404);

    // Logging out is state-changing too: a foreign page cannot end the session.
    const logout = await call(server, 'DELETE', '/sessions/current', withCookie(cookie, { origin: 'https://evil.example' }));
    assert.equal(logout.status, 403, logout.text);
    assert.equal((await call(server, 'GET', '/sessions/current', withCookie(cookie))).status, 200, 'the session is still open');
  });

  test('reads with the cookie from another origin are answered (the same-origin policy keeps them from the page)', async () => {
    const cookie = await login();
    const read = await call(server, 'GET', '/sessions/current', withCookie(cookie, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }));
    assert.equal(read.status, 200, read.text);
  });

  test('the own origin, a listed CORS origin, a request with no browser header and one with Authorization pass', async () => {
    const cookie = await login();
    const mine = await call(server, 'PUT', '/documents/mine', withCookie(cookie, { origin: own(), 'sec-fetch-site': 'same-origin' }));
    assert.equal(mine.status, 201, mine.text);
    const listed = await call(server, 'PUT', '/documents/listed', withCookie(cookie, { origin: LISTED, 'sec-fetch-site': 'cross-site' }));
    assert.equal(listed.status, 201, listed.text);
    const script = await call(server, 'PUT', '/documents/script', withCookie(cookie));
    assert.equal(script.status, 201, script.text);
    // Basic credentials are sent by the client itself, never added by a browser to another site's request.
    const basic = await call(server, 'PUT', '/documents/basic', { headers: { origin: 'https://evil.example' } });
    assert.equal(basic.status, 201, basic.text);
    const logout = await call(server, 'DELETE', '/sessions/current', withCookie(cookie, { origin: own() }));
    assert.equal(logout.status, 204, logout.text);
  });

  test('a login from another origin is refused: no page signs its visitor in to an account of its choosing', async () => {
    const refused = await call(server, 'POST', '/sessions', {
      auth: false, headers: { origin: 'https://evil.example' }, body: { username: ADMIN.username, password: ADMIN.password },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json().code, 'CROSS_SITE_REQUEST');
    assert.equal(refused.headers.get('set-cookie'), null, 'no session cookie');
    const fromHere = await call(server, 'POST', '/sessions', {
      auth: false, headers: { origin: own() }, body: { username: ADMIN.username, password: ADMIN.password },
    });
    assert.equal(fromHere.status, 201, fromHere.text);
  });
});
