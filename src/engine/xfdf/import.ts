/** Annotations imported into a document from XFDF (the `importAnnotationsXfdf` task), and from FDF through fdf-transfer.ts (applyImport). */
import { randomUUID } from 'node:crypto';
import * as mupdf from 'mupdf';
import type { AnnotationModel } from '../annotations/model.js';
import { EngineError } from '../errors.js';
import { annotationEntries, entryObject, nameEntries, pageObjects, pastAnnotsLimit, readAnnotations, type AnnotationEntry, type FoundEntry } from '../annotations/read.js';
import { setAppearance } from './appearance-objects.js';
import { editPdf } from '../core/document-task.js';
import { PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { deref, withoutPageTreeCache } from '../core/mupdf-objects.js';
import { fromXfdfElement, str, type IncomingAnnotation } from './import-map.js';
import { parseXfdf } from './parse.js';
import { readAll, type PdfSource } from '../core/pdf-source.js';
import { formatPdfEntry, pdfFileOf } from '../syntax/writer.js';
import { redrawAll } from '../annotations/redraw.js';

/** A parsed PDF value as a MuPDF object of `doc` (strings stay strings: MuPDF's own JS conversion makes them names). */
function toMupdf(doc: mupdf.PDFDocument, v: PdfValue): mupdf.PDFObject {
  if (v === null) return doc.newNull();
  if (typeof v === 'boolean') return doc.newBoolean(v);
  if (typeof v === 'number') return Number.isInteger(v) ? doc.newInteger(v) : doc.newReal(v);
  if (v instanceof PdfName) return doc.newName(v.name);
  if (v instanceof PdfString) return doc.newByteString(v.bytes);
  if (v instanceof PdfRef) return doc.newIndirect(v.num);
  if (Array.isArray(v)) {
    const a = doc.newArray();
    for (const item of v) a.push(toMupdf(doc, item));
    return a;
  }
  const d = doc.newDictionary();
  for (const [k, item] of v) d.put(k, toMupdf(doc, item));
  return d;
}

/**
 * A value as reading it back from MuPDF gives it (ObjectReader): MuPDF keeps a real number as a 32-bit float and prints
 * the shortest decimal that reads back as that float. Undefined for a value whose reading back this does not know
 * (an integer past 32 bits, a number JavaScript prints with an exponent, a null dictionary entry, which MuPDF drops):
 * the import's answer is then read from the document (ImportListing).
 */
function significantDigits(decimal: string): number {
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = 0; i < decimal.length; i++) {
    const c = decimal.charCodeAt(i);
    if (c < 0x30 || c > 0x39) continue;
    if (c !== 0x30) {
      if (first < 0) first = count;
      last = count;
    }
    count++;
  }
  return first < 0 ? 0 : last - first + 1;
}

/**
 * Non-integer numbers as read back (asReadBack), remembered: an import's coordinates and colours repeat, and working
 * each out again (its decimal text, then the shortest float32 decimal) was a tenth of the answer's cost.
 */
const readBackNumbers = new Map<number, number | undefined>();
const READ_BACK_CACHE_SIZE = 65_536;

function numberAsReadBack(v: number): number | undefined {
  if (readBackNumbers.has(v)) return readBackNumbers.get(v);
  const read = realAsReadBack(v);
  if (readBackNumbers.size >= READ_BACK_CACHE_SIZE) readBackNumbers.clear();
  readBackNumbers.set(v, read);
  return read;
}

function realAsReadBack(v: number): number | undefined {
  if (!readsBackAlike(v)) return undefined;
  // A decimal of at most 6 significant digits is the shortest that reads back as its float (FLT_DIG).
  if (significantDigits(String(v)) <= 6) return v;
  const f = Math.fround(v);
  if (Number.isInteger(f)) return f;
  for (let digits = 1; digits < 10; digits++) {
    const shortest = Number(f.toPrecision(digits));
    if (Math.fround(shortest) === f) return shortest;
  }
  return undefined;
}

