/** The outline (bookmarks) model shared by both threads (no MuPDF): docs/outline.md. */

/** Deepest nesting written or read: real outlines stay under ten levels; a deeper one is a depth bomb. */
export const MAX_OUTLINE_DEPTH = 64;
/** Most items written or read: a book's detailed outline has a few thousand. */
export const MAX_OUTLINE_ITEMS = 10_000;
/** Longest title written, in characters. */
export const MAX_OUTLINE_TITLE = 4096;

export const FIT_TYPES = ['XYZ', 'Fit', 'FitH', 'FitV', 'FitR', 'FitB', 'FitBH', 'FitBV'] as const;
export type FitType = (typeof FIT_TYPES)[number];

/** Where an item leads inside the document: a page and the view of it (ISO 32000-1 12.3.2.2). */
export interface OutlineDestination {
  pageIndex: number;
  /** The view; absent: /Fit when written, and a destination read without one. */
  fit?: FitType;
  left?: number;
  top?: number;
  right?: number;
  bottom?: number;
  /** XYZ only; 0 or absent keeps the viewer's zoom. */
  zoom?: number;
}

/** An item's text colour, /C: DeviceRGB components from 0 to 1. */
export interface OutlineColor {
  red: number;
  green: number;
  blue: number;
}

export interface OutlineItem {
  title: string;
  /** Whether its children show (/Count positive); false for an item without children. */
  open: boolean;
  bold: boolean;
  italic: boolean;
  /** /C, absent: black. */
  color?: OutlineColor;
  destination?: OutlineDestination;
  /** The named destination the item's destination came from (read only: written as the resolved destination). */
  namedDestination?: string;
  /** A URI action's address. */
  uri?: string;
  /** The type (/S) of an action other than GoTo and URI (read only: not written). */
  action?: string;
  children?: OutlineItem[];
}

export interface OutlineModel {
  items: OutlineItem[];
  /** Items in the whole tree. */
  itemCount: number;
  /** What was left out of a damaged or hostile outline, and why. */
  warnings: string[];
}

/** An item to write, as the operations layer checked it. */
export interface OutlineItemInput {
  title: string;
  open?: boolean;
  bold?: boolean;
  italic?: boolean;
  color?: OutlineColor;
  destination?: OutlineDestination;
  uri?: string;
  children?: OutlineItemInput[];
}
