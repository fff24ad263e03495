/**
 * The versions benchmark's pure parts (bench/versions.ts), without a service: the pair ratios, the settings of a quick
 * and a full run, the large document it edits (valid, of the asked size), and the disk count that takes a file linked
 * twice once. No timings are checked.
 */
import assert from 'node:assert/strict';
import { link, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { distinctBytes, largeImagePdf, oneNoteXfdf, pairRatios, settings } from '../../bench/versions.js';
import { qpdfCheck } from '../helpers/pdf.js';

test('pair ratios: the lowest and highest of a[i] / b[i], none with fewer than two pairs', () => {
  assert.deepEqual(pairRatios([10, 30, 20], [10, 10, 40]), [0.5, 3]);
  assert.deepEqual(pairRatios([10, 30, 20], [5, 10]), [2, 3]);
  assert.equal(pairRatios([10], [5]), undefined);
});

test("settings: the full run is issue 39's (200 pages, 1,000 versions, 100 edits of 50 MB), the quick one smaller", () => {
  assert.deepEqual(settings(false), { pages: 200, versions: 1000, bigBytes: 50 << 20, edits: 100 });
  const quick = settings(true);
  assert.ok(quick.pages < 200 && quick.bigBytes < 50 << 20 && quick.edits < 100 && quick.versions < 1000);
  // On S3 and WebDAV the full run is the same; the quick one makes fewer versions (each PUT is several requests there).
  for (const store of ['s3', 'webdav'] as const) {
    assert.deepEqual(settings(false, store), settings(false));
    assert.ok(settings(true, store).versions < quick.versions);
  }
});

test('the large document: a valid PDF of at least the asked size, barely more', () => {
  const pdf = largeImagePdf(1 << 20);
  assert.ok(pdf.length >= 1 << 20 && pdf.length < (1 << 20) + 16_384, String(pdf.length));
  const checked = qpdfCheck(pdf);
  assert.ok(checked.ok, checked.output);
  assert.match(oneNoteXfdf('edit-1'), /<text page="0" [^>]*name="edit-1">/);
});

test('disk count: a file linked twice counts once', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-bench-versions-'));
  try {
    await writeFile(path.join(dir, 'a'), Buffer.alloc(1000));
    await link(path.join(dir, 'a'), path.join(dir, 'b-a'));
    await writeFile(path.join(dir, 'c'), Buffer.alloc(500));
    const counted = await distinctBytes(['a', 'b-a', 'c'].map((name) => path.join(dir, name)));
    assert.equal(counted.bytes, 1500);
    assert.equal(counted.files, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
