/**
 * The Redis session store and login throttle on their own, against a real Redis: the rules of the
 * in-memory ones (the throttle's are run over both), counting that stays right when two connections
 * (two instances) attempt at once, the per-user session cap, and a Redis that cannot be reached as
 * 503 REDIS_UNAVAILABLE.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { RedisSessionStore } from '../../src/auth/redis-sessions.js';
import { RedisLoginThrottle } from '../../src/auth/redis-throttle.js';
import { MAX_SESSIONS_PER_USER } from '../../src/auth/sessions.js';
import { ADDRESS_FACTOR, MemoryLoginThrottle, type LoginThrottle } from '../../src/auth/throttle.js';
import { ServiceError } from '../../src/errors.js';
import { connectRedis, type RedisConnection } from '../../src/redis.js';
import { Sealer } from '../../src/secrets.js';
import { redisServerForSuite, startRedisServer } from '../helpers/redis-server.js';

const redis = redisServerForSuite();
const connections: RedisConnection[] = [];
/** A connection as an instance opens it, under a prefix of its own so tests do not meet each other's keys. */
async function connect(prefix: string): Promise<RedisConnection> {
  const connection = await connectRedis({ url: redis.url, prefix, timeoutMs: 2000 });
  connections.push(connection);
  return connection;
}
const freshPrefix = () => `u${randomBytes(4).toString('hex')}:`;
after(async () => {
  for (const c of connections) await c.close();
});

/** The outcome of an attempt: 'counted' or 'locked' (429). */
async function outcome(work: Promise<void>): Promise<'counted' | 'locked'> {
  try {
    await work;
    return 'counted';
  } catch (err) {
    assert.ok(err instanceof ServiceError && err.code === 'TOO_MANY_REQUESTS', String(err));
    assert.ok(Number(err.headers?.['Retry-After']) >= 1);
    return 'locked';
  }
}

describe('the throttle rules, in memory and in Redis alike', () => {
  const kinds: [string, () => Promise<LoginThrottle>][] = [
    ['memory', async () => new MemoryLoginThrottle({ maxFailures: 3, windowSeconds: 60 })],
    ['redis', async () => new RedisLoginThrottle(await connect(freshPrefix()), { maxFailures: 3, windowSeconds: 60 })],
  ];
  for (const [kind, make] of kinds) {
    test(`${kind}: a pair locks after maxFailures, the address after ${ADDRESS_FACTOR}× that; a success takes its attempt back`, async () => {
      const throttle = await make();
      for (let i = 0; i < 3; i++) assert.equal(await outcome(throttle.attempt('ann', '10.0.0.1')), 'counted');
      assert.equal(await outcome(throttle.attempt('ann', '10.0.0.1')), 'locked');
      assert.equal(await outcome(throttle.check('ann', '10.0.0.1')), 'locked');
      // The same name from elsewhere, and another name from here, are not locked.
      assert.equal(await outcome(throttle.check('ann', '10.0.0.2')), 'counted');
      assert.equal(await outcome(throttle.check('ben', '10.0.0.1')), 'counted');

      // A right password clears its pair: two failures and a success leave the pair at zero.
      for (let i = 0; i < 2; i++) await throttle.attempt('cid', '10.0.0.3');
      await throttle.attempt('cid', '10.0.0.3');
      await throttle.succeeded('cid', '10.0.0.3');
      for (let i = 0; i < 2; i++) assert.equal(await outcome(throttle.attempt('cid', '10.0.0.3')), 'counted');

      // The address: 15 failures over names, none of which reaches 3, lock every name from it.
      for (let n = 0; n < 7; n++) for (let i = 0; i < 2; i++) assert.equal(await outcome(throttle.attempt(`n${n}`, '10.0.0.4')), 'counted');
      assert.equal(await outcome(throttle.attempt('n7', '10.0.0.4')), 'counted'); // the 15th failure
      assert.equal(await outcome(throttle.check('anyone', '10.0.0.4')), 'locked');
    });

    test(`${kind}: a success takes back only its own attempt from the address`, async () => {
      const throttle = await make();
      for (let n = 0; n < 7; n++) for (let i = 0; i < 2; i++) await throttle.attempt(`m${n}`, '10.0.1.1');
      // 14 failures; a right login is attempt 15 (locks the address) and then taken back (unlocks it).
      await throttle.attempt('good', '10.0.1.1');
      await throttle.succeeded('good', '10.0.1.1');
      assert.equal(await outcome(throttle.check('other', '10.0.1.1')), 'counted');
      assert.equal(await outcome(throttle.attempt('other', '10.0.1.1')), 'counted');
      assert.equal(await outcome(throttle.check('other2', '10.0.1.1')), 'locked');
    });

    test(`${kind}: an attempt withdrawn (nothing was checked) is taken back from the pair and the address, earlier failures stay`, async () => {
      const throttle = await make();
      await throttle.attempt('dee', '10.0.2.1');
      // The third attempt locks the pair; withdrawn, it unlocks it again, and the two real failures still count.
      await throttle.attempt('dee', '10.0.2.1');
      await throttle.attempt('dee', '10.0.2.1');
      assert.equal(await outcome(throttle.check('dee', '10.0.2.1')), 'locked');
      await throttle.withdrawn('dee', '10.0.2.1');
      assert.equal(await outcome(throttle.check('dee', '10.0.2.1')), 'counted');
      assert.equal(await outcome(throttle.attempt('dee', '10.0.2.1')), 'counted');
      assert.equal(await outcome(throttle.check('dee', '10.0.2.1')), 'locked');
      // Withdrawn over and over (a DMS outage), a pair never locks.
      for (let i = 0; i < 10; i++) {
        assert.equal(await outcome(throttle.attempt('eve', '10.0.2.2')), 'counted');
        await throttle.withdrawn('eve', '10.0.2.2');
      }
      assert.equal(await outcome(throttle.check('eve', '10.0.2.2')), 'counted');
    });
  }
});

