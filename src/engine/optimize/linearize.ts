import * as mupdf from 'mupdf';
import type { PdfInput } from '../core/document-task.js';
import { withPdf } from '../core/document-task.js';
import { deref, name } from '../core/mupdf-objects.js';
import { programPassword } from '../core/open.js';
import { refuseIfSigned, saveEdited } from '../core/save.js';
import { requirePermission } from '../core/access.js';

/**
 * The `linearizeCheck` task, LinearizeAction's MuPDF half before qpdf rewrites
 * the file: the password opens the document and allows changing it (the file
 * is rewritten, so a user password whose permissions forbid changes is
 * refused, as for every rewrite), and the document has no signed signature
 * field, which a full rewrite would invalidate (409 DOCUMENT_SIGNED, the
 * service's rule). Opened as a read: nothing is changed here. Answers what
 * qpdf's output is checked against (its page count and encryption) and the
 * password qpdf gets (programPassword: the one that opened it, SASLprep'd
 * where that was needed).
 */
export function linearizeCheck(input: PdfInput): { encrypted: boolean; filesEncryptedApart: boolean; pageCount: number; password: string | undefined } {
  return withPdf(input, 'view', (doc, opened) => {
    requirePermission(opened, 'edit');
    refuseIfSigned(doc, 'linearizing rewrites the whole file, which invalidates its signatures');
    return { encrypted: opened.encrypted, filesEncryptedApart: filesEncryptedApart(doc), pageCount: doc.countPages(), password: programPassword(opened) };
  });
}

/**
 * Whether embedded files are encrypted with another crypt filter than the
 * other streams (/EFF differs from /StmF, e.g. attachments-only encryption
 * with /StmF /Identity). qpdf 11.3 copying such streams as they are
 * (--stream-data=preserve) writes a file whose cross-reference offsets are
 * wrong (corpus: three files "damaged" under qpdf --check-linearization).
 */
function filesEncryptedApart(doc: mupdf.PDFDocument): boolean {
  const encrypt = deref(doc.getTrailer().get('Encrypt'));
  if (!encrypt.isDictionary()) return false;
  const eff = name(encrypt.get('EFF'));
  return eff !== undefined && eff !== (name(encrypt.get('StmF')) ?? 'Identity');
}

/**
 * The `linearizeRewrite` task: the document written in full by MuPDF, for qpdf
 * to linearize when it cannot read the file as stored (a damaged
 * cross-reference table it cannot rebuild, an object number used twice with
 * different generations). Opened for editing, so MuPDF repairs it first;
 * streams stay as stored, the encryption as it was. The same checks as
 * linearizeCheck.
 */
export function linearizeRewrite(input: PdfInput): { pdf: Uint8Array } {
  return withPdf(input, 'edit', (doc) => {
    refuseIfSigned(doc, 'linearizing rewrites the whole file, which invalidates its signatures');
    return { pdf: saveEdited(doc, false, { keepStreams: true }) };
  });
}
