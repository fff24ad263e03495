/**
 * Documents for the compare tests (test/api/compare*.test.ts), written as PDF syntax by hand (not with the engine
 * under test): pages of text lines in Helvetica, optionally an image. The same page description always gives the
 * same objects, so pages a test leaves alone are equal in both documents.
 */
import { PdfObjects } from './pdf-writer.js';

export interface ComparePageSpec {
  /** Lines of text, drawn from the top at 12 pt, 16 pt apart, starting at x 72. */
  lines: string[];
  /** An RGB image of one colour, drawn at `box` [x, y, width, height] in points. */
  image?: { color: [number, number, number]; box: [number, number, number, number] };
}

export const LINE_TOP = 720;
export const LINE_GAP = 16;
export const FONT_SIZE = 12;

/** Pages of 612 x 792 points, each as its spec says. */
export function comparePdf(pages: ComparePageSpec[]): Buffer {
  const pdf = new PdfObjects();
  const catalog = pdf.reserve();
  const tree = pdf.reserve();
  const font = pdf.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids = pages.map((spec) => {
    const ops = spec.lines.map((line, i) => `BT /F1 ${FONT_SIZE} Tf 72 ${LINE_TOP - i * LINE_GAP} Td (${line.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`);
    let xobjects = '';
    if (spec.image) {
      const [r, g, b] = spec.image.color;
      const pixels = Buffer.alloc(8 * 8 * 3);
      for (let i = 0; i < 64; i++) pixels.set([r, g, b], i * 3);
      const image = pdf.stream('/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8', pixels);
      const [x, y, w, h] = spec.image.box;
      ops.push(`q ${w} 0 0 ${h} ${x} ${y} cm /Im1 Do Q`);
      xobjects = ` /XObject << /Im1 ${image} 0 R >>`;
    }
    const content = pdf.stream('', ops.join('\n'));
    return pdf.add(`<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >>${xobjects} >> /Contents ${content} 0 R >>`);
  });
  pdf.setPageTree(catalog, tree, kids);
  return pdf.finish(`/Root ${catalog} 0 R`);
}

/** Page `n`'s lines: words of their own on every page, so no two pages share their text. */
export function pageLines(n: number, count = 8): string[] {
  return Array.from({ length: count }, (_, i) => `Page ${n} line ${i} alpha${n}x${i} bravo${n}x${i} charlie${n}x${i} delta`);
}
