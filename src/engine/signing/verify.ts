/**
 * Signature fields and digital signatures (docs/signing.md): listing them
 * with a verification of each signature computed here, creating and deleting
 * fields, and signing. MuPDF writes the signature dictionary with
 * placeholders in an incremental update; the byte range and the CMS
 * (signing/cms.ts) are then written into those placeholders, which keeps
 * every byte offset of the update as MuPDF wrote it.
 */
import { createHash } from 'node:crypto';
import type { X509Certificate } from 'node:crypto';
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { checkCms, createCms, type CmsCheck } from './cms.js';
import { readKeyStore, type KeyStoreRequest } from './keystore.js';
import { pdfDateToIso } from '../syntax/dates.js';
import { breakFieldLoops, readFormFields, type FormField } from '../forms/field-tree.js';
import { annotationPages } from '../forms/fields.js';
import { formFacts } from '../core/inspect.js';
import { checkPageIndex, openPdf, type OpenedPdf } from '../core/open.js';
import { requirePermission } from '../security/access.js';
import { deref, name, text } from '../core/mupdf-objects.js';
import { saveEdited, saveFull } from '../core/save.js';
import { setEmptyAppearance, setSignedAppearance } from './appearance.js';
import type { Rectangle } from '../annotations/model.js';
import { readAll, type PdfSource } from '../core/pdf-source.js';

export type SubFilter = 'adbe.pkcs7.detached' | 'ETSI.CAdES.detached';

export interface SignatureWidget {
  /** -1 when the widget is on no page. */
  pageIndex: number;
  rectangle?: Rectangle;
}

export interface CertificateModel {
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validTo: string;
}

export interface SignatureModel {
  filter?: string;
  subFilter?: string;
  /** The signer certificate's subject ("CN=…, O=…"). */
  signer?: string;
  signerCommonName?: string;
  /** /Name of the signature dictionary, when set. */
  name?: string;
  /** ISO 8601: the dictionary's /M, or the CMS signing-time attribute when /M is absent. */
  signingTime?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** A certification (DocMDP) signature, and its level: 1 no changes, 2 form fill-in and signing, 3 as 2 plus annotations. */
  certification: boolean;
  certificationLevel?: 1 | 2 | 3;
  byteRange: number[];
  /** The signed ranges reach the end of the file: nothing was appended after this signature. */
  coversWholeFile: boolean;
  /** Computed here: the digest over the byte range matches the signed digest, and the signature verifies with the signer certificate it carries. */
  integrity: boolean;
  integrityReason?: string;
  digestAlgorithm?: string;
  /** PAdES: a signing-certificate(-v2) attribute names the signer certificate. */
  signingCertificateAttribute?: boolean;
  /** The certificates the signature carries, the signer's first. */
  certificates: CertificateModel[];
}

export interface SignatureFieldModel {
  name: string;
  widgets: SignatureWidget[];
  /** Some widget has an area on a page and is not hidden. */
  visible: boolean;
  signed: boolean;
  signature?: SignatureModel;
}

export interface SignatureFieldsModel {
  signatureFields: SignatureFieldModel[];
}

const HIDDEN = 2;
const PRINT = 4;
const LOCKED = 128;

/* ---------------------------------------------------------------- reading */

/**
 * The numbers of an array, from each number's text: MuPDF reads numbers
 * through a 32-bit float, which rounds the offsets of a /ByteRange past
 * 16 MiB (2^24), so a large file's signature would seem to reach past its end.
 */
function numbers(obj: mupdf.PDFObject): number[] | undefined {
  const a = deref(obj);
  if (!a.isArray()) return undefined;
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const v = deref(a.get(i));
    if (!v.isNumber()) return undefined;
    const exact = Number(v.toString());
    out.push(Number.isFinite(exact) ? exact : v.asNumber());
  }
  return out;
}

