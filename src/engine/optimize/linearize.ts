import type { PdfInput } from '../core/document-task.js';
import { withPdf } from '../core/document-task.js';
import { refuseIfSigned } from '../core/save.js';
import { requirePermission } from '../security/access.js';

/**
 * The `linearizeCheck` task, LinearizeAction's MuPDF half before qpdf rewrites
 * the file: the password opens the document and allows changing it (the file
 * is rewritten, so a user password whose permissions forbid changes is
 * refused, as for every rewrite), and the document has no signed signature
 * field, which a full rewrite would invalidate (409 DOCUMENT_SIGNED, the
 * service's rule). Opened as a read: nothing is changed here.
 */
export function linearizeCheck(input: PdfInput): { encrypted: boolean } {
  return withPdf(input, 'view', (doc, opened) => {
    requirePermission(opened, 'edit');
    refuseIfSigned(doc, 'linearizing rewrites the whole file, which invalidates its signatures');
    return { encrypted: opened.encrypted };
  });
}
