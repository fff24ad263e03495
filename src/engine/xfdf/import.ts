import { randomUUID } from 'node:crypto';
import * as mupdf from 'mupdf';
import type { AnnotationModel } from '../annotations/model.js';
import { EngineError } from '../errors.js';
import { annotationEntries, entryObject, ObjectReader, pageObjectNumbers, readAnnotations, type AnnotationEntry } from '../annotations/read.js';
import { AppearanceReader, setAppearance } from './appearance-objects.js';
import { mediaTypeOf } from '../annotations/attachments.js';
import { encodeAppearance } from './appearance-xml.js';
import { formFacts } from '../core/inspect.js';
import { openPdf } from '../core/open.js';
import { isDict, name, ref, text } from '../syntax/readers.js';
import { PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { deref } from '../core/mupdf-objects.js';
import { saveEdited } from '../core/save.js';
import { fromXfdfElement, str, toXfdfElement, type EmbeddedFile, type ExportContext, type IncomingAnnotation } from './export-map.js';
import { parseXfdf } from './parse.js';
import { nonXmlWarning, treeHasNonXml, writeXml, type XmlNode } from '../syntax/xml-writer.js';
import { readAll, type PdfSource } from '../core/pdf-source.js';

/** The document's /ID pair as hex, for <ids original modified>. */
function documentIds(doc: mupdf.PDFDocument, reader: ObjectReader): [string, string] | undefined {
  const id = reader.parse(doc.getTrailer().get('ID'));
  if (!Array.isArray(id) || id.length !== 2 || !(id[0] instanceof PdfString) || !(id[1] instanceof PdfString)) return undefined;
  return [Buffer.from(id[0].bytes).toString('hex').toUpperCase(), Buffer.from(id[1].bytes).toString('hex').toUpperCase()];
}

/** The embedded file of a FileAttachment annotation (name, bytes, media type), when it carries one. */
export function embeddedFile(doc: mupdf.PDFDocument, reader: ObjectReader, e: AnnotationEntry): (EmbeddedFile & { name: string }) | undefined {
  const fs = deref(entryObject(doc, e).get('FS'));
  if (!fs.isDictionary()) return undefined;
  const contents = doc.getEmbeddedFileContents(fs);
  if (!contents) return undefined;
  const bytes = contents.asUint8Array().slice();
  contents.destroy();
  const fileName = text(reader.parse(fs.get('UF'))) ?? text(reader.parse(fs.get('F'))) ?? 'attachment';
  const streamDict = reader.parse(deref(fs.get('EF')).get('F'));
  const mimeType = mediaTypeOf(isDict(streamDict) ? name(streamDict.get('Subtype')) : undefined);
  return { name: fileName, bytes, ...(mimeType ? { mimeType } : {}) };
}

function exportContext(doc: mupdf.PDFDocument, reader: ObjectReader, entries: AnnotationEntry[]): ExportContext {
  const nameByObject = new Map(entries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e.name]));
  let pages: Map<number, number> | undefined;
  return {
    resolve: (v) => reader.resolve(v),
    nameOf: (num) => nameByObject.get(num),
    pageOf: (num) => (pages ??= pageObjectNumbers(doc)).get(num),
  };
}

