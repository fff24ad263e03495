import * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import { checkPageIndex } from '../core/open.js';
import type { PdfSource } from '../core/pdf-source.js';
import type { QuarterTurn } from './model.js';

/**
 * The largest page image recognised, in pixels (8-bit gray): Letter and A4 at
 * 600 dpi fit (34-35 Mpx). A larger page (A0 at 600 dpi would be 560 Mpx) is
 * rendered at the highest resolution that fits and reported with that dpi, so
 * one page never takes more than about 36 MB here and a few times that in
 * Tesseract.
 */
const OCR_MAX_PIXELS = 36_000_000;

/**
 * The `renderForOcr` task: one page as Tesseract should see it, 8-bit gray
 * at `dpi` (lowered to fit OCR_MAX_PIXELS) as a binary PGM, turned `rotate` degrees
 * clockwise (a page scanned sideways, as orientation detection found it), on
 * white, without annotations (their text is not part of the scan). Answers
 * the matrix that maps the space of Tesseract's PDF of this image (points at
 * the dpi it was told, origin bottom left) onto the page's default user
 * space: drawn with it, the recognised words lie over the words of the image,
 * whatever the page's /Rotate, crop box or MediaBox origin.
 */
export function renderForOcr(input: { pdf: PdfSource; password?: string | undefined; pageIndex: number; dpi: number; rotate: QuarterTurn }): { pgm: Uint8Array; dpi: number; width: number; height: number; matrix: number[] } {
  return withPdf(input, 'view', (doc) => {
    checkPageIndex(doc, input.pageIndex);
    const page = doc.loadPage(input.pageIndex);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      const points = Math.max(1, (x1 - x0) * (y1 - y0));
      const fit = Math.floor(72 * Math.sqrt(OCR_MAX_PIXELS / points));
      const dpi = Math.max(1, Math.min(input.dpi, fit));
      const k = dpi / 72;
      const render = mupdf.Matrix.concat(mupdf.Matrix.scale(k, k), mupdf.Matrix.rotate(input.rotate));
      const pixmap = page.toPixmap(render, mupdf.ColorSpace.DeviceGray, false, false);
      try {
        const width = pixmap.getWidth();
        const height = pixmap.getHeight();
        // Tesseract's PDF point (tx, ty) is pixel (tx·k, height − ty·k) of this image; pixel (px, py) is page-space point
        // ((px, py) + origin) · render⁻¹, and page space is user space · ctm.
        const fromTesseract: mupdf.Matrix = [k, 0, 0, -k, pixmap.getX(), height + pixmap.getY()];
        const matrix = mupdf.Matrix.concat(mupdf.Matrix.concat(fromTesseract, mupdf.Matrix.invert(render)), mupdf.Matrix.invert(page.getTransform()));
        return { pgm: asPgm(pixmap), dpi, width, height, matrix: [...matrix] };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  });
}

/**
 * A gray pixmap as a binary PGM (P5): its header and its rows, uncompressed. Tesseract (Leptonica) reads it as it is;
 * a PNG cost a deflate here and an inflate there, for a file that only crosses a scratch folder. Measured on a Letter
 * page at 300 dpi (2550 x 3300, 8.4 Mpx): PNG encoding 127 ms of CPU, this 6 ms, against Tesseract's 3.1 s for the
 * page (bench/results/issue38-rows-s18-2026-12-01.md).
 */
function asPgm(pixmap: mupdf.Pixmap): Uint8Array {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const samples = pixmap.getPixels();
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const pgm = new Uint8Array(header.length + width * height);
  pgm.set(header);
  if (stride === width) pgm.set(samples.subarray(0, width * height), header.length);
  else for (let y = 0; y < height; y++) pgm.set(samples.subarray(y * stride, y * stride + width), header.length + y * width);
  return pgm;
}
