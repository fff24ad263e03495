import type * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import type { PdfSource } from '../core/pdf-source.js';
import { EngineError } from '../errors.js';
import { parsePageRange } from '../pages/range.js';
import type { TaskContext } from '../task-context.js';
import { classify, joinContinuedTables } from './classify.js';
import { toDocx } from './docx.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, readPage, type Box, type ImageBudget, type RawPage } from './layout.js';
import { isSheetFormat, type ExportFormat, type ExportModel } from './model.js';
import { tablesOf, writeSheets } from './sheets.js';
import { readTaggedPage } from './tagged.js';
import { writeExport } from './writers.js';
import { structTreeRoot } from '../pdfua/keep.js';

/**
 * The `exportDocument` task (docs/export.md): the pages of `pageRange` (every page by default) read into the export
 * model and written in `format`. Reading text needs the `copy` permission, as every text read does. Pages without any
 * text at all are 422 NO_TEXT, which names OCRAction: an empty export would look like a success. DOCX takes the images'
 * data as well (bounded: layout.ts's ImageBudget) and comes back as bytes, with the model's warnings for the answer's
 * headers (the other formats carry them in the JSON, or lose them).
 */
export async function exportDocument(
  input: { pdf: PdfSource; password?: string | undefined; pageRange?: string | undefined; format: ExportFormat; table?: number | undefined; title: string },
  ctx?: TaskContext,
): Promise<{ content: string | Uint8Array; pageCount: number; pages: number; warnings: string[] }> {
  const images: ImageBudget | undefined = input.format === 'docx' ? { bytes: MAX_IMAGE_BYTES, skipped: 0 } : undefined;
  // The document is read (synchronously) and closed before a DOCX or a workbook is written.
  const { model, pages } = withPdf(input, 'copy', (doc): { model: ExportModel; pages: number } => {
    const pageCount = doc.countPages();
    const indices = parsePageRange(input.pageRange, pageCount);
    const raw = readPages(doc, indices, indices.length === pageCount ? 'document' : 'pages exported', ctx, 'export', images);
    const running = new Map<number, Box[]>();
    const model = classify(raw, pageCount, running);
    useStructure(doc, model, running);
    joinContinuedTables(model);
    const unmapped = unmappedWarning(model);
    if (unmapped) model.warnings.push(unmapped);
    return { model, pages: indices.length };
  });
  if (images?.skipped) model.warnings.push(`${images.skipped} image${images.skipped > 1 ? 's' : ''} left out (larger than ${MAX_IMAGE_PIXELS / 1e6} megapixels, or past ${MAX_IMAGE_BYTES / 2 ** 20} MiB of images in all): a caption in place of each`);
  const content = input.format === 'docx' ? await toDocx(model, input.title) : isSheetFormat(input.format) ? await writeSheets(tablesOf(model), input.format, input.table) : writeExport(model, input.format, input.title);
  return { content, pageCount: model.pageCount, pages, warnings: model.warnings };
}

/**
 * The warning for characters MuPDF could give no Unicode for (U+FFFD in the text: a font without a ToUnicode map whose
 * glyph names name no character; a glyph name it knows, such as /A or /uni0041, is read as that character). Names at
 * most 10 pages, so that a long document's warning still fits in a header.
 */
function unmappedWarning(model: ExportModel): string | undefined {
  const pages: number[] = [];
  let count = 0;
  for (const page of model.pages) {
    const texts = page.blocks.flatMap((b) => (b.type === 'table' ? b.rows.flat().map((c) => c.text) : b.type === 'image' ? [] : [b.text]));
    const n = texts.reduce((sum, text) => sum + (text.match(/\uFFFD/gu)?.length ?? 0), 0);
    if (n === 0) continue;
    pages.push(page.pageIndex + 1);
    count += n;
  }
  if (count === 0) return undefined;
  const named = pages.length > 10 ? `${pages.slice(0, 10).join(', ')} and ${pages.length - 10} more` : pages.join(', ');
  return `${count} character${count > 1 ? 's' : ''} on page${pages.length > 1 ? 's' : ''} ${named} could not be read (a font without a Unicode map, whose glyph names name no character): U+FFFD in their place`;
}

/**
 * The pages `indices` read for the export model (readPage), before classification; 422 NO_TEXT, naming OCRAction, when
 * none has any text at all (`what`: the document, or the pages, in the message); `images`: DOCX's budget for the
 * images' data. Also the tagger's reading
 * (engine/pdfua/tag.ts).
 */
export function readPages(doc: mupdf.PDFDocument, indices: readonly number[], what: string, ctx?: TaskContext, stage = 'export', images?: ImageBudget): RawPage[] {
  const raw = readPagesAsTheyAre(doc, indices, ctx, stage, images);
  if (!hasText(raw)) throw noText(what);
  return raw;
}

/** Whether any of the pages read has text (a table or lines). */
export const hasText = (raw: readonly RawPage[]): boolean => raw.some((p) => p.items.some((item) => item.kind !== 'image'));

/** 422 NO_TEXT for `what` (the document, the pages), naming OCRAction. */
export const noText = (what: string): EngineError =>
  new EngineError('NO_TEXT', `The ${what} ${/s$/u.test(what) ? 'have' : 'has'} no text (a scan?): run OCRAction first to add a text layer`);

/** readPages without its NO_TEXT: for the tagger, which tags a form whose only text is in its fields. */
export function readPagesAsTheyAre(doc: mupdf.PDFDocument, indices: readonly number[], ctx?: TaskContext, stage = 'export', images?: ImageBudget): RawPage[] {
  const raw: RawPage[] = [];
  for (const [n, i] of indices.entries()) {
    const page = doc.loadPage(i);
    try {
      raw.push(readPage(page, i, images));
    } finally {
      page.destroy();
    }
    ctx?.progress({ done: n + 1, total: indices.length, stage });
  }
  return raw;
}

/**
 * A tagged document's pages from its structure tree (tagged.ts) in place of the layout analysis, page by page: a page
 * the tree does not cover keeps the layout's blocks, with the reason in `structureUnused` and a warning. Runs after the
 * layout reading of the same pages, as it changes the pages' content in memory (their artifacts' text taken out).
 */
function useStructure(doc: mupdf.PDFDocument, model: ExportModel, running: ReadonlyMap<number, Box[]>): void {
  const root = structTreeRoot(doc);
  if (!root) return;
  const unused: number[] = [];
  for (const exported of model.pages) {
    const page = doc.loadPage(exported.pageIndex);
    try {
      let blocks: ReturnType<typeof readTaggedPage>;
      try {
        blocks = readTaggedPage(page, root, exported.blocks, running.get(exported.pageIndex) ?? []);
      } catch (e) {
        // A tree MuPDF cannot follow, or one nested deeper than the walk's stack: the page is read as an untagged one.
        blocks = `the structure tree could not be read (${e instanceof Error ? e.message : String(e)})`;
      }
      if (typeof blocks === 'string') {
        exported.structureUnused = blocks;
        unused.push(exported.pageIndex + 1);
      } else {
        exported.blocks = blocks;
        exported.source = 'structure';
      }
    } finally {
      page.destroy();
    }
  }
  if (unused.length) model.warnings.push(`The structure tree was not used for page${unused.length > 1 ? 's' : ''} ${unused.join(', ')} (see each page's structureUnused): layout analysis instead`);
}
