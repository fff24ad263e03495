import { EngineError } from '../errors.js';
import { inspectDocument, looksLikePdf, type DocumentInfo } from './inspect.js';
import { openPdf, repairNow } from './open.js';
import type { PdfSource } from './pdf-source.js';

/** What an external program's output must be: what the service opens it with and what it must keep. */
export interface OutputExpectation {
  pdf: PdfSource;
  /** The password it must open with (the one the source opened with); absent: it must open without one. */
  password?: string | undefined;
  /** The page count it must have (the source's, for programs that keep pages); absent: at least one page. */
  pageCount?: number | undefined;
  /** Whether it must be encrypted (a program that keeps the encryption must not drop it, nor add one where none was). */
  encrypted?: boolean | undefined;
}

/** The output's facts, as validateUpload reports a stored document (the runner's summary of the version written). */
export interface OutputSummary {
  encrypted: boolean;
  pageCount: number;
  repaired: boolean;
  /** Only when it opened without a password: the DocumentInfo of every reader without one (validateUpload's). */
  info?: DocumentInfo;
}

export type OutputVerdict = { ok: true; summary: OutputSummary } | { ok: false; problem: string };

function reason(err: unknown): string {
  if (err instanceof EngineError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The `checkOutput` task (docs/architecture.md, "External programs"): whether
 * bytes an external program wrote (qpdf, Ghostscript, LibreOffice) are a
 * document the service itself can work on, before they replace anything. It
 * must open (with `password` when given) without MuPDF repairing its
 * cross-reference data, every object must load, it must be encrypted or not
 * as expected, and have the expected pages, each found through the page
 * tree. Costs about 0.3 s per 8,000 objects (the 200-page bench document on
 * a busy machine), against validateUpload's 0.15-0.3 s, which it replaces
 * for the written version's summary. A program's
 * exit status and warnings do not decide: qpdf reports success with warnings
 * (exit status 3) for a file MuPDF cannot open (an AES-128 /Encrypt without
 * /Length: qpdf writes /Length 0). Stream contents are not decoded (MuPDF
 * warns and reads a stream it cannot decode as empty, so that would need its
 * log, and the time of a full read).
 */
export function checkOutput(input: OutputExpectation): OutputVerdict {
  if (!looksLikePdf(input.pdf)) return { ok: false, problem: 'it is not a PDF (no %PDF- header)' };
  let opened;
  try {
    opened = openPdf(input.pdf, input.password, 'view');
  } catch (err) {
    return { ok: false, problem: `it does not open${input.password !== undefined && input.password !== '' ? ' with the document password' : ''} (${reason(err)})` };
  }
  const { doc, encrypted, access } = opened;
  try {
    if (input.encrypted !== undefined && encrypted !== input.encrypted) {
      return { ok: false, problem: input.encrypted ? 'it is not encrypted, the document was' : 'it is encrypted, the document was not' };
    }
    repairNow(doc);
    const pageCount = doc.countPages();
    if (input.pageCount !== undefined ? pageCount !== input.pageCount : pageCount === 0) {
      return { ok: false, problem: `it has ${pageCount} page${pageCount === 1 ? '' : 's'}${input.pageCount !== undefined ? `, the document ${input.pageCount}` : ''}` };
    }
    // Every page object found through the page tree (the object walk above loaded each one), and the first page loaded,
    // which walks the whole tree in MuPDF as validateUpload does. Loading every page would load every annotation too:
    // 100-200 ms more on the 200-page bench document (4,000 annotations) for nothing the walk has not read.
    for (let pageIndex = 0; pageIndex < pageCount; pageIndex++) doc.findPage(pageIndex);
    doc.loadPage(0).destroy();
    if (doc.wasRepaired()) return { ok: false, problem: 'its cross-reference data is broken (MuPDF had to repair the file to read it)' };
    const summary: OutputSummary = { encrypted, pageCount, repaired: false };
    if (input.password === undefined) summary.info = inspectDocument(doc, input.pdf, encrypted, access);
    return { ok: true, summary };
  } catch (err) {
    return { ok: false, problem: `it cannot be read (${reason(err)})` };
  } finally {
    doc.destroy();
  }
}
