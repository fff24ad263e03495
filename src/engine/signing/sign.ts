/**
 * Signing a field (docs/signing.md). MuPDF writes the signature dictionary with
 * placeholders in an incremental update; the byte range and the CMS
 * (signing/cms.ts) are then written into those placeholders, which keeps
 * every byte offset of the update as MuPDF wrote it.
 */
import { createHash } from 'node:crypto';
import type { X509Certificate } from 'node:crypto';
import { EngineError } from '../errors.js';
import { createCms } from './cms.js';
import { readKeyStore, type KeyStoreRequest } from './keystore.js';
import { breakFieldLoops, readFormFields } from '../forms/field-tree.js';
import { formFacts } from '../core/inspect.js';
import { openPdf } from '../core/open.js';
import { deref } from '../core/mupdf-objects.js';
import { pdfDate } from '../syntax/dates.js';
import { saveEdited, saveFull } from '../core/save.js';
import { setSignedAppearance } from './appearance.js';
import { readAll, type PdfSource } from '../core/pdf-source.js';
import { certifyingSignature, LOCKED, notFound, PRINT, signatureFields, type SignatureFieldModel, type SubFilter } from './verify.js';
import { acroForm, addSignatureField, checkNewName, describeOne, requireFormEditing } from './fields.js';

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
  // Not through editPdf: a repaired file is rewritten and opened again, and a signature is always appended.
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
