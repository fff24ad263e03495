/**
 * The export model (docs/export.md): a document as blocks in reading order, from which every export format is written.
 * Plain data, so that it crosses the worker boundary and is the JSON format as it is.
 */
import type { Rectangle } from '../syntax/geometry.js';

/** xlsx and csv are written from the tables alone (sheets.ts). */
export const EXPORT_FORMATS = ['json', 'markdown', 'html', 'docx', 'xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The formats written from the tables alone (sheets.ts). */
export const SHEET_FORMATS = ['xlsx', 'csv'] as const;
export type SheetFormat = (typeof SHEET_FORMATS)[number];
export const isSheetFormat = (format: string): format is SheetFormat => (SHEET_FORMATS as readonly string[]).includes(format);

export interface ExportFont {
  name: string;
  size: number;
  bold: boolean;
  italic: boolean;
}

interface BlockBase {
  /** Bounding box in PDF user space (origin lower left of the unrotated page), in points. */
  rectangle: Rectangle;
}

export interface TextBlock extends BlockBase {
  type: 'heading' | 'paragraph' | 'listItem';
  text: string;
  font: ExportFont;
  /** heading: 1 (largest text on the exported pages) to 6. */
  level?: number;
  /** listItem: numbered (1., a), iv.) or not (a bullet). */
  ordered?: boolean;
  /** The block's external links (URI link annotations over its words), in text order; absent when it has none. */
  links?: TextLink[];
}

/** A link in a text block: the words its area covers (as they read in the block's text) and where it goes. */
export interface TextLink {
  text: string;
  uri: string;
}

export interface TableCell {
  text: string;
  rowSpan: number;
  colSpan: number;
}

export interface TableBlock extends BlockBase {
  type: 'table';
  /** Rows top to bottom, cells left to right; the first row is the header row of the Markdown and HTML exports. */
  rows: TableCell[][];
}

export interface ImageBlock extends BlockBase {
  type: 'image';
  /** A tagged document's figure: its alternative text (/Alt, else /ActualText), absent when it has none. */
  alt?: string;
  /** DOCX only (never in the JSON): the image as PNG, when it was read and fits the bounds of docs/export.md. */
  png?: Uint8Array;
}

export type ExportBlock = TextBlock | TableBlock | ImageBlock;

export interface ExportPage {
  pageIndex: number;
  width: number;
  height: number;
  /** Where the blocks come from: the document's structure tree (a tagged PDF) or the layout analysis. */
  source: 'structure' | 'layout';
  /** source layout on a tagged document: why its structure tree was not used for the page. */
  structureUnused?: string;
  blocks: ExportBlock[];
}

export interface ExportModel {
  pageCount: number;
  pages: ExportPage[];
  /** What was left out: running headers and footers, page numbers (as counts), and pages without text. */
  removed: { runningLines: number };
  warnings: string[];
}
