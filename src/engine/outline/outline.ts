import type * as mupdf from 'mupdf';
import { pageOutOfRangeDetail } from '../../errors.js';
import { pageObjectNumbers } from '../annotations/read.js';
import { editPdf, withPdf, type PdfInput } from '../core/document-task.js';
import { deref, name, text } from '../core/mupdf-objects.js';
import { readNameTree } from '../core/name-tree.js';
import { EngineError } from '../errors.js';
import { certifyingSignature } from '../signing/verify.js';
import { FIT_TYPES, MAX_OUTLINE_DEPTH, MAX_OUTLINE_ITEMS, type FitType, type OutlineDestination, type OutlineItem, type OutlineItemInput, type OutlineModel } from './model.js';

/** Warnings kept per answer: a hostile outline could otherwise make one per item. */
const MAX_WARNINGS = 20;

/** The numbers each fit type carries after the page, in order (ISO 32000-1 table 151). */
const FIT_PARAMS: Record<FitType, readonly ('left' | 'top' | 'right' | 'bottom' | 'zoom')[]> = {
  XYZ: ['left', 'top', 'zoom'],
  Fit: [],
  FitH: ['top'],
  FitV: ['left'],
  FitR: ['left', 'bottom', 'right', 'top'],
  FitB: [],
  FitBH: ['top'],
  FitBV: ['left'],
};

const num = (obj: mupdf.PDFObject): number | undefined => {
  const r = deref(obj);
  return r.isNumber() && Number.isFinite(r.asNumber()) ? r.asNumber() : undefined;
};

/**
 * Reads the outline of an open document as a tree, whatever it holds: every item is visited at most once (by object
 * number: a /Next or /First cycle ends there), at most MAX_OUTLINE_ITEMS items and MAX_OUTLINE_DEPTH levels are read,
 * /Count is read for its sign only (the children are counted, never trusted), and a destination that names no page is
 * left out. What was cut is said in `warnings`.
 */
export function outlineOf(doc: mupdf.PDFDocument): OutlineModel {
  const warnings: string[] = [];
  const warn = (message: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
  };
  const root = deref(doc.getTrailer().get('Root'));
  const outlines = root.isDictionary() ? deref(root.get('Outlines')) : undefined;
  if (!outlines?.isDictionary()) return { items: [], itemCount: 0, warnings };
  // Looked up on the first destination: an outline of headings alone needs no walk of the page tree.
  let pages: Map<number, number> | undefined;
  const pageCount = doc.countPages();
  const destinations = new NamedDestinations(doc, warn);
  const seen = new Set<number>();
  let count = 0;
  let truncated = false;

  const destination = (value: mupdf.PDFObject, title: string): { destination?: OutlineDestination; namedDestination?: string } => {
    let dest = deref(value);
    let named: string | undefined;
    if (dest.isName() || dest.isString()) {
      named = dest.isName() ? dest.asName() : dest.asString();
      dest = destinations.lookup(named);
      if (dest.isDictionary()) dest = deref(dest.get('D'));
    }
    const at = named === undefined ? {} : { namedDestination: named };
    if (!dest.isArray() || dest.length === 0) {
      warn(`${JSON.stringify(title)}: ${named === undefined ? 'its destination is not an array' : `the named destination ${JSON.stringify(named)} is not defined`}; left out`);
      return at;
    }
    const page = dest.get(0);
    // A page object, or (in files made for remote destinations, met in local ones too) a page number.
    const pageIndex = page.isIndirect() ? (pages ??= pageObjectNumbers(doc)).get(page.asIndirect()) : page.isInteger() ? page.asNumber() : undefined;
    if (pageIndex === undefined || pageIndex < 0 || pageIndex >= pageCount) {
      warn(`${JSON.stringify(title)}: its destination names no page of the document; left out`);
      return at;
    }
    const out: OutlineDestination = { pageIndex };
    const fit = name(dest.get(1));
    if (fit !== undefined && (FIT_TYPES as readonly string[]).includes(fit)) {
      out.fit = fit as FitType;
      FIT_PARAMS[out.fit].forEach((key, i) => {
        const v = num(dest.get(2 + i));
        if (v !== undefined) out[key] = v;
      });
    }
    return { ...at, destination: out };
  };

  const describe = (dict: mupdf.PDFObject): OutlineItem => {
    const title = text(dict.get('Title')) ?? '';
    const flags = num(dict.get('F')) ?? 0;
    const item: OutlineItem = { title, open: false, bold: (flags & 2) !== 0, italic: (flags & 1) !== 0 };
    const c = deref(dict.get('C'));
    if (c.isArray() && c.length === 3) {
      const rgb = [0, 1, 2].map((i) => num(c.get(i)));
      const [red, green, blue] = rgb.map((v) => Math.min(1, Math.max(0, v ?? 0)));
      if (rgb.every((v) => v !== undefined)) item.color = { red: red!, green: green!, blue: blue! };
    }
    const dest = dict.get('Dest');
    if (!dest.isNull()) return Object.assign(item, destination(dest, title));
    const action = deref(dict.get('A'));
    if (!action.isDictionary()) return item;
    const type = name(action.get('S'));
    if (type === 'GoTo') Object.assign(item, destination(action.get('D'), title));
    else if (type === 'URI') {
      const uri = deref(action.get('URI'));
      if (uri.isString()) item.uri = new TextDecoder('latin1').decode(uri.asByteString());
    } else if (type !== undefined) item.action = type;
    return item;
  };

  const level = (first: mupdf.PDFObject, depth: number): OutlineItem[] => {
    const items: OutlineItem[] = [];
    for (let node = first; !node.isNull(); ) {
      if (node.isIndirect()) {
        if (seen.has(node.asIndirect())) {
          warn(`The outline refers to item object ${node.asIndirect()} twice (a cycle): the walk stopped there`);
          break;
        }
        seen.add(node.asIndirect());
      }
      if (count >= MAX_OUTLINE_ITEMS) {
        truncated = true;
        break;
      }
      const dict = deref(node);
      if (!dict.isDictionary()) {
        warn('An outline item is not a dictionary: the walk of its level stopped there');
        break;
      }
      count++;
      const item = describe(dict);
      const child = dict.get('First');
      if (!child.isNull()) {
        if (depth >= MAX_OUTLINE_DEPTH) warn(`Items nested deeper than ${MAX_OUTLINE_DEPTH} levels were left out`);
        else {
          const children = level(child, depth + 1);
          if (children.length > 0) {
            item.children = children;
            item.open = (num(dict.get('Count')) ?? 0) > 0;
          }
        }
      }
      items.push(item);
      node = dict.get('Next');
    }
    return items;
  };

  const items = level(outlines.get('First'), 1);
  if (truncated) warn(`The outline has more than ${MAX_OUTLINE_ITEMS} items: the rest were left out`);
  return { items, itemCount: count, warnings };
}

