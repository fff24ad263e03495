/**
 * Flattening: annotation appearances become page content (the form's fields: forms/flatten.ts, with these helpers). MuPDF's
 * bake() does the painting (each appearance as a form XObject placed on its
 * /Rect, hidden annotations skipped, popups dropped, links kept, the AcroForm
 * removed after widgets). What it does not decide for us is which
 * annotations to paint: bake() paints non-printing ones too, and every push
 * button; so those are removed first as the options say, and appearances
 * that are missing or stale (NeedAppearances) are generated first, so no
 * value is lost.
 */
import * as mupdf from 'mupdf';
import { redrawAll } from './redraw.js';
import { editPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { deref, name } from '../core/mupdf-objects.js';
import type { PdfSource } from '../core/pdf-source.js';

/** Annotation flags (ISO 32000-1, table 165). */
export const HIDDEN = 1 << 1;
export const PRINT = 1 << 2;

export interface FlattenAnnotationsOptions {
  paintNonPrintableAnnots?: boolean | undefined;
  keepLinks?: boolean | undefined;
}

export function flagsOf(annot: mupdf.PDFObject): number {
  const f = deref(annot.get('F'));
  return f.isNumber() ? f.asNumber() : 0;
}

/** Removes the entries of a page's /Annots for which `drop` says so. */
export function dropAnnotations(doc: mupdf.PDFDocument, pageIndex: number, drop: (annot: mupdf.PDFObject) => boolean): void {
  const annots = deref(doc.findPage(pageIndex).get('Annots'));
  if (!annots.isArray()) return;
  for (let i = annots.length - 1; i >= 0; i--) {
    const annot = deref(annots.get(i));
    if (annot.isDictionary() && drop(annot)) annots.delete(i);
  }
}

/** Generates the appearance of annotations (or widgets) that have none, or of every widget when the form asks for it. */
export function generateAppearances(doc: mupdf.PDFDocument, widgets: boolean, all: boolean): void {
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
 * The `flattenAnnotations` task: every annotation other than widgets (and,
 * unless `keepLinks` is false, links) has its appearance painted into the
 * page and is removed. Popups go; hidden annotations are not painted;
 * non-printing ones only with `paintNonPrintableAnnots`. Annotations MuPDF
 * can draw no appearance for and that have none show nothing and are
 * removed too.
 */
export function flattenAnnotations(input: { pdf: PdfSource; password?: string | undefined; options: FlattenAnnotationsOptions }): { bytes?: Uint8Array; summary?: WrittenSummary } {
  const { options } = input;
  return editPdf(input, 'edit', (doc, { save, opened }) => {
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
    if (!any) return withSummary(doc, opened, {});
    for (let p = 0; p < count; p++) {
      dropAnnotations(doc, p, (a) => !kept(a) && ((flagsOf(a) & HIDDEN) !== 0 || (!(flagsOf(a) & PRINT) && !options.paintNonPrintableAnnots)));
    }
    generateAppearances(doc, false, false);
    doc.bake(true, false);
    // What bake() left (no appearance could be made, or links when they are not kept) is removed.
    for (let p = 0; p < count; p++) dropAnnotations(doc, p, (a) => !kept(a));
    return withSummary(doc, opened, { bytes: save() });
  });
}
