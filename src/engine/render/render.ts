import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { MAX_PIXELS, MAX_SIDE, type ImageFormat } from '../pages/model.js';
import { withPdf } from '../core/document-task.js';
import { checkPageIndex } from '../core/open.js';
import type { PdfSource } from '../core/pdf-source.js';

const JPEG_QUALITY = 85;

/** The pixel box MuPDF renders for a page-space box scaled by `scale`: its corners rounded outwards, as fz_round_rect does. */
function pixelSize(bounds: mupdf.Rect, scale: number): { width: number; height: number } {
  const epsilon = 0.001;
  const x0 = Math.floor(bounds[0] * scale + epsilon);
  const y0 = Math.floor(bounds[1] * scale + epsilon);
  const x1 = Math.ceil(bounds[2] * scale - epsilon);
  const y1 = Math.ceil(bounds[3] * scale - epsilon);
  return { width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/**
 * The `renderPage` task: the page as shown (rotation, crop box, annotations
 * with their appearances) at `dpi`, as PNG or JPEG on white. Viewing is all
 * it needs. The size is checked before any pixel is drawn. The page is the
 * resource addressed (pages/{pageIndex}), so a page that does not exist is 404.
 */
export function renderPage(input: { pdf: PdfSource; password?: string | undefined; pageIndex: number; dpi: number; format: ImageFormat }): { image: Uint8Array; width: number; height: number } {
  return withPdf(input, 'view', (doc) => {
    checkPageIndex(doc, input.pageIndex, { inPath: true });
    const page = doc.loadPage(input.pageIndex);
    try {
      const scale = input.dpi / 72;
      const { width, height } = pixelSize(page.getBounds(), scale);
      if (width * height > MAX_PIXELS || width > MAX_SIDE || height > MAX_SIDE) {
        const fit = Math.floor(input.dpi * Math.min(Math.sqrt(MAX_PIXELS / (width * height)), MAX_SIDE / Math.max(width, height)));
        throw new EngineError(
          'VALIDATION_FAILED',
          `At ${input.dpi} dpi this page would be ${width} x ${height} pixels; the limit is ${MAX_PIXELS / 1e6} megapixels and ${MAX_SIDE} pixels a side (at most ${fit} dpi for this page)`,
        );
      }
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
      try {
        const image = input.format === 'png' ? pixmap.asPNG() : pixmap.asJPEG(JPEG_QUALITY);
        return { image, width: pixmap.getWidth(), height: pixmap.getHeight() };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  });
}
