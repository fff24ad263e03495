/**
 * FlattenFieldsAction's task: field appearances become page content, and the
 * fields and the AcroForm go. The painting and the helpers are those of
 * annotation flattening (annotations/flatten.ts): bake() paints, and what it
 * should not paint is removed first.
 */
import type * as mupdf from 'mupdf';
import { breakFieldLoops, readFormFields, selectedIndexes } from './field-tree.js';
import { highlightListSelection } from './field-values.js';
import { dropAnnotations, flagsOf, generateAppearances, HIDDEN, PRINT } from '../annotations/flatten.js';
import { withPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { deref, inheritable, name } from '../core/mupdf-objects.js';
import { refuseIfSigned, saveFull } from '../core/save.js';
import type { PdfSource } from '../core/pdf-source.js';

/** /Ff bit of push buttons. */
const PUSHBUTTON = 1 << 16;

export interface FlattenFieldsOptions {
  paintButtons?: boolean | undefined;
  paintOnlyImageButtons?: boolean | undefined;
  paintNonPrintableFields?: boolean | undefined;
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

/**
 * The `flattenFields` task: every field's appearance becomes page content,
 * and the fields and the AcroForm (with any XFA) are removed. Push buttons
 * are painted only with `paintButtons` (only those showing an image with
 * `paintOnlyImageButtons`); widgets without the print flag are dropped
 * unless `paintNonPrintableFields`; hidden widgets are never painted.
 */
export function flattenFields(input: { pdf: PdfSource; password?: string | undefined; options: FlattenFieldsOptions }): { bytes?: Uint8Array; summary?: WrittenSummary } {
  const { options } = input;
  return withPdf(input, 'edit', (doc, opened) => {
    const root = deref(doc.getTrailer().get('Root'));
    const form = deref(root.get('AcroForm'));
    if (!form.isDictionary()) return withSummary(doc, opened, {});
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
    return withSummary(doc, opened, { bytes: saveFull(doc) });
  });
}
