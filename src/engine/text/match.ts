/**
 * Finding a search term in a page's extracted text: pure, no MuPDF. The
 * engine extracts each page's characters with their quads; this module turns
 * the term into a pattern, finds every match (no cap on their number, unlike
 * MuPDF's own search) and merges a match's character quads into one quad per
 * line it spans.
 */
import { EngineError } from '../errors.js';

/** A quadrilateral in MuPDF's order: upper-left, upper-right, lower-left, lower-right (x, y pairs). */
export type Quad = [number, number, number, number, number, number, number, number];

export interface SearchOptions {
  searchText: string;
  caseSensitive?: boolean | undefined;
  wholeWord?: boolean | undefined;
  regex?: boolean | undefined;
}

/**
 * A page's text as one string, with a quad for each UTF-16 unit and the line
 * each unit belongs to. Quads are kept flat, eight numbers per unit, because
 * a page holds thousands of characters and an array per character costs more
 * in garbage collection than the search itself; a unit without a quad (the
 * line breaks the extractor inserts, the second half of a surrogate pair) has
 * NaN in its first slot.
 */
export interface PageText {
  text: string;
  quads: Float64Array;
  lines: Int32Array;
}

/** Whether unit i of the text has a quad. */
export function hasQuad(page: PageText, i: number): boolean {
  return !Number.isNaN(page.quads[i * 8]!);
}

/**
 * Units a PageTextBuilder makes room for at first, doubling when full. Small: most texts are an annotation's few
 * words (a redaction reads each annotation's twice), and zero-filling 1,024 units (72 KB) for each made the
 * builder's constructor and the garbage it left a tenth of applying redactions to a one-page document.
 */
const INITIAL_UNITS = 64;

/** Collects characters line by line into a PageText. */
export class PageTextBuilder {
  private readonly parts: string[] = [];
  private quads = new Float64Array(8 * INITIAL_UNITS);
  private lines = new Int32Array(INITIAL_UNITS);
  private length = 0;
  private line = 0;

  private push(quad: ArrayLike<number> | undefined): void {
    if (this.length === this.lines.length) {
      const quads = new Float64Array(this.quads.length * 2);
      quads.set(this.quads);
      this.quads = quads;
      const lines = new Int32Array(this.lines.length * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    const o = this.length * 8;
    if (quad) for (let k = 0; k < 8; k++) this.quads[o + k] = quad[k]!;
    else this.quads[o] = Number.NaN;
    this.lines[this.length] = this.line;
    this.length++;
  }

  add(c: string, quad: ArrayLike<number>): void {
    this.parts.push(c);
    for (let i = 0; i < c.length; i++) this.push(i === 0 ? quad : undefined);
  }

  /** Ends a line: a newline, so whitespace in a term matches across lines. */
  endLine(): void {
    this.parts.push('\n');
    this.push(undefined);
    this.line++;
  }

  build(): PageText {
    return { text: this.parts.join(''), quads: this.quads.subarray(0, this.length * 8), lines: this.lines.subarray(0, this.length) };
  }
}

/** A literal term as a RegExp source: special characters escaped, each run of whitespace matching any whitespace. */
export function literalPattern(term: string): string {
  return term.trim().split(/\s+/u).map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('\\s+');
}

const WORD_CHAR = '[\\p{L}\\p{N}_]';

/**
 * The term as a global Unicode RegExp. A literal term matches any run of
 * whitespace (including a line break) where it has whitespace; a regular
 * expression is taken as written. A pattern that does not compile is the
 * client's error.
 */
export function searchPattern(options: SearchOptions): RegExp {
  const term = options.searchText;
  let source: string;
  if (options.regex) {
    source = term;
  } else {
    source = literalPattern(term);
  }
  if (options.wholeWord) source = `(?<!${WORD_CHAR})(?:${source})(?!${WORD_CHAR})`;
  const flags = options.caseSensitive ? 'gu' : 'giu';
  try {
    return new RegExp(source, flags);
  } catch (err) {
    throw new EngineError('INVALID_SEARCH', `searchText is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export interface TextMatch {
  /** The matched text as extracted (line breaks as spaces). */
  text: string;
  /** One quad per line the match spans. */
  quads: Quad[];
}

/** [start, end) of every non-empty match of a global pattern in `text`, flat: start, end, start, end... */
export function matchSpans(text: string, pattern: RegExp): Int32Array {
  const spans: number[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0].length === 0) {
      // An empty match marks nothing; step on so the loop ends.
      pattern.lastIndex++;
      continue;
    }
    spans.push(m.index, m.index + m[0].length);
  }
  return Int32Array.from(spans);
}

/**
 * Every non-empty match of the pattern in the page text, in reading order.
 * `spans` are the matches when they were found elsewhere (a client's regular
 * expression runs under a time budget in its own thread: regex-budget.ts).
 */
export function findMatches(page: PageText, pattern: RegExp, spans = matchSpans(page.text, pattern)): TextMatch[] {
  const matches: TextMatch[] = [];
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i]!;
    const end = spans[i + 1]!;
    const quads = mergeQuads(page, start, end);
    if (quads.length) matches.push({ text: page.text.slice(start, end).replace(/\s+/gu, ' ').trim(), quads });
  }
  return matches;
}

/** The characters [start, end) as one quad per line: from the first character's left edge to the last one's right edge. */
function mergeQuads(page: PageText, start: number, end: number): Quad[] {
  const merged: Quad[] = [];
  let first = -1;
  let last = -1;
  let line = -1;
  const q = page.quads;
  const flush = () => {
    if (first >= 0 && last >= 0) {
      const f = first * 8;
      const l = last * 8;
      merged.push([q[f]!, q[f + 1]!, q[l + 2]!, q[l + 3]!, q[f + 4]!, q[f + 5]!, q[l + 6]!, q[l + 7]!]);
    }
    first = last = -1;
  };
  for (let i = start; i < end; i++) {
    if (!hasQuad(page, i)) continue;
    if (page.lines[i] !== line) {
      flush();
      line = page.lines[i]!;
    }
    // Spaces at a match's edges add nothing to cover.
    const space = /\s/u.test(page.text[i]!);
    if (space && first < 0) continue;
    if (first < 0) first = i;
    if (!space) last = i;
  }
  flush();
  return merged;
}

/** Axis-aligned bounds of a quad, as [x0, y0, x1, y1]. */
export function quadBounds(q: Quad): [number, number, number, number] {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Whether a point lies inside a (convex) quad. Allocation-free: it runs for every character against every box. */
export function quadContains(q: Quad, x: number, y: number): boolean {
  // Corners in drawing order: ul, ur, lr, ll; the point must be on the same side of all four edges.
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = CORNER_ORDER[i]!;
    const b = CORNER_ORDER[(i + 1) % 4]!;
    const ax = q[a]!;
    const ay = q[a + 1]!;
    const cross = (q[b]! - ax) * (y - ay) - (q[b + 1]! - ay) * (x - ax);
    if (Math.abs(cross) < 1e-9) continue;
    const s = cross > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

/** Offsets of ul, ur, lr, ll in a Quad. */
const CORNER_ORDER = [0, 2, 6, 4] as const;

/** How often a literal string occurs in a text, whitespace runs compared as one space. */
export function countOccurrences(text: string, needle: string): number {
  const normalised = needle.replace(/\s+/gu, ' ').trim();
  if (!normalised) return 0;
  const hay = text.replace(/\s+/gu, ' ');
  let count = 0;
  for (let i = hay.indexOf(normalised); i !== -1; i = hay.indexOf(normalised, i + 1)) count++;
  return count;
}
