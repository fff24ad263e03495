/**
 * The stamp tasks: open the document for editing, draw the stamp once, put it
 * on one page or on every page, save (incrementally when it is signed).
 */
import * as mupdf from 'mupdf';
import { editPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { checkPageIndex } from '../core/open.js';
import { stampPages, type StampDrawing } from '../drawing/form.js';
import type { DeclaredImageType } from '../images/model.js';
import { drawImageStamp, type ImageStampRequest } from './image.js';
import { drawTextStamp, type TextStampRequest } from './text.js';
import type { PdfSource } from '../core/pdf-source.js';
import { isTagged } from '../pdfua/keep.js';

/** Which pages: one, or every page when pageIndex is absent or -1. */
export interface PageChoice {
  pageIndex?: number | undefined;
}

interface StampInput {
  pdf: PdfSource;
  password?: string | undefined;
}

/** Opens the document, draws the stamp in a scratch document, puts it on the chosen pages and saves. */
function stamp<T>(input: StampInput, pageIndex: number | undefined, draw: (scratch: mupdf.PDFDocument, tagged: boolean) => { drawing: StampDrawing; report: T }): { bytes: Uint8Array; report: T & { pages: number[] }; summary?: WrittenSummary } {
  return editPdf(input, 'edit', (doc, { save, opened }) => {
    const every = pageIndex === undefined || pageIndex === -1;
    if (!every) checkPageIndex(doc, pageIndex);
    const pages = every ? Array.from({ length: doc.countPages() }, (_, i) => i) : [pageIndex];
    const scratch = new mupdf.PDFDocument();
    try {
      const { drawing, report } = draw(scratch, isTagged(doc));
      stampPages(doc, scratch, drawing, pages);
      return withSummary(doc, opened, { bytes: save({ appendable: true }), report: { ...report, pages } });
    } finally {
      scratch.destroy();
    }
  });
}

export function textStamp(input: StampInput & { request: TextStampRequest & PageChoice }) {
  return stamp(input, input.request.pageIndex, (scratch, tagged) => {
    const { drawing, fonts } = drawTextStamp(scratch, { ...input.request, embedFonts: tagged });
    return { drawing, report: { fonts } };
  });
}

export function imageStamp(input: StampInput & { image: Uint8Array; mediaType: DeclaredImageType; request: ImageStampRequest & PageChoice }) {
  return stamp(input, input.request.pageIndex, (scratch) => {
    const { drawing, width, height } = drawImageStamp(scratch, input.image, input.mediaType, input.request);
    const round = (n: number) => Math.round(n * 100) / 100;
    return { drawing, report: { width: round(width), height: round(height) } };
  });
}
