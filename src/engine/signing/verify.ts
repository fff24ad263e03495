/**
 * Signature fields and their signatures read from a document (docs/signing.md),
 * each signature verified here: its byte range against the file, its CMS
 * (signing/cms.ts) against the signed bytes.
 */
import type { X509Certificate } from 'node:crypto';
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { checkCms, type CmsCheck } from './cms.js';
import { isoSeconds, pdfDateToIso } from '../syntax/dates.js';
import { readFormFields, type FormField } from '../forms/field-tree.js';
import { annotationPages } from '../forms/fields.js';
import { withPdf } from '../core/document-task.js';
import { deref, name, text } from '../core/mupdf-objects.js';
import type { Rectangle } from '../syntax/geometry.js';
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
export const PRINT = 4;
export const LOCKED = 128;

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
export function certifyingSignature(doc: mupdf.PDFDocument): { num?: number; level: 1 | 2 | 3 } | undefined {
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
  if (!model.signingTime && check.signingTime) model.signingTime = isoSeconds(check.signingTime);
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

export function signatureFields(doc: mupdf.PDFDocument): FormField[] {
  return readFormFields(doc).filter((f) => f.type === 'signature');
}

/** `bytes` is asked for only when a field is signed: verification reads the signed byte ranges. */
function listModels(doc: mupdf.PDFDocument, bytes: () => Uint8Array): SignatureFieldModel[] {
  const pages = annotationPages(doc);
  return signatureFields(doc).map((f) => fieldModel(doc, f, pages, bytes));
}

/** The `listSignatureFields` task: every signature field, each signature verified. Viewing is enough; `name` picks one (404 FIELD_NOT_FOUND). */
export function listSignatureFields(input: { pdf: PdfSource; password?: string | undefined; name?: string | undefined }): SignatureFieldsModel {
  return withPdf(input, 'view', (doc) => {
    let whole: Uint8Array | undefined;
    const all = listModels(doc, () => (whole ??= readAll(input.pdf)));
    if (input.name === undefined) return { signatureFields: all };
    const one = all.filter((f) => f.name === input.name);
    if (one.length === 0) throw notFound(input.name);
    return { signatureFields: one };
  });
}

export function notFound(fieldName: string): EngineError {
  return new EngineError('FIELD_NOT_FOUND', `No signature field named ${JSON.stringify(fieldName)}`, { field: fieldName });
}
