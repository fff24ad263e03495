/**
 * A stamp is one form XObject, drawn by every page it is put on: its fonts
 * and images are stored once per document however many pages show it. It is
 * built in a scratch document first, so that MuPDF's font subsetting sees the
 * stamp's fonts alone (subsetting the target would also cut down the fonts it
 * already has, which form fields may still need), then grafted into the target.
 */
import * as mupdf from 'mupdf';
import { freeName, ownResources, PageOverlay } from '../pages/overlay.js';
import { pdfNumber } from './geometry.js';

export interface StampDrawing {
  /** Content operators in the page's default user space. */
  content: string;
  /** Where the drawing may put ink, in default user space (the form's /BBox). */
  bbox: mupdf.Rect;
  /** The drawing's resources, made in the scratch document. */
  resources: mupdf.PDFObject;
  /** Whether it embeds font programs (to subset). */
  embedsFonts: boolean;
}

/**
 * An ExtGState for a transparency (0 opaque to 1 invisible) in `resources`,
 * and the operator that selects it; nothing for an opaque stamp.
 */
export function alphaState(scratch: mupdf.PDFDocument, resources: mupdf.PDFObject, transparency: number): string {
  if (transparency <= 0) return '';
  // Resources shared by several drawings of one transparency (page numbers) hold the state once.
  if (resources.get('ExtGState').isDictionary()) return '/GS0 gs';
  const state = scratch.newDictionary();
  state.put('Type', scratch.newName('ExtGState'));
  state.put('ca', scratch.newReal(1 - transparency));
  state.put('CA', scratch.newReal(1 - transparency));
  const states = scratch.newDictionary();
  states.put('GS0', scratch.addObject(state));
  resources.put('ExtGState', states);
  return '/GS0 gs';
}

/** The drawing as a form XObject of the scratch document, its fonts subset. */
export function buildForm(scratch: mupdf.PDFDocument, drawing: StampDrawing): mupdf.PDFObject {
  return buildForms(scratch, [drawing])[0]!;
}

/**
 * The drawings as form XObjects of the scratch document, its fonts subset once for all of them (drawings that share
 * their fonts, as page numbers do, keep one subset with the glyphs of every one).
 */
function buildForms(scratch: mupdf.PDFDocument, drawings: readonly StampDrawing[]): mupdf.PDFObject[] {
  const forms = drawings.map((drawing) => {
    const dict = scratch.newDictionary();
    dict.put('Type', scratch.newName('XObject'));
    dict.put('Subtype', scratch.newName('Form'));
    const bbox = scratch.newArray();
    for (const v of drawing.bbox) bbox.push(scratch.newReal(Number(pdfNumber(v))));
    dict.put('BBox', bbox);
    dict.put('Resources', drawing.resources);
    return scratch.addStream(drawing.content, dict);
  });
  if (drawings.some((d) => d.embedsFonts)) {
    // subsetFonts() works on what pages draw: give the forms a page.
    const xobjects = scratch.newDictionary();
    forms.forEach((form, i) => xobjects.put(`S${i}`, form));
    const resources = scratch.newDictionary();
    resources.put('XObject', xobjects);
    scratch.insertPage(-1, scratch.addPage([0, 0, 1, 1], 0, resources, forms.map((_, i) => `/S${i} Do`).join('\n')));
    scratch.subsetFonts();
  }
  return forms;
}

/**
 * Puts the drawing on the given pages of `doc`: one form XObject, named on
 * each page by a resource name that page does not use yet, drawn after the
 * page's own content.
 */
export function stampPages(doc: mupdf.PDFDocument, scratch: mupdf.PDFDocument, drawing: StampDrawing, pages: number[]): void {
  stampEach(doc, scratch, [{ drawing, pages }]);
}

/**
 * stampPages for several drawings, each on its own pages (page numbers: a drawing per page). They are grafted into
 * `doc` in one call, so what they share (fonts) is copied once.
 */
export function stampEach(doc: mupdf.PDFDocument, scratch: mupdf.PDFDocument, items: readonly { drawing: StampDrawing; pages: readonly number[] }[]): void {
  // Every page object is found before any is changed: a change drops MuPDF's map of the page tree, which the next
  // findPage would rebuild from every page (the time grew with the square of the pages).
  const pageObjs = items.map((item) => item.pages.map((index) => doc.findPage(index)));
  const built = buildForms(scratch, items.map((i) => i.drawing));
  const list = scratch.newArray();
  for (const form of built) list.push(form);
  const forms = doc.graftObject(list);
  const overlay = new PageOverlay(doc, { artifacts: true });
  // Pages that can use the same name share one drawing stream too (`/Stamp Do`: each page's resources say which form).
  const drawings = new Map<string, mupdf.PDFObject>();
  items.forEach((_, i) => {
    const form = forms.get(i);
    for (const pageObj of pageObjs[i]!) {
      const xobjects = ownResources(doc, pageObj, 'XObject');
      const name = freeName(xobjects, 'Stamp');
      xobjects.put(name, form);
      let stream = drawings.get(name);
      if (!stream) {
        stream = overlay.drawing(`/${name} Do`);
        drawings.set(name, stream);
      }
      overlay.attach(pageObj, stream);
    }
  });
}
