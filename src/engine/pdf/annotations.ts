import type * as mupdf from 'mupdf';
import { ANNOTATION_FLAGS, type AnnotationFlag, type AnnotationModel } from '../annotation-model.js';
import { bool, color, date, deref, name, number, numbers, point, rectangle, text } from './pdf-values.js';

/**
 * Reading annotations from the page dictionaries themselves. MuPDF's
 * getAnnotations() leaves out Popup, Link and Widget and its getters throw for
 * some subtypes, so every page's /Annots array is walked and each dictionary
 * read directly; its /Rect and /QuadPoints are PDF user space already.
 */

/** One entry of a page's /Annots, with what identifies it. */
export interface AnnotationEntry {
  pageIndex: number;
  /** Position in the page's /Annots array. */
  index: number;
  /** Object number; undefined for a dictionary written directly into /Annots. */
  objectNumber: number | undefined;
  dict: mupdf.PDFObject;
  /** The name the service uses (docs/annotations.md). */
  name: string;
  /** Whether `name` is the /NM entry (false: generated). */
  hasOwnName: boolean;
}

const MAX_ANNOTATIONS_PER_PAGE = 100_000;

/**
 * Every annotation of the document in page order, then /Annots order, named.
 * Names: the /NM entry when it is non-empty and not used by an earlier
 * annotation; otherwise a generated "~<object number>" ("~p<page>-<index>" for
 * a direct dictionary), unique in the document. The service writes generated
 * names into /NM whenever it saves a document, so they stay stable.
 */
