import * as mupdf from 'mupdf';
import type { Rectangle } from '../syntax/geometry.js';
import { round } from '../syntax/readers.js';

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