/**
 * The document's named destinations (/Dests in the catalog, PDF 1.1, and the /Dests name tree), gathered on the
 * first lookup; the tree read by core/name-tree.ts within its bounds (MuPDF.js's loadNameTree recurses without any),
 * its warnings passed on.
 */
export class NamedDestinations {
  private map: Map<string, mupdf.PDFObject> | undefined;

  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly warn: (message: string) => void,
  ) {}

  lookup(key: string): mupdf.PDFObject {
    this.map ??= this.gather();
    return this.map.get(key) ?? this.doc.newNull();
  }

  /** Every name and its destination (an array, or a dictionary with /D), as gathered. */
  all(): ReadonlyMap<string, mupdf.PDFObject> {
    this.map ??= this.gather();
    return this.map;
  }

  private gather(): Map<string, mupdf.PDFObject> {
    const map = new Map<string, mupdf.PDFObject>();
    const root = deref(this.doc.getTrailer().get('Root'));
    if (!root.isDictionary()) return map;
    const old = deref(root.get('Dests'));
    if (old.isDictionary()) old.forEach((value, key) => map.set(String(key), value));
    // Old-style names win over the tree's (PDF 1.1's dictionary is what a name object looks up).
    const tree = readNameTree(this.doc, 'Dests');
    for (const { name, value } of tree.entries) if (!map.has(name)) map.set(name, value);
    tree.warnings.forEach(this.warn);
    return map;
  }
}

/** The `readOutline` task: the outline as a tree (outlineOf). */
export function readOutline(input: PdfInput): OutlineModel {
  return withPdf(input, 'view', (doc) => outlineOf(doc));
}

/**
 * The `writeOutline` task: replaces the whole outline with `items` (none: the outline is removed; nothing is written
 * when there was none). The document's permissions must allow assembly (bookmarks are among what ISO 32000-1 bit 11
 * covers). A signed document gets the new outline appended, so its signatures stay valid; a certified one is refused
 * (409 DOCUMENT_CERTIFIED): no DocMDP level allows outline changes. Answers the outline read back from the document.
 */
