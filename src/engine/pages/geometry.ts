import * as mupdf from 'mupdf';
import { deref, numbers } from '../core/mupdf-objects.js';
import type { Rectangle } from '../syntax/geometry.js';
import { round } from '../syntax/readers.js';

/**
 * Page geometry, in one module: PageSpace for a loaded page (MuPDF's own transform), and for a page read from its
 * dictionary without loading it (layout's N-up, booklets, posters, crop and scale; page assembly's new pages) its
 * MediaBox and its displayed area (pageFrame).
 */

/** US Letter, what a page without a usable MediaBox is taken to be (as MuPDF does). */
const LETTER_BOX = [0, 0, 612, 792];

/** [x0 y0 x1 y1] with x0 <= x1 and y0 <= y1. */
export function normal(r: number[]): number[] {
  return [Math.min(r[0]!, r[2]!), Math.min(r[1]!, r[3]!), Math.max(r[0]!, r[2]!), Math.max(r[1]!, r[3]!)];
}

/** The page's MediaBox (inherited or not) as [x0 y0 x1 y1] with x0 <= x1 and y0 <= y1; US Letter when it has none usable. */
export function mediaBox(pageObj: mupdf.PDFObject): number[] {
  const box = numbers(pageObj.getInheritable('MediaBox'));
  return box && box.length === 4 ? normal(box) : LETTER_BOX;
}

/**
 * A page's displayed area, read from its dictionary: the CropBox within the
 * MediaBox (inherited or not), turned by /Rotate (clockwise, to the nearest
 * quarter turn), and the matrix from its user space to that area (y up,
 * origin at the lower left). Read without loading the page: MuPDF's
 * loadPage makes appearances for annotations without one, a third of the
 * time of a 200-page N-up (measured, MuPDF.js 1.28.1).
 */
export function pageFrame(pageObj: mupdf.PDFObject): { visible: mupdf.Rect; width: number; height: number; toShown: mupdf.Matrix } {
  const m = mediaBox(pageObj);
  const crop = numbers(pageObj.getInheritable('CropBox'));
  const c = crop && crop.length === 4 ? normal(crop) : m;
  let [x0, y0, x1, y1] = [Math.max(c[0]!, m[0]!), Math.max(c[1]!, m[1]!), Math.min(c[2]!, m[2]!), Math.min(c[3]!, m[3]!)] as [number, number, number, number];
  // A CropBox outside the MediaBox: the MediaBox, as MuPDF shows it.
  if (x1 <= x0 || y1 <= y0) [x0, y0, x1, y1] = m as [number, number, number, number];
  const rotate = deref(pageObj.getInheritable('Rotate'));
  const turns = (((Math.round((rotate.isNumber() ? rotate.asNumber() : 0) / 90) % 4) + 4) % 4) as 0 | 1 | 2 | 3;
  const w = x1 - x0;
  const h = y1 - y0;
  const toShown: mupdf.Matrix = [
    [1, 0, 0, 1, -x0, -y0],
    [0, -1, 1, 0, -y0, x1],
    [-1, 0, 0, -1, x1, y1],
    [0, 1, -1, 0, y1, -x0],
  ][turns] as mupdf.Matrix;
  return { visible: [x0, y0, x1, y1], width: turns % 2 ? h : w, height: turns % 2 ? w : h, toShown };
}

/**
 * Between MuPDF's page space (origin at the top left of the page as shown,
 * y down, rotation and /UserUnit applied) and PDF user space (origin at the
 * lower left, unrotated), the space every coordinate of the API is in.
 */
export class PageSpace {
  /** MuPDF page space to PDF user space: the inverse of the page transform. */
  readonly toUser: mupdf.Matrix;

  constructor(readonly page: mupdf.PDFPage) {
    this.toUser = mupdf.Matrix.invert(page.getTransform());
  }

  /** A page-space box [x0, y0, x1, y1] as a user-space rectangle. Rotations are multiples of 90°, so the result is the exact image of the box. */
  rectangle(box: ArrayLike<number>): Rectangle {
    return toRectangle(mupdf.Rect.transform([box[0]!, box[1]!, box[2]!, box[3]!], this.toUser));
  }

  /** /Rotate as MuPDF applies it (any integer or real, rounded to the nearest quarter turn), read back from its transform. */
  rotation(): 0 | 90 | 180 | 270 {
    const [a, b] = this.page.getTransform();
    if (a > 0) return 0;
    if (b > 0) return 90;
    if (a < 0) return 180;
    return 270;
  }
}

/** [x0, y0, x1, y1] (any corner order) as {x, y, width, height}, without binary noise. */
function toRectangle(r: ArrayLike<number>): Rectangle {
  const x0 = Math.min(r[0]!, r[2]!);
  const y0 = Math.min(r[1]!, r[3]!);
  return { x: round(x0), y: round(y0), width: round(Math.abs(r[2]! - r[0]!)), height: round(Math.abs(r[3]! - r[1]!)) };
}
