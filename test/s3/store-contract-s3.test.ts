import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { CreateMultipartUploadCommand, ListObjectsV2Command, PutObjectCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ServiceError } from '../../src/errors.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import { etagOf } from '../../src/storage/store.js';
import { createS3Client } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { RedisLocks } from '../../src/storage/redis-lock.js';
import { RedisEtagBook } from '../../src/storage/etag-book.js';
import { redisConnectionsForSuite, redisServerForSuite } from '../helpers/redis-server.js';
import { s3ServerForSuite } from '../helpers/s3-server.js';
import { storeContract } from '../helpers/store-contract.js';

// The contract runs on the Swift test server (test/s3/), in one bucket, under a key prefix per test.
const s3 = s3ServerForSuite();
const redis = redisServerForSuite();
const redisConnections = redisConnectionsForSuite(redis, 'c');

/** Files below `dir` (recursively). */
async function countFiles(dir: string): Promise<number> {
  try {
    return (await readdir(dir, { withFileTypes: true, recursive: true })).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}

/** The keys and sizes of a document's versions area (`<prefix>.versions/<path>/`, src/storage/s3/versions.ts). */
async function versionsArea(client: S3Client, bucket: string, prefix: string, p: StoredPath): Promise<{ name: string; size: number }[]> {
  const dir = `${prefix}.versions/${p.segments.join('/')}/`;
  const found: { name: string; size: number }[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: dir, ...(ContinuationToken ? { ContinuationToken } : {}) }));
    for (const o of page.Contents ?? []) found.push({ name: o.Key!.slice(dir.length), size: o.Size ?? 0 });
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return found;
}

let serial = 0;

for (const withBook of [false, true]) {
  storeContract(withBook ? 'S3Store (Swift s3api) with Redis locks and the ETag book' : 'S3Store (Swift s3api)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-contract-'));
    const prefix = `contract-${process.pid}-${++serial}/`;
    const bucket = s3.buckets[0]!;
    const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
    // staleUploadMs 0: a restart in the test aborts every unfinished upload under its prefix, however new. Versions on, as
    // the service keeps them (PDFSERVICE_VERSIONS), and the trash (PDFSERVICE_TRASH): the contract's versions and trash sections run.
    // With the book: as main.ts builds it with PDFSERVICE_REDIS_URL (a reopened store shares the Redis prefix, as a restart would).
    const redisPrefix = redisConnections.freshPrefix();
    const shared = async () => {
      if (!withBook) return {};
      const connection = await redisConnections.connect(redisPrefix);
      return {
        documentLocks: new RedisLocks(connection, { namespace: `s3:${bucket}`, leaseMs: 5000, waitMs: 20_000 }),
        commitLock: new RedisLocks(connection, { namespace: `s3-commit:${bucket}`, leaseMs: 5000, waitMs: 20_000 }),
        etagBook: new RedisEtagBook(connection, bucket),
      };
    };
    const open = async () => {
      const store = new S3Store({ client, bucket, prefix, dataDir, staleUploadMs: 0, versions: true, trash: true, ...(await shared()) });
      await store.init();
      return store;
    };
    const store = await open();
    await store.recover();
    return {
      store,
      reopen: open,
      // Every object of the versions area (records, blobs, pointers), its size.
      versionBytes: async (p: StoredPath) => (await versionsArea(client, bucket, prefix, p)).reduce((sum, o) => sum + o.size, 0),
      leftovers: async () => (await countFiles(path.join(dataDir, 'staging'))) + (await countFiles(path.join(dataDir, 'spool'))) + (await store.openUploads()).length,
      // A crash in the middle of a multipart upload: a part sent, never completed.
      interruptWrite: async (folder: StoredPath) => {
        await store.makeFolder(folder);
        const Key = `${prefix}${[...folder.segments, 'half.pdf'].join('/')}`;
        const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key, ContentType: 'application/pdf' }));
        await client.send(new UploadPartCommand({ Bucket: bucket, Key, UploadId, PartNumber: 1, Body: Buffer.from('%PDF-1.7 half written') }));
      },
      close: async () => {
        client.destroy();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
}

