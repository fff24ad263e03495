/**
 * etagsOfContent (store.ts): a write's ETag and the ETag of its first bytes in one pass (the filesystem store's proof
 * that a write appends to the version it replaces), against sha256 computed here, with prefixes inside, at and across
 * the hash slices, for content whose ETag was not known yet and for content hashed before (a job's write; then from the
 * state kept after a whole slice, used twice).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { etagOfContent, etagsOfContent } from '../../src/storage/store.js';

const sha = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;

test('the ETag of the content and of its first bytes, known before or not', async () => {
  const MiB = 1 << 20;
  const content = randomBytes(3 * MiB + 123);
  for (const prefix of [1, 4096, MiB - 1, MiB, MiB + 1, 2 * MiB, 2 * MiB + 7, 3 * MiB, content.length - 1]) {
    for (const known of [false, true]) {
      const bytes = Uint8Array.from(content); // a new array: nothing known of it
      if (known) await etagOfContent(bytes);
      const tags = await etagsOfContent(bytes, prefix);
      assert.equal(tags.etag, sha(content), `the content's ETag (prefix ${prefix}, known ${known})`);
      assert.equal(tags.prefix, sha(content.subarray(0, prefix)), `the first ${prefix} bytes' ETag (known ${known})`);
      // Known: hashed from a state etagOfContent kept, which a first use leaves as it was.
      const again = await etagsOfContent(bytes, Math.max(1, prefix - 1));
      assert.equal(again.prefix, sha(content.subarray(0, Math.max(1, prefix - 1))), `the first ${prefix - 1} bytes' ETag, asked second (known ${known})`);
    }
  }
});
