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
 * PNG at `dpi` (lowered to fit OCR_MAX_PIXELS), turned `rotate` degrees
 * clockwise (a page scanned sideways, as orientation detection found it), on
 * white, without annotations (their text is not part of the scan). Answers
 * the matrix that maps the space of Tesseract's PDF of this image (points at
 * the dpi it was told, origin bottom left) onto the page's default user
 * space: drawn with it, the recognised words lie over the words of the image,
 * whatever the page's /Rotate, crop box or MediaBox origin.
 */
export function renderForOcr(input: { pdf: PdfSource; password?: string | undefined; pageIndex: number; dpi: number; rotate: QuarterTurn }): { png: Uint8Array; dpi: number; width: number; height: number; matrix: number[] } {
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
        return { png: pixmap.asPNG(), dpi, width, height, matrix: [...matrix] };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  });
}
