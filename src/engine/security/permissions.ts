import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { encodePassword, newPasswordProblem } from '../core/passwords.js';
import { editPdf, withPdf } from '../core/document-task.js';
import { formFacts } from '../core/inspect.js';
import { withReopenedEncryption } from '../core/open.js';
import { withRememberedHashes } from '../core/standard-security.js';
import { deref, name, text } from '../core/mupdf-objects.js';
import { saveFull, saveFullBuffer } from '../core/save.js';
import { encryptPdfFile, type FileEncryption } from '../core/encrypt-file.js';
import { bitsFromPermissions, PERMISSION_FLAGS, passwordSecurity, type EncryptType, type PasswordSecurity, type PermissionFlags } from '../core/encryption.js';
import type { PdfSource } from '../core/pdf-source.js';

/** The usage rights (Adobe's UR3 signature: "Reader extensions") a document carries. */
export interface UsageRights {
  present: boolean;
  /** Each TransformParams category of the UR3 signature and the rights it grants (names as in the file, e.g. Annots: Create, Delete). */
  document?: string[];
  annotations?: string[];
  form?: string[];
  signature?: string[];
  embeddedFiles?: string[];
  formEx?: string[];
  /** The message a viewer shows (/Msg). */
  message?: string;
  /** /P true: the rights are restricted further. */
  restricted?: boolean;
}

/** Certification (DocMDP): whether a certifying signature is present and which changes it allows. */
export interface Certification {
  certified: boolean;
  /** 1 no changes, 2 form fill-in and signing, 3 as 2 plus annotations. */
  level?: 1 | 2 | 3;
}

export interface PermissionsModel {
  passwordPermissions: PasswordSecurity;
  usageRights: UsageRights;
  certification: Certification;
}

function names(obj: mupdf.PDFObject): string[] | undefined {
  const array = deref(obj);
  if (!array.isArray()) return undefined;
  const out: string[] = [];
  for (let i = 0; i < array.length; i++) {
    const n = name(array.get(i));
    if (n !== undefined) out.push(n);
  }
  return out;
}

/** The TransformParams of the signature reference with the given method. */
function transformParams(signature: mupdf.PDFObject, method: string): mupdf.PDFObject | undefined {
  const refs = deref(deref(signature).isDictionary() ? deref(signature).get('Reference') : signature);
  if (!refs.isArray()) return undefined;
  for (let i = 0; i < refs.length; i++) {
    const ref = deref(refs.get(i));
    if (!ref.isDictionary() || name(ref.get('TransformMethod')) !== method) continue;
    const params = deref(ref.get('TransformParams'));
    return params.isDictionary() ? params : undefined;
  }
  return undefined;
}

function perms(doc: mupdf.PDFDocument): mupdf.PDFObject | undefined {
  const root = deref(doc.getTrailer().get('Root'));
  if (!root.isDictionary()) return undefined;
  const p = deref(root.get('Perms'));
  return p.isDictionary() ? p : undefined;
}

export function usageRights(doc: mupdf.PDFDocument): UsageRights {
  const p = perms(doc);
  if (!p) return { present: false };
  const ur3 = deref(p.get('UR3'));
  const ur = deref(p.get('UR'));
  if (!ur3.isDictionary() && !ur.isDictionary()) return { present: false };
  const params = transformParams(ur3.isDictionary() ? ur3 : ur, ur3.isDictionary() ? 'UR3' : 'UR');
  const rights: UsageRights = { present: true };
  if (!params) return rights;
  const add = (key: keyof UsageRights, pdfKey: string) => {
    const list = names(params.get(pdfKey));
    if (list) (rights as unknown as Record<string, unknown>)[key] = list;
  };
  add('document', 'Document');
  add('annotations', 'Annots');
  add('form', 'Form');
  add('signature', 'Signature');
  add('embeddedFiles', 'EF');
  add('formEx', 'FormEx');
  const message = text(params.get('Msg'));
  if (message !== undefined) rights.message = message;
  const restricted = deref(params.get('P'));
  if (restricted.isBoolean()) rights.restricted = restricted.asBoolean();
  return rights;
}