function rectangleOf(widget: mupdf.PDFObject): Rectangle | undefined {
  const v = numbers(deref(widget).get('Rect'));
  if (!v || v.length !== 4) return undefined;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { x: round(Math.min(v[0]!, v[2]!)), y: round(Math.min(v[1]!, v[3]!)), width: round(Math.abs(v[2]! - v[0]!)), height: round(Math.abs(v[3]! - v[1]!)) };
}

/** The DocMDP level a signature dictionary's /Reference declares, or undefined when it is no certification. */
function docMdpLevel(sig: mupdf.PDFObject): 1 | 2 | 3 | undefined {
  const refs = deref(sig.get('Reference'));
  if (!refs.isArray()) return undefined;
  for (let i = 0; i < refs.length; i++) {
    const ref = deref(refs.get(i));
    if (!ref.isDictionary() || name(ref.get('TransformMethod')) !== 'DocMDP') continue;
    const p = deref(deref(ref.get('TransformParams')).isDictionary() ? deref(ref.get('TransformParams')).get('P') : ref.get('P'));
    const level = p.isNumber() ? p.asNumber() : 2;
    return level === 1 || level === 3 ? level : 2;
  }
  return undefined;
}

/** The signature dictionary /Perms /DocMDP names, by object number. */
function certifyingSignature(doc: mupdf.PDFDocument): { num?: number; level: 1 | 2 | 3 } | undefined {
  const perms = deref(deref(doc.getTrailer().get('Root')).get('Perms'));
  if (!perms.isDictionary()) return undefined;
  const ref = perms.get('DocMDP');
  const sig = deref(ref);
  if (!sig.isDictionary()) return undefined;
  return { ...(ref.isIndirect() ? { num: ref.asIndirect() } : {}), level: docMdpLevel(sig) ?? 2 };
}

const HEX = /^[0-9A-Fa-f\s]*$/;

/** Checks a /ByteRange against the file and reads the signature value from the gap it leaves. */
function signedParts(byteRange: number[] | undefined, bytes: Uint8Array): { parts: Uint8Array[]; contents: Uint8Array } | { problem: string } {
  if (!byteRange || byteRange.length !== 4) return { problem: 'the byte range is not two ranges of numbers' };
  const [a, b, c, d] = byteRange as [number, number, number, number];
  if (![a, b, c, d].every((n) => Number.isInteger(n) && n >= 0)) return { problem: 'the byte range has numbers that are not offsets' };
  if (a !== 0) return { problem: 'the byte range does not start at the beginning of the file' };
  if (c < a + b || c + d > bytes.length) return { problem: 'the byte range reaches past the end of the file or overlaps itself' };
  const gapStart = a + b;
  const gapEnd = c;
  if (bytes[gapStart] !== 0x3c || bytes[gapEnd - 1] !== 0x3e) return { problem: 'the byte range does not leave out exactly the signature value (<…>)' };
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset + gapStart + 1, gapEnd - gapStart - 2).toString('latin1');
  if (!HEX.test(hex)) return { problem: 'the byte range does not leave out exactly the signature value (<…>)' };
  const digits = hex.replace(/\s+/g, '');
  return {
    parts: [bytes.subarray(a, a + b), bytes.subarray(c, c + d)],
    contents: Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex'),
  };
}

function certificateModel(cert: X509Certificate): CertificateModel {
  return {
    subject: cert.subject.split('\n').filter(Boolean).join(', '),
    issuer: cert.issuer.split('\n').filter(Boolean).join(', '),
    serialNumber: cert.serialNumber,
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
  };
}

