/** Laid-out lines (text-layout.ts) written as text operators, with their fonts: stamps and signature appearances. */
import type * as mupdf from 'mupdf';
import type { Face } from './fonts.js';
import { pdfNumber } from './geometry.js';
import type { Line } from './text-layout.js';

/**
 * A /Font resource dictionary of a scratch document, each face added once as
 * F0, F1, ...: drawings that share it (one per page, for page numbers) store
 * each font once, and subsetting sees every glyph they use.
 */
export class FontResources {
  readonly dict: mupdf.PDFObject;
  private readonly names = new Map<Face, string>();

  constructor(private readonly scratch: mupdf.PDFDocument) {
    this.dict = scratch.newDictionary();
  }

  nameOf(face: Face): string {
    let n = this.names.get(face);
    if (!n) {
      n = `F${this.names.size}`;
      this.names.set(face, n);
      this.dict.put(n, face.addTo(this.scratch));
    }
    return n;
  }
}

/**
 * The text operators that show laid-out lines (one T* between lines, a Tf
 * where the face changes), appended to `ops`; the faces go into `fonts`
 * (a new dictionary unless one is shared), which becomes `resources` /Font.
 * Answers the faces these lines use.
 */
export function showLines(scratch: mupdf.PDFDocument, resources: mupdf.PDFObject, lines: Line[], size: number, ops: string[], fonts = new FontResources(scratch)): Face[] {
  resources.put('Font', fonts.dict);
  const used = new Set<Face>();
  let current: Face | undefined;
  lines.forEach((line, i) => {
    if (i > 0) ops.push('T*');
    for (const run of line.runs) {
      if (run.face !== current) ops.push(`/${fonts.nameOf(run.face)} ${pdfNumber(size)} Tf`);
      current = run.face;
      used.add(run.face);
      ops.push(`<${run.hex}> Tj`);
    }
  });
  return [...used];
}