/** asReadBack, with arrays and dictionaries copied only where an item reads back differently (shared otherwise). */
function asReadBack(v: PdfValue): PdfValue | undefined {
  if (typeof v === 'number') {
    if (v === (v | 0)) return v;
    return numberAsReadBack(v);
  }
  if (Array.isArray(v)) {
    let out: PdfValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const item = v[i]!;
      const read = asReadBack(item);
      if (read === undefined) return undefined;
      if (read !== item) (out ??= v.slice(0, i)).push(read);
      else out?.push(read);
    }
    return out ?? v;
  }
  if (v instanceof Map) {
    let out: PdfDict | undefined;
    for (const [key, item] of v) {
      const read = item === null ? undefined : asReadBack(item);
      if (read === undefined) return undefined;
      if (read !== item && !out) out = new Map(v);
      out?.set(key, read);
    }
    return out ?? v;
  }
  return v;
}

/**
 * The annotations of the document after an import that only added annotations, as annotationEntries would read them
 * (page order, then /Annots order): those the document had, read before the import, and on each page after them the
 * dictionaries the import appended. The import's answer lists every annotation, and reading 20,000 of them back from
 * MuPDF (printed and parsed one by one) cost as much as writing them. An import that changes what the document had
 * (updates, moves), or writes what asReadBack does not know, is read back from the document instead (entries()
 * answers undefined). /AP is left out: listings never read it.
 */
class ImportListing {
  private readonly added = new Map<number, FoundEntry[]>();
  private readonly dicts = new Map<mupdf.PDFObject, PdfDict>();
  private exact = true;

  constructor(private readonly before: AnnotationEntry[]) {}

  /** A new annotation object written with `dict` onto page `page`. */
  created(obj: mupdf.PDFObject, dict: PdfDict, page: mupdf.PDFObject): void {
    const read = asReadBack(dict);
    if (!read || !(read instanceof Map) || !page.isIndirect()) {
      this.exact = false;
      return;
    }
    this.dicts.set(obj, read.set('P', new PdfRef(page.asIndirect(), 0)));
  }

  /** `key` of a new annotation set to another object (/Popup, /Parent, /IRT, /FS). */
  linked(obj: mupdf.PDFObject, key: string, target: mupdf.PDFObject): void {
    const dict = this.dicts.get(obj);
    if (dict && target.isIndirect()) dict.set(key, new PdfRef(target.asIndirect(), 0));
    else this.exact = false;
  }

  /** Something the import did that changes an annotation the document had. */
  changedExisting(): void {
    this.exact = false;
  }

  /** New objects appended to the /Annots of page `pageIndex`, the first at `start`. */
  appended(pageIndex: number, start: number, objs: mupdf.PDFObject[]): void {
    if (pastAnnotsLimit(start + objs.length)) this.exact = false;
    const list = this.added.get(pageIndex) ?? [];
    objs.forEach((obj, k) => {
      const dict = this.dicts.get(obj);
      if (dict) list.push({ pageIndex, index: start + k, objectNumber: obj.asIndirect(), dict });
      else this.exact = false;
    });
    this.added.set(pageIndex, list);
  }

  entries(): AnnotationEntry[] | undefined {
    if (!this.exact) return undefined;
    // `before` is in page order: each page's new entries go after its last one.
    const found: FoundEntry[] = [];
    const pages = [...this.added.keys()].sort((a, b) => a - b);
    let next = 0;
    const addUpTo = (pageIndex: number) => {
      for (; next < pages.length && pages[next]! < pageIndex; next++) found.push(...this.added.get(pages[next]!)!);
    };
    for (const { pageIndex, index, objectNumber, dict } of this.before) {
      addUpTo(pageIndex);
      found.push({ pageIndex, index, objectNumber, dict });
    }
    addUpTo(Infinity);
    return nameEntries(found);
  }
}