export function annotationEntries(doc: mupdf.PDFDocument): AnnotationEntry[] {
  const entries: Omit<AnnotationEntry, 'name' | 'hasOwnName'>[] = [];
  const pageCount = doc.countPages();
  const seenObjects = new Set<number>();
  for (let pageIndex = 0; pageIndex < pageCount; pageIndex++) {
    const annots = deref(doc.findPage(pageIndex).get('Annots'));
    if (!annots.isArray()) continue;
    for (let index = 0; index < Math.min(annots.length, MAX_ANNOTATIONS_PER_PAGE); index++) {
      const ref = annots.get(index);
      const objectNumber = ref.isIndirect() ? ref.asIndirect() : undefined;
      // The same annotation listed twice (on one page or two) is one annotation: list it once.
      if (objectNumber !== undefined) {
        if (seenObjects.has(objectNumber)) continue;
        seenObjects.add(objectNumber);
      }
      const dict = deref(ref);
      if (!dict.isDictionary() || name(dict.get('Subtype')) === undefined) continue;
      entries.push({ pageIndex, index, objectNumber, dict });
    }
  }
  const own = entries.map((e) => text(e.dict.get('NM')));
  const taken = new Set<string>();
  const named: AnnotationEntry[] = entries.map((e, i) => {
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

function flagNames(bits: number | undefined): AnnotationFlag[] | undefined {
  if (!bits) return undefined;
  const names = ANNOTATION_FLAGS.filter((_, i) => bits & (1 << i));
  return names.length ? names : undefined;
}

const BORDER_STYLES: Record<string, 'solid' | 'dashed' | 'beveled' | 'inset' | 'underline'> = { S: 'solid', D: 'dashed', B: 'beveled', I: 'inset', U: 'underline' };

function border(dict: mupdf.PDFObject): AnnotationModel['border'] {
  const bs = deref(dict.get('BS'));
  const be = deref(dict.get('BE'));
  const out: NonNullable<AnnotationModel['border']> = {};
  if (bs.isDictionary()) {
    const w = number(bs.get('W'));
    const s = name(bs.get('S'));
    const d = numbers(bs.get('D'), 64);
    if (w !== undefined) out.width = w;
    if (s && BORDER_STYLES[s]) out.style = BORDER_STYLES[s];
    if (d && d.length) out.dashes = d;
  } else {
    const legacy = deref(dict.get('Border')); // [h v width [dash]]
    if (legacy.isArray() && legacy.length >= 3) {
      const w = number(legacy.get(2));
      if (w !== undefined) out.width = w;
      const d = numbers(legacy.get(3), 64);
      if (d && d.length) {
        out.dashes = d;
        out.style = 'dashed';
      }
    }
  }
  if (be.isDictionary() && name(be.get('S')) === 'C') {
    out.effect = 'cloudy';
    const i = number(be.get('I'));
    if (i !== undefined) out.intensity = i;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The fully qualified field name of a widget: its /T and its parents', joined by dots. */
function fieldName(dict: mupdf.PDFObject): string | undefined {
  const parts: string[] = [];
  let node = dict;
  for (let depth = 0; depth < 64 && node.isDictionary(); depth++) {
    const t = text(node.get('T'));
    if (t !== undefined) parts.unshift(t);
    node = deref(node.get('Parent'));
  }
  return parts.length ? parts.join('.') : undefined;
}

function inkList(dict: mupdf.PDFObject): number[][] | undefined {
  const list = deref(dict.get('InkList'));
  if (!list.isArray()) return undefined;
  const strokes: number[][] = [];
  for (let i = 0; i < Math.min(list.length, 10_000); i++) strokes.push(numbers(list.get(i)) ?? []);
  return strokes;
}

function destination(doc: mupdf.PDFDocument, dest: mupdf.PDFObject, pageNumbers: Map<number, number>): AnnotationModel['destination'] {
  const d = deref(dest);
  if (d.isString() || d.isName()) return { name: d.isString() ? d.asString() : d.asName() };
  if (d.isArray() && d.length > 0) {
    const page = d.get(0);
    const pageIndex = page.isIndirect() ? pageNumbers.get(page.asIndirect()) : number(page);
    const type = name(d.get(1));
    return { ...(pageIndex !== undefined ? { pageIndex } : {}), ...(type ? { type } : {}) };
  }
  if (d.isDictionary()) return destination(doc, d.get('D'), pageNumbers);
  return undefined;
}

/** Object number -> page index, for destinations that point at page objects. */
export function pageObjectNumbers(doc: mupdf.PDFDocument): Map<number, number> {
  const map = new Map<number, number>();
  const count = doc.countPages();
  for (let i = 0; i < count; i++) {
    const page = doc.findPage(i);
    if (page.isIndirect()) map.set(page.asIndirect(), i);
  }
  return map;
}

/** The AnnotationModel of every annotation, references (/IRT, /Popup, /Parent) given as names. */
export function readAnnotations(doc: mupdf.PDFDocument, entries = annotationEntries(doc)): AnnotationModel[] {
  const nameByObject = new Map<number, string>();
  for (const e of entries) if (e.objectNumber !== undefined) nameByObject.set(e.objectNumber, e.name);
  const refName = (obj: mupdf.PDFObject) => (obj.isIndirect() ? nameByObject.get(obj.asIndirect()) : undefined);
  let pageNumbers: Map<number, number> | undefined;

  return entries.map((e) => {
    const d = e.dict;
    const subtype = name(d.get('Subtype'))!;
    const m: AnnotationModel = { name: e.name, subtype, pageIndex: e.pageIndex };
    const set = <K extends keyof AnnotationModel>(key: K, value: AnnotationModel[K] | undefined) => {
      if (value !== undefined) m[key] = value;
    };
    set('rectangle', rectangle(d.get('Rect')));
    set('contents', text(d.get('Contents')));
    set('contentsRichText', text(d.get('RC')));
    // A widget's /T is its field's name, not an author.
    if (subtype !== 'Widget') set('author', text(d.get('T')));
    set('subject', text(d.get('Subj')));
    set('creationDate', date(d.get('CreationDate')));
    set('modifiedDate', date(d.get('M')));
    set('color', color(d.get('C')));
    set('interiorColor', color(d.get('IC')));
    set('opacity', number(d.get('CA')));
    set('flags', flagNames(number(d.get('F'))));
    set('rotation', number(d.get('Rotate')));
    set('intent', name(d.get('IT')));
    set('border', border(d));
    set('quadPoints', numbers(d.get('QuadPoints')));
    set('inkList', inkList(d));
    set('vertices', numbers(d.get('Vertices')));
    const line = numbers(d.get('L'), 4);
    set('start', point(line, 0));
    set('end', point(line, 2));
    const le = deref(d.get('LE'));
    if (le.isArray() && le.length === 2) set('lineEndings', [name(le.get(0)) ?? 'None', name(le.get(1)) ?? 'None']);
    set('leaderLength', number(d.get('LL')));
    set('leaderExtension', number(d.get('LLE')));
    set('leaderOffset', number(d.get('LLO')));
    set('caption', bool(d.get('Cap')));
    set('icon', name(d.get('Name')));
    set('open', bool(d.get('Open')));
    set('state', text(d.get('State')));
    set('stateModel', text(d.get('StateModel')));
    set('inReplyTo', refName(d.get('IRT')));
    const rt = name(d.get('RT'));
    if (d.get('IRT').isIndirect()) set('replyType', rt === 'Group' ? 'group' : 'reply');
    const popupRef = d.get('Popup');
    const popupName = refName(popupRef);
    if (popupName) {
      const popup = deref(popupRef);
      const popupRect = rectangle(popup.get('Rect'));
      set('popup', { name: popupName, ...(popupRect ? { rectangle: popupRect } : {}), open: bool(popup.get('Open')) ?? false });
    }
    if (subtype === 'Popup') set('parent', refName(d.get('Parent')));
    set('defaultAppearance', text(d.get('DA')));
    set('defaultStyle', text(d.get('DS')));
    set('callout', numbers(d.get('CL'), 6));
    set('overlayText', text(d.get('OverlayText')));
    if (subtype === 'FileAttachment') {
      const fs = deref(d.get('FS'));
      if (fs.isDictionary()) {
        set('fileName', text(fs.get('UF')) ?? text(fs.get('F')));
        set('fileDescription', text(fs.get('Desc')));
      } else {
        set('fileName', text(fs));
      }
    }
    if (subtype === 'Widget') {
      set('fieldName', fieldName(d));
      set('fieldType', name(d.getInheritable('FT')));
    }
    if (subtype === 'Link') {
      const action = deref(d.get('A'));
      if (action.isDictionary() && name(action.get('S')) === 'URI') set('uri', text(action.get('URI')));
      const dest = d.get('Dest');
      const target = !dest.isNull() ? dest : action.isDictionary() && name(action.get('S')) === 'GoTo' ? action.get('D') : undefined;
      if (target) {
        pageNumbers ??= pageObjectNumbers(doc);
        set('destination', destination(doc, target, pageNumbers));
      }
    }
    return m;
  });
}

