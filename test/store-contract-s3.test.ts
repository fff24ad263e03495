import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type { ServiceError } from '../src/errors.js';
import { documentPathFromBody, type StoredPath } from '../src/storage/paths.js';
import { etagOf } from '../src/storage/store.js';
import { createS3Client } from '../src/storage/s3/client.js';
import { S3Store } from '../src/storage/s3/store.js';
import { s3ServerForSuite } from './helpers/s3-server.js';
import { storeContract } from './helpers/store-contract.js';

// The contract runs on the Swift test server (test/s3/), in one bucket, under a key prefix per test.
const s3 = s3ServerForSuite();

/** Files below `dir` (recursively). */
async function countFiles(dir: string): Promise<number> {
  try {
    return (await readdir(dir, { withFileTypes: true, recursive: true })).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}

let serial = 0;

storeContract('S3Store (Swift s3api)', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-contract-'));
  const prefix = `contract-${process.pid}-${++serial}/`;
  const bucket = s3.buckets[0]!;
  const client = createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  // staleUploadMs 0: a restart in the test aborts every unfinished upload under its prefix, however new.
  const open = async () => {
    const store = new S3Store({ client, bucket, prefix, dataDir, staleUploadMs: 0 });
    await store.init();
    return store;
  };
  const store = await open();
  await store.recover();
  return {
    store,
    reopen: open,
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

// Beyond the contract: two stores over one prefix, as two instances (each with its own in-process commit lock).
test('create-if-absent holds across instances: of concurrent creators through two stores exactly one wins', async () => {
  const prefix = `instances-${process.pid}/`;
  const bucket = s3.buckets[0]!;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-s3-instances-'));
  const clients = [0, 1].map(() => createS3Client({ endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true }));
  try {
    const stores = clients.map((client, i) => new S3Store({ client, bucket, prefix, dataDir: path.join(dataDir, String(i)) }));
    for (const store of stores) await store.init();
    const target = documentPathFromBody('race/once.pdf', 'path');
    const candidates = Array.from({ length: 8 }, (_, i) => Buffer.from(`%PDF-1.7 instance racer ${i} ${'x'.repeat(1000)}`));
    const results = await Promise.allSettled(candidates.map((c, i) => stores[i % 2]!.writeDocument(target, c, { conflict: 'fail' })));
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    assert.equal(won.length, 1, `one winner: ${results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'won')).join('; ')}`);
    for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as ServiceError).code, 'ALREADY_EXISTS');
    const opened = await stores[1 - (won[0]! % 2)]!.openDocument(target);
    try {
      assert.ok((await opened.read()).equals(candidates[won[0]!]!), 'the winner\'s bytes, seen by the other instance');
      assert.equal(opened.stat.etag, etagOf(candidates[won[0]!]!));
    } finally {
      await opened.close();
    }
    assert.equal((await stores[0]!.openUploads()).length, 0, 'the losers\' uploads were aborted');
  } finally {
    for (const client of clients) client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
});
