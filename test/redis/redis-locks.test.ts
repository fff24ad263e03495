/**
 * Document locks in Redis (src/storage/redis-lock.ts) against a real Redis, and the filesystem and S3
 * stores using them as two instances would (two connections, two stores on one data folder or one bucket
 * prefix, the S3 store on the Swift test server): exclusion, no starvation across instances, a crashed
 * holder's lock running out, the fencing that refuses the write of a holder whose lease ran out, no lost
 * read-modify-write increments, and Redis down as 503 REDIS_UNAVAILABLE.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../../src/errors.js';
import { connectRedis, type RedisConnection } from '../../src/redis.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { RedisLocks, type RedisLockOptions } from '../../src/storage/redis-lock.js';
import { createS3Client } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import type { DocumentStore } from '../../src/storage/store.js';
import { redisServerForSuite, startRedisServer } from '../helpers/redis-server.js';
import { s3ServerForSuite } from '../helpers/s3-server.js';

const redis = redisServerForSuite();
const s3 = s3ServerForSuite();
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A connection as an instance opens it; every instance of one test shares the prefix (one service). */
async function connect(prefix: string, url = redis.url, timeoutMs = 2000): Promise<RedisConnection> {
  const connection = await connectRedis({ url, prefix, timeoutMs });
  cleanups.push(() => connection.close());
  return connection;
}
const freshPrefix = () => `l${randomBytes(4).toString('hex')}:`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An instance's locks: its own connection. */
async function instanceLocks(prefix: string, options: Partial<RedisLockOptions> = {}): Promise<RedisLocks> {
  return new RedisLocks(await connect(prefix), { namespace: 'doc', leaseMs: 5000, waitMs: 20_000, ...options });
}

const isCode = (code: string) => (err: unknown) => err instanceof ServiceError && err.code === code && err.status === 503 && Number(err.headers?.['Retry-After']) >= 1;

