import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { encryptionFacts, permissionsFromBits, type PermissionFlags } from './encryption.js';

/**
 * What a task needs of the password that opened the document: only to view
 * it, one of the document's permissions, or the owner's authority (changing
 * the security itself).
 */
export type Need = 'view' | 'owner' | 'annotate' | 'form' | 'edit' | 'assemble' | 'copy' | 'accessibility' | 'print';

/** The permission flag each need is granted by, as the PermissionsModel names it. */
const GRANTED_BY: Record<Exclude<Need, 'view' | 'owner'>, keyof PermissionFlags> = {
  annotate: 'modifyAnnotationsAllowed',
  form: 'fillFormFieldsAllowed',
  edit: 'changeDocumentAllowed',
  assemble: 'assembleDocumentAllowed',
  copy: 'extractTextAllowed',
  accessibility: 'extractTextForAccessibilityAllowed',
  print: 'printAllowed',
};

/** The same permissions in words, for error messages. */
const IN_WORDS: Record<Exclude<Need, 'view' | 'owner'>, string> = {
  annotate: 'modify annotations',
  form: 'fill in form fields',
  edit: 'change the document',
  assemble: 'assemble the document (insert, delete or rotate pages)',
  copy: 'extract text and graphics',
  accessibility: 'extract text for accessibility',
  print: 'print',
};

/**
 * The one permission check of the service, run by openPdf for every task: a
 * document opened with its user password only obeys its permission bits; the
 * owner password (or no encryption) lifts them. The bits are read as
 * PermissionsModel reports them (permissionsFromBits), so what a client is
 * told and what is enforced cannot differ. Filling in form fields is also
 * allowed by "modify annotations", as ISO 32000 says of bit 6. `opened` is
 * openPdf's OpenedPdf, typed by the fields read here so that core/open.ts and this
 * module do not import each other.
 */
export function requirePermission(opened: { doc: mupdf.PDFDocument; access: 'full' | 'user' | 'owner' }, need: Need): void {
  if (need === 'view' || opened.access !== 'user') return;
  if (need === 'owner') {
    throw new EngineError('DOCUMENT_PERMISSION_DENIED', 'Changing the document\'s security needs its permissions (owner) password in X-Service-DocumentPassword', { permission: 'owner' });
  }
  const facts = encryptionFacts(opened.doc);
  if (!facts) return;
  const flags = permissionsFromBits(facts.permissionBits, facts.revision);
  const flag = GRANTED_BY[need];
  if (flags[flag] || (need === 'form' && flags.modifyAnnotationsAllowed)) return;
  throw new EngineError('DOCUMENT_PERMISSION_DENIED', `The document's permissions do not allow to ${IN_WORDS[need]} (${flag} is false); send the permissions (owner) password in X-Service-DocumentPassword`, { permission: flag });
}
