import type * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import { deref, inheritable, name, text } from '../core/mupdf-objects.js';
import { dropNameTree, nameTreeRoot, walkNameTree } from '../core/name-tree.js';
import { pdfDate } from '../syntax/dates.js';
import type { OutputFile, PdfSource } from '../core/pdf-source.js';
import { validateUpload } from '../core/inspect.js';
import { refuseIfSigned, saveFullTo } from '../core/save.js';
import { redrawAll } from '../annotations/redraw.js';
import { finishPdfa, pdfaHeader } from './finish.js';
import { StandardFontEmbedder } from './fonts.js';
import { dropInterpolation, reencodeJpxImages } from './jpx.js';
import { scaleLargeShadings } from './shadings.js';
import { dropNotdefCodes } from './notdef.js';
import { scaleLargeCoordinates } from './coordinates.js';
import { fontDescriptorTypes, part1Structure, unusedCmykSpaces } from './part1.js';
import { defaultCmyk, replaceLzw } from './filters.js';
import { pdfaPageText, type PageCharacters } from './text.js';
import { SPECIFICATION, type PdfaFinding, type PdfaLocation, type PdfaPart, type PdfaPrepareOptions } from './model.js';

/**
 * The `pdfaPrepare` task, the MuPDF half of PDFAConvertAction (docs/pdfa.md,
 * the pipeline): what Ghostscript does not do for PDF/A, or does in a way we
 * do not want, is done here first, on the decrypted document:
 *
 * - annotations the part forbids are deleted (unsupportedAnnots 0) or found
 *   (1); hidden ones are deleted (PDF/A makes every annotation printable and
 *   visible, which would show what the author hid); the rest get the Print
 *   flag, an appearance where they have none (MuPDF draws it; an empty one
 *   where it cannot) and only a normal appearance; in PDF/A-1 their CA is 1;
 * - embedded files (and FileAttachment annotations) are deleted for parts 1
 *   and 2 (embeddedFiles 0) or found (1); part 3 keeps them with F, UF,
 *   AFRelationship, a MIME subtype and the catalog's /AF;
 * - JavaScript and the actions the parts forbid (Launch, Sound, Movie,
 *   ResetForm, ImportData, Hide, SetOCGState, Rendition, Trans, GoTo3DView,
 *   named actions other than page turns) and every additional-action (AA)
 *   dictionary are removed; links keep their rectangle;
 * - forms: widgets without appearance get one, NeedAppearances and XFA go;
 * - optional content: in parts 2 and 3 each configuration gets a Name and
 *   loses AS; in part 1 (which forbids it) content hidden by default is left to
 *   Ghostscript, which draws what the default configuration shows;
 * - transparency in PDF/A-1 is found, to refuse it (transparency 1); made
 *   opaque by Ghostscript otherwise.
 *
 * A signed document is refused (409 DOCUMENT_SIGNED): the conversion
 * rewrites it, which would invalidate its signatures. Measured: 5-40 ms for
 * the corpus files, nothing next to Ghostscript's run.
 */
export function pdfaPrepare(input: { pdf: PdfSource; password?: string | undefined; out: OutputFile; finish?: 'B' | 'U' | undefined } & PdfaPrepareOptions): PdfaPrepared {
  // Converting removes the encryption: that is the owner's decision, as for SetSecurity.
  return withPdf(input, 'owner', (doc) => {
    refuseIfSigned(doc, 'PDF/A conversion rewrites the whole document, which invalidates its signatures');
    const work = new Preparation(doc, input);
    work.run();
    const facts = { findings: work.findingList(), changes: work.changes, transparencyFound: work.transparencyFound, fontsNotEmbedded: work.fontsNotEmbedded.size, pageCount: doc.countPages() };
    // Refused by the options: nothing more is needed, nothing written.
    if (facts.findings.length) return { ...facts, size: 0, finished: false };
    // The output goes to the caller's file straight from MuPDF's memory (saveFullTo): a large document's output is
    // never a copy in this worker nor sent to the main thread (issue 35, item 8), and is read back from the file.
    // The MuPDF path on the document already open (finish.ts), saved once; its summary read here too (the runner would
    // otherwise open the output again).
    if (input.finish && facts.fontsNotEmbedded === 0) {
      finishPdfa(doc, input.part, input.finish);
      // MuPDF leaves the XML metadata stream uncompressed (PDF/A-1 forbids a filter on it), as finish.ts needs.
      const size = saveFullTo(doc, input.out, { extra: 'encrypt=none', patch: pdfaHeader });
      return { ...facts, size, finished: true, summary: validateUpload({ pdf: { fd: input.out.fd, size } }) };
    }
    // For Ghostscript: the prepared document, and its text (the text check's "before", text.ts) read from that file
    // in this worker.
    const size = saveFullTo(doc, input.out, { extra: 'encrypt=none' });
    return { ...facts, size, finished: false, pageText: pdfaPageText({ pdf: { fd: input.out.fd, size } }).pages };
  });
}

