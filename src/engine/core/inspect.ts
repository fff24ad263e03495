import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { pdfDateToIso } from '../syntax/dates.js';
import { openPdf, type Access } from './open.js';
import { deref, inheritable, name } from './mupdf-objects.js';
import { readHead, sourceSize, type PdfSource } from './pdf-source.js';

/** What the DocumentModel reports about a document's content. */
export interface DocumentInfo {
  pageCount: number;
  pdfVersion: string;
  encrypted: boolean;
  access: Access;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  creationDate?: string;
  modificationDate?: string;
  hasForm: boolean;
  hasXfa: boolean;
  hasSignatures: boolean;
  linearized: boolean;
  repaired: boolean;
}

const INFO_KEYS = {
  title: mupdf.Document.META_INFO_TITLE,
  author: mupdf.Document.META_INFO_AUTHOR,
  subject: mupdf.Document.META_INFO_SUBJECT,
  keywords: mupdf.Document.META_INFO_KEYWORDS,
  creator: mupdf.Document.META_INFO_CREATOR,
  producer: mupdf.Document.META_INFO_PRODUCER,
} as const;

const MAX_FIELD_NODES = 100_000;
/**
 * Walks the AcroForm field tree (guarding against loops) for signed signature
 * fields. Tolerant of whatever a damaged file holds: no catalog (the trailer
 * has no /Root even after MuPDF's repair), a field that is not a dictionary or
 * does not load, a /Parent loop: such a field is passed over, so a malformed
 * field tree answers what can be read of it rather than failing the operation
 * that asked (the DocumentModel, and every edit, which checks for signatures).
 */
export function formFacts(doc: mupdf.PDFDocument): { hasForm: boolean; hasXfa: boolean; hasSignatures: boolean } {
  const none = { hasForm: false, hasXfa: false, hasSignatures: false };
  const root = loaded(() => deref(doc.getTrailer().get('Root')));
  if (!root?.isDictionary()) return none;
  const acroForm = loaded(() => deref(root.get('AcroForm')));
  if (!acroForm?.isDictionary()) return none;
  const fields = loaded(() => deref(acroForm.get('Fields')));
  const hasXfa = !acroForm.get('XFA').isNull();
  let hasSignatures = false;
  const seen = new Set<number>();
  const stack: mupdf.PDFObject[] = [];
  if (fields?.isArray()) for (let i = 0; i < fields.length; i++) stack.push(fields.get(i));
  let visited = 0;
  const hasFields = stack.length > 0;
  while (stack.length > 0 && !hasSignatures && visited++ < MAX_FIELD_NODES) {
    const field = stack.pop()!;
    if (field.isIndirect()) {
      const num = field.asIndirect();
      if (seen.has(num)) continue;
      seen.add(num);
    }
    const resolved = loaded(() => deref(field));
    if (!resolved?.isDictionary()) continue;
    const type = loaded(() => inheritable(field, 'FT'));
    if (type && name(type) === 'Sig' && loaded(() => deref(resolved.get('V')))?.isDictionary()) hasSignatures = true;
    const kids = loaded(() => deref(resolved.get('Kids')));
    if (kids?.isArray()) for (let i = 0; i < kids.length; i++) stack.push(kids.get(i));
  }
  return { hasForm: hasFields || hasXfa, hasXfa, hasSignatures };
}

/** An object read from a damaged file, or undefined where MuPDF cannot load it (or the value is missing). */
function loaded<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * As qpdf decides it: the first object, within the first 1 KiB, is a
 * /Linearized dictionary whose /L (file length) is the file's length, counted
 * from the %PDF- header as offsets are. An incremental update appended later
 * keeps the dictionary but breaks /L, and with it the linearization.
 */
function isLinearized(pdf: PdfSource): boolean {
  const head = Buffer.from(readHead(pdf, 1024)).toString('latin1');
  const start = Math.max(0, head.indexOf('%PDF-'));
  const first = /\d+\s+\d+\s+obj\s*<<([\s\S]*?)>>/.exec(head.slice(start))?.[1];
  if (first === undefined || !/\/Linearized[\s\d]/.test(first)) return false;
  const length = /\/L\s+(\d+)/.exec(first)?.[1];
  return length !== undefined && Number(length) === sourceSize(pdf) - start;
}

