/**
 * The service with PDFSERVICE_REDIS_URL takes its document locks in Redis (main.ts): two instances on one
 * data folder, concurrent writes of one document through both, each one made under a Redis lock whose token
 * was verified just before the commit.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { call, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('two instances on one data folder and one Redis', () => {
  const redis = redisServerForSuite();
  const PREFIX = `k${randomBytes(3).toString('hex')}:`;
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;
  let client: Redis;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-redis-locks-'));
    assert.ok(redis.url, 'Redis runs');
    const env = { PDFSERVICE_REDIS_URL: redis.url, PDFSERVICE_REDIS_PREFIX: PREFIX, PDFSERVICE_WORKERS: '1', PDFSERVICE_STORE: 'filesystem' };
    a = await startServer({ dataDir, env });
    b = await startServer({ dataDir, env });
    client = new Redis(redis.url);
  });
  after(async () => {
    client?.disconnect();
    await a?.stop();
    await b?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('writes of one document through two instances each take the Redis lock and verify its token before the commit', async () => {
    const uploads = Array.from({ length: 6 }, (_, i) => makePdf({ pages: 1, text: () => `upload ${i}` }));
    const replies = await Promise.all(uploads.map((body, i) => call(i % 2 ? b : a, 'PUT', '/documents/locks/one.pdf', { body, headers: { 'content-type': 'application/pdf' } })));
    for (const r of replies) assert.ok([200, 201].includes(r.status), r.text);
    const stored = sha256(await readFile(path.join(dataDir, 'documents', 'locks', 'one.pdf')));
    assert.ok(uploads.some((u) => sha256(u) === stored));
    // The document's lock (namespace fs, key its path): six acquisitions, each committed with its own token.
    const id = createHash('sha256').update('fs\0locks/one.pdf').digest('base64url');
    const meta = await client.hgetall(`${PREFIX}lock:fs:{${id}}:meta`);
    assert.equal(meta.next, '6', JSON.stringify(meta));
    assert.equal(meta.committed, '6', JSON.stringify(meta));
    assert.equal(await client.exists(`${PREFIX}lock:fs:{${id}}`), 0, 'released');
  });
});