export interface PdfaPrepared {
  /**
   * The size written to the task's output file (`out`): the document prepared for Ghostscript, unencrypted; or,
   * `finished`, the MuPDF path's output. 0 with findings (nothing written).
   */
  size: number;
  /** The output is the MuPDF path's PDF/A output (asked for with `finish`, and every font is embedded). */
  finished: boolean;
  /** Finished: the output's page count and DocumentInfo, as the runner would read them. */
  summary?: ReturnType<typeof validateUpload>;
  /** Not finished: each page's characters, for the text check after Ghostscript. */
  pageText?: PageCharacters[];
  /** What the options say to fail on (empty when the conversion may go on). */
  findings: PdfaFinding[];
  /** What was changed, in words, with counts (the action's report). */
  changes: string[];
  /** Whether PDF/A-1 transparency was found (made opaque, or a finding). */
  transparencyFound: boolean;
  /** Fonts used without their font program (the standard 14, say): Ghostscript must embed them. */
  fontsNotEmbedded: number;
  /** Its pages: what a program's rewrite of it must keep (checkToolOutput). */
  pageCount: number;
}

/**
 * Annotation types PDF/A-1 allows (ISO 19005-1, 6.5.2: those of PDF 1.4; FileAttachment is an embedded file). Polygon,
 * PolyLine and Caret came with PDF 1.5: veraPDF refuses them in 1b (corpus: annotation-polyline-polygon.pdf).
 */
const ALLOWED_1 = new Set(['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut', 'Stamp', 'Ink', 'Popup', 'Widget', 'PrinterMark', 'TrapNet']);
/** PDF/A-2 and -3 add these (ISO 19005-2, 6.3.1); 3D, Sound, Screen, Movie and types outside ISO 32000-1 stay forbidden. */
const ALLOWED_2 = new Set([...ALLOWED_1, 'Polygon', 'PolyLine', 'Caret', 'Watermark', 'Redact']);

/** Action types no part allows (ISO 19005-1 6.6.1, 19005-2 6.6.1). */
const FORBIDDEN_ACTIONS = new Set(['Launch', 'Sound', 'Movie', 'ResetForm', 'ImportData', 'JavaScript', 'Hide', 'SetOCGState', 'Rendition', 'Trans', 'GoTo3DView', 'RichMediaExecute']);
const ALLOWED_NAMED = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);

/** Annotation flags (ISO 32000-1, 12.5.3). */
const INVISIBLE = 1;
const HIDDEN = 2;
const PRINT = 4;
const NO_VIEW = 32;
const TOGGLE_NO_VIEW = 256;

