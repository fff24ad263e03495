import * as mupdf from 'mupdf';
import { wasmModule } from '../core/wasm.js';
import { unregistered } from '../core/wrapper-registry.js';
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
export function bodyQuad(q: ArrayLike<number>, origin: ArrayLike<number>, size: number, out: Float64Array): void {
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

/**
 * A structured-text walker that never sees MuPDF's per-character Font wrapper (walkText releases it, or never makes
 * it). `origin` and `quad` may be the same arrays at every call: a walker copies what it keeps.
 */
export interface TextWalker {
  beginTextBlock?(bbox: mupdf.Rect): void;
  beginLine?(bbox: mupdf.Rect): void;
  onChar(c: string, origin: Readonly<mupdf.Point>, size: number, quad: Readonly<mupdf.Quad>): void;
  endLine?(): void;
  endTextBlock?(): void;
}

/**
 * StructuredText.walk() wraps the font of every character in a new Font that
 * it registers with a FinalizationRegistry; for a 200-page document that is
 * 450,000 registrations, which cost more than extracting the text. So the
 * Fonts the walk makes are not registered (core/wrapper-registry.ts), and
 * each is released at once, leaving a finalizer nothing to do.
 */
export function walkText(stext: mupdf.StructuredText, walker: TextWalker): void {
  const direct = stextAccessors();
  if (direct) {
    walkDirect(direct, stext, walker);
    return;
  }
  // Each character's Font is released at once by onChar, so none is registered (core/wrapper-registry.ts).
  unregistered(mupdf.Font, () => undefined, () =>
    stext.walk({
      beginTextBlock: (bbox) => walker.beginTextBlock?.(bbox),
      beginLine: (bbox) => walker.beginLine?.(bbox),
      endLine: () => walker.endLine?.(),
      endTextBlock: () => walker.endTextBlock?.(),
      onChar(c: string, origin: mupdf.Point, font: mupdf.Font, size: number, quad: mupdf.Quad) {
        font.destroy();
        walker.onChar(c, origin, size, quad);
      },
    }),
  );
}

/**
 * MuPDF's structured-text accessors, the functions of its module that StructuredText.walk() calls (mupdf.js 1.28),
 * reached through the module handle (core/wasm.ts). Points and quads come back as addresses of floats in MuPDF's
 * memory, which walk() reads into new arrays.
 */
interface StextAccessors {
  /** The module, whose HEAPF32 is replaced when MuPDF's memory grows. */
  module: { HEAPF32: Float32Array };
  firstBlock(page: number): number;
  blockType(block: number): number;
  blockBbox(block: number): number;
  firstLine(block: number): number;
  nextBlock(block: number): number;
  lineBbox(line: number): number;
  firstChar(line: number): number;
  nextLine(line: number): number;
  charC(ch: number): number;
  charOrigin(ch: number): number;
  charSize(ch: number): number;
  charQuad(ch: number): number;
  nextChar(ch: number): number;
}

const ACCESSORS = {
  firstBlock: '_wasm_stext_page_get_first_block',
  blockType: '_wasm_stext_block_get_type',
  blockBbox: '_wasm_stext_block_get_bbox',
  firstLine: '_wasm_stext_block_get_first_line',
  nextBlock: '_wasm_stext_block_get_next',
  lineBbox: '_wasm_stext_line_get_bbox',
  firstChar: '_wasm_stext_line_get_first_char',
  nextLine: '_wasm_stext_line_get_next',
  charC: '_wasm_stext_char_get_c',
  charOrigin: '_wasm_stext_char_get_origin',
  charSize: '_wasm_stext_char_get_size',
  charQuad: '_wasm_stext_char_get_quad',
  nextChar: '_wasm_stext_char_get_next',
} as const;

/** null: looked for, not there. */
let accessors: StextAccessors | null | undefined;

/**
 * The accessors, where MuPDF was loaded with the module handle (the engine's workers); undefined elsewhere. Taken
 * once into an object of their own: the module is a large object with hundreds of properties, slow to look names up in.
 */
function stextAccessors(): StextAccessors | undefined {
  if (accessors === undefined) {
    const m = wasmModule as unknown as Record<string, unknown>;
    const found = Object.entries(ACCESSORS).map(([key, name]) => [key, m[name]] as const);
    accessors = m['HEAPF32'] instanceof Float32Array && found.every(([, f]) => typeof f === 'function')
      ? ({ module: m as unknown as StextAccessors['module'], ...Object.fromEntries(found) } as StextAccessors)
      : null;
  }
  return accessors ?? undefined;
}

/**
 * walkText where MuPDF was loaded with the module handle: the walk walk() makes (text blocks, their lines, their
 * characters), asking MuPDF only what a TextWalker is given, a character's origin and quad read into the same two
 * arrays each time. walk() asks nine things a character and makes a Font wrapper and five arrays for it, which on the
 * bench's one-page redaction were most of the worker's garbage (a collection of its young generation every few
 * requests, 1 to 6 ms each) and a third of the text's time.
 */
function walkDirect(m: StextAccessors, stext: mupdf.StructuredText, walker: TextWalker): void {
  // MuPDF's memory as floats; a new view once it grows (a walker may make MuPDF allocate), the old one then empty.
  let heap = m.module.HEAPF32;
  const floats = () => (heap.length ? heap : (heap = m.module.HEAPF32));
  const rect = (pointer: number): mupdf.Rect => {
    const f = floats();
    const at = pointer >> 2;
    return [f[at]!, f[at + 1]!, f[at + 2]!, f[at + 3]!];
  };
  const origin: mupdf.Point = [0, 0];
  const quad: mupdf.Quad = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let block = m.firstBlock(stext.pointer as unknown as number); block; block = m.nextBlock(block)) {
    // Image, structure, vector and grid blocks carry no characters (walk() hands them to callbacks a TextWalker lacks).
    if (m.blockType(block) !== 0) continue;
    if (walker.beginTextBlock) walker.beginTextBlock(rect(m.blockBbox(block)));
    for (let line = m.firstLine(block); line; line = m.nextLine(line)) {
      if (walker.beginLine) walker.beginLine(rect(m.lineBbox(line)));
      for (let ch = m.firstChar(line); ch; ch = m.nextChar(ch)) {
        const c = String.fromCharCode(m.charC(ch));
        // Each address read before the next call, as walk() does (an accessor may answer a buffer it reuses).
        const f = floats();
        let at = m.charOrigin(ch) >> 2;
        origin[0] = f[at]!;
        origin[1] = f[at + 1]!;
        const size = m.charSize(ch);
        at = m.charQuad(ch) >> 2;
        for (let k = 0; k < 8; k++) quad[k] = f[at + k]!;
        walker.onChar(c, origin, size, quad);
      }
      walker.endLine?.();
    }
    walker.endTextBlock?.();
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