function signatureModel(doc: mupdf.PDFDocument, sigRef: mupdf.PDFObject, bytes: Uint8Array): SignatureModel {
  const sig = deref(sigRef);
  const byteRange = numbers(sig.get('ByteRange'));
  const level = docMdpLevel(sig);
  const certified = certifyingSignature(doc);
  const isCertifier = level !== undefined || (certified?.num !== undefined && sigRef.isIndirect() && sigRef.asIndirect() === certified.num);
  const model: SignatureModel = {
    certification: isCertifier,
    byteRange: byteRange ?? [],
    coversWholeFile: byteRange !== undefined && byteRange.length >= 2 && byteRange[byteRange.length - 2]! + byteRange[byteRange.length - 1]! === bytes.length,
    integrity: false,
    certificates: [],
  };
  if (isCertifier) model.certificationLevel = level ?? certified?.level ?? 2;
  const filter = name(sig.get('Filter'));
  const subFilter = name(sig.get('SubFilter'));
  if (filter) model.filter = filter;
  if (subFilter) model.subFilter = subFilter;
  for (const [key, pdfKey] of [['name', 'Name'], ['reason', 'Reason'], ['location', 'Location'], ['contactInfo', 'ContactInfo']] as const) {
    const value = text(sig.get(pdfKey));
    if (value) model[key] = value;
  }
  const m = pdfDateToIso(text(sig.get('M')));
  if (m) model.signingTime = m;

  const read = signedParts(byteRange, bytes);
  if ('problem' in read) {
    // Still say who signed, from /Contents as the dictionary holds it.
    const contents = deref(sig.get('Contents'));
    if (contents.isString()) describeSigner(model, checkCms(contents.asByteString(), []));
    model.integrityReason = read.problem;
    return model;
  }
  if (subFilter === 'adbe.x509.rsa_sha1') {
    model.integrityReason = 'adbe.x509.rsa_sha1 signatures (PKCS#1 with the certificate in /Cert) are not verified by the service';
    return model;
  }
  const check = checkCms(read.contents, read.parts);
  model.integrity = check.integrity;
  if (check.reason) model.integrityReason = check.reason;
  describeSigner(model, check);
  return model;
}

function describeSigner(model: SignatureModel, check: CmsCheck): void {
  if (check.signer) model.signer = check.signer;
  if (check.signerCommonName) model.signerCommonName = check.signerCommonName;
  if (!model.signingTime && check.signingTime) model.signingTime = check.signingTime.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (check.digestAlgorithm) model.digestAlgorithm = check.digestAlgorithm;
  if (check.signingCertificateAttribute !== undefined) model.signingCertificateAttribute = check.signingCertificateAttribute;
  model.certificates = check.certificates.map(certificateModel);
}

function fieldModel(doc: mupdf.PDFDocument, f: FormField, pages: Map<number, number>, bytes: () => Uint8Array): SignatureFieldModel {
  const widgets = f.widgets.map((w) => {
    const widget: SignatureWidget = { pageIndex: w.isIndirect() ? (pages.get(w.asIndirect()) ?? -1) : -1 };
    const rect = rectangleOf(w);
    if (rect) widget.rectangle = rect;
    return widget;
  });
  const visible = f.widgets.some((w, i) => {
    const flags = deref(deref(w).get('F'));
    const hidden = flags.isNumber() && (flags.asNumber() & HIDDEN) !== 0;
    const r = widgets[i]!.rectangle;
    return !hidden && widgets[i]!.pageIndex >= 0 && r !== undefined && r.width > 0 && r.height > 0;
  });
  const value = f.field.get('V');
  const signed = deref(value).isDictionary();
  return { name: f.name, widgets, visible, signed, ...(signed ? { signature: signatureModel(doc, value, bytes()) } : {}) };
}

function signatureFields(doc: mupdf.PDFDocument): FormField[] {
  return readFormFields(doc).filter((f) => f.type === 'signature');
}

/** `bytes` is asked for only when a field is signed: verification reads the signed byte ranges. */
function listModels(doc: mupdf.PDFDocument, bytes: () => Uint8Array): SignatureFieldModel[] {
  const pages = annotationPages(doc);
  return signatureFields(doc).map((f) => fieldModel(doc, f, pages, bytes));
}

