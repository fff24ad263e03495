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

/**
 * Every object of the document that loads, as its reference and the object
 * (an entry that fails to load is skipped). With `streams`, only streams. The
 * reference comes along because MuPDF knows a stream, and reads or writes its
 * data, only through it. Objects added meanwhile are not visited.
 */
export function* loadedObjects(doc: mupdf.PDFDocument, options: { streams?: boolean } = {}): Generator<{ ref: mupdf.PDFObject; obj: mupdf.PDFObject }> {
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    const ref = doc.newIndirect(num);
    let obj: mupdf.PDFObject;
    try {
      if (options.streams && !ref.isStream()) continue;
      obj = ref.resolve();
    } catch {
      continue;
    }
    yield { ref, obj };
  }
}

/** A page's content streams, as references: its Contents, one stream or an array of them. */
export function pageContents(page: mupdf.PDFObject): mupdf.PDFObject[] {
  const contents = deref(page.get('Contents'));
  if (!contents.isArray()) return [page.get('Contents')];
  const streams: mupdf.PDFObject[] = [];
  contents.forEach((c) => streams.push(c));
  return streams;
}