class Preparation {
  readonly changes: string[] = [];
  transparencyFound = false;
  readonly fontsNotEmbedded = new Set<string>();
  private readonly fontsSeen = new Set<number>();
  private readonly embedder: StandardFontEmbedder;
  private readonly counts = new Map<string, number>();
  private readonly findings = new Map<string, PdfaFinding>();
  private readonly spec: string;
  private readonly part: PdfaPart;

  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly options: PdfaPrepareOptions,
  ) {
    this.part = options.part;
    this.spec = SPECIFICATION[options.part];
    this.embedder = new StandardFontEmbedder(doc);
  }

  run(): void {
    const catalog = deref(this.doc.getTrailer().get('Root'));
    this.embeddedFiles(catalog);
    this.catalogActions(catalog);
    this.form(catalog);
    this.optionalContent(catalog);
    // Before fonts get substitutes: the widths of the codes taken out are the document's own (a substitute's Widths
    // would give them the program's .notdef width, and move the text after them).
    for (const what of dropNotdefCodes(this.doc)) this.count(what);
    const pages = this.doc.countPages();
    for (let pageIndex = 0; pageIndex < pages; pageIndex++) this.page(pageIndex);
    if (this.part === 1) this.remainingTransparency();
    // The form's default resources: substitutes for fields a viewer draws anew; not drawn themselves, so not counted.
    const acroForm = deref(catalog.get('AcroForm'));
    if (acroForm.isDictionary()) this.fonts(deref(acroForm.get('DR')), 0, false);
    if (this.part === 1) for (const what of [...reencodeJpxImages(this.doc), ...scaleLargeShadings(this.doc), ...scaleLargeCoordinates(this.doc), ...part1Structure(this.doc), ...unusedCmykSpaces(this.doc)]) this.count(what);
    for (const what of [...dropInterpolation(this.doc), ...replaceLzw(this.doc), ...fontDescriptorTypes(this.doc)]) this.count(what);
    // PDF/A-1 readers (PDFBox Preflight) take DeviceCMYK only with a CMYK output intent: Ghostscript converts it to RGB there.
    if (this.part !== 1) for (const what of defaultCmyk(this.doc)) this.count(what);
    for (const [what, count] of this.counts) this.changes.push(`${what}: ${count}`);
  }

  findingList(): PdfaFinding[] {
    return [...this.findings.values()];
  }

  private count(what: string): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
  }

  private find(key: { clause: string; testNumber: number; description: string }, location: PdfaLocation): void {
    const id = `${key.clause}-${key.testNumber}`;
    let finding = this.findings.get(id);
    if (!finding) {
      finding = { specification: this.spec, clause: key.clause, testNumber: key.testNumber, description: key.description, failedChecks: 0, locations: [] };
      this.findings.set(id, finding);
    }
    finding.failedChecks++;
    if (finding.locations.length < 10) finding.locations.push(location);
  }

  // ---- embedded files ----

  private embeddedFiles(catalog: mupdf.PDFObject): void {
    // Every pair, a name met twice too: each file specification is fixed, or counted as deleted.
    const entries: { name: string; spec: mupdf.PDFObject }[] = [];
    const tree = nameTreeRoot(this.doc, 'EmbeddedFiles');
    if (tree) walkNameTree(tree, ({ name, value }) => entries.push({ name: name ?? '', spec: value }));
    if (this.part === 3) {
      const af = this.afArray(catalog);
      for (const entry of entries) this.fixFileSpec(entry.spec, entry.name, af);
      return;
    }
    if (!entries.length) return;
    if (this.options.embeddedFiles === 1) {
      for (const entry of entries) this.find(embeddedRule(this.part), { objectNumber: objectNumber(entry.spec), context: `embedded file ${JSON.stringify(entry.name.slice(0, 100))}` });
      return;
    }
    dropNameTree(this.doc, 'EmbeddedFiles');
    catalog.delete('AF');
    for (let i = 0; i < entries.length; i++) this.count('embedded files deleted');
  }

  private afArray(catalog: mupdf.PDFObject): mupdf.PDFObject {
    let af = deref(catalog.get('AF'));
    if (!af.isArray()) {
      af = this.doc.newArray();
      catalog.put('AF', af);
    }
    return af;
  }

  /** PDF/A-3 (ISO 19005-3, 6.8): F and UF, an AFRelationship, a MIME subtype and a modification date; listed in /AF. */
  private fixFileSpec(specRef: mupdf.PDFObject, fallbackName: string, af: mupdf.PDFObject): void {
    const spec = deref(specRef);
    if (!spec.isDictionary()) return;
    const fileName = text(spec.get('UF')) ?? text(spec.get('F')) ?? fallbackName;
    if (spec.get('F').isNull()) spec.put('F', this.doc.newString(fileName));
    if (spec.get('UF').isNull()) spec.put('UF', this.doc.newString(fileName));
    if (spec.get('AFRelationship').isNull()) spec.put('AFRelationship', this.doc.newName('Unspecified'));
    const ef = deref(spec.get('EF'));
    const stream = ef.isDictionary() ? ef.get('F') : undefined;
    if (stream?.isStream()) {
      if (stream.get('Subtype').isNull()) stream.put('Subtype', this.doc.newName('application/octet-stream'));
      let params = deref(stream.get('Params'));
      if (!params.isDictionary()) {
        params = this.doc.newDictionary();
        stream.put('Params', params);
      }
      if (params.get('ModDate').isNull()) params.put('ModDate', this.doc.newString(pdfDate(new Date())));
    }
    if (specRef.isIndirect()) {
      let listed = false;
      af.forEach((item) => {
        if (item.isIndirect() && item.asIndirect() === specRef.asIndirect()) listed = true;
      });
      if (!listed) af.push(specRef);
    }
    this.count('embedded files kept with AFRelationship (PDF/A-3)');
  }

  // ---- actions ----

  private catalogActions(catalog: mupdf.PDFObject): void {
    if (!catalog.get('AA').isNull()) {
      catalog.delete('AA');
      this.count('additional actions removed');
    }
    const open = deref(catalog.get('OpenAction'));
    if (open.isDictionary() && this.forbiddenAction(open)) {
      catalog.delete('OpenAction');
      this.count('actions removed');
    }
    if (dropNameTree(this.doc, 'JavaScript')) this.count('document JavaScript removed');
    const outlines = deref(catalog.get('Outlines'));
    if (outlines.isDictionary()) this.outline(deref(outlines.get('First')), new Set());
  }

  private outline(item: mupdf.PDFObject, seen: Set<number>): void {
    while (item.isDictionary()) {
      const id = objectNumber(item);
      if (id !== undefined) {
        if (seen.has(id)) return;
        seen.add(id);
      }
      this.cleanAction(item, 'A');
      this.outline(deref(item.get('First')), seen);
      item = deref(item.get('Next'));
    }
  }

  /** Removes `owner[key]` when it is a forbidden action; drops chained /Next actions (what they run is not checked). */
  private cleanAction(owner: mupdf.PDFObject, key: string): void {
    this.cleanDestination(owner, 'Dest');
    const action = deref(owner.get(key));
    if (!action.isDictionary()) return;
    if (name(action.get('S')) === 'GoTo' && missingPage(action.get('D'))) {
      owner.delete(key);
      this.count('links to missing pages removed');
    } else if (this.forbiddenAction(action)) {
      owner.delete(key);
      this.count('actions removed');
    } else if (!action.get('Next').isNull()) {
      action.delete('Next');
      this.count('chained actions removed');
    }
  }

  /**
   * A destination naming a page that is gone (null after an incremental update removed it): readers ignore it, PDFBox
   * Preflight refuses the file (1.2.3). Ghostscript drops such links; the MuPDF path keeps the document, so here.
   */
  private cleanDestination(owner: mupdf.PDFObject, key: string): void {
    if (!missingPage(owner.get(key))) return;
    owner.delete(key);
    this.count('links to missing pages removed');
  }

  private forbiddenAction(action: mupdf.PDFObject): boolean {
    const type = name(action.get('S'));
    if (type === undefined) return false;
    if (FORBIDDEN_ACTIONS.has(type)) return true;
    if (type === 'Named') return !ALLOWED_NAMED.has(name(action.get('N')) ?? '');
    return false;
  }

  // ---- forms and optional content ----

  private form(catalog: mupdf.PDFObject): void {
    const acroForm = deref(catalog.get('AcroForm'));
    if (!acroForm.isDictionary()) return;
    if (!acroForm.get('XFA').isNull()) {
      acroForm.delete('XFA');
      this.count('XFA form data removed (the AcroForm fields stay)');
    }
    // PDF/A forbids NeedAppearances: widgets without appearances are drawn here instead (page()); stored ones are kept,
    // although a viewer would have drawn them anew. Drawing them all was tried: MuPDF drew characters the fields' fonts
    // lack as .notdef, which PDF/A forbids (qpdf/forms/form.pdf), where the stored appearances passed.
    if (!acroForm.get('NeedAppearances').isNull()) acroForm.delete('NeedAppearances');
    const fields = deref(acroForm.get('Fields'));
    if (fields.isArray()) this.fieldActions(fields, new Set());
  }

  private fieldActions(kids: mupdf.PDFObject, seen: Set<number>): void {
    kids.forEach((ref) => {
      const field = deref(ref);
      const id = objectNumber(ref);
      if (!field.isDictionary() || (id !== undefined && seen.has(id))) return;
      if (id !== undefined) seen.add(id);
      if (!field.get('AA').isNull()) {
        field.delete('AA');
        this.count('additional actions removed');
      }
      const children = deref(field.get('Kids'));
      if (children.isArray()) this.fieldActions(children, seen);
    });
  }

  private optionalContent(catalog: mupdf.PDFObject): void {
    const properties = deref(catalog.get('OCProperties'));
    if (!properties.isDictionary() || this.part === 1) return;
    const fix = (config: mupdf.PDFObject, fallback: string) => {
      if (!config.isDictionary()) return;
      if (config.get('Name').isNull()) config.put('Name', this.doc.newString(fallback));
      if (!config.get('AS').isNull()) {
        config.delete('AS');
        this.count('optional content usage (AS) entries removed');
      }
    };
    fix(deref(properties.get('D')), 'Default');
    // An Order array lists every optional content group (ISO 19005-2, 6.9): the missing ones are appended.
    const groups = deref(properties.get('OCGs'));
    const complete = (config: mupdf.PDFObject) => {
      const order = config.isDictionary() ? deref(config.get('Order')) : undefined;
      if (!order?.isArray() || !groups.isArray()) return;
      const listed = new Set<number>();
      const collect = (array: mupdf.PDFObject, depth: number) => {
        if (depth > 16) return;
        array.forEach((item) => {
          if (item.isIndirect()) listed.add(item.asIndirect());
          if (deref(item).isArray()) collect(deref(item), depth + 1);
        });
      };
      collect(order, 0);
      groups.forEach((group) => {
        if (group.isIndirect() && !listed.has(group.asIndirect())) {
          order.push(group);
          this.count('optional content groups added to Order');
        }
      });
    };
    complete(deref(properties.get('D')));
    const configs = deref(properties.get('Configs'));
    if (configs.isArray()) {
      let n = 0;
      configs.forEach((config) => {
        fix(deref(config), `Configuration ${++n}`);
        complete(deref(config));
      });
    }
  }

  // ---- pages ----

  /**
   * A page's annotations, worked on in its /Annots array itself (MuPDF's
   * annotation list leaves out some types, Sound among them, and widgets):
   * what goes is dropped from the array; the rest get their flags, actions
   * and appearance dictionary fixed. Appearances missing afterwards are
   * drawn by MuPDF on the page loaded again (a loaded page keeps a stale list).
   */
  private page(pageIndex: number): void {
    let page = this.doc.loadPage(pageIndex);
    try {
      const pageObj = page.getObject();
      if (!pageObj.get('AA').isNull()) {
        pageObj.delete('AA');
        this.count('additional actions removed');
      }
      // A page must have resources (ISO 32000-1, 7.7.3.3), if only an empty dictionary: PDFBox Preflight refuses a
      // page without (AcroFormsRotation.pdf), which Ghostscript's rewrite gave one.
      if (!deref(pageObj.getInheritable('Resources')).isDictionary()) pageObj.put('Resources', this.doc.newDictionary());
      this.fonts(deref(pageObj.getInheritable('Resources')), 0);
      const annots = deref(pageObj.get('Annots'));
      if (!annots.isArray() || annots.length === 0) return;
      const kept = this.doc.newArray();
      let missing = 0;
      for (let i = 0; i < annots.length; i++) {
        const ref = annots.get(i);
        const obj = deref(ref);
        if (!obj.isDictionary()) continue;
        if (this.keepAnnotation(obj, pageIndex)) {
          kept.push(ref);
          if (this.needsDrawing(obj)) missing++;
        }
      }
      if (kept.length !== annots.length) pageObj.put('Annots', kept);
      for (let i = 0; i < kept.length; i++) this.onlyNormalAppearance(deref(kept.get(i)));
      if (!missing) return;
      page.destroy();
      page = this.doc.loadPage(pageIndex);
      const lacking = [...page.getAnnotations(), ...page.getWidgets()].filter((a) => this.needsDrawing(a.getObject()));
      // MuPDF draws what it can in one pass; what it cannot (a Link) gets an empty appearance: it showed nothing of its own before either.
      redrawAll(lacking);
      for (let i = 0; i < kept.length; i++) {
        const obj = deref(kept.get(i));
        if (!this.needsDrawing(obj)) continue;
        this.emptyAppearance(obj);
        this.count('empty appearances added');
      }
      for (const annot of lacking) if (hasNormalAppearance(annot.getObject())) this.count('appearances drawn');
    } finally {
      // After the appearances are drawn: MuPDF draws a Highlight with the Multiply blend mode.
      if (this.part === 1) this.pageTransparency(page.getObject(), pageIndex);
      this.appearanceFonts(page.getObject());
      page.destroy();
    }
  }

  private needsDrawing(obj: mupdf.PDFObject): boolean {
    const type = name(obj.get('Subtype'));
    if (type === 'Highlight' && this.part === 1 && this.options.transparency === 2) return false;
    return type !== 'Popup' && !hasNormalAppearance(obj);
  }

  /** Decides one annotation: false when it goes (or is a finding); otherwise fixes its flags, actions and opacity. */
  private keepAnnotation(obj: mupdf.PDFObject, pageIndex: number): boolean {
    const allowed = this.part === 1 ? ALLOWED_1 : ALLOWED_2;
    const type = name(obj.get('Subtype')) ?? '';
    const location = { pageIndex, objectNumber: objectNumber(obj), context: `${type || 'untyped'} annotation` };
    if (type === 'FileAttachment') {
      if (this.part === 3) {
        this.fixFileSpec(obj.get('FS'), 'attachment', this.afArray(deref(this.doc.getTrailer().get('Root'))));
      } else if (this.options.embeddedFiles === 1) {
        this.find(embeddedRule(this.part), location);
        return false;
      } else {
        this.count('file attachment annotations deleted');
        return false;
      }
    } else if (!allowed.has(type)) {
      if (this.options.unsupportedAnnots === 1) this.find(annotationRule(this.part), location);
      else this.count(`${type || 'untyped'} annotations deleted`);
      return false;
    }
    const flags = obj.get('F').isNumber() ? obj.get('F').asNumber() : 0;
    if (type !== 'Popup' && type !== 'Widget' && flags & (HIDDEN | NO_VIEW)) {
      this.count('hidden annotations deleted');
      return false;
    }
    const wanted = (flags | PRINT) & ~(INVISIBLE | HIDDEN | NO_VIEW | TOGGLE_NO_VIEW);
    if (wanted !== flags || obj.get('F').isNull()) obj.put('F', wanted);
    this.cleanAction(obj, 'A');
    if (!obj.get('AA').isNull()) {
      obj.delete('AA');
      this.count('additional actions removed');
    }
    if (this.part === 1 && type === 'Highlight' && this.options.transparency === 2 && !obj.get('AP').isNull()) {
      // A highlight tints its words by Multiply blending, which PDF/A-1 forbids; made opaque, its colour would cover them.
      // PDF/A-1 does not require appearances: without one, viewers draw the highlight their own (tinting) way.
      obj.delete('AP');
      this.count('highlight appearances left to viewers (PDF/A-1 has no blending)');
    }
    if (this.part === 1 && obj.get('CA').isNumber() && obj.get('CA').asNumber() !== 1) {
      this.transparencyFound = true;
      if (this.options.transparency === 1) this.find(transparencyRule, { ...location, context: `${type} annotation with opacity ${obj.get('CA').asNumber()}` });
      else {
        obj.put('CA', 1);
        this.count('annotations made opaque');
      }
    }
    return true;
  }

  /**
   * PDF/A: an appearance dictionary holds only N (ISO 19005-2, 6.3.3), and
   * N holds appearance states for a button widget only, always: any other
   * annotation keeps the state it shows (AS, else the first) as its one
   * appearance, a button's single appearance becomes a state.
   */
  private onlyNormalAppearance(obj: mupdf.PDFObject): void {
    const ap = deref(obj.get('AP'));
    if (!ap.isDictionary()) return;
    const n = ap.get('N');
    const button = name(obj.get('Subtype')) === 'Widget' && name(inheritable(obj, 'FT')) === 'Btn';
    if (!n.isStream() && deref(n).isDictionary() && !button) {
      const states = deref(n);
      const shown = name(obj.get('AS'));
      let chosen = shown !== undefined ? states.get(shown) : undefined;
      if (!chosen?.isStream()) {
        chosen = undefined;
        states.forEach((state) => {
          if (!chosen && state.isStream()) chosen = state;
        });
      }
      if (chosen) {
        ap.put('N', chosen);
        this.count('appearance states reduced to the one shown');
      }
    }
    if (n.isStream() && button) {
      // And a button's N is a dictionary of states (6.3.3): a push button's one appearance becomes its one state, shown.
      const state = name(obj.get('AS')) ?? 'Push';
      const states = this.doc.newDictionary();
      states.put(state, n);
      ap.put('N', states);
      obj.put('AS', this.doc.newName(state));
      this.count('button appearances made a state');
    }
    for (const key of ['D', 'R']) {
      if (!ap.get(key).isNull()) {
        ap.delete(key);
        this.count('down and rollover appearances removed');
      }
    }
  }

  /**
   * The fonts of the annotations' appearances (drawn on the page as well), once drawn and reduced to N: substituted,
   * but not counted when they cannot be, as before: an appearance may list a font it never selects, which veraPDF
   * does not judge, and the MuPDF path keeps form fields where Ghostscript's flattens them.
   */
  private appearanceFonts(pageObj: mupdf.PDFObject): void {
    const annots = deref(pageObj.get('Annots'));
    if (!annots.isArray()) return;
    for (let i = 0; i < annots.length; i++) {
      const annot = deref(annots.get(i));
      const ap = annot.isDictionary() ? deref(annot.get('AP')) : undefined;
      if (!ap?.isDictionary()) continue;
      const n = ap.get('N');
      const streams: mupdf.PDFObject[] = [];
      if (n.isStream()) streams.push(n);
      else if (deref(n).isDictionary()) deref(n).forEach((state) => state.isStream() && streams.push(state));
      for (const stream of streams) this.fonts(deref(stream.get('Resources')), 1, false);
    }
  }

  /**
   * Fonts without an embedded program, in resources and the forms they draw: a standard-14 font gets its substitute
   * embedded (fonts.ts); the others are recorded (`counted`) for Ghostscript to embed.
   */
  private fonts(resources: mupdf.PDFObject, depth: number, counted = true): void {
    if (!resources.isDictionary() || depth > 8) return;
    const fonts = deref(resources.get('Font'));
    if (fonts.isDictionary()) {
      fonts.forEach((ref) => {
        const id = objectNumber(ref);
        if (id !== undefined) {
          if (this.fontsSeen.has(id)) return;
          this.fontsSeen.add(id);
        }
        const font = deref(ref);
        if (!font.isDictionary() || name(font.get('Subtype')) === 'Type3') return;
        this.simpleToUnicode(font);
        const descendants = deref(font.get('DescendantFonts'));
        const described = descendants.isArray() && descendants.length > 0 ? deref(descendants.get(0)) : font;
        const descriptor = deref(described.get('FontDescriptor'));
        const embedded = descriptor.isDictionary() && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => !descriptor.get(key).isNull());
        if (embedded) return;
        const substitute = this.embedder.embed(font);
        if (substitute) this.count(`fonts embedded: ${name(font.get('BaseFont')) ?? '?'} as ${substitute}`);
        else if (counted) this.fontsNotEmbedded.add(name(font.get('BaseFont')) ?? `object ${id ?? '?'}`);
      });
    }
    const xobjects = deref(resources.get('XObject'));
    if (xobjects.isDictionary()) {
      xobjects.forEach((ref) => {
        const id = objectNumber(ref);
        if (id !== undefined) {
          if (this.fontsSeen.has(-id)) return;
          this.fontsSeen.add(-id);
        }
        if (ref.isStream() && name(ref.get('Subtype')) === 'Form') this.fonts(deref(ref.get('Resources')), depth + 1, counted);
      });
    }
  }

  /**
   * A simple font in WinAnsi or MacRoman encoding without a ToUnicode map
   * gets one made from the encoding. Readers find the characters from the
   * encoding alone, but Ghostscript re-encodes such a font: MuPDF then read
   * U+FFFD for every character (pdfbox/text-extraction/eu-001.pdf, Verdana,
   * WinAnsi); with the map, which Ghostscript keeps for TrueType fonts, the
   * text stays what it was. Ghostscript drops the map of a Type 1C font it
   * re-encodes (poppler then read with_annots.pdf's fi ligature as "û"); the
   * MuPDF path keeps it. Fonts with Differences or other encodings are left
   * as they are.
   */
  private simpleToUnicode(font: mupdf.PDFObject): void {
    const subtype = name(font.get('Subtype'));
    if ((subtype !== 'TrueType' && subtype !== 'Type1' && subtype !== 'MMType1') || !font.get('ToUnicode').isNull()) return;
    const encoding = font.get('Encoding');
    const base = name(encoding) ?? (deref(encoding).isDictionary() && deref(encoding).get('Differences').isNull() ? name(deref(encoding).get('BaseEncoding')) : undefined);
    const cmap = base !== undefined ? TO_UNICODE[base] : undefined;
    if (!cmap) return;
    font.put('ToUnicode', this.doc.addStream(cmap, {}));
    this.count(`Unicode maps added to ${base} fonts`);
  }

  private emptyAppearance(obj: mupdf.PDFObject): void {
    const rect = deref(obj.get('Rect'));
    const box = [0, 1, 2, 3].map((i) => (rect.isArray() && rect.length > i ? rect.get(i).asNumber() : 0));
    const width = Math.abs(box[2]! - box[0]!);
    const height = Math.abs(box[3]! - box[1]!);
    const stream = this.doc.addStream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, width, height] });
    const ap = this.doc.newDictionary();
    ap.put('N', stream);
    obj.put('AP', ap);
  }

  /**
   * PDF/A-1 forbids transparency (ISO 19005-1, 6.4): soft masks, constant
   * alpha below 1, blend modes, transparency groups. With transparency 1 each
   * is a finding; with 2 it is made opaque here, on the objects themselves
   * (alpha 1, no soft mask, Normal blending, no group): Ghostscript's own
   * PDF/A-1 policy dropped half-transparent text altogether (measured).
   */
  private pageTransparency(pageObj: mupdf.PDFObject, pageIndex: number): void {
    const seen = new Set<number>();
    this.transparentGroup(pageObj, pageIndex, 'page transparency group');
    this.transparencyIn(deref(pageObj.getInheritable('Resources')), pageIndex, seen);
    // Annotation appearances are drawn on the page too: their forms, groups and graphics states count.
    const annots = deref(pageObj.get('Annots'));
    if (!annots.isArray()) return;
    for (let i = 0; i < annots.length; i++) {
      const ap = deref(deref(annots.get(i)).get('AP'));
      if (!ap.isDictionary()) continue;
      ap.forEach((entry) => {
        const streams: mupdf.PDFObject[] = [];
        if (entry.isStream()) streams.push(entry);
        else if (deref(entry).isDictionary()) deref(entry).forEach((state) => state.isStream() && streams.push(state));
        for (const stream of streams) {
          const id = objectNumber(stream);
          if (id !== undefined) {
            if (seen.has(id)) continue;
            seen.add(id);
          }
          const form = deref(stream);
          this.transparentGroup(form, pageIndex, 'annotation appearance with a transparency group');
          this.transparencyIn(deref(form.get('Resources')), pageIndex, seen);
        }
      });
    }
  }

  /**
   * What the pages' walk did not reach (patterns, Type 3 glyphs, forms inside
   * appearance states...): every object of the file, found by what it is.
   * A soft-masked image drawn by a pattern sent Ghostscript's PDF/A-1 output
   * to a whole-page image (pypdf/annotations/example.pdf, measured).
   */
  private remainingTransparency(): void {
    const count = this.doc.countObjects();
    for (let num = 1; num < count; num++) {
      let obj: mupdf.PDFObject;
      const ref = this.doc.newIndirect(num);
      try {
        obj = ref.resolve();
      } catch {
        continue;
      }
      if (!obj.isDictionary() && !ref.isStream()) continue;
      const context = `object ${num}`;
      const group = deref(obj.get('Group'));
      if (group.isDictionary() && name(group.get('S')) === 'Transparency' && this.transparencyFoundAt(undefined, `${context}: transparency group`)) obj.delete('Group');
      const type = name(obj.get('Type'));
      const subtype = name(obj.get('Subtype'));
      if (ref.isStream() && subtype === 'Image') {
        if ((!obj.get('SMask').isNull() || (obj.get('SMaskInData').isNumber() && obj.get('SMaskInData').asNumber() > 0)) && this.transparencyFoundAt(undefined, `${context}: image with a soft mask`)) {
          obj.delete('SMask');
          obj.delete('SMaskInData');
        }
      } else if (type === 'ExtGState' || (!ref.isStream() && type === undefined && (!obj.get('ca').isNull() || !obj.get('BM').isNull() || (!obj.get('SMask').isNull() && obj.get('S').isNull())))) {
        const smask = obj.get('SMask');
        if (!smask.isNull() && name(smask) !== 'None' && this.transparencyFoundAt(undefined, `${context}: graphics state with a soft mask`)) obj.put('SMask', this.doc.newName('None'));
        for (const key of ['CA', 'ca']) {
          const alpha = obj.get(key);
          if (alpha.isNumber() && alpha.asNumber() !== 1 && this.transparencyFoundAt(undefined, `${context}: graphics state with ${key} ${alpha.asNumber()}`)) obj.put(key, 1);
        }
        const bm = name(obj.get('BM'));
        if (bm !== undefined && bm !== 'Normal' && bm !== 'Compatible' && this.transparencyFoundAt(undefined, `${context}: blend mode ${bm}`)) obj.put('BM', this.doc.newName('Normal'));
      }
    }
  }

  private transparencyFoundAt(pageIndex: number | undefined, context: string): boolean {
    this.transparencyFound = true;
    if (this.options.transparency === 2) {
      this.count('transparency made opaque');
      return true;
    }
    this.find(transparencyRule, pageIndex === undefined ? { context } : { pageIndex, context });
    return false;
  }

  private transparentGroup(owner: mupdf.PDFObject, pageIndex: number, context: string): void {
    const g = deref(owner.get('Group'));
    if (g.isDictionary() && name(g.get('S')) === 'Transparency' && this.transparencyFoundAt(pageIndex, context)) owner.delete('Group');
  }

  private transparencyIn(res: mupdf.PDFObject, pageIndex: number, seen: Set<number>, depth = 0): void {
    if (!res.isDictionary() || depth > 16) return;
    const states = deref(res.get('ExtGState'));
    if (states.isDictionary()) {
      states.forEach((ref) => {
        const gs = deref(ref);
        if (!gs.isDictionary()) return;
        const smask = gs.get('SMask');
        if (!smask.isNull() && name(smask) !== 'None' && this.transparencyFoundAt(pageIndex, 'graphics state with a soft mask')) gs.put('SMask', this.doc.newName('None'));
        for (const key of ['CA', 'ca']) {
          const alpha = gs.get(key);
          if (alpha.isNumber() && alpha.asNumber() !== 1 && this.transparencyFoundAt(pageIndex, `graphics state with ${key} ${alpha.asNumber()}`)) gs.put(key, 1);
        }
        const bm = name(gs.get('BM'));
        if (bm !== undefined && bm !== 'Normal' && bm !== 'Compatible' && this.transparencyFoundAt(pageIndex, `blend mode ${bm}`)) gs.put('BM', this.doc.newName('Normal'));
      });
    }
    const xobjects = deref(res.get('XObject'));
    if (xobjects.isDictionary()) {
      xobjects.forEach((ref) => {
        const id = objectNumber(ref);
        if (id !== undefined) {
          if (seen.has(id)) return;
          seen.add(id);
        }
        if (!ref.isStream()) return;
        const x = deref(ref);
        const subtype = name(x.get('Subtype'));
        if (subtype === 'Image' && (!x.get('SMask').isNull() || (x.get('SMaskInData').isNumber() && x.get('SMaskInData').asNumber() > 0)) && this.transparencyFoundAt(pageIndex, 'image with a soft mask')) {
          x.delete('SMask');
          x.delete('SMaskInData');
        }
        if (subtype === 'Form') {
          this.transparentGroup(x, pageIndex, 'form with a transparency group');
          this.transparencyIn(deref(x.get('Resources')), pageIndex, seen, depth + 1);
        }
      });
    }
  }
}

