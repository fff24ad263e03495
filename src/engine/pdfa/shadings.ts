import type * as mupdf from 'mupdf';
import { contentHolders, deref, loadedObjects, name } from '../core/mupdf-objects.js';
import { contentTokens } from '../syntax/content-tokens.js';

/**
 * PDF/A-1 keeps PDF 1.4's implementation limit on real numbers, 32767
 * (ISO 19005-1, 6.1.12). Axial and radial shadings drawn with `sh` under a
 * tiny matrix can have coordinates far beyond it (pdfjs/text-extraction/
 * tracemonkey.pdf: Coords of 2,000,000 under a 0.00008 scale); Ghostscript
 * then writes them into tiling patterns just as large. The same picture with
 * smaller numbers: the shading's coordinates (Coords, radii, BBox) divided by
 * a power of ten, and each `/Name sh` that paints it in a content stream
 * becomes `q s 0 0 s 0 0 cm /Name sh Q` (sh paints within the clip, which the
 * added matrix does not move); a shading pattern's Matrix is scaled instead.
 * Answers what was done, as report lines.
 */
export function scaleLargeShadings(doc: mupdf.PDFDocument): string[] {
  const scaled = new Map<number, number>(); // shading object number -> factor
  const done: string[] = [];
  const shadingOf = (ref: mupdf.PDFObject): number | undefined => {
    if (!ref.isIndirect()) return undefined;
    const num = ref.asIndirect();
    if (!scaled.has(num)) scaled.set(num, scaleShading(deref(ref)));
    const factor = scaled.get(num)!;
    return factor > 1 ? factor : undefined;
  };
  // Shading patterns first: their Matrix takes the factor, no content changes.
  for (const { obj } of loadedObjects(doc)) {
    if (!obj.isDictionary()) continue;
    const patternType = deref(obj.get('PatternType'));
    if (name(obj.get('Type')) !== 'Pattern' || !patternType.isNumber() || patternType.asNumber() !== 2) continue;
    const factor = shadingOf(obj.get('Shading'));
    if (!factor) continue;
    const matrix = deref(obj.get('Matrix'));
    const m = [0, 1, 2, 3, 4, 5].map((i) => (matrix.isArray() && matrix.length === 6 ? deref(matrix.get(i)).asNumber() : i === 0 || i === 3 ? 1 : 0));
    const next = doc.newArray();
    m.forEach((v, i) => next.push(i < 4 ? v * factor : v));
    obj.put('Matrix', next);
    done.push('shading patterns scaled within PDF/A-1 number limits');
  }
  // Content that paints shadings with sh: pages (their inherited resources), forms, tiling patterns, Type 3 glyphs.
  const rewrite = (resources: mupdf.PDFObject, streams: mupdf.PDFObject[]) => {
    if (!resources.isDictionary()) return;
    const shadings = deref(resources.get('Shading'));
    if (!shadings.isDictionary()) return;
    const factors = new Map<string, number>();
    shadings.forEach((ref, key) => {
      const factor = shadingOf(ref);
      if (factor) factors.set(String(key), factor);
    });
    if (!factors.size) return;
    for (const stream of streams) {
      if (!stream.isStream()) continue;
      const changed = wrapShadingOperators(stream.readStream().asUint8Array(), factors);
      if (changed) {
        stream.writeStream(changed);
        done.push('content painting large shadings given a scale');
      }
    }
  };
  for (const holder of contentHolders(doc, ['page', 'form', 'tiling', 'type3'])) rewrite(holder.resources, holder.streams);
  return done;
}

const LIMIT = 32767;

/** Divides an axial or radial shading's coordinates by a power of ten when one is beyond the limit; answers the factor (1: unchanged). */
function scaleShading(shading: mupdf.PDFObject): number {
  if (!shading.isDictionary()) return 1;
  const type = deref(shading.get('ShadingType'));
  if (!type.isNumber() || (type.asNumber() !== 2 && type.asNumber() !== 3)) return 1;
  const coords = deref(shading.get('Coords'));
  const bbox = deref(shading.get('BBox'));
  const numbers = (a: mupdf.PDFObject) => (a.isArray() ? Array.from({ length: a.length }, (_, i) => deref(a.get(i))).map((v) => (v.isNumber() ? v.asNumber() : 0)) : []);
  const c = numbers(coords);
  const b = numbers(bbox);
  const largest = Math.max(0, ...c.map(Math.abs), ...b.map(Math.abs));
  if (largest <= LIMIT) return 1;
  const factor = 10 ** Math.ceil(Math.log10(largest / (LIMIT / 2)));
  const put = (key: string, values: number[]) => {
    const array = deref(shading.get(key));
    values.forEach((v, i) => array.put(i, v / factor));
  };
  put('Coords', c);
  if (b.length) put('BBox', b);
  return factor;
}

/**
 * The content with each `/Name sh` whose name is in `factors` wrapped in a
 * scaling matrix, or undefined when none is there. Strings, comments and
 * inline image data are skipped, not searched.
 */
function wrapShadingOperators(content: Uint8Array, factors: Map<string, number>): Uint8Array | undefined {
  const s = content;
  const parts: Buffer[] = [];
  let copied = 0;
  let lastName: { start: number; value: string } | undefined;
  for (const token of contentTokens(s)) {
    if (token.kind === 'name') {
      lastName = token;
      continue;
    }
    if (token.kind === 'operator' && token.value === 'sh' && lastName && factors.has(lastName.value)) {
      const f = factors.get(lastName.value)!;
      parts.push(Buffer.from(s.subarray(copied, lastName.start)), Buffer.from(`q ${f} 0 0 ${f} 0 0 cm `, 'latin1'), Buffer.from(s.subarray(lastName.start, token.end)), Buffer.from(' Q', 'latin1'));
      copied = token.end;
    }
    lastName = undefined;
  }
  if (!parts.length) return undefined;
  parts.push(Buffer.from(s.subarray(copied)));
  return new Uint8Array(Buffer.concat(parts));
}
