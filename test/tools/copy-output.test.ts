/**
 * A program's output is copied into the caller's file in blocks, edited on the way (tools/input-file.ts, copyOutput:
 * Ghostscript's PDF/A output, its dates and a level-U claim, issue 35 item 8): the copy holds exactly what editing the
 * whole file at once gives, for occurrences anywhere, across the blocks' boundaries and in the bytes two windows share,
 * and the file it replaces is cut to its size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { copyOutput, OUTPUT_EDIT_SPAN } from '../../src/tools/input-file.js';

const MiB = 1024 * 1024;
const BLOCK = 4 * MiB;
const FROM = Buffer.from('(D:20261126005819Z)');
const TO = Buffer.from('(D:20261126005819+)');

/** Replaces every FROM by TO in `bytes`, in place (the same length). */
function edit(bytes: Buffer): void {
  for (let at = bytes.indexOf(FROM); at >= 0; at = bytes.indexOf(FROM, at + 1)) TO.copy(bytes, at);
}

test('the copy is the whole file edited at once, with occurrences across block boundaries and in shared bytes', async () => {
  const content = randomBytes(3 * BLOCK + 12_345);
  // Where the windows meet: the first window ends at BLOCK, and its last OUTPUT_EDIT_SPAN bytes start the next one.
  const places = [0, 1000, BLOCK - FROM.length, BLOCK - 5, BLOCK - OUTPUT_EDIT_SPAN - 3, BLOCK - OUTPUT_EDIT_SPAN + 2, BLOCK + 1, 2 * BLOCK - OUTPUT_EDIT_SPAN - 7, 3 * BLOCK - 9, content.length - FROM.length];
  for (const at of places) FROM.copy(content, at);
  const expected = Buffer.from(content);
  edit(expected);
  assert.equal(expected.indexOf(FROM), -1);
  const dir = mkdtempSync(path.join(tmpdir(), 'copy-output-'));
  try {
    const from = path.join(dir, 'out.pdf');
    const into = path.join(dir, 'scratch');
    writeFileSync(from, content);
    // The file it replaces is longer: it is cut to the copy's size.
    writeFileSync(into, randomBytes(content.length + 777));
    const fd = openSync(into, 'r+');
    try {
      const size = await copyOutput(from, { fd }, edit);
      assert.equal(size, content.length);
    } finally {
      closeSync(fd);
    }
    const copied = readFileSync(into);
    assert.equal(copied.length, content.length);
    assert.ok(copied.equals(expected), 'the copy differs from the file edited whole');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a copy without edits is the file; an empty output copies nothing', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'copy-output-'));
  try {
    for (const content of [randomBytes(BLOCK), randomBytes(BLOCK + OUTPUT_EDIT_SPAN), Buffer.alloc(0)]) {
      const from = path.join(dir, 'out.pdf');
      const into = path.join(dir, 'scratch');
      writeFileSync(from, content);
      writeFileSync(into, 'old content');
      const fd = openSync(into, 'r+');
      try {
        assert.equal(await copyOutput(from, { fd }), content.length);
      } finally {
        closeSync(fd);
      }
      assert.ok(readFileSync(into).equals(content));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
