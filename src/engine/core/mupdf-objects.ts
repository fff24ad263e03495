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

/**
 * An entry's value for reading, resolved unless it is a stream, which stays its reference (MuPDF resolves it in
 * every getter). Null stays Null (its resolve() throws). For code whose document is then saved with garbage
 * collection: MuPDF.js's resolve() takes two references on the object it answers and its destroy() gives back one,
 * so a stream's dictionary resolved from JavaScript stays shared, and a save that renumbers objects (garbage=compact
 * and above) writes that object as a plain dictionary without its data whenever it rewrites an indirect reference in
 * it (MuPDF.js 1.28.1: a form XObject with indirect /Resources, an image with an /SMask). Issue 35: the optimizer's
 * image survey resolved the forms of pdf.js's tracemonkey.pdf and ebook lost the 223 words drawn by them.
 */
export function resolveEntry(obj: mupdf.PDFObject): mupdf.PDFObject {
  return obj.isIndirect() && !obj.isStream() ? obj.resolve() : obj;
}

/**
 * Runs `fn`, which changes pages one at a time, with MuPDF's page-tree cache off. Every change drops that cache and
 * every page loaded builds it again for the whole document, which made a page-by-page pass quadratic (XFDF import:
 * 1,000 pages, a million page-tree entries; ApplyRedactionsAction: 3,000 pages, half its CPU in loadPage and
 * findPage). Without it a page is found by walking the tree.
 */
export function withoutPageTreeCache<T>(doc: mupdf.PDFDocument, fn: () => T): T {
  doc.setPageTreeCache(false);
  try {
    return fn();
  } finally {
    doc.setPageTreeCache(true);
  }
}

/** Parents looked through for an inherited entry: no form tool makes a deeper field tree. */
const MAX_INHERITANCE_DEPTH = 64;

/**
 * A field's entry, inherited from its ancestors as MuPDF's getInheritable
 * does, but through a /Parent chain that may loop, where MuPDF throws "cycle
 * in resources" and so failed the whole operation: the walk stops at an
 * object met before. Absent: the Null object, as getInheritable answers.
 */
export function inheritable(field: mupdf.PDFObject, key: string): mupdf.PDFObject {
  const absent = field.get(key);
  if (!absent.isNull()) return absent;
  const seen = new Set<number>();
  let node = field;
  for (let depth = 0; depth < MAX_INHERITANCE_DEPTH; depth++) {
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) return absent;
      seen.add(node.asIndirect());
    }
    let dict: mupdf.PDFObject;
    try {
      dict = deref(node);
    } catch {
      return absent;
    }
    if (!dict.isDictionary()) return absent;
    const value = dict.get(key);
    if (!value.isNull()) return value;
    node = dict.get('Parent');
  }
  return absent;
}

/** An array of numbers (a box, a matrix), each read as MuPDF gives it; undefined when it is none such. */
export function numbers(obj: mupdf.PDFObject): number[] | undefined {
  const array = deref(obj);
  if (!array.isArray()) return undefined;
  const out: number[] = [];
  for (let i = 0; i < array.length; i++) {
    const v = deref(array.get(i));
    if (!v.isNumber()) return undefined;
    out.push(v.asNumber());
  }
  return out;
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
 * Not for a document saved with garbage=compact afterwards: a stream resolved
 * from JavaScript lost its data in such a save (resolveEntry says why), so the
 * optimizer reads through references; PDF/A saves keep object numbers (garbage=1).
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

/** What draws with content streams: pages, form XObjects, tiling patterns, Type 3 fonts (their glyph procedures). */
export type ContentHolderKind = 'page' | 'form' | 'tiling' | 'type3';

export interface ContentHolder {
  kind: ContentHolderKind;
  /** The page, the form's or pattern's stream reference, or the Type 3 font. */
  owner: mupdf.PDFObject;
  /** The resources the streams draw with (a page's inherited ones); may be null. */
  resources: mupdf.PDFObject;
  /** The content streams, as references (those of a page may include non-streams in a damaged file). */
  streams: mupdf.PDFObject[];
}

/**
 * Every holder of content of the given kinds with its resources: pages first,
 * then the objects that load (forms and tiling patterns are streams; a Type 3
 * font is a dictionary, so only asking for it makes the walk resolve every
 * object). The one walk the content rewriters share.
 */
export function* contentHolders(doc: mupdf.PDFDocument, kinds: readonly ContentHolderKind[]): Generator<ContentHolder> {
  if (kinds.includes('page')) {
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.findPage(i);
      yield { kind: 'page', owner: page, resources: deref(page.getInheritable('Resources')), streams: pageContents(page) };
    }
  }
  const wantsType3 = kinds.includes('type3');
  if (!wantsType3 && !kinds.includes('form') && !kinds.includes('tiling')) return;
  for (const { ref, obj } of loadedObjects(doc, { streams: !wantsType3 })) {
    if (!obj.isDictionary()) continue;
    if (ref.isStream()) {
      const kind = name(obj.get('Subtype')) === 'Form' ? 'form' : name(obj.get('Type')) === 'Pattern' ? 'tiling' : undefined;
      if (kind && kinds.includes(kind)) yield { kind, owner: ref, resources: deref(obj.get('Resources')), streams: [ref] };
    } else if (name(obj.get('Subtype')) === 'Type3') {
      const procs = deref(obj.get('CharProcs'));
      const streams: mupdf.PDFObject[] = [];
      if (procs.isDictionary()) procs.forEach((p) => streams.push(p));
      yield { kind: 'type3', owner: obj, resources: deref(obj.get('Resources')), streams };
    }
  }
}
