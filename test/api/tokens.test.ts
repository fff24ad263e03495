import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { call, putPdf, storedBytes, type Reply } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { basicAuth, serverForSuite, startServer } from '../helpers/server.js';

const bearer = (token: string) => `Bearer ${token}`;

function assertProblem(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json().code, code, reply.text);
}

describe('API tokens', () => {
  const server = serverForSuite();
  const alice = { username: 'alice', password: 'alice-password-1' };
  const bob = { username: 'bob', password: 'bob-password-12' };
  const asAlice = () => basicAuth(alice.username, alice.password);

  async function createUser(user: { username: string; password: string }, rights: string[]): Promise<void> {
    const reply = await call(server, 'POST', '/users', { body: { ...user, rights } });
    assert.equal(reply.status, 201, reply.text);
  }

  async function createToken(auth: string, body: object): Promise<{ token: string; id: string; reply: Reply }> {
    const reply = await call(server, 'POST', '/tokens', { auth, body });
    assert.equal(reply.status, 201, reply.text);
    const { token, id } = reply.json<{ token: string; id: string }>();
    return { token, id, reply };
  }

  test('a token is created once with its secret, listed without it, and acts as its user', async () => {
    await createUser(alice, ['GET', 'POST', 'PUT', 'DELETE']);
    const { token, id, reply } = await createToken(asAlice(), { name: 'nightly backup' });
    assert.match(token, /^pdfs_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    assert.equal(reply.headers.get('location'), `/pdfservice/v1/tokens/${id}`);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    const created = reply.json();
    assert.equal(created.name, 'nightly backup');
    assert.equal(created.rights, null);
    assert.equal(created.expiresAt, null);

    const list = await call(server, 'GET', '/tokens', { auth: asAlice() });
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(token.slice(-43)), 'the list holds no secret');
    const [listed] = list.json().tokens;
    assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'rights']);
    assert.equal(listed.id, id);
    assert.equal(listed.lastUsedAt, null);
    assert.equal((await call(server, 'GET', `/tokens/${id}`, { auth: asAlice() })).json().name, 'nightly backup');

    // The token works like alice's password: who am I, and a real upload read back.
    const me = await call(server, 'GET', '/sessions/current', { auth: bearer(token) });
    assert.deepEqual(me.json(), { username: 'alice', rights: ['GET', 'POST', 'PUT', 'DELETE'], via: 'token' });
    const pdf = makePdf({ text: () => 'uploaded with a token' });
    assert.equal((await call(server, 'PUT', '/documents/token-upload.pdf', { auth: bearer(token), body: pdf, headers: { 'content-type': 'application/pdf' } })).status, 201);
    assert.ok((await storedBytes(server, 'token-upload.pdf')).equals(pdf));
    const text = await call(server, 'GET', '/documents/token-upload.pdf', { auth: bearer(token) });
    assert.match(pdftotext(text.bytes), /uploaded with a token/);

    const used = (await call(server, 'GET', `/tokens/${id}`, { auth: asAlice() })).json();
    assert.ok(Date.parse(used.lastUsedAt) >= Date.parse(used.createdAt), 'the last use is recorded');
  });

  test('tokens are stored as hashes only, in a file only the service can read', async () => {
    const { token } = await createToken(asAlice(), { name: 'hash check' });
    const file = path.join(server.dataDir, 'state', 'tokens.json');
    const text = await readFile(file, 'utf8');
    assert.ok(!text.includes(token.slice(-43)), 'the secret is not stored');
    assert.ok(text.includes(token.slice(5, 21)), 'the id is');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  test('a token limited to some rights has only those; a right the user lacks cannot be given', async () => {
    const { token } = await createToken(asAlice(), { name: 'read only', rights: ['GET'] });
    assert.equal((await call(server, 'GET', '/documents/token-upload.pdf', { auth: bearer(token) })).status, 200);
    const before = await storedBytes(server, 'token-upload.pdf');
    const refused = await call(server, 'DELETE', '/documents/token-upload.pdf', { auth: bearer(token) });
    assertProblem(refused, 403, 'FORBIDDEN');
    // Alice has DELETE: it is the token that lacks it, and the answer says so rather than blaming the user.
    assert.match(refused.json().detail, /needs the DELETE right, which the API token this request came with \(id [0-9a-f]{16}, of user "alice"\) does not have/);
    assert.doesNotMatch(refused.json().detail, /user "alice" does not have/);
    assert.equal(refused.json().requiredRight, 'DELETE');
    assert.ok((await storedBytes(server, 'token-upload.pdf')).equals(before));
    assert.deepEqual((await call(server, 'GET', '/sessions/current', { auth: bearer(token) })).json().rights, ['GET']);

    assertProblem(await call(server, 'POST', '/tokens', { auth: asAlice(), body: { name: 'too much', rights: ['GET', 'admin'] } }), 403, 'FORBIDDEN');
    assertProblem(await call(server, 'POST', '/tokens', { auth: asAlice(), body: { name: 'bad', rights: ['SUDO'] } }), 400, 'VALIDATION_FAILED');
    assertProblem(await call(server, 'POST', '/tokens', { auth: asAlice(), body: { name: 'x', scope: 'all' } }), 400, 'VALIDATION_FAILED');
    assertProblem(await call(server, 'POST', '/tokens', { auth: asAlice(), body: { name: 'past', expiresAt: '2001-01-01T00:00:00Z' } }), 400, 'VALIDATION_FAILED');
  });

  test('rights taken from the user are gone from their tokens at once', async () => {
    await createUser(bob, ['GET', 'PUT']);
    const { token } = await createToken(basicAuth(bob.username, bob.password), { name: 'all of bob' });
    assert.equal((await putPdf(server, 'bob.pdf', makePdf())).status, 201);
    const upload = () => call(server, 'PUT', '/documents/bob.pdf', { auth: bearer(token), body: makePdf({ pages: 2 }), headers: { 'content-type': 'application/pdf' } });
    assert.equal((await upload()).status, 200);
    assert.equal((await call(server, 'PATCH', '/users/bob', { body: { rights: ['GET'] } })).status, 200);
    const before = await storedBytes(server, 'bob.pdf');
    assertProblem(await upload(), 403, 'FORBIDDEN');
    assert.ok((await storedBytes(server, 'bob.pdf')).equals(before));
    assert.deepEqual((await call(server, 'GET', '/sessions/current', { auth: bearer(token) })).json().rights, ['GET']);
  });

  test('revoking: 204 and the token stops working; another user\'s token is 404 and keeps working', async () => {
    const { token, id } = await createToken(asAlice(), { name: 'to revoke' });
    const bobs = await createToken(basicAuth(bob.username, bob.password), { name: 'bob keeps this' });
    assertProblem(await call(server, 'DELETE', `/tokens/${bobs.id}`, { auth: asAlice() }), 404, 'TOKEN_NOT_FOUND');
    assertProblem(await call(server, 'GET', `/tokens/${bobs.id}`, { auth: asAlice() }), 404, 'TOKEN_NOT_FOUND');
    assert.equal((await call(server, 'GET', '/sessions/current', { auth: bearer(bobs.token) })).status, 200);

    assert.equal((await call(server, 'DELETE', `/tokens/${id}`, { auth: asAlice() })).status, 204);
    const refused = await call(server, 'GET', '/sessions/current', { auth: bearer(token) });
    assertProblem(refused, 401, 'INVALID_CREDENTIALS');
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer .*error="invalid_token"/);
    assert.ok(!(await call(server, 'GET', '/tokens', { auth: asAlice() })).json().tokens.some((t: { id: string }) => t.id === id));
    assertProblem(await call(server, 'DELETE', `/tokens/${id}`, { auth: asAlice() }), 404, 'TOKEN_NOT_FOUND');
  });

  test('unknown, malformed or tampered tokens are 401; tokens cannot create tokens', async () => {
    const { token } = await createToken(asAlice(), { name: 'tamper' });
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const t of [tampered, 'pdfs_0000000000000000_' + 'A'.repeat(43), 'not-a-token']) {
      assertProblem(await call(server, 'GET', '/sessions/current', { auth: bearer(t) }), 401, 'INVALID_CREDENTIALS');
    }
    assertProblem(await call(server, 'POST', '/tokens', { auth: bearer(token), body: { name: 'child' } }), 403, 'FORBIDDEN');
    assertProblem(await call(server, 'GET', '/tokens', { auth: false }), 401, 'AUTHENTICATION_REQUIRED');
  });

  test('an expired token is 401 TOKEN_EXPIRED', async () => {
    const { token } = await createToken(asAlice(), { name: 'short-lived', expiresInSeconds: 1 });
    assert.equal((await call(server, 'GET', '/sessions/current', { auth: bearer(token) })).status, 200);
    await sleep(1100);
    const reply = await call(server, 'GET', '/sessions/current', { auth: bearer(token) });
    assertProblem(reply, 401, 'TOKEN_EXPIRED');
    assert.match(reply.json().detail, /expired/);
  });

  test('XML: a token created from <Token> is answered as <Token>', async () => {
    const reply = await call(server, 'POST', '/tokens', {
      auth: asAlice(),
      body: Buffer.from('<Token><name>xml client</name><rights><right>GET</right></rights></Token>'),
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
    });
    assert.equal(reply.status, 201, reply.text);
    assert.match(reply.text, /<Token>[\s\S]*<token>pdfs_[0-9a-f]{16}_[A-Za-z0-9_-]{43}<\/token>[\s\S]*<rights>\s*<right>GET<\/right>\s*<\/rights>/);
  });

  test('deleting a user removes their tokens, also from a user created again under the same name', async () => {
    await createUser({ username: 'carol', password: 'carol-password-1' }, ['GET']);
    const { token } = await createToken(basicAuth('carol', 'carol-password-1'), { name: 'carol script' });
    assert.equal((await call(server, 'DELETE', '/users/carol')).status, 204);
    await createUser({ username: 'carol', password: 'carol-password-2' }, ['GET']);
    assertProblem(await call(server, 'GET', '/sessions/current', { auth: bearer(token) }), 401, 'INVALID_CREDENTIALS');
    assert.deepEqual((await call(server, 'GET', '/tokens', { auth: basicAuth('carol', 'carol-password-2') })).json().tokens, []);
    const stored = JSON.parse(await readFile(path.join(server.dataDir, 'state', 'tokens.json'), 'utf8'));
    assert.ok(!stored.tokens.some((t: { name: string }) => t.name === 'carol script'));
  });
});

describe('API tokens across a restart', () => {
  test('tokens and their last use survive a restart', async () => {
    const first = await startServer();
    const dataDir = first.dataDir;
    let token: string;
    try {
      const created = await call(first, 'POST', '/tokens', { body: { name: 'survivor' } });
      assert.equal(created.status, 201);
      token = created.json().token;
      assert.equal((await call(first, 'GET', '/sessions/current', { auth: bearer(token) })).status, 200);
    } finally {
      // Stopped gracefully (SIGTERM): the pending last-use time is written.
      first.child.kill('SIGTERM');
      await new Promise((resolve) => first.child.once('exit', resolve));
    }
    const second = await startServer({ dataDir });
    try {
      assert.equal((await call(second, 'GET', '/sessions/current', { auth: bearer(token) })).json().username, 'admin');
      const [listed] = (await call(second, 'GET', '/tokens')).json().tokens;
      assert.equal(listed.name, 'survivor');
      assert.notEqual(listed.lastUsedAt, null, 'the last use was written at shutdown');
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
