/**
 * The `pageNumbers` task: a number (or Bates number) on each chosen page,
 * drawn by the text stamp's drawing (stamps/text.ts) with a text of its own
 * per page. The drawings share one font dictionary, so each font is stored
 * and subset once for the whole document.
 */
import * as mupdf from 'mupdf';
import { editPdf, withPdf, withSummary } from '../core/document-task.js';
import type { PdfSource } from '../core/pdf-source.js';
import { stampEach, type StampDrawing } from '../drawing/form.js';
import { PageSpace } from '../pages/geometry.js';
import { parsePageRange } from '../pages/range.js';
import { drawTextStamp, sharedTextResources, type TextStampRequest } from '../stamps/text.js';
import { isTagged } from '../pdfua/keep.js';
import type { TaskContext } from '../task-context.js';
import { numberLabel, type NumberFormat, type NumberPosition } from './model.js';

export interface PageNumbersRequest extends NumberFormat, Omit<TextStampRequest, 'text' | 'x' | 'y' | 'rotation' | 'align'> {
  /** The number of the first numbered page (default 1). */
  startNumber?: number | undefined;
  position?: NumberPosition | undefined;
  /** Points between the page's edge (as shown) and the number. */
  margin?: number | undefined;
  /** The pages numbered, 1-based (default: every page); numbered in document order. */
  pageRange?: string | undefined;
  /**
   * What `{total}` says when the document is one of a set numbered as one sequence (the set's last number); absent:
   * this document's last number.
   */
  total?: number | undefined;
}

/** Baseline to baseline, as the text stamp sets lines. */
const LINE_HEIGHT = 1.2;

/** Where the number's anchor goes on a page, in default user space, and the turn that shows it upright. */
interface Placement {
  x: number;
  y: number;
  rotation: number;
}

export function pageNumbers(input: { pdf: PdfSource; password?: string | undefined; request: PageNumbersRequest }, ctx?: TaskContext) {
  const { request } = input;
  const position = request.position ?? 'bottom-center';
  const margin = request.margin ?? 36;
  const size = request.fontSize ?? 12;
  const start = request.startNumber ?? 1;
  return editPdf(input, 'edit', (doc, { save, opened }) => {
    const pages = parsePageRange(request.pageRange, doc.countPages()).sort((a, b) => a - b);
    const last = start + pages.length - 1;
    const total = request.total ?? last;
    const labels = pages.map((_, k) => numberLabel(request, start + k, total));
    // Every page is read before any is changed: a change makes MuPDF drop its map of the page tree, which the next
    // loaded page would rebuild from every page.
    const places = pages.map((p, k) => placement(doc, p, position, margin, size, labels[k]!.split(/\r\n|\r|\n/u).length));
    const scratch = new mupdf.PDFDocument();
    try {
      const shared = sharedTextResources(scratch);
      const embedFonts = isTagged(doc);
      const fonts = new Set<string>();
      const align = position.endsWith('left') ? 'left' : position.endsWith('right') ? 'right' : 'center';
      const items: { drawing: StampDrawing; pages: number[] }[] = pages.map((p, k) => {
        const { drawing, fonts: used } = drawTextStamp(scratch, { ...request, text: labels[k]!, ...places[k]!, align, embedFonts }, shared);
        for (const f of used) fonts.add(f);
        ctx?.progress({ done: k + 1, total: pages.length, stage: 'draw' });
        return { drawing, pages: [p] };
      });
      stampEach(doc, scratch, items);
      const report = { pages, first: labels[0]!, last: labels[labels.length - 1]!, lastNumber: last, fonts: [...fonts] };
      return withSummary(doc, opened, { bytes: save({ appendable: true }), report });
    } finally {
      scratch.destroy();
    }
  });
}

/**
 * What numbering a document of a set needs to know before any document of the set is written: that its password
 * opens it for editing (openPdf's check) and how many pages its range numbers (a range past its end is 400 here).
 */
export function pageNumbersPlan(input: { pdf: PdfSource; password?: string | undefined; pageRange?: string | undefined }) {
  return withPdf(input, 'edit', (doc) => ({ pages: parsePageRange(input.pageRange, doc.countPages()).length }));
}

/**
 * The anchor of a number on page `index`: `margin` points inside the edges of the page as shown (its crop box turned
 * by /Rotate), the baseline of the last line `margin` above the bottom edge, or the first line's a font size below
 * `margin` under the top edge; turned with the page, so that it reads upright as shown.
 */
function placement(doc: mupdf.PDFDocument, index: number, position: NumberPosition, margin: number, size: number, lines: number): Placement {
  const page = doc.loadPage(index);
  try {
    const space = new PageSpace(page);
    // Page space: the page as shown, y down.
    const [x0, y0, x1, y1] = page.getBounds();
    const u = position.endsWith('left') ? x0 + margin : position.endsWith('right') ? x1 - margin : (x0 + x1) / 2;
    const v = position.startsWith('top') ? y0 + margin + size : y1 - margin - (lines - 1) * size * LINE_HEIGHT;
    const [a, b, c, d, e, f] = space.toUser;
    return { x: u * a + v * c + e, y: u * b + v * d + f, rotation: space.rotation() };
  } finally {
    page.destroy();
  }
}
