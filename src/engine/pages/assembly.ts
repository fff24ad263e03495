import type * as mupdf from 'mupdf';
import { graftStructure, isTagged, pruneStructure } from '../pdfua/keep.js';
import { EngineError } from '../errors.js';
import { parsePageRange } from './range.js';
import { mediaBox } from './geometry.js';
import { editPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { openPdf } from '../core/open.js';
import { deref, text } from '../core/mupdf-objects.js';
import { annotationPages } from '../forms/fields.js';
import { readFormFields } from '../forms/field-tree.js';
import { saveFull } from '../core/save.js';
import { dropSignatureValues } from '../signing/fields.js';
import type { PdfSource } from '../core/pdf-source.js';

/** The page-structure operations: one task, one kind per action. */
export type PageOperation =
  | { kind: 'delete'; pageRange: string }
  | { kind: 'rotate'; pageRange?: string | undefined; rotation: number }
  | { kind: 'move'; pageRange: string; toIndex: number }
  | { kind: 'extract'; pageRange: string }
  | { kind: 'newPage'; pageIndex?: number | undefined; width?: number | undefined; height?: number | undefined }
  | { kind: 'insert'; source: Uint8Array; sourcePassword?: string | undefined; pageRange?: string | undefined; pageIndex?: number | undefined };

const US_LETTER = { width: 612, height: 792 };

function catalog(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return deref(doc.getTrailer().get('Root'));
}

function objectNumber(obj: mupdf.PDFObject): number | undefined {
  return obj.isIndirect() ? obj.asIndirect() : undefined;
}

/** Object numbers of the annotations listed on the given pages. */
function annotationsOn(doc: mupdf.PDFDocument, pages: number[]): Set<number> {
  const found = new Set<number>();
  for (const p of pages) {
    const annots = deref(doc.findPage(p).get('Annots'));
    if (!annots.isArray()) continue;
    for (let i = 0; i < annots.length; i++) {
      const num = objectNumber(annots.get(i));
      if (num !== undefined) found.add(num);
    }
  }
  return found;
}

/**
 * Drops from the field tree the widgets that were on removed pages, and the
 * fields left with no widget. Only what the removal touched goes: a field
 * that never had a widget stays as it was.
 */
function pruneFields(doc: mupdf.PDFDocument, fields: mupdf.PDFObject, removed: Set<number>, depth = 0): void {
  if (!fields.isArray() || depth > 64) return;
  for (let i = fields.length - 1; i >= 0; i--) {
    const ref = fields.get(i);
    const num = objectNumber(ref);
    if (num !== undefined && removed.has(num)) {
      fields.delete(i);
      continue;
    }
    const field = deref(ref);
    if (!field.isDictionary()) continue;
    const kids = deref(field.get('Kids'));
    if (!kids.isArray() || kids.length === 0) continue;
    pruneFields(doc, kids, removed, depth + 1);
    if (kids.length === 0) fields.delete(i);
  }
}

/** A shallow copy of a dictionary (arrays one level deep), holding its values alive. */
function shallowCopy(doc: mupdf.PDFDocument, dict: mupdf.PDFObject): mupdf.PDFObject {
  const copy = doc.newDictionary();
  dict.forEach((value, key) => {
    const resolved = deref(value);
    if (resolved.isArray() && !value.isIndirect()) {
      const array = doc.newArray();
      for (let i = 0; i < resolved.length; i++) array.push(resolved.get(i));
      copy.put(key, array);
    } else {
      copy.put(key, value);
    }
  });
  return copy;
}

/** Whether an explicit destination (or a GoTo action holding one) points at a page of the page tree. */
function pointsIntoDocument(doc: mupdf.PDFDocument, action: mupdf.PDFObject): boolean {
  let dest = deref(action);
  if (dest.isDictionary()) {
    if (deref(dest.get('S')).isName() && deref(dest.get('S')).asName() !== 'GoTo') return true;
    dest = deref(dest.get('D'));
  }
  if (!dest.isArray() || dest.length === 0) return true;
  const page = dest.get(0);
  if (!page.isIndirect()) return true;
  const pages = new Set(Array.from({ length: doc.countPages() }, (_, i) => doc.findPage(i).asIndirect()));
  return pages.has(page.asIndirect());
}

/**
 * Rearranges the page tree to `order` (indexes of the current pages; pages
 * left out are removed). MuPDF's rearrangePages removes outline items, named
 * destinations and links that point at removed pages, which is what is
 * wanted; but it also drops most of the catalog (measured, 1.28.1): the
 * AcroForm (of kept pages too), embedded files, XMP metadata, usage rights,
 * page labels, viewer preferences, the open action. So the catalog is copied
 * before and what MuPDF dropped is put back: the form with the fields of
 * removed pages pruned, the open action only when its page is still there.
 */
export function rearrange(doc: mupdf.PDFDocument, order: number[]): void {
  const before = shallowCopy(doc, catalog(doc));
  const names = deref(before.get('Names'));
  const savedNames = names.isDictionary() ? shallowCopy(doc, names) : undefined;
  const form = deref(before.get('AcroForm'));
  const savedForm = form.isDictionary() ? shallowCopy(doc, form) : undefined;
  const kept = new Set(order);
  const removedPages = Array.from({ length: doc.countPages() }, (_, i) => i).filter((i) => !kept.has(i));
  // The removed pages' annotations matter only to a form with fields to prune: a form without (a split's group of
  // pages with none of the form's) skips the walk over every removed page (a third of a 1,000-page split's
  // annotationsOn, CPU profile).
  const fields = savedForm ? deref(savedForm.get('Fields')) : undefined;
  const removed = fields?.isArray() && fields.length > 0 && removedPages.length ? annotationsOn(doc, removedPages) : new Set<number>();
  // MuPDF leaves the structure tree as it was: the removed pages' elements would stay, their /Pg naming pages that are
  // gone. They are taken out first (docs/accessibility.md, "Writes keep the structure").
  if (removedPages.length && isTagged(doc)) pruneStructure(doc, removedPages.map((i) => doc.findPage(i)));

  doc.rearrangePages(order);

  // Looked up again: the catalog held from before is no longer the document's.
  const root = catalog(doc);
  before.forEach((value, key) => {
    if (!root.get(key).isNull()) return;
    if (key === 'AcroForm' || key === 'Names') return;
    if (key === 'OpenAction' && !pointsIntoDocument(doc, value)) return;
    root.put(key, value);
  });
  if (savedNames) {
    let current = deref(root.get('Names'));
    if (!current.isDictionary()) {
      current = doc.newDictionary();
      root.put('Names', current);
    }
    const target = current;
    // MuPDF keeps /Dests, pruned; every other name tree (embedded files, JavaScript, ...) comes back as it was.
    savedNames.forEach((value, key) => {
      if (key !== 'Dests' && target.get(key).isNull()) target.put(key, value);
    });
  }
  if (savedForm) {
    root.put('AcroForm', doc.addObject(savedForm));
    if (removed.size) pruneFields(doc, deref(savedForm.get('Fields')), removed);
  }
}

/**
 * ExtractPagesAction's change of `doc`: only the pages of `order` are left, in that order, with what follows the pages
 * (rearrange: navigation to the others removed, their fields pruned, the catalog kept). A document that was `signed`
 * has its signature values cleared: they covered the source's bytes; the source keeps them. The split
 * (engine/split/split.ts) makes each of its parts by this.
 */
export function extractPages(doc: mupdf.PDFDocument, order: number[], signed: boolean): void {
  rearrange(doc, order);
  if (signed) dropSignatureValues(doc);
}

/**
 * Makes a page self-contained before it is copied: the inheritable entries
 * it takes from its ancestors are written into it, and /Parent is dropped,
 * so that copying it does not drag the source's whole page tree along.
 */
function detachPage(page: mupdf.PDFObject): void {
  for (const key of ['Resources', 'MediaBox', 'CropBox', 'Rotate']) {
    if (!page.get(key).isNull()) continue;
    const inherited = page.getInheritable(key);
    if (!inherited.isNull()) page.put(key, inherited);
  }
  page.delete('Parent');
}

/**
 * Appends page objects at the end of the document: onto the root page node's /Kids, in constant time each. MuPDF's
 * insertPage finds the page before the insertion point by walking the page tree, one /Kids entry at a time, so
 * appending page by page was quadratic in the pages: 43 ms of a 140 ms merge of 1,000 pages (CPU profile), 100 times
 * that at 10,000. The root's /Kids may hold pages beside intermediate nodes; its last entry is the last page.
 */
function appendPages(doc: mupdf.PDFDocument, pages: mupdf.PDFObject[]): void {
  const rootRef = catalog(doc).get('Pages');
  const root = deref(rootRef);
  let kids = deref(root.get('Kids'));
  if (!kids.isArray()) {
    kids = doc.newArray();
    root.put('Kids', kids);
  }
  for (const page of pages) {
    deref(page).put('Parent', rootRef);
    kids.push(page);
  }
  const count = deref(root.get('Count'));
  root.put('Count', doc.newInteger((count.isNumber() ? count.asNumber() : 0) + pages.length));
}

/** Top-level field names of a field array. */
function fieldNames(fields: mupdf.PDFObject): Set<string> {
  const names = new Set<string>();
  if (!fields.isArray()) return names;
  for (let i = 0; i < fields.length; i++) {
    const f = deref(fields.get(i));
    const t = f.isDictionary() ? text(f.get('T')) : undefined;
    if (t !== undefined) names.add(t);
  }
  return names;
}

/**
 * Copies the selected pages of `source` into `doc` at `at`: with their
 * annotations (each /P pointing at its new page), links between copied pages,
 * and their form fields merged into the document's AcroForm. A top-level
 * field whose name the document already uses is renamed "name_2" ("_3", ...)
 * so that the two fields do not merge into one. Links, outline entries and
 * fields of source pages that are not copied are dropped first. `map`: a
 * caller that grafts more of the source afterwards (a merge: its outline and
 * named destinations) passes its own, so that those point at the same copies.
 */
export function insertPages(doc: mupdf.PDFDocument, source: mupdf.PDFDocument, selected: number[], at: number, map: mupdf.PDFGraftMap = doc.newGraftMap()): number {
  // Prune the source down to the selected pages, in order: links and fields of other pages go.
  rearrange(source, selected);
  const count = source.countPages();
  // Looked up before any change: detaching a page changes it, which drops MuPDF's page map, and a lookup after each
  // change built the map again (quadratic in the pages).
  const pages = Array.from({ length: count }, (_, i) => source.findPage(i));
  for (const page of pages) detachPage(page);
  // Copy every page dictionary through one graft map, so that links and /P between them stay consistent.
  const copies = pages.map((page) => map.graftObject(page));
  if (at === doc.countPages()) appendPages(doc, copies);
  else copies.forEach((copy, k) => doc.insertPage(at + k, copy));
  graftStructure(doc, source, map, pages, at);

  const sourceForm = deref(catalog(source).get('AcroForm'));
  const sourceFields = sourceForm.isDictionary() ? deref(sourceForm.get('Fields')) : undefined;
  if (sourceFields?.isArray() && sourceFields.length > 0) {
    const root = catalog(doc);
    let form = deref(root.get('AcroForm'));
    if (!form.isDictionary()) {
      form = doc.addObject(doc.newDictionary());
      root.put('AcroForm', form);
      form = deref(form);
    }
    let fields = deref(form.get('Fields'));
    if (!fields.isArray()) {
      fields = doc.newArray();
      form.put('Fields', fields);
    }
    const taken = fieldNames(fields);
    for (let i = 0; i < sourceFields.length; i++) {
      const copy = map.graftObject(sourceFields.get(i));
      const field = deref(copy);
      const t = field.isDictionary() ? text(field.get('T')) : undefined;
      if (t !== undefined && taken.has(t)) {
        let n = 2;
        while (taken.has(`${t}_${n}`)) n++;
        field.put('T', doc.newString(`${t}_${n}`));
        taken.add(`${t}_${n}`);
      } else if (t !== undefined) {
        taken.add(t);
      }
      fields.push(copy);
    }
    // Default appearance and the fonts it names, where the document has none of its own.
    if (form.get('DA').isNull() && !sourceForm.get('DA').isNull()) form.put('DA', map.graftObject(sourceForm.get('DA')));
    const sourceResources = deref(sourceForm.get('DR'));
    if (sourceResources.isDictionary()) {
      let resources = deref(form.get('DR'));
      if (!resources.isDictionary()) {
        resources = doc.newDictionary();
        form.put('DR', resources);
      }
      const sourceFonts = deref(sourceResources.get('Font'));
      if (sourceFonts.isDictionary()) {
        let fonts = deref(resources.get('Font'));
        if (!fonts.isDictionary()) {
          fonts = doc.newDictionary();
          resources.put('Font', fonts);
        }
        const target = fonts;
        sourceFonts.forEach((font, key) => {
          if (target.get(key).isNull()) target.put(key, map.graftObject(font));
        });
      }
    }
  }
  return count;
}

function checkRotation(rotation: number): number {
  if (!Number.isInteger(rotation) || rotation % 90 !== 0) throw new EngineError('VALIDATION_FAILED', `rotation must be a multiple of 90, not ${rotation}`);
  return ((rotation % 360) + 360) % 360;
}

/** The size of the page at `index` as /MediaBox says (width, height in points; geometry.ts's reading). */
function pageSize(doc: mupdf.PDFDocument, index: number): { width: number; height: number } {
  const [x0, y0, x1, y1] = mediaBox(doc.findPage(index));
  return { width: x1! - x0!, height: y1! - y0! };
}

/** The pages that show a widget of a signed signature field. */
function signedSignaturePages(doc: mupdf.PDFDocument): Set<number> {
  const widgets = new Set<number>();
  for (const f of readFormFields(doc)) {
    if (f.type !== 'signature' || !deref(f.field.get('V')).isDictionary()) continue;
    for (const w of f.widgets) if (w.isIndirect()) widgets.add(w.asIndirect());
  }
  const pages = new Set<number>();
  if (widgets.size === 0) return pages;
  for (const [num, page] of annotationPages(doc)) if (widgets.has(num)) pages.add(page);
  return pages;
}

/**
 * The `editPages` task: one page-structure operation, saved as every edit is
 * (incrementally when the document is signed). Needs assembleDocumentAllowed
 * with the user password.
 */
export function editPages(input: { pdf: PdfSource; password?: string | undefined; operation: PageOperation }): { bytes: Uint8Array; pageCount: number; summary?: WrittenSummary } {
  const { operation } = input;
  return editPdf(input, 'assemble', (doc, { signed, save, opened }) => {
    const count = doc.countPages();
    const all = Array.from({ length: count }, (_, i) => i);
    switch (operation.kind) {
      case 'delete': {
        const doomed = new Set(parsePageRange(operation.pageRange, count));
        if (doomed.size === count) throw new EngineError('VALIDATION_FAILED', 'pageRange names every page; a PDF must keep at least one');
        if ([...signedSignaturePages(doc)].some((p) => doomed.has(p))) {
          throw new EngineError('DOCUMENT_SIGNED', 'A page to delete shows a signed signature field: deleting it would remove the signature. Clear the signature first (DELETE .../fields/signature-fields/{name}) if that is what you want');
        }
        rearrange(doc, all.filter((i) => !doomed.has(i)));
        break;
      }
      case 'extract':
        extractPages(doc, parsePageRange(operation.pageRange, count), signed);
        // The extract is a new document (savePath is required): written in full, since appending would keep every page of the
        // source in its earlier revision.
        if (signed) return withSummary(doc, opened, { bytes: saveFull(doc), pageCount: doc.countPages() });
        break;
      case 'move': {
        const moving = parsePageRange(operation.pageRange, count);
        const staying = all.filter((i) => !moving.includes(i));
        if (operation.toIndex < 0 || operation.toIndex > staying.length) {
          throw new EngineError('PAGE_OUT_OF_RANGE', `toIndex ${operation.toIndex} is outside 0 to ${staying.length} (the positions the ${moving.length} moved pages can take)`);
        }
        rearrange(doc, [...staying.slice(0, operation.toIndex), ...moving, ...staying.slice(operation.toIndex)]);
        break;
      }
      case 'rotate': {
        const by = checkRotation(operation.rotation);
        for (const i of parsePageRange(operation.pageRange, count)) {
          const page = doc.findPage(i);
          const current = deref(page.getInheritable('Rotate'));
          const was = current.isNumber() ? current.asNumber() : 0;
          page.put('Rotate', doc.newInteger((((was + by) % 360) + 360) % 360));
        }
        break;
      }
      case 'newPage': {
        const at = operation.pageIndex ?? count;
        if (at < 0 || at > count) throw new EngineError('PAGE_OUT_OF_RANGE', `pageIndex ${at} is outside 0 to ${count} (the positions a new page can take)`);
        const like = at > 0 ? pageSize(doc, at - 1) : count > 0 ? pageSize(doc, 0) : US_LETTER;
        const width = operation.width ?? like.width;
        const height = operation.height ?? like.height;
        const page = doc.addPage([0, 0, width, height], 0, doc.newDictionary(), '');
        doc.insertPage(at, page);
        break;
      }
      case 'insert': {
        const at = operation.pageIndex ?? count;
        if (at < 0 || at > count) throw new EngineError('PAGE_OUT_OF_RANGE', `pageIndex ${at} is outside 0 to ${count} (the positions inserted pages can take)`);
        // The pages of the other document are taken out of it: that needs its permission to assemble.
        // Not through withPdf: only the open's errors are renamed for the document to insert.
        let source;
        try {
          source = openPdf(operation.source, operation.sourcePassword, 'assemble');
        } catch (err) {
          // Say which document the problem is with: the one whose pages are being inserted.
          if (err instanceof EngineError) throw new EngineError(err.code, `The document to insert: ${err.message}${err.code.startsWith('DOCUMENT_PASSWORD') ? ' (send it in appendPassword)' : ''}`, err.extra);
          throw err;
        }
        try {
          const selected = parsePageRange(operation.pageRange, source.doc.countPages());
          insertPages(doc, source.doc, selected, at);
        } finally {
          source.doc.destroy();
        }
        break;
      }
    }
    return withSummary(doc, opened, { bytes: save(), pageCount: doc.countPages() });
  });
}

