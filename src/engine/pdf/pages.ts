import type * as mupdf from 'mupdf';
import type { PageModel } from '../page-model.js';
import { annotsItems, isAnnotation } from './annotations.js';
import { openPdf } from './open.js';
import { PageSpace } from './page-geometry.js';
import { round } from './pdf-data.js';
import type { PdfSource } from '../pdf-source.js';

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

/** Annotations per page, as the annotation listing counts them (each object once, entries that are annotations). */
function annotationCounts(doc: mupdf.PDFDocument, pageCount: number): number[] {
  const counts = new Array<number>(pageCount).fill(0);
  for (const { pageIndex, item } of annotsItems(doc)) if (isAnnotation(item)) counts[pageIndex]!++;
  return counts;
}

/** The `listPages` task: the PageModel of every page. Viewing is all it needs. */
export function listPages(input: { pdf: PdfSource; password?: string | undefined }): { pages: PageModel[] } {
  const { doc } = openPdf(input.pdf, input.password, 'view');
  try {
    const pageCount = doc.countPages();
    const counts = annotationCounts(doc, pageCount);
    const pages: PageModel[] = [];
    for (let i = 0; i < pageCount; i++) {
      const page = doc.loadPage(i);
      try {
        pages.push(pageModel(page, i, counts[i]!));
      } finally {
        page.destroy();
      }
    }
    return { pages };
  } finally {
    doc.destroy();
  }
}
