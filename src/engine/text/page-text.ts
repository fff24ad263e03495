import * as mupdf from 'mupdf';
import { PageTextBuilder, type PageText } from './match.js';

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
 * A character's box, written into `out`: its quad narrowed vertically to the
 * font's body around the baseline. Extraction quads span the font's whole
 * ascender-to-descender height (for Helvetica, 1.37 em), which on tightly set
 * text overlaps the lines above and below: MuPDF removes every glyph a
 * redaction box touches, so full-height boxes would take neighbouring lines
 * with them, and word boxes given to clients would not hug the words.
 */
export function bodyQuad(q: mupdf.Quad, origin: mupdf.Point, size: number, out: Float64Array): void {
  for (let k = 0; k < 8; k++) out[k] = q[k]!;
  // Unit vector from the lower-left to the upper-left corner (the glyph's "up").
  const ux = q[0] - q[4];
  const uy = q[1] - q[5];
  const height = Math.hypot(ux, uy);
  if (height === 0 || !(size > 0)) return;
  const vx = ux / height;
  const vy = uy / height;
  // Where the baseline lies along "up", measured from the lower edge.
  const base = (origin[0] - q[4]) * vx + (origin[1] - q[5]) * vy;
  const low = Math.max(0, base - BOX_DESCENT * size);
  const high = Math.min(height, base + BOX_ASCENT * size);
  if (high <= low) return;
  // Upper corners at `high`, lower corners at `low`, along "up" from the lower edge.
  out[0] = q[4] + vx * high;
  out[1] = q[5] + vy * high;
  out[2] = q[6] + vx * high;
  out[3] = q[7] + vy * high;
  out[4] = q[4] + vx * low;
  out[5] = q[5] + vy * low;
  out[6] = q[6] + vx * low;
  out[7] = q[7] + vy * low;
}

/** What mupdf.js keeps in a wrapper class's static `_finalizer` (a FinalizationRegistry). */
interface Registry {
  register(target: object, held: unknown, token?: object): void;
  unregister(token: object): boolean;
}

let registering = true;
let switchInstalled = false;

/** A structured-text walker that never sees MuPDF's per-character Font wrapper (walkText releases it). */
export interface TextWalker {
  beginTextBlock?(bbox: mupdf.Rect): void;
  beginLine?(bbox: mupdf.Rect): void;
  onChar(c: string, origin: mupdf.Point, size: number, quad: mupdf.Quad): void;
  endLine?(): void;
  endTextBlock?(): void;
}

/**
 * StructuredText.walk() wraps the font of every character in a new Font that
 * it registers with a FinalizationRegistry; for a 200-page document that is
 * 450,000 registrations, which cost more than extracting the text. So Font's
 * registry is put behind a switch (once: swapping the property per call
 * would deoptimise every wrapper's constructor), registration is off while
 * the walk runs (synchronously: nothing else can create a Font meanwhile),
 * and each font is released at once, leaving a finalizer nothing to do.
 * Should mupdf.js stop using `_finalizer`, the switch is never called.
 */
export function walkText(stext: mupdf.StructuredText, walker: TextWalker): void {
  if (!switchInstalled) {
    const fontClass = mupdf.Font as unknown as { _finalizer?: Registry; _drop: (pointer: number) => void };
    const real: Registry = fontClass._finalizer ?? new FinalizationRegistry(fontClass._drop);
    fontClass._finalizer = {
      register: (target, held, token) => {
        if (registering) real.register(target, held, token);
      },
      unregister: (token) => real.unregister(token),
    };
    switchInstalled = true;
  }
  registering = false;
  try {
    stext.walk({
      beginTextBlock: (bbox) => walker.beginTextBlock?.(bbox),
      beginLine: (bbox) => walker.beginLine?.(bbox),
      endLine: () => walker.endLine?.(),
      endTextBlock: () => walker.endTextBlock?.(),
      onChar(c: string, origin: mupdf.Point, font: mupdf.Font, size: number, quad: mupdf.Quad) {
        font.destroy();
        walker.onChar(c, origin, size, quad);
      },
    });
  } finally {
    registering = true;
  }
}

function collect(stext: mupdf.StructuredText): PageText {
  const builder = new PageTextBuilder();
  const box = new Float64Array(8);
  try {
    walkText(stext, {
      onChar(c, origin, size, quad) {
        bodyQuad(quad, origin, size, box);
        builder.add(c, box);
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