async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `pdfservice-${name}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function readAll(store: DocumentStore, p: StoredPath): Promise<Buffer> {
  const opened = await store.openDocument(p);
  try {
    return await opened.read();
  } finally {
    await opened.close();
  }
}

describe('Redis locks', () => {
  test('two instances exclude each other on one key; other keys do not wait; a wait past the bound is 503 DOCUMENT_LOCKED', async () => {
    const prefix = freshPrefix();
    const a = await instanceLocks(prefix);
    const b = await instanceLocks(prefix, { waitMs: 300 });
    const release = await a.acquire('doc/one.pdf');
    await assert.rejects(b.acquire('doc/one.pdf'), isCode('DOCUMENT_LOCKED'));
    const other = await b.acquire('doc/two.pdf');
    other();
    release();
    // Free again once released (compare-and-delete ran): b takes it within its short bound.
    const bWaitsLonger = await instanceLocks(prefix);
    (await bWaitsLonger.acquire('doc/one.pdf'))();

    // Critical sections from both instances, several at once in each: never two inside.
    let inside = 0;
    let most = 0;
    const section = async (locks: RedisLocks) => {
      const r = await locks.acquire('doc/shared.pdf');
      try {
        inside++;
        most = Math.max(most, inside);
        await sleep(2);
        inside--;
      } finally {
        r();
      }
    };
    await Promise.all([...Array(8)].flatMap(() => [section(a), section(bWaitsLonger)]));
    assert.equal(most, 1);
  });

  test('no starvation: one instance with three busy writers does not keep the lock from another instance\'s one', async () => {
    const prefix = freshPrefix();
    const a = await instanceLocks(prefix);
    const b = await instanceLocks(prefix);
    const order: string[] = [];
    const loop = async (locks: RedisLocks, name: string, rounds: number) => {
      for (let i = 0; i < rounds; i++) {
        const r = await locks.acquire('hot.pdf');
        order.push(name);
        await sleep(5);
        r();
      }
    };
    await Promise.all([loop(a, 'a', 10), loop(a, 'a', 10), loop(a, 'a', 10), loop(b, 'b', 10)]);
    assert.equal(order.filter((n) => n === 'b').length, 10);
    // From the start until b is done, b waits in Redis's queue whenever it wants the lock: a's writers, all three
    // wanting it all the time, get it at most a couple of times in a row (without the queue, b came in after 21).
    const lastB = order.lastIndexOf('b');
    const runs = order.slice(0, lastB + 1).join('').split('b').map((s) => s.length);
    assert.ok(Math.max(...runs) <= 3, `a's runs between b's turns: ${runs.join(',')} (${order.join('')})`);
  });

  test('a crashed holder\'s lock is free after the lease, and the next holder gets a higher fencing token', async () => {
    const prefix = freshPrefix();
    const moduleUrl = new URL('../../src/storage/redis-lock.js', import.meta.url).href;
    const redisUrl = new URL('../../src/redis.js', import.meta.url).href;
    const script = `
      const { RedisLocks } = await import(${JSON.stringify(moduleUrl)});
      const { connectRedis } = await import(${JSON.stringify(redisUrl)});
      const c = await connectRedis({ url: ${JSON.stringify(redis.url)}, prefix: ${JSON.stringify(prefix)}, timeoutMs: 2000 });
      const locks = new RedisLocks(c, { namespace: 'doc', leaseMs: 2000, waitMs: 5000 });
      await locks.acquire('crash.pdf');
      console.log('held ' + locks.tokenOf('crash.pdf'));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: path.dirname(fileURLToPath(import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the child ended (${code}) before it held the lock`)));
      });
      const childToken = Number(/^held (\d+)$/.exec(line)?.[1]);
      assert.ok(childToken >= 1, line);
      // Held, and renewed while the child lives (a wait longer than its lease is still refused).
      const impatient = await instanceLocks(prefix, { waitMs: 3000 });
      await assert.rejects(impatient.acquire('crash.pdf'), isCode('DOCUMENT_LOCKED'));
      child.kill('SIGKILL');
      await exited;
      const next = await instanceLocks(prefix, { waitMs: 10_000 });
      const release = await next.acquire('crash.pdf');
      assert.ok(next.tokenOf('crash.pdf')! > childToken);
      release();
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('a held lock is renewed, so an edit longer than the lease keeps it and writes', async () => {
    const prefix = freshPrefix();
    const dataDir = await tempDir('lock-renew');
    const a = new FilesystemStore(dataDir, { locks: await instanceLocks(prefix, { leaseMs: 2000 }) });
    const b = new FilesystemStore(dataDir, { locks: await instanceLocks(prefix, { leaseMs: 2000, waitMs: 300 }) });
    await a.init();
    const p = documentPathFromBody('long.pdf', 'path');
    const release = await a.lock(p);
    try {
      await sleep(4500); // more than two leases
      await assert.rejects(b.lock(p), isCode('DOCUMENT_LOCKED'));
      await a.writeDocument(p, Buffer.from('%PDF-1.7 long edit'), { conflict: 'overwrite' });
    } finally {
      release();
    }
    assert.equal((await readAll(b, p)).toString(), '%PDF-1.7 long edit');
  });
});

/** Two instances' stores of one kind sharing documents, each with its own Redis connection and locks. */
type Pair = (prefix: string, lock?: Partial<RedisLockOptions>) => Promise<[DocumentStore, DocumentStore, RedisLocks, RedisLocks, (p: StoredPath) => string]>;

const fsPair: Pair = async (prefix, lock = {}) => {
  const dataDir = await tempDir('lock-fs');
  const made: DocumentStore[] = [];
  const locks = [await instanceLocks(prefix, { namespace: 'fs', ...lock }), await instanceLocks(prefix, { namespace: 'fs' })];
  for (const l of locks) {
    const store = new FilesystemStore(dataDir, { locks: l });
    await store.init();
    made.push(store);
  }
  return [made[0]!, made[1]!, locks[0]!, locks[1]!, (p) => p.toString()];
};

const s3Pair: Pair = async (prefix, lock = {}) => {
  const keyPrefix = `locks-${prefix.slice(0, -1)}/`;
  const made: DocumentStore[] = [];
  const docLocks: RedisLocks[] = [];
  for (const own of [lock, {}]) {
    const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
    cleanups.push(async () => client.destroy());
    const documentLocks = await instanceLocks(prefix, { namespace: 's3', ...own });
    const commitLock = await instanceLocks(prefix, { namespace: 's3-commit', ...own });
    const store = new S3Store({ client, bucket: s3.buckets[0]!, prefix: keyPrefix, dataDir: await tempDir('lock-s3'), documentLocks, commitLock });
    await store.init();
    made.push(store);
    docLocks.push(documentLocks);
  }
  return [made[0]!, made[1]!, docLocks[0]!, docLocks[1]!, (p) => keyPrefix + p.segments.join('/')];
};

for (const [kind, pair] of [['two filesystem stores on one data folder', fsPair], ['two S3 stores on one bucket prefix', s3Pair]] as const) {
  describe(kind, () => {
    test('concurrent read-modify-write increments through lock() and an If-Match write lose nothing', async () => {
      const [a, b] = await pair(freshPrefix());
      const p = documentPathFromBody('counter/count.pdf', 'path');
      await a.writeDocument(p, Buffer.from('0'), { conflict: 'overwrite' });
      const increment = async (store: DocumentStore) => {
        const release = await store.lock(p);
        try {
          const opened = await store.openDocument(p);
          const value = Number((await opened.read()).toString());
          await opened.close();
          await store.writeDocument(p, Buffer.from(String(value + 1)), { conflict: 'overwrite', ifMatch: opened.stat.etag });
        } finally {
          release();
        }
      };
      await Promise.all([...Array(10)].flatMap(() => [increment(a), increment(b)]));
      assert.equal((await readAll(b, p)).toString(), '20');
    });

    test('a holder whose lease ran out (paused, not renewing) writes nothing: the next holder has a higher token, and its write stays', async () => {
      // renewMs huge: the first instance stops renewing, as a process stopped by a long pause would.
      const [a, b, aLocks, bLocks, keyOf] = await pair(freshPrefix(), { leaseMs: 1000, renewMs: 3_600_000 });
      const p = documentPathFromBody('fenced/doc.pdf', 'path');
      await a.writeDocument(p, Buffer.from('%PDF-1.7 v1'), { conflict: 'overwrite' });
      const releaseA = await a.lock(p);
      const key = keyOf(p);
      const tokenA = aLocks.tokenOf(key)!;
      // b waits until a's lease has run out, then holds the lock with a higher token.
      const releaseB = await b.lock(p);
      assert.ok(bLocks.tokenOf(key)! > tokenA);
      // a still thinks it holds the lock: its write is refused before anything is written (deletes too).
      await assert.rejects(a.writeDocument(p, Buffer.from('%PDF-1.7 late write'), { conflict: 'overwrite' }), isCode('LOCK_LOST'));
      await assert.rejects(a.deleteDocument(p), isCode('LOCK_LOST'));
      assert.equal((await readAll(b, p)).toString(), '%PDF-1.7 v1');
      await b.writeDocument(p, Buffer.from('%PDF-1.7 v2'), { conflict: 'overwrite' });
      releaseB();
      // After b committed and released, a's late write is still refused (its lock is gone, a later token committed).
      await assert.rejects(a.writeDocument(p, Buffer.from('%PDF-1.7 later still'), { conflict: 'overwrite' }), isCode('LOCK_LOST'));
      releaseA();
      assert.ok((await readAll(a, p)).equals(Buffer.from('%PDF-1.7 v2')));
    });
  });
}

describe('Redis down', () => {
  test('while acquiring is 503 REDIS_UNAVAILABLE; while holding, the write is refused the same way and nothing is written', async () => {
    const gone = await startRedisServer();
    cleanups.push(() => gone.dispose());
    const dataDir = await tempDir('lock-down');
    const connection = await connect(freshPrefix(), gone.url, 500);
    const store = new FilesystemStore(dataDir, { locks: new RedisLocks(connection, { namespace: 'fs', leaseMs: 5000, waitMs: 5000 }) });
    await store.init();
    const p = documentPathFromBody('down.pdf', 'path');
    await store.writeDocument(p, Buffer.from('%PDF-1.7 before'), { conflict: 'overwrite' });
    const release = await store.lock(p);
    await gone.kill();
    await assert.rejects(store.writeDocument(p, Buffer.from('%PDF-1.7 during'), { conflict: 'overwrite' }), isCode('REDIS_UNAVAILABLE'));
    release();
    await assert.rejects(store.lock(p), isCode('REDIS_UNAVAILABLE'));
    assert.equal((await readAll(store, p)).toString(), '%PDF-1.7 before');
  });
});
