/**
 * The S3 store's versions on a bucket with native versioning (S3 keeps a noncurrent version of every key overwritten
 * or deleted): Swift started with object_versioning (test/helpers/s3-server.ts, objectVersioning), the bucket's
 * versioning Enabled. The store contract passes there as on any bucket, and a purge (a redaction) removes what S3
 * kept by itself too: no version of any key, current or not, still holds a purged version's bytes.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { GetObjectCommand, ListObjectVersionsCommand, PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { documentPathFromBody } from '../../src/storage/paths.js';
import { createS3Client } from '../../src/storage/s3/client.js';
import { S3Store } from '../../src/storage/s3/store.js';
import { etagOf } from '../../src/storage/store.js';
import { s3ServerForSuite } from '../helpers/s3-server.js';
import { storeContract } from '../helpers/store-contract.js';

const s3 = s3ServerForSuite({ objectVersioning: true });
const bucket = () => s3.buckets[0]!;
/** Versioning turned on once, before the first store opens (its recover() asks the bucket at start). */
let enabled: Promise<unknown> | undefined;
const enableVersioning = () => (enabled ??= s3.client().send(new PutBucketVersioningCommand({ Bucket: bucket(), VersioningConfiguration: { Status: 'Enabled' } })));

let serial = 0;

async function countFiles(dir: string): Promise<number> {
  return (await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])).filter((e) => e.isFile()).length;
}
async function openStore(prefix: string, reuse?: string): Promise<{ store: S3Store; dataDir: string; close: () => Promise<void> }> {
  await enableVersioning();
  const dataDir = reuse ?? (await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-native-')));
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  const store = new S3Store({ client, bucket: bucket(), prefix, dataDir, staleUploadMs: 0, versions: true });
  await store.init();
  await store.recover();
  return {
    store,
    dataDir,
    close: async () => {
      client.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

storeContract('S3Store (Swift s3api) on a bucket with native versioning', async () => {
  const prefix = `native-contract-${process.pid}-${++serial}/`;
  const opened = [await openStore(prefix)];
  return {
    store: opened[0]!.store,
    reopen: async () => {
      opened.push(await openStore(prefix, opened[0]!.dataDir)); // a restart: the same data folder
      return opened.at(-1)!.store;
    },
    // As in store-contract-s3.test.ts: staged and spooled files, and unfinished uploads.
    leftovers: async () => (await countFiles(path.join(opened[0]!.dataDir, 'staging'))) + (await countFiles(path.join(opened[0]!.dataDir, 'spool'))) + (await opened[0]!.store.openUploads()).length,
    close: async () => {
      for (const o of opened) await o.close();
    },
  };
});

/** Every version S3 keeps below `prefix` (current or not), with its bytes. */
async function everyVersion(prefix: string): Promise<{ key: string; latest: boolean; bytes: Buffer }[]> {
  const client = s3.client();
  const listed = await client.send(new ListObjectVersionsCommand({ Bucket: bucket(), Prefix: prefix }));
  return Promise.all(
    (listed.Versions ?? []).map(async (v) => {
      const got = await client.send(new GetObjectCommand({ Bucket: bucket(), Key: v.Key!, VersionId: v.VersionId! }));
      return { key: v.Key!.slice(prefix.length), latest: v.IsLatest === true, bytes: Buffer.from(await got.Body!.transformToByteArray()) };
    }),
  );
}

test('a purge removes the noncurrent versions S3 kept of the document and of the blobs: no version of any key holds the purged text', async () => {
  const prefix = `native-purge-${process.pid}/`;
  const { store, close } = await openStore(prefix);
  try {
    const p = documentPathFromBody('r/doc.pdf', 'path');
    await store.writeDocument(p, Buffer.from('%PDF-1.7 secret one'), { conflict: 'fail' });
    await store.writeDocument(p, Buffer.from('%PDF-1.7 secret two'), { conflict: 'overwrite' });
    await store.writeDocument(p, Buffer.from('%PDF-1.7 secret three'), { conflict: 'overwrite' });
    const before = await everyVersion(prefix);
    assert.ok(before.some((v) => v.key === 'r/doc.pdf' && !v.latest && v.bytes.includes('secret')), 'S3 keeps the document\'s earlier bytes by itself');
    const redacted = Buffer.from('%PDF-1.7 redacted');
    const written = await store.writeDocument(p, redacted, { conflict: 'overwrite', purgeEarlierVersions: true });
    assert.equal(written.purgedVersions, 3);
    const left = await everyVersion(prefix);
    for (const v of left) assert.ok(!v.bytes.includes('secret'), `${v.key} (${v.latest ? 'current' : 'noncurrent'}) holds the purged text`);
    assert.ok(left.some((v) => v.key === 'r/doc.pdf' && v.latest && v.bytes.equals(redacted)));
    const { versions } = await store.versions!.list(p, { offset: 0, limit: 10 });
    assert.deepEqual(versions.map((v) => v.etag), [etagOf(redacted)]);
  } finally {
    await close();
  }
});
