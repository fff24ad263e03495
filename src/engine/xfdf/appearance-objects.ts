import type * as mupdf from 'mupdf';
import { APPEARANCE_LIMITS, ApStream, type ApDict, type ApValue } from './appearance-xml.js';
import type { ObjectReader } from '../annotations/read.js';
import { isDict, name } from '../syntax/readers.js';
import { PdfName, PdfRef, PdfString, type PdfValue } from '../syntax/parser.js';

/**
 * An annotation's /AP as one tree (appearance-xml.ts), read from a document
 * and written into one. Indirect objects are inlined; a stream keeps its bytes
 * as stored (still filtered, MuPDF's readRawStream, decrypted) and its /Filter.
 */

/** Objects an appearance never reaches into: what points back at them is left out. */
const BACK_TYPES = new Set(['Page', 'Pages', 'Catalog', 'Annot']);
/** Streams MuPDF could not read in one export before the rest are not tried (MuPDF errors are costly). */
const MAX_FAILED_STREAMS = 20;

interface Budget {
  values: number;
  bytes: number;
  ok: boolean;
}

/**
 * Reads /AP trees of one document. Object dictionaries are parsed once
 * (ObjectReader) and stream bytes read once, however many appearances share
 * them. Guards: a reference to a page, the page tree, the catalog or an
 * annotation (a /P or /Parent back reference) and a reference to an object
 * already being inlined (a cycle) are left out (null in an array); past
 * APPEARANCE_LIMITS (nesting, number of values) or 4× the XML size in stream
 * bytes, or when a stream cannot be read, the appearance is not carried at all.
 */
export class AppearanceReader {
  private readonly streamBytes = new Map<number, Uint8Array | undefined>();
  private readonly isStream = new Map<number, boolean>();
  private readonly objectCount: number;
  private failures = 0;

  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly reader: ObjectReader,
    /** Object numbers of pages and annotations. */
    private readonly excluded: Set<number>,
  ) {
    this.objectCount = doc.countObjects();
  }

  /** The /AP dictionary, inlined; undefined when there is none with an N entry, or it cannot be carried whole. */
  read(ap: PdfValue | undefined): ApDict | undefined {
    if (ap === undefined) return undefined;
    const budget: Budget = { values: 0, bytes: 0, ok: true };
    const tree = this.value(ap, 1, [], budget);
    if (!budget.ok || !(tree instanceof Map) || !tree.has('N')) return undefined;
    return tree;
  }

  /** undefined: leave the entry out. */
  private value(v: PdfValue, depth: number, path: number[], budget: Budget): ApValue | undefined {
    if (!budget.ok) return undefined;
    if (++budget.values > APPEARANCE_LIMITS.values) return this.fail(budget);
    if (v instanceof PdfRef) return this.indirect(v, depth, path, budget);
    if (Array.isArray(v)) {
      if (depth > APPEARANCE_LIMITS.depth) return this.fail(budget);
      return v.map((item) => this.value(item, depth + 1, path, budget) ?? null);
    }
    if (v instanceof Map) {
      if (depth > APPEARANCE_LIMITS.depth) return this.fail(budget);
      return this.dict(v, depth, path, budget);
    }
    return v;
  }

  private dict(d: Map<string, PdfValue>, depth: number, path: number[], budget: Budget): ApDict {
    const out: ApDict = new Map();
    for (const [key, item] of d) {
      const v = this.value(item, depth + 1, path, budget);
      if (v !== undefined && v !== null) out.set(key, v);
    }
    return out;
  }

  private indirect(r: PdfRef, depth: number, path: number[], budget: Budget): ApValue | undefined {
    const num = r.num;
    // A reference to an object that does not exist is null (ISO 32000-1 §7.3.10).
    if (num <= 0 || num >= this.objectCount) return null;
    if (this.excluded.has(num) || path.includes(num)) return undefined;
    const target = this.reader.resolve(r) ?? null;
    if (isDict(target) && BACK_TYPES.has(name(target.get('Type')) ?? '')) return undefined;
    path.push(num);
    try {
      if (!this.streamAt(num)) return this.value(target, depth, path, budget);
      if (depth > APPEARANCE_LIMITS.depth || !isDict(target)) return this.fail(budget);
      const dict = this.dict(target, depth, path, budget);
      dict.delete('Length'); // written as the number of bytes carried
      const bytes = this.rawBytes(num);
      if (bytes === undefined) return this.fail(budget);
      budget.bytes += bytes.length;
      // Hex doubles the bytes: past this the XML would be over its limit anyway.
      if (budget.bytes > APPEARANCE_LIMITS.xmlBytes / 2) return this.fail(budget);
      return new ApStream(dict, bytes);
    } finally {
      path.pop();
    }
  }

  private fail(budget: Budget): undefined {
    budget.ok = false;
    return undefined;
  }

  private streamAt(num: number): boolean {
    let known = this.isStream.get(num);
    if (known === undefined) {
      known = this.doc.newIndirect(num).isStream(); // true on the reference only (core/mupdf-objects.ts)
      this.isStream.set(num, known);
    }
    return known;
  }

  private rawBytes(num: number): Uint8Array | undefined {
    if (this.streamBytes.has(num)) return this.streamBytes.get(num);
    let bytes: Uint8Array | undefined;
    if (this.failures < MAX_FAILED_STREAMS) {
      try {
        const buffer = this.doc.newIndirect(num).readRawStream();
        bytes = buffer.asUint8Array().slice(); // a view into WASM memory: copied out
        buffer.destroy();
      } catch {
        this.failures++;
      }
    }
    this.streamBytes.set(num, bytes);
    return bytes;
  }
}

/** An appearance value as a MuPDF object of `doc`; streams become new indirect objects (raw: their bytes as given, /Filter kept). */
function appearanceObject(doc: mupdf.PDFDocument, v: ApValue): mupdf.PDFObject {
  if (v === null) return doc.newNull();
  if (typeof v === 'boolean') return doc.newBoolean(v);
  if (typeof v === 'number') return Number.isInteger(v) ? doc.newInteger(v) : doc.newReal(v);
  if (v instanceof PdfName) return doc.newName(v.name);
  if (v instanceof PdfString) return doc.newByteString(v.bytes);
  if (Array.isArray(v)) {
    const a = doc.newArray();
    for (const item of v) a.push(appearanceObject(doc, item));
    return a;
  }
  if (v instanceof ApStream) {
    const d = doc.newDictionary();
    for (const [k, item] of v.dict) if (k !== 'Length') d.put(k, appearanceObject(doc, item));
    return v.raw ? doc.addRawStream(v.data, d) : doc.addStream(v.data, d);
  }
  const d = doc.newDictionary();
  for (const [k, item] of v) d.put(k, appearanceObject(doc, item));
  return d;
}

/**
 * Sets an imported appearance on an annotation. A normal appearance that is a
 * dictionary of states needs /AS to pick one: when the annotation has none,
 * the first state is taken (XFDF has no element for /AS).
 */
export function setAppearance(doc: mupdf.PDFDocument, annotation: mupdf.PDFObject, ap: ApDict): void {
  annotation.put('AP', appearanceObject(doc, ap));
  const normal = ap.get('N');
  if (normal instanceof Map && normal.size > 0 && annotation.get('AS').isNull()) {
    annotation.put('AS', doc.newName([...normal.keys()][0]!));
  }
}
