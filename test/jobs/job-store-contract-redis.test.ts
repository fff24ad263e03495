/**
 * The JobStore contract against the Redis job store (a real Redis, a fresh prefix per test), and what is
 * particular to it: two connections (two instances) see each other's records, and a Redis that cannot be
 * reached is 503 REDIS_UNAVAILABLE.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { RedisJobStore } from '../../src/operations/jobs/redis-store.js';
import { jobRecord, jobStoreContract } from '../helpers/job-store-contract.js';
import { redisConnectionsForSuite, redisServerForSuite, startRedisServer } from '../helpers/redis-server.js';

const redis = redisServerForSuite();
const { connect, freshPrefix } = redisConnectionsForSuite(redis, 'j');

jobStoreContract('RedisJobStore', async () => ({ store: new RedisJobStore(await connect(freshPrefix())), close: async () => {} }));

describe('RedisJobStore across instances', () => {
  test('a record one connection puts, another lists, reads and deletes; an owner change leaves the old owner', async () => {
    const prefix = freshPrefix();
    const a = new RedisJobStore(await connect(prefix));
    const b = new RedisJobStore(await connect(prefix));
    const record = jobRecord({ owner: 'alice' });
    await a.put(record);
    assert.deepEqual(await b.get(record.id), record);
    assert.deepEqual(await b.list({ owner: 'alice' }), [record]);
    const moved = { ...record, owner: 'bob' };
    await b.put(moved);
    assert.deepEqual(await a.list({ owner: 'alice' }), []);
    assert.deepEqual(await a.list({ owner: 'bob' }), [moved]);
    await b.delete(record.id);
    await a.delete(record.id); // a second sweep deleting the same record: nothing happens
    assert.deepEqual(await a.list(), []);
    // Another prefix (another service sharing the Redis) sees none of these.
    await a.put(record);
    assert.deepEqual(await new RedisJobStore(await connect(freshPrefix())).list(), []);
  });

  test('a Redis that cannot be reached is 503 REDIS_UNAVAILABLE on every method', async () => {
    const own = await startRedisServer();
    try {
      const store = new RedisJobStore(await connect(freshPrefix(), own.url));
      const record = jobRecord();
      await store.put(record);
      await own.stop();
      const unavailable = (err: unknown) => err instanceof ServiceError && err.code === 'REDIS_UNAVAILABLE' && err.status === 503;
      await assert.rejects(store.put(jobRecord()), unavailable);
      await assert.rejects(store.get(record.id), unavailable);
      await assert.rejects(store.list(), unavailable);
      await assert.rejects(store.delete(record.id), unavailable);
    } finally {
      await own.dispose();
    }
  });
});
