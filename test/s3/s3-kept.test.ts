/**
 * The S3 store's requests (issue 24's latency target): kept versions read again with a conditional GET, one
 * PutObject for create-if-absent under a shared (Redis) commit lock, no HEAD after a write. Against the Swift test
 * server and a real Redis, with two stores on one bucket prefix as two instances; each store's client counts the
 * commands it sends (a middleware), so the tests say which requests each operation makes.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ServiceError } from '../../src/errors.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { RedisLocks } from '../../src/storage/redis-lock.js';
import { createS3Client, s3Status } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { etagOf, type DocumentStore, type OpenDocument } from '../../src/storage/store.js';
import { redisConnectionsForSuite, redisServerForSuite } from '../helpers/redis-server.js';
import { s3ServerForSuite } from '../helpers/s3-server.js';

const s3 = s3ServerForSuite();
const redis = redisServerForSuite();
const redisConnections = redisConnectionsForSuite(redis, 'k');
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** One command as the store sent it: its name (without "Command"), key, If-None-Match, and the status S3 answered. */
interface Sent {
  command: string;
  key: string;
  ifNoneMatch?: string | undefined;
  status: number | undefined;
}

/** Records every command the client sends (once per command, before the SDK's retries, which these tests never need). */
function counting(client: S3Client): Sent[] {
  const sent: Sent[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string; IfNoneMatch?: string };
      const entry: Sent = { command: (context.commandName ?? '?').replace(/Command$/, ''), key: input.Key ?? '', status: undefined, ...(input.IfNoneMatch ? { ifNoneMatch: input.IfNoneMatch } : {}) };
      sent.push(entry);
      try {
        const out = await next(args);
        entry.status = (out.output as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        return out;
      } catch (err) {
        entry.status = s3Status(err);
        throw err;
      }
    },
    { step: 'initialize', name: 'countCommands' },
  );
  return sent;
}

interface Instance {
  store: S3Store;
  sent: Sent[];
  dataDir: string;
  /** The commands `run` made, as "Command key-without-prefix status". */
  requests(run: () => Promise<unknown>): Promise<string[]>;
}

let serial = 0;

/**
 * Stores on one bucket prefix, as instances of one service: each its own client, data folder and, with `redis`,
 * its own Redis connection with the service's lock namespaces (so their commit locks are shared), else in-process locks.
 */
async function instances(count: number, options: { redis: boolean }): Promise<{ prefix: string; made: Instance[] }> {
  const prefix = `kept-${process.pid}-${++serial}/`;
  const redisPrefix = redisConnections.freshPrefix();
  const made: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
    const sent = counting(client);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-kept-'));
    cleanups.push(async () => {
      client.destroy();
      await rm(dataDir, { recursive: true, force: true });
    });
    const locks = options.redis
      ? {
          documentLocks: new RedisLocks(await redisConnections.connect(redisPrefix), { namespace: 's3:test', leaseMs: 5000, waitMs: 20_000 }),
          commitLock: new RedisLocks(await redisConnections.connect(redisPrefix), { namespace: 's3-commit:test', leaseMs: 5000, waitMs: 20_000 }),
        }
      : {};
    const store = new S3Store({ client, bucket: s3.buckets[0]!, prefix, dataDir, ...locks });
    await store.init();
    await store.recover();
    made.push({
      store,
      sent,
      dataDir,
      requests: async (run) => {
        const from = sent.length;
        await run();
        return sent.slice(from).map((s) => `${s.command} ${s.key.startsWith(prefix) ? s.key.slice(prefix.length) : s.key} ${s.status ?? 'none'}`);
      },
    });
  }
  return { prefix, made };
}

const doc = (p: string): StoredPath => documentPathFromBody(p, 'path');

async function readAll(store: DocumentStore, p: StoredPath): Promise<{ bytes: Buffer; opened: OpenDocument }> {
  const opened = await store.openDocument(p);
  try {
    return { bytes: await opened.read(), opened };
  } finally {
    await opened.close();
  }
}

/** The object as S3 holds it now, read with a client of its own (not through a store). */
async function inBucket(key: string): Promise<{ bytes: Buffer; s3Etag: string | undefined; modified: Date | undefined }> {
  const got = await s3.client().send(new GetObjectCommand({ Bucket: s3.buckets[0]!, Key: key }));
  return { bytes: Buffer.from(await got.Body!.transformToByteArray()), s3Etag: got.ETag, modified: got.LastModified };
}

