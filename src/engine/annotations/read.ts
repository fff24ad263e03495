import type * as mupdf from 'mupdf';
import { ANNOTATION_FLAGS, type AnnotationFlag, type AnnotationModel } from './model.js';
import { bool, color, date, isDict, name, number, numbers, point, rectangle, ref, text } from '../syntax/readers.js';
import { parsePdfObject, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { deref } from '../core/mupdf-objects.js';

/**
 * Reading annotations from the page dictionaries themselves. MuPDF's
 * getAnnotations() leaves out Popup, Link and Widget and its getters throw for
 * some subtypes, so every page's /Annots array is walked and each dictionary
 * read directly; its /Rect and /QuadPoints are PDF user space already. Each
 * dictionary is printed once by MuPDF and parsed in JS (syntax/parser.ts), which
 * is several times faster than reading it value by value through the API.
 */

/** One entry of a page's /Annots, with what identifies it. */
export interface AnnotationEntry {
  pageIndex: number;
  /** Position in the page's /Annots array. */
  index: number;
  /** Object number; undefined for a dictionary written directly into /Annots. */
  objectNumber: number | undefined;
  dict: PdfDict;
  /** The name the service uses (docs/annotations.md). */
  name: string;
  /** Whether `name` is the /NM entry (false: generated). */
  hasOwnName: boolean;
}

const MAX_ANNOTATIONS_PER_PAGE = 100_000;

/** Resolves object numbers to parsed values, each object at most once. */
export class ObjectReader {
  private readonly cache = new Map<number, PdfValue>();
  constructor(private readonly doc: mupdf.PDFDocument) {}

  parse(obj: mupdf.PDFObject): PdfValue {
    try {
      return parsePdfObject(deref(obj).toString(true, true));
    } catch {
      return null; // an object MuPDF prints in a way we cannot read is treated as absent
    }
  }

  resolve(value: PdfValue | undefined): PdfValue | undefined {
    const num = ref(value);
    if (num === undefined) return value;
    let cached = this.cache.get(num);
    if (cached === undefined) {
      cached = this.parse(this.doc.newIndirect(num));
      this.cache.set(num, cached);
    }
    return cached;
  }
}

/**
 * The entries of every page's /Annots in page order, each object once: the
 * same annotation listed twice (on one page or two) is one annotation. An
 * entry is an annotation when it is a dictionary with a /Subtype
 * (isAnnotation); callers check that in their own representation.
 */
export function* annotsItems(doc: mupdf.PDFDocument): Generator<{ pageIndex: number; index: number; item: mupdf.PDFObject; objectNumber: number | undefined }> {
  const pageCount = doc.countPages();
  const seenObjects = new Set<number>();
  for (let pageIndex = 0; pageIndex < pageCount; pageIndex++) {
    const annots = deref(doc.findPage(pageIndex).get('Annots'));
    if (!annots.isArray()) continue;
    const count = Math.min(annots.length, MAX_ANNOTATIONS_PER_PAGE);
    for (let index = 0; index < count; index++) {
      const item = annots.get(index);
      const objectNumber = item.isIndirect() ? item.asIndirect() : undefined;
      if (objectNumber !== undefined) {
        if (seenObjects.has(objectNumber)) continue;
        seenObjects.add(objectNumber);
      }
      yield { pageIndex, index, item, objectNumber };
    }
  }
}

/** Whether an /Annots entry is an annotation (a dictionary with a /Subtype name), read through MuPDF's API. */
export function isAnnotation(item: mupdf.PDFObject): boolean {
  const dict = deref(item);
  // A missing key answers a shared Null whose get() throws: ask isDictionary() first.
  return dict.isDictionary() && dict.get('Subtype').isName();
}

/**
 * Every annotation of the document in page order, then /Annots order, named.
 * Names: the /NM entry when it is non-empty and not used by an earlier
 * annotation; otherwise a generated "~<object number>" ("~p<page>-<index>" for
 * a direct dictionary), unique in the document. The service writes generated
 * names into /NM whenever it saves a document, so they stay stable.
 */
export function annotationEntries(doc: mupdf.PDFDocument): AnnotationEntry[] {
  const found: FoundEntry[] = [];
  const reader = new ObjectReader(doc);
  for (const { pageIndex, index, item, objectNumber } of annotsItems(doc)) {
    const dict = reader.parse(item);
    if (!isDict(dict) || name(dict.get('Subtype')) === undefined) continue;
    found.push({ pageIndex, index, objectNumber, dict });
  }
  return nameEntries(found);
}

/** An annotation found in a page's /Annots, before it is named. */
export type FoundEntry = Omit<AnnotationEntry, 'name' | 'hasOwnName'>;

/** Whether a page's /Annots holds more entries than are read (annotsItems). */
export function pastAnnotsLimit(count: number): boolean {
  return count > MAX_ANNOTATIONS_PER_PAGE;
}

/**
 * The annotations found, in page and /Annots order, named as annotationEntries names them: for a caller that knows
 * the dictionaries of a document without reading them again (an import answers what it wrote).
 */
export function nameEntries(found: FoundEntry[]): AnnotationEntry[] {
  const own = found.map((e) => text(e.dict.get('NM')));
  const taken = new Set<string>();
  const named: AnnotationEntry[] = found.map((e, i) => {
    const nm = own[i];
    if (nm && !taken.has(nm)) {
      taken.add(nm);
      return { ...e, name: nm, hasOwnName: true };
    }
    return { ...e, name: '', hasOwnName: false };
  });
  // Generated names come second, so they can avoid every /NM in the document.
  const allOwn = new Set(own.filter((n): n is string => !!n));
  for (const e of named) {
    if (e.hasOwnName) continue;
    let candidate = e.objectNumber !== undefined ? `~${e.objectNumber}` : `~p${e.pageIndex}-${e.index}`;
    while (allOwn.has(candidate) || taken.has(candidate)) candidate += '~';
    taken.add(candidate);
    e.name = candidate;
  }
  return named;
}

/** The MuPDF object of an entry, for changing it. */
export function entryObject(doc: mupdf.PDFDocument, e: AnnotationEntry): mupdf.PDFObject {
  return e.objectNumber !== undefined ? doc.newIndirect(e.objectNumber) : deref(doc.findPage(e.pageIndex).get('Annots')).get(e.index);
}

function flagNames(bits: number | undefined): AnnotationFlag[] | undefined {
  if (!bits) return undefined;
  const names = ANNOTATION_FLAGS.filter((_, i) => bits & (1 << i));
  return names.length ? names : undefined;
}

const BORDER_STYLES: Record<string, 'solid' | 'dashed' | 'beveled' | 'inset' | 'underline'> = { S: 'solid', D: 'dashed', B: 'beveled', I: 'inset', U: 'underline' };

function border(d: PdfDict, reader: ObjectReader): AnnotationModel['border'] {
  const bs = reader.resolve(d.get('BS'));
  const be = reader.resolve(d.get('BE'));
  const out: NonNullable<AnnotationModel['border']> = {};
  if (isDict(bs)) {
    const w = number(bs.get('W'));
    const s = name(bs.get('S'));
    const dashes = numbers(bs.get('D'));
    if (w !== undefined) out.width = w;
    if (s && BORDER_STYLES[s]) out.style = BORDER_STYLES[s];
    if (dashes && dashes.length) out.dashes = dashes;
  } else {
    const legacy = reader.resolve(d.get('Border')); // [h v width [dash]]
    if (Array.isArray(legacy) && legacy.length >= 3) {
      const w = number(legacy[2]);
      if (w !== undefined) out.width = w;
      const dashes = numbers(legacy[3]);
      if (dashes && dashes.length) {
        out.dashes = dashes;
        out.style = 'dashed';
      }
    }
  }
  if (isDict(be) && name(be.get('S')) === 'C') {
    out.effect = 'cloudy';
    const i = number(be.get('I'));
    if (i !== undefined) out.intensity = i;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A widget's fully qualified field name (its /T and its parents', joined by dots) and its inherited /FT. */
function field(d: PdfDict, reader: ObjectReader): { fieldName?: string; fieldType?: string } {
  const parts: string[] = [];
  let fieldType: string | undefined;
  let node: PdfValue | undefined = d;
  for (let depth = 0; depth < 64 && isDict(node); depth++) {
    const t = text(node.get('T'));
    if (t !== undefined) parts.unshift(t);
    fieldType ??= name(node.get('FT'));
    node = reader.resolve(node.get('Parent'));
  }
  return { ...(parts.length ? { fieldName: parts.join('.') } : {}), ...(fieldType ? { fieldType } : {}) };
}

function inkList(v: PdfValue | undefined): number[][] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((stroke) => numbers(stroke) ?? []);
}

function destination(dest: PdfValue | undefined, reader: ObjectReader, pages: Map<number, number>): AnnotationModel['destination'] {
  const d = reader.resolve(dest);
  const asText = text(d) ?? name(d);
  if (asText !== undefined) return { name: asText };
  if (Array.isArray(d) && d.length > 0) {
    const pageRef = ref(d[0]);
    const pageIndex = pageRef !== undefined ? pages.get(pageRef) : number(d[0]);
    const type = name(d[1]);
    return { ...(pageIndex !== undefined ? { pageIndex } : {}), ...(type ? { type } : {}) };
  }
  if (isDict(d)) return destination(d.get('D'), reader, pages);
  return undefined;
}

/**
 * Every page dictionary, by page index, looked up in one pass. Take them before changing the document: MuPDF drops
 * its page-tree map at each change and walks the whole tree again at the next findPage, so one lookup per annotation
 * written made an import of 20,000 annotations on 1,000 pages spend 10 s there.
 */
export function pageObjects(doc: mupdf.PDFDocument): mupdf.PDFObject[] {
  const count = doc.countPages();
  const pages: mupdf.PDFObject[] = [];
  for (let i = 0; i < count; i++) pages.push(doc.findPage(i));
  return pages;
}

/** Object number -> page index, for destinations that point at page objects. */
export function pageObjectNumbers(doc: mupdf.PDFDocument): Map<number, number> {
  const map = new Map<number, number>();
  pageObjects(doc).forEach((page, i) => {
    if (page.isIndirect()) map.set(page.asIndirect(), i);
  });
  return map;
}

/** The AnnotationModel of every annotation, references (/IRT, /Popup, /Parent) given as names. */
export function readAnnotations(doc: mupdf.PDFDocument, entries = annotationEntries(doc)): AnnotationModel[] {
  const reader = new ObjectReader(doc);
  const byObject = new Map<number, AnnotationEntry>();
  for (const e of entries) if (e.objectNumber !== undefined) byObject.set(e.objectNumber, e);
  const refName = (v: PdfValue | undefined) => {
    const num = ref(v);
    return num !== undefined ? byObject.get(num)?.name : undefined;
  };
  let pages: Map<number, number> | undefined;

  return entries.map((e) => {
    const d = e.dict;
    const subtype = name(d.get('Subtype'))!;
    const m: AnnotationModel = { name: e.name, subtype, pageIndex: e.pageIndex };
    const set = <K extends keyof AnnotationModel>(key: K, value: AnnotationModel[K] | undefined) => {
      if (value !== undefined) m[key] = value;
    };
    set('rectangle', rectangle(reader.resolve(d.get('Rect'))));
    set('contents', text(reader.resolve(d.get('Contents'))));
    set('contentsRichText', text(reader.resolve(d.get('RC'))));
    // A widget's /T is its field's name, not an author.
    if (subtype !== 'Widget') set('author', text(reader.resolve(d.get('T'))));
    set('subject', text(reader.resolve(d.get('Subj'))));
    set('creationDate', date(d.get('CreationDate')));
    set('modifiedDate', date(d.get('M')));
    set('color', color(reader.resolve(d.get('C'))));
    set('interiorColor', color(reader.resolve(d.get('IC'))));
    set('opacity', number(d.get('CA')));
    set('flags', flagNames(number(d.get('F'))));
    set('rotation', number(d.get('Rotate')));
    set('intent', name(d.get('IT')));
    set('border', border(d, reader));
    set('quadPoints', numbers(reader.resolve(d.get('QuadPoints'))));
    set('inkList', inkList(reader.resolve(d.get('InkList'))));
    set('vertices', numbers(reader.resolve(d.get('Vertices'))));
    const line = numbers(d.get('L'));
    if (line?.length === 4) {
      set('start', point(line, 0));
      set('end', point(line, 2));
    }
    const le = d.get('LE');
    if (Array.isArray(le) && le.length === 2) set('lineEndings', [name(le[0]) ?? 'None', name(le[1]) ?? 'None']);
    set('leaderLength', number(d.get('LL')));
    set('leaderExtension', number(d.get('LLE')));
    set('leaderOffset', number(d.get('LLO')));
    set('caption', bool(d.get('Cap')));
    set('icon', name(d.get('Name')));
    set('open', bool(d.get('Open')));
    set('state', text(d.get('State')));
    set('stateModel', text(d.get('StateModel')));
    if (ref(d.get('IRT')) !== undefined) {
      set('inReplyTo', refName(d.get('IRT')));
      set('replyType', name(d.get('RT')) === 'Group' ? 'group' : 'reply');
    }
    const popupName = refName(d.get('Popup'));
    if (popupName) {
      const popup = byObject.get(ref(d.get('Popup'))!)!.dict;
      const popupRect = rectangle(popup.get('Rect'));
      set('popup', { name: popupName, ...(popupRect ? { rectangle: popupRect } : {}), open: bool(popup.get('Open')) ?? false });
    }
    if (subtype === 'Popup') set('parent', refName(d.get('Parent')));
    set('defaultAppearance', text(d.get('DA')));
    set('defaultStyle', text(d.get('DS')));
    set('callout', numbers(d.get('CL')));
    set('overlayText', text(reader.resolve(d.get('OverlayText'))));
    if (subtype === 'FileAttachment') {
      const fs = reader.resolve(d.get('FS'));
      if (isDict(fs)) {
        set('fileName', text(fs.get('UF')) ?? text(fs.get('F')));
        set('fileDescription', text(fs.get('Desc')));
      } else {
        set('fileName', text(fs));
      }
    }
    if (subtype === 'Widget') {
      const f = field(d, reader);
      set('fieldName', f.fieldName);
      set('fieldType', f.fieldType);
    }
    if (subtype === 'Link') {
      const action = reader.resolve(d.get('A'));
      const actionType = isDict(action) ? name(action.get('S')) : undefined;
      if (isDict(action) && actionType === 'URI') set('uri', text(reader.resolve(action.get('URI'))));
      const target = d.get('Dest') ?? (isDict(action) && actionType === 'GoTo' ? action.get('D') : undefined);
      if (target !== undefined) {
        pages ??= pageObjectNumbers(doc);
        set('destination', destination(target, reader, pages));
      }
    }
    return m;
  });
}
