import type * as mupdf from 'mupdf';
import type { Point, Rectangle } from '../annotation-model.js';
import { pdfDateToIso } from './dates.js';

/** Small readers of PDF objects into plain values; absent or mistyped entries give undefined. */

/**
 * The object an entry refers to. Only indirect objects are resolved: MuPDF
 * answers a missing key with a shared Null object whose resolve() throws. Keep
 * a stream as its reference instead: isStream() is true for the reference only.
 */
export function deref(obj: mupdf.PDFObject): mupdf.PDFObject {
  return obj.isIndirect() ? obj.resolve() : obj;
}

export function text(obj: mupdf.PDFObject): string | undefined {
  const r = deref(obj);
  return r.isString() ? r.asString() : undefined;
}

export function name(obj: mupdf.PDFObject): string | undefined {
  const r = deref(obj);
  return r.isName() ? r.asName() : undefined;
}

export function number(obj: mupdf.PDFObject): number | undefined {
  const r = deref(obj);
  if (!r.isNumber()) return undefined;
  const n = r.asNumber();
  return Number.isFinite(n) ? round(n) : undefined;
}

/** Numbers as PDF writes them: no binary noise (0.30000000000000004). */
export function round(n: number): number {
  return Math.round(n * 1e4) / 1e4;
}

export function numbers(obj: mupdf.PDFObject, max = 100_000): number[] | undefined {
  const r = deref(obj);
  if (!r.isArray()) return undefined;
  const out: number[] = [];
  for (let i = 0; i < Math.min(r.length, max); i++) {
    const n = number(r.get(i));
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

export function bool(obj: mupdf.PDFObject): boolean | undefined {
  const r = deref(obj);
  return r.isBoolean() ? r.asBoolean() : undefined;
}

export function date(obj: mupdf.PDFObject): string | undefined {
  return pdfDateToIso(text(obj));
}

/** [x1 y1 x2 y2] in any corner order to {x, y, width, height}. */
export function rectangle(obj: mupdf.PDFObject): Rectangle | undefined {
  const n = numbers(obj, 4);
  if (!n || n.length !== 4) return undefined;
  const [x1, y1, x2, y2] = n as [number, number, number, number];
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: round(Math.abs(x2 - x1)), height: round(Math.abs(y2 - y1)) };
}

export function point(values: number[] | undefined, offset: number): Point | undefined {
  if (!values || values.length < offset + 2) return undefined;
  return { x: values[offset]!, y: values[offset + 1]! };
}

const hex = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 255).toString(16).padStart(2, '0').toUpperCase();

/** An annotation colour array (gray, RGB or CMYK) as #RRGGBB; an empty array (transparent) is undefined. */
export function color(obj: mupdf.PDFObject): string | undefined {
  const c = numbers(obj, 4);
  if (!c) return undefined;
  if (c.length === 1) return `#${hex(c[0]!)}${hex(c[0]!)}${hex(c[0]!)}`;
  if (c.length === 3) return `#${hex(c[0]!)}${hex(c[1]!)}${hex(c[2]!)}`;
  if (c.length === 4) {
    const [cy, m, y, k] = c as [number, number, number, number];
    return `#${hex((1 - cy) * (1 - k))}${hex((1 - m) * (1 - k))}${hex((1 - y) * (1 - k))}`;
  }
  return undefined;
}
