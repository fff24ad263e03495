/**
 * The pure parts of compare (docs/compare.md): a word diff, page matching and the grouping of differing pixels into
 * boxes. No MuPDF here: the tasks of this folder call these in the worker that rendered or extracted the pages.
 */
import { diffArrays } from 'diff';
import type { PageContent, PageMatch, PagePair } from './model.js';

/**
 * Which items of `a` and of `b` are on a shortest edit script between them: `deleted[i]` for a[i] not kept,
 * `inserted[j]` for b[j] new. jsdiff's array diff (Myers' O(ND) algorithm) does the search; past `maxEdits` it gives
 * up and everything between the common ends counts as changed (two unrelated pages need no minimal script, and the
 * search's cost grows with the square of the edits).
 */
export function diffSequences(a: readonly string[], b: readonly string[], maxEdits = 4000): { deleted: boolean[]; inserted: boolean[] } {
  const deleted = new Array<boolean>(a.length).fill(false);
  const inserted = new Array<boolean>(b.length).fill(false);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const changes = endA > start && endB > start ? diffArrays(a.slice(start, endA), b.slice(start, endB), { maxEditLength: maxEdits }) : undefined;
  if (!changes) {
    for (let i = start; i < endA; i++) deleted[i] = true;
    for (let j = start; j < endB; j++) inserted[j] = true;
    return { deleted, inserted };
  }
  let i = start;
  let j = start;
  for (const change of changes) {
    const n = change.count;
    if (change.removed) for (let k = 0; k < n; k++) deleted[i++] = true;
    else if (change.added) for (let k = 0; k < n; k++) inserted[j++] = true;
    else {
      i += n;
      j += n;
    }
  }
  return { deleted, inserted };
}

/** Text under this many words is matched by its thumbnail instead. */
const FEW_WORDS = 5;
/** Pairs under these similarities are not made: the pages are one deleted and one inserted. */
const MIN_TEXT_SIMILARITY = 0.5;
const MIN_THUMB_SIMILARITY = 0.9;

/** A page's words counted, made once per page for all its comparisons. */
interface Counted {
  content: PageContent;
  words: string[];
  counts: Map<string, number>;
  /** The words joined: pages of equal text pair before any similarity is computed. */
  key: string;
}

function counted(content: PageContent): Counted {
  const words = content.words.map((w) => w.text);
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return { content, words, counts, key: words.join('\u0000') };
}

/** Of the words of two pages, the share they have in common (multiset Jaccard). */
function textSimilarity(a: Counted, b: Counted): number {
  let common = 0;
  for (const [w, n] of b.counts) common += Math.min(n, a.counts.get(w) ?? 0);
  const union = a.words.length + b.words.length - common;
  return union === 0 ? 1 : common / union;
}

function thumbSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return 1 - sum / (255 * a.length);
}

function pageSimilarity(a: Counted, b: Counted): number {
  if (a.words.length >= FEW_WORDS || b.words.length >= FEW_WORDS) {
    const s = textSimilarity(a, b);
    return s >= MIN_TEXT_SIMILARITY ? s : 0;
  }
  const s = thumbSimilarity(a.content.thumbnail, b.content.thumbnail);
  return s >= MIN_THUMB_SIMILARITY ? s : 0;
}

/**
 * Pages paired: first those of equal digests (each base page to the first free page of its digest in the document,
 * in order, so repeated equal pages pair in order), then the rest by content similarity, best first (ties to the
 * nearer position). Pairs off the longest chain that keeps both orders are moves.
 */
export function matchPages(baseDigests: readonly string[], digests: readonly string[], baseContent: readonly PageContent[], content: readonly PageContent[]): PageMatch {
  const pairs: PagePair[] = [];
  const free = new Map<string, number[]>();
  digests.forEach((d, j) => {
    const list = free.get(d);
    if (list) list.push(j);
    else free.set(d, [j]);
  });
  const pairedBase = new Set<number>();
  const paired = new Set<number>();
  baseDigests.forEach((d, i) => {
    const j = free.get(d)?.shift();
    if (j === undefined) return;
    pairs.push({ basePageIndex: i, pageIndex: j, similarity: 1 });
    pairedBase.add(i);
    paired.add(j);
  });
  const left = baseContent.filter((c) => !pairedBase.has(c.pageIndex)).map(counted);
  const right = content.filter((c) => !paired.has(c.pageIndex)).map(counted);
  // Pages of the same words (a document written again by another program): paired in order, similarity 1.
  const byText = new Map<string, Counted[]>();
  for (const b of right) {
    if (b.words.length < FEW_WORDS) continue;
    const list = byText.get(b.key);
    if (list) list.push(b);
    else byText.set(b.key, [b]);
  }
  for (const a of left) {
    const b = a.words.length >= FEW_WORDS ? byText.get(a.key)?.shift() : undefined;
    if (!b) continue;
    pairs.push({ basePageIndex: a.content.pageIndex, pageIndex: b.content.pageIndex, similarity: 1 });
    pairedBase.add(a.content.pageIndex);
    paired.add(b.content.pageIndex);
  }
  const candidates: { a: number; b: number; s: number; distance: number }[] = [];
  for (const a of left) {
    if (pairedBase.has(a.content.pageIndex)) continue;
    for (const b of right) {
      if (paired.has(b.content.pageIndex)) continue;
      const s = pageSimilarity(a, b);
      if (s > 0) candidates.push({ a: a.content.pageIndex, b: b.content.pageIndex, s, distance: Math.abs(a.content.pageIndex - b.content.pageIndex) });
    }
  }
  candidates.sort((x, y) => y.s - x.s || x.distance - y.distance);
  for (const c of candidates) {
    if (pairedBase.has(c.a) || paired.has(c.b)) continue;
    pairs.push({ basePageIndex: c.a, pageIndex: c.b, similarity: Math.round(c.s * 1000) / 1000 });
    pairedBase.add(c.a);
    paired.add(c.b);
  }
  pairs.sort((x, y) => x.pageIndex - y.pageIndex);
  const chain = longestIncreasing(pairs.map((p) => p.basePageIndex));
  const moved = pairs.flatMap((_p, i) => (chain.has(i) ? [] : [i]));
  return {
    pairs,
    moved,
    insertedPages: digests.flatMap((_d, j) => (paired.has(j) ? [] : [j])),
    deletedPages: baseDigests.flatMap((_d, i) => (pairedBase.has(i) ? [] : [i])),
  };
}

