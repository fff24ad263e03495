import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { call, leaksInternals, type Reply } from '../helpers/http.js';
import { ADMIN, basicAuth, startServer, type TestServer } from '../helpers/server.js';

const CLI = fileURLToPath(new URL('../../src/cli/users.js', import.meta.url));

function assertProblem(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json().code, code, reply.text);
}

describe('user management over HTTP', () => {
  let server: TestServer;
  const errors: string[] = [];
  const seen = async (reply: Promise<Reply>) => {
    const r = await reply;
    if (r.status >= 400) errors.push(r.text);
    return r;
  };
  before(async () => {
    server = await startServer({ env: { PDFSERVICE_LOGIN_MAX_FAILURES: '100' } });
  });
  after(async () => {
    await server.stop();
  });

  test('create, read, list, change and delete a user', async () => {
    const created = await call(server, 'POST', '/users', { body: { username: 'alice@example.org', password: 'alice-password', rights: ['GET', 'PUT', 'GET'] } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('location'), '/pdfservice/v1/users/alice%40example.org');
    const model = created.json();
    assert.deepEqual(Object.keys(model).sort(), ['createdAt', 'rights', 'updatedAt', 'username']);
    assert.equal(model.username, 'alice@example.org');
    assert.deepEqual(model.rights, ['GET', 'PUT'], 'duplicates removed');

    const one = await call(server, 'GET', created.headers.get('location')!.replace('/pdfservice/v1', ''));
    assert.equal(one.status, 200);
    assert.deepEqual(one.json(), model);

    const list = await call(server, 'GET', '/users');
    assert.equal(list.status, 200);
    assert.deepEqual(list.json().users.map((u: { username: string }) => u.username), ['admin', 'alice@example.org']);

    const patched = await call(server, 'PATCH', '/users/alice@example.org', { body: { rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json().rights, ['GET', 'POST', 'PUT', 'DELETE']);
    assert.ok(Date.parse(patched.json().updatedAt) >= Date.parse(model.updatedAt));

    assert.equal((await call(server, 'POST', '/sessions', { auth: false, body: { username: 'alice@example.org', password: 'alice-password' } })).status, 201);

    const removed = await call(server, 'DELETE', '/users/alice@example.org');
    assert.equal(removed.status, 204);
    assertProblem(await seen(call(server, 'GET', '/users/alice@example.org')), 404, 'USER_NOT_FOUND');
    assertProblem(await seen(call(server, 'DELETE', '/users/alice@example.org')), 404, 'USER_NOT_FOUND');
    assertProblem(await seen(call(server, 'PATCH', '/users/alice@example.org', { body: { rights: ['GET'] } })), 404, 'USER_NOT_FOUND');
    assertProblem(
      await seen(call(server, 'POST', '/sessions', { auth: false, body: { username: 'alice@example.org', password: 'alice-password' } })),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  test('XML bodies and answers: <User>, <Users> with <User> items, <rights><right>', async () => {
    const created = await call(server, 'POST', '/users', {
      body: '<User><username>xml-user</username><password>xml-password</password><rights><right>GET</right><right>POST</right></rights></User>',
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.headers.get('content-type')!, /^application\/xml/);
    assert.match(created.text, /<User>\s*<username>xml-user<\/username>\s*<rights>\s*<right>GET<\/right>\s*<right>POST<\/right>\s*<\/rights>/);

    const list = await call(server, 'GET', '/users', { headers: { accept: 'text/xml' } });
    assert.equal(list.status, 200);
    assert.match(list.headers.get('content-type')!, /^text\/xml/);
    assert.match(list.text, /^<\?xml[^>]*>\s*<Users>\s*<User>\s*<username>admin<\/username>/);
    assert.equal(list.text.match(/<User>/g)?.length, 2);

    const patched = await call(server, 'PATCH', '/users/xml-user', {
      body: '<User><rights><right>DELETE</right></rights></User>',
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.match(patched.text, /<rights>\s*<right>DELETE<\/right>\s*<\/rights>/);

    const wrongRoot = await seen(call(server, 'POST', '/users', {
      body: '<Person><username>p</username><password>p-password</password><rights><right>GET</right></rights></Person>',
      headers: { 'content-type': 'application/xml' },
    }));
    assertProblem(wrongRoot, 400, 'VALIDATION_FAILED');
  });

  test('invalid input is 400 VALIDATION_FAILED; an existing name is 409 ALREADY_EXISTS', async () => {
    const bad = [
      { username: '.hidden', password: 'long-enough', rights: ['GET'] },
      { username: 'has space', password: 'long-enough', rights: ['GET'] },
      { username: 'x'.repeat(65), password: 'long-enough', rights: ['GET'] },
      { username: '', password: 'long-enough', rights: ['GET'] },
      { username: 'short', password: 'seven77', rights: ['GET'] },
      { username: 'long', password: 'p'.repeat(1025), rights: ['GET'] },
      { username: 'norights', password: 'long-enough', rights: [] },
      { username: 'oddright', password: 'long-enough', rights: ['PATCH'] },
      { username: 'extra', password: 'long-enough', rights: ['GET'], admin: true },
      { username: 'missing', password: 'long-enough' },
      // XML 1.0 cannot carry these, so JSON refuses them too (both forms accept the same values).
      { username: 'control', password: 'long\u0001enough', rights: ['GET'] },
    ];
    for (const body of bad) assertProblem(await seen(call(server, 'POST', '/users', { body })), 400, 'VALIDATION_FAILED');
    assertProblem(await seen(call(server, 'POST', '/users', { body: { username: 'admin', password: 'long-enough', rights: ['GET'] } })), 409, 'ALREADY_EXISTS');
    const viaXml = await seen(call(server, 'POST', '/users', {
      body: '<User><username>control</username><password>&#x1f;&#x1f;&#x1f;&#x1f;&#x1f;&#x1f;&#x1f;&#x1f;</password><rights><right>GET</right></rights></User>',
      headers: { 'content-type': 'application/xml' },
    }));
    assertProblem(viaXml, 400, 'VALIDATION_FAILED');
    const tabbed = await call(server, 'POST', '/users', { body: { username: 'tabbed', password: 'long\tenough\n', rights: ['GET'] } });
    assert.equal(tabbed.status, 201, tabbed.text);
    assert.equal((await call(server, 'DELETE', '/users/tabbed')).status, 204);
    assertProblem(await seen(call(server, 'PATCH', '/users/admin', { body: {} })), 400, 'VALIDATION_FAILED');
    assertProblem(await seen(call(server, 'PATCH', '/users/admin', { body: { password: 'short' } })), 400, 'VALIDATION_FAILED');
  });

  test('answers never contain a password or its hash', async () => {
    await call(server, 'POST', '/users', { body: { username: 'secretive', password: 'very-secret-password', rights: ['GET'] } });
    for (const accept of ['application/json', 'application/xml']) {
      const list = await call(server, 'GET', '/users', { headers: { accept } });
      assert.doesNotMatch(list.text, /password|scrypt|very-secret/i);
      const one = await call(server, 'GET', '/users/secretive', { headers: { accept } });
      assert.doesNotMatch(one.text, /password|scrypt|very-secret/i);
    }
  });

  test('users.json holds hashes only and is readable by the owner only', async () => {
    const file = path.join(server.dataDir, 'state', 'users.json');
    const text = await readFile(file, 'utf8');
    for (const secret of [ADMIN.password, 'very-secret-password', 'xml-password', 'alice-password']) assert.ok(!text.includes(secret));
    const stored = JSON.parse(text) as { users: { username: string; passwordHash: string }[] };
    for (const u of stored.users) assert.match(u.passwordHash, /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  test('PDFSERVICE_PASSWORD_HASH_COST is log2 of scrypt\'s N for new hashes, 15 by default; a stored hash keeps its own', async () => {
    assert.equal(loadConfig({}).passwordHashCost, 15);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-hash-cost-'));
    const costOf = async (username: string) => {
      const stored = JSON.parse(await readFile(path.join(dataDir, 'state', 'users.json'), 'utf8')) as { users: { username: string; passwordHash: string }[] };
      return stored.users.find((u) => u.username === username)!.passwordHash.split('$').slice(1, 4).join(' ');
    };
    try {
      let costly = await startServer({ dataDir, env: { PDFSERVICE_PASSWORD_HASH_COST: '15' } });
      try {
        assert.equal((await call(costly, 'POST', '/users', { body: { username: 'costly', password: 'costly-password', rights: ['GET'] } })).status, 201);
        assert.equal(await costOf(ADMIN.username), '32768 8 1');
        assert.equal(await costOf('costly'), '32768 8 1');
      } finally {
        await costly.stop();
      }
      costly = await startServer({ dataDir, env: { PDFSERVICE_PASSWORD_HASH_COST: '10' } });
      try {
        assert.equal((await call(costly, 'GET', '/sessions/current', { auth: basicAuth('costly', 'costly-password') })).status, 200);
        assert.equal((await call(costly, 'PATCH', '/users/costly', { body: { password: 'cheaper-password' } })).status, 200);
        assert.equal(await costOf('costly'), '1024 8 1');
        assert.equal(await costOf(ADMIN.username), '32768 8 1');
        assert.equal((await call(costly, 'GET', '/sessions/current', { auth: basicAuth('costly', 'cheaper-password') })).status, 200);
      } finally {
        await costly.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('only admins manage users: others get 403 FORBIDDEN', async () => {
    await call(server, 'POST', '/users', { body: { username: 'worker', password: 'worker-password', rights: ['GET', 'POST', 'PUT', 'DELETE'] } });
    const worker = basicAuth('worker', 'worker-password');
    const attempts: [string, string, object?][] = [
      ['GET', '/users'],
      ['POST', '/users', { username: 'sneaky', password: 'sneaky-password', rights: ['admin'] }],
      ['GET', '/users/admin'],
      ['PATCH', '/users/worker', { rights: ['admin'] }],
      ['DELETE', '/users/admin'],
    ];
    for (const [method, url, body] of attempts) {
      const reply = await seen(call(server, method, url, { auth: worker, ...(body ? { body } : {}) }));
      assertProblem(reply, 403, 'FORBIDDEN');
      assert.match(reply.json().detail, /admin/);
    }
    assertProblem(await seen(call(server, 'GET', '/users', { auth: false })), 401, 'AUTHENTICATION_REQUIRED');
  });

  test('an admin cannot delete themself or drop their own admin right', async () => {
    const self = await seen(call(server, 'DELETE', '/users/admin'));
    assertProblem(self, 400, 'BAD_REQUEST');
    assert.match(self.json().detail, /your own/);
    const demote = await seen(call(server, 'PATCH', '/users/admin', { body: { rights: ['GET', 'POST', 'PUT', 'DELETE'] } }));
    assertProblem(demote, 400, 'BAD_REQUEST');
    // Rights that keep admin are fine.
    assert.equal((await call(server, 'PATCH', '/users/admin', { body: { rights: ['admin', 'GET', 'POST', 'PUT', 'DELETE'] } })).status, 200);
  });

  test('another admin can remove an admin, but never the last one', async () => {
    await call(server, 'POST', '/users', { body: { username: 'boss', password: 'boss-password', rights: ['admin'] } });
    await call(server, 'POST', '/users', { body: { username: 'deputy', password: 'deputy-password', rights: ['admin', 'GET'] } });
    const boss = basicAuth('boss', 'boss-password');
    assert.equal((await call(server, 'PATCH', '/users/deputy', { auth: boss, body: { rights: ['GET'] } })).status, 200);
    assert.equal((await call(server, 'DELETE', '/users/deputy', { auth: boss })).status, 204);
    assert.equal((await call(server, 'DELETE', '/users/boss')).status, 204);
    assertProblem(await seen(call(server, 'GET', '/users', { auth: boss })), 401, 'INVALID_CREDENTIALS');
  });

  test('Accept image/png on a user model is 406', async () => {
    assertProblem(await seen(call(server, 'GET', '/users', { headers: { accept: 'image/png' } })), 406, 'NOT_ACCEPTABLE');
  });

  test('no error answer carries a stack trace or a server path', () => {
    assert.ok(errors.length > 10);
    for (const text of errors) assert.ok(!leaksInternals(text, server.dataDir), text);
  });
});

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(server: TestServer, args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, PDFSERVICE_DATA_DIR: server.dataDir, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Logs in, retrying for a few seconds: the server notices the CLI's changes within about a second. */
async function eventually(server: TestServer, username: string, password: string, status: number): Promise<void> {
  let last = 0;
  for (let i = 0; i < 15; i++) {
    last = (await call(server, 'POST', '/sessions', { auth: false, body: { username, password } })).status;
    if (last === status) return;
    await sleep(250);
  }
  assert.equal(last, status, `login of ${username}`);
}

describe('the users command line', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { PDFSERVICE_LOGIN_MAX_FAILURES: '100' } });
  });
  after(async () => {
    await server.stop();
  });

  test('add with --password-env: the running server lets the new user log in', async () => {
    const added = await cli(server, ['add', 'carol', '--rights', 'GET,POST', '--password-env', 'CAROL_PW'], { env: { CAROL_PW: 'carol-password' } });
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /added carol/);
    await eventually(server, 'carol', 'carol-password', 201);
    const me = await call(server, 'GET', '/sessions/current', { auth: basicAuth('carol', 'carol-password') });
    assert.deepEqual(me.json().rights, ['GET', 'POST']);
  });

  test('add with the password on standard input; list shows the users', async () => {
    const added = await cli(server, ['add', 'dave', '--rights', 'GET'], { input: 'dave-password\n' });
    assert.equal(added.code, 0, added.stderr);
    await eventually(server, 'dave', 'dave-password', 201);
    const list = await cli(server, ['list']);
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^admin\tGET,POST,PUT,DELETE,admin\t/m);
    assert.match(list.stdout, /^dave\tGET\t/m);
    const json = JSON.parse((await cli(server, ['list', '--json'])).stdout);
    assert.ok(json.users.some((u: { username: string }) => u.username === 'carol'));
    assert.doesNotMatch(JSON.stringify(json), /scrypt|password/);
  });

  test('set-password, set-rights and remove reach the running server', async () => {
    const changed = await cli(server, ['set-password', 'dave'], { input: 'dave-new-password\n' });
    assert.equal(changed.code, 0, changed.stderr);
    await eventually(server, 'dave', 'dave-new-password', 201);
    assert.equal((await call(server, 'POST', '/sessions', { auth: false, body: { username: 'dave', password: 'dave-password' } })).status, 401);

    const rights = await cli(server, ['set-rights', 'dave', '--rights', 'GET,DELETE,GET']);
    assert.equal(rights.code, 0, rights.stderr);
    assert.match(rights.stdout, /GET,DELETE/);
    let seenRights: string[] = [];
    for (let i = 0; i < 15 && seenRights.join() !== 'GET,DELETE'; i++) {
      if (i > 0) await sleep(250);
      seenRights = (await call(server, 'GET', '/users/dave')).json().rights;
    }
    assert.deepEqual(seenRights, ['GET', 'DELETE']);

    const removed = await cli(server, ['remove', 'dave']);
    assert.equal(removed.code, 0, removed.stderr);
    await eventually(server, 'dave', 'dave-new-password', 401);
  });

  test('refuses bad input and the last admin', async () => {
    const lastAdmin = await cli(server, ['remove', 'admin']);
    assert.equal(lastAdmin.code, 1);
    assert.match(lastAdmin.stderr, /last user with the admin right/);
    const demote = await cli(server, ['set-rights', 'admin', '--rights', 'GET']);
    assert.equal(demote.code, 1);
    assert.match(demote.stderr, /last user with the admin right/);

    const short = await cli(server, ['add', 'erin', '--rights', 'GET'], { input: 'short\n' });
    assert.equal(short.code, 1);
    assert.match(short.stderr, /password/i);
    const noRights = await cli(server, ['add', 'erin'], { input: 'long-enough\n' });
    assert.equal(noRights.code, 2);
    const badRight = await cli(server, ['add', 'erin', '--rights', 'GET,FLY'], { input: 'long-enough\n' });
    assert.equal(badRight.code, 1);
    const exists = await cli(server, ['add', 'admin', '--rights', 'GET'], { input: 'long-enough\n' });
    assert.equal(exists.code, 1);
    assert.match(exists.stderr, /exists/);
    const unknown = await cli(server, ['fly']);
    assert.equal(unknown.code, 2);
    const missing = await cli(server, ['remove', 'nobody']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No user/);

    // The admin still works, and users.json holds no plain password.
    assert.equal((await call(server, 'GET', '/users')).status, 200);
    const text = await readFile(path.join(server.dataDir, 'state', 'users.json'), 'utf8');
    for (const secret of [ADMIN.password, 'carol-password', 'dave-password', 'dave-new-password']) assert.ok(!text.includes(secret));
  });
});

describe('the first admin', () => {
  test('without PDFSERVICE_ADMIN_PASSWORD a password is generated and printed once; later starts keep the stored one', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-users-'));
    try {
      const first = await startServer({ dataDir, env: { PDFSERVICE_ADMIN_USER: 'root', PDFSERVICE_ADMIN_PASSWORD: '' } });
      let generated: string;
      try {
        const line = first.output.findIndex((l) => l.includes('generated password'));
        assert.ok(line >= 0, first.output.join('\n'));
        generated = first.output.slice(line + 1).find((l) => l.trim() !== '')!.trim();
        assert.match(generated, /^[A-Za-z0-9_-]{24}$/);
        const me = await call(first, 'GET', '/sessions/current', { auth: basicAuth('root', generated) });
        assert.equal(me.status, 200, me.text);
        assert.deepEqual(me.json().rights, ['GET', 'POST', 'PUT', 'DELETE', 'admin']);
      } finally {
        await first.stop();
      }

      // Users exist now: a password in the environment is not applied, and nothing is printed.
      const second = await startServer({ dataDir, env: { PDFSERVICE_ADMIN_USER: 'root', PDFSERVICE_ADMIN_PASSWORD: 'another-password' } });
      try {
        assert.ok(!second.output.some((l) => l.includes('generated password')));
        assert.equal((await call(second, 'GET', '/sessions/current', { auth: basicAuth('root', 'another-password') })).status, 401);
        assert.equal((await call(second, 'GET', '/sessions/current', { auth: basicAuth('root', generated) })).status, 200);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
