import type * as mupdf from 'mupdf';
import type { Need } from './access.js';
import { formFacts, writtenSummary, type WrittenSummary } from './inspect.js';
import { openPdf, type OpenedPdf } from './open.js';
import type { PdfSource } from './pdf-source.js';
import { saveEdited } from './save.js';

/** The document a task works on, as every task input names it. */
export interface PdfInput {
  pdf: PdfSource;
  password?: string | undefined;
}

/**
 * Opens the document for `need` (the permission check is in openPdf), runs
 * `work` and always releases the document, also when the work throws. For
 * tasks that only read, and for edits that save their own way (a full
 * rewrite, new encryption).
 */
export function withPdf<T>(input: PdfInput, need: Need, work: (doc: mupdf.PDFDocument, opened: OpenedPdf) => T): T {
  const opened = openPdf(input.pdf, input.password, need);
  try {
    return work(opened.doc, opened);
  } finally {
    opened.doc.destroy();
  }
}

/** What an edit's work gets besides the document. */
export interface Edit {
  opened: OpenedPdf;
  /** Whether the document was signed when opened: decided before the change, which may remove the fields that tell it. */
  signed: boolean;
  /**
   * The changed document, written by saveEdited's rule (appended when signed, or when `appendable`: the edit only adds
   * or changes objects, and the document is large). Not called when nothing changed: no bytes come back.
   */
  save(options?: { keepStreams?: boolean; appendable?: boolean }): Uint8Array;
}

/**
 * withPdf for an edit saved by the signature rule: the work changes the
 * document and calls `edit.save()` where its result needs the bytes (some
 * read the document again after saving), or does not when nothing changed.
 */
export function editPdf<T>(input: PdfInput, need: Need, work: (doc: mupdf.PDFDocument, edit: Edit) => T): T {
  return withPdf(input, need, (doc, opened) => {
    const signed = formFacts(doc).hasSignatures;
    return work(doc, { opened, signed, save: (options) => saveEdited(doc, signed, options) });
  });
}

/**
 * A writing task's answer with the summary of the bytes it carries (writtenSummary), read from `doc` as saved, or of
 * the source when it carries none (nothing changed): an action's runner records it for the version it answers with
 * instead of opening that version again in a worker.
 */
export function withSummary<T extends { bytes?: Uint8Array | undefined }>(doc: mupdf.PDFDocument, opened: OpenedPdf, result: T): T & { summary?: WrittenSummary } {
  const summary = writtenSummary(doc, opened, result.bytes);
  return summary ? { ...result, summary } : result;
}
