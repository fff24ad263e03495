/**
 * The page models shared by the engine (which builds them) and the HTTP layer
 * (which validates requests against these limits and renders the models as
 * JSON, XML or text). No MuPDF in this module. See docs/pages.md.
 */
import type { Rectangle } from '../syntax/geometry.js';

/** PageModel: one page's geometry. */
export interface PageModel {
  pageIndex: number;
  /** Points (1/72 inch) as displayed: the crop box after rotation, times /UserUnit. */
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  /** PDF user space. */
  mediaBox: Rectangle;
  /** The crop box in effect: /CropBox clipped to the media box, the media box when absent. */
  cropBox: Rectangle;
  /** Annotations in /Annots, Popup, Link and Widget included, counted as GET .../annotations lists them. */
  annotationCount: number;
}

export const TEXT_DETAILS = ['words', 'lines', 'blocks'] as const;
export type TextDetail = (typeof TEXT_DETAILS)[number];

/** A word, line or block of text with its bounding box in PDF user space. */
export interface TextUnit {
  text: string;
  rectangle: Rectangle;
}

/** PageTextModel: a page's text, with its words, lines or blocks when asked. */
export interface PageTextModel {
  pageIndex: number;
  text: string;
  words?: TextUnit[];
  lines?: TextUnit[];
  blocks?: TextUnit[];
}

export const IMAGE_FORMATS = ['png', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Page image resolution: bounds and default. */
export const MIN_DPI = 10;
export const MAX_DPI = 300;
export const DEFAULT_DPI = 96;
/** Largest page image, in pixels: an RGB pixmap this size takes 75 MB of WASM memory before encoding. */
export const MAX_PIXELS = 25_000_000;
/** Largest side in pixels (JPEG cannot hold more than 65,535). */
export const MAX_SIDE = 30_000;