/** WinAnsiEncoding's codes 0x80-0x9F (ISO 32000-1, D.2); the others are Latin-1 (0x20-0x7E, 0xA0-0xFF). */
const WIN_ANSI_HIGH: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039,
  0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122,
  0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

/** MacRomanEncoding's codes 0x80-0xFF as Mac OS Roman has them (0: the Apple logo, not mapped). */
const MAC_ROMAN_HIGH = 'C4 C5 C7 C9 D1 D6 DC E1 E0 E2 E4 E3 E5 E7 E9 E8 EA EB ED EC EE EF F1 F3 F2 F4 F6 F5 FA F9 FB FC 2020 B0 A2 A3 A7 2022 B6 DF AE A9 2122 B4 A8 2260 C6 D8 221E B1 2264 2265 A5 B5 2202 2211 220F 3C0 222B AA BA 3A9 E6 F8 BF A1 AC 221A 192 2248 2206 AB BB 2026 A0 C0 C3 D5 152 153 2013 2014 201C 201D 2018 2019 F7 25CA FF 178 2044 A4 2039 203A FB01 FB02 2021 B7 201A 201E 2030 C2 CA C1 CB C8 CD CE CF CC D3 D4 0 D2 DA DB D9 131 2C6 2DC AF 2D8 2D9 2DA B8 2DD 2DB 2C7'.split(' ').map((h) => parseInt(h, 16));