async function filesIn(dir: string): Promise<number> {
  try {
    return (await readdir(dir)).length;
  } catch {
    return 0;
  }
}

const isCode = (code: string) => (err: unknown) => err instanceof ServiceError && err.code === code;

describe('kept versions', () => {
  test('the read after a write and every read after that is a GET with If-None-Match answered 304: the same bytes, tag and time, no download', async () => {
    const { prefix, made } = await instances(2, { redis: false });
    const [a, b] = made as [Instance, Instance];
    const p = doc('reads/doc.pdf');
    const bytes = Buffer.from('%PDF-1.7 read me twice');
    const written = await a.store.writeDocument(p, bytes, { conflict: 'overwrite' });
    const s3Etag = (await inBucket(`${prefix}reads/doc.pdf`)).s3Etag;
    assert.ok(s3Etag);
    assert.equal(await filesIn(path.join(a.dataDir, 'kept')), 1, 'the written version is kept');

    for (let round = 0; round < 2; round++) {
      let read!: { bytes: Buffer; opened: OpenDocument };
      const requests = await a.requests(async () => {
        read = await readAll(a.store, p);
      });
      assert.deepEqual(requests, ['GetObject reads/doc.pdf 304'], `read ${round + 1}: one conditional GET, answered 304`);
      assert.equal(a.sent.at(-1)?.ifNoneMatch, s3Etag, 'the condition names the S3 ETag the write answered');
      assert.ok(read.bytes.equals(bytes), 'the kept bytes are the document\'s');
      assert.equal(read.opened.stat.etag, written.stat.etag);
      assert.equal(read.opened.stat.etag, etagOf(bytes));
      assert.equal(read.opened.stat.size, bytes.length);
      // The time of the 304 answer's Last-Modified: what stat and listings say for this version.
      assert.equal(read.opened.stat.modified.getTime(), (await a.store.statDocument(p))?.modified.getTime());
      assert.equal(read.opened.stat.modified.getTime(), (await a.store.listFolder(p.parent)).find((e) => e.name === 'doc.pdf')?.modified.getTime());
    }

    // Another instance downloads it once, then reads its own kept copy the same way.
    assert.deepEqual(await b.requests(() => readAll(b.store, p)), ['GetObject reads/doc.pdf 200']);
    let again!: { bytes: Buffer };
    assert.deepEqual(await b.requests(async () => (again = await readAll(b.store, p))), ['GetObject reads/doc.pdf 304']);
    assert.ok(again.bytes.equals(bytes));

    // A document read while another reader holds the kept file open: each open is its own descriptor.
    const first = await a.store.openDocument(p);
    const second = await a.store.openDocument(p);
    await first.close();
    assert.ok((await second.read()).equals(bytes));
    await second.close();
  });

  test('a version another instance wrote or deleted is never served from the kept copy: the changed one is downloaded, the deleted one is 404', async () => {
    const { prefix, made } = await instances(2, { redis: false });
    const [a, b] = made as [Instance, Instance];
    const p = doc('changed/doc.pdf');
    const v1 = Buffer.from('%PDF-1.7 version 1');
    const v2 = Buffer.from('%PDF-1.7 version 2'); // the same size: only the content tells them apart
    await a.store.writeDocument(p, v1, { conflict: 'overwrite' });
    assert.ok((await readAll(a.store, p)).bytes.equals(v1));

    await b.store.writeDocument(p, v2, { conflict: 'overwrite' });
    let read!: { bytes: Buffer; opened: OpenDocument };
    assert.deepEqual(await a.requests(async () => (read = await readAll(a.store, p))), ['GetObject changed/doc.pdf 200'], 'S3 refuses the condition: a download');
    assert.ok(read.bytes.equals(v2), 'the other instance\'s version');
    assert.equal(read.opened.stat.etag, etagOf(v2));
    assert.deepEqual(await a.requests(() => readAll(a.store, p)), ['GetObject changed/doc.pdf 304'], 'and that download is kept');

    // Replaced through a multipart upload (create if absent with the in-process lock: one part, ETag "<md5>-1").
    await b.store.deleteDocument(p);
    await assert.rejects(a.store.openDocument(p), isCode('DOCUMENT_NOT_FOUND'), 'deleted elsewhere: 404, not the kept copy');
    const v3 = Buffer.from('%PDF-1.7 version 3, created anew');
    await b.store.writeDocument(p, v3, { conflict: 'fail' });
    assert.match((await inBucket(`${prefix}changed/doc.pdf`)).s3Etag ?? '', /-1"$/, 'a multipart object');
    assert.ok((await readAll(a.store, p)).bytes.equals(v3));
    assert.deepEqual(await b.requests(() => readAll(b.store, p)), ['GetObject changed/doc.pdf 304'], 'a multipart object\'s S3 ETag works as a condition');
    assert.deepEqual(await a.requests(() => readAll(a.store, p)), ['GetObject changed/doc.pdf 304']);

    // Deleting through this store drops its kept copy; a folder's delete drops those below it.
    await a.store.deleteDocument(p);
    assert.equal(await filesIn(path.join(a.dataDir, 'kept')), 0);
    await a.store.writeDocument(doc('changed/deeper/x.pdf'), v1, { conflict: 'overwrite' });
    await a.store.writeDocument(doc('other/y.pdf'), v2, { conflict: 'overwrite' });
    assert.equal(await filesIn(path.join(a.dataDir, 'kept')), 2);
    await a.store.deleteFolder(doc('changed/deeper/x.pdf').parent.parent, true);
    assert.equal(await filesIn(path.join(a.dataDir, 'kept')), 1, 'only the version outside the folder is kept');
    // A restart (recover) starts with nothing kept.
    await a.store.recover();
    assert.equal(await filesIn(path.join(a.dataDir, 'kept')), 0);
    assert.deepEqual(await a.requests(() => readAll(a.store, doc('other/y.pdf'))), ['GetObject other/y.pdf 200']);
  });
});

describe('requests per operation', () => {
  test('create-if-absent under shared Redis commit locks is one PutObject; racing creators in two stores never overwrite each other', async () => {
    const { prefix, made } = await instances(2, { redis: true });
    const [a, b] = made as [Instance, Instance];
    await a.store.makeFolder(doc('race/x.pdf').parent);
    const first = Buffer.from('%PDF-1.7 created once');
    assert.deepEqual(
      await a.requests(() => a.store.writeDocument(doc('race/first.pdf'), first, { conflict: 'fail' })),
      ['HeadObject race/first.pdf 404', 'HeadObject race/ 200', 'PutObject race/first.pdf 200'],
      'the check under the lock, the folder\'s marker, one PUT: no multipart upload, no HEAD after it',
    );
    await assert.rejects(b.store.writeDocument(doc('race/first.pdf'), Buffer.from('%PDF-1.7 again'), { conflict: 'fail' }), isCode('ALREADY_EXISTS'));
    assert.ok((await inBucket(`${prefix}race/first.pdf`)).bytes.equals(first));

    // Eight creators of one name at once, alternating the two stores: one wins, the others are refused, and the bucket holds the winner's bytes.
    for (const round of [1, 2, 3]) {
      const p = doc(`race/round-${round}.pdf`);
      const contents = [...Array(8)].map((_, i) => Buffer.from(`%PDF-1.7 round ${round} writer ${i}`));
      const results = await Promise.allSettled(contents.map((c, i) => (i % 2 === 0 ? a : b).store.writeDocument(p, c, { conflict: 'fail' })));
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      assert.equal(won.length, 1, `round ${round}: exactly one creator wins`);
      for (const r of results) if (r.status === 'rejected') assert.ok(isCode('ALREADY_EXISTS')(r.reason), String(r.reason));
      assert.ok((await inBucket(`${prefix}race/round-${round}.pdf`)).bytes.equals(contents[won[0]!]!), 'the winner\'s bytes, not overwritten');
      // And each store reads the winner's version, whatever it kept.
      for (const s of [a, b]) assert.ok((await readAll(s.store, p)).bytes.equals(contents[won[0]!]!));
    }

    // Six `unique` creators of one name at once: six documents, each holding its own writer's bytes.
    const contents = [...Array(6)].map((_, i) => Buffer.from(`%PDF-1.7 unique writer ${i}`));
    const results = await Promise.all(contents.map((c, i) => (i % 2 === 0 ? a : b).store.writeDocument(doc('race/many.pdf'), c, { conflict: 'unique' })));
    assert.equal(new Set(results.map((r) => r.path.toString())).size, 6);
    for (const [i, r] of results.entries()) assert.ok((await inBucket(prefix + r.path.segments.join('/'))).bytes.equals(contents[i]!), r.path.toString());
    assert.equal(a.sent.concat(b.sent).filter((s) => s.command === 'CreateMultipartUpload').length, 0, 'no multipart upload for small documents');
  });

  test('with the in-process commit lock, create-if-absent stays a multipart upload completed with If-None-Match: *', async () => {
    const { made } = await instances(1, { redis: false });
    const [a] = made as [Instance];
    await a.store.makeFolder(doc('local/x.pdf').parent);
    const requests = await a.requests(() => a.store.writeDocument(doc('local/new.pdf'), Buffer.from('%PDF-1.7 local'), { conflict: 'fail' }));
    assert.deepEqual(
      requests.map((r) => r.replace(/ \d+$/, '')),
      ['HeadObject local/new.pdf', 'HeadObject local/', 'CreateMultipartUpload local/new.pdf', 'UploadPart local/new.pdf', 'CompleteMultipartUpload local/new.pdf'],
      'no HEAD after the completion',
    );
  });

  test('upload, stat, read, read-modify-write and replace: at most the requests each needs, none after a write', async () => {
    const { prefix, made } = await instances(1, { redis: true });
    const [a] = made as [Instance];
    await a.store.makeFolder(doc('ops/x.pdf').parent);
    const p = doc('ops/doc.pdf');
    const v1 = Buffer.from('%PDF-1.7 ops version 1');

    // An upload (PUT, overwrite) of a new document: the check, the folder's marker, the PUT (before: and a HEAD after it).
    let written!: Awaited<ReturnType<S3Store['writeDocument']>>;
    assert.deepEqual(await a.requests(async () => (written = await a.store.writeDocument(p, v1, { conflict: 'overwrite' }))), ['HeadObject ops/doc.pdf 404', 'HeadObject ops/ 200', 'PutObject ops/doc.pdf 200']);
    assert.equal(written.created, true);
    // Its time is the PUT answer's Date: at most a second before S3's Last-Modified for the version (Swift rounds that up).
    const head = await s3.client().send(new HeadObjectCommand({ Bucket: s3.buckets[0]!, Key: `${prefix}ops/doc.pdf` }));
    const lag = head.LastModified!.getTime() - written.stat.modified.getTime();
    assert.ok(lag >= 0 && lag <= 1000, `modified ${written.stat.modified.toISOString()}, Last-Modified ${head.LastModified!.toISOString()}`);

    // A DocumentModel or annotation listing (stat, then read): a HEAD and a conditional GET answered 304 (before: 200 and a download).
    assert.deepEqual(
      await a.requests(async () => {
        await a.store.statDocument(p);
        await readAll(a.store, p);
      }),
      ['HeadObject ops/doc.pdf 200', 'GetObject ops/doc.pdf 304'],
    );

    // A read-modify-write in place (an annotation saved, a stamp on the document): the read, the check, the PUT; no folder
    // marker looked for, the document being there (before: GET 200, HEAD, HEAD of the marker, PUT, HEAD).
    const v2 = Buffer.from('%PDF-1.7 ops version 2');
    assert.deepEqual(
      await a.requests(async () => {
        const release = await a.store.lock(p);
        try {
          const { opened } = await readAll(a.store, p);
          const replaced = await a.store.writeDocument(p, v2, { conflict: 'overwrite', ifMatch: opened.stat.etag });
          assert.equal(replaced.created, false);
        } finally {
          release();
        }
      }),
      ['GetObject ops/doc.pdf 304', 'HeadObject ops/doc.pdf 200', 'PutObject ops/doc.pdf 200'],
    );
    assert.deepEqual(await a.requests(() => readAll(a.store, p)), ['GetObject ops/doc.pdf 304'], 'the replacement is kept');
    assert.ok((await readAll(a.store, p)).bytes.equals(v2));

    // A result saved beside it (savePath, create if absent): the check, the marker, one PUT (before: a HEAD, the
    // marker, CreateMultipartUpload, UploadPart, CompleteMultipartUpload, a HEAD).
    assert.deepEqual(await a.requests(() => a.store.writeDocument(doc('ops/doc-stamped.pdf'), v2, { conflict: 'fail' })), [
      'HeadObject ops/doc-stamped.pdf 404',
      'HeadObject ops/ 200',
      'PutObject ops/doc-stamped.pdf 200',
    ]);
  });
});
