/**
 * The bench's `--compare REF` machinery without a service: the lockstep that makes two runs of a benchmark module take
 * turns at every measurement, and the merging of both builds' rows with its verdict. No timings are checked: the
 * order of the turns and the arithmetic on given figures.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Row } from '../../bench/annotations.js';
import { inLockstep, type Build } from '../../bench/build.js';
import { timed } from '../../bench/lib.js';
import { mergeBuildRuns, refSummary } from '../../bench/report.js';

const fake = (name: string): Build => ({
  name,
  startServer: () => Promise.reject(new Error('not started in this test')),
  startWorker: () => Promise.reject(new Error('not started in this test')),
});
const builds: [Build, Build] = [fake('A'), fake('B')];

test('lockstep: the two runs take turns at each measurement, A, B, B, A, and untimed work waits its turn', async () => {
  const order: string[] = [];
  await inLockstep(builds, 0, async (build) => {
    for (let i = 0; i < 3; i++) {
      order.push(`${build.name} untimed ${i}`);
      await timed(async () => {
        order.push(`${build.name} timed ${i}`);
        await new Promise((resolve) => setImmediate(resolve));
      });
    }
  });
  assert.deepEqual(order.filter((step) => step.includes(' timed ')).map((step) => step[0]), ['A', 'B', 'B', 'A', 'A', 'B']);
  // Each side's untimed step comes right before its own measurement, never between the other side's two.
  for (let k = 0; k < order.length; k += 2) assert.equal(order[k]![0], order[k + 1]![0], order.join('; '));
});

test('lockstep: the second side can go first, and a side that fails or ends leaves the turn to the other', async () => {
  const order: string[] = [];
  const results = await inLockstep(builds, 1, async (build) => {
    for (let i = 0; i < (build.name === 'A' ? 4 : 1); i++) {
      await timed(async () => order.push(build.name));
      if (build.name === 'B') throw new Error('B failed');
    }
    return build.name;
  });
  assert.deepEqual(order, ['B', 'A', 'A', 'A', 'A']);
  assert.equal(results[0]!.status, 'fulfilled');
  assert.equal(results[1]!.status, 'rejected');
});

test('lockstep: measurements running together on one side pass the turn once, when the last ends', async () => {
  const order: string[] = [];
  await inLockstep(builds, 0, async (build) => {
    await Promise.all([1, 2].map((n) => timed(async () => {
      order.push(`${build.name}${n}`);
      await new Promise((resolve) => setTimeout(resolve, n));
    })));
    await timed(async () => order.push(`${build.name}3`));
  });
  assert.deepEqual(order, ['A1', 'A2', 'B1', 'B2', 'B3', 'A3']);
});

const row = (operation: string, ours: number, extra: Partial<Row> = {}): Row => ({ operation, size: '1 page', ours, oursSpread: [ours * 0.9, ours * 1.1], runs: 2, unit: 'ms', ...extra });

test('merging the runs: medians per build, ours / REF over the pairs in order, peer from ours, failures kept apart', () => {
  const merged = mergeBuildRuns(
    [
      { side: 'ours', rows: [row('upload', 100, { peer: 50, peerSpread: [45, 55], ratioSpread: [1.8, 2.2], load: [1, 2] }), row('text', 10), row('listing', 300, { size: '10 of 1,000' })] },
      { side: 'ref', rows: [row('upload', 80), row('text', 10), row('listing', 150, { size: '12 of 1,000' })] },
      { side: 'ref', rows: [row('upload', 120), { operation: 'text', size: '1 page', ours: NaN, unit: '-', error: 'boom' }, row('listing', 150, { size: '9 of 1,000' })] },
      { side: 'ours', rows: [row('upload', 110, { peer: 60, peerSpread: [58, 62], ratioSpread: [1.7, 1.9], load: [3, 4] }), row('text', 12), row('listing', 330, { size: '11 of 1,000' })] },
      { side: 'ours', rows: [row('OCR (ours 10.3 pages/min)', 5)] },
      { side: 'ref', rows: [row('OCR (ours 9.6 pages/min)', 4)] },
    ],
    'main (abc)',
  );
  assert.equal(merged.length, 4);
  const [upload, text, listing, ocr] = merged;
  assert.equal(upload!.ours, 105);
  assert.deepEqual(upload!.oursSpread, [90, 121.00000000000001]);
  assert.equal(upload!.runs, 4);
  assert.equal(upload!.ref, 100);
  assert.deepEqual(upload!.refRatioSpread, [110 / 120, 100 / 80]);
  assert.equal(upload!.peer, 55);
  assert.deepEqual(upload!.peerSpread, [45, 62]);
  assert.deepEqual(upload!.ratioSpread, [1.7, 2.2]);
  assert.deepEqual(upload!.load, [1, 4]);
  assert.equal(upload!.refName, 'main (abc)');
  // Failed on REF once: our figures stay, REF's error is shown.
  assert.equal(text!.ours, 11);
  assert.equal(text!.ref, undefined);
  assert.equal(text!.refError, 'boom');
  // Matched by operation and place although the size holds a measured count.
  assert.equal(listing!.ours, 315);
  assert.equal(listing!.ref, 150);
  assert.equal(listing!.size, '10 of 1,000');
  // And although the operation holds one.
  assert.equal(ocr!.ours, 5);
  assert.equal(ocr!.ref, 4);
});

test('merging the runs: a module that failed on REF marks every row of ours with its error', () => {
  const failed: Row = { operation: 'Pages: failed', size: '-', ours: NaN, unit: '-', error: 'server did not start' };
  const merged = mergeBuildRuns([{ side: 'ours', rows: [row('text', 10)] }, { side: 'ref', rows: [failed] }], 'REF');
  assert.equal(merged[0]!.refError, 'server did not start');
  assert.equal(merged[1]!.operation, 'Pages: failed');
  assert.equal(merged[1]!.error, 'a row of REF only');
});

test('the verdict lists rows worse than REF by more than 5%, in the direction of their unit, with the spread', () => {
  const rows: Row[] = [
    { ...row('slower', 110), ref: 100, refRatioSpread: [1.08, 1.12] },
    { ...row('noisy', 110), ref: 100, refRatioSpread: [0.9, 1.3] },
    { ...row('same', 103), ref: 100, refRatioSpread: [1.01, 1.05] },
    { ...row('throughput down', 90, { unit: 'req/s' }), ref: 100, refRatioSpread: [0.85, 0.95] },
    { ...row('throughput up', 110, { unit: 'req/s' }), ref: 100, refRatioSpread: [1.05, 1.15] },
    { ...row('failed on ref', 10), refError: 'boom' },
  ];
  const lines = refSummary(rows, 'main');
  assert.match(lines[0]!, /3 of 5 compared rows worse by more than 5%/);
  assert.match(lines[1]!, /^- slower, 1 page: ours \/ ref 1\.10x \(1\.08–1\.12\); spread does not overlap 1\.0$/);
  assert.match(lines[2]!, /^- noisy, .*spread overlaps 1\.0$/);
  assert.match(lines[3]!, /^- throughput down, .*0\.90x.*higher is better/);
  assert.match(lines[4]!, /without a figure on both builds: failed on ref, 1 page \(ref: boom\)/);
});
