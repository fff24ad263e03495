/**
 * Mapped mode (PDFSERVICE_WEBDAV_AUTH=mapped) against the Apache WebDAV test
 * server: service users log in to the service and act at the DMS as the
 * account an admin mapped to them; the accounts are sealed at rest with the
 * configured key, and a service started with another key, or over a changed
 * file, does not start.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startDavServer, type DavServer } from '../helpers/dav-server.js';
import { call, sha256 } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { basicAuth, startServer, type TestServer } from '../helpers/server.js';

const CLI = fileURLToPath(new URL('../../src/cli/users.js', import.meta.url));
const KEY = randomBytes(32);
const PASSWORDS = { ann: 'ann-service-password', ben: 'ben-service-password', cid: 'cid-service-password' };

let dav: DavServer;
let server: TestServer;
let dataDir: string;

const mappedEnv = (key: string = KEY.toString('base64')) => ({
  PDFSERVICE_STORE: 'webdav',
  PDFSERVICE_WEBDAV_URL: dav.url,
  PDFSERVICE_WEBDAV_AUTH: 'mapped',
  PDFSERVICE_SECRETS_KEY: key,
  PDFSERVICE_WEBDAV_TIMEOUT_MS: '3000',
});

before(async () => {
  dav = await startDavServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-mapped-'));
  server = await startServer({ dataDir, env: mappedEnv() });
  for (const [username, password] of Object.entries(PASSWORDS)) {
    const made = await call(server, 'POST', '/users', { body: { username, password, rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
    assert.equal(made.status, 201, made.text);
  }
});
after(async () => {
  await server?.stop();
  await dav?.dispose();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const as = (user: keyof typeof PASSWORDS) => basicAuth(user, PASSWORDS[user]);
const accountsFile = () => path.join(dataDir, 'state', 'dms-accounts.json');
const mapTo = (user: string, username: string, password: string) => call(server, 'PUT', `/users/${user}/dms-account`, { body: { username, password } });
const putPdf = (auth: string, documentPath: string, body: Buffer) => call(server, 'PUT', `/documents/${documentPath}`, { auth, body, headers: { 'content-type': 'application/pdf' } });
const onDisk = (documentPath: string) => readFile(path.join(dav.root, ...documentPath.split('/')));

describe('an admin maps service users to DMS accounts', () => {
  test('a user with no account is refused by the DMS without it being asked; a wrong DMS password is 422 and maps nothing', async () => {
    const before = await call(server, 'GET', '/documents/home/alice', { auth: as('ann') });
    assert.equal(before.status, 403, before.text);
    assert.equal(before.json().code, 'DMS_FORBIDDEN');
    assert.equal(before.json().dmsStatus, null, 'no credentials: the DMS was not asked');

    const none = await call(server, 'GET', '/users/ann/dms-account');
    assert.equal(none.status, 404);
    assert.equal(none.json().code, 'DMS_ACCOUNT_NOT_FOUND');

    const wrong = await mapTo('ann', 'alice', 'not-her-password');
    assert.equal(wrong.status, 422, wrong.text);
    assert.equal(wrong.json().code, 'DMS_ACCOUNT_REJECTED');
    assert.equal((await call(server, 'GET', '/users/ann/dms-account')).status, 404, 'nothing was mapped');

    const nobody = await mapTo('nobody-here', 'alice', dav.users.alice);
    assert.equal(nobody.status, 404);
    assert.equal(nobody.json().code, 'USER_NOT_FOUND');
    const colon = await mapTo('ann', 'ali:ce', dav.users.alice);
    assert.equal(colon.status, 400, 'a name with a colon cannot be sent by Basic authentication');
    const control = await mapTo('ann', 'alice', '\u001f');
    assert.equal(control.status, 400, 'XML cannot carry the character, so JSON refuses it too');
    assert.equal(control.json().code, 'VALIDATION_FAILED');
  });

  test('a mapped user reads and writes what the DMS account may, by session, Basic and API token; the file holds no secret', async () => {
    const mapped = await mapTo('ann', 'alice', dav.users.alice);
    assert.equal(mapped.status, 201, mapped.text);
    assert.equal(mapped.json().username, 'alice');
    assert.ok(!mapped.text.includes(dav.users.alice), 'the model has no password');
    const again = await mapTo('ann', 'alice', dav.users.alice);
    assert.equal(again.status, 200, 'replaced');
    const xml = await call(server, 'GET', '/users/ann/dms-account', { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<DmsAccount>[\s\S]*<username>alice<\/username>[\s\S]*<\/DmsAccount>/);
    assert.equal((await mapTo('ben', 'bob', dav.users.bob)).status, 201);

    // Basic: ann acts as alice at the DMS; the bytes land in alice's home.
    const pdf = makePdf({ text: () => 'written by ann as alice' });
    const put = await putPdf(as('ann'), 'home/alice/mapped.pdf', pdf);
    assert.equal(put.status, 201, put.text);
    assert.equal(sha256(await onDisk('home/alice/mapped.pdf')), sha256(pdf));
    // bob's home is bob's: the DMS refuses alice, and so ann.
    const foreign = await putPdf(as('ann'), 'home/bob/mapped.pdf', pdf);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json().code, 'DMS_FORBIDDEN');
    assert.equal(foreign.json().dmsStatus, 403);
    // ben acts as bob: reads the shared collection, may not write it (alice writes it).
    assert.equal((await putPdf(as('ann'), 'shared/mapped.pdf', pdf)).status, 201);
    assert.equal((await call(server, 'GET', '/documents/shared/mapped.pdf', { auth: as('ben') })).status, 200);
    assert.equal((await putPdf(as('ben'), 'shared/mapped.pdf', makePdf())).status, 403);
    assert.equal(sha256(await onDisk('shared/mapped.pdf')), sha256(pdf), 'unchanged on the DMS');

    // A session.
    const login = await call(server, 'POST', '/sessions', { auth: false, body: { username: 'ann', password: PASSWORDS.ann } });
    assert.equal(login.status, 201);
    const cookie = /SESSIONID=([^;]*)/.exec(login.headers.get('set-cookie')!)![1]!;
    const text = await call(server, 'GET', '/documents/home/alice/mapped.pdf/text', { auth: false, headers: { cookie: `SESSIONID=${cookie}` } });
    assert.equal(text.status, 200, text.text);
    assert.match(text.text, /written by ann as alice/);
    // An API token reaches documents too (in passthrough mode it carries no DMS password).
    const token = await call(server, 'POST', '/tokens', { auth: as('ann'), body: { name: 'script' } });
    assert.equal(token.status, 201, token.text);
    const bytes = await call(server, 'GET', '/documents/home/alice/mapped.pdf', { auth: `Bearer ${token.json().token}` });
    assert.equal(bytes.status, 200);
    assert.match(await pdftotext(bytes.bytes), /written by ann as alice/);

    // The DMS's own users do not log in to the service in mapped mode: only service users do.
    const direct = await call(server, 'POST', '/sessions', { auth: false, body: { username: 'alice', password: dav.users.alice } });
    assert.equal(direct.status, 401);

    const file = await readFile(accountsFile(), 'utf8');
    for (const secret of [dav.users.alice, dav.users.bob]) {
      for (const form of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')]) assert.ok(!file.includes(form), 'no password in any form');
    }
    assert.ok(!/"alice"|"bob"/.test(file), 'the DMS user names are sealed too');
    const parsed = JSON.parse(file) as { accounts: { user: string }[] };
    assert.deepEqual(parsed.accounts.map((a) => a.user), ['ann', 'ben']);
  });

  test('a password changed on the DMS refuses the mapped user (401 from the DMS) until an admin sets it again', async () => {
    const old = dav.users.carol;
    assert.equal((await mapTo('cid', 'carol', old)).status, 201);
    const pdf = makePdf({ text: () => 'carol file' });
    assert.equal((await putPdf(as('cid'), 'home/carol/c.pdf', pdf)).status, 201);
    await dav.setPassword('carol', 'carol-new-password-2');
    const refused = await call(server, 'GET', '/documents/home/carol/c.pdf', { auth: as('cid') });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().code, 'DMS_FORBIDDEN');
    assert.equal(refused.json().dmsStatus, 401);
    assert.equal((await mapTo('cid', 'carol', dav.users.carol)).status, 200);
    const back = await call(server, 'GET', '/documents/home/carol/c.pdf', { auth: as('cid') });
    assert.equal(back.status, 200);
    assert.equal(sha256(back.bytes), sha256(pdf));
  });

  test('removing the account, or the user, ends the mapping; a user created again under the name has none', async () => {
    assert.equal((await call(server, 'DELETE', '/users/cid/dms-account')).status, 204);
    const gone = await call(server, 'GET', '/documents/home/carol/c.pdf', { auth: as('cid') });
    assert.equal(gone.status, 403);
    assert.equal(gone.json().dmsStatus, null);
    const twice = await call(server, 'DELETE', '/users/cid/dms-account');
    assert.equal(twice.status, 404);
    assert.equal(twice.json().code, 'DMS_ACCOUNT_NOT_FOUND');

    assert.equal((await mapTo('cid', 'carol', dav.users.carol)).status, 201);
    assert.equal((await call(server, 'DELETE', '/users/cid')).status, 204);
    assert.equal((await call(server, 'POST', '/users', { body: { username: 'cid', password: PASSWORDS.cid, rights: ['GET'] } })).status, 201);
    assert.equal((await call(server, 'GET', '/users/cid/dms-account')).status, 404, 'the new cid does not inherit the account');
    assert.equal((await call(server, 'GET', '/documents/home/carol/c.pdf', { auth: as('cid') })).json().dmsStatus, null);
    // The removal reached the file (it is written after the user is removed).
    for (let i = 0; i < 50 && (await readFile(accountsFile(), 'utf8')).includes('"cid"'); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(!(await readFile(accountsFile(), 'utf8')).includes('"cid"'));
  });

  test('only admins see or change the mapping', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await call(server, method, '/users/ann/dms-account', { auth: as('ann'), ...(method === 'PUT' ? { body: { username: 'alice', password: 'x' } } : {}) });
      assert.equal(reply.status, 403, method);
      assert.equal(reply.json().code, 'FORBIDDEN');
    }
  });
});

describe('the users command line', () => {
  test('removing a user with the CLI removes their DMS account from the file, and the running service forgets it', async () => {
    assert.ok((await readFile(accountsFile(), 'utf8')).includes('"ben"'));
    const removed = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'remove', 'ben'], { env: { ...process.env, PDFSERVICE_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    assert.equal(removed.code, 0);
    assert.match(removed.stdout, /removed ben and their DMS account/);
    assert.ok(!(await readFile(accountsFile(), 'utf8')).includes('"ben"'));
    // The service rereads users and accounts within a second; a ben created again has no account.
    let made = 0;
    for (let i = 0; i < 20 && made !== 201; i++) {
      await new Promise((r) => setTimeout(r, 250));
      made = (await call(server, 'POST', '/users', { body: { username: 'ben', password: PASSWORDS.ben, rights: ['GET'] } })).status;
    }
    assert.equal(made, 201);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal((await call(server, 'GET', '/users/ben/dms-account')).json().code, 'DMS_ACCOUNT_NOT_FOUND');
    assert.equal((await call(server, 'GET', '/documents/shared', { auth: as('ben') })).json().dmsStatus, null);
    // ann's account is untouched.
    assert.equal((await call(server, 'GET', '/users/ann/dms-account')).json().username, 'alice');
  });
});

describe('the key', () => {
  test('a restart with the same key keeps the accounts; another key, or a changed or moved entry, stops the start', async () => {
    assert.equal((await mapTo('ben', 'bob', dav.users.bob)).status, 201, 'two accounts, to swap below');
    await server.stop();
    server = await startServer({ dataDir, env: mappedEnv(KEY.toString('hex')) });
    const read = await call(server, 'GET', '/documents/home/alice/mapped.pdf', { auth: as('ann') });
    assert.equal(read.status, 200, 'the same key in hex opens the accounts');
    await server.stop();

    await assert.rejects(startServer({ dataDir, env: mappedEnv(randomBytes(32).toString('base64')) }), /dms-accounts\.json was written with another key/);
    await assert.rejects(startServer({ dataDir, env: { ...mappedEnv(), PDFSERVICE_SECRETS_KEY: 'short' } }), /PDFSERVICE_SECRETS_KEY is not a 32-byte key/);
    const noKey: Record<string, string> = { ...mappedEnv(), PDFSERVICE_SECRETS_KEY: '' };
    await assert.rejects(startServer({ dataDir, env: noKey }), /PDFSERVICE_WEBDAV_AUTH=mapped needs PDFSERVICE_SECRETS_KEY or/);

    const original = await readFile(accountsFile(), 'utf8');
    const data = JSON.parse(original) as { accounts: { user: string; sealed: string }[] };
    // Swapped: ann's sealed account under ben's name does not open (the user name is authenticated with it).
    const swapped = structuredClone(data);
    [swapped.accounts[0]!.sealed, swapped.accounts[1]!.sealed] = [data.accounts[1]!.sealed, data.accounts[0]!.sealed];
    await writeFile(accountsFile(), JSON.stringify(swapped));
    await assert.rejects(startServer({ dataDir, env: mappedEnv() }), /the account of "ann" does not open/);
    // One byte changed.
    const changed = structuredClone(data);
    const sealed = Buffer.from(data.accounts[0]!.sealed, 'base64');
    sealed[20] ^= 1;
    changed.accounts[0]!.sealed = sealed.toString('base64');
    await writeFile(accountsFile(), JSON.stringify(changed));
    await assert.rejects(startServer({ dataDir, env: mappedEnv() }), /does not open with the key/);

    // From a key file, over the original file: works again.
    await writeFile(accountsFile(), original);
    const keyFile = path.join(dataDir, 'accounts.key');
    await writeFile(keyFile, `${KEY.toString('base64')}\n`, { mode: 0o600 });
    server = await startServer({ dataDir, env: { ...mappedEnv(''), PDFSERVICE_SECRETS_KEY_FILE: keyFile } });
    assert.equal((await call(server, 'GET', '/documents/home/alice/mapped.pdf', { auth: as('ann') })).status, 200);
  });
});

describe('other modes', () => {
  test('the dms-account routes answer 409 DMS_ACCOUNTS_NOT_USED when the service does not map accounts', async () => {
    const local = await startServer();
    try {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const reply = await call(local, method, '/users/admin/dms-account', method === 'PUT' ? { body: { username: 'alice', password: 'whatever' } } : {});
        assert.equal(reply.status, 409, `${method}: ${reply.text}`);
        assert.equal(reply.json().code, 'DMS_ACCOUNTS_NOT_USED');
      }
    } finally {
      await local.stop();
    }
  });
});
