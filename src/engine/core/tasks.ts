/** The core's tasks: what every upload and document listing needs (its facts, and whether it opens at all). */
import { requirePermission, type Need } from './access.js';
import type { PdfInput } from './document-task.js';
import { openIfEncrypted, programPassword } from './open.js';
import { inspect, validateUpload } from './inspect.js';
import { checkOutput } from './output-check.js';

/**
 * The `checkAccess` task: whether the password opens the document and allows
 * `need` (openPdf's one permission check), with nothing else done. A
 * background job asks it before answering 202, so that a wrong password is
 * the request's 401/403, not a failed job. Answers the password an external
 * program that reads the document gets (programPassword).
 */
function checkAccess(input: PdfInput & { need: Need }): { ok: true; password: string | undefined } {
  // Not encrypted: every need is allowed, and there is nothing to check (openPdf's page tree walk took 0.1-0.2 s at
  // 2,500 pages on a loaded machine, and more under the load of a CI run, where a job's 202 then missed a 500 ms
  // request limit). A broken tree fails the job's own open instead. Encrypted: opened as a read (a writing need
  // would first load every object: openPdf's repair walk, which protects edits this task does not make, about
  // 400 ms at 1,000 pages on the worker inline requests share); openPdf's own permission check decides.
  const opened = openIfEncrypted(input.pdf, input.password, 'view');
  if (!opened) return { ok: true, password: undefined };
  try {
    requirePermission(opened, input.need);
    return { ok: true as const, password: programPassword(opened) };
  } finally {
    opened.doc.destroy();
  }
}

export const coreTasks = { inspect, validateUpload, checkAccess, checkOutput };
