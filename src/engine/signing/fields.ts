/**
 * Creating and deleting signature fields (docs/signing.md), and clearing the
 * signatures of a document that becomes a new one (an extract).
 */
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { breakFieldLoops, readFormFields } from '../forms/field-tree.js';
import { editPdf } from '../core/document-task.js';
import { checkPageIndex, type OpenedPdf } from '../core/open.js';
import { requirePermission } from '../core/access.js';
import { deref } from '../core/mupdf-objects.js';
import { setEmptyAppearance } from './appearance.js';
import type { Rectangle } from '../syntax/geometry.js';
import { type PdfSource } from '../core/pdf-source.js';
import { certifyingSignature, listSignatureFields, LOCKED, notFound, PRINT, signatureFields, type SignatureFieldModel } from './verify.js';

export function checkNewName(doc: mupdf.PDFDocument, fieldName: string): void {
  if (fieldName.includes('.')) {
    throw new EngineError('VALIDATION_FAILED', `A new signature field's name cannot contain "." (dots separate the names of parent fields): ${JSON.stringify(fieldName)}`);
  }
  if (readFormFields(doc).some((f) => f.name === fieldName || f.name.startsWith(`${fieldName}.`))) {
    throw new EngineError('FIELD_EXISTS', `A field named ${JSON.stringify(fieldName)} already exists`, { field: fieldName });
  }
}

/** Creating or removing fields modifies the form: with the user password that needs "modify annotations" and "change the document" (ISO 32000-1 table 22, bits 4 and 6). */
export function requireFormEditing(opened: OpenedPdf): void {
  requirePermission(opened, 'annotate');
  requirePermission(opened, 'edit');
}

/** A certification at level 1 allows no change at all (ISO 32000-1 12.8.2.2). */
function refuseIfLocked(doc: mupdf.PDFDocument, what: string): void {
  const cert = certifyingSignature(doc);
  if (cert?.level === 1) throw new EngineError('DOCUMENT_CERTIFIED', `The document is certified with "no changes allowed" (DocMDP level 1): ${what} would break its certification`);
}

export function acroForm(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const root = deref(doc.getTrailer().get('Root'));
  let form = root.get('AcroForm');
  if (!deref(form).isDictionary()) {
    form = doc.addObject(doc.newDictionary());
    root.put('AcroForm', form);
  }
  const resolved = deref(form);
  if (!deref(resolved.get('Fields')).isArray()) resolved.put('Fields', doc.newArray());
  return resolved;
}

export interface NewWidget {
  pageIndex: number;
  rectangle: Rectangle;
}

/**
 * Adds an unsigned signature field: one widget per entry, or with none an
 * invisible widget (zero rectangle, on the first page, as ISO 32000-2
 * 12.7.5.5 suggests for signatures that are not shown). Answers the field.
 */
export function addSignatureField(doc: mupdf.PDFDocument, fieldName: string, widgets: NewWidget[]): mupdf.PDFObject {
  for (const w of widgets) checkPageIndex(doc, w.pageIndex);
  const placed = widgets.length > 0 ? widgets : [{ pageIndex: 0, rectangle: { x: 0, y: 0, width: 0, height: 0 } }];
  const invisible = widgets.length === 0;
  const field = doc.addObject(doc.newDictionary());
  field.put('FT', doc.newName('Sig'));
  field.put('T', doc.newString(fieldName));
  const widgetObjects = placed.map((w) => {
    const widget = placed.length === 1 ? field : doc.addObject(doc.newDictionary());
    widget.put('Type', doc.newName('Annot'));
    widget.put('Subtype', doc.newName('Widget'));
    const rect = doc.newArray();
    for (const v of [w.rectangle.x, w.rectangle.y, w.rectangle.x + w.rectangle.width, w.rectangle.y + w.rectangle.height]) rect.push(doc.newReal(v));
    widget.put('Rect', rect);
    widget.put('F', doc.newInteger(invisible ? PRINT | LOCKED : PRINT));
    const page = doc.findPage(w.pageIndex);
    widget.put('P', page);
    if (widget !== field) widget.put('Parent', field);
    let annots = page.get('Annots');
    if (!deref(annots).isArray()) {
      annots = doc.newArray();
      page.put('Annots', annots);
    }
    deref(annots).push(widget);
    setEmptyAppearance(doc, widget);
    return widget;
  });
  if (widgetObjects.length > 1 || widgetObjects[0] !== field) {
    const kids = doc.newArray();
    for (const w of widgetObjects) kids.push(w);
    field.put('Kids', kids);
  }
  const form = acroForm(doc);
  deref(form.get('Fields')).push(field);
  return field;
}

