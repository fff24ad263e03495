/**
 * Sign-ins through the OpenID Connect issuer shared through Redis (docs/oidc.md, "Console sign-in"): two service
 * instances A and B on one real Redis (test/helpers/redis-server.ts), as behind a load balancer without sticky
 * sessions, and the real test provider (oidc-provider). A sign-in begun on A finishes on B; its state is good once,
 * on either instance; its record in Redis has the sign-in's time limit as TTL, and one whose time is up is refused.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { CookieBrowser, throughProvider } from '../helpers/oidc-browser.js';
import { resourceOf, startOidcProvider, type OidcProvider } from '../helpers/oidc-provider.js';
import { freePort } from '../helpers/processes.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const AUDIENCE = 'pdfservice';

describe('sign-ins through the OpenID Connect issuer shared by two instances through Redis', () => {
  const redis = redisServerForSuite();
  const PREFIX = `t${randomBytes(3).toString('hex')}:`;
  let provider: OidcProvider;
  let a: TestServer;
  let b: TestServer;
  let client: Redis;
  /** Where the provider sends browsers back: B's callback (a balancer's address in production). */
  let callback: string;

  before(async () => {
    provider = await startOidcProvider();
    const [portA, portB] = [await freePort(), await freePort()];
    callback = `http://127.0.0.1:${portB}/pdfservice/v1/sessions/oidc/callback`;
    const registered = await provider.createSignInClient(['pdf.read', 'pdf.write'], [AUDIENCE], callback);
    const env = {
      PDFSERVICE_REDIS_URL: redis.url,
      PDFSERVICE_REDIS_PREFIX: PREFIX,
      PDFSERVICE_WORKERS: '1',
      PDFSERVICE_OIDC_ISSUER: provider.issuer,
      PDFSERVICE_OIDC_AUDIENCE: AUDIENCE,
      PDFSERVICE_OIDC_RIGHTS_CLAIM: 'scope',
      PDFSERVICE_OIDC_RIGHTS: 'pdf.read=GET;pdf.write=GET,POST,PUT',
      PDFSERVICE_OIDC_CLIENT_ID: registered.clientId,
      PDFSERVICE_OIDC_CLIENT_SECRET: registered.clientSecret,
      PDFSERVICE_OIDC_REDIRECT_URI: callback,
      PDFSERVICE_OIDC_SCOPES: 'pdf.read',
      PDFSERVICE_OIDC_RESOURCE: resourceOf(AUDIENCE),
    };
    a = await startServer({ env: { ...env, PDFSERVICE_PORT: String(portA) } });
    b = await startServer({ env: { ...env, PDFSERVICE_PORT: String(portB) } });
    client = new Redis(redis.url);
  });
  after(async () => {
    client?.disconnect();
    await a?.stop();
    await b?.stop();
    await provider?.stop();
  });

  const recordKey = (state: string) => `${PREFIX}oidc-signin:${createHash('sha256').update(state).digest('base64url')}`;
  const stateOf = (url: string) => new URL(url).searchParams.get('state')!;

  test('begun on A, finished on B: a session with the mapped rights, good on both; the state is good once, on either', async () => {
    const person = new CookieBrowser();
    const back = await throughProvider(person, `${a.api}/sessions/oidc/start`, callback, 'dora.oidc');
    const state = stateOf(back);
    // Redis holds it under the hash of the state, with the sign-in's time limit (10 minutes) as its TTL.
    const ttl = await client.pttl(recordKey(state));
    assert.ok(ttl > 0 && ttl <= 600_000, `the pending sign-in's TTL is ${ttl} ms`);
    const keys = await client.keys(`${PREFIX}*`);
    assert.ok(!keys.some((k) => k.includes(state)), 'no key holds the state itself');

    const done = await person.get(back);
    assert.equal(done.status, 303, await done.clone().text());
    assert.equal(done.headers.get('location'), '/pdfservice/v1/console/');
    assert.equal(await client.exists(recordKey(state)), 0, 'taken from Redis');
    const session = person.cookie(b.baseUrl, 'SESSIONID');
    assert.ok(session);
    for (const server of [a, b]) {
      const me: Response = await fetch(`${server.api}/sessions/current`, { headers: { cookie: `SESSIONID=${session}` } });
      assert.equal(me.status, 200);
      const model = (await me.json()) as { username: string; rights: string[] };
      assert.equal(model.username, 'dora.oidc');
      assert.deepEqual(model.rights, ['GET']);
    }

    // The same callback again, on B and on A (as a balancer may send it): used.
    const again = person.cookie(b.baseUrl, 'SESSIONID');
    for (const server of [b, a]) {
      const replay = await person.get(back.replace(b.baseUrl, server.baseUrl));
      assert.equal(replay.status, 400);
      const problem = (await replay.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'OIDC_SIGNIN_STATE_INVALID');
      assert.match(problem.detail, /used already/);
    }
    assert.equal(person.cookie(b.baseUrl, 'SESSIONID'), again, 'no new session');
  });

  test('two callbacks of one state at once, on A and on B: one signs in, the other is refused', async () => {
    const person = new CookieBrowser();
    const back = await throughProvider(person, `${b.api}/sessions/oidc/start`, callback, 'erin.oidc');
    const [onA, onB] = await Promise.all([person.get(back.replace(b.baseUrl, a.baseUrl)), person.get(back)]);
    assert.deepEqual([onA.status, onB.status].sort(), [303, 400]);
  });

  test('a sign-in whose time is up is refused (its Redis record gone with its TTL)', async () => {
    const person = new CookieBrowser();
    const back = await throughProvider(person, `${a.api}/sessions/oidc/start`, callback, 'fred.oidc');
    // The time limit's end, brought forward: Redis ends the record as it would after 10 minutes.
    assert.equal(await client.pexpire(recordKey(stateOf(back)), 1), 1);
    while ((await client.exists(recordKey(stateOf(back)))) === 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await person.get(back);
    assert.equal(late.status, 400);
    assert.equal(((await late.json()) as { code: string }).code, 'OIDC_SIGNIN_STATE_INVALID');
    assert.equal(person.cookie(b.baseUrl, 'SESSIONID'), undefined);
  });
});