/**
 * Whether a value written as text (formatPdfValue) and parsed by MuPDF gives what toMupdf makes of it: not a
 * reference (it names an object of the document, not of the text), no integer past 32 bits and no number JavaScript
 * prints with an exponent (MuPDF's constructors store those differently).
 */
function readsBackAlike(v: PdfValue): boolean {
  if (v instanceof PdfRef) return false;
  if (typeof v === 'number') return v === (v | 0) || (Number.isFinite(v) && !String(v).includes('e'));
  if (Array.isArray(v)) return v.every(readsBackAlike);
  if (v instanceof Map) {
    for (const item of v.values()) if (!readsBackAlike(item)) return false;
  }
  return true;
}

/**
 * The dictionaries an import writes, parsed by MuPDF in one pass from a small PDF file of them (syntax/writer.ts) and
 * copied into the document, instead of built value by value through MuPDF's object API: for 20,000 annotations that
 * was about a million JS wrappers, each registered with a FinalizationRegistry, and their garbage collection. An entry
 * without a plain syntax (a reference into the document) is left to the caller. A dictionary in `drawn` also gets a
 * normal appearance of its own, an empty stream for MuPDF to draw into (generateAppearances).
 *
 * The new annotations (`fresh`) are listed in one array of the file, copied into the document in one call (createAll):
 * MuPDF makes each one a new object as it copies, so the import makes four JS wrappers fewer and three calls into
 * MuPDF fewer per annotation than copying them one by one.
 */
class PreparedDicts {
  private readonly source: mupdf.PDFDocument;
  private readonly numbers = new Map<PdfDict, number>();
  private readonly left = new Map<PdfDict, [string, PdfValue][]>();
  private readonly fresh: PdfDict[];
  private readonly listNumber: number;

  constructor(dicts: PdfDict[], drawn: Set<PdfDict>, fresh: Set<PdfDict>) {
    const texts: string[] = [];
    for (const dict of dicts) {
      // Written entry by entry as formatPdfValue writes a dictionary, without a copy of it: the plain entries in
      // their order, /AP (when drawn: the placeholder's reference) where the dictionary has it, else last.
      const left: [string, PdfValue][] = [];
      const isDrawn = drawn.has(dict);
      // Numbered from 1 in the order written: the dictionary, then its placeholder.
      const placeholder = isDrawn ? ` /AP << /N ${texts.length + 2} 0 R >>` : '';
      let text = '<<';
      let placed = false;
      for (const [key, value] of dict) {
        if (!readsBackAlike(value)) left.push([key, value]);
        else if (isDrawn && key === 'AP') {
          text += placeholder;
          placed = true;
        } else text += formatPdfEntry(key, value);
      }
      if (isDrawn && !placed) text += placeholder;
      texts.push(`${text} >>`);
      this.numbers.set(dict, texts.length);
      this.left.set(dict, left);
      if (isDrawn) texts.push(PLACEHOLDER_STREAM);
    }
    this.fresh = dicts.filter((d) => fresh.has(d));
    texts.push(`[${this.fresh.map((d) => `${this.numbers.get(d)} 0 R`).join(' ')}]`);
    this.listNumber = texts.length;
    this.source = new mupdf.PDFDocument(pdfFileOf(texts));
  }

  /** The entries of `dict` with a plain syntax, as a new direct dictionary of `doc`. */
  copy(doc: mupdf.PDFDocument, dict: PdfDict): mupdf.PDFObject {
    const num = this.numbers.get(dict);
    if (num === undefined) throw new Error('dictionary not prepared');
    return doc.graftObject(this.source.newIndirect(num).resolve());
  }

  /** Every `fresh` dictionary (its plain entries) as a new object of `doc`. */
  createAll(doc: mupdf.PDFDocument): Map<PdfDict, mupdf.PDFObject> {
    const list = doc.graftObject(this.source.newIndirect(this.listNumber).resolve());
    return new Map(this.fresh.map((dict, i) => [dict, list.get(i)]));
  }

