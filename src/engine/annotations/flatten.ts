/**
 * Flattening: annotation and field appearances become page content. MuPDF's
 * bake() does the painting (each appearance as a form XObject placed on its
 * /Rect, hidden annotations skipped, popups dropped, links kept, the AcroForm
 * removed after widgets). What it does not decide for us is which
 * annotations to paint: bake() paints non-printing ones too, and every push
 * button; so those are removed first as the options say, and appearances
 * that are missing or stale (NeedAppearances) are generated first, so no
 * value is lost.
 */
import * as mupdf from 'mupdf';
import { breakFieldLoops, readFormFields, selectedIndexes } from '../forms/field-tree.js';
import { highlightListSelection } from '../forms/field-values.js';
import { redrawAll } from './redraw.js';
import { editPdf, withPdf } from '../core/document-task.js';
import { deref, inheritable, name } from '../core/mupdf-objects.js';
import { refuseIfSigned, saveFull } from '../core/save.js';
import type { PdfSource } from '../core/pdf-source.js';

/** Annotation flags (ISO 32000-1, table 165). */
const HIDDEN = 1 << 1;
const PRINT = 1 << 2;
/** /Ff bit of push buttons. */
const PUSHBUTTON = 1 << 16;

export interface FlattenFieldsOptions {
  paintButtons?: boolean | undefined;
  paintOnlyImageButtons?: boolean | undefined;
  paintNonPrintableFields?: boolean | undefined;
}

export interface FlattenAnnotationsOptions {
  paintNonPrintableAnnots?: boolean | undefined;
  keepLinks?: boolean | undefined;
}

function flagsOf(annot: mupdf.PDFObject): number {
  const f = deref(annot.get('F'));
  return f.isNumber() ? f.asNumber() : 0;
}

/** Removes the entries of a page's /Annots for which `drop` says so. */
function dropAnnotations(doc: mupdf.PDFDocument, pageIndex: number, drop: (annot: mupdf.PDFObject) => boolean): void {
  const annots = deref(doc.findPage(pageIndex).get('Annots'));
  if (!annots.isArray()) return;
  for (let i = annots.length - 1; i >= 0; i--) {
    const annot = deref(annots.get(i));
    if (annot.isDictionary() && drop(annot)) annots.delete(i);
  }
}

function isPushButton(widget: mupdf.PDFObject): boolean {
  if (name(inheritable(widget, 'FT')) !== 'Btn') return false;
  const ff = deref(inheritable(widget, 'Ff'));
  return ff.isNumber() && (ff.asNumber() & PUSHBUTTON) !== 0;
}

/** A push button shows an image when its /MK has an icon (/I) or its appearance draws one. */
function hasImage(widget: mupdf.PDFObject): boolean {
  const mk = deref(widget.get('MK'));
  if (mk.isDictionary() && !mk.get('I').isNull()) return true;
  const normal = deref(deref(widget.get('AP')).get('N'));
  if (!normal.isStream()) return false;
  const resources = deref(deref(normal).get('Resources'));
  const xobjects = resources.isDictionary() ? deref(resources.get('XObject')) : undefined;
  let image = false;
  xobjects?.forEach((x) => {
    const sub = deref(x).isDictionary() ? name(deref(x).get('Subtype')) : undefined;
    if (sub === 'Image') image = true;
  });
  return image;
}

/** Generates the appearance of annotations (or widgets) that have none, or of every widget when the form asks for it. */
function generateAppearances(doc: mupdf.PDFDocument, widgets: boolean, all: boolean): void {
  const count = doc.countPages();
  for (let p = 0; p < count; p++) {
    const annots = deref(doc.findPage(p).get('Annots'));
    if (!annots.isArray() || annots.length === 0) continue;
    let needed = all;
    for (let i = 0; i < annots.length && !needed; i++) {
      const a = deref(annots.get(i));
      if (a.isDictionary() && (name(a.get('Subtype')) === 'Widget') === widgets && a.get('AP').isNull()) needed = true;
    }
    if (!needed) continue;
    const page = doc.loadPage(p);
    const list: mupdf.PDFAnnotation[] = widgets ? page.getWidgets() : page.getAnnotations();
    redrawAll(list.filter((annot) => all || annot.getObject().get('AP').isNull()));
    page.destroy();
  }
}

