import * as mupdf from 'mupdf';

/**
 * Blank pages, by rendered ink: each page is rendered in grey at a low resolution (annotations included, as a reader
 * shows them), and a page whose share of pixels darker than WHITE_LEVEL is below `threshold` is blank. Written for the
 * split's separator pages; issue 40's remove-blank-pages action ("numbers" work) was not on main when this was, and
 * should share one detector with this once it is.
 */

/** Pixels per inch the pages are rendered at: a line of 10-point text is a few dark pixels high at 36. */
const DPI = 36;
/** A grey value (0 black, 255 white) from which a pixel counts as white: paper tints and scanner noise stay under it. */
const WHITE_LEVEL = 230;
/** The longest side a page is rendered at, in pixels: a poster-sized page is looked at no more finely than it needs. */
const MAX_SIDE = 2000;

/** The share of a page's pixels that carry ink (0 to 1). */
export function inkFraction(doc: mupdf.PDFDocument, index: number): number {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const longest = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    const scale = Math.min(DPI / 72, MAX_SIDE / longest);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true);
    try {
      const pixels = pixmap.getPixels();
      let inked = 0;
      for (let i = 0; i < pixels.length; i++) if (pixels[i]! < WHITE_LEVEL) inked++;
      return pixels.length === 0 ? 0 : inked / pixels.length;
    } finally {
      pixmap.destroy();
    }
  } finally {
    page.destroy();
  }
}