  /** The entries of `dict` that copy() leaves out, in their order. */
  leftOut(dict: PdfDict): [string, PdfValue][] {
    return this.left.get(dict) ?? [];
  }

  destroy(): void {
    this.source.destroy();
  }
}

export interface ImportResult {
  bytes: Uint8Array;
  created: string[];
  updated: string[];
  warnings: string[];
  annotations: AnnotationModel[];
  pageCount: number;
}

/** The name text of an incoming annotation, or a new unique one. */
function nameFor(incoming: { name?: string | undefined }, taken: Set<string>): string {
  if (incoming.name) return incoming.name;
  let n: string;
  do n = randomUUID(); while (taken.has(n));
  return n;
}

/**
 * Writes incoming annotations into the document: new names are added,
 * existing names are updated in place (same object, so replies to them stay
 * linked), then popups and replies are linked by name whatever their order,
 * and appearances are generated for what has none.
 */
export function importAnnotations(doc: mupdf.PDFDocument, incoming: IncomingAnnotation[], warnings: string[]): { created: string[]; updated: string[]; entries?: AnnotationEntry[] | undefined } {
  const pages = pageObjects(doc);
  const pageCount = pages.length;
  const before = annotationEntries(doc);
  const existing = new Map(before.map((e) => [e.name, e]));
  const listing = new ImportListing(before);
  const taken = new Set(existing.keys());
  const objects = new Map<string, mupdf.PDFObject>(); // name -> indirect object, for linking
  for (const [n, e] of existing) objects.set(n, entryObject(doc, e));
  const created: string[] = [];
  const updated: string[] = [];
  const touched: Touched[] = [];
  const written: { item: IncomingAnnotation; obj: mupdf.PDFObject; name: string; popup?: { name: string; dict: PdfDict } | undefined }[] = [];

  // Names and dictionaries first, so that MuPDF parses every dictionary in one pass (PreparedDicts).
  const planned: { item: IncomingAnnotation; name: string; dict: PdfDict; popup?: { name: string; dict: PdfDict } }[] = [];
  for (const item of incoming) {
    if (item.pageIndex >= pageCount) {
      warnings.push(`${item.subtype} ${item.name ?? ''} is on page ${item.pageIndex}, which the document does not have: not imported`.replace('  ', ' '));
      continue;
    }
    const annotationName = nameFor(item, taken);
    taken.add(annotationName);
    const dict = new Map(item.dict);
    if (item.destinationPage !== undefined) {
      const dest = dict.get('Dest');
      if (Array.isArray(dest) && item.destinationPage < pageCount) {
        dict.set('Dest', [new PdfRef(pages[item.destinationPage]!.asIndirect(), 0), ...dest.slice(1)]);
      } else {
        dict.delete('Dest');
        warnings.push(`link ${annotationName} points at page ${item.destinationPage}, which the document does not have: destination dropped`);
      }
    }
    dict.set('NM', str(annotationName));
    let popup: { name: string; dict: PdfDict } | undefined;
    if (item.popup && item.popup.pageIndex < pageCount) {
      const popupName = item.popup.name ?? `${annotationName}-popup`;
      popup = { name: popupName, dict: new Map(item.popup.dict).set('NM', str(popupName)) };
    }
    planned.push({ item, name: annotationName, dict, ...(popup ? { popup } : {}) });
  }
  // MuPDF draws what comes without an appearance, but Popups and Links (it draws neither).
  const drawn = new Set(planned.filter((p) => !p.item.appearance && p.item.subtype !== 'Popup' && p.item.subtype !== 'Link').map((p) => p.dict));
  // What write() makes a new object: a name the document has not as an object of its own.
  const isNew = (annotationName: string) => existing.get(annotationName)?.objectNumber === undefined;
  const fresh = new Set(planned.flatMap((p) => [...(isNew(p.name) ? [p.dict] : []), ...(p.popup && isNew(p.popup.name) ? [p.popup.dict] : [])]));
  const prepared = new PreparedDicts(planned.flatMap((p) => (p.popup ? [p.dict, p.popup.dict] : [p.dict])), drawn, fresh);
  let made: Map<PdfDict, mupdf.PDFObject> | undefined;

  // Objects to append to each page's /Annots, appended once the writing is done: one lookup of the array per page.
  const appended = new Map<number, mupdf.PDFObject[]>();
  const append = (pageIndex: number, obj: mupdf.PDFObject) => {
    const list = appended.get(pageIndex);
    if (list) list.push(obj);
    else appended.set(pageIndex, [obj]);
  };

  /** Writes a planned dictionary (with its /NM) as the annotation of that name: a new object, or the existing one updated. */
  const write = (pageIndex: number, dict: PdfDict, annotationName: string): mupdf.PDFObject => {
    const page = pages[pageIndex]!;
    const old = existing.get(annotationName);
    let obj: mupdf.PDFObject;
    if (old && old.objectNumber !== undefined) {
      obj = doc.newIndirect(old.objectNumber);
      for (const key of old.dict.keys()) if (key !== 'P' && key !== 'Popup' && key !== 'Parent' && key !== 'IRT') obj.delete(key);
      prepared.copy(doc, dict).forEach((value, key) => obj.put(key, value));
      updated.push(annotationName);
      listing.changedExisting();
      if (old.pageIndex !== pageIndex) {
        // Moved to another page: out of the old /Annots, into the new one.
        removeFromAnnots(pages[old.pageIndex]!, old.objectNumber);
        append(pageIndex, obj);
      }
    } else {
      made ??= prepared.createAll(doc);
      obj = made.get(dict) ?? doc.addObject(prepared.copy(doc, dict));
      listing.created(obj, dict, page);
      append(pageIndex, obj);
      created.push(annotationName);
    }
    for (const [k, v] of prepared.leftOut(dict)) obj.put(k, toMupdf(doc, v));
    obj.put('P', page);
    objects.set(annotationName, obj);
    if (drawn.has(dict)) touched.push({ obj, pageIndex, dict });
    return obj;
  };

  try {
    for (const { item, name: annotationName, dict, popup } of planned) {
      const obj = write(item.pageIndex, dict, annotationName);
      if (item.appearance) setAppearance(doc, obj, item.appearance);
      if (item.file?.bytes) {
        const now = new Date();
        const fs = doc.addEmbeddedFile(item.file.name, item.file.mimeType, item.file.bytes, now, now, true);
        obj.put('FS', fs);
        listing.linked(obj, 'FS', fs);
      } else if (item.file) {
        // Named but not carried: a reference to the file, as the XFDF gave it.
        const fs = doc.newDictionary();
        fs.put('Type', doc.newName('Filespec'));
        fs.put('F', toMupdf(doc, str(item.file.name)));
        fs.put('UF', toMupdf(doc, str(item.file.name)));
        const fsObj = doc.addObject(fs);
        obj.put('FS', fsObj);
        listing.linked(obj, 'FS', fsObj);
      }
      written.push({ item, obj, name: annotationName, popup });
    }
    // Links by name, now that every annotation exists.
    for (const { item, obj, name: annotationName, popup } of written) {
      if (item.inReplyTo !== undefined) {
        const target = objects.get(item.inReplyTo);
        if (target) {
          obj.put('IRT', target);
          listing.linked(obj, 'IRT', target);
        } else warnings.push(`${annotationName} replies to ${item.inReplyTo}, which is neither in the document nor in the import: kept without the link`);
      }
      if (popup) {
        const popupObj = write(item.popup!.pageIndex, popup.dict, popup.name);
        popupObj.put('Parent', obj);
        obj.put('Popup', popupObj);
        listing.linked(popupObj, 'Parent', obj);
        listing.linked(obj, 'Popup', popupObj);
      }
    }
  } finally {
    prepared.destroy();
  }
  for (const [pageIndex, list] of appended) listing.appended(pageIndex, appendAnnots(doc, pages[pageIndex]!, list), list);
  generateAppearances(doc, touched);
  return { created, updated, entries: listing.entries() };
}

