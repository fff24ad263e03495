import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { heldContentStream } from '../../src/open-file.js';
import { openContent } from '../../src/storage/local-files.js';

/**
 * heldContentStream (src/open-file.ts), the one way held content is streamed out (downloads, an action's file answer,
 * a one-shot's result, a blob's copy): the bytes asked for, from a descriptor or from bytes, and `done` once the
 * stream is over, whether it ended or was destroyed early. An fd stream that ends emits no 'close', so a listener on
 * 'close' alone (as the copies it replaced had) never released what held the content at a natural end.
 */
const content = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
let dir = '';
let file = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-held-stream-'));
  file = path.join(dir, 'content');
  writeFileSync(file, content);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The content held as its owners hold it: an open local file (storage's openContent), or bytes only (a store without local files). */
async function held(kind: 'fd' | 'bytes') {
  const handle = await fs.open(file, 'r');
  const open = openContent(handle, content.length);
  if (kind === 'fd') return { open, handle };
  return { open: { size: open.size, fd: undefined, read: open.read }, handle };
}

function doneCounter(): { done: () => Promise<void>; calls: () => number; settled: Promise<void> } {
  let calls = 0;
  let resolve: () => void = () => {};
  const settled = new Promise<void>((r) => (resolve = r));
  return {
    done: () => {
      calls += 1;
      resolve();
      return Promise.resolve();
    },
    calls: () => calls,
    settled,
  };
}

for (const kind of ['fd', 'bytes'] as const) {
  test(`${kind}: all of it, then done once, at the stream's natural end`, async () => {
    const { open, handle } = await held(kind);
    const counter = doneCounter();
    try {
      const stream = heldContentStream(open, undefined, counter.done);
      assert.deepEqual(Buffer.concat(await stream.toArray()), content);
      await counter.settled;
      assert.equal(counter.calls(), 1);
    } finally {
      await handle.close();
    }
  });

  test(`${kind}: a byte range, ends included`, async () => {
    const { open, handle } = await held(kind);
    try {
      for (const range of [{ start: 0, end: 0 }, { start: 1000, end: 65_536 + 7 }, { start: content.length - 3, end: content.length - 1 }]) {
        const got = Buffer.concat(await heldContentStream(open, range).toArray());
        assert.deepEqual(got, content.subarray(range.start, range.end + 1));
      }
    } finally {
      await handle.close();
    }
  });

  test(`${kind}: destroyed early (a client gone), done once, and the descriptor is still the owner's to close`, async () => {
    const { open, handle } = await held(kind);
    const counter = doneCounter();
    const stream = heldContentStream(open, undefined, counter.done);
    stream.destroy();
    await counter.settled;
    assert.equal(counter.calls(), 1);
    // Not closed by the stream: the owner's close succeeds (no EBADF).
    await handle.close();
  });
}
