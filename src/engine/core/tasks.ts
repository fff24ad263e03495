/** The core's tasks: what every upload and document listing needs (its facts, and whether it opens at all). */
import type { Need } from '../security/access.js';
import { withPdf, type PdfInput } from './document-task.js';
import { inspect, validateUpload } from './inspect.js';

/**
 * The `checkAccess` task: whether the password opens the document and allows
 * `need` (openPdf's one permission check), with nothing else done. A
 * background job asks it before answering 202, so that a wrong password is
 * the request's 401/403, not a failed job.
 */
function checkAccess(input: PdfInput & { need: Need }): { ok: true } {
  return withPdf(input, input.need, () => ({ ok: true as const }));
}

export const coreTasks = { inspect, validateUpload, checkAccess };
