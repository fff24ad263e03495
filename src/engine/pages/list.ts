import type * as mupdf from 'mupdf';
import type { PageModel } from './model.js';
import { annotsItems, isAnnotation } from '../annotations/read.js';
import { withPdf } from '../core/document-task.js';
import { deref } from '../core/mupdf-objects.js';
import { PageSpace } from './geometry.js';
import { round } from '../syntax/readers.js';
import type { PdfSource } from '../core/pdf-source.js';

/**
 * Every figure comes from MuPDF's view of the page (its transform and
 * bounds), so the model describes exactly the space that page text
 * coordinates and rendered images use, defaults and repairs included
 * (a missing media box is Letter, an empty crop box is ignored).
 */
function pageModel(page: mupdf.PDFPage, pageIndex: number, annotationCount: number): PageModel {
  const space = new PageSpace(page);
  const [x0, y0, x1, y1] = page.getBounds();
  return {
    pageIndex,
    width: round(x1 - x0),
    height: round(y1 - y0),
    rotation: space.rotation(),
    mediaBox: space.rectangle(page.getBounds('MediaBox')),
    cropBox: space.rectangle([x0, y0, x1, y1]),
    annotationCount,
  };
}

/**
 * Annotations per page, as the annotation listing counts them (each object once, entries that are annotations). When no
 * page of the slice [from, to) has an /Annots entry, every count there is 0 whatever the other pages hold, and the
 * document is not walked: on a 100,000-page document the walk (a page lookup per page) was about 3.5 s of a listing's
 * work for 40 ms of pages, measured with MuPDF's WebAssembly on the shared machine (1 Dec).
 */
function annotationCounts(doc: mupdf.PDFDocument, pageCount: number, from: number, to: number): number[] {
  const counts = new Array<number>(pageCount).fill(0);
  let sliceHasAnnots = false;
  for (let i = from; i < to && !sliceHasAnnots; i++) sliceHasAnnots = !deref(doc.findPage(i).get('Annots')).isNull();
  if (!sliceHasAnnots) return counts;
  for (const { pageIndex, item } of annotsItems(doc)) if (isAnnotation(item)) counts[pageIndex]!++;
  return counts;
}

/**
 * The `listPages` task: the PageModels of `limit` pages from `offset` (fewer at the end, none past
 * it), and the page count. Viewing is all it needs. Only the pages asked for are loaded: a listing
 * of every page of a 100,000-page document was seconds of work here and more on the main thread.
 */
export function listPages(input: { pdf: PdfSource; password?: string | undefined; offset: number; limit: number }): { pages: PageModel[]; total: number } {
  return withPdf(input, 'view', (doc) => {
    const pageCount = doc.countPages();
    // Counted over the whole document: an annotation listed on two pages counts on the first, as in the annotation listing.
    const end = Math.min(pageCount, input.offset + input.limit);
    const counts = annotationCounts(doc, pageCount, input.offset, end);
    const pages: PageModel[] = [];
    for (let i = input.offset; i < end; i++) {
      const page = doc.loadPage(i);
      try {
        pages.push(pageModel(page, i, counts[i]!));
      } finally {
        page.destroy();
      }
    }
    return { pages, total: pageCount };
  });
}