export function writeOutline(input: PdfInput & { items: OutlineItemInput[] }): { bytes?: Uint8Array; outline: OutlineModel } {
  return editPdf(input, 'assemble', (doc, edit) => {
    const pageCount = doc.countPages();
    checkPages(input.items, pageCount);
    const root = deref(doc.getTrailer().get('Root'));
    const had = !root.get('Outlines').isNull();
    if (input.items.length === 0 && !had) return { outline: outlineOf(doc) };
    if (certifyingSignature(doc)) {
      throw new EngineError('DOCUMENT_CERTIFIED', 'The document is certified: no certification level allows its bookmarks to change');
    }
    if (input.items.length === 0) root.delete('Outlines');
    else {
      const outlines = doc.addObject(doc.newDictionary());
      outlines.put('Type', doc.newName('Outlines'));
      const { first, last, visible } = writeLevel(doc, outlines, input.items);
      outlines.put('First', first);
      outlines.put('Last', last);
      outlines.put('Count', doc.newInteger(visible));
      root.put('Outlines', outlines);
    }
    // Not appendable: the old items' titles are content the user replaced, gone from the file unless it is signed.
    const bytes = edit.save();
    return { bytes, outline: outlineOf(doc) };
  });
}

function checkPages(items: OutlineItemInput[], pageCount: number): void {
  const stack = [...items];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const index = item.destination?.pageIndex;
    if (index !== undefined && index >= pageCount) throw new EngineError('PAGE_OUT_OF_RANGE', `${JSON.stringify(item.title)}: ${pageOutOfRangeDetail(index, pageCount)}`);
    if (item.children) stack.push(...item.children);
  }
}

/**
 * Writes one level of items under `parent` with /Parent, /Prev, /Next, /First, /Last and /Count (ISO 32000-1 12.3.3):
 * an open item's /Count is the number of its visible descendants, a closed one's the negative of those that would be
 * visible were it opened. Answers the level's ends and how many items it shows (itself and its open descendants).
 */
export function writeLevel(doc: mupdf.PDFDocument, parent: mupdf.PDFObject, items: OutlineItemInput[], pages: PageRefs = pageRefs(doc)): { first: mupdf.PDFObject; last: mupdf.PDFObject; visible: number } {
  const refs = items.map(() => doc.addObject(doc.newDictionary()));
  let visible = 0;
  items.forEach((item, i) => {
    const ref = refs[i]!;
    ref.put('Title', doc.newString(item.title));
    ref.put('Parent', parent);
    if (i > 0) ref.put('Prev', refs[i - 1]!);
    if (i + 1 < refs.length) ref.put('Next', refs[i + 1]!);
    if (item.destination) ref.put('Dest', destinationArray(doc, item.destination, pages));
    else if (item.uri !== undefined) {
      const action = doc.newDictionary();
      action.put('S', doc.newName('URI'));
      action.put('URI', doc.newByteString(new TextEncoder().encode(item.uri)));
      ref.put('A', action);
    }
    if (item.color && (item.color.red || item.color.green || item.color.blue)) {
      const c = doc.newArray();
      for (const v of [item.color.red, item.color.green, item.color.blue]) c.push(doc.newReal(v));
      ref.put('C', c);
    }
    const flags = (item.italic ? 1 : 0) | (item.bold ? 2 : 0);
    if (flags) ref.put('F', doc.newInteger(flags));
    visible++;
    if (item.children && item.children.length > 0) {
      const below = writeLevel(doc, ref, item.children, pages);
      ref.put('First', below.first);
      ref.put('Last', below.last);
      ref.put('Count', doc.newInteger(item.open ? below.visible : -below.visible));
      if (item.open) visible += below.visible;
    }
  });
  return { first: refs[0]!, last: refs[refs.length - 1]!, visible };
}

/** Page objects by index, looked up once each. */
type PageRefs = (index: number) => mupdf.PDFObject;

/**
 * The document's page objects, all looked up before the first item is written: MuPDF builds its page map on a lookup
 * and drops it when an object changes, so a lookup per item between writes rebuilt (and sorted) the map every time,
 * quadratic in a merge's thousands of items and pages (CPU profile: 4.3 of 5.7 s at 400 sources).
 */
function pageRefs(doc: mupdf.PDFDocument): PageRefs {
  let refs: mupdf.PDFObject[] | undefined;
  return (index) => (refs ??= Array.from({ length: doc.countPages() }, (_, i) => doc.findPage(i)))[index]!;
}

function destinationArray(doc: mupdf.PDFDocument, dest: OutlineDestination, pages: PageRefs): mupdf.PDFObject {
  const array = doc.newArray();
  array.push(pages(dest.pageIndex));
  const fit = dest.fit ?? 'Fit';
  array.push(doc.newName(fit));
  for (const key of FIT_PARAMS[fit]) {
    const v = dest[key];
    array.push(v === undefined ? doc.newNull() : doc.newReal(v));
  }
  return array;
}
