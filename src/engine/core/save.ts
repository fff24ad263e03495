import { ftruncateSync, writeSync } from 'node:fs';
import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { formFacts } from './inspect.js';
import { openedSize, opensAtHeader } from './open.js';
import type { OutputFile } from './pdf-source.js';
import { reserveTop, reseedRandom } from './wasm.js';

/**
 * How a document is rewritten in full: unused objects dropped but object
 * numbers kept (garbage=1), streams compressed, and objects printed with
 * spaces ("pretty"). MuPDF's compact printing writes an empty name followed
 * by a number with no space between them ("/ 52 0 R" becomes "/52 0 R", a
 * different name): real files have empty names (OpenOffice radio buttons),
 * and the compact output corrupted them (qpdf --check, corpus). Spaces cost
 * 2-12% in size and nothing measurable in time.
 */
const FULL_SAVE = 'garbage=1,compress=yes,pretty';

/** The document rewritten in full, with `extra` save options (encryption, say). */
export function saveFull(doc: mupdf.PDFDocument, extra?: string): Uint8Array {
  return save(doc, extra ? `${extra},${FULL_SAVE}` : FULL_SAVE);
}

/**
 * The document rewritten in full (saveFull), left in MuPDF's memory for the caller, which destroys it: a task that
 * reads its own output with MuPDF before it goes (setPasswordPermissions's check, core/open.ts
 * withReopenedEncryption) opens it where it is, and copies it out once, instead of a copy out and another copy in.
 */
export function saveFullBuffer(doc: mupdf.PDFDocument, extra?: string): mupdf.Buffer {
  return saveToBuffer(doc, extra ? `${extra},${FULL_SAVE}` : FULL_SAVE);
}

/**
 * The document rewritten in full (saveFull) into `out` instead of a copy: MuPDF writes its output into its WebAssembly
 * memory, and from there it goes to the file directly, so a 100 MB output costs no second 100 MB in the worker's
 * JavaScript heap nor a transfer to the main thread (issue 35, item 8). Answers the size written; the file is cut there
 * (a task may write the same file again).
 */
export function saveFullTo(doc: mupdf.PDFDocument, out: OutputFile, options: { extra?: string; patch?: (bytes: Uint8Array) => void } = {}): number {
  const buffer = saveToBuffer(doc, options.extra ? `${options.extra},${FULL_SAVE}` : FULL_SAVE);
  try {
    // A view into WASM memory, valid until the buffer goes (nothing allocates in MuPDF meanwhile); `patch` edits the
    // output in place (a header) before it is written.
    const view = buffer.asUint8Array();
    options.patch?.(view);
    for (let done = 0; done < view.length;) done += writeSync(out.fd, view, done, Math.min(WRITE_CHUNK, view.length - done), done);
    ftruncateSync(out.fd, view.length);
    return view.length;
  } finally {
    buffer.destroy();
  }
}

/** Bytes per write of saveFullTo. */
const WRITE_CHUNK = 8 * 1024 * 1024;

/**
 * A new document made from another one's pages (a split's part), rewritten in full with its unused objects dropped and
 * the rest renumbered (garbage=compact): FULL_SAVE keeps object numbers, and a page taken out of a 1,000-page document
 * kept the 50,000 free entries of its cross-reference table, 840 KB for a part of 20 KB (measured, MuPDF.js 1.28).
 * Encryption is kept as it was.
 */
export function saveCompact(doc: mupdf.PDFDocument): Uint8Array {
  return save(doc, 'garbage=compact,compress=yes,pretty');
}

/**
 * A full rewrite that leaves every stream as it is stored: FULL_SAVE's
 * compress=yes would Flate-compress a stream stored without a filter, and so
 * change the bytes of a page's own content that an edit promises to keep
 * (OCRAction, docs: the page's content streams are not modified).
 */
const FULL_SAVE_AS_STORED = 'garbage=1,pretty';

/**
 * How an edited document is written. A document with signatures is saved
 * incrementally (appended), so its signatures stay valid. An edit that only
 * adds or changes objects (`appendable`: an annotation, a field value, an
 * attachment, a stamp) of a document of at least INCREMENTAL_FROM_BYTES is
 * appended too: the new file is the old one's bytes and an update after them,
 * so a kept version of the old one costs nothing beside the new one (the
 * filesystem store keeps it as the new file's first bytes; docs/versions.md,
 * "Storage"), and the save writes a few KB instead of the whole file.
 * Everything else is rewritten in full (`keepStreams`: without compressing
 * streams stored uncompressed): an edit that removes content (a deleted note,
 * a cleared field, pages) is never appended, since an appended update keeps
 * the removed objects' bytes in the file and a user who deleted something
 * expects it gone from the download; a small document is rewritten, since its
 * copy is cheap and a rewrite keeps it tidy (unused objects dropped, streams
 * compressed) where updates would pile up; a file MuPDF repaired when it
 * opened it cannot be appended to (its offsets are not the file's) and is
 * rewritten, and so is a file with bytes before its header (opensAtHeader). Encryption is kept as it was.
 */