/** The `listSignatureFields` task: every signature field, each signature verified. Viewing is enough; `name` picks one (404 FIELD_NOT_FOUND). */
export function listSignatureFields(input: { pdf: PdfSource; password?: string | undefined; name?: string | undefined }): SignatureFieldsModel {
  const { doc } = openPdf(input.pdf, input.password, 'view');
  try {
    let whole: Uint8Array | undefined;
    const all = listModels(doc, () => (whole ??= readAll(input.pdf)));
    if (input.name === undefined) return { signatureFields: all };
    const one = all.filter((f) => f.name === input.name);
    if (one.length === 0) throw notFound(input.name);
    return { signatureFields: one };
  } finally {
    doc.destroy();
  }
}

/* ---------------------------------------------------------------- changing */

function notFound(fieldName: string): EngineError {
  return new EngineError('FIELD_NOT_FOUND', `No signature field named ${JSON.stringify(fieldName)}`, { field: fieldName });
}

function checkNewName(doc: mupdf.PDFDocument, fieldName: string): void {
  if (fieldName.includes('.')) {
    throw new EngineError('VALIDATION_FAILED', `A new signature field's name cannot contain "." (dots separate the names of parent fields): ${JSON.stringify(fieldName)}`);
  }
  if (readFormFields(doc).some((f) => f.name === fieldName || f.name.startsWith(`${fieldName}.`))) {
    throw new EngineError('FIELD_EXISTS', `A field named ${JSON.stringify(fieldName)} already exists`, { field: fieldName });
  }
}

/** Creating or removing fields modifies the form: with the user password that needs "modify annotations" and "change the document" (ISO 32000-1 table 22, bits 4 and 6). */
function requireFormEditing(opened: OpenedPdf): void {
  requirePermission(opened, 'annotate');
  requirePermission(opened, 'edit');
}

/** A certification at level 1 allows no change at all (ISO 32000-1 12.8.2.2). */
function refuseIfLocked(doc: mupdf.PDFDocument, what: string): void {
  const cert = certifyingSignature(doc);
  if (cert?.level === 1) throw new EngineError('DOCUMENT_CERTIFIED', `The document is certified with "no changes allowed" (DocMDP level 1): ${what} would break its certification`);
}

function acroForm(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const root = deref(doc.getTrailer().get('Root'));
  let form = root.get('AcroForm');
  if (!deref(form).isDictionary()) {
    form = doc.addObject(doc.newDictionary());
    root.put('AcroForm', form);
  }
  const resolved = deref(form);
  if (!deref(resolved.get('Fields')).isArray()) resolved.put('Fields', doc.newArray());
  return resolved;
}

export interface NewWidget {
  pageIndex: number;
  rectangle: Rectangle;
}

/**
 * Adds an unsigned signature field: one widget per entry, or with none an
 * invisible widget (zero rectangle, on the first page, as ISO 32000-2
 * 12.7.5.5 suggests for signatures that are not shown). Answers the field.
 */
function addSignatureField(doc: mupdf.PDFDocument, fieldName: string, widgets: NewWidget[]): mupdf.PDFObject {
  for (const w of widgets) checkPageIndex(doc, w.pageIndex);
  const placed = widgets.length > 0 ? widgets : [{ pageIndex: 0, rectangle: { x: 0, y: 0, width: 0, height: 0 } }];
  const invisible = widgets.length === 0;
  const field = doc.addObject(doc.newDictionary());
  field.put('FT', doc.newName('Sig'));
  field.put('T', doc.newString(fieldName));
  const widgetObjects = placed.map((w) => {
    const widget = placed.length === 1 ? field : doc.addObject(doc.newDictionary());
    widget.put('Type', doc.newName('Annot'));
    widget.put('Subtype', doc.newName('Widget'));
    const rect = doc.newArray();
    for (const v of [w.rectangle.x, w.rectangle.y, w.rectangle.x + w.rectangle.width, w.rectangle.y + w.rectangle.height]) rect.push(doc.newReal(v));
    widget.put('Rect', rect);
    widget.put('F', doc.newInteger(invisible ? PRINT | LOCKED : PRINT));
    const page = doc.findPage(w.pageIndex);
    widget.put('P', page);
    if (widget !== field) widget.put('Parent', field);
    let annots = page.get('Annots');
    if (!deref(annots).isArray()) {
      annots = doc.newArray();
      page.put('Annots', annots);
    }
    deref(annots).push(widget);
    setEmptyAppearance(doc, widget);
    return widget;
  });
  if (widgetObjects.length > 1 || widgetObjects[0] !== field) {
    const kids = doc.newArray();
    for (const w of widgetObjects) kids.push(w);
    field.put('Kids', kids);
  }
  const form = acroForm(doc);
  deref(form.get('Fields')).push(field);
  return field;
}