/**
 * The `flattenFields` task: every field's appearance becomes page content,
 * and the fields and the AcroForm (with any XFA) are removed. Push buttons
 * are painted only with `paintButtons` (only those showing an image with
 * `paintOnlyImageButtons`); widgets without the print flag are dropped
 * unless `paintNonPrintableFields`; hidden widgets are never painted.
 */
export function flattenFields(input: { pdf: PdfSource; password?: string | undefined; options: FlattenFieldsOptions }): { bytes?: Uint8Array } {
  const { options } = input;
  return withPdf(input, 'edit', (doc) => {
    const root = deref(doc.getTrailer().get('Root'));
    const form = deref(root.get('AcroForm'));
    if (!form.isDictionary()) return {};
    refuseIfSigned(doc, 'flattening the form removes its signature fields, and with them the signatures');
    breakFieldLoops(doc);
    const count = doc.countPages();
    // An empty signature field shows nothing in a viewer; MuPDF would draw a "sign here" tab for it.
    for (let p = 0; p < count; p++) {
      dropAnnotations(doc, p, (a) => name(a.get('Subtype')) === 'Widget' && name(inheritable(a, 'FT')) === 'Sig' && a.get('AP').isNull() && !deref(inheritable(a, 'V')).isDictionary());
    }
    const needAppearances = deref(form.get('NeedAppearances'));
    generateAppearances(doc, true, needAppearances.isBoolean() && needAppearances.asBoolean());
    // MuPDF draws a list box's options without marking the selected ones: mark them as viewers do.
    for (const f of readFormFields(doc)) if (f.type === 'list') for (const w of f.widgets) highlightListSelection(w, selectedIndexes(f));
    for (let p = 0; p < count; p++) {
      dropAnnotations(doc, p, (a) => {
        if (name(a.get('Subtype')) !== 'Widget') return false;
        const flags = flagsOf(a);
        if (flags & HIDDEN) return true;
        if (!(flags & PRINT) && !options.paintNonPrintableFields) return true;
        if (isPushButton(a)) return !options.paintButtons || (options.paintOnlyImageButtons === true && !hasImage(a));
        return false;
      });
    }
    doc.bake(false, true);
    // Widgets that were left out of the painting go with the form they belonged to.
    for (let p = 0; p < count; p++) dropAnnotations(doc, p, (a) => name(a.get('Subtype')) === 'Widget');
    root.delete('AcroForm');
    return { bytes: saveFull(doc) };
  });
}

/**
 * The `flattenAnnotations` task: every annotation other than widgets (and,
 * unless `keepLinks` is false, links) has its appearance painted into the
 * page and is removed. Popups go; hidden annotations are not painted;
 * non-printing ones only with `paintNonPrintableAnnots`. Annotations MuPDF
 * can draw no appearance for and that have none show nothing and are
 * removed too.
 */
export function flattenAnnotations(input: { pdf: PdfSource; password?: string | undefined; options: FlattenAnnotationsOptions }): { bytes?: Uint8Array } {
  const { options } = input;
  return editPdf(input, 'edit', (doc, { save }) => {
    const count = doc.countPages();
    const keepLinks = options.keepLinks !== false;
    const kept = (a: mupdf.PDFObject) => {
      const subtype = name(a.get('Subtype'));
      return subtype === 'Widget' || (keepLinks && subtype === 'Link');
    };
    let any = false;
    for (let p = 0; p < count && !any; p++) {
      const annots = deref(doc.findPage(p).get('Annots'));
      if (annots.isArray()) for (let i = 0; i < annots.length && !any; i++) any = deref(annots.get(i)).isDictionary() && !kept(deref(annots.get(i)));
    }
    if (!any) return {};
    for (let p = 0; p < count; p++) {
      dropAnnotations(doc, p, (a) => !kept(a) && ((flagsOf(a) & HIDDEN) !== 0 || (!(flagsOf(a) & PRINT) && !options.paintNonPrintableAnnots)));
    }
    generateAppearances(doc, false, false);
    doc.bake(true, false);
    // What bake() left (no appearance could be made, or links when they are not kept) is removed.
    for (let p = 0; p < count; p++) dropAnnotations(doc, p, (a) => !kept(a));
    return { bytes: save() };
  });
}
