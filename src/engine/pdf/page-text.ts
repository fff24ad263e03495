import type * as mupdf from 'mupdf';
import { PageTextBuilder, type PageText, type Quad } from '../text-match.js';

/**
 * Structured-text options: `clip=no` keeps text drawn outside the page's
 * boxes, which is invisible but still in the file (and what a mangled
 * redaction leaves behind), so both search and verification see it.
 */
const STEXT_OPTIONS = 'clip=no';

/** How far above and below the baseline a redaction box reaches, in units of the font size. */
const BOX_ASCENT = 0.78;
const BOX_DESCENT = 0.18;

/**
 * A character's box for redaction: its quad narrowed vertically to the
 * font's body around the baseline. Extraction quads span the font's whole
 * ascender-to-descender height, which on tightly set text overlaps the lines
 * above and below; MuPDF removes every glyph a box touches, so full-height
 * boxes would take neighbouring lines with them.
 */
function bodyQuad(q: Quad, origin: mupdf.Point, size: number): Quad {
  // Unit vector from the lower-left to the upper-left corner (the glyph's "up").
  const ux = q[0] - q[4];
  const uy = q[1] - q[5];
  const height = Math.hypot(ux, uy);
  if (height === 0 || !(size > 0)) return q;
  const vx = ux / height;
  const vy = uy / height;
  // Where the baseline lies along "up", measured from the lower edge.
  const base = (origin[0] - q[4]) * vx + (origin[1] - q[5]) * vy;
  const low = Math.max(0, base - BOX_DESCENT * size);
  const high = Math.min(height, base + BOX_ASCENT * size);
  if (high <= low) return q;
  const at = (x: number, y: number, t: number): [number, number] => [x + vx * t, y + vy * t];
  const [llx, lly] = at(q[4], q[5], low);
  const [lrx, lry] = at(q[6], q[7], low);
  const [ulx, uly] = at(q[4], q[5], high);
  const [urx, ury] = at(q[6], q[7], high);
  return [ulx, uly, urx, ury, llx, lly, lrx, lry];
}

function collect(stext: mupdf.StructuredText): PageText {
  const builder = new PageTextBuilder();
  try {
    stext.walk({
      onChar(c: string, origin: mupdf.Point, _font: mupdf.Font, size: number, quad: mupdf.Quad) {
        builder.add(c, bodyQuad(quad as unknown as Quad, origin, size));
      },
      endLine() {
        builder.endLine();
      },
    });
  } finally {
    stext.destroy();
  }
  return builder.build();
}

/** The text of the page's content (annotations excluded), with a redaction box for each character. */
export function pageContentText(page: mupdf.PDFPage): PageText {
  return collect(page.toStructuredText(STEXT_OPTIONS));
}

/** The text an annotation's appearance shows, in page space like the page's own text. */
export function annotationText(annot: mupdf.PDFAnnotation): PageText {
  const list = annot.toDisplayList();
  try {
    return collect(list.toStructuredText(STEXT_OPTIONS));
  } finally {
    list.destroy();
  }
}