export function saveEdited(doc: mupdf.PDFDocument, signed: boolean, options: { keepStreams?: boolean; appendable?: boolean } = {}): Uint8Array {
  if (signed) return save(doc, 'incremental');
  if (options.appendable === true && appendsWell(doc)) {
    try {
      return save(doc, 'incremental');
    } catch (err) {
      // Repaired while it was written (an object loaded for the first time was broken): rewritten in full instead.
      if (!doc.wasRepaired()) throw err;
    }
  }
  return options.keepStreams ? save(doc, FULL_SAVE_AS_STORED) : saveFull(doc);
}

/**
 * Documents from this size get an appendable edit appended (saveEdited): measured on a one-note XFDF import, an update
 * appends 1 to 2 KB, under 0.2% of such a file, where a full rewrite's copy per version is what costs.
 */
const INCREMENTAL_FROM_BYTES = 1024 * 1024;

/**
 * Whether an appendable edit of `doc` is appended (saveEdited): large enough, its file beginning with its header
 * (opensAtHeader), and not repaired. Asked after the edit:
 * MuPDF repairs a file when it first meets a broken part, which may be a page the edit loaded (a page tree with too
 * many kids, in the corpus), not when it opens it.
 */
function appendsWell(doc: mupdf.PDFDocument): boolean {
  return (openedSize(doc) ?? 0) >= INCREMENTAL_FROM_BYTES && opensAtHeader(doc) && doc.canBeSavedIncrementally();
}

/** Outputs expected below this size are saved without making room first: their copies are small. */
const ROOM_FROM_BYTES = 16 * 1024 * 1024;
/**
 * The room made for an output, as a multiple of the size expected: MuPDF grows its buffer by half again each time it
 * fills, so the last growth asks for up to 1.5 times what is written.
 */
const ROOM_FACTOR = 1.6;

/**
 * MuPDF's save of `doc` into a buffer in its WebAssembly memory: the one call of MuPDF's save, for every way a document
 * is written here. MuPDF.js 1.28 offers no output but that buffer, and its allocator copies the buffer into a new
 * block each time it fills unless the heap's free top can take it in place: saving a 100 MB image document made a
 * process 280 MB larger, resident, as each copy was written (issue 35, item 8). Room made at the top first, as much as
 * the save is expected to need (the size of the file the document was opened from, core/open.ts), lets it grow in
 * place: 123 MB for that document (measured 2026-11-29, /proc VmRSS; in the PDF/A bench the service's own peak above
 * rest went from 298 to 160 MB). The room is only address space until written (it counts towards the worker's memory
 * size, PDFSERVICE_WORKER_MAX_MEMORY_MB); an output larger than expected is copied as before.
 */
function saveToBuffer(doc: mupdf.PDFDocument, options: string): mupdf.Buffer {
  const expected = openedSize(doc) ?? 0;
  if (expected >= ROOM_FROM_BYTES) reserveTop(Math.ceil(expected * ROOM_FACTOR));
  // Every save draws from fresh bits: an encryption's key, salts and IVs, and the /ID MuPDF makes (wasm.ts).
  reseedRandom();
  return doc.saveToBuffer(options);
}

function save(doc: mupdf.PDFDocument, options: string): Uint8Array {
  const buffer = saveToBuffer(doc, options);
  try {
    // asUint8Array() is a view into WASM memory: copy it out before the buffer goes.
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}

/**
 * A document with signed signature fields is never silently invalidated:
 * an operation that cannot append its change (a full rewrite, or one that
 * would remove the signatures) refuses it with 409 DOCUMENT_SIGNED, saying
 * why. Clearing the signatures first (DELETE .../signature-fields/{name})
 * lifts the refusal.
 */
export function refuseIfSigned(doc: mupdf.PDFDocument, why: string): void {
  if (formFacts(doc).hasSignatures) {
    throw new EngineError('DOCUMENT_SIGNED', `The document is signed: ${why}. Clear its signatures first (DELETE .../fields/signature-fields/{name}) if that is what you want`);
  }
}

/**
 * OptimizeAction's save: unreferenced objects dropped and renumbered
 * (garbage=compact), or also identical objects merged into one
 * (garbage=4: the same dictionary and stream bytes, so duplicate images and
 * font programs), every stream Flate-compressed at maximum effort,
 * optionally objects packed into object streams. "pretty" stays for the
 * reason given at FULL_SAVE. Encryption is kept as it was (MuPDF's default).
 */
export function saveOptimized(doc: mupdf.PDFDocument, options: { deduplicate: boolean; objectStreams: boolean }): Uint8Array {
  // MuPDF's garbage levels: 2 "compact" renumbers, 3 "deduplicate" merges identical objects but not streams, 4 also
  // compares stream contents (measured: only 4 merged two identical images).
  const garbage = options.deduplicate ? '4' : 'compact';
  return save(doc, `garbage=${garbage},compress=yes,compression-effort=100${options.objectStreams ? ',objstms=yes' : ''},pretty`);
}
