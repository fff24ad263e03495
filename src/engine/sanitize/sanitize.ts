/**
 * The `sanitize` task (SanitizeAction, docs/sanitize.md): removes JavaScript, embedded files, actions that reach
 * outside the document, form submit and reset actions, metadata, and annotations of chosen subtypes; then re-reads
 * the written bytes and runs the same survey over them, failing closed (SANITIZE_INCOMPLETE, nothing written) when
 * anything named remains. One walk does both: `survey` counts what a request names, and removes it when asked.
 */
import type * as mupdf from 'mupdf';
import { withPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { contentHolders, deref, loadedObjects, name } from '../core/mupdf-objects.js';
import { hiddenGroups, hiddenXObjects, isHidden, stripHidden } from './hidden-content.js';
import { richMediaScripts, SCRIPT_KEYS } from './rich-media.js';
import type { PdfSource } from '../core/pdf-source.js';
import { refuseIfSigned, saveFull } from '../core/save.js';
import { EngineError } from '../errors.js';
import type { TaskContext } from '../task-context.js';

export const SANITIZE_KINDS = ['javascript', 'embeddedFiles', 'outsideLinks', 'formActions', 'metadata', 'annotations', 'hiddenContent'] as const;
export type SanitizeKind = (typeof SANITIZE_KINDS)[number];

export interface SanitizeRequest {
  javascript?: boolean | undefined;
  embeddedFiles?: boolean | undefined;
  outsideLinks?: boolean | undefined;
  formActions?: boolean | undefined;
  metadata?: boolean | undefined;
  /** Remove the content of optional content groups hidden in the default configuration (hidden-content.ts). */
  hiddenContent?: boolean | undefined;
  /** Annotation subtypes removed (with their popups), e.g. ["FileAttachment", "Sound"]. */
  annotationSubtypes?: string[] | undefined;
}

/** What was found (and removed) of each kind: entries, not bytes. */
export type SanitizeCounts = Record<SanitizeKind, number>;

export interface SanitizeReport {
  removed: SanitizeCounts;
  /** The re-read of the written document found none of what was asked (always true in an answer: false fails). */
  verified: boolean;
}

/** The switches with their defaults applied (docs/sanitize.md: all on but metadata and hidden content). */
function switches(request: SanitizeRequest) {
  return {
    javascript: request.javascript ?? true,
    embeddedFiles: request.embeddedFiles ?? true,
    outsideLinks: request.outsideLinks ?? true,
    formActions: request.formActions ?? true,
    metadata: request.metadata ?? false,
    hiddenContent: request.hiddenContent ?? false,
    subtypes: new Set(request.annotationSubtypes ?? []),
  };
}
type Switches = ReturnType<typeof switches>;

/** Action types that reach outside the document (a web page, another file, a program, a server). */
const OUTSIDE_ACTIONS = new Set(['URI', 'Launch', 'GoToR', 'GoToE', 'ImportData', 'SubmitForm']);
const FORM_ACTIONS = new Set(['SubmitForm', 'ResetForm']);
/** Keys whose value is one action (or, for Next, an action or an array of them). */
const ACTION_KEYS = ['A', 'OpenAction', 'Next'];
/** Keys that hold metadata of the object they are in: an XMP stream, application private data. */
const METADATA_KEYS = ['Metadata', 'PieceInfo'];
/** Keys of a file specification that hold the file itself. */
const EMBEDDED_FILE_KEYS = ['EF', 'RF'];

/** The kind a request removes an action as, or undefined when it keeps it. */
function actionKind(action: mupdf.PDFObject, on: Switches): SanitizeKind | undefined {
  if (!action.isDictionary()) return undefined;
  const s = name(action.get('S'));
  if (on.javascript && (s === 'JavaScript' || !action.get('JS').isNull())) return 'javascript';
  if (s === undefined) return undefined;
  if (on.outsideLinks && OUTSIDE_ACTIONS.has(s)) return 'outsideLinks';
  if (on.formActions && FORM_ACTIONS.has(s)) return 'formActions';
  return undefined;
}

class Survey {
  readonly counts: SanitizeCounts = { javascript: 0, embeddedFiles: 0, outsideLinks: 0, formActions: 0, metadata: 0, annotations: 0, hiddenContent: 0 };
  /**
   * `mode`: `count` what is referenced, `remove` it, or `verify`: count it and also what no longer needs a reference to
   * be found in the file (an action, a file's data or an XMP stream left as an object of its own).
   */
  constructor(
    private readonly on: Switches,
    private readonly mode: 'count' | 'remove' | 'verify',
  ) {}

  private get remove(): boolean {
    return this.mode === 'remove';
  }

  /** Looks through a dictionary or array and the direct objects in it (indirect ones are visited on their own). */
  walk(obj: mupdf.PDFObject, depth = 0): void {
    if (depth > 100) return;
    if (obj.isArray()) {
      for (let i = 0; i < obj.length; i++) {
        const item = obj.get(i);
        if (!item.isIndirect()) this.walk(item, depth + 1);
      }
      return;
    }
    if (!obj.isDictionary()) return;
    if (this.mode === 'verify') this.leftOver(obj);
    for (const key of ACTION_KEYS) this.action(obj, key);
    const aa = deref(obj.get('AA'));
    if (aa.isDictionary()) {
      const keys: string[] = [];
      aa.forEach((_v, k) => keys.push(String(k)));
      for (const k of keys) this.action(aa, k);
      // An additional-actions dictionary left empty goes too.
      if (this.remove && keys.every((k) => aa.get(k).isNull())) obj.delete('AA');
    }
    const names = deref(obj.get('Names'));
    if (names.isDictionary() && name(obj.get('Type')) === 'Catalog') {
      if (this.on.javascript) this.entry(names, 'JavaScript', 'javascript');
      if (this.on.embeddedFiles) this.entry(names, 'EmbeddedFiles', 'embeddedFiles');
    }
    // XFA (the AcroForm's /XFA packets, streams that LiveCycle types /EmbeddedFile) holds the form's scripts and runs
    // them: it goes with JavaScript, or else with embedded files; the AcroForm fields stay, and the catalog's
    // /NeedsRendering (which asks for the XFA to be drawn) goes with it.
    const xfaKind = this.on.javascript ? 'javascript' : this.on.embeddedFiles ? 'embeddedFiles' : undefined;
    if (xfaKind) {
      this.entry(obj, 'XFA', xfaKind);
      if (this.remove && !obj.get('NeedsRendering').isNull()) obj.delete('NeedsRendering');
    }
    if (this.on.embeddedFiles) {
      this.entry(obj, 'AF', 'embeddedFiles');
      for (const k of EMBEDDED_FILE_KEYS) this.entry(obj, k, 'embeddedFiles');
    }
    if (this.on.metadata) for (const k of METADATA_KEYS) this.entry(obj, k, 'metadata');
    // Rich media and 3D scripts (rich-media.ts); a RichMedia annotation's were taken with their assets before the walk.
    if (this.on.javascript) for (const k of SCRIPT_KEYS) this.entry(obj, k, 'javascript');
    const children: mupdf.PDFObject[] = [];
    obj.forEach((v) => {
      if (!v.isIndirect() && (v.isDictionary() || v.isArray())) children.push(v);
    });
    for (const c of children) this.walk(c, depth + 1);
  }

  /** An object that is itself of a kind removed, referenced or not. */
  private leftOver(obj: mupdf.PDFObject): void {
    const kind = actionKind(obj, this.on);
    if (kind) this.counts[kind]++;
    const type = name(obj.get('Type'));
    if (this.on.embeddedFiles && type === 'EmbeddedFile') this.counts.embeddedFiles++;
    if (this.on.metadata && type === 'Metadata') this.counts.metadata++;
  }

  /** Counts (and removes) `dict[key]` when present. */
  private entry(dict: mupdf.PDFObject, key: string, kind: SanitizeKind): void {
    if (dict.get(key).isNull()) return;
    this.counts[kind]++;
    if (this.remove) dict.delete(key);
  }

  /** `dict[key]` when it is an action the request removes, or an array of actions (Next) with some. */
  private action(dict: mupdf.PDFObject, key: string): void {
    const value = deref(dict.get(key));
    if (value.isArray()) {
      for (let i = value.length - 1; i >= 0; i--) {
        const kind = actionKind(deref(value.get(i)), this.on);
        if (!kind) continue;
        this.counts[kind]++;
        if (this.remove) value.delete(i);
      }
      return;
    }
    const kind = actionKind(value, this.on);
    if (!kind) return;
    this.counts[kind]++;
    // The actions chained after a removed one go with it: they ran only after it.
    if (this.remove) dict.delete(key);
  }

  /**
   * The pages' annotations: file attachments (embeddedFiles), the subtypes asked for, links left without an action
   * or destination, and the popups of annotations removed.
   */
  annotations(doc: mupdf.PDFDocument): void {
    for (let p = 0; p < doc.countPages(); p++) {
      const page = doc.findPage(p);
      const annots = deref(page.get('Annots'));
      if (!annots.isArray()) continue;
      const gone = new Set<number>();
      const drop: number[] = [];
      for (let i = 0; i < annots.length; i++) {
        const ref = annots.get(i);
        const annot = deref(ref);
        if (!annot.isDictionary()) continue;
        const subtype = name(annot.get('Subtype'));
        let kind: SanitizeKind | undefined;
        if (this.hidden && !annot.get('OC').isNull() && isHidden(annot.get('OC'), this.hidden)) kind = 'hiddenContent';
        else if (subtype === 'FileAttachment' && this.on.embeddedFiles) kind = 'embeddedFiles';
        else if (subtype !== undefined && this.on.subtypes.has(subtype)) kind = 'annotations';
        // A link whose action was removed (the walk ran first) leads nowhere: it goes, so no viewer shows a hand there.
        else if (subtype === 'Link' && this.remove && this.on.outsideLinks && annot.get('A').isNull() && annot.get('Dest').isNull()) drop.push(i);
        if (!kind) continue;
        this.counts[kind]++;
        drop.push(i);
        if (ref.isIndirect()) gone.add(ref.asIndirect());
      }
      for (let i = 0; i < annots.length; i++) {
        const parent = deref(annots.get(i)).get('Parent');
        if (name(deref(annots.get(i)).get('Subtype')) === 'Popup' && parent.isIndirect() && gone.has(parent.asIndirect())) drop.push(i);
      }
      if (!this.remove) continue;
      for (const i of [...new Set(drop)].sort((a, b) => b - a)) annots.delete(i);
    }
  }

  /** The scripts of the pages' RichMedia annotations, with the assets that hold them (rich-media.ts). */
  private richMedia(doc: mupdf.PDFDocument): void {
    for (let p = 0; p < doc.countPages(); p++) {
      const annots = deref(doc.findPage(p).get('Annots'));
      if (annots.isArray()) for (let i = 0; i < annots.length; i++) this.counts.javascript += richMediaScripts(deref(annots.get(i)), this.remove);
    }
  }

  /** The optional content groups hidden, when hidden content is asked for. */
  private hidden: Set<number> | undefined;

  /**
   * The marked-content sections of hidden groups in the content of pages and form XObjects, and the images and forms
   * whose own /OC is hidden: their invocations, then their resource entries (after every holder is cut: holders share
   * resources), so that the saved file drops them.
   */
  private hiddenSections(doc: mupdf.PDFDocument): void {
    const entries: [mupdf.PDFObject, string][] = [];
    for (const holder of contentHolders(doc, ['page', 'form'])) {
      const properties = holder.resources.isDictionary() ? holder.resources.get('Properties') : holder.resources;
      const xobjects = holder.resources.isDictionary() ? deref(holder.resources.get('XObject')) : holder.resources;
      const hiddenNames = hiddenXObjects(xobjects, this.hidden!);
      for (const n of hiddenNames) entries.push([xobjects, n]);
      for (const stream of holder.streams) {
        if (!stream.isStream()) continue;
        const { content, sections } = stripHidden(stream.readStream().asUint8Array(), properties, this.hidden!, hiddenNames);
        this.counts.hiddenContent += sections;
        if (this.remove && content) stream.writeStream(content);
      }
    }
    for (const [xobjects, n] of entries) {
      if (xobjects.get(n).isNull()) continue;
      this.counts.hiddenContent++;
      if (this.remove) xobjects.delete(n);
    }
  }

  /** The whole document: the trailer's Info, every object, hidden content, the pages' annotations. */
  run(doc: mupdf.PDFDocument): SanitizeCounts {
    const trailer = doc.getTrailer();
    const info = trailer.get('Info');
    if (this.on.metadata && !info.isNull()) {
      this.counts.metadata++;
      if (this.remove) {
        trailer.delete('Info');
        // Deleting the entry alone does not hold: a file with a cross-reference stream is written with its /Info back
        // (measured on pdf-lib's with_annots.pdf); the object must go.
        if (info.isIndirect()) doc.deleteObject(info);
      }
    }
    if (this.on.javascript) this.richMedia(doc);
    for (const { obj } of loadedObjects(doc)) this.walk(obj);
    if (this.on.hiddenContent) {
      this.hidden = hiddenGroups(doc);
      if (this.hidden.size) this.hiddenSections(doc);
    }
    this.annotations(doc);
    return this.counts;
  }
}

function total(counts: SanitizeCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/**
 * The `sanitize` task. Nothing found: no bytes (nothing is written). Otherwise the document is rewritten in full
 * (an appended update would keep what was removed in the earlier revision; unreferenced objects are dropped), the
 * written bytes are opened again and surveyed, and anything left fails the task with SANITIZE_INCOMPLETE.
 */
export function sanitize(input: { pdf: PdfSource; password?: string | undefined; request: SanitizeRequest }, ctx?: TaskContext): { bytes?: Uint8Array; report: SanitizeReport; summary?: WrittenSummary } {
  const on = switches(input.request);
  return withPdf(input, 'edit', (doc, opened) => {
    const found = new Survey(on, 'count').run(doc);
    // Nothing referenced where the removal looks, and nothing the re-read would find (an action under a key of no
    // standard, an unreferenced file stream): nothing to write.
    if (!total(found) && !total(new Survey(on, 'verify').run(doc))) return withSummary<{ bytes?: Uint8Array; report: SanitizeReport }>(doc, opened, { report: { removed: found, verified: true } });
    refuseIfSigned(doc, 'sanitizing rewrites the whole file (an appended change would keep what was removed), which would invalidate its signatures');
    const removed = new Survey(on, 'remove').run(doc);
    ctx?.progress({ done: 1, total: 2, stage: 'remove' });
    const bytes = saveFull(doc);
    const left = withPdf({ pdf: bytes, password: input.password }, 'view', (written) => new Survey(on, 'verify').run(written));
    ctx?.progress({ done: 2, total: 2, stage: 'verify' });
    if (total(left)) {
      const what = (Object.entries(left) as [SanitizeKind, number][]).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
      throw new EngineError('SANITIZE_INCOMPLETE', `The written document still holds what was to be removed (${what.join(', ')}); nothing was written`, { remaining: left });
    }
    return withSummary(doc, opened, { bytes, report: { removed, verified: true } });
  });
}