/**
 * Takes the references to object `objectNumber` out of a page's /Annots. Found
 * by identity, not by the index listed before the import: each annotation
 * moved off the page shifts the indexes of those after it.
 */
function removeFromAnnots(page: mupdf.PDFObject, objectNumber: number): void {
  const annots = deref(page.get('Annots'));
  if (!annots.isArray()) return;
  for (let i = annots.length - 1; i >= 0; i--) {
    const item = annots.get(i);
    if (item.isIndirect() && item.asIndirect() === objectNumber) annots.delete(i);
  }
}

/** Appends objects to a page's /Annots, made when it has none; answers the index of the first. */
function appendAnnots(doc: mupdf.PDFDocument, page: mupdf.PDFObject, objs: mupdf.PDFObject[]): number {
  let annots = deref(page.get('Annots'));
  if (!annots.isArray()) {
    annots = doc.newArray();
    page.put('Annots', annots);
  }
  const start = annots.length;
  for (const obj of objs) annots.push(obj);
  return start;
}

/** An annotation written by the import for MuPDF to draw, with the entries it was written with. */
interface Touched {
  obj: mupdf.PDFObject;
  pageIndex: number;
  dict: PdfDict;
}

/** The entries MuPDF's drawing adjusts, put back after it (generateAppearances). */
const KEPT_ENTRIES = ['Rect', 'RD', 'F'] as const;