export function certification(doc: mupdf.PDFDocument): Certification {
  const p = perms(doc);
  const docMdp = p ? deref(p.get('DocMDP')) : undefined;
  if (!docMdp?.isDictionary()) return { certified: false };
  const params = transformParams(docMdp, 'DocMDP');
  const level = params ? deref(params.get('P')) : undefined;
  const value = level?.isNumber() ? level.asNumber() : 2;
  return { certified: true, level: value === 1 || value === 3 ? value : 2 };
}

/** The `readPermissions` task: the PermissionsModel. Viewing is enough to read it. */
export function readPermissions(input: { pdf: PdfSource; password?: string | undefined }): PermissionsModel {
  return withPdf(input, 'view', (doc, opened) => ({ passwordPermissions: passwordSecurity(opened), usageRights: usageRights(doc), certification: certification(doc) }));
}

/** PUT password-permissions: the new security. Omitted booleans are allowed. */
export interface PasswordPermissionsRequest extends Partial<PermissionFlags> {
  encryptType?: EncryptType | undefined;
  openPassword?: string | undefined;
  permissionsPassword?: string | undefined;
}

/** The standard handler's revision for each encryptType (what MuPDF wrote for them before, and qpdf writes). */
const REVISION: Record<EncryptType, FileEncryption['revision']> = { 0: 3, 1: 4, 2: 2, 3: 6 };

/** Revision 2 (RC4-40) has no bits of its own for these: each follows another flag. */
const R2_FOLLOWS: Partial<Record<keyof PermissionFlags, keyof PermissionFlags>> = {
  printHighResolutionAllowed: 'printAllowed',
  assembleDocumentAllowed: 'changeDocumentAllowed',
  extractTextForAccessibilityAllowed: 'extractTextAllowed',
  fillFormFieldsAllowed: 'modifyAnnotationsAllowed',
};

function invalid(message: string): EngineError {
  return new EngineError('VALIDATION_FAILED', message);
}

/** The flags to write, with the request's omissions filled in; refuses what the handler cannot express. */
function requestedFlags(request: PasswordPermissionsRequest, encryptType: EncryptType): PermissionFlags {
  const flags = Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, request[f] ?? true])) as unknown as PermissionFlags;
  if (encryptType !== 2) return flags;
  for (const [flag, follows] of Object.entries(R2_FOLLOWS) as [keyof PermissionFlags, keyof PermissionFlags][]) {
    if (request[flag] === undefined) flags[flag] = flags[follows];
    else if (request[flag] !== flags[follows]) {
      throw invalid(`${flag} cannot differ from ${follows} with RC4-40 (encryptType 2, revision 2, which has no separate bit for it); use another encryptType`);
    }
  }
  return flags;
}

/** Checks the passwords of a request. */
function requestedPasswords(request: PasswordPermissionsRequest, encryptType: EncryptType): { open: string; permissions: string } {
  const open = request.openPassword ?? '';
  const permissions = request.permissionsPassword ?? '';
  if (!permissions) {
    throw invalid('permissionsPassword must not be empty: without one, anyone could lift the permissions (an empty openPassword is allowed: the document then opens without a password)');
  }
  if (permissions === open) throw invalid('permissionsPassword must differ from openPassword: the open password would otherwise lift every permission');
  for (const [field, value] of [['openPassword', open], ['permissionsPassword', permissions]] as const) {
    const problem = newPasswordProblem(value, encryptType === 3);
    if (problem) throw invalid(`${field} ${problem}`);
  }
  return { open, permissions };
}

function refuseSigned(doc: mupdf.PDFDocument): void {
  if (formFacts(doc).hasSignatures) {
    throw new EngineError('DOCUMENT_SIGNED', 'Changing the encryption rewrites every string and stream of the document and would invalidate its signatures');
  }
}

/**
 * Decodes every stream that names a /Crypt filter of its own (embedded files
 * of attachments-only encryption, some metadata streams). MuPDF's save drops
 * the document's encryption but copies such streams as they are, still
 * encrypted, with nothing left to decrypt them: the attachments would be
 * lost. Rewritten decoded, they are compressed again on save.
 */