/** The `exportAnnotationsXfdf` task: every annotation XFDF can carry, as Acrobat writes the file. */
export function exportAnnotationsXfdf(input: { pdf: PdfSource; password?: string | undefined; fileName: string }): { xfdf: string; skipped: string[]; warnings: string[] } {
  const { doc } = openPdf(input.pdf, input.password, 'view');
  try {
    const entries = annotationEntries(doc);
    const reader = new ObjectReader(doc);
    const ctx = exportContext(doc, reader, entries);
    const byObject = new Map(entries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e]));
    const nested = new Set<AnnotationEntry>();
    for (const e of entries) {
      const popupRef = ref(e.dict.get('Popup'));
      const popup = popupRef !== undefined ? byObject.get(popupRef) : undefined;
      if (popup && name(popup.dict.get('Subtype')) === 'Popup') nested.add(popup);
    }
    const annots: XmlNode[] = [];
    const skipped: string[] = [];
    const altered: string[] = [];
    let appearances: AppearanceReader | undefined;
    for (const e of entries) {
      if (nested.has(e)) continue; // written inside its parent
      const subtype = name(e.dict.get('Subtype'))!;
      const popupRef = ref(e.dict.get('Popup'));
      const popup = popupRef !== undefined ? byObject.get(popupRef) : undefined;
      const nestedPopup = popup && nested.has(popup) ? { pageIndex: popup.pageIndex, name: popup.name, dict: popup.dict } : undefined;
      const file = subtype === 'FileAttachment' ? embeddedFile(doc, reader, e) : undefined;
      // Acrobat carries the appearance of stamps (custom stamps are images); other subtypes are drawn from their entries.
      let appearance: string | undefined;
      if (subtype === 'Stamp' && e.dict.has('AP')) {
        appearances ??= new AppearanceReader(doc, reader, new Set([...byObject.keys(), ...pageObjectNumbers(doc).keys()]));
        const ap = appearances.read(e.dict.get('AP'));
        appearance = ap && encodeAppearance(ap);
      }
      const node = toXfdfElement(subtype, e.pageIndex, e.name, e.dict, ctx, nestedPopup, file, appearance);
      if (node) annots.push(node);
      else skipped.push(e.name);
      if (node && treeHasNonXml(node)) altered.push(e.name);
    }
    const ids = documentIds(doc, reader);
    const root: XmlNode = {
      tag: 'xfdf',
      attrs: [['xmlns', 'http://ns.adobe.com/xfdf/'], ['xml:space', 'preserve']],
      children: [
        { tag: 'annots', children: annots },
        { tag: 'f', attrs: [['href', input.fileName]] },
        ...(ids ? [{ tag: 'ids', attrs: [['original', ids[0]], ['modified', ids[1]]] as [string, string][] }] : []),
      ],
    };
    return { xfdf: `<?xml version="1.0" encoding="UTF-8"?>\n${writeXml(root)}`, skipped, warnings: nonXmlWarning('annotation', altered) };
  } finally {
    doc.destroy();
  }
}

