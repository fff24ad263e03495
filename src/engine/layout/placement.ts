import * as mupdf from 'mupdf';
import { deref, numbers, resolveEntry } from '../core/mupdf-objects.js';
import { normal, pageFrame } from '../pages/geometry.js';

/**
 * A source page made drawable on another page: its content once as a Form
 * XObject, and the appearances of the annotations a viewer shows on it as
 * XObjects of their own, drawn after it (issue 40, N-up, booklet, poster).
 * `ops(m)` draws the page with `m` mapping its displayed area (the crop box
 * as shown, rotation applied, y up, origin at its lower left, `width` x
 * `height` points) onto the target page's user space.
 */
export interface Placeable {
  width: number;
  height: number;
  /** Resource names and the XObjects they name, for the target page's /XObject dictionary. */
  resources: [string, mupdf.PDFObject][];
  ops(m: mupdf.Matrix): string;
}

/** A number as a content stream writes it: at most 4 decimals, no exponent. */
export function num(v: number): string {
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? '0' : String(r);
}

const cm = (m: mupdf.Matrix) => `${m.map(num).join(' ')} cm`;

/** Annotation flags (ISO 32000-1, 12.5.3): Hidden and NoView keep an annotation off the screen. */
const HIDDEN = 2;
const NO_VIEW = 32;

/**
 * The page's content as one Form XObject. A single content stream keeps its
 * stored (compressed) bytes; several are decoded and joined, each on its
 * own line as a content array's streams are read.
 */
function pageXObject(doc: mupdf.PDFDocument, pageObj: mupdf.PDFObject, bbox: number[]): mupdf.PDFObject {
  const dict = doc.newDictionary();
  dict.put('Type', doc.newName('XObject'));
  dict.put('Subtype', doc.newName('Form'));
  dict.put('BBox', rectObject(doc, bbox));
  const resources = pageObj.getInheritable('Resources');
  dict.put('Resources', resources.isNull() ? doc.newDictionary() : resources);
  const group = pageObj.get('Group');
  if (!group.isNull()) dict.put('Group', group);
  // Streams stay references: a resolved stream's dictionary answers isStream() false and reads no data.
  const resolved = resolveEntry(pageObj.get('Contents'));
  if (resolved.isStream()) {
    for (const key of ['Filter', 'DecodeParms']) {
      const value = resolved.get(key);
      if (!value.isNull()) dict.put(key, value);
    }
    return doc.addRawStream(resolved.readRawStream(), dict);
  }
  const parts: Uint8Array[] = [];
  if (resolved.isArray()) {
    for (let i = 0; i < resolved.length; i++) {
      const part = resolveEntry(resolved.get(i));
      if (part.isStream()) parts.push(part.readStream().asUint8Array().slice(), new Uint8Array([10]));
    }
  }
  return doc.addStream(Buffer.concat(parts), dict);
}

export function rectObject(doc: mupdf.PDFDocument, r: ArrayLike<number>): mupdf.PDFObject {
  const array = doc.newArray();
  for (let i = 0; i < 4; i++) array.push(doc.newReal(r[i]!));
  return array;
}

/** The appearance stream an annotation shows in its current state, when it has one. */
function normalAppearance(annot: mupdf.PDFObject): mupdf.PDFObject | undefined {
  const ap = deref(annot.get('AP'));
  if (!ap.isDictionary()) return undefined;
  const n = resolveEntry(ap.get('N'));
  if (n.isStream()) return n;
  if (n.isDictionary()) {
    const state = deref(annot.get('AS'));
    const chosen = state.isName() ? resolveEntry(n.get(state.asName())) : undefined;
    if (chosen?.isStream()) return chosen;
  }
  return undefined;
}

/**
 * The placements of a page. Annotations are drawn from their normal
 * appearance, as a viewer shows them (ISO 32000-1, 12.5.5: the appearance's
 * BBox, transformed by its Matrix, is fitted into /Rect), clipped to the
 * page's displayed area. Links, popups and annotations without an appearance
 * are not drawn: a sheet has no annotations of its own.
 */
export function placeable(doc: mupdf.PDFDocument, index: number, prefix: string): Placeable {
  const pageObj = doc.findPage(index);
  const { visible, width, height, toShown } = pageFrame(pageObj);
  const xobject = pageXObject(doc, pageObj, visible);
  const resources: [string, mupdf.PDFObject][] = [[prefix, xobject]];
  const clip = `${num(visible[0])} ${num(visible[1])} ${num(visible[2] - visible[0])} ${num(visible[3] - visible[1])} re W n`;
  const annots: { name: string; fit: mupdf.Matrix }[] = [];
  const list = deref(pageObj.get('Annots'));
  if (list.isArray()) {
    for (let i = 0; i < list.length; i++) {
      const annot = deref(list.get(i));
      if (!annot.isDictionary()) continue;
      const subtype = deref(annot.get('Subtype'));
      if (subtype.isName() && (subtype.asName() === 'Link' || subtype.asName() === 'Popup')) continue;
      const flags = deref(annot.get('F'));
      if (flags.isNumber() && (flags.asNumber() & (HIDDEN | NO_VIEW)) !== 0) continue;
      const appearance = normalAppearance(annot);
      const rect = numbers(annot.get('Rect'));
      const bbox = appearance ? numbers(appearance.get('BBox')) : undefined;
      if (!appearance || !rect || rect.length < 4 || !bbox || bbox.length < 4) continue;
      const matrix = numbers(appearance.get('Matrix'));
      const shown = mupdf.Rect.transform(normal(bbox) as mupdf.Rect, matrix && matrix.length === 6 ? (matrix as unknown as mupdf.Matrix) : mupdf.Matrix.identity);
      const r = normal(rect);
      const bw = shown[2] - shown[0];
      const bh = shown[3] - shown[1];
      if (bw <= 0 || bh <= 0) continue;
      const fit: mupdf.Matrix = [(r[2]! - r[0]!) / bw, 0, 0, (r[3]! - r[1]!) / bh, r[0]! - (shown[0] * (r[2]! - r[0]!)) / bw, r[1]! - (shown[1] * (r[3]! - r[1]!)) / bh];
      const name = `${prefix}a${annots.length}`;
      resources.push([name, appearance]);
      annots.push({ name, fit });
    }
  }
  return {
    width,
    height,
    resources,
    ops(m) {
      const all = mupdf.Matrix.concat(toShown, m);
      let ops = `q ${cm(all)} /${prefix} Do Q\n`;
      for (const a of annots) ops += `q ${cm(all)} ${clip} ${cm(a.fit)} /${a.name} Do Q\n`;
      return ops;
    },
  };
}

/** A new page of `width` x `height` that draws `ops` with the XObjects of `resources`. */
export function sheet(doc: mupdf.PDFDocument, width: number, height: number, resources: [string, mupdf.PDFObject][], ops: string): mupdf.PDFObject {
  const xobjects = doc.newDictionary();
  for (const [name, obj] of resources) xobjects.put(name, obj);
  const res = doc.newDictionary();
  res.put('XObject', xobjects);
  return doc.addPage([0, 0, width, height], 0, res, ops);
}