describe('the Redis throttle across instances', () => {
  test('attempts sent at once through two connections are each counted: exactly maxFailures pass', async () => {
    const prefix = freshPrefix();
    const a = new RedisLoginThrottle(await connect(prefix), { maxFailures: 10, windowSeconds: 60 });
    const b = new RedisLoginThrottle(await connect(prefix), { maxFailures: 10, windowSeconds: 60 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome((i % 2 ? a : b).attempt('eve', '10.0.2.1'))));
    assert.equal(results.filter((r) => r === 'counted').length, 10);
    assert.equal(results.filter((r) => r === 'locked').length, 20);
  });

  test('counter keys live under the prefix, hashed, and expire with the window', async () => {
    const prefix = freshPrefix();
    const connection = await connect(prefix);
    await new RedisLoginThrottle(connection, { maxFailures: 2, windowSeconds: 30 }).attempt('frank', '10.0.3.1');
    const keys = await connection.client.keys(`${prefix}*`);
    assert.equal(keys.length, 2);
    for (const key of keys) {
      assert.match(key, new RegExp(`^${prefix}login:[A-Za-z0-9_-]{43}$`));
      const ttl = await connection.client.pttl(key);
      assert.ok(ttl > 0 && ttl <= 30_000, `${ttl}`);
    }
  });
});

