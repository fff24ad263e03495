import type * as mupdf from 'mupdf';
import { isOwnerPassword, isUserPassword, type StandardEncryption } from './standard-security.js';
import { encodePassword } from './passwords.js';
import { deref, name } from './mupdf-objects.js';

/** DESIGN.md's encryptType: 0 RC4-128, 1 AES-128, 2 RC4-40, 3 AES-256. */
export type EncryptType = 0 | 1 | 2 | 3;

/** The eight permission booleans, as qpdf and Acrobat read the /P bits for the handler's revision. */
export interface PermissionFlags {
  printAllowed: boolean;
  printHighResolutionAllowed: boolean;
  changeDocumentAllowed: boolean;
  assembleDocumentAllowed: boolean;
  extractTextAllowed: boolean;
  extractTextForAccessibilityAllowed: boolean;
  fillFormFieldsAllowed: boolean;
  modifyAnnotationsAllowed: boolean;
}

export const PERMISSION_FLAGS = [
  'printAllowed',
  'printHighResolutionAllowed',
  'changeDocumentAllowed',
  'assembleDocumentAllowed',
  'extractTextAllowed',
  'extractTextForAccessibilityAllowed',
  'fillFormFieldsAllowed',
  'modifyAnnotationsAllowed',
] as const satisfies readonly (keyof PermissionFlags)[];

/** The password part of the PermissionsModel. */
export interface PasswordSecurity extends PermissionFlags {
  encrypted: boolean;
  encryptType?: EncryptType;
  /** The security handler: "Standard" for passwords. */
  handler?: string;
  /** /V and /R of the encryption dictionary. */
  version?: number;
  revision?: number;
  keyLength?: number;
  /** The raw /P value. */
  permissionBits?: number;
  encryptMetadata?: boolean;
  /** Only embedded files are encrypted (/EFF with streams and strings left as they are). */
  attachmentsOnly?: boolean;
  openPasswordSet: boolean;
  permissionsPasswordSet: boolean;
}

/** /P bit positions (1-based, as ISO 32000 numbers them). */
const BIT = { print: 3, modify: 4, copy: 5, annotate: 6, fillForms: 9, accessibility: 10, assemble: 11, printHighResolution: 12 } as const;

const ALL_ALLOWED: PermissionFlags = Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, true])) as unknown as PermissionFlags;

function bit(p: number, n: number): boolean {
  return ((p >>> (n - 1)) & 1) === 1;
}

/**
 * The permission booleans of /P. Revision 2 handlers have only bits 3-6, so
 * there high-resolution printing follows printing, assembly follows
 * modification, accessibility follows extraction and form filling follows
 * annotations; from revision 3 each has its own bit, high-resolution printing
 * needing printing as well. These are qpdf's readings too.
 */
export function permissionsFromBits(p: number, revision: number): PermissionFlags {
  const r2 = revision < 3;
  return {
    printAllowed: bit(p, BIT.print),
    printHighResolutionAllowed: bit(p, BIT.print) && (r2 || bit(p, BIT.printHighResolution)),
    changeDocumentAllowed: bit(p, BIT.modify),
    assembleDocumentAllowed: bit(p, r2 ? BIT.modify : BIT.assemble),
    extractTextAllowed: bit(p, BIT.copy),
    extractTextForAccessibilityAllowed: bit(p, r2 ? BIT.copy : BIT.accessibility),
    fillFormFieldsAllowed: bit(p, r2 ? BIT.annotate : BIT.fillForms),
    modifyAnnotationsAllowed: bit(p, BIT.annotate),
  };
}

/** /P for the booleans: reserved bits 7-8 and 13-32 set, 1-2 clear (ISO 32000-2, Table 22). */
export function bitsFromPermissions(flags: PermissionFlags): number {
  let p = 0xfffff0c0 | 0;
  const set = (n: number, on: boolean) => {
    if (on) p |= 1 << (n - 1);
  };
  set(BIT.print, flags.printAllowed);
  set(BIT.printHighResolution, flags.printHighResolutionAllowed);
  set(BIT.modify, flags.changeDocumentAllowed);
  set(BIT.assemble, flags.assembleDocumentAllowed);
  set(BIT.copy, flags.extractTextAllowed);
  set(BIT.accessibility, flags.extractTextForAccessibilityAllowed);
  set(BIT.fillForms, flags.fillFormFieldsAllowed);
  set(BIT.annotate, flags.modifyAnnotationsAllowed);
  return p;
}

