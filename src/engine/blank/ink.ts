/**
 * The `pageInk` task: how much of each page is ink, rendered small as shown
 * (annotations included). A share (`part` of `parts`) of the chosen pages, so
 * that the service divides a document among its workers.
 */
import * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import type { PdfSource } from '../core/pdf-source.js';
import { parsePageRange } from '../pages/range.js';
import type { TaskContext } from '../task-context.js';
import { BLANK_DEFAULTS, MAX_INK_PIXELS } from './model.js';

export interface PageInk {
  pageIndex: number;
  /** The share of the page's pixels that are not white, 0 to 1. */
  ink: number;
}

export function pageInk(
  input: { pdf: PdfSource; password?: string | undefined; pageRange?: string | undefined; part?: number; parts?: number; dpi?: number; whiteLevel?: number },
  ctx?: TaskContext,
): { pageCount: number; pages: PageInk[] } {
  return withPdf(input, 'view', (doc) => {
    const pageCount = doc.countPages();
    const chosen = parsePageRange(input.pageRange, pageCount);
    const parts = input.parts ?? 1;
    const part = input.part ?? 0;
    const share = chosen.slice(Math.floor((part * chosen.length) / parts), Math.floor(((part + 1) * chosen.length) / parts));
    const pages: PageInk[] = [];
    for (const pageIndex of share) {
      pages.push({ pageIndex, ink: inkOf(doc, pageIndex, input.dpi ?? BLANK_DEFAULTS.dpi, input.whiteLevel ?? BLANK_DEFAULTS.whiteLevel) });
      ctx?.progress({ done: pages.length, total: share.length, stage: 'render' });
    }
    return { pageCount, pages };
  });
}

/** The share of a page's pixels that are not white (0 to 1); also the split's blank separator pages (engine/split). */
export function inkOf(doc: mupdf.PDFDocument, pageIndex: number, dpi: number, whiteLevel: number): number {
  const page = doc.loadPage(pageIndex);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const area = Math.max(1e-6, (x1 - x0) * (y1 - y0));
    // A huge page is measured at a lower resolution rather than refused: the share of ink hardly changes.
    const scale = Math.min(dpi / 72, Math.sqrt(MAX_INK_PIXELS / area));
    const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      const pixels = pixmap.getPixels();
      const width = pixmap.getWidth();
      const height = pixmap.getHeight();
      const stride = pixmap.getStride();
      let ink = 0;
      for (let y = 0; y < height; y++) {
        const row = y * stride;
        for (let i = row, end = row + width * 3; i < end; i += 3) {
          if (pixels[i]! < whiteLevel || pixels[i + 1]! < whiteLevel || pixels[i + 2]! < whiteLevel) ink++;
        }
      }
      return width * height ? ink / (width * height) : 0;
    } finally {
      pixmap.destroy();
    }
  } finally {
    page.destroy();
  }
}
