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
import { medianInterval } from '../../bench/lib.js';
import { cells } from '../../bench/report.js';
import { distinctBytes, largeImagePdf, oneNoteXfdf, onOffRow, pairRatios, settings, WRITE_PAIRS } from '../../bench/versions.js';
import { qpdfCheck } from '../helpers/pdf.js';

test('pair ratios: the lowest and highest of a[i] / b[i], none with fewer than two pairs', () => {
  assert.deepEqual(pairRatios([10, 30, 20], [10, 10, 40]), [0.5, 3]);
  assert.deepEqual(pairRatios([10, 30, 20], [5, 10]), [2, 3]);
  assert.equal(pairRatios([10], [5]), undefined);
});

test("the median's order-statistic interval: the 7th and 15th of 21 values at 90%, exact coverage, none below 5", () => {
  const values = Array.from({ length: 21 }, (_, i) => 21 - i); // 21..1, unsorted on purpose
  const interval = medianInterval(values, 0.9)!;
  assert.equal(interval.low, 7);
  assert.equal(interval.high, 15);
  // 1 - 2 P(Binomial(21, 1/2) <= 6) = 1 - 2 * 82160 / 2^21
  assert.ok(Math.abs(interval.coverage - (1 - (2 * 82160) / 2 ** 21)) < 1e-12, String(interval.coverage));
  assert.ok(interval.coverage >= 0.9);
  // 5 values: the extremes (coverage 1 - 2/32); 4: no 90% interval exists.
  assert.deepEqual(medianInterval([5, 1, 4, 2, 3], 0.9), { low: 1, high: 5, coverage: 1 - 2 / 32 });
  assert.equal(medianInterval([1, 2, 3, 4], 0.9), undefined);
});

test('versions on/off rows: met only when the whole interval is at most 1.05, undecided when it straddles', () => {
  assert.ok(WRITE_PAIRS >= 21);
  const off = Array.from({ length: 21 }, () => 100);
  const row = (ratios: number[]) => onOffRow('write', '200 pages', 200, ratios.map((r) => r * 100), off, true);
  // Ratios 0.90..1.10 in steps of 0.01: median 1.00, interval [0.96, 1.04].
  const tight = row(Array.from({ length: 21 }, (_, i) => 0.9 + i / 100));
  assert.equal(tight.met, true);
  assert.equal(tight.undecided, undefined);
  assert.ok(Math.abs(tight.pairwise!.median - 1) < 1e-9 && Math.abs(tight.pairwise!.low - 0.96) < 1e-9 && Math.abs(tight.pairwise!.high - 1.04) < 1e-9);
  // Ratios 0.5..2.5: median 1.5 but interval [1.1, 1.9]: missed, not undecided.
  const slow = row(Array.from({ length: 21 }, (_, i) => 0.5 + i / 10));
  assert.equal(slow.met, false);
  assert.equal(slow.undecided, undefined);
  // Ratios 0.5..1.5: median 1.0, interval [0.8, 1.2] straddles 1.05: not met, undecided.
  const wide = row(Array.from({ length: 21 }, (_, i) => 0.5 + i / 20));
  assert.equal(wide.met, false);
  assert.equal(wide.undecided, true);
  // The table says which: the statistic, its interval, and undecided apart from missed.
  const [, , , , ratio, , met] = cells(wide, false);
  assert.match(ratio!, /^median of 21 pairwise ratios 1\.000x, 92% interval 0\.800–1\.200 /);
  assert.equal(met, '**no** (undecided)');
  assert.equal(cells(slow, false)[6], '**no**');
  assert.equal(cells(tight, false)[6], 'yes');
  // Not at the size: figures only.
  const small = onOffRow('write', '1 page', 1, [1, 2, 3, 4, 5], [1, 1, 1, 1, 1], false);
  assert.equal(small.met, undefined);
  assert.equal(small.target, undefined);
  assert.ok(small.pairwise);
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
