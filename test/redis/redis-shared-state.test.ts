/**
 * Users, API tokens and optimize profiles shared through Redis (PDFSERVICE_REDIS_URL), against a real Redis
 * (test/helpers/redis-server.ts): the stores on their own (the profile store contract, transactions from two
 * connections at once, a Redis that cannot be reached), and two service instances A and B with separate data
 * folders on one Redis and prefix, as on two machines behind a load balancer, which share nothing else.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RedisTokenStore } from '../../src/auth/redis-tokens.js';
import { RedisUserStore } from '../../src/auth/redis-users.js';
import type { Principal } from '../../src/auth/types.js';
import { UserService } from '../../src/auth/users.js';
import { ServiceError } from '../../src/errors.js';
import { RedisProfileStore } from '../../src/operations/optimize/redis-store.js';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { serializePdf } from '../helpers/pdf.js';
import { fullSettings, profileStoreContract } from '../helpers/profile-store-contract.js';
import { redisConnectionsForSuite, redisServerForSuite, startRedisServer } from '../helpers/redis-server.js';
import { ADMIN, basicAuth, startServer, type TestServer } from '../helpers/server.js';

const USERS_CLI = fileURLToPath(new URL('../../src/cli/users.js', import.meta.url));

const redis = redisServerForSuite();
const { connect, freshPrefix } = redisConnectionsForSuite(redis, 's');

function isCode(code: string) {
  return (err: unknown) => {
    assert.ok(err instanceof ServiceError, String(err));
    assert.equal(err.code, code, err.detail);
    return true;
  };
}

profileStoreContract('RedisProfileStore', async () => {
  const connection = await connect(freshPrefix());
  return { store: new RedisProfileStore(connection), reopen: async () => new RedisProfileStore(connection), close: async () => {} };
});

describe('the Redis stores on their own', () => {
  test('user transactions through two connections at once all apply: none is lost', async () => {
    const prefix = freshPrefix();
    const [one, two] = [new UserService(new RedisUserStore(await connect(prefix))), new UserService(new RedisUserStore(await connect(prefix)))];
    const names = Array.from({ length: 8 }, (_, i) => `user-${i}`);
    await Promise.all(names.map((username, i) => (i % 2 === 0 ? one : two).create({ username, password: 'password-of-a-user', rights: ['GET'] })));
    assert.deepEqual((await one.list()).map((u) => u.username), names);
    assert.deepEqual((await two.list()).map((u) => u.username), names);
  });

  test('the last-admin rule holds across connections: two admins each removing the other at once leaves one', async () => {
    const prefix = freshPrefix();
    const one = new UserService(new RedisUserStore(await connect(prefix)));
    const two = new UserService(new RedisUserStore(await connect(prefix)));
    for (const username of ['ada', 'bob']) await one.create({ username, password: 'password-of-admin', rights: ['GET', 'admin'] });
    const results = await Promise.allSettled([one.remove('ada'), two.remove('bob')]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one removal applied');
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    isCode('BAD_REQUEST')(refused.reason);
    assert.equal((await one.list()).filter((u) => u.rights.includes('admin')).length, 1);
  });

  test('the first user is made once however many start at once', async () => {
    const prefix = freshPrefix();
    const services = await Promise.all([1, 2, 3].map(async () => new UserService(new RedisUserStore(await connect(prefix)))));
    const created = await Promise.all(services.map((s, i) => s.createFirst({ username: `first-${i}`, password: 'first-password', rights: ['admin'] })));
    assert.equal(created.filter(Boolean).length, 1);
    assert.equal((await services[0]!.list()).length, 1);
    assert.equal(await services[0]!.createFirst({ username: 'later', password: 'first-password', rights: ['admin'] }), false);
  });

  test('a profile put through two connections at once: one creates it, both keep its one creation time', async () => {
    const prefix = freshPrefix();
    const stores = [new RedisProfileStore(await connect(prefix)), new RedisProfileStore(await connect(prefix))];
    const results = await Promise.all(stores.map((store, i) => store.put('shared', fullSettings({ discardAnnotations: i === 0 }))));
    assert.deepEqual(results.map((r) => r.created).sort(), [false, true]);
    assert.equal(results[0]!.record.createdAt, results[1]!.record.createdAt);
    const kept = await stores[1]!.get('shared');
    assert.ok(results.some((r) => JSON.stringify(r.record) === JSON.stringify(kept)), 'the one stored is one of the two written whole');
  });

  test('tokens: Redis holds neither the secret nor the token; a removed user\'s tokens go', async () => {
    const prefix = freshPrefix();
    const connection = await connect(prefix);
    const users = new RedisUserStore(connection);
    await new UserService(users).create({ username: 'tina', password: 'tina-password', rights: ['GET', 'PUT'] });
    const tokens = new RedisTokenStore(connection, users);
    const owner: Principal = { username: 'tina', rights: ['GET', 'PUT'], via: 'session' };
    const { token, view } = await tokens.create(owner, { name: 'ci', rights: ['GET'] });
    const secret = token.split('_')[2]!;
    const keys = await connection.client.keys(`${prefix}*`);
    for (const key of keys) {
      assert.ok(!key.includes(secret), key);
      const type = await connection.client.type(key);
      const text = type === 'hash' ? JSON.stringify(await connection.client.hgetall(key)) : '';
      assert.ok(!text.includes(secret), `${key} holds no secret`);
    }
    assert.ok(keys.includes(`${prefix}user-tokens:tina`));
    const principal = await tokens.authenticate(token);
    assert.deepEqual(principal.rights, ['GET']);
    assert.deepEqual((await tokens.list('tina')).map((t) => t.id), [view.id]);
    // A forged token with the right id and another secret is refused.
    await assert.rejects(tokens.authenticate(`pdfs_${view.id}_${randomBytes(32).toString('base64url')}`), isCode('INVALID_CREDENTIALS'));
    await tokens.close(); // writes the last use
    assert.ok((await tokens.get('tina', view.id)).lastUsedAt instanceof Date);
    await tokens.removeUser('tina');
    assert.deepEqual(await connection.client.keys(`${prefix}*token*`), []);
    await assert.rejects(tokens.authenticate(token), isCode('INVALID_CREDENTIALS'));
  });

  test('a Redis that cannot be reached is 503 REDIS_UNAVAILABLE from each store, not another error', async () => {
    const down = await startRedisServer();
    try {
      const connection = await connect(freshPrefix(), down.url);
      const users = new RedisUserStore(connection);
      const service = new UserService(users);
      await service.create({ username: 'uma', password: 'uma-password', rights: ['GET'] });
      const tokens = new RedisTokenStore(connection, users);
      const { token } = await tokens.create({ username: 'uma', rights: ['GET'], via: 'basic' }, { name: 't' });
      const profiles = new RedisProfileStore(connection);
      await down.stop();
      await assert.rejects(users.find('uma'), isCode('REDIS_UNAVAILABLE'));
      await assert.rejects(service.create({ username: 'ulf', password: 'ulf-password', rights: ['GET'] }), isCode('REDIS_UNAVAILABLE'));
      await assert.rejects(tokens.authenticate(token), isCode('REDIS_UNAVAILABLE'));
      await assert.rejects(tokens.list('uma'), isCode('REDIS_UNAVAILABLE'));
      await assert.rejects(profiles.put('p', fullSettings()), isCode('REDIS_UNAVAILABLE'));
      await assert.rejects(profiles.list(), isCode('REDIS_UNAVAILABLE'));
    } finally {
      await down.dispose();
    }
  });
});

const login = (server: TestServer, username: string, password: string) => call(server, 'POST', '/sessions', { auth: false, body: { username, password } });
const bearer = (token: string) => `Bearer ${token}`;
const cookieOf = (reply: Reply) => /SESSIONID=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')![1]!;

describe('two instances with separate data folders on one Redis', () => {
  const PREFIX = freshPrefix();
  const env = { PDFSERVICE_REDIS_URL: '', PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem' };
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    env.PDFSERVICE_REDIS_URL = redis.url;
    // Started at once: both find Redis without users, one creates the admin.
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  test('both started at once: one admin, whose password works on both', async () => {
    const listed = await call(a, 'GET', '/users');
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual((listed.json().users as { username: string }[]).map((u) => u.username), [ADMIN.username]);
    for (const server of [a, b]) assert.equal((await login(server, ADMIN.username, ADMIN.password)).status, 201);
  });

  test('a user created on A logs in on B at once; a password changed on A refuses the old one on B', async () => {
    const made = await call(a, 'POST', '/users', { body: { username: 'erin', password: 'erin-password-1', rights: ['GET', 'POST'] } });
    assert.equal(made.status, 201, made.text);
    const session = await login(b, 'erin', 'erin-password-1');
    assert.equal(session.status, 201, session.text);
    assert.equal((await call(b, 'GET', '/sessions/current', { auth: basicAuth('erin', 'erin-password-1') })).status, 200);

    assert.equal((await call(a, 'PATCH', '/users/erin', { body: { password: 'erin-password-2' } })).status, 200);
    assert.equal((await login(b, 'erin', 'erin-password-1')).status, 401);
    // Basic was verified on B a moment ago (cached for a minute): the changed password misses the cache.
    assert.equal((await call(b, 'GET', '/sessions/current', { auth: basicAuth('erin', 'erin-password-1') })).status, 401);
    assert.equal((await call(b, 'GET', '/sessions/current', { auth: false, headers: { cookie: `SESSIONID=${cookieOf(session)}` } })).status, 401, 'the session ended');
    assert.equal((await login(b, 'erin', 'erin-password-2')).status, 201);
  });

  test('rights changed on A apply on B at once', async () => {
    assert.equal((await call(a, 'POST', '/users', { body: { username: 'fred', password: 'fred-password-1', rights: ['GET'] } })).status, 201);
    const fred = basicAuth('fred', 'fred-password-1');
    assert.equal((await call(b, 'GET', '/users', { auth: fred })).status, 403);
    assert.equal((await call(a, 'PATCH', '/users/fred', { body: { rights: ['GET', 'admin'] } })).status, 200);
    assert.equal((await call(b, 'GET', '/users', { auth: fred })).status, 200);
  });

  test('concurrent creates of one user on A and B: one 201, one 409', async () => {
    const body = { username: 'gina', password: 'gina-password-1', rights: ['GET'] };
    const replies = await Promise.all([a, b].map((server) => call(server, 'POST', '/users', { body })));
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 409], replies.map((r) => r.text).join(' '));
    assert.equal(replies.find((r) => r.status === 409)!.json().code, 'ALREADY_EXISTS');
  });

  test('a token created on A authenticates on B; revoked on B it is refused on A at once', async () => {
    const made = await call(a, 'POST', '/tokens', { body: { name: 'shared' } });
    assert.equal(made.status, 201, made.text);
    const { token, id } = made.json() as { token: string; id: string };
    const onB = await call(b, 'GET', '/sessions/current', { auth: bearer(token) });
    assert.equal(onB.status, 200, onB.text);
    assert.equal(onB.json().via, 'token');
    assert.deepEqual(((await call(b, 'GET', '/tokens')).json().tokens as { id: string }[]).map((t) => t.id).includes(id), true, 'listed on B');
    assert.equal((await call(b, 'DELETE', `/tokens/${id}`)).status, 204);
    const refused = await call(a, 'GET', '/sessions/current', { auth: bearer(token) });
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.json().code, 'INVALID_CREDENTIALS');
  });

  test('a user removed on B: their token and session end on A', async () => {
    assert.equal((await call(a, 'POST', '/users', { body: { username: 'hank', password: 'hank-password-1', rights: ['GET'] } })).status, 201);
    const made = await call(a, 'POST', '/tokens', { auth: basicAuth('hank', 'hank-password-1'), body: { name: 'hank-token' } });
    assert.equal(made.status, 201, made.text);
    const session = cookieOf(await login(a, 'hank', 'hank-password-1'));
    assert.equal((await call(b, 'DELETE', '/users/hank')).status, 204);
    assert.equal((await call(a, 'GET', '/sessions/current', { auth: bearer(made.json().token) })).status, 401);
    assert.equal((await call(a, 'GET', '/sessions/current', { auth: false, headers: { cookie: `SESSIONID=${session}` } })).status, 401);
  });

  test('a profile created on A is listed on B and used by an optimize action there', async () => {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 4 0 R /Annots [5 0 R] >>',
      '<< /Length 0 >>\nstream\n\nendstream',
      '<< /Type /Annot /Subtype /Text /Rect [10 10 30 30] /Contents (A note) >>',
    ];
    assert.equal((await putPdf(b, 'shared/annots.pdf', serializePdf(objects, '/Root 1 0 R'))).status, 201);
    const before = await call(b, 'POST', '/documents/shared/annots.pdf', { body: { OptimizeAction: { profileName: 'no-notes', savePath: 'shared/out.pdf' } } });
    assert.equal(before.status, 404, before.text);
    assert.equal(before.json().code, 'PROFILE_NOT_FOUND');

    assert.equal((await call(a, 'PUT', '/optimize-profiles/no-notes', { body: { discardAnnotations: true } })).status, 201);
    const listed = await call(b, 'GET', '/optimize-profiles');
    assert.ok((listed.json().profiles as { name: string; builtIn: boolean }[]).some((p) => p.name === 'no-notes' && !p.builtIn), listed.text);
    const used = await call(b, 'POST', '/documents/shared/annots.pdf', { body: { OptimizeAction: { profileName: 'no-notes', savePath: 'shared/out.pdf' } } });
    assert.equal(used.status, 200, used.text);
    assert.equal(used.json().report.otherObjects.annotationsRemoved, 1, 'the profile\'s discardAnnotations applied');

    assert.equal((await call(b, 'DELETE', '/optimize-profiles/no-notes')).status, 204);
    assert.equal((await call(a, 'GET', '/optimize-profiles/no-notes')).status, 404);
  });

  test('the users CLI changes the users in Redis: a running instance sees them at once', () => {
    const cli = (args: string[], extra: Record<string, string> = {}) =>
      spawnSync(process.execPath, [USERS_CLI, ...args], {
        env: { ...process.env, ...env, PDFSERVICE_DATA_DIR: a.dataDir, NEW_PASSWORD: 'ivan-password-1', ...extra },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const added = cli(['add', 'ivan', '--rights', 'GET', '--password-env', 'NEW_PASSWORD']);
    assert.equal(added.status, 0, added.stderr);
    return (async () => {
      assert.equal((await login(b, 'ivan', 'ivan-password-1')).status, 201);
      const listed = cli(['list', '--json']);
      assert.equal(listed.status, 0, listed.stderr);
      assert.ok((JSON.parse(listed.stdout).users as { username: string }[]).some((u) => u.username === 'ivan'));
      const removed = cli(['remove', 'ivan']);
      assert.equal(removed.status, 0, removed.stderr);
      assert.equal((await login(b, 'ivan', 'ivan-password-1')).status, 401);
      // Under a prefix without users the CLI refuses rather than start a new, empty user table.
      const empty = cli(['list'], { PDFSERVICE_REDIS_PREFIX: freshPrefix() });
      assert.equal(empty.status, 1);
      assert.match(empty.stderr, /no users in Redis/);
    })();
  });

  test('Redis down: the users, tokens and profiles routes are 503 REDIS_UNAVAILABLE, not 500', async () => {
    const made = await call(a, 'POST', '/tokens', { body: { name: 'while-down' } });
    assert.equal(made.status, 201);
    await redis.stop();
    try {
      for (const [server, method, route, auth] of [
        [a, 'GET', '/users', undefined],
        [b, 'POST', '/users', undefined],
        [a, 'GET', '/tokens', bearer(made.json().token)],
        [b, 'GET', '/optimize-profiles', bearer(made.json().token)],
        [a, 'PUT', '/optimize-profiles/down', undefined],
      ] as const) {
        const reply = await call(server, method, route, { ...(auth ? { auth } : {}), ...(method === 'GET' ? {} : { body: method === 'POST' ? { username: 'x-user', password: 'x-password-1', rights: ['GET'] } : {} }) });
        assert.equal(reply.status, 503, `${method} ${route}: ${reply.text}`);
        assert.equal(reply.json().code, 'REDIS_UNAVAILABLE');
      }
    } finally {
      await redis.restart();
    }
  });
});

describe('a data folder\'s users, tokens and profiles are copied into a Redis without any', () => {
  test('what one instance had on its own is there when Redis is switched on', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-import-'));
    let server: TestServer | undefined;
    try {
      server = await startServer({ dataDir, env: { PDFSERVICE_WORKERS: '1' } });
      assert.equal((await call(server, 'POST', '/users', { body: { username: 'jo', password: 'jo-password-1', rights: ['GET'] } })).status, 201);
      const token = (await call(server, 'POST', '/tokens', { body: { name: 'kept' } })).json().token as string;
      assert.equal((await call(server, 'PUT', '/optimize-profiles/kept', { body: { discardAnnotations: true } })).status, 201);
      await server.stop();
      server = undefined;

      const prefix = freshPrefix();
      // Another admin password: the imported admin keeps theirs, no new admin is made.
      server = await startServer({ dataDir, env: { PDFSERVICE_WORKERS: '1', PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: prefix, PDFSERVICE_ADMIN_PASSWORD: 'another-admin-password' } });
      assert.equal((await login(server, 'jo', 'jo-password-1')).status, 201);
      assert.equal((await login(server, ADMIN.username, ADMIN.password)).status, 201);
      assert.equal((await call(server, 'GET', '/sessions/current', { auth: bearer(token) })).status, 200);
      assert.equal((await call(server, 'GET', '/optimize-profiles/kept')).status, 200);
      assert.ok(server.output.some((line) => line.includes('copied the data folder')), 'the copy is logged');
      const connection = await connect(prefix);
      assert.deepEqual((await new RedisUserStore(connection).list()).map((u) => u.username), [ADMIN.username, 'jo']);
    } finally {
      await server?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
