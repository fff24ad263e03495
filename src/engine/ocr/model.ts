/**
 * The recognised text of a page image, shared by the OCRAction (which judges
 * a reading by it) and the engine (which writes the text layer from it). No
 * MuPDF in this module. See docs/ocr.md.
 */

/** Degrees of a quarter turn. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** A box in the page image's pixels, origin top left: left, top, right, bottom (hOCR's bbox). */
export type PixelBox = [number, number, number, number];

export interface OcrWord {
  text: string;
  box: PixelBox;
  /** Tesseract's confidence in the word, 0-100. */
  confidence: number;
}

/** One line of recognised text, its words in reading order (hOCR's ocr_line and its kin). */
export interface OcrLine {
  box: PixelBox;
  /** hOCR's baseline: slope, and offset in pixels (negative: above) from the box's bottom left corner. Tesseract gives none for a vertical line. */
  baseline?: [number, number];
  /** Degrees counter-clockwise the line's text is turned (hOCR's textangle), when Tesseract says. */
  textAngle?: number;
  words: OcrWord[];
}

/**
 * How far counter-clockwise a line's text is turned in the image: 0 reads
 * left to right; 270 top to bottom (a page scanned turned clockwise, whose
 * vertical lines Tesseract reads by itself); 90 bottom to top; 180 upside
 * down. hOCR's textangle when given; otherwise the way the line's words follow
 * each other; for a line of one word, across when it has a baseline less
 * steep than 45 degrees, else top to bottom when its box is well taller than
 * wide (3 letters or more), the only vertical direction Tesseract reads by
 * itself. (Tesseract gives vertical lines no baseline, or one with a slope in
 * the thousands, so a baseline alone does not tell.)
 */
export function lineAngle(line: OcrLine): QuarterTurn {
  if (line.textAngle === 90 || line.textAngle === 180 || line.textAngle === 270) return line.textAngle;
  const words = line.words;
  if (words.length >= 2) {
    const [ax, ay] = centre(words[0]!.box);
    const [bx, by] = centre(words[words.length - 1]!.box);
    if (Math.abs(by - ay) <= Math.abs(bx - ax)) return bx >= ax ? 0 : 180;
    return by > ay ? 270 : 90;
  }
  if (line.baseline && Math.abs(line.baseline[0]) < 1) return 0;
  const [x0, y0, x1, y1] = line.box;
  return [...(words[0]?.text ?? '')].length >= 3 && y1 - y0 > 1.5 * (x1 - x0) ? 270 : 0;
}

function centre([x0, y0, x1, y1]: PixelBox): [number, number] {
  return [(x0 + x1) / 2, (y0 + y1) / 2];
}

/**
 * How far clockwise the page image is turned from upright, judged by its
 * lines: the angle that more than half of its words are turned by (0 when
 * none is). Turning the image that far clockwise makes its text upright.
 */
export function readingTurn(lines: readonly OcrLine[]): QuarterTurn {
  const words = new Map<QuarterTurn, number>();
  let total = 0;
  for (const line of lines) {
    const angle = lineAngle(line);
    words.set(angle, (words.get(angle) ?? 0) + line.words.length);
    total += line.words.length;
  }
  for (const [angle, count] of words) if (count * 2 > total) return angle;
  return 0;
}