function bytesOf(obj: mupdf.PDFObject): Uint8Array {
  const r = deref(obj);
  return r.isString() ? r.asByteString() : new Uint8Array(0);
}

function numberOf(obj: mupdf.PDFObject): number | undefined {
  const r = deref(obj);
  return r.isNumber() ? r.asNumber() : undefined;
}

/**
 * /P as a signed 32-bit integer. Some writers store it unsigned
 * (4294967292 for -4); MuPDF reads numbers through a float, which rounds that
 * to 2^32, so the integer is taken from the object's text.
 */
function permissionBits(obj: mupdf.PDFObject): number {
  const r = deref(obj);
  if (!r.isNumber()) return -1;
  const value = Number(r.toString());
  return Number.isFinite(value) ? Math.trunc(value) | 0 : -1;
}

/** The crypt filter method (/CFM) a /V 4 or 5 dictionary uses for the named filter. */
function filterMethod(encrypt: mupdf.PDFObject, filterName: string | undefined): string | undefined {
  if (!filterName || filterName === 'Identity') return undefined;
  const filters = deref(encrypt.get('CF'));
  if (!filters.isDictionary()) return undefined;
  const filter = deref(filters.get(filterName));
  return filter.isDictionary() ? name(filter.get('CFM')) : undefined;
}

export interface EncryptionFacts {
  handler: string;
  version: number;
  revision: number;
  keyLength: number;
  permissionBits: number;
  encryptType?: EncryptType;
  encryptMetadata: boolean;
  attachmentsOnly: boolean;
  standard: StandardEncryption;
}

/** What the document's /Encrypt dictionary says, or undefined when it has none. */
export function encryptionFacts(doc: mupdf.PDFDocument): EncryptionFacts | undefined {
  const encrypt = deref(doc.getTrailer().get('Encrypt'));
  if (!encrypt.isDictionary()) return undefined;
  const version = numberOf(encrypt.get('V')) ?? 0;
  const revision = numberOf(encrypt.get('R')) ?? 2;
  let keyLength = numberOf(encrypt.get('Length')) ?? 40;
  const stream = name(encrypt.get('StmF'));
  const embedded = name(encrypt.get('EFF')) ?? stream;
  const attachmentsOnly = version >= 4 && (stream === undefined || stream === 'Identity') && embedded !== undefined && embedded !== 'Identity';
  const method = version >= 4 ? filterMethod(encrypt, attachmentsOnly ? embedded : stream) : 'V2';
  let encryptType: EncryptType | undefined;
  if (method === 'AESV3') {
    encryptType = 3;
    keyLength = 256;
  } else if (method === 'AESV2') {
    encryptType = 1;
    keyLength = 128;
  } else if (method === 'V2') {
    encryptType = keyLength <= 40 ? 2 : 0;
  }
  const metadata = deref(encrypt.get('EncryptMetadata'));
  return {
    handler: name(encrypt.get('Filter')) ?? 'Standard',
    version,
    revision,
    keyLength,
    permissionBits: permissionBits(encrypt.get('P')),
    ...(encryptType !== undefined ? { encryptType } : {}),
    encryptMetadata: metadata.isBoolean() ? metadata.asBoolean() : true,
    attachmentsOnly,
    standard: {
      revision,
      lengthBits: keyLength,
      owner: bytesOf(encrypt.get('O')),
      user: bytesOf(encrypt.get('U')),
      ownerKey: bytesOf(encrypt.get('OE')),
      userKey: bytesOf(encrypt.get('UE')),
      perms: bytesOf(encrypt.get('Perms')),
    },
  };
}

