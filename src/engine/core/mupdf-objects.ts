import type * as mupdf from 'mupdf';

/** Small readers of MuPDF objects; absent or mistyped entries give undefined. */

/**
 * The object an entry refers to. Only indirect objects are resolved: MuPDF
 * answers a missing key with a shared Null object whose resolve() throws. Keep
 * a stream as its reference instead: isStream() is true for the reference only.
 */
export function deref(obj: mupdf.PDFObject): mupdf.PDFObject {
  return obj.isIndirect() ? obj.resolve() : obj;
}

export function text(obj: mupdf.PDFObject): string | undefined {
  const r = deref(obj);
  return r.isString() ? r.asString() : undefined;
}

export function name(obj: mupdf.PDFObject): string | undefined {
  const r = deref(obj);
  return r.isName() ? r.asName() : undefined;
}