/**
 * The normal appearance an annotation is written with for MuPDF to draw into (PreparedDicts): an empty form XObject.
 * MuPDF's drawing sets its /BBox, /Matrix, /Resources and content, and keeps its /Type and /Subtype.
 */
const PLACEHOLDER_STREAM = '<< /Type /XObject /Subtype /Form /Length 0 >>\nstream\n\nendstream';

/**
 * MuPDF draws the appearances of the annotations written with a placeholder (PreparedDicts), a page at a time.
 * Loading a page draws every annotation of it that has no appearance, but into a scratch area it throws away (its
 * "local synthesis", for display only), so an annotation written without one was drawn twice: at the load and again
 * when marked as changed (redraw). With the placeholder nothing is drawn at the load, and MuPDF draws each annotation
 * once, into the placeholder's stream. What MuPDF leaves undrawn over a placeholder (it keeps the appearance of a
 * Stamp without /Name, say) is drawn again the first way, without one: what MuPDF draws for an annotation without
 * an appearance is what it gets, as before; what it cannot draw keeps none, and viewers draw their own.
 *
 * Drawing also adjusts /Rect, /RD and /F to MuPDF's taste; the imported values are put back afterwards (viewers fit
 * the appearance into /Rect), so that what was imported is what is exported. They are the value objects the entries
 * held before drawing, kept and put back as they are: neither printed nor made again value by value.
 */
function generateAppearances(doc: mupdf.PDFDocument, touched: Touched[]): void {
  // The values written, held before drawing: MuPDF's drawing puts new values in, leaving these as they are. One
  // wrapper for each entry the import wrote (an entry it did not write is absent: none to hold, it is deleted after),
  // where making them anew from `dict` took one for each number of a /Rect too.
  const kept = touched.map(({ obj, dict }) => KEPT_ENTRIES.map((key) => (dict.has(key) ? obj.get(key) : undefined)));
  drawByPage(doc, touched);
  // Undrawn: the normal appearance is still the placeholder, a stream without /BBox. One lookup down the path (one
  // wrapper) answers null for nearly all, drawn or not a stream; only those are asked whether /N is a stream.
  const undrawn = touched.filter(({ obj }) => obj.get('AP', 'N', 'BBox').isNull() && obj.get('AP', 'N').isStream());
  for (const { obj } of undrawn) obj.delete('AP');
  drawByPage(doc, undrawn);
  touched.forEach(({ obj }, i) => {
    KEPT_ENTRIES.forEach((key, k) => {
      const value = kept[i]![k];
      if (value === undefined || value.isNull()) obj.delete(key);
      else obj.put(key, value);
    });
  });
}

