/**
 * The console's sign-in through the OpenID Connect issuer (docs/oidc.md "Console sign-in", docs/console.md) in
 * Debian's Chromium against the real service and the real provider (oidc-provider, test/oidc/provider.mjs): the
 * sign-in screen offers "Sign in with <name>"; the link leads to the provider's own login and consent pages, filled in
 * the browser; the browser comes back to the folder list signed in as the provider's user with the rights the mapping
 * gives (and the controls of those rights only); "Sign out" ends the session, which the API then refuses.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessible, launchChromium } from '../helpers/browser.js';
import { call } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { resourceOf, startOidcProvider, type OidcProvider } from '../helpers/oidc-provider.js';
import { freePort } from '../helpers/processes.js';
import { startServer, type TestServer } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const AUDIENCE = 'pdfservice';

describe('the console: sign-in through the OpenID Connect issuer in Chromium', () => {
  let provider: OidcProvider;
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    provider = await startOidcProvider();
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/pdfservice/v1/sessions/oidc/callback`;
    const client = await provider.createSignInClient(['pdf.read', 'pdf.write'], [AUDIENCE], callback);
    server = await startServer({
      env: {
        PDFSERVICE_PORT: String(port),
        PDFSERVICE_OIDC_ISSUER: provider.issuer,
        PDFSERVICE_OIDC_AUDIENCE: AUDIENCE,
        PDFSERVICE_OIDC_RIGHTS_CLAIM: 'scope',
        PDFSERVICE_OIDC_RIGHTS: 'pdf.read=GET;pdf.write=GET,POST,PUT',
        PDFSERVICE_OIDC_CLIENT_ID: client.clientId,
        PDFSERVICE_OIDC_CLIENT_SECRET: client.clientSecret,
        PDFSERVICE_OIDC_REDIRECT_URI: callback,
        PDFSERVICE_OIDC_SCOPES: 'pdf.read pdf.write',
        PDFSERVICE_OIDC_RESOURCE: resourceOf(AUDIENCE),
        PDFSERVICE_OIDC_DISPLAY_NAME: 'Test Identity',
      },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.stop();
  });

  test('"Sign in with" leads through the provider\'s pages to the folder list as the mapped user; signing out ends the session', async () => {
    const put = await call(server, 'PUT', '/documents/oidc-console/report.pdf', { body: makePdf({ text: () => 'report' }), headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 201, put.text);

    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${server.baseUrl}/pdfservice/v1/console/`);
      const link = tab.getByRole('link', { name: 'Sign in with Test Identity' });
      await link.waitFor();
      await assertAccessible(tab, 'sign-in (with the issuer)');
      await link.click();

      // The provider's own pages, on its origin: its login form (any name, any password), then its consent page.
      await tab.waitForURL((url) => url.toString().startsWith(provider.issuer));
      await tab.locator('input[name="login"]').fill('carol.oidc');
      await tab.locator('input[name="password"]').fill('any password');
      await tab.getByRole('button', { name: 'Sign-in' }).click();
      await tab.getByRole('button', { name: 'Continue' }).click();

      // Back at the console, signed in: the folder list, the user, the mapped rights, the controls of those rights.
      await tab.waitForURL(`${server.baseUrl}/pdfservice/v1/console/**`);
      await tab.getByTestId('username').waitFor();
      assert.equal(await tab.getByTestId('username').textContent(), 'carol.oidc');
      assert.deepEqual(await tab.getByLabel('Your rights').locator('.right').allTextContents(), ['GET', 'POST', 'PUT']);
      await tab.getByRole('main').getByRole('link', { name: 'oidc-console' }).click(); // the folder tree names it too
      await tab.getByRole('link', { name: 'report.pdf' }).waitFor();
      assert.equal(await tab.getByRole('button', { name: 'Create folder' }).count(), 1, 'PUT: "Create folder" is offered');
      assert.equal(await tab.getByRole('button', { name: /^Delete/ }).count(), 0, 'no DELETE right: no "Delete"');
      assert.equal(await tab.getByRole('link', { name: 'Users' }).count(), 0, 'no admin right: no Users screen');
      await assertAccessible(tab, 'folders (signed in through the issuer)');

      // The session is the service's own cookie; the page's requests carry it, and the API agrees on who it is.
      // Every cookie of the context, whatever its path (SESSIONID's is /pdfservice, the sign-in cookie's narrower).
      const cookies = (await context.cookies()).filter((c) => c.domain === new URL(server.baseUrl).hostname);
      const session = cookies.find((c) => c.name === 'SESSIONID');
      assert.ok(session, 'a SESSIONID cookie');
      assert.equal(session.httpOnly, true);
      assert.equal(cookies.find((c) => c.name === 'PDFSERVICE_OIDC_SIGNIN'), undefined, 'the sign-in cookie is spent');
      const me = await fetch(`${server.api}/sessions/current`, { headers: { cookie: `SESSIONID=${session.value}` } });
      assert.equal(me.status, 200);
      const model = (await me.json()) as { username: string; rights: string[] };
      assert.equal(model.username, 'carol.oidc');
      assert.deepEqual(model.rights, ['GET', 'POST', 'PUT']);

      // A folder made in the console is made as that user, with its rights.
      await tab.getByLabel('New folder name').fill('made-by-carol');
      await tab.getByRole('button', { name: 'Create folder' }).click();
      await tab.getByRole('table').getByRole('link', { name: 'made-by-carol' }).waitFor(); // the folder tree names it too
      const listed = await call(server, 'GET', '/documents/oidc-console');
      assert.match(listed.text, /made-by-carol/);

      await tab.getByRole('button', { name: 'Sign out' }).click();
      await tab.getByRole('link', { name: 'Sign in with Test Identity' }).waitFor();
      const gone = await fetch(`${server.api}/sessions/current`, { headers: { cookie: `SESSIONID=${session.value}` } });
      assert.equal(gone.status, 401, 'the session ended on the server, not only in the page');
      await tab.reload();
      await tab.getByRole('link', { name: 'Sign in with Test Identity' }).waitFor();
      assert.equal(await tab.getByTestId('username').count(), 0, 'a reload stays signed out');
    } finally {
      await context.close();
    }
  });
});
