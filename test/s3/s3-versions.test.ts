/**
 * The ETag book (src/storage/etag-book.ts): S3 stores of several instances sharing Redis answer stat and reads
 * of a version they keep from the book, without asking S3. Against the Swift test server and a real Redis, with two
 * stores on one bucket prefix as two instances, each with its own Redis connections (the service's lock namespaces,
 * so their commit locks are shared) and one book; each store's client counts the commands it sends, and can be made
 * to fail one (refused before it is sent, or its answer lost after S3 carried it out).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ServiceError } from '../../src/errors.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import type { RedisConnection } from '../../src/redis.js';
import { RedisLocks } from '../../src/storage/redis-lock.js';
import { createS3Client, s3Status } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { etagOf, type DocumentStore } from '../../src/storage/store.js';
import { RedisEtagBook, ETAG_TTL_MS } from '../../src/storage/etag-book.js';
import { redisConnectionsForSuite, redisServerForSuite } from '../helpers/redis-server.js';
import { s3ServerForSuite } from '../helpers/s3-server.js';

const s3 = s3ServerForSuite();
const redis = redisServerForSuite();
const redisConnections = redisConnectionsForSuite(redis, 'v');
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A fault for the next command of that name and key: refused before it is sent, lost after S3 answered it, or held until `until` settles. */
interface Fault {
  command: string;
  key: string;
  kind: 'refuse' | 'lose-answer' | 'hold';
  until?: Promise<unknown>;
}

interface Instance {
  store: S3Store;
  /** The book's own connection (closing it makes the book unreachable for this store alone). */
  bookRedis: RedisConnection;
  faults: Fault[];
  /** The commands `run` made, as "Command key-without-prefix status". */
  requests(run: () => Promise<unknown>): Promise<string[]>;
}

function instrument(client: S3Client, faults: Fault[]): { command: string; key: string; status: number | undefined }[] {
  const sent: { command: string; key: string; status: number | undefined }[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? '?').replace(/Command$/, '');
      const key = (args.input as { Key?: string }).Key ?? '';
      const entry = { command, key, status: undefined as number | undefined };
      sent.push(entry);
      const i = faults.findIndex((f) => f.command === command && f.key === key);
      const fault = i >= 0 ? faults.splice(i, 1)[0] : undefined;
      if (fault?.kind === 'refuse') {
        entry.status = 503;
        throw Object.assign(new Error('refused by the test'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } });
      }
      try {
        const out = await next(args);
        entry.status = (out.output as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (fault?.kind === 'lose-answer') throw Object.assign(new Error('answer lost (test)'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } });
        if (fault?.kind === 'hold') await fault.until;
        return out;
      } catch (err) {
        entry.status ??= s3Status(err);
        throw err;
      }
    },
    { step: 'initialize', name: 'countAndFail' },
  );
  return sent;
}

let serial = 0;

async function instances(count: number, commitLease: { leaseMs: number; renewMs?: number } = { leaseMs: 5000 }): Promise<{ prefix: string; redisPrefix: string; made: Instance[] }> {
  const prefix = `versions-${process.pid}-${++serial}/`;
  const redisPrefix = redisConnections.freshPrefix();
  const made: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
    const faults: Fault[] = [];
    const sent = instrument(client, faults);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-versions-'));
    cleanups.push(async () => {
      client.destroy();
      await rm(dataDir, { recursive: true, force: true });
    });
    const bookRedis = await redisConnections.connect(redisPrefix);
    const store = new S3Store({
      client,
      bucket: s3.buckets[0]!,
      prefix,
      dataDir,
      documentLocks: new RedisLocks(await redisConnections.connect(redisPrefix), { namespace: 's3:test', leaseMs: 5000, waitMs: 20_000 }),
      commitLock: new RedisLocks(await redisConnections.connect(redisPrefix), { namespace: 's3-commit:test', waitMs: 20_000, ...commitLease }),
      etagBook: new RedisEtagBook(bookRedis, s3.buckets[0]!),
    });
    await store.init();
    await store.recover();
    made.push({
      store,
      bookRedis,
      faults,
      requests: async (run) => {
        const from = sent.length;
        await run();
        return sent.slice(from).map((s) => `${s.command} ${s.key.startsWith(prefix) ? s.key.slice(prefix.length) : s.key} ${s.status ?? 'none'}`);
      },
    });
  }
  return { prefix, redisPrefix, made };
}

const doc = (p: string): StoredPath => documentPathFromBody(p, 'path');

async function readAll(store: DocumentStore, p: StoredPath): Promise<{ bytes: Buffer; etag: string; size: number }> {
  const opened = await store.openDocument(p);
  try {
    return { bytes: await opened.read(), etag: opened.stat.etag, size: opened.stat.size };
  } finally {
    await opened.close();
  }
}

