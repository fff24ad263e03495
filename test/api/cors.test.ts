import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { call, type Reply } from '../helpers/http.js';
import { serverForSuite } from '../helpers/server.js';

const APP = 'http://app.example.test:3000';
const OTHER = 'http://evil.example.test';

function corsHeaders(reply: Reply): string[] {
  const names: string[] = [];
  reply.headers.forEach((_value, name) => names.push(name));
  return names.filter((name) => name.startsWith('access-control-'));
}

function preflight(server: Parameters<typeof call>[0], origin: string, method: string, headers: string): Promise<Reply> {
  return call(server, 'OPTIONS', '/documents/folder/report.pdf', {
    auth: false,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

/** Neither a preflight (then authenticated like any request: 401) nor an answer from `origin` carries a CORS header. */
async function assertNoCors(server: Parameters<typeof call>[0], origin: string): Promise<void> {
  const refused = await preflight(server, origin, 'DELETE', 'authorization');
  assert.equal(refused.status, 401);
  assert.deepEqual(corsHeaders(refused), []);
  const plain = await call(server, 'GET', '/sessions/current', { headers: { origin } });
  assert.equal(plain.status, 200);
  assert.deepEqual(corsHeaders(plain), []);
}

describe('CORS with PDFSERVICE_CORS_ORIGINS set', () => {
  const server = serverForSuite({ env: { PDFSERVICE_CORS_ORIGINS: `https://other.example.test, ${APP}` } });

  test('a preflight from a listed origin is 204 before authentication, with methods, headers and credentials', async () => {
    const reply = await preflight(server, APP, 'PUT', 'authorization, content-type, if-match, x-service-documentpassword, range');
    assert.equal(reply.status, 204, reply.text);
    assert.equal(reply.headers.get('access-control-allow-origin'), APP);
    assert.equal(reply.headers.get('access-control-allow-credentials'), 'true');
    const methods = reply.headers.get('access-control-allow-methods')!.split(/,\s*/);
    for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) assert.ok(methods.includes(m), `method ${m}`);
    const allowed = reply.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    for (const h of ['authorization', 'content-type', 'if-match', 'if-none-match', 'x-service-documentpassword', 'x-service-documentpassword-base64', 'range', 'prefer', 'last-event-id']) {
      assert.ok(allowed.includes(h), `header ${h}`);
    }
    assert.match(reply.headers.get('vary') ?? '', /Origin/);
  });

  test('answers to a listed origin carry the origin, credentials and the exposed headers, errors included', async () => {
    const ok = await call(server, 'GET', '/sessions/current', { headers: { origin: APP } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), APP);
    assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
    const exposed = ok.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/);
    for (const h of ['etag', 'location', 'preference-applied', 'content-disposition', 'retry-after', 'www-authenticate', 'link', 'x-service-warning']) assert.ok(exposed.includes(h), `exposes ${h}`);

    const anonymous = await call(server, 'GET', '/sessions/current', { auth: false, headers: { origin: APP } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('access-control-allow-origin'), APP, 'the page can read the error');
    assert.match(anonymous.headers.get('vary') ?? '', /Accept/);
    assert.match(anonymous.headers.get('vary') ?? '', /Origin/);
  });

  test('another origin gets no CORS header: its preflight is authenticated like any request', async () => {
    await assertNoCors(server, OTHER);
  });
});

describe('CORS by default', () => {
  const server = serverForSuite();

  test('no origin gets CORS headers', async () => {
    await assertNoCors(server, APP);
  });
});

test('an entry of PDFSERVICE_CORS_ORIGINS that is not an origin stops the service at start, named', () => {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('../../src/main.js', import.meta.url))], {
    env: { ...process.env, PDFSERVICE_CORS_ORIGINS: `${APP}, *` },
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /PDFSERVICE_CORS_ORIGINS has "\*", which is not an origin/);
});