describe('the Redis session store', () => {
  const limits = { idleSeconds: 600, maxSeconds: 3600 };

  test(`a user keeps at most ${MAX_SESSIONS_PER_USER} sessions, the oldest end first; deleteUser ends the rest`, async () => {
    const connection = await connect(freshPrefix());
    let clock = Date.now();
    const store = new RedisSessionStore(connection, limits, undefined, () => clock);
    const ids: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 2; i++) {
      clock += 1; // distinct login times, so "oldest" is well defined
      ids.push((await store.create('gina', 'stamp')).id);
    }
    const other = (await store.create('hugo', 'stamp')).id;
    assert.equal(await store.touch(ids[0]!), null);
    assert.equal(await store.touch(ids[1]!), null);
    assert.equal((await store.touch(ids[2]!))?.username, 'gina');
    assert.equal((await store.touch(ids.at(-1)!))?.username, 'gina');
    assert.equal(await connection.client.zcard(connection.key('user-sessions', 'gina')), MAX_SESSIONS_PER_USER);

    await store.deleteUser('gina');
    assert.equal(await store.touch(ids.at(-1)!), null);
    assert.equal(await connection.client.exists(connection.key('user-sessions', 'gina')), 0);
    assert.equal((await store.touch(other))?.username, 'hugo', 'another user keeps theirs');
    const left = await connection.client.keys(connection.key('session', '*'));
    assert.equal(left.length, 1);
  });

  test('expiry is the earlier of idle and absolute, checked at use as well as by the TTL', async () => {
    const connection = await connect(freshPrefix());
    let clock = Date.now();
    const store = new RedisSessionStore(connection, { idleSeconds: 100, maxSeconds: 150 }, undefined, () => clock);
    const { id, session } = await store.create('ida', 'stamp');
    assert.equal(session.absoluteExpiresAt - session.createdAt, 150_000);
    clock += 90_000;
    assert.ok(await store.touch(id));
    clock += 90_000; // 180 s after login: idle not reached (90 s), absolute passed
    assert.equal(await store.touch(id), null);
    assert.deepEqual(await connection.client.keys(connection.key('session', '*')), []);
  });

  test('DMS credentials are sealed with the key and the session id; without a key they are refused', async () => {
    const connection = await connect(freshPrefix());
    const key = randomBytes(32);
    const store = new RedisSessionStore(connection, limits, new Sealer(key));
    const { id } = await store.create('jo', 'directory', { username: 'jo', password: 'jo-dms-secret' });
    const [recordKey] = await connection.client.keys(connection.key('session', '*'));
    const text = (await connection.client.get(recordKey!))!;
    assert.doesNotMatch(text, /jo-dms-secret/);
    assert.deepEqual((await store.touch(id))?.credentials, { username: 'jo', password: 'jo-dms-secret' });
    // Another key cannot open them: the session comes back without credentials.
    const otherKey = new RedisSessionStore(connection, limits, new Sealer(randomBytes(32)));
    assert.equal((await otherKey.touch(id))?.credentials, undefined);
    const keyless = new RedisSessionStore(connection, limits, undefined);
    await assert.rejects(keyless.create('jo', 'directory', { username: 'jo', password: 'x' }), /PDFSERVICE_SECRETS_KEY/);
  });
});

describe('a Redis that cannot be reached', () => {
  let gone: Awaited<ReturnType<typeof startRedisServer>>;
  before(async () => {
    gone = await startRedisServer();
  });
  after(async () => {
    await gone.dispose();
  });

  test('is 503 REDIS_UNAVAILABLE with Retry-After for sessions and throttle, and works again when it is back', async () => {
    const connection = await connectRedis({ url: gone.url, prefix: 'x:', timeoutMs: 500 });
    connections.push(connection);
    const store = new RedisSessionStore(connection, { idleSeconds: 600, maxSeconds: 3600 }, undefined);
    const throttle = new RedisLoginThrottle(connection, { maxFailures: 3, windowSeconds: 60 });
    const { id } = await store.create('kim', 'stamp');
    await gone.kill();
    for (const work of [store.touch(id), store.create('kim', 'stamp'), throttle.attempt('kim', '10.0.4.1'), throttle.check('kim', '10.0.4.1')]) {
      await assert.rejects(work, (err: unknown) => err instanceof ServiceError && err.code === 'REDIS_UNAVAILABLE' && err.status === 503 && Number(err.headers?.['Retry-After']) >= 1);
    }
    await gone.restart();
    // The connection comes back by itself; a command sent meanwhile waits for the reconnection.
    assert.equal(await store.touch(id), null, 'Redis without persistence lost the session');
    assert.ok((await store.create('kim', 'stamp')).id);
  });
});