/** The `createSignatureField` task: 409 FIELD_EXISTS when the name is taken. Answers the new field. */
export function createSignatureField(input: { pdf: PdfSource; password?: string | undefined; name: string; widgets: NewWidget[] }): { bytes: Uint8Array; field: SignatureFieldModel } {
  return editPdf(input, 'form', (doc, { opened, save }) => {
    requireFormEditing(opened);
    breakFieldLoops(doc);
    checkNewName(doc, input.name);
    refuseIfLocked(doc, 'adding a field');
    addSignatureField(doc, input.name, input.widgets);
    const bytes = save({ appendable: true });
    return { bytes, field: describeOne(bytes, input.password, input.name) };
  });
}

export function describeOne(bytes: Uint8Array, password: string | undefined, fieldName: string): SignatureFieldModel {
  return listSignatureFields({ pdf: bytes, password, name: fieldName }).signatureFields[0]!;
}

/** Removes an object from an array by object number; answers whether it was there. */
function removeFrom(array: mupdf.PDFObject, num: number): boolean {
  const a = deref(array);
  if (!a.isArray()) return false;
  let removed = false;
  for (let i = a.length - 1; i >= 0; i--) {
    const item = a.get(i);
    if (item.isIndirect() && item.asIndirect() === num) {
      a.delete(i);
      removed = true;
    }
  }
  return removed;
}

/**
 * The `deleteSignatureField` task. An unsigned field is removed with its
 * widgets. A signed field keeps its place and widgets but loses its value:
 * the signature dictionary is unlinked, the appearance emptied, and a
 * certification made by it is withdrawn (/Perms /DocMDP). The earlier
 * revision still holds the signature (the file is appended to), so other
 * signatures stay valid.
 */
export function deleteSignatureField(input: { pdf: PdfSource; password?: string | undefined; name: string }): { bytes: Uint8Array; cleared: boolean } {
  return editPdf(input, 'form', (doc, { opened, save }) => {
    requireFormEditing(opened);
    breakFieldLoops(doc);
    const f = signatureFields(doc).find((x) => x.name === input.name);
    if (!f) throw notFound(input.name);
    const value = f.field.get('V');
    const cert = certifyingSignature(doc);
    const isCertifier = cert?.num !== undefined && value.isIndirect() && value.asIndirect() === cert.num;
    if (!isCertifier) refuseIfLocked(doc, deref(value).isDictionary() ? 'removing a signature' : 'removing a field');
    if (deref(value).isDictionary()) {
      deref(f.field).delete('V');
      for (const w of f.widgets) setEmptyAppearance(doc, deref(w));
      if (isCertifier) withdrawCertification(doc);
      return { bytes: save(), cleared: true };
    }
    const count = doc.countPages();
    for (const w of f.widgets) {
      if (!w.isIndirect()) continue;
      for (let p = 0; p < count; p++) removeFrom(doc.findPage(p).get('Annots'), w.asIndirect());
    }
    const fieldNum = f.field.isIndirect() ? f.field.asIndirect() : -1;
    const parent = deref(f.field).get('Parent');
    const form = acroForm(doc);
    if (!(deref(parent).isDictionary() && removeFrom(deref(parent).get('Kids'), fieldNum))) removeFrom(form.get('Fields'), fieldNum);
    return { bytes: save(), cleared: false };
  });
}

/**
 * Clears every signature value of a document that becomes a new one (an
 * extract): the signatures covered the source's bytes and cannot be valid
 * in it. The fields stay, unsigned, and a certification is withdrawn.
 */
export function dropSignatureValues(doc: mupdf.PDFDocument): void {
  for (const f of signatureFields(doc)) {
    if (!deref(f.field.get('V')).isDictionary()) continue;
    deref(f.field).delete('V');
    for (const w of f.widgets) setEmptyAppearance(doc, deref(w));
  }
  withdrawCertification(doc);
}

/** Removes /Perms /DocMDP, and /Perms when nothing else is left in it. */
function withdrawCertification(doc: mupdf.PDFDocument): void {
  const root = deref(doc.getTrailer().get('Root'));
  const perms = deref(root.get('Perms'));
  if (!perms.isDictionary()) return;
  perms.delete('DocMDP');
  let left = 0;
  perms.forEach(() => left++);
  if (left === 0) root.delete('Perms');
}
