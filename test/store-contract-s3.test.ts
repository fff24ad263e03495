import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type { StoredPath } from '../src/storage/paths.js';
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