export function inspectDocument(doc: mupdf.PDFDocument, pdf: PdfSource, encrypted: boolean, access: Access): DocumentInfo {
  const version = doc.getVersion();
  const info: DocumentInfo = {
    pageCount: doc.countPages(),
    pdfVersion: `${Math.floor(version / 10)}.${version % 10}`,
    encrypted,
    access,
    ...formFacts(doc),
    linearized: isLinearized(pdf),
    repaired: doc.wasRepaired(),
  };
  for (const [field, key] of Object.entries(INFO_KEYS) as [keyof typeof INFO_KEYS, string][]) {
    const value = doc.getMetaData(key);
    if (value) info[field] = value;
  }
  const created = pdfDateToIso(doc.getMetaData(mupdf.Document.META_INFO_CREATIONDATE));
  const modified = pdfDateToIso(doc.getMetaData(mupdf.Document.META_INFO_MODIFICATIONDATE));
  if (created) info.creationDate = created;
  if (modified) info.modificationDate = modified;
  return info;
}

/** The `inspect` task: opens the document and reports its DocumentInfo. (Not through withPdf: document-task.ts imports formFacts from here.) */
export function inspect(input: { pdf: PdfSource; password?: string | undefined }): DocumentInfo {
  const { doc, encrypted, access } = openPdf(input.pdf, input.password, 'view');
  try {
    return inspectDocument(doc, input.pdf, encrypted, access);
  } finally {
    doc.destroy();
  }
}

/**
 * The `validateUpload` task: a stored document must open (repaired if need be)
 * and have at least one page. An encrypted upload is accepted without its
 * password: it is checked as far as it can be without one.
 */
export function validateUpload(input: { pdf: PdfSource }): { encrypted: boolean; pageCount?: number; repaired: boolean; info?: DocumentInfo } {
  if (!looksLikePdf(input.pdf)) throw new EngineError('MALFORMED_PDF', 'The file is not a PDF (no %PDF- header)');
  // Not through withPdf: an open that needs a password is an answer here, not an error.
  let opened;
  try {
    opened = openPdf(input.pdf, undefined, 'view');
  } catch (err) {
    if (err instanceof EngineError && err.code === 'DOCUMENT_PASSWORD_REQUIRED') return { encrypted: true, repaired: false };
    throw err;
  }
  const { doc, encrypted, access } = opened;
  try {
    const pageCount = doc.countPages();
    if (pageCount === 0) throw new EngineError('MALFORMED_PDF', 'The file opens but has no pages');
    // MuPDF walks the whole page tree when a first page is loaded. A tree it cannot walk (a node that is its own ancestor)
    // would fail every later read of every page, so such a file is refused now rather than stored.
    try {
      doc.loadPage(0).destroy();
    } catch (err) {
      throw new EngineError('MALFORMED_PDF', `The page tree cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    // The DocumentInfo too, from the document already open: the DocumentModel a client asks for next needs no second
    // read and inspection of the version just written (ReadModels.noteWritten).
    return { encrypted, pageCount, repaired: doc.wasRepaired(), info: inspectDocument(doc, input.pdf, encrypted, access) };
  } finally {
    doc.destroy();
  }
}

/** What the runner records of a version written: validateUpload's answer for it. */
export type WrittenSummary = ReturnType<typeof validateUpload>;

/**
 * validateUpload's answer for `bytes`, read from the document they were just
 * saved from, still open: a task that writes answers it with its bytes, so
 * the runner does not send them back into a worker to be opened again (70 to
 * 300 ms on the 200-page bench document). The saved file is the open
 * document (a full rewrite or an appended update keeps its pages, version,
 * metadata and encryption), written by MuPDF, so it opens unrepaired. As
 * validateUpload answers a reader without the password: no page count when
 * one is needed to open it; the DocumentInfo (kept for the next model
 * request) only for a document that is not encrypted. Without `bytes` (the
 * task changed nothing): the source's summary, without DocumentInfo.
 */
export function writtenSummary(doc: mupdf.PDFDocument, opened: { encrypted: boolean; needsPassword: boolean; password?: string | undefined }, bytes?: Uint8Array): WrittenSummary | undefined {
  // The empty string opens it as its owner (open.ts, emptyOwnerPasswordOpens): validateUpload opens it too.
  if (opened.needsPassword && opened.password !== '') return { encrypted: true, repaired: false };
  const pageCount = doc.countPages();
  // validateUpload refuses a file without pages; the runner then reports none.
  if (pageCount === 0) return undefined;
  if (!bytes) return { encrypted: opened.encrypted, pageCount, repaired: doc.wasRepaired() };
  if (opened.encrypted) return { encrypted: true, pageCount, repaired: false };
  return { encrypted: false, pageCount, repaired: false, info: { ...inspectDocument(doc, bytes, false, 'full'), repaired: false } };
}

/** "%PDF-" within the first 1 KiB, as readers tolerate leading junk. */
export function looksLikePdf(pdf: PdfSource): boolean {
  return Buffer.from(readHead(pdf, 1024)).includes('%PDF-');
}
