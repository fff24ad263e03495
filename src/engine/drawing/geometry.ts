import * as mupdf from 'mupdf';
import { trimmedNumber } from '../syntax/numbers.js';

/**
 * Where a stamp goes: its own origin moved to (x, y) of the page's default
 * user space and turned `rotation` degrees counter-clockwise about that point.
 */
export function stampMatrix(x: number, y: number, rotation: number): mupdf.Matrix {
  const radians = ((rotation % 360) * Math.PI) / 180;
  const cos = snap(Math.cos(radians));
  const sin = snap(Math.sin(radians));
  return [cos, sin, -sin, cos, x, y];
}

/** Quarter turns come out exact (cos 90° is 6e-17 in floating point). */
function snap(v: number): number {
  return Math.abs(v) < 1e-12 ? 0 : v;
}

/** A number as PDF content syntax takes it: at most 4 decimals, never an exponent. */
export const pdfNumber = (n: number): string => trimmedNumber(n, 4);

export const pdfNumbers = (values: readonly number[]): string => values.map(pdfNumber).join(' ');
