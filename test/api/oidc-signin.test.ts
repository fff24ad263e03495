import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makePdf } from '../helpers/pdf.js';
import { resourceOf, startOidcProvider, type OidcProvider } from '../helpers/oidc-provider.js';
import { CookieBrowser as Browser, throughProvider as signIn } from '../helpers/oidc-browser.js';
import { freePort } from '../helpers/processes.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The console's sign-in through the OpenID Connect issuer (docs/oidc.md, "Console sign-in") over HTTP, against the
 * real provider (oidc-provider): a browser is played by following the redirects with a cookie jar, signing in at the
 * provider's login page and consenting at its consent page.
 */

const AUDIENCE = 'pdfservice';
const RIGHTS = 'pdf.read=GET;pdf.write=GET,POST,PUT';

describe('console sign-in through the OpenID Connect issuer (authorization code + PKCE, real provider)', () => {
  let provider: OidcProvider;
  let server: TestServer;
  let callback: string;

  before(async () => {
    provider = await startOidcProvider();
    const port = await freePort();
    callback = `http://127.0.0.1:${port}/pdfservice/v1/sessions/oidc/callback`;
    const client = await provider.createSignInClient(['pdf.read', 'pdf.write'], [AUDIENCE], callback);
    server = await startServer({
      env: {
        PDFSERVICE_PORT: String(port),
        PDFSERVICE_OIDC_ISSUER: provider.issuer,
        PDFSERVICE_OIDC_AUDIENCE: AUDIENCE,
        PDFSERVICE_OIDC_RIGHTS_CLAIM: 'scope',
        PDFSERVICE_OIDC_RIGHTS: RIGHTS,
        PDFSERVICE_OIDC_CLIENT_ID: client.clientId,
        PDFSERVICE_OIDC_CLIENT_SECRET: client.clientSecret,
        PDFSERVICE_OIDC_REDIRECT_URI: callback,
        PDFSERVICE_OIDC_SCOPES: 'pdf.read',
        PDFSERVICE_OIDC_RESOURCE: resourceOf(AUDIENCE),
        PDFSERVICE_OIDC_DISPLAY_NAME: 'Test Identity',
      },
    });
  });
  after(async () => {
    await server?.stop();
    await provider?.stop();
  });

  /** Begins a sign-in, signs in at the provider as `login` and consents; answers the callback URL the provider sends back to (not yet visited). */
  const throughProvider = (browser: Browser, login: string) => signIn(browser, `${server.api}/sessions/oidc/start`, callback, login);

  test('the public endpoint names the issuer; a sign-in through it opens a session with the mapped rights', async () => {
    const offered = await fetch(`${server.api}/sessions/oidc`);
    assert.deepEqual(await offered.json(), { enabled: true, name: 'Test Identity', start: '/pdfservice/v1/sessions/oidc/start' });

    const browser = new Browser();
    const start = await browser.get(`${server.api}/sessions/oidc/start`);
    assert.equal(start.status, 303);
    const authorize = new URL(start.headers.get('location')!);
    assert.ok(authorize.toString().startsWith(provider.issuer));
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorize.searchParams.get('code_challenge') ?? '', /^[\w-]{43}$/);
    assert.match(authorize.searchParams.get('nonce') ?? '', /^[\w-]{43}$/);
    assert.equal(authorize.searchParams.get('scope'), 'openid pdf.read');

    const back = await throughProvider(new Browser(), 'alice.oidc');
    // That browser's callback, visited in another browser (no binding cookie): refused, as a page's planted login would be.
    const planted = await new Browser().get(back);
    assert.equal(planted.status, 400);
    assert.equal((await planted.json()).code, 'OIDC_SIGNIN_STATE_INVALID');

    const person = new Browser();
    const callbackUrl = await throughProvider(person, 'alice.oidc');
    const done = await person.get(callbackUrl);
    assert.equal(done.status, 303, await done.clone().text());
    assert.equal(done.headers.get('location'), '/pdfservice/v1/console/');
    assert.ok(person.cookie(server.baseUrl, 'SESSIONID'), 'a session cookie');
    assert.equal(person.cookie(server.baseUrl, 'PDFSERVICE_OIDC_SIGNIN'), undefined, 'the binding cookie is spent');
    const me = await person.get(`${server.api}/sessions/current`);
    const session = await me.json();
    assert.equal(session.username, 'alice.oidc');
    assert.deepEqual(session.rights, ['GET'], 'pdf.read alone: GET, from the mapping');
    assert.equal(session.via, 'session');
    assert.ok(session.expiresAt);

    // The rights hold: reading works, writing is 403 and stores nothing.
    assert.equal((await person.get(`${server.api}/documents`)).status, 200);
    const put = await person.get(`${server.api}/documents/oidc-signin.pdf`, { method: 'PUT', body: new Uint8Array(makePdf({ text: () => 'x' })), headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 403);
    assert.equal((await fetch(`${server.api}/documents/oidc-signin.pdf`, { headers: { authorization: server.adminAuth } })).status, 404);

    // The same callback again (replayed): the state was used.
    const replay = await person.get(callbackUrl);
    assert.equal(replay.status, 400);
    const problem = await replay.json();
    assert.equal(problem.code, 'OIDC_SIGNIN_STATE_INVALID');
    assert.match(problem.detail, /used already, forged/);

    // Signing out ends it.
    assert.equal((await person.get(`${server.api}/sessions/current`, { method: 'DELETE' })).status, 204);
    assert.equal((await person.get(`${server.api}/sessions/current`)).status, 401);
  });

  test('a forged state, a provider error and a reused code are refused', async () => {
    const browser = new Browser();
    const start = await browser.get(`${server.api}/sessions/oidc/start`);
    await start.body?.cancel();
    const forged = await browser.get(`${callback}?code=anything&state=${'A'.repeat(43)}`);
    assert.equal(forged.status, 400);
    assert.equal((await forged.json()).code, 'OIDC_SIGNIN_STATE_INVALID');
    const none = await browser.get(`${callback}?code=anything`);
    assert.equal(none.status, 400);
    assert.match((await none.json()).detail, /no state/);

    // The provider's error (the person aborted) with a state of this browser: 401 naming it.
    const again = await browser.get(`${server.api}/sessions/oidc/start`);
    const state = new URL(again.headers.get('location')!).searchParams.get('state')!;
    await again.body?.cancel();
    const aborted = await browser.get(`${callback}?error=access_denied&error_description=End-User+aborted+interaction&state=${state}`);
    assert.equal(aborted.status, 401);
    const abortedProblem = await aborted.json();
    assert.equal(abortedProblem.code, 'OIDC_SIGNIN_FAILED');
    assert.match(abortedProblem.detail, /"access_denied": End-User aborted interaction/);

    // A code used once, brought again under a fresh state of the same browser: the provider refuses it.
    const person = new Browser();
    const first = await throughProvider(person, 'bob.oidc');
    const code = new URL(first).searchParams.get('code')!;
    assert.equal((await person.get(first)).status, 303);
    const fresh = await person.get(`${server.api}/sessions/oidc/start`);
    const freshState = new URL(fresh.headers.get('location')!).searchParams.get('state')!;
    await fresh.body?.cancel();
    const reused = await person.get(`${callback}?code=${encodeURIComponent(code)}&state=${freshState}`);
    assert.equal(reused.status, 401);
    const reusedProblem = await reused.json();
    assert.equal(reusedProblem.code, 'OIDC_SIGNIN_FAILED');
    assert.match(reusedProblem.detail, /refused the code \("invalid_grant"/);
  });

  test('a service user\'s name from the issuer opens no session', async () => {
    const person = new Browser();
    const back = await throughProvider(person, 'admin');
    const refused = await person.get(back);
    assert.equal(refused.status, 401);
    const problem = await refused.json();
    assert.equal(problem.code, 'OIDC_SIGNIN_FAILED');
    assert.match(problem.detail, /service user's name/);
    assert.equal(person.cookie(server.baseUrl, 'SESSIONID'), undefined);
  });
});
