/**
 * The content stream of a page's invisible text layer, written line by line
 * from the recognised lines (hOCR), as OCRmyPDF's hOCR renderer does: one
 * text object per line, its text matrix at the start of the line (turned with
 * a line read turned), one font size for the line, each word moved to where
 * the image shows it (Td) and scaled to its width (Tz), and between two words
 * a space scaled to the gap. Text extraction then finds the line's words in
 * one line, with spaces between them, so a phrase is found and copied as a
 * phrase; Tesseract's own PDF wrote each word with its own font size and left
 * the gaps empty, and poppler broke lines apart at them (docs/ocr.md).
 *
 * The stream is in the space of Tesseract's PDF of the image (points at the
 * image's resolution, origin bottom left), so that renderForOcr's matrix maps
 * it onto the page. The font is Tesseract's GlyphLessFont: its codes are
 * UTF-16 code units (Identity-H, with a ToUnicode map), every glyph 500/1000
 * of an em wide, standing on the baseline one em high.
 */
import { lineAngle, type OcrLine, type PixelBox } from './model.js';

/** GlyphLessFont's advance of every glyph, in ems. */
const GLYPH_WIDTH = 0.5;
/** The widest gap left between two words of a line, and the narrowest taken for a gap between columns, in font sizes. */
const WORD_GAP = 0.3;
const COLUMN_GAP = 2;
/** The steepest baseline followed: about 11 degrees, more than a sheet fed askew. */
const MAX_SLOPE = 0.2;

type Vector = [number, number];

/** Reading direction and glyph "up", unit vectors in the image's pixels (y down), by the line's angle. */
const DIRECTIONS: Record<number, { reading: Vector; up: Vector }> = {
  0: { reading: [1, 0], up: [0, -1] },
  90: { reading: [0, -1], up: [-1, 0] },
  180: { reading: [-1, 0], up: [0, 1] },
  270: { reading: [0, 1], up: [1, 0] },
};

export function layerContent(lines: readonly OcrLine[], options: { dpi: number; height: number; font: string }): string {
  const k = options.dpi / 72;
  const out: string[] = [];
  for (const line of lines) {
    if (line.words.length) out.push(lineText(line, k, options.height, options.font));
  }
  return out.join('\n');
}

function lineText(line: OcrLine, k: number, height: number, font: string): string {
  const angle = lineAngle(line);
  const { up, reading } = DIRECTIONS[angle]!;
  const [x0, y0, x1, y1] = line.box;
  // The glyphs stand on the bottom of the line (its descenders) and reach its top (its ascenders): a word found or
  // selected is marked over its letters, and the lines of a paragraph are close enough, in font sizes, for readers to
  // take them for one block (a smaller font size, from the baseline up, broke two-column pages apart line by line).
  // The origin: that bottom where the line starts (image pixels); the slope of a line across (pixels down per pixel).
  let origin: Vector;
  let size: number;
  let slope = 0;
  if (angle === 0) {
    // A slope steeper than MAX_SLOPE is none Tesseract measured on a line across (it writes such for lines it turned).
    const m = Math.abs(line.baseline?.[0] ?? 0) <= MAX_SLOPE ? (line.baseline?.[0] ?? 0) : 0;
    const drift = Math.abs(m) * (x1 - x0);
    const bottomAt = (x: number) => y1 + m * (x - x0) - (m > 0 ? drift : 0);
    size = y1 - y0 - drift;
    // Level at the middle when the line drifts less than a font size (the words are then at most half a font size off);
    // else following it word by word (below).
    if (drift <= size) origin = [x0, bottomAt((x0 + x1) / 2)];
    else {
      origin = [x0, bottomAt(x0)];
      slope = m;
    }
  } else if (angle === 270) {
    origin = [x0, y0];
    size = x1 - x0;
  } else if (angle === 90) {
    origin = [x1, y1];
    size = x1 - x0;
  } else {
    origin = [x1, y0];
    size = y1 - y0;
  }
  size = Math.max(1, size);
  const fontSize = size / k;
  // Text space in Tesseract's PDF space: the image's y axis points down, PDF's up.
  const r: Vector = [reading[0], -reading[1]];
  const u: Vector = [up[0], -up[1]];
  const parts = [`BT 3 Tr /${font} ${num(fontSize)} Tf ${num(r[0])} ${num(r[1])} ${num(u[0])} ${num(u[1])} ${num(origin[0] / k)} ${num((height - origin[1]) / k)} Tm`];
  const spans = line.words.map((word) => span(word.box, origin, reading));
  // A wide gap between two words is given to the word before it, up to WORD_GAP of the font size: poppler (pdftotext,
  // Evince) takes a gap of 0.7 font sizes for a column and breaks the line there (a monospaced or justified line's
  // spaces are that wide). A gap wider than COLUMN_GAP font sizes is left: it is one.
  const wordGap = WORD_GAP * size;
  spans.forEach((current, i) => {
    const next = spans[i + 1];
    if (next && next[0] - current[1] > wordGap && next[0] - current[1] <= COLUMN_GAP * size) current[1] = next[0] - wordGap;
  });
  // A baseline that drifts more (a page fed askew) is followed word by word, each word level where it starts. Readers
  // (poppler) break a line where its words' baselines differ by half a font size; text turned by the slope made poppler
  // break words too.
  let at: Vector = [0, 0];
  line.words.forEach((word, i) => {
    const [start, end] = spans[i]!;
    const units = utf16(word.text);
    const to: Vector = [start, -slope * start];
    if (to[0] !== at[0] || to[1] !== at[1]) parts.push(`${num((to[0] - at[0]) / k)} ${num((to[1] - at[1]) / k)} Td`);
    at = to;
    parts.push(`${num(scale(end - start, units.length))} Tz <${units.join('')}> Tj`);
    const next = spans[i + 1];
    // A space glyph over the gap: extraction and copy find a space there (OCRmyPDF's renderer does the same).
    if (next) parts.push(`${num(scale(next[0] - end, 1))} Tz <0020> Tj`);
  });
  parts.push('ET');
  return parts.join(' ');

  /** Tz that makes `glyphs` glyphs as wide as `pixels`. */
  function scale(pixels: number, glyphs: number): number {
    return (100 * Math.max(pixels, 0.01)) / k / (glyphs * GLYPH_WIDTH * fontSize);
  }
}

/** Where a box starts and ends along the reading direction, from `origin` (pixels). */
function span([x0, y0, x1, y1]: PixelBox, origin: Vector, reading: Vector): [number, number] {
  const along = [
    [x0, y0],
    [x1, y0],
    [x0, y1],
    [x1, y1],
  ].map(([x, y]) => (x! - origin[0]) * reading[0] + (y! - origin[1]) * reading[1]);
  return [Math.min(...along), Math.max(...along)];
}

/** The text as GlyphLessFont's codes: UTF-16 code units, 4 hex digits each. */
function utf16(text: string): string[] {
  const units: string[] = [];
  for (let i = 0; i < text.length; i++) units.push(text.charCodeAt(i).toString(16).padStart(4, '0'));
  return units;
}

/** A number in a content stream: 3 decimals at most, no exponent. */
function num(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}