// Beyond the contract: another instance creates the document between this store's check (HEAD) and its completion.
test('create-if-absent: a document another instance created after the check is not replaced (the conditional completion refuses)', async () => {
  const prefix = `instances-${process.pid}/`;
  const bucket = s3.buckets[0]!;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-instances-'));
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  const other = s3.client();
  const theirs = Buffer.from('%PDF-1.7 created by the other instance');
  // The other instance's write lands just before this store's CompleteMultipartUpload is sent: after its HEAD found the name free.
  let interpose = true;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (interpose && context.commandName === 'CompleteMultipartUploadCommand') {
        interpose = false;
        await other.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}race/once.pdf`, Body: theirs }));
      }
      return next(args);
    },
    { step: 'initialize', name: 'otherInstanceFirst' },
  );
  try {
    const store = new S3Store({ client, bucket, prefix, dataDir });
    await store.init();
    const target = documentPathFromBody('race/once.pdf', 'path');
    await assert.rejects(store.writeDocument(target, Buffer.from('%PDF-1.7 ours'), { conflict: 'fail' }), (err: unknown) => (err as ServiceError).code === 'ALREADY_EXISTS');
    assert.equal(interpose, false, 'the other write came in between');
    const opened = await store.openDocument(target);
    try {
      assert.ok((await opened.read()).equals(theirs), 'the other instance\'s document, unchanged');
    } finally {
      await opened.close();
    }
    assert.equal((await store.openUploads()).length, 0, 'the refused upload was aborted');
  } finally {
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('an object another program wrote (no tag in its metadata, or a stale one) gets the hash of its bytes, per version', async () => {
  const prefix = `foreign-${process.pid}/`;
  const bucket = s3.buckets[0]!;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-foreign-'));
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  try {
    const store = new S3Store({ client, bucket, prefix, dataDir });
    await store.init();
    const p = documentPathFromBody('in/foreign.pdf', 'path');
    const first = Buffer.from('%PDF-1.7 put by another program');
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}in/foreign.pdf`, Body: first }));
    assert.equal((await store.statDocument(p))?.etag, etagOf(first));
    assert.deepEqual((await store.listFolder(documentPathFromBody('in/foreign.pdf', 'path').parent)).map((e) => e.name), ['foreign.pdf'], 'listed without a marker');
    // Replaced by the other program, keeping the metadata of our last write: the bytes decide, not the stale tag.
    const ours = await store.writeDocument(p, Buffer.from('%PDF-1.7 ours'), { conflict: 'overwrite' });
    const second = Buffer.from('%PDF-1.7 replaced by another program');
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}in/foreign.pdf`, Body: second, Metadata: { etag: ours.stat.etag.slice(1, -1) } }));
    const opened = await store.openDocument(p);
    await opened.close();
    assert.equal(opened.stat.etag, etagOf(second));
    assert.equal((await store.statDocument(p))?.etag, etagOf(second), 'stat knows the computed tag of this version');
    await assert.rejects(store.writeDocument(p, Buffer.from('%PDF-1.7 stale'), { conflict: 'overwrite', ifMatch: ours.stat.etag }), (err: unknown) => (err as ServiceError).code === 'PRECONDITION_FAILED');
  } finally {
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('appended writes keep every version as the first bytes of the document (no blob), then of the one copy a full rewrite makes', async () => {
  const prefix = `prefixes-${process.pid}/`;
  const bucket = s3.buckets[0]!;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-prefixes-'));
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  try {
    const store = new S3Store({ client, bucket, prefix, dataDir, versions: true });
    await store.init();
    const versions = store.versions!;
    const p = documentPathFromBody('big/annotated.pdf', 'path');
    // A document and 30 appended updates (as engine/core/save.ts writes an annotation edit of a large document).
    const written = [Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(256 * 1024)])];
    for (let i = 0; i < 30; i++) written.push(Buffer.concat([written.at(-1)!, Buffer.from(`\n% update ${i}\n`), randomBytes(700)]));
    await store.writeDocument(p, written[0]!, { conflict: 'fail' });
    for (const bytes of written.slice(1)) await store.writeDocument(p, bytes, { conflict: 'overwrite' });
    const allVersions = async (expected: Buffer[], what: string) => {
      const { versions: listed } = await versions.list(p, { offset: 0, limit: 100 });
      assert.equal(listed.length, expected.length, what);
      for (const [i, v] of [...listed].reverse().entries()) {
        const opened = await versions.open(p, v.id);
        try {
          const bytes = await opened.read();
          assert.equal(etagOf(bytes), v.etag, `${what}: version ${i} hashes to its ETag`);
          assert.ok(bytes.equals(expected[i]!), `${what}: version ${i}, its bytes`);
        } finally {
          await opened.close();
        }
      }
      return listed;
    };
    await allVersions(written, '31 appended versions');
    const area = await versionsArea(client, bucket, prefix, p);
    const size = written.at(-1)!.length;
    assert.deepEqual(area.filter((o) => o.name.startsWith('b-')), [], 'no blob: every earlier version is a prefix of the document');
    // The pointer at each replaced version is the name of the record of the write that replaced it (no object of its own).
    assert.equal(area.filter((o) => o.name.startsWith('p-')).length, 0, 'no pointer object');
    assert.equal(area.filter((o) => /^v-\d{16}-[0-9a-f]{32}-[0-9a-f]{32}\.json$/.test(o.name)).length, 30, 'a pointing record per replaced version');
    // The document and its versions area together: under 2x the document (here the records alone, a few kB).
    const used = area.reduce((sum, o) => sum + o.size, 0);
    assert.ok(size + used < 2 * size, `${used} bytes of versions for a document of ${size}`);
    // A full rewrite: the one copy it makes holds every earlier version.
    const rewrite = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4096)]);
    await store.writeDocument(p, rewrite, { conflict: 'overwrite' });
    const all = [...written, rewrite];
    const listed = await allVersions(all, 'after a full rewrite');
    const blobs = (await versionsArea(client, bucket, prefix, p)).filter((o) => o.name.startsWith('b-'));
    assert.deepEqual(blobs.map((o) => o.size), [size], 'one blob, the last appended version');
    // Removing the version whose bytes hold the others keeps its blob; removing a middle one keeps the chain.
    await versions.remove(p, listed[1]!.id);
    await versions.remove(p, listed[15]!.id);
    const left = all.filter((_, i) => i !== all.length - 2 && i !== all.length - 16);
    await allVersions(left, 'two removed');
    const restarted = new S3Store({ client, bucket, prefix, dataDir, versions: true });
    await restarted.init();
    await restarted.recover();
    await allVersions(left, 'after a restart');
    assert.equal(await versions.purgeEarlier(p), left.length - 1);
    assert.deepEqual((await versionsArea(client, bucket, prefix, p)).filter((o) => !o.name.startsWith('v-') && o.name !== 'z-index.ndjson'), [], 'a purge leaves no blob or pointer');
  } finally {
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
});