function decodeCryptFilters(doc: mupdf.PDFDocument): void {
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    const obj = doc.newIndirect(num);
    if (!obj.isStream()) continue;
    const filter = deref(obj.resolve().get('Filter'));
    const names: string[] = [];
    if (filter.isName()) names.push(filter.asName());
    else if (filter.isArray()) for (let i = 0; i < filter.length; i++) names.push(name(filter.get(i)) ?? '');
    if (!names.includes('Crypt')) continue;
    const data = obj.readStream();
    try {
      obj.writeStream(data);
    } finally {
      data.destroy();
    }
  }
}

function save(doc: mupdf.PDFDocument, options: string): Uint8Array {
  decodeCryptFilters(doc);
  return saveFull(doc, options);
}

/**
 * The `setPasswordPermissions` task: encrypts or re-encrypts the document.
 * Needs the owner's authority when it is protected already. MuPDF writes the
 * document unencrypted, and node encrypts it with a file key from the OS
 * (core/encrypt-file.ts; MuPDF's own keys came from a 48-bit generator). The
 * result is opened again by MuPDF with the new passwords before anything is
 * written (withReopenedEncryption: for AES-256 they are checked natively, not
 * by MuPDF's slow hash, and the first page's content decrypted) and described
 * from there, so the answer is what the file says, not what was asked.
 */
export function setPasswordPermissions(input: { pdf: PdfSource; password?: string | undefined; request: PasswordPermissionsRequest }): { bytes: Uint8Array; passwordPermissions: PasswordSecurity } {
  const encryptType = input.request.encryptType ?? 3;
  const flags = requestedFlags(input.request, encryptType);
  const passwords = requestedPasswords(input.request, encryptType);
  const revision = REVISION[encryptType];
  const encoded = (password: string) => {
    const bytes = encodePassword(password, revision);
    // requestedPasswords refused what the revision cannot encode.
    if (!bytes) throw invalid('a password cannot be encoded for the encryption asked for');
    return bytes;
  };
  const spec: FileEncryption = { revision, userPassword: encoded(passwords.open), ownerPassword: encoded(passwords.permissions), permissionBits: bitsFromPermissions(flags), encryptMetadata: true };
  // The check below hashes the passwords with the salts the encryption just hashed them with: each hash runs once.
  return withRememberedHashes(() => {
    const bytes = withPdf(input, 'owner', (doc) => {
      refuseSigned(doc);
      decodeCryptFilters(doc);
      const plain = saveFullBuffer(doc, 'encrypt=none');
      try {
        // Read where MuPDF wrote it (a view into its memory, used before anything else runs in MuPDF).
        return encryptPdfFile(plain.asUint8Array(), spec);
      } finally {
        plain.destroy();
      }
    });
    const passwordPermissions = withReopenedEncryption(bytes, passwords, (check) => {
      if (check.access !== 'owner') throw new EngineError('PROCESSING_FAILED', 'The encrypted document did not open with its new permissions password');
      return passwordSecurity(check);
    });
    return { bytes, passwordPermissions };
  });
}

/** The `removePasswordPermissions` task: decrypts the document (no bytes when it was not encrypted). */
export function removePasswordPermissions(input: { pdf: PdfSource; password?: string | undefined }): { bytes?: Uint8Array } {
  return withPdf(input, 'owner', (doc, opened) => {
    if (!opened.encrypted) return {};
    refuseSigned(doc);
    return { bytes: save(doc, 'encrypt=none') };
  });
}

/**
 * The `removeUsageRights` task: drops /Perms /UR3 and /UR (and /Perms when
 * nothing else is left in it). A signed document is appended to, so its
 * signatures stay valid. No bytes when there were no usage rights.
 */
export function removeUsageRights(input: { pdf: PdfSource; password?: string | undefined }): { bytes?: Uint8Array } {
  return editPdf(input, 'edit', (doc, edit) => {
    const p = perms(doc);
    if (!p || (p.get('UR3').isNull() && p.get('UR').isNull())) return {};
    p.delete('UR3');
    p.delete('UR');
    const root = deref(doc.getTrailer().get('Root'));
    let left = 0;
    p.forEach(() => left++);
    if (left === 0) root.delete('Perms');
    return { bytes: edit.save() };
  });
}
