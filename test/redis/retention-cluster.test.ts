/**
 * The retention sweep across instances (docs/versions.md, "Retention"): two instances on one data folder and one
 * Redis, each ticking every second. The Redis lease lets one sweep at a time and one sweep per interval between
 * them: the versions removed are exactly those the policy names (PDFSERVICE_VERSIONS_MAX_COUNT=2), the sweeps' log
 * lines of both instances together count each removal once, none failed, and no two sweeps overlapped in time.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { call, sha256 } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { redisServerForSuite } from '../helpers/redis-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Sweep {
  start: number;
  end: number;
  removed: number;
  failed: boolean;
}

/** The sweeps an instance logged: when each started (its `at`) and ended (the line's time), and what it removed. */
function sweeps(s: TestServer): Sweep[] {
  const found: Sweep[] = [];
  for (const line of s.output) {
    if (!line.includes('"retention sweep')) continue;
    const entry = JSON.parse(line) as { msg: string; time: number; at: string; tasks: { versions?: { removed?: number; removedByUserCap?: number } } };
    found.push({ start: Date.parse(entry.at), end: entry.time, removed: entry.tasks.versions?.removed ?? 0, failed: entry.msg !== 'retention sweep' });
  }
  return found;
}

describe('two instances on one data folder sweep in turn through the Redis lease', () => {
  const redis = redisServerForSuite();
  const PREFIX = `r${randomBytes(3).toString('hex')}:`;
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;
  let client: Redis;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-retention-cluster-'));
    const env = {
      PDFSERVICE_REDIS_URL: redis.url,
      PDFSERVICE_REDIS_PREFIX: PREFIX,
      PDFSERVICE_WORKERS: '1',
      PDFSERVICE_STORE: 'filesystem',
      PDFSERVICE_VERSIONS_MAX_COUNT: '2',
      PDFSERVICE_RETENTION_SWEEP_INTERVAL: '1s',
    };
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

  test('every document ends with its two newest versions; each removal counted once; sweeps never overlap', async () => {
    const docs = Array.from({ length: 8 }, (_, i) => `cluster-retention/doc-${i}.pdf`);
    const written = new Map<string, Buffer[]>();
    for (const [i, doc] of docs.entries()) {
      const contents = Array.from({ length: 4 }, (_, k) => makePdf({ pages: 1, text: () => `${doc} write ${k}` }));
      written.set(doc, contents);
      for (const [k, body] of contents.entries()) {
        const reply = await call((i + k) % 2 ? b : a, 'PUT', `/documents/${doc}`, { body, headers: { 'content-type': 'application/pdf' } });
        assert.ok([200, 201].includes(reply.status), reply.text);
      }
    }
    const versionsOf = async (doc: string) => (await call(a, 'GET', `/documents/${doc}/versions`)).json<{ versions: { id: string }[]; total: number }>();
    // Both instances tick every second; wait until the sweeps have brought every document to its limit.
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      const totals = await Promise.all(docs.map(async (doc) => (await versionsOf(doc)).total));
      if (totals.every((t) => t === 2)) break;
    }
    for (const doc of docs) {
      const left = await versionsOf(doc);
      assert.equal(left.total, 2, `${doc}: ${JSON.stringify(left)}`);
      // The two newest writes, byte for byte, read through the other instance.
      const bytes = await Promise.all(left.versions.map(async (v) => sha256((await call(b, 'GET', `/documents/${doc}?versionId=${v.id}`)).bytes)));
      assert.deepEqual(bytes, written.get(doc)!.slice(2).reverse().map(sha256));
    }
    // Each of the 16 removals counted once over both instances' sweeps (a sweep's line follows its removals).
    let all: Sweep[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      all = [...sweeps(a), ...sweeps(b)];
      if (all.reduce((sum, s) => sum + s.removed, 0) >= 16) break;
    }
    assert.equal(all.reduce((sum, s) => sum + s.removed, 0), 16);
    assert.deepEqual(all.filter((s) => s.failed), []);
    // One sweep at a time: ordered by start, each began after the one before had ended (the lease).
    all.sort((x, y) => x.start - y.start);
    for (let i = 1; i < all.length; i++) assert.ok(all[i]!.start >= all[i - 1]!.end, `sweeps overlap: ${JSON.stringify(all.slice(i - 1, i + 1))}`);
    // Both instances share the last sweep's time in Redis.
    assert.ok(Number(await client.get(`${PREFIX}sweep:last`)) > 0);
  });
});