/** The book's raw record of an object key (a connection of the test's own), or null. */
async function recordOf(redisPrefix: string, key: string): Promise<{ value: Record<string, unknown> | null; ttlMs: number }> {
  const conn = await redisConnections.connect(redisPrefix);
  const name = conn.key('s3-version', s3.buckets[0]!, key);
  const raw = await conn.client.get(name);
  return { value: raw === null ? null : (JSON.parse(raw) as Record<string, unknown>), ttlMs: await conn.client.pttl(name) };
}

async function inBucket(key: string): Promise<Buffer> {
  const got = await s3.client().send(new GetObjectCommand({ Bucket: s3.buckets[0]!, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray());
}

const isCode = (code: string) => (err: unknown) => err instanceof ServiceError && err.code === code;

describe('ETag book', () => {
  test('a write through one store is seen at once through the other; stat and reads of a version kept make no S3 request', async () => {
    const { prefix, redisPrefix, made } = await instances(2);
    const [a, b] = made as [Instance, Instance];
    const p = doc('seen/doc.pdf');
    await a.store.makeFolder(p.parent);
    const v1 = Buffer.from('%PDF-1.7 version 1');
    const v2 = Buffer.from('%PDF-1.7 version 2'); // the same size: only the content tells them apart

    assert.deepEqual(await a.requests(() => a.store.writeDocument(p, v1, { conflict: 'overwrite' })), ['HeadObject seen/doc.pdf 404', 'HeadObject seen/ 200', 'PutObject seen/doc.pdf 200']);
    const record = await recordOf(redisPrefix, `${prefix}seen/doc.pdf`);
    assert.equal(record.value?.etag, etagOf(v1));
    assert.equal(record.value?.size, v1.length);
    assert.ok(record.ttlMs > ETAG_TTL_MS - 60_000 && record.ttlMs <= ETAG_TTL_MS, `the record expires: ${record.ttlMs} ms left`);

    // The writer: stat and read of what it wrote, no request.
    let stat = await a.store.statDocument(p);
    assert.deepEqual(await a.requests(async () => (stat = await a.store.statDocument(p))), []);
    assert.equal(stat?.etag, etagOf(v1));
    let read!: { bytes: Buffer; etag: string };
    assert.deepEqual(await a.requests(async () => (read = await readAll(a.store, p))), [], 'the kept copy, on the book\'s word');
    assert.ok(read.bytes.equals(v1));
    assert.equal(read.etag, etagOf(v1));

    // The other instance: stat from the book, one download, then nothing.
    assert.deepEqual(await b.requests(async () => (stat = await b.store.statDocument(p))), []);
    assert.equal(stat?.etag, etagOf(v1));
    assert.equal(stat?.size, v1.length);
    assert.deepEqual(await b.requests(async () => (read = await readAll(b.store, p))), ['GetObject seen/doc.pdf 200']);
    assert.ok(read.bytes.equals(v1));
    assert.deepEqual(await b.requests(async () => (read = await readAll(b.store, p))), []);
    assert.ok(read.bytes.equals(v1));

    // A replacement through b (a read-modify-write: If-Match checked on the record under the commit lock): one PutObject.
    assert.deepEqual(await b.requests(() => b.store.writeDocument(p, v2, { conflict: 'overwrite', ifMatch: etagOf(v1) })), ['PutObject seen/doc.pdf 200']);
    await assert.rejects(b.store.writeDocument(p, v1, { conflict: 'overwrite', ifMatch: etagOf(v1) }), isCode('PRECONDITION_FAILED'));
    // Seen through a at once: the stat without a request, the read downloads it (its kept copy is the old version).
    assert.deepEqual(await a.requests(async () => (stat = await a.store.statDocument(p))), []);
    assert.equal(stat?.etag, etagOf(v2));
    assert.deepEqual(await a.requests(async () => (read = await readAll(a.store, p))), ['GetObject seen/doc.pdf 200']);
    assert.ok(read.bytes.equals(v2));
    assert.equal(read.etag, etagOf(v2));
    assert.deepEqual(await a.requests(async () => (read = await readAll(a.store, p))), []);
    assert.ok(read.bytes.equals(v2));

    // Create if absent of a recorded name: refused without a request.
    assert.deepEqual(await a.requests(() => assert.rejects(a.store.writeDocument(p, v1, { conflict: 'fail' }), isCode('ALREADY_EXISTS'))), []);

    // Deleted through a: 404 through b at once (no record: S3 asked), though b keeps the old version.
    assert.deepEqual(await a.requests(() => a.store.deleteDocument(p)), ['DeleteObject seen/doc.pdf 204'], 'no HEAD: the record says it is there');
    assert.equal((await recordOf(redisPrefix, `${prefix}seen/doc.pdf`)).value, null);
    // Asked twice: a stat takes no commit lock, and Swift may answer 404 while a write replaces the object (client.ts readAgain).
    assert.deepEqual(await b.requests(async () => (stat = await b.store.statDocument(p))), ['HeadObject seen/doc.pdf 404', 'HeadObject seen/doc.pdf 404']);
    assert.equal(stat, null);
    await assert.rejects(b.store.openDocument(p), isCode('DOCUMENT_NOT_FOUND'));

    // A folder's delete forgets the records of what it deletes.
    const q = doc('seen/deeper/x.pdf');
    await a.store.writeDocument(q, v1, { conflict: 'overwrite' });
    await readAll(b.store, q);
    assert.ok((await recordOf(redisPrefix, `${prefix}seen/deeper/x.pdf`)).value);
    await a.store.deleteFolder(q.parent, true);
    assert.equal((await recordOf(redisPrefix, `${prefix}seen/deeper/x.pdf`)).value, null);
    assert.equal(await b.store.statDocument(q), null);
    await assert.rejects(b.store.openDocument(q), isCode('DOCUMENT_NOT_FOUND'));
  });

  test('a write that fails after the forget leaves no record: carried out but unanswered, the new version is read; refused by S3, the old one', async () => {
    const { prefix, redisPrefix, made } = await instances(2);
    const [a, b] = made as [Instance, Instance];
    const p = doc('crash/doc.pdf');
    const key = `${prefix}crash/doc.pdf`;
    const v1 = Buffer.from('%PDF-1.7 crash version 1');
    const v2 = Buffer.from('%PDF-1.7 crash version 2');
    const v3 = Buffer.from('%PDF-1.7 crash version 3');
    await a.store.writeDocument(p, v1, { conflict: 'overwrite' });
    assert.ok((await readAll(b.store, p)).bytes.equals(v1));
    assert.deepEqual(await b.requests(() => readAll(b.store, p)), [], 'b keeps v1 and the book names it');

    // The PutObject of v2 carried out by S3, its answer lost (the writer crashed or timed out): b reads v2, not its kept v1.
    a.faults.push({ command: 'PutObject', key, kind: 'lose-answer' });
    await assert.rejects(a.store.writeDocument(p, v2, { conflict: 'overwrite' }), isCode('STORE_UNAVAILABLE'));
    assert.ok((await inBucket(key)).equals(v2));
    let stat = await b.store.statDocument(p);
    assert.equal(stat?.etag, etagOf(v2), 'the stat says v2');
    let read!: { bytes: Buffer; etag: string };
    assert.deepEqual(await b.requests(async () => (read = await readAll(b.store, p))), ['GetObject crash/doc.pdf 200']);
    assert.ok(read.bytes.equals(v2), 'S3\'s current bytes, not the kept copy');
    assert.equal(read.etag, etagOf(v2));
    const afterLost = await recordOf(redisPrefix, key);

    // The PutObject of v3 refused (S3 down for it): the write fails, v2 stays and is what b reads.
    a.faults.push({ command: 'PutObject', key, kind: 'refuse' });
    await assert.rejects(a.store.writeDocument(p, v3, { conflict: 'overwrite' }), isCode('STORE_UNAVAILABLE'));
    assert.ok((await inBucket(key)).equals(v2));
    stat = await b.store.statDocument(p);
    assert.equal(stat?.etag, etagOf(v2), 'the stat says v2');
    assert.deepEqual(await b.requests(async () => (read = await readAll(b.store, p))), ['GetObject crash/doc.pdf 304'], 'the read asks S3, which confirms b\'s copy of v2');
    assert.ok(read.bytes.equals(v2));
    const afterRefused = await recordOf(redisPrefix, key);

    assert.equal(afterLost.value, null, 'no record after a write whose answer was lost');
    assert.equal(afterRefused.value, null, 'no record after a refused write');

    // The next successful write records again.
    await a.store.writeDocument(p, v3, { conflict: 'overwrite' });
    assert.equal((await recordOf(redisPrefix, key)).value?.etag, etagOf(v3));
    assert.ok((await readAll(b.store, p)).bytes.equals(v3));
  });

  test('a reader never records: one that downloaded v1 while v2 was written leaves the book naming v2', async () => {
    const { prefix, redisPrefix, made } = await instances(2);
    const [a, b] = made as [Instance, Instance];
    const p = doc('reader/doc.pdf');
    const key = `${prefix}reader/doc.pdf`;
    const v1 = Buffer.from('%PDF-1.7 reader version 1');
    const v2 = Buffer.from('%PDF-1.7 reader version 2');
    await a.store.writeDocument(p, v1, { conflict: 'overwrite' });

    // b's GET of v1 is answered, then held until a has written and recorded v2.
    let written!: () => void;
    const done = new Promise<void>((resolve) => (written = resolve));
    b.faults.push({ command: 'GetObject', key, kind: 'hold', until: done });
    const reading = readAll(b.store, p);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await a.store.writeDocument(p, v2, { conflict: 'overwrite' });
    written();
    const old = await reading;
    assert.ok(old.bytes.equals(v1), 'the read began before the write: v1 (ordered before it)');

    assert.equal((await recordOf(redisPrefix, key)).value?.etag, etagOf(v2), 'the book still names v2');
    assert.equal((await b.store.statDocument(p))?.etag, etagOf(v2));
    assert.equal((await a.store.statDocument(p))?.etag, etagOf(v2));
    let read!: { bytes: Buffer };
    assert.deepEqual(await b.requests(async () => (read = await readAll(b.store, p))), ['GetObject reader/doc.pdf 200'], 'b\'s kept v1 is not the recorded version: downloaded');
    assert.ok(read.bytes.equals(v2));
  });

  test('a writer whose commit lock ran out after its PutObject records nothing over the next writer\'s record', async () => {
    // Leases of 1 s never renewed: a holder paused past it loses the lock to the next writer.
    const { prefix, redisPrefix, made } = await instances(2, { leaseMs: 1000, renewMs: 3_600_000 });
    const [a, b] = made as [Instance, Instance];
    const p = doc('paused/doc.pdf');
    const key = `${prefix}paused/doc.pdf`;
    const v1 = Buffer.from('%PDF-1.7 paused version 1');
    const v2 = Buffer.from('%PDF-1.7 paused version 2');
    const v3 = Buffer.from('%PDF-1.7 paused version 3');
    await a.store.writeDocument(p, v1, { conflict: 'overwrite' });

    // a's PutObject of v2 is carried out, then a pauses (its answer held) while b takes the lock and writes v3.
    let resume!: () => void;
    a.faults.push({ command: 'PutObject', key, kind: 'hold', until: new Promise<void>((resolve) => (resume = resolve)) });
    const writingV2 = a.store.writeDocument(p, v2, { conflict: 'overwrite' });
    for (let waited = 0; !(await inBucket(key)).equals(v2); waited += 20) {
      assert.ok(waited < 10_000, 'a\'s PutObject of v2 arrives');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await b.store.writeDocument(p, v3, { conflict: 'overwrite' });
    assert.ok((await inBucket(key)).equals(v3));
    resume();
    await writingV2; // its write happened (before v3's); only its record is withheld
    assert.equal((await recordOf(redisPrefix, key)).value?.etag, etagOf(v3), 'the book names v3, the current version');
    assert.equal((await a.store.statDocument(p))?.etag, etagOf(v3));
    assert.ok((await readAll(a.store, p)).bytes.equals(v3), 'a\'s kept v2 is not served');
  });

  test('the book unreachable: reads and stats ask S3 and succeed; writes are refused (503) before anything is written', async () => {
    const { prefix, made } = await instances(2);
    const [a, b] = made as [Instance, Instance];
    const p = doc('down/doc.pdf');
    const v1 = Buffer.from('%PDF-1.7 down version 1');
    await a.store.writeDocument(p, v1, { conflict: 'overwrite' });
    await readAll(b.store, p);
    b.bookRedis.client.disconnect();
    const started = Date.now();
    let stat = await b.store.statDocument(p);
    let read!: { bytes: Buffer };
    assert.deepEqual(await b.requests(async () => (stat = await b.store.statDocument(p))), ['HeadObject down/doc.pdf 200']);
    assert.equal(stat?.etag, etagOf(v1));
    assert.deepEqual(await b.requests(async () => (read = await readAll(b.store, p))), ['GetObject down/doc.pdf 304']);
    assert.ok(read.bytes.equals(v1));
    assert.ok(Date.now() - started < 2000, `quick: ${Date.now() - started} ms`);
    const refused = await b.requests(() => assert.rejects(b.store.writeDocument(p, Buffer.from('%PDF-1.7 not written'), { conflict: 'overwrite' }), isCode('REDIS_UNAVAILABLE')));
    assert.ok(!refused.some((r) => r.startsWith('PutObject')), refused.join(', '));
    assert.ok((await inBucket(`${prefix}down/doc.pdf`)).equals(v1));
    await assert.rejects(b.store.deleteDocument(p), isCode('REDIS_UNAVAILABLE'));
    assert.ok((await inBucket(`${prefix}down/doc.pdf`)).equals(v1));
  });
});