/**
 * Whether the document needs a password to open (its user password is not empty): MuPDF's needsPassword(), which
 * authenticates the empty password again, after MuPDF did so when it opened the document. For AES-256 that attempt is
 * two runs of revision 6's hash in WebAssembly (user and owner, 25 ms together: a fifth of a 1-page encryption, issue
 * 38), so the standard handler's check of the empty user password is run here in native crypto instead (1.5 ms). The
 * answer is the same (MuPDF's is "the empty string is the user password"), and MuPDF's keys stay those its own attempt
 * at opening left, as after needsPassword(). Other revisions' checks are MD5 and RC4, cheap in MuPDF: asked there.
 */
export function needsPassword(doc: mupdf.PDFDocument): boolean {
  const facts = encryptionFacts(doc);
  if (facts?.handler === 'Standard') {
    const empty = isUserPassword(facts.standard, new Uint8Array(0));
    if (empty !== undefined) return !empty;
  }
  return doc.needsPassword();
}

/** MuPDF's authenticatePassword result bit for the owner password. */
const AUTH_OWNER = 4;

/**
 * Whether the document's permissions (owner) password is empty, given the
 * password that opened it and whether it needed one. (Never ask MuPDF's
 * needsPassword() after authenticating: it tries the empty password, and a
 * failed attempt leaves the document's keys invalid, so every string and
 * stream read afterwards is garbage.) With an empty user password MuPDF answers this
 * itself (asked for revisions 2-4); with a user password set it refuses an empty owner password (as
 * Acrobat does), so the handler's own check is run here, as it is for AES-256 (revisions 5-6) always.
 */
export function ownerPasswordIsEmpty(doc: mupdf.PDFDocument, needsPassword: boolean, password: string | undefined): boolean {
  const facts = encryptionFacts(doc);
  if (!facts) return true;
  const empty = encodePassword('', facts.revision);
  // Revisions 5 and 6 check an owner password without the user password, in native crypto (needsPassword says why
  // not in MuPDF); the others need MuPDF's answer when the user password is empty.
  const r56 = facts.revision === 5 || facts.revision === 6;
  if (!needsPassword && !r56) {
    const answer = (doc.authenticatePassword('') & AUTH_OWNER) !== 0;
    if (password) doc.authenticatePassword(password);
    return answer;
  }
  const user = r56 ? empty : encodePassword(password ?? '', facts.revision);
  return Boolean(empty && user && isOwnerPassword(facts.standard, empty, user));
}

/**
 * Whether an AES-256 (R5, R6) document that needs a password opens with the
 * empty string as its owner password. Only after MuPDF was asked for the
 * empty password: it then holds the keys the owner password gives although it
 * answered 0. The owner check of R5/R6 needs only /O and /U; revisions 2 to 4
 * would need the user password too, and stay refused without one.
 */
export function emptyOwnerPasswordOpens(doc: mupdf.PDFDocument): boolean {
  const facts = encryptionFacts(doc);
  if (!facts || facts.handler !== 'Standard' || facts.revision < 5) return false;
  const empty = encodePassword('', facts.revision);
  return Boolean(empty && isOwnerPassword(facts.standard, empty, empty));
}

/** The password part of the PermissionsModel for an opened document. */
export function passwordSecurity(opened: { doc: mupdf.PDFDocument; needsPassword: boolean; password: string | undefined; ownerPasswordEmpty?: boolean | undefined }): PasswordSecurity {
  const facts = encryptionFacts(opened.doc);
  if (!facts) return { encrypted: false, openPasswordSet: false, permissionsPasswordSet: false, ...ALL_ALLOWED };
  const openPasswordSet = opened.needsPassword;
  const permissionsPasswordSet = !(opened.ownerPasswordEmpty ?? ownerPasswordIsEmpty(opened.doc, opened.needsPassword, opened.password));
  return {
    encrypted: true,
    ...(facts.encryptType !== undefined ? { encryptType: facts.encryptType } : {}),
    handler: facts.handler,
    version: facts.version,
    revision: facts.revision,
    keyLength: facts.keyLength,
    permissionBits: facts.permissionBits,
    encryptMetadata: facts.encryptMetadata,
    attachmentsOnly: facts.attachmentsOnly,
    openPasswordSet,
    permissionsPasswordSet,
    ...permissionsFromBits(facts.permissionBits, facts.revision),
  };
}
