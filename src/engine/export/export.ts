import type * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import type { PdfSource } from '../core/pdf-source.js';
import { EngineError } from '../errors.js';
import { parsePageRange } from '../pages/range.js';
import type { TaskContext } from '../task-context.js';
import { classify } from './classify.js';
import { readPage, type RawPage } from './layout.js';
import type { ExportFormat } from './model.js';
import { writeExport } from './writers.js';

/**
 * The `exportDocument` task (docs/export.md): the pages of `pageRange` (every page by default) read into the export
 * model and written in `format`. Reading text needs the `copy` permission, as every text read does. Pages without any
 * text at all are 422 NO_TEXT, which names OCRAction: an empty export would look like a success.
 */
export function exportDocument(
  input: { pdf: PdfSource; password?: string | undefined; pageRange?: string | undefined; format: ExportFormat; title: string },
  ctx?: TaskContext,
): { content: string; pageCount: number; pages: number } {
  return withPdf(input, 'copy', (doc) => {
    const pageCount = doc.countPages();
    const indices = parsePageRange(input.pageRange, pageCount);
    const raw = readPages(doc, indices, indices.length === pageCount ? 'document' : 'pages exported', ctx);
    const model = classify(raw, pageCount);
    return { content: writeExport(model, input.format, input.title), pageCount, pages: indices.length };
  });
}

/**
 * The pages `indices` read for the export model (readPage), before classification; 422 NO_TEXT, naming OCRAction, when
 * none has any text at all (`what`: the document, or the pages, in the message). Also the tagger's reading
 * (engine/pdfua/tag.ts).
 */
export function readPages(doc: mupdf.PDFDocument, indices: readonly number[], what: string, ctx?: TaskContext, stage = 'export'): RawPage[] {
  const raw: RawPage[] = [];
  for (const [n, i] of indices.entries()) {
    const page = doc.loadPage(i);
    try {
      raw.push(readPage(page, i));
    } finally {
      page.destroy();
    }
    ctx?.progress({ done: n + 1, total: indices.length, stage });
  }
  if (!raw.some((p) => p.items.some((item) => item.kind !== 'image'))) {
    throw new EngineError('NO_TEXT', `The ${what} ${indices.length === 1 ? 'has' : 'have'} no text (a scan?): run OCRAction first to add a text layer`);
  }
  return raw;
}
