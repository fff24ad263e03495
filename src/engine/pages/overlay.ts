import type * as mupdf from 'mupdf';
import { deref } from '../core/mupdf-objects.js';
import { isTagged } from '../pdfua/keep.js';

/**
 * Drawing over a page's existing content, shared by everything that paints on
 * pages (redaction overlays, stamps). The page's own content is put between
 * `q` and `Q` so that a graphics state it leaves behind (a `cm`, a clip, a
 * colour) cannot leak into what is drawn after it; the drawing then starts in
 * the page's default user space. The `q` stream is made once per document and
 * shared by every page, as may be a drawing that is the same on every page.
 */
export class PageOverlay {
  private opening: mupdf.PDFObject | undefined;
  private readonly artifact: boolean;

  /**
   * `artifacts`: what is drawn is no part of the document's content (a stamp, page numbers, a redaction's fill), so on
   * a tagged document it is marked as an artifact, as PDF/UA-1 7.1 asks of content outside the structure tree
   * (docs/accessibility.md, "Writes keep the structure"). An untagged document's drawings are left unmarked.
   */
  constructor(private readonly doc: mupdf.PDFDocument, options: { artifacts?: boolean } = {}) {
    this.artifact = options.artifacts === true && isTagged(doc);
  }

  /** A content stream for `attach`: it closes the wrap, then runs `ops` in default user space. */
  drawing(ops: string): mupdf.PDFObject {
    return this.doc.addStream(this.artifact ? `Q\n/Artifact BMC\n${ops}\nEMC\n` : `Q\n${ops}\n`, {});
  }

  /** Wraps the page's content in q/Q and appends `drawing` (made by `drawing()`) after it. */
  attach(pageObj: mupdf.PDFObject, drawing: mupdf.PDFObject): void {
    this.opening ??= this.doc.addStream('q', {});
    const contents = this.doc.newArray();
    contents.push(this.opening);
    const old = pageObj.get('Contents');
    const resolved = deref(old);
    if (resolved.isArray()) for (let i = 0; i < resolved.length; i++) contents.push(resolved.get(i));
    else if (old.isIndirect()) contents.push(old);
    contents.push(drawing);
    pageObj.put('Contents', contents);
  }
}

/**
 * The page's resource sub-dictionary of one category (`Font`, `XObject`, ...),
 * made the page's own first: resources inherited from the page tree or shared
 * with other pages (an indirect dictionary) are copied, one level deep, into
 * the page, so adding an entry changes this page alone and keeps what it
 * inherited.
 */
export function ownResources(doc: mupdf.PDFDocument, pageObj: mupdf.PDFObject, category: string): mupdf.PDFObject {
  let resources = pageObj.get('Resources');
  if (resources.isIndirect() || !resources.isDictionary()) {
    resources = shallowCopy(doc, deref(pageObj.getInheritable('Resources')));
    pageObj.put('Resources', resources);
  }
  let sub = resources.get(category);
  if (sub.isIndirect() || !sub.isDictionary()) {
    sub = shallowCopy(doc, deref(sub));
    resources.put(category, sub);
  }
  return sub;
}

/** A new direct dictionary with the entries of `source` (none when it is not a dictionary). */
function shallowCopy(doc: mupdf.PDFDocument, source: mupdf.PDFObject): mupdf.PDFObject {
  const copy = doc.newDictionary();
  if (source.isDictionary()) source.forEach((value, key) => copy.put(key, value));
  return copy;
}

/** A resource name not used in `dict`: `base`, or `base` with a number after it. */
export function freeName(dict: mupdf.PDFObject, base: string): string {
  let name = base;
  for (let i = 1; !dict.get(name).isNull(); i++) name = `${base}_${i}`;
  return name;
}
