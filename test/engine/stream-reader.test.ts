/**
 * The reader MuPDF streams a large stored document through (engine/core/pdf-source.ts, streamReader) answers exactly the
 * file's bytes however it is asked (within a block, across blocks, the last short block, past the end, after its blocks
 * were dropped), in far fewer reads of the file than MuPDF's 8 KiB requests; and a task on a document over 16 MB opened
 * from its file saves the same bytes as from a copy of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { streamReader } from '../../src/engine/core/pdf-source.js';
import { editPages } from '../../src/engine/pages/assembly.js';
import { makePdf, paddedPdf } from '../helpers/pdf.js';

const KiB = 1024;

function withFile(content: Uint8Array, fn: (source: { fd: number; size: number }) => void): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'stream-reader-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, content);
  const fd = openSync(file, 'r');
  try {
    fn({ fd, size: fstatSync(fd).size });
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

test('answers the bytes at every position asked, across blocks and at the end of the file', () => {
  // Not a multiple of the block size: the last block is short.
  const content = randomBytes(3 * 256 * KiB + 12_345);
  withFile(content, (source) => {
    const read = streamReader(source);
    const memory = new Uint8Array(64 * KiB);
    const asks: [number, number][] = [
      [0, 8 * KiB], // first block
      [256 * KiB - 100, 8 * KiB], // across a block boundary
      [content.length - 5000, 8 * KiB], // the end: fewer bytes than asked
      [content.length, 8 * KiB], // past the end: nothing
      [100, 1], // a block read earlier, perhaps dropped meanwhile
      [256 * KiB * 2 - 10, 40 * KiB],
      [5, 64 * KiB - 10],
    ];
    for (let i = 0; i < 200; i++) asks.push([Math.floor(Math.random() * content.length), 1 + Math.floor(Math.random() * 16 * KiB)]);
    for (const [position, length] of asks) {
      memory.fill(0);
      const offset = length < memory.length - 7 ? 7 : 0;
      const n = read(memory, offset, Math.min(length, memory.length - offset), position);
      const expected = content.subarray(position, Math.min(content.length, position + Math.min(length, memory.length - offset)));
      assert.equal(n, expected.length, `read at ${position}`);
      assert.deepEqual(Buffer.from(memory.subarray(offset, offset + n)), Buffer.from(expected), `bytes at ${position}`);
    }
  });
});

test('a document over 16 MB opened from its file saves the same bytes as from a copy of it', () => {
  // An unreferenced 17 MB stream in an incremental update makes a small document large (test/engine/large-documents).
  const large = paddedPdf(makePdf({ pages: 3 }), 17 * 1024 * KiB);
  withFile(large, (source) => {
    const operation = { kind: 'rotate' as const, rotation: 90 };
    const fromFile = editPages({ pdf: source, operation });
    const fromBytes = editPages({ pdf: new Uint8Array(large), operation });
    assert.equal(fromFile.pageCount, 3);
    assert.deepEqual(Buffer.from(fromFile.bytes), Buffer.from(fromBytes.bytes));
  });
});
