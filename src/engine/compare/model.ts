/** Compare (issue 40, docs/compare.md): what the engine's compare tasks take and answer. */
import type { Rectangle } from '../syntax/geometry.js';

/** The defaults and bounds of the request's options (the route's schema states them too). */
export const COMPARE_DEFAULT_DPI = 50;
export const COMPARE_MIN_DPI = 10;
export const COMPARE_MAX_DPI = 150;
/** A pixel differs when a colour channel differs by more than this (0-255): anti-aliasing noise stays under it. */
export const COMPARE_DEFAULT_THRESHOLD = 48;
/** Pages of either document, at most: past it 400 COMPARE_TOO_LARGE before any rendering. */
export const MAX_COMPARE_PAGES = 5000;

export interface CompareOptions {
  text: boolean;
  visual: boolean;
  dpi: number;
  threshold: number;
}

/** A page's fingerprint (comparePageDigests): equal digests, equal pages. */
export interface PageDigest {
  digest: string;
  width: number;
  height: number;
}

export interface CompareWord {
  text: string;
  /** In PDF user space of the page it is on. */
  rectangle: Rectangle;
}

/** What matching needs of a page that has no twin of the same digest (comparePageContent). */
export interface PageContent {
  pageIndex: number;
  words: CompareWord[];
  /** A tiny grey rendering (THUMB x THUMB), for pages with little or no text. */
  thumbnail: number[];
}

export interface PagePair {
  /** Page of the base document (the `with` one). */
  basePageIndex: number;
  /** Page of the document compared (the one in the URL). */
  pageIndex: number;
  /** 1 for pages of equal digests; else the content similarity (0-1) that paired them. */
  similarity: number;
}

export interface PageMatch {
  pairs: PagePair[];
  /** Pairs out of order (not on the longest in-order chain of pairs), by index into `pairs`. */
  moved: number[];
  insertedPages: number[];
  deletedPages: number[];
}

export interface VisualChange {
  /** In PDF user space of the document's page. */
  rectangle: Rectangle;
  /** Differing pixels at the dpi compared. */
  pixels: number;
}

export interface PairDiff {
  basePageIndex: number;
  pageIndex: number;
  insertedWords: CompareWord[];
  deletedWords: CompareWord[];
  visualChanges: VisualChange[];
}

export type PageStatus = 'unchanged' | 'changed' | 'inserted' | 'deleted';

export interface ComparePage {
  status: PageStatus;
  /** The page of the document compared; absent for a deleted page. */
  pageIndex?: number;
  /** The page of the base; absent for an inserted page. */
  basePageIndex?: number;
  /** Paired out of order: the page moved (from basePageIndex to pageIndex). */
  moved: boolean;
  similarity?: number;
  insertedWords: CompareWord[];
  deletedWords: CompareWord[];
  visualChanges: VisualChange[];
}

export interface CompareSide {
  path: string;
  etag: string;
  versionId?: string;
  pageCount: number;
}

export interface CompareReport {
  document: CompareSide;
  base: CompareSide;
  identical: boolean;
  options: CompareOptions;
  summary: {
    unchangedPages: number;
    changedPages: number;
    movedPages: number;
    insertedPages: number;
    deletedPages: number;
    insertedWords: number;
    deletedWords: number;
    visualChanges: number;
  };
  /** The document's pages in order, then the base's deleted pages in order. */
  pages: ComparePage[];
}