/** The `createSignatureField` task: 409 FIELD_EXISTS when the name is taken. Answers the new field. */
export function createSignatureField(input: { pdf: PdfSource; password?: string | undefined; name: string; widgets: NewWidget[] }): { bytes: Uint8Array; field: SignatureFieldModel } {
  const opened = openPdf(input.pdf, input.password, 'form');
  const { doc } = opened;
  try {
    requireFormEditing(opened);
    const signed = formFacts(doc).hasSignatures;
    breakFieldLoops(doc);
    checkNewName(doc, input.name);
    refuseIfLocked(doc, 'adding a field');
    addSignatureField(doc, input.name, input.widgets);
    const bytes = saveEdited(doc, signed);
    return { bytes, field: describeOne(bytes, input.password, input.name) };
  } finally {
    doc.destroy();
  }
}

function describeOne(bytes: Uint8Array, password: string | undefined, fieldName: string): SignatureFieldModel {
  return listSignatureFields({ pdf: bytes, password, name: fieldName }).signatureFields[0]!;
}

/** Removes an object from an array by object number; answers whether it was there. */
function removeFrom(array: mupdf.PDFObject, num: number): boolean {
  const a = deref(array);
  if (!a.isArray()) return false;
  let removed = false;
  for (let i = a.length - 1; i >= 0; i--) {
    const item = a.get(i);
    if (item.isIndirect() && item.asIndirect() === num) {
      a.delete(i);
      removed = true;
    }
  }
  return removed;
}

/**
 * The `deleteSignatureField` task. An unsigned field is removed with its
 * widgets. A signed field keeps its place and widgets but loses its value:
 * the signature dictionary is unlinked, the appearance emptied, and a
 * certification made by it is withdrawn (/Perms /DocMDP). The earlier
 * revision still holds the signature (the file is appended to), so other
 * signatures stay valid.
 */
export function deleteSignatureField(input: { pdf: PdfSource; password?: string | undefined; name: string }): { bytes: Uint8Array; cleared: boolean } {
  const opened = openPdf(input.pdf, input.password, 'form');
  const { doc } = opened;
  try {
    requireFormEditing(opened);
    const signedAtOpen = formFacts(doc).hasSignatures;
    breakFieldLoops(doc);
    const f = signatureFields(doc).find((x) => x.name === input.name);
    if (!f) throw notFound(input.name);
    const value = f.field.get('V');
    const cert = certifyingSignature(doc);
    const isCertifier = cert?.num !== undefined && value.isIndirect() && value.asIndirect() === cert.num;
    if (!isCertifier) refuseIfLocked(doc, deref(value).isDictionary() ? 'removing a signature' : 'removing a field');
    if (deref(value).isDictionary()) {
      deref(f.field).delete('V');
      for (const w of f.widgets) setEmptyAppearance(doc, deref(w));
      if (isCertifier) withdrawCertification(doc);
      return { bytes: saveEdited(doc, signedAtOpen), cleared: true };
    }
    const count = doc.countPages();
    for (const w of f.widgets) {
      if (!w.isIndirect()) continue;
      for (let p = 0; p < count; p++) removeFrom(doc.findPage(p).get('Annots'), w.asIndirect());
    }
    const fieldNum = f.field.isIndirect() ? f.field.asIndirect() : -1;
    const parent = deref(f.field).get('Parent');
    const form = acroForm(doc);
    if (!(deref(parent).isDictionary() && removeFrom(deref(parent).get('Kids'), fieldNum))) removeFrom(form.get('Fields'), fieldNum);
    return { bytes: saveEdited(doc, signedAtOpen), cleared: false };
  } finally {
    doc.destroy();
  }
}

