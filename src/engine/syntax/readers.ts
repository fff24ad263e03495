import type { Point, Rectangle } from './geometry.js';
import { pdfDateToIso } from './dates.js';
import { decodeTextString, PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from './parser.js';

/** Readers of parsed PDF values (parser.ts); absent or mistyped values give undefined. */

export function isDict(v: PdfValue | undefined): v is PdfDict {
  return v instanceof Map;
}

export function text(v: PdfValue | undefined): string | undefined {
  return v instanceof PdfString ? decodeTextString(v.bytes) : undefined;
}

export function name(v: PdfValue | undefined): string | undefined {
  return v instanceof PdfName ? v.name : undefined;
}

export function ref(v: PdfValue | undefined): number | undefined {
  return v instanceof PdfRef ? v.num : undefined;
}

/** Numbers as PDF writes them: no binary noise (0.30000000000000004). */
export function round(n: number): number {
  return Math.round(n * 1e4) / 1e4;
}

export function number(v: PdfValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? round(v) : undefined;
}

export function numbers(v: PdfValue | undefined): number[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: number[] = [];
  for (const item of v) {
    const n = number(item);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

export function bool(v: PdfValue | undefined): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

export function date(v: PdfValue | undefined): string | undefined {
  return pdfDateToIso(text(v));
}

/** [x1 y1 x2 y2] in any corner order to {x, y, width, height}. */
export function rectangle(v: PdfValue | undefined): Rectangle | undefined {
  const n = numbers(v);
  if (!n || n.length !== 4) return undefined;
  const [x1, y1, x2, y2] = n as [number, number, number, number];
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: round(Math.abs(x2 - x1)), height: round(Math.abs(y2 - y1)) };
}

export function point(values: number[] | undefined, offset: number): Point | undefined {
  if (!values || values.length < offset + 2) return undefined;
  return { x: values[offset]!, y: values[offset + 1]! };
}

const hex = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 255).toString(16).padStart(2, '0').toUpperCase();

/** #RRGGBB as the RGB components (0 to 1) MuPDF and PDF colour arrays take: the inverse of `color`. */
export function rgb(hexColour: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hexColour.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** An annotation colour array (gray, RGB or CMYK) as #RRGGBB; an empty array (transparent) is undefined. */
export function color(v: PdfValue | undefined): string | undefined {
  const c = numbers(v);
  if (!c) return undefined;
  if (c.length === 1) return `#${hex(c[0]!)}${hex(c[0]!)}${hex(c[0]!)}`;
  if (c.length === 3) return `#${hex(c[0]!)}${hex(c[1]!)}${hex(c[2]!)}`;
  if (c.length === 4) {
    const [cy, m, y, k] = c as [number, number, number, number];
    return `#${hex((1 - cy) * (1 - k))}${hex((1 - m) * (1 - k))}${hex((1 - y) * (1 - k))}`;
  }
  return undefined;
}