/** The positions of one longest strictly increasing subsequence of `values` (patience sorting, O(n log n)). */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = []; // positions of the smallest tail of each length
  const previous = new Array<number>(values.length).fill(-1);
  values.forEach((v, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (values[tails[mid]!]! < v) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  });
  const chain = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) chain.add(i);
  return chain;
}

/** Cells of the grid differing pixels are grouped on, in pixels a side. */
const CELL = 4;
/** Changed cells this many cells apart (or less) are one region: the letters of a word, the parts of a picture. */
const REACH = 2;

/** A box of differing pixels, in pixels of the rendering: [x0, y0, x1, y1), and how many pixels differ in it. */
export interface PixelRegion {
  box: [number, number, number, number];
  pixels: number;
}

/**
 * The regions where two RGB renderings (3 bytes a pixel, their strides) differ: a pixel differs when a channel differs
 * by more than `threshold`; where one rendering is larger, its pixels outside the other count when not white. Pixels
 * are counted on a grid of CELL-pixel cells, and changed cells within REACH of each other are one region (connected
 * components on the coarse grid).
 */
export function differingRegions(
  a: { pixels: Uint8Array | Uint8ClampedArray; width: number; height: number; stride: number },
  b: { pixels: Uint8Array | Uint8ClampedArray; width: number; height: number; stride: number },
  threshold: number,
): PixelRegion[] {
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const cols = Math.ceil(width / CELL);
  const rows = Math.ceil(height / CELL);
  const cells = new Uint32Array(cols * rows);
  const pixel = (img: typeof a, x: number, y: number, c: number) => (x < img.width && y < img.height ? img.pixels[y * img.stride + x * 3 + c]! : 255);
  for (let y = 0; y < height; y++) {
    const row = ((y / CELL) | 0) * cols;
    const inBoth = y < a.height && y < b.height;
    for (let x = 0; x < width; x++) {
      let differs = false;
      if (inBoth && x < a.width && x < b.width) {
        const pa = y * a.stride + x * 3;
        const pb = y * b.stride + x * 3;
        differs = Math.abs(a.pixels[pa]! - b.pixels[pb]!) > threshold || Math.abs(a.pixels[pa + 1]! - b.pixels[pb + 1]!) > threshold || Math.abs(a.pixels[pa + 2]! - b.pixels[pb + 2]!) > threshold;
      } else {
        for (let c = 0; c < 3 && !differs; c++) differs = Math.abs(pixel(a, x, y, c) - pixel(b, x, y, c)) > threshold;
      }
      if (differs) cells[row + ((x / CELL) | 0)]!++;
    }
  }
  const regions: PixelRegion[] = [];
  const seen = new Uint8Array(cells.length);
  const stack: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || seen[start]) continue;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    let pixels = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const cell = stack.pop()!;
      const cx = cell % cols;
      const cy = (cell / cols) | 0;
      pixels += cells[cell]!;
      x0 = Math.min(x0, cx);
      y0 = Math.min(y0, cy);
      x1 = Math.max(x1, cx);
      y1 = Math.max(y1, cy);
      for (let ny = Math.max(0, cy - REACH); ny <= Math.min(rows - 1, cy + REACH); ny++) {
        for (let nx = Math.max(0, cx - REACH); nx <= Math.min(cols - 1, cx + REACH); nx++) {
          const n = ny * cols + nx;
          if (cells[n] && !seen[n]) {
            seen[n] = 1;
            stack.push(n);
          }
        }
      }
    }
    regions.push({ box: [x0 * CELL, y0 * CELL, Math.min(width, (x1 + 1) * CELL), Math.min(height, (y1 + 1) * CELL)], pixels });
  }
  return regions;
}