/**
 * Has MuPDF draw the annotations, one page loaded at a time: loading a page also walks every annotation of every
 * page still loaded, so keeping them all loaded made the pass quadratic (20,000 annotations on 1,000 pages: over a
 * minute); loading 16 pages at a time cost more than one. MuPDF's page-tree cache is off meanwhile
 * (withoutPageTreeCache says why).
 */
function drawByPage(doc: mupdf.PDFDocument, list: Touched[]): void {
  withoutPageTreeCache(doc, () => drawPages(doc, list));
}

function drawPages(doc: mupdf.PDFDocument, list: Touched[]): void {
  // Page -> object number -> subtype written.
  const byPage = new Map<number, Map<number, string | undefined>>();
  for (const t of list) {
    if (!byPage.has(t.pageIndex)) byPage.set(t.pageIndex, new Map());
    const subtype = t.dict.get('Subtype');
    byPage.get(t.pageIndex)!.set(t.obj.asIndirect(), subtype instanceof PdfName ? subtype.name : undefined);
  }
  for (const [pageIndex, wanted] of byPage) {
    const page = doc.loadPage(pageIndex);
    try {
      const drawn: mupdf.PDFAnnotation[] = [];
      const subtypes: (string | undefined)[] = [];
      for (const annot of page.getAnnotations()) {
        const obj = annot.getObject();
        if (obj.isIndirect() && wanted.has(obj.asIndirect())) {
          drawn.push(annot);
          subtypes.push(wanted.get(obj.asIndirect()));
        }
      }
      redrawAll(drawn, subtypes);
    } finally {
      page.destroy();
    }
  }
}

/** The `importAnnotationsXfdf` task (A5, A3). */
export function importAnnotationsXfdf(input: { pdf: PdfSource; password?: string | undefined; xfdf: PdfSource }): ImportResult {
  const warnings: string[] = [];
  // The body is read here, from the staged file when it is large: the main thread never holds it.
  const incoming = incomingOf(readAll(input.xfdf), warnings);
  return applyImport(input, incoming, warnings);
}

/**
 * The annotations of an XFDF body. The body's text and element tree are garbage once this returns: held until the
 * import's end (MuPDF's work and the save), they were marked by every collection of the old generation meanwhile.
 */
function incomingOf(body: Uint8Array, warnings: string[]): IncomingAnnotation[] {
  const root = parseXfdf(body);
  const incoming: IncomingAnnotation[] = [];
  const annots = root.children.filter((c) => c.tag.toLowerCase() === 'annots').flatMap((c) => c.children);
  for (const element of annots) {
    try {
      incoming.push(fromXfdfElement(element, warnings));
    } catch (err) {
      if (err instanceof EngineError) throw err; // an <appearance> that cannot be decoded: 400, nothing imported
      warnings.push(`${(err as Error).message}: not imported`);
    }
  }
  for (const other of root.children) {
    if (!['annots', 'f', 'ids', 'fields'].includes(other.tag.toLowerCase())) warnings.push(`<${other.tag}> is not part of annotation data: ignored`);
  }
  return incoming;
}

export function applyImport(input: { pdf: PdfSource; password?: string | undefined }, incoming: IncomingAnnotation[], warnings: string[]): ImportResult {
  return editPdf(input, 'annotate', (doc, { save }) => {
    const { created, updated, entries } = importAnnotations(doc, incoming, warnings);
    const bytes = save({ appendable: true });
    return { bytes, created, updated, warnings, annotations: readAnnotations(doc, entries ?? annotationEntries(doc)), pageCount: doc.countPages() };
  });
}

