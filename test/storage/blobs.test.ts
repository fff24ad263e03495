import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { DirectoryBlobs, MemoryBlobs, type BlobStore } from '../../src/storage/blobs.js';
import { stageToFile } from '../../src/storage/local-files.js';
import { etagOf, type StagedUpload } from '../../src/storage/store.js';

/**
 * The embedded blob stores (a job's result files: operations/jobs/result-files.ts) keep the same content, size and
 * tag whether given bytes, a staged file, or staged content of a store without local files (streamed, never read
 * whole), and stream it back whole or by range.
 */
const content = Buffer.from(Array.from({ length: 150_000 }, (_, i) => (i * 7) % 256));
let dir = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-blobs-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Staged content that has no local file: its bytes only, and it must not be read whole through read(). */
function remoteStaged(bytes: Buffer): StagedUpload {
  return {
    size: bytes.length,
    etag: etagOf(bytes),
    read: () => Promise.reject(new Error('read whole')),
    open: () => Promise.resolve({ size: bytes.length, fd: undefined, read: () => Promise.resolve(Buffer.from(bytes)), close: () => Promise.resolve() }),
    discard: () => Promise.resolve(),
  };
}

const stores: [string, () => BlobStore][] = [
  ['MemoryBlobs', () => new MemoryBlobs()],
  ['DirectoryBlobs', () => new DirectoryBlobs(mkdtempSync(path.join(dir, 'blobs-')))],
];

for (const [name, make] of stores) {
  test(`${name}: bytes, a staged file and staged bytes are kept alike, and streamed back whole or by range`, async () => {
    const blobs = make();
    const staged = await stageToFile(mkdtempSync(path.join(dir, 'staging-')), Readable.from([content]), Infinity);
    const inputs: [string, Uint8Array | StagedUpload][] = [
      ['bytes', new Uint8Array(content)],
      ['staged file', staged],
      ['staged bytes', remoteStaged(content)],
    ];
    for (const [kind, input] of inputs) {
      assert.deepEqual(await blobs.put('job-1', input), { size: content.length, etag: etagOf(content) }, kind);
      const open = await blobs.open('job-1');
      assert.ok(open, kind);
      assert.deepEqual(await open.read(), content, kind);
      const range = { start: 70_000, end: 140_000 };
      assert.deepEqual(Buffer.concat(await open.stream(range).toArray()), content.subarray(range.start, range.end + 1), kind);
      await open.close();
    }
    // The bytes given are copied: changing them later changes nothing kept.
    const given = new Uint8Array(content);
    await blobs.put('job-2', given);
    given.fill(0);
    const kept = (await blobs.open('job-2'))!;
    assert.deepEqual(await kept.read(), content);
    await kept.close();
    await blobs.delete('job-1');
    assert.equal(await blobs.open('job-1'), null);
    await staged.discard();
  });
}
