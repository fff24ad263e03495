import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import type { OpenedPdf } from './open.js';

/** Document permissions the service's operations need, by MuPDF's names and as reported to clients. */
export const PERMISSIONS = {
  annotate: 'modify annotations',
  assemble: 'assemble the document',
  form: 'fill in form fields',
  edit: 'change the document',
  copy: 'extract text and graphics',
  print: 'print',
} as const;
export type Permission = keyof typeof PERMISSIONS;

/**
 * The one permission check of the service: a document opened with its user
 * password only obeys its permission bits; the owner password (or no
 * encryption) lifts them. MuPDF's PERMISSION_EDIT constant is misspelt in 1.28,
 * so permissions are passed by their string names.
 */
export function requirePermission(opened: OpenedPdf, permission: Permission): void {
  if (opened.access !== 'user') return;
  if (!opened.doc.hasPermission(permission as mupdf.DocumentPermission)) {
    throw new EngineError('DOCUMENT_PERMISSION_DENIED', `The document's permissions do not allow to ${PERMISSIONS[permission]}; send the owner password`, { permission });
  }
}
