/** Laid-out lines (text-layout.ts) written as text operators, with their fonts: stamps and signature appearances. */
import type * as mupdf from 'mupdf';
import type { Face } from './fonts.js';
import { pdfNumber } from './geometry.js';
import type { Line } from './text-layout.js';

/**
 * The text operators that show laid-out lines (one T* between lines, a Tf
 * where the face changes), appended to `ops`; each face is added to
 * `resources` /Font once, as F0, F1, ... Answers the faces used.
 */
export function showLines(scratch: mupdf.PDFDocument, resources: mupdf.PDFObject, lines: Line[], size: number, ops: string[]): Face[] {
  const fontDict = scratch.newDictionary();
  resources.put('Font', fontDict);
  const names = new Map<Face, string>();
  const nameOf = (face: Face) => {
    let n = names.get(face);
    if (!n) {
      n = `F${names.size}`;
      names.set(face, n);
      fontDict.put(n, face.addTo(scratch));
    }
    return n;
  };
  let current: Face | undefined;
  lines.forEach((line, i) => {
    if (i > 0) ops.push('T*');
    for (const run of line.runs) {
      if (run.face !== current) ops.push(`/${nameOf(run.face)} ${pdfNumber(size)} Tf`);
      current = run.face;
      ops.push(`<${run.hex}> Tj`);
    }
  });
  return [...names.keys()];
}