/**
 * Clears every signature value of a document that becomes a new one (an
 * extract): the signatures covered the source's bytes and cannot be valid
 * in it. The fields stay, unsigned, and a certification is withdrawn.
 */
export function dropSignatureValues(doc: mupdf.PDFDocument): void {
  for (const f of signatureFields(doc)) {
    if (!deref(f.field.get('V')).isDictionary()) continue;
    deref(f.field).delete('V');
    for (const w of f.widgets) setEmptyAppearance(doc, deref(w));
  }
  withdrawCertification(doc);
}

/** Removes /Perms /DocMDP, and /Perms when nothing else is left in it. */
function withdrawCertification(doc: mupdf.PDFDocument): void {
  const root = deref(doc.getTrailer().get('Root'));
  const perms = deref(root.get('Perms'));
  if (!perms.isDictionary()) return;
  perms.delete('DocMDP');
  let left = 0;
  perms.forEach(() => left++);
  if (left === 0) root.delete('Perms');
}

/* ---------------------------------------------------------------- signing */

export interface SignRequest extends KeyStoreRequest {
  certifyingSignature?: boolean | undefined;
  /** 1 no changes, 2 form fill-in and signing (default), 3 as 2 plus annotations. */
  certifyingPermissions?: 1 | 2 | 3 | undefined;
  signReason?: string | undefined;
  signLocation?: string | undefined;
  signContactInformation?: string | undefined;
  subFilter?: SubFilter | undefined;
  createField?: boolean | undefined;
}

const BYTE_RANGE_PLACEHOLDER = '**********';
/** Room for what may vary between the measured CMS and the real one (an ECDSA signature's length varies by a few bytes). */
const CONTENTS_MARGIN = 256;

function pdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}+00'00'`;
}

function shownDate(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Finds `needle` (latin1) in `bytes` from `from`; -1 when absent. */
function indexOf(bytes: Uint8Array, needle: string, from: number): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle, from, 'latin1');
}

/**
 * Writes the byte range and the CMS into the placeholders of signature
 * dictionary `num`, which MuPDF wrote after `from`. The byte range array is
 * rewritten in the same number of bytes (padded with spaces), the hex string
 * keeps its length (the CMS padded with zeros).
 */
function fillPlaceholders(out: Uint8Array, num: number, from: number, sign: (parts: Uint8Array[]) => Buffer): void {
  const start = indexOf(out, `\n${num} 0 obj`, from - 1);
  const end = start < 0 ? -1 : indexOf(out, 'endobj', start);
  if (start < 0 || end < 0) throw new EngineError('PROCESSING_FAILED', 'The signature dictionary was not found in the saved document');
  const rangeStart = indexOf(out, '/ByteRange', start);
  const open = indexOf(out, '[', rangeStart);
  const close = indexOf(out, ']', open);
  const contentsKey = indexOf(out, '/Contents', start);
  const hexStart = indexOf(out, '<', contentsKey);
  const hexEnd = indexOf(out, '>', hexStart);
  if ([rangeStart, open, close, contentsKey, hexStart, hexEnd].some((i) => i < 0 || i > end)) {
    throw new EngineError('PROCESSING_FAILED', 'The signature placeholders were not found in the saved document');
  }
  const a = hexStart;
  const c = hexEnd + 1;
  const ranges = `[0 ${a} ${c} ${out.length - c}`;
  const width = close - open;
  if (ranges.length > width) throw new EngineError('PROCESSING_FAILED', 'The byte range does not fit its placeholder');
  Buffer.from(out.buffer, out.byteOffset, out.byteLength).write(ranges.padEnd(width, ' '), open, 'latin1');
  const cms = sign([out.subarray(0, a), out.subarray(c)]);
  const room = hexEnd - hexStart - 1;
  const hex = cms.toString('hex').toUpperCase();
  if (hex.length > room) throw new EngineError('PROCESSING_FAILED', 'The signature is larger than the space reserved for it');
  Buffer.from(out.buffer, out.byteOffset, out.byteLength).write(hex.padEnd(room, '0'), hexStart + 1, 'latin1');
}

function widgetLines(signer: X509Certificate, date: Date, request: SignRequest): string[] {
  const subject = signer.subject.split('\n').filter(Boolean);
  const cn = subject.find((p) => p.startsWith('CN='))?.slice(3) ?? subject.join(', ');
  const lines = [`Digitally signed by ${cn}`, `Date: ${shownDate(date)}`];
  if (request.signReason) lines.push(`Reason: ${request.signReason}`);
  if (request.signLocation) lines.push(`Location: ${request.signLocation}`);
  return lines;
}

/**
 * The `signField` task: signs the signature field `name` (or a new invisible
 * one with createField) with the key store's key, as an incremental update,
 * and answers the signed document and the field as verified afterwards.
 * The key store and the passwords live only in this call.
 */
export function signField(input: { pdf: PdfSource; password?: string | undefined; name: string; keyStore: Uint8Array; request: SignRequest; now?: number | undefined }): { bytes: Uint8Array; field: SignatureFieldModel } {
  const { request } = input;
  let signingKey;
  try {
    signingKey = readKeyStore(input.keyStore, request);
  } finally {
    input.keyStore.fill(0);
  }
  const signer = signingKey.chain[0]!;
  const date = new Date(Math.floor((input.now ?? Date.now()) / 1000) * 1000);
  const pades = request.subFilter === 'ETSI.CAdES.detached';
  const cmsFor = (digest: Buffer) => createCms({ digest, key: signingKey.key, chain: signingKey.chain, signingTime: date, pades });
  const reserved = cmsFor(Buffer.alloc(32)).length + CONTENTS_MARGIN;

  // The signed result must begin with these bytes unchanged (checked below): the whole file, also when it came as an open file.
  let bytes = readAll(input.pdf);
  let opened = openPdf(bytes, input.password, 'form');
  try {
    if (!opened.doc.canBeSavedIncrementally()) {
      // A repaired file cannot be appended to: written in full first (it has no valid signature to keep), then signed.
      if (formFacts(opened.doc).hasSignatures) throw new EngineError('PROCESSING_FAILED', 'The document is damaged and has signatures: it cannot be appended to without breaking them');
      bytes = saveFull(opened.doc);
      opened.doc.destroy();
      opened = openPdf(bytes, input.password, 'form');
    }
    const { doc } = opened;
    breakFieldLoops(doc);
    const hasSignatures = formFacts(doc).hasSignatures;
    const cert = certifyingSignature(doc);
    if (cert?.level === 1) throw new EngineError('DOCUMENT_CERTIFIED', 'The document is certified with "no changes allowed" (DocMDP level 1): it cannot be signed again');
    if (request.certifyingSignature && (hasSignatures || cert)) {
      throw new EngineError('CERTIFICATION_NOT_FIRST', 'A certifying signature must be the first signature of a document, and this one is signed already');
    }
    let f = readFormFields(doc).find((x) => x.name === input.name);
    if (f && f.type !== 'signature') throw new EngineError('FIELD_EXISTS', `The field ${JSON.stringify(input.name)} is not a signature field`, { field: input.name });
    if (!f) {
      if (!request.createField) throw notFound(input.name);
      requireFormEditing(opened);
      checkNewName(doc, input.name);
      addSignatureField(doc, input.name, []);
      f = signatureFields(doc).find((x) => x.name === input.name)!;
    }
    if (deref(f.field.get('V')).isDictionary()) throw new EngineError('FIELD_SIGNED', `The signature field ${JSON.stringify(input.name)} is signed already: clear it first (DELETE) to sign it again`, { field: input.name });

    const sig = doc.addObject(doc.newDictionary());
    sig.put('Type', doc.newName('Sig'));
    sig.put('Filter', doc.newName('Adobe.PPKLite'));
    sig.put('SubFilter', doc.newName(pades ? 'ETSI.CAdES.detached' : 'adbe.pkcs7.detached'));
    const byteRange = doc.newArray();
    byteRange.push(doc.newInteger(0));
    for (let i = 0; i < 3; i++) byteRange.push(doc.newName(BYTE_RANGE_PLACEHOLDER));
    sig.put('ByteRange', byteRange);
    sig.put('Contents', doc.newByteString(new Uint8Array(reserved)));
    sig.put('M', doc.newString(pdfDate(date)));
    const cn = signer.subject.split('\n').find((p) => p.startsWith('CN='))?.slice(3);
    if (cn) sig.put('Name', doc.newString(cn));
    if (request.signReason) sig.put('Reason', doc.newString(request.signReason));
    if (request.signLocation) sig.put('Location', doc.newString(request.signLocation));
    if (request.signContactInformation) sig.put('ContactInfo', doc.newString(request.signContactInformation));
    const app = doc.newDictionary();
    app.put('Name', doc.newName('pdfservice'));
    const build = doc.newDictionary();
    build.put('App', app);
    sig.put('Prop_Build', build);
    if (request.certifyingSignature) {
      const params = doc.newDictionary();
      params.put('Type', doc.newName('TransformParams'));
      params.put('P', doc.newInteger(request.certifyingPermissions ?? 2));
      params.put('V', doc.newName('1.2'));
      const ref = doc.newDictionary();
      ref.put('Type', doc.newName('SigRef'));
      ref.put('TransformMethod', doc.newName('DocMDP'));
      ref.put('TransformParams', params);
      const refs = doc.newArray();
      refs.push(ref);
      sig.put('Reference', refs);
      const root = deref(doc.getTrailer().get('Root'));
      let perms = deref(root.get('Perms'));
      if (!perms.isDictionary()) {
        perms = doc.newDictionary();
        root.put('Perms', perms);
      }
      perms.put('DocMDP', sig);
    }
    deref(f.field).put('V', sig);
    const lines = widgetLines(signer, date, request);
    for (const w of f.widgets) {
      const widget = deref(w);
      // Locked (flag 8): the signed field's widget is not to be moved or resized.
      const flags = deref(widget.get('F'));
      widget.put('F', doc.newInteger((flags.isNumber() ? flags.asNumber() : PRINT) | LOCKED));
      setSignedAppearance(doc, widget, lines);
    }
    const form = acroForm(doc);
    form.put('SigFlags', doc.newInteger(3));

    const out = saveEdited(doc, true);
    if (Buffer.compare(Buffer.from(out.buffer, out.byteOffset, bytes.length), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) !== 0) {
      throw new EngineError('PROCESSING_FAILED', 'The engine did not append to the document');
    }
    fillPlaceholders(out, sig.asIndirect(), bytes.length, (parts) => {
      const hash = createHash('sha256');
      for (const p of parts) hash.update(p);
      return cmsFor(hash.digest());
    });
    const field = describeOne(out, input.password, input.name);
    if (!field.signature?.integrity) throw new EngineError('PROCESSING_FAILED', `The new signature did not verify (${field.signature?.integrityReason ?? 'no signature'}); nothing was written`);
    return { bytes: out, field };
  } finally {
    opened.doc.destroy();
  }
}