/** A parsed PDF value as a MuPDF object of `doc` (strings stay strings: MuPDF's own JS conversion makes them names). */
export function toMupdf(doc: mupdf.PDFDocument, v: PdfValue): mupdf.PDFObject {
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
export function importAnnotations(doc: mupdf.PDFDocument, incoming: IncomingAnnotation[], warnings: string[]): { created: string[]; updated: string[] } {
  const pageCount = doc.countPages();
  const existing = new Map(annotationEntries(doc).map((e) => [e.name, e]));
  const taken = new Set(existing.keys());
  const objects = new Map<string, mupdf.PDFObject>(); // name -> indirect object, for linking
  for (const [n, e] of existing) objects.set(n, entryObject(doc, e));
  const created: string[] = [];
  const updated: string[] = [];
  const touched: { obj: mupdf.PDFObject; pageIndex: number }[] = [];
  const written: { item: IncomingAnnotation; obj: mupdf.PDFObject; name: string }[] = [];

  const write = (pageIndex: number, dict: PdfDict, annotationName: string): mupdf.PDFObject => {
    const page = doc.findPage(pageIndex);
    const old = existing.get(annotationName);
    let obj: mupdf.PDFObject;
    if (old && old.objectNumber !== undefined) {
      obj = doc.newIndirect(old.objectNumber);
      for (const key of old.dict.keys()) if (key !== 'P' && key !== 'Popup' && key !== 'Parent' && key !== 'IRT') obj.delete(key);
      updated.push(annotationName);
      if (old.pageIndex !== pageIndex) {
        // Moved to another page: out of the old /Annots, into the new one.
        removeFromAnnots(doc.findPage(old.pageIndex), old.objectNumber);
        appendAnnot(doc, page, obj);
      }
    } else {
      obj = doc.addObject(doc.newDictionary());
      appendAnnot(doc, page, obj);
      created.push(annotationName);
      taken.add(annotationName);
    }
    for (const [k, v] of dict) obj.put(k, toMupdf(doc, v));
    obj.put('NM', toMupdf(doc, str(annotationName)));
    obj.put('P', page);
    objects.set(annotationName, obj);
    touched.push({ obj, pageIndex });
    return obj;
  };

  for (const item of incoming) {
    if (item.pageIndex >= pageCount) {
      warnings.push(`${item.subtype} ${item.name ?? ''} is on page ${item.pageIndex}, which the document does not have: not imported`.replace('  ', ' '));
      continue;
    }
    const annotationName = nameFor(item, taken);
    const dict = new Map(item.dict);
    if (item.destinationPage !== undefined) {
      const dest = dict.get('Dest');
      if (Array.isArray(dest) && item.destinationPage < pageCount) {
        const page = doc.findPage(item.destinationPage);
        dict.set('Dest', [new PdfRef(page.asIndirect(), 0), ...dest.slice(1)]);
      } else {
        dict.delete('Dest');
        warnings.push(`link ${annotationName} points at page ${item.destinationPage}, which the document does not have: destination dropped`);
      }
    }
    const obj = write(item.pageIndex, dict, annotationName);
    if (item.appearance) setAppearance(doc, obj, item.appearance);
    if (item.file?.bytes) {
      const now = new Date();
      const fs = doc.addEmbeddedFile(item.file.name, item.file.mimeType, item.file.bytes, now, now, true);
      obj.put('FS', fs);
    } else if (item.file) {
      // Named but not carried: a reference to the file, as the XFDF gave it.
      const fs = doc.newDictionary();
      fs.put('Type', doc.newName('Filespec'));
      fs.put('F', toMupdf(doc, str(item.file.name)));
      fs.put('UF', toMupdf(doc, str(item.file.name)));
      obj.put('FS', doc.addObject(fs));
    }
    written.push({ item, obj, name: annotationName });
  }
  // Links by name, now that every annotation exists.
  for (const { item, obj, name: annotationName } of written) {
    if (item.inReplyTo !== undefined) {
      const target = objects.get(item.inReplyTo);
      if (target) obj.put('IRT', target);
      else warnings.push(`${annotationName} replies to ${item.inReplyTo}, which is neither in the document nor in the import: kept without the link`);
    }
    if (item.popup && item.popup.pageIndex < pageCount) {
      const popupName = item.popup.name ?? `${annotationName}-popup`;
      const popup = write(item.popup.pageIndex, item.popup.dict, popupName);
      popup.put('Parent', obj);
      obj.put('Popup', popup);
    }
  }
  generateAppearances(doc, touched);
  return { created, updated };
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

function appendAnnot(doc: mupdf.PDFDocument, page: mupdf.PDFObject, obj: mupdf.PDFObject): void {
  let annots = page.get('Annots');
  if (!deref(annots).isArray()) {
    annots = doc.newArray();
    page.put('Annots', annots);
  }
  deref(annots).push(obj);
}

/**
 * Has MuPDF draw an annotation's (or widget's) appearance. It only draws for
 * an annotation it sees as changed: a no-op set marks it so. False when MuPDF
 * cannot draw this kind (3D, Movie, ...): it keeps no appearance, and viewers
 * draw their own.
 */
export function redraw(annot: mupdf.PDFAnnotation): boolean {
  try {
    annot.setFlags(annot.getFlags());
    annot.update();
    fixSymbolicFonts(annot.getObject());
    return true;
  } catch {
    return false;
  }
}

/**
 * Has MuPDF draw the appearances of several annotations (or widgets) in one
 * pass. Its update walks every annotation of every loaded page and draws the
 * ones marked as changed, so one update per annotation costs quadratic time:
 * 1,000 annotations on one page took 13 s that way, 0.2 s in one pass.
 */
export function redrawAll(annots: mupdf.PDFAnnotation[]): void {
  if (annots.length === 0) return;
  for (const annot of annots) annot.setFlags(annot.getFlags());
  try {
    annots[0]!.update();
  } catch {
    // An annotation MuPDF cannot draw stops the pass: draw them one by one, so that only that one goes without.
    for (const annot of annots) redraw(annot);
    return;
  }
  for (const annot of annots) fixSymbolicFonts(annot.getObject());
}

/** The standard fonts whose glyphs are not letters: MuPDF draws check marks with ZapfDingbats. */
const SYMBOLIC_FONTS = new Set(['ZapfDingbats', 'Symbol']);

/**
 * MuPDF gives the ZapfDingbats font of the appearances it draws (the check
 * of a check box) /Encoding /WinAnsiEncoding. By that encoding the check's
 * code ("3") names the glyph "three", which ZapfDingbats does not have:
 * poppler, which follows the encoding, draws nothing, so a checked box
 * looked empty once flattened (MuPDF ignores the entry). The built-in
 * encoding of these fonts is the one meant, so the entry is removed from
 * the symbolic fonts of the annotation's appearance streams. Call after
 * MuPDF has drawn an appearance.
 */
function fixSymbolicFonts(annot: mupdf.PDFObject): void {
  const ap = deref(deref(annot).get('AP'));
  if (!ap.isDictionary()) return;
  const fix = (stream: mupdf.PDFObject) => {
    if (!stream.isStream()) return;
    const resources = deref(deref(stream).get('Resources'));
    const fonts = resources.isDictionary() ? deref(resources.get('Font')) : undefined;
    if (!fonts?.isDictionary()) return;
    fonts.forEach((value) => {
      const font = deref(value);
      if (!font.isDictionary()) return;
      const base = deref(font.get('BaseFont'));
      const encoding = deref(font.get('Encoding'));
      if (base.isName() && SYMBOLIC_FONTS.has(base.asName()) && encoding.isName() && encoding.asName() === 'WinAnsiEncoding') font.delete('Encoding');
    });
  };
  for (const key of ['N', 'D', 'R']) {
    const entry = ap.get(key);
    if (entry.isStream()) fix(entry);
    else if (deref(entry).isDictionary()) deref(entry).forEach((state) => fix(state));
  }
}

/**
 * MuPDF draws an appearance for an annotation it sees as changed (redraw). Drawing also adjusts /Rect, /RD and /F to MuPDF's taste; the
 * imported values are put back afterwards (viewers fit the appearance into
 * /Rect), so that what was imported is what is exported. Annotations that came
 * with an appearance keep it.
 */
function generateAppearances(doc: mupdf.PDFDocument, touched: { obj: mupdf.PDFObject; pageIndex: number }[]): void {
  const byPage = new Map<number, Map<number, mupdf.PDFObject>>();
  for (const t of touched) {
    if (!t.obj.get('AP').isNull()) continue;
    const subtype = t.obj.get('Subtype').asName();
    if (subtype === 'Popup' || subtype === 'Link') continue;
    if (!byPage.has(t.pageIndex)) byPage.set(t.pageIndex, new Map());
    byPage.get(t.pageIndex)!.set(t.obj.asIndirect(), t.obj);
  }
  for (const [pageIndex, wanted] of byPage) {
    const page = doc.loadPage(pageIndex);
    const drawn = page.getAnnotations().filter((annot) => {
      const obj = annot.getObject();
      return obj.isIndirect() && wanted.has(obj.asIndirect());
    });
    const kept = drawn.map((annot) => {
      const obj = annot.getObject();
      return ['Rect', 'RD', 'F'].map((key) => [key, obj.get(key)] as const).map(([key, value]) => [key, value.isNull() ? undefined : toMupdfCopy(doc, value)] as const);
    });
    redrawAll(drawn);
    drawn.forEach((annot, i) => {
      const obj = annot.getObject();
      for (const [key, value] of kept[i]!) {
        if (value === undefined) obj.delete(key);
        else obj.put(key, value);
      }
    });
    page.destroy();
  }
}

/** A deep copy of a direct value, made before MuPDF changes the original in place. */
function toMupdfCopy(doc: mupdf.PDFDocument, value: mupdf.PDFObject): mupdf.PDFObject {
  if (value.isArray()) {
    const a = doc.newArray();
    for (let i = 0; i < value.length; i++) a.push(value.get(i).isNumber() ? value.get(i).asNumber() : value.get(i));
    return a;
  }
  return value.isNumber() ? (Number.isInteger(value.asNumber()) ? doc.newInteger(value.asNumber()) : doc.newReal(value.asNumber())) : value;
}

/** The `importAnnotationsXfdf` task (A5, A3). */
export function importAnnotationsXfdf(input: { pdf: PdfSource; password?: string | undefined; xfdf: PdfSource }): ImportResult {
  // The body is read here, from the staged file when it is large: the main thread never holds it.
  const root = parseXfdf(readAll(input.xfdf));
  const warnings: string[] = [];
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
  return applyImport(input, incoming, warnings);
}

export function applyImport(input: { pdf: PdfSource; password?: string | undefined }, incoming: IncomingAnnotation[], warnings: string[]): ImportResult {
  const opened = openPdf(input.pdf, input.password, 'annotate');
  const { doc } = opened;
  try {
    const { created, updated } = importAnnotations(doc, incoming, warnings);
    const bytes = saveEdited(doc, formFacts(doc).hasSignatures);
    return { bytes, created, updated, warnings, annotations: readAnnotations(doc), pageCount: doc.countPages() };
  } finally {
    doc.destroy();
  }
}

