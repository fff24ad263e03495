/**
 * The console's account, users, trash and versions screens (docs/console.md) in Debian's Chromium against the real
 * service: an API token created in the console works with the API and stops when revoked there; an admin creates a
 * user, changes their rights and password, and the user signs in and sees no Users screen (the API refuses them
 * too); a deleted document restored from the trash screen, also to another path after a 409, and one purged;
 * a document's versions listed, an old one shown in the viewer and restored, a label and a pin set. Every result is
 * checked through the API (bytes by sha256). axe-core checks each screen; a token named as HTML opens no dialog;
 * screenshots are kept in a folder the test prints.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAccessible, launchChromium, signInConsole } from '../helpers/browser.js';
import { call, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { ADMIN, basicAuth, serverForSuite } from '../helpers/server.js';

const BUILD = fileURLToPath(new URL('../../../console/dist/index.html', import.meta.url));
const XSS_NAME = '<img src=x onerror=alert(1)>';
const SHOTS = mkdtempSync(path.join(tmpdir(), 'pdfservice-console-account-screens-'));
const ALICE = { username: 'alice', password: 'alice-first-password' };

describe('the console: account, users, trash and versions', () => {
  const server = serverForSuite();
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;
  const dialogs: string[] = [];

  async function screenshot(on: Page, name: string): Promise<void> {
    await on.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }
  const signIn = (on: Page, user: { username: string; password: string }) => signInConsole(on, `${server.baseUrl}/pdfservice/v1/console/`, user);
  async function open(hash: string): Promise<void> {
    await tab.goto(`${server.baseUrl}/pdfservice/v1/console/${hash}`);
  }

  before(async () => {
    assert.ok(existsSync(BUILD), `${BUILD} is missing: bash scripts/setup.sh builds the console`);
    console.log(`console screenshots: ${SHOTS}`);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    tab = await context.newPage();
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(tab, ADMIN);
  });
  after(async () => {
    await browser?.close();
  });

  test('an API token made in the console works with the API once copied, and stops when revoked there', async () => {
    await tab.getByRole('link', { name: 'Account' }).click();
    await tab.getByRole('heading', { name: 'Your account' }).waitFor();
    await tab.getByLabel('Token name').fill(XSS_NAME);
    await tab.getByRole('button', { name: 'Create token' }).click();
    const secretField = tab.getByTestId('token-secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    assert.match(secret, /^pdfs_[0-9a-f]{16}/);
    await tab.getByRole('button', { name: 'Copy' }).click();
    await tab.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await tab.evaluate(() => navigator.clipboard.readText()), secret, 'the copy button puts the token on the clipboard');
    await screenshot(tab, '1-account-new-token');
    await assertAccessible(tab, 'account');

    // The token from the test, as a script would use it.
    const list = await call(server, 'GET', '/tokens', { auth: `Bearer ${secret}` });
    assert.equal(list.status, 200, list.text);
    const tokens = list.json<{ tokens: { id: string; name: string }[] }>().tokens;
    assert.deepEqual(tokens.map((t) => t.name), [XSS_NAME]);
    assert.equal((await call(server, 'GET', '/documents', { auth: `Bearer ${secret}` })).status, 200);

    // Shown once: hidden on "Done", and not in the page after a reload either.
    await tab.getByRole('button', { name: 'Done, hide it' }).click();
    assert.equal(await tab.getByTestId('token-secret').count(), 0);
    await tab.reload();
    await tab.getByRole('cell', { name: XSS_NAME, exact: true }).waitFor();
    assert.ok(!(await tab.content()).includes(secret), 'the secret is never shown again');
    assert.equal(await tab.locator('img[src=x]').count(), 0, 'the token name is text, not an element');

    await tab.getByRole('button', { name: `Revoke the token ${XSS_NAME}` }).click();
    await tab.getByRole('button', { name: 'Yes, revoke' }).click();
    await tab.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents', { auth: `Bearer ${secret}` })).status, 401, 'the revoked token opens nothing');
    assert.equal((await call(server, 'GET', `/tokens/${tokens[0]!.id}`)).status, 404);
    assert.deepEqual(dialogs, [], 'no dialog opened');
  });

  test('an admin creates a user, who signs in and gets no Users screen; rights, password and delete from the console', async () => {
    await open('#/users');
    await tab.getByRole('heading', { name: 'Users' }).waitFor();
    await tab.getByLabel('User name').fill(ALICE.username);
    await tab.getByLabel('Password', { exact: true }).fill(ALICE.password);
    await tab.locator('#new-user-PUT').check();
    await tab.getByRole('button', { name: 'Create user' }).click();
    await tab.getByRole('status').filter({ hasText: `User ${ALICE.username} created` }).waitFor();
    const created = await call(server, 'GET', `/users/${ALICE.username}`);
    assert.equal(created.status, 200);
    assert.deepEqual(created.json<{ rights: string[] }>().rights.sort(), ['GET', 'PUT']);
    await screenshot(tab, '2-users');
    await assertAccessible(tab, 'users');

    // Alice signs in in a browser of her own: her rights, no Users link, and the screen refused.
    const aliceContext = await browser.newContext();
    try {
      const alice = await aliceContext.newPage();
      await signIn(alice, ALICE);
      assert.equal(await alice.getByTestId('username').innerText(), ALICE.username);
      assert.equal(await alice.getByRole('link', { name: 'Users' }).count(), 0, 'no Users screen offered');
      await alice.goto(`${server.baseUrl}/pdfservice/v1/console/#/users`);
      await alice.getByRole('alert').filter({ hasText: 'Only admins' }).waitFor();
      await screenshot(alice, '3-users-refused-to-non-admin');
      const cookie = (await aliceContext.cookies(server.api)).find((c) => c.name === 'SESSIONID')!;
      assert.equal((await call(server, 'GET', '/users', { auth: false, headers: { cookie: `SESSIONID=${cookie.value}` } })).status, 403);
    } finally {
      await aliceContext.close();
    }
    assert.equal((await call(server, 'GET', '/users', { auth: basicAuth(ALICE.username, ALICE.password) })).status, 403, 'the API refuses her');

    // Rights changed and password reset from her row.
    await tab.locator('#user-alice-DELETE').check();
    const aliceRow = tab.locator('tr', { has: tab.locator('#user-alice-DELETE') });
    await aliceRow.getByRole('button', { name: 'Save rights' }).click();
    await tab.getByRole('status').filter({ hasText: 'Rights of alice changed' }).waitFor();
    assert.deepEqual((await call(server, 'GET', '/users/alice')).json<{ rights: string[] }>().rights.sort(), ['DELETE', 'GET', 'PUT']);
    await tab.getByLabel('New password for alice').fill('alice-second-password');
    await aliceRow.getByRole('button', { name: 'Set password' }).click();
    await tab.getByRole('status').filter({ hasText: 'Password of alice set' }).waitFor();
    assert.equal((await call(server, 'GET', '/documents', { auth: basicAuth(ALICE.username, ALICE.password) })).status, 401, 'the old password is gone');
    assert.equal((await call(server, 'GET', '/documents', { auth: basicAuth(ALICE.username, 'alice-second-password') })).status, 200);

    await tab.getByRole('button', { name: 'Delete the user alice' }).click();
    await tab.getByRole('button', { name: 'Yes, delete' }).click();
    await tab.getByRole('status').filter({ hasText: 'User alice deleted' }).waitFor();
    assert.equal((await call(server, 'GET', '/users/alice')).status, 404);
    assert.equal(await tab.getByRole('button', { name: `Delete the user ${ADMIN.username}` }).count(), 0, 'an admin is not offered to delete themself');
  });

  test('the trash screen restores a deleted document (and to another path after a 409) and purges one', async () => {
    const first = makePdf({ text: () => 'first memo' });
    const second = makePdf({ text: () => 'second memo' });
    const third = makePdf({ text: () => 'to be purged' });
    for (const [name, body] of [['memo', first], ['other', third]] as const) {
      assert.equal((await call(server, 'PUT', `/documents/bin/${name}.pdf`, { body, headers: { 'content-type': 'application/pdf' } })).status, 201);
      assert.equal((await call(server, 'DELETE', `/documents/bin/${name}.pdf`)).status, 204);
    }
    await open('#/trash');
    await tab.getByRole('heading', { name: 'Trash' }).waitFor();
    await tab.getByRole('cell', { name: 'bin/memo.pdf', exact: true }).waitFor();
    await screenshot(tab, '4-trash');
    await assertAccessible(tab, 'trash');
    await tab.getByRole('button', { name: 'Restore bin/memo.pdf' }).click();
    await tab.getByRole('status').filter({ hasText: 'Document restored to bin/memo.pdf' }).waitFor();
    const restored = await call(server, 'GET', '/documents/bin/memo.pdf');
    assert.equal(restored.status, 200);
    assert.equal(sha256(restored.bytes), sha256(first), 'restored byte for byte');

    // Deleted again, with another document at its path since: 409, and "Restore as" another path.
    assert.equal((await call(server, 'DELETE', '/documents/bin/memo.pdf')).status, 204);
    assert.equal((await call(server, 'PUT', '/documents/bin/memo.pdf', { body: second, headers: { 'content-type': 'application/pdf' } })).status, 201);
    await tab.reload();
    await tab.getByRole('button', { name: 'Restore bin/memo.pdf' }).click();
    await tab.getByRole('alert').filter({ hasText: 'Choose another path' }).waitFor();
    assert.equal(await tab.getByLabel('Restore as').inputValue(), 'bin/memo (restored).pdf');
    await assertAccessible(tab, 'trash, restore as');
    await tab.getByRole('button', { name: 'Restore here' }).click();
    await tab.getByRole('status').filter({ hasText: 'restored to bin/memo (restored).pdf' }).waitFor();
    assert.equal(sha256((await call(server, 'GET', '/documents/bin/memo.pdf')).bytes), sha256(second), 'the document at the path is untouched');
    assert.equal(sha256((await call(server, 'GET', '/documents/bin/memo%20(restored).pdf')).bytes), sha256(first));

    await tab.getByRole('button', { name: 'Purge bin/other.pdf for good' }).click();
    await tab.getByRole('button', { name: 'Yes, purge' }).click();
    await tab.getByRole('status').filter({ hasText: 'purged for good' }).waitFor();
    const trash = (await call(server, 'GET', '/trash')).json<{ entries: { path: string }[] }>();
    assert.ok(!trash.entries.some((e) => e.path === '/bin/other.pdf'), JSON.stringify(trash));
    assert.equal((await call(server, 'GET', '/documents/bin/other.pdf')).status, 404);
  });

  test('versions: an old one shown in the viewer, restored with its bytes, labelled and pinned', async () => {
    const v1 = makePdf({ text: () => 'VERSION ONE' });
    const v2 = makePdf({ text: () => 'second version, other words, longer line' });
    for (const [body, status] of [[v1, 201], [v2, 200]] as const) {
      assert.equal((await call(server, 'PUT', '/documents/hist/report.pdf', { body, headers: { 'content-type': 'application/pdf' } })).status, status);
    }
    const history = (await call(server, 'GET', '/documents/hist/report.pdf/versions')).json<{ versions: { id: string; current: boolean }[] }>();
    assert.equal(history.versions.length, 2);
    const oldId = history.versions[1]!.id;

    await open('#/folders/hist');
    await tab.getByRole('link', { name: 'report.pdf' }).click();
    await tab.getByRole('link', { name: 'Versions of this document' }).click();
    await tab.getByRole('heading', { name: 'Versions of report.pdf' }).waitFor();
    const rows = tab.locator('table.versions tbody tr');
    // The heading is drawn before the list arrives: wait for the rows (count() does not wait).
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.match(await rows.nth(0).innerText(), /2 \(current\)\s+.*\s+admin\s+upload/);
    await screenshot(tab, '5-versions');
    await assertAccessible(tab, 'versions');

    // Version 1 in the viewer: its page rendered with ?versionId=, unlike the current one.
    await tab.getByRole('link', { name: 'View version 1' }).click();
    await tab.getByTestId('version-note').waitFor();
    await tab.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=page-image]');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const src = await tab.getByTestId('page-image').getAttribute('src');
    assert.ok(src?.includes(`versionId=${oldId}`), src ?? '');
    const shown = await call(server, 'GET', `${server.baseUrl}${src}`);
    const current = await call(server, 'GET', `${server.baseUrl}${src!.replace(/&versionId=[^&]*/, '')}`);
    assert.equal(shown.status, 200);
    assert.notDeepEqual(shown.bytes, current.bytes, 'version 1 renders unlike the current version');
    await screenshot(tab, '6-viewer-version-1');
    await assertAccessible(tab, 'viewer of a version');

    await tab.getByRole('link', { name: 'Versions of this document' }).click();
    await tab.getByRole('button', { name: 'Restore version 1' }).click();
    await tab.getByRole('status').filter({ hasText: 'Version 1 restored' }).waitFor();
    assert.equal(sha256((await call(server, 'GET', '/documents/hist/report.pdf')).bytes), sha256(v1), 'the document is version 1 again');
    assert.equal(await rows.count(), 3);
    assert.match(await rows.nth(0).innerText(), /3 \(current\)\s+.*\s+admin\s+restore/);

    await tab.getByLabel('Label of version 1').fill('approved');
    await rows.nth(2).getByRole('button', { name: 'Save label' }).click();
    await tab.getByRole('status').filter({ hasText: 'Version labelled “approved”' }).waitFor();
    await tab.getByRole('button', { name: 'Pin version 1' }).click();
    await tab.getByRole('status').filter({ hasText: 'Version pinned' }).waitFor();
    const first = (await call(server, 'GET', `/documents/hist/report.pdf/versions/${oldId}`)).json<{ label: string | null; pinned: boolean }>();
    assert.deepEqual([first.label, first.pinned], ['approved', true]);
    assert.equal(await tab.getByRole('button', { name: 'Pin version 1' }).getAttribute('aria-pressed'), 'true');
    assert.deepEqual(dialogs, []);
  });

  test('a restore over a change made since the list was shown is refused (If-Match), not done unseen', async () => {
    await open('#/versions?doc=hist/report.pdf');
    await tab.getByRole('button', { name: 'Restore version 2' }).waitFor();
    const before = sha256((await call(server, 'GET', '/documents/hist/report.pdf')).bytes);
    const newer = makePdf({ text: () => 'written meanwhile' });
    assert.equal((await call(server, 'PUT', '/documents/hist/report.pdf', { body: newer, headers: { 'content-type': 'application/pdf' } })).status, 200);
    assert.notEqual(sha256(newer), before);
    await tab.getByRole('button', { name: 'Restore version 2' }).click();
    await tab.getByRole('alert').filter({ hasText: 'changed since this list was shown' }).waitFor();
    assert.equal(sha256((await call(server, 'GET', '/documents/hist/report.pdf')).bytes), sha256(newer), 'the change made meanwhile stays');
  });
});
