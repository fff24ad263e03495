/** The split's request and answer, shared by the engine (which makes the parts) and the operations layer (no MuPDF). */

/** How a document is cut into parts (docs/merge-split.md, "Split"). */
export type SplitBy =
  /** One part per range, in the order given (1-based print-dialog ranges, engine/pages/range.ts); ranges may overlap. */
  | { kind: 'ranges'; ranges: string[] }
  /** Parts of `pages` pages each, the last one shorter. */
  | { kind: 'every'; pages: number }
  /**
   * Consecutive pages, as many as fit in `maxBytes` (greedy from the first page); a page that alone is larger is a part
   * of its own, over the size (its part says `oversized`).
   */
  | { kind: 'size'; maxBytes: number }
  /** A part starts at each top-level bookmark's page (pages before the first one are a part of their own). */
  | { kind: 'bookmarks' }
  /** Pages that are blank (rendered ink below `inkThreshold`, engine/blank's measure) separate the parts; the separators are in no part. */
  | { kind: 'blank'; inkThreshold: number };

/** Most parts a split writes: a document of 10,000 pages split into single pages. */
export const MAX_SPLIT_PARTS = 10_000;


/**
 * One of `count` shares of a split, made by a worker of its own (SplitDocumentAction): the parts from
 * floor(index * parts / count) up to the next share's first, in order. Not for `size` (greedy from the first page) or
 * `blank` (its plan renders every page: each share would render them all again).
 */
export interface SplitShare {
  index: number;
  count: number;
}

export interface SplitPartResult {
  /** Zero-based indexes of the source's pages, in the part's order. */
  pages: number[];
  /** The written part. */
  bytes: Uint8Array;
  /** The top-level bookmark the part starts at (bookmarks mode). */
  title?: string;
  /** Size mode: the part is one page larger than maxBytes by itself. */
  oversized?: boolean;
}

export interface SplitResult {
  /** Pages of the source. */
  pageCount: number;
  /** The parts made (a share's: those of its share). */
  parts: SplitPartResult[];
  /** Parts of the whole split (all shares). */
  partCount: number;
  /** Blank mode: the zero-based indexes of the pages found blank (in no part). */
  blankPages?: number[];
}