/** A ToUnicode CMap from a one-byte encoding's table (bfchar blocks of at most 100 entries, as the CMap format asks). */
function toUnicodeCMap(unicodeOf: (code: number) => number | undefined): string {
  const pairs: string[] = [];
  const hex = (n: number, digits: number) => n.toString(16).toUpperCase().padStart(digits, '0');
  for (let code = 0x20; code <= 0xff; code++) {
    const unicode = code === 0x7f ? undefined : unicodeOf(code);
    if (unicode) pairs.push(`<${hex(code, 2)}> <${hex(unicode, 4)}>`);
  }
  const blocks: string[] = [];
  for (let i = 0; i < pairs.length; i += 100) {
    const block = pairs.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar`, ...block, 'endbfchar');
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<00> <FF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

const TO_UNICODE: Record<string, string> = {
  WinAnsiEncoding: toUnicodeCMap((code) => (code >= 0x80 && code <= 0x9f ? WIN_ANSI_HIGH[code] : code)),
  MacRomanEncoding: toUnicodeCMap((code) => (code >= 0x80 ? MAC_ROMAN_HIGH[code - 0x80] : code)),
};

function annotationRule(part: PdfaPart) {
  return part === 1
    ? { clause: '6.5.2', testNumber: 1, description: 'Annotation types not defined in PDF Reference shall not be permitted. Additionally, the FileAttachment, Sound and Movie types shall not be permitted' }
    : { clause: '6.3.1', testNumber: 1, description: 'Annotation types not defined in ISO 32000-1 shall not be permitted. Additionally, the 3D, Sound, Screen and Movie types shall not be permitted' };
}

function embeddedRule(part: PdfaPart) {
  return part === 1
    ? { clause: '6.1.11', testNumber: 1, description: 'A file specification dictionary shall not contain the EF key (embedded files are not allowed in PDF/A-1)' }
    : { clause: '6.8', testNumber: 5, description: 'An embedded file shall be compliant with either ISO 19005-1 or ISO 19005-2 (the service does not convert attachments)' };
}

const transparencyRule = { clause: '6.4', testNumber: 1, description: 'PDF/A-1 forbids transparency: soft masks, constant opacity other than 1.0, blend modes other than Normal, transparency groups' };

/** An explicit destination (ISO 32000-1, 12.3.2.2) whose page is not a dictionary (named destinations are left alone). */
function missingPage(dest: mupdf.PDFObject): boolean {
  const array = deref(dest);
  return array.isArray() && array.length > 0 && !deref(array.get(0)).isDictionary() && !array.get(0).isNumber();
}

function hasNormalAppearance(annot: mupdf.PDFObject): boolean {
  const ap = deref(annot.get('AP'));
  if (!ap.isDictionary()) return false;
  const n = ap.get('N');
  return n.isStream() || deref(n).isDictionary();
}

function objectNumber(obj: mupdf.PDFObject): number | undefined {
  return obj.isIndirect() ? obj.asIndirect() : undefined;
}

