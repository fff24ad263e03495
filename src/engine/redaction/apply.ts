import type { TaskContext } from '../task-context.js';
import * as mupdf from 'mupdf';
import { rewriteQuoteOperators } from './content-quotes.js';
import { EngineError } from '../errors.js';
import { countOccurrences } from '../text/match.js';
import { annotationEntries, type AnnotationEntry } from '../annotations/read.js';
import { withPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { checkPageIndex } from '../core/open.js';
import { name, ref } from '../syntax/readers.js';
import { annotationText, pageContentText } from '../text/page-text.js';
import { PageOverlay } from '../pages/overlay.js';
import { deref, withoutPageTreeCache } from '../core/mupdf-objects.js';
import { refuseIfSigned, saveFull } from '../core/save.js';
import { findElsewhere, scrubElsewhere, scrubStructure, type ElsewhereHit } from './elsewhere.js';
import type { PdfSource } from '../core/pdf-source.js';
import { boxOf, BoxIndex, paintOverlays, splitByBoxes } from './boxes.js';
import { StandardFontEmbedder } from '../pdfa/fonts.js';
import { isTagged } from '../pdfua/keep.js';
import { paintedBefore, pruneRedacted } from '../pdfua/redacted.js';

export interface ApplyRedactionsRequest {
  pageIndex?: number | undefined;
  names?: string[] | undefined;
  /** Images under a box: clear the covered pixels (default), remove the whole image, or leave images alone. */
  images?: 'pixels' | 'remove' | 'none' | undefined;
  /** Vector art under a box: remove what a box covers entirely (default), what it touches, or nothing. */
  lineArt?: 'covered' | 'touched' | 'none' | undefined;
  scrubElsewhere?: boolean | undefined;
}

export interface RedactionFailure {
  pageIndex: number;
  annotation: string;
  text: string;
}

export interface ApplyReport {
  applied: string[];
  pages: number[];
  /** Annotations removed because the text they show lay under a box. */
  removedAnnotations: string[];
  /** Where the redacted text still occurs outside page content (before scrubbing). */
  elsewhere: ElsewhereHit[];
  scrubbed: boolean;
}

const IMAGE_METHOD = { pixels: mupdf.PDFPage.REDACT_IMAGE_PIXELS, remove: mupdf.PDFPage.REDACT_IMAGE_REMOVE, none: mupdf.PDFPage.REDACT_IMAGE_NONE } as const;
const LINE_ART_METHOD = { covered: mupdf.PDFPage.REDACT_LINE_ART_REMOVE_IF_COVERED, touched: mupdf.PDFPage.REDACT_LINE_ART_REMOVE_IF_TOUCHED, none: mupdf.PDFPage.REDACT_LINE_ART_NONE } as const;

/** Every content stream of a page and the form XObjects it draws, recursively (each once). */
function contentStreams(page: mupdf.PDFObject): mupdf.PDFObject[] {
  const streams: mupdf.PDFObject[] = [];
  const seen = new Set<number>();
  const add = (obj: mupdf.PDFObject) => {
    if (!obj.isIndirect() || seen.has(obj.asIndirect())) return;
    seen.add(obj.asIndirect());
    if (obj.isStream()) streams.push(obj);
  };
  const contents = deref(page.get('Contents'));
  if (contents.isArray()) for (let i = 0; i < contents.length; i++) add(contents.get(i));
  else add(page.get('Contents'));
  const visitResources = (resources: mupdf.PDFObject, depth: number) => {
    if (depth > 32 || !resources.isDictionary()) return;
    const xobjects = deref(resources.get('XObject'));
    if (!xobjects.isDictionary()) return;
    xobjects.forEach((x) => {
      if (!x.isIndirect() || seen.has(x.asIndirect())) return;
      if (deref(x).get('Subtype').asName() !== 'Form') return;
      add(x);
      visitResources(deref(deref(x).get('Resources')), depth + 1);
    });
  };
  visitResources(deref(page.get('Resources')), 0);
  return streams;
}

/** Rewrites `'` and `"` in every stream the page draws, so MuPDF's redaction removes their text. */
function normaliseQuotes(pageObj: mupdf.PDFObject): void {
  for (const stream of contentStreams(pageObj)) {
    const rewritten = rewriteQuoteOperators(stream.readStream().asUint8Array());
    if (rewritten) stream.writeStream(rewritten);
  }
}

/** Object numbers of a page's /Annots entries, in order. */
function annotsOf(pageObj: mupdf.PDFObject): mupdf.PDFObject {
  return deref(pageObj.get('Annots'));
}

/**
 * Applies one page's selected Redact annotations and verifies the result.
 * Returns the names of the annotations removed with the text they showed,
 * and the failures found (text that survived under a box, or a redacted
 * string that occurs more often than it did outside the boxes).
 */
function applyPage(doc: mupdf.PDFDocument, pageIndex: number, selected: Map<number, AnnotationEntry>, pageEntries: AnnotationEntry[], request: ApplyRedactionsRequest, redactedStrings: Set<string>, overlay: PageOverlay, overlayFont: () => mupdf.PDFObject): { removed: string[]; failures: RedactionFailure[] } {
  const pageObj = doc.findPage(pageIndex);
  normaliseQuotes(pageObj);
  // Take every Redact annotation (and the popups of the selected ones) off the page: the selected ones are
  // applied as one merged annotation below (MuPDF redacts a page over twice as fast with one annotation
  // holding all quads as with one per match), the others are put back afterwards.
  const annots = annotsOf(pageObj);
  const heldBack: mupdf.PDFObject[] = [];
  const selectedPopups = new Set([...selected.values()].map((e) => ref(e.dict.get('Popup'))).filter((n): n is number => n !== undefined));
  if (annots.isArray()) {
    for (let i = annots.length - 1; i >= 0; i--) {
      const a = annots.get(i);
      const num = a.isIndirect() ? a.asIndirect() : undefined;
      if (num !== undefined && (selected.has(num) || selectedPopups.has(num))) annots.delete(i);
      else if (deref(a).get('Subtype').asName() === 'Redact') {
        heldBack.unshift(a);
        annots.delete(i);
      }
    }
  }
  let page = doc.loadPage(pageIndex);
  const boxes = [...selected.values()].map((e) => boxOf(e, page.getTransform()));
  const index = new BoxIndex(boxes);
  // Only pages with annotations that show text need MuPDF's annotation objects.
  const nameByObject = new Map(pageEntries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e.name]));
  const showsText = (subtype: string | undefined) => subtype !== 'Redact' && subtype !== 'Popup' && subtype !== 'Link';
  const pageAnnotations = (p: mupdf.PDFPage) => {
    const all: mupdf.PDFAnnotation[] = [];
    if (pageEntries.some((e) => showsText(name(e.dict.get('Subtype'))) && name(e.dict.get('Subtype')) !== 'Widget')) all.push(...p.getAnnotations());
    if (pageEntries.some((e) => name(e.dict.get('Subtype')) === 'Widget')) all.push(...p.getWidgets());
    return all.filter((a) => showsText(a.getType()));
  };
  const textAnnots = pageAnnotations(page).map((annot) => {
    const num = annot.getObject().asIndirect();
    return { annot, name: nameByObject.get(num) ?? `object ${num}`, text: annotationText(annot) };
  });

  // Before: what lies under the boxes, and how often each redacted string occurs elsewhere on the page.
  const before = splitByBoxes(pageContentText(page), index);
  const strings = new Set<string>();
  for (const t of before.under.values()) if (t.trim()) strings.add(t.replace(/\s+/gu, ' ').trim());
  const doomed: { annot: mupdf.PDFAnnotation; name: string }[] = [];
  let keptAnnotationText = '';
  for (const t of textAnnots) {
    const split = splitByBoxes(t.text, index);
    const under = [...split.under.values()].join(' ').trim();
    if (under) {
      doomed.push(t);
      for (const s of split.under.values()) if (s.trim()) strings.add(s.replace(/\s+/gu, ' ').trim());
    } else {
      keptAnnotationText += `\n${t.text.text}`;
    }
  }
  const outsideBefore = before.outside + keptAnnotationText;
  const countsBefore = new Map([...strings].map((s) => [s, countOccurrences(outsideBefore, s)]));

  const merged = page.createAnnotation('Redact');
  merged.setQuadPoints(boxes.flatMap((b) => b.quads) as unknown as mupdf.Quad[]);
  // Applied as the one annotation it is, not as the page's: the same work (it is the only Redact on the page, and
  // links and free text touching it go the same way; byte-identical output, measured), but MuPDF's check of every
  // glyph against every box then skips the page's other annotations by identity, instead of reading each one's
  // /Subtype once per glyph: a quarter of MuPDF's time on the bench's one page with its 20 other annotations.
  merged.applyRedaction(0, IMAGE_METHOD[request.images ?? 'pixels'], LINE_ART_METHOD[request.lineArt ?? 'covered'], mupdf.PDFPage.REDACT_TEXT_REMOVE);
  const removed: string[] = [];
  for (const d of doomed) {
    removed.push(d.name);
    // An annotation's popup goes with it.
    const popup = d.annot.getObject().get('Popup');
    const popupNum = popup.isIndirect() ? popup.asIndirect() : undefined;
    page.deleteAnnotation(d.annot);
    if (popupNum !== undefined) {
      const list = annotsOf(page.getObject());
      for (let i = list.length - 1; i >= 0; i--) if (list.get(i).isIndirect() && list.get(i).asIndirect() === popupNum) list.delete(i);
    }
  }

  // After: nothing may remain under a box, and no redacted string may occur more often than it did outside them.
  // (Loading a page makes MuPDF update the annotations of every page still loaded: pages are released when done, or applying is quadratic.)
  page.destroy();
  page = doc.loadPage(pageIndex);
  const failures: RedactionFailure[] = [];
  const afterContent = pageContentText(page);
  const after = splitByBoxes(afterContent, index);
  for (const [box, text] of after.under) if (text.trim()) failures.push({ pageIndex, annotation: box.name, text: text.trim() });
  let afterText = afterContent.text;
  for (const annot of pageAnnotations(page)) {
    const t = annotationText(annot);
    const split = splitByBoxes(t, index);
    for (const [box, text] of split.under) if (text.trim()) failures.push({ pageIndex, annotation: box.name, text: text.trim() });
    afterText += `\n${t.text}`;
  }
  for (const [s, count] of countsBefore) {
    if (countOccurrences(afterText, s) > count) failures.push({ pageIndex, annotation: '', text: s });
  }
  for (const s of strings) redactedStrings.add(s);

  paintOverlays(overlay, doc, page, boxes, overlayFont);
  const annotsAfter = annotsOf(page.getObject());
  if (heldBack.length) {
    if (annotsAfter.isArray()) for (const a of heldBack) annotsAfter.push(a);
    else {
      const list = doc.newArray();
      for (const a of heldBack) list.push(a);
      page.getObject().put('Annots', list);
    }
  }
  page.destroy();
  return { removed, failures };
}

/**
 * The `applyRedactions` task: applies the selected Redact annotations page by
 * page, verifies each page, and fails closed (REDACTION_INCOMPLETE, nothing
 * saved) when any redacted text remains. The document is always rewritten in
 * full, never appended to: an incremental update would keep the removed text
 * in the file's earlier revision.
 */
export function applyRedactions(input: { pdf: PdfSource; password?: string | undefined; request: ApplyRedactionsRequest }, ctx?: TaskContext): { bytes?: Uint8Array; report: ApplyReport; summary?: WrittenSummary } {
  const { request } = input;
  return withPdf(input, 'edit', (doc, opened) => {
    checkPageIndex(doc, request.pageIndex);
    const entries = annotationEntries(doc);
    const isRedact = (e: AnnotationEntry) => name(e.dict.get('Subtype')) === 'Redact';
    let chosen: AnnotationEntry[];
    if (request.names?.length) {
      const byName = new Map(entries.map((e) => [e.name, e]));
      chosen = request.names.map((n) => {
        const e = byName.get(n);
        if (!e) throw new EngineError('ANNOTATION_NOT_FOUND', `No annotation named ${JSON.stringify(n)}`);
        if (!isRedact(e)) throw new EngineError('UNSUPPORTED_SUBTYPE', `Annotation ${JSON.stringify(n)} is not a Redact annotation`);
        return e;
      });
    } else {
      chosen = entries.filter(isRedact);
    }
    if (request.pageIndex !== undefined) chosen = chosen.filter((e) => e.pageIndex === request.pageIndex);
    const report: ApplyReport = { applied: [], pages: [], removedAnnotations: [], elsewhere: [], scrubbed: false };
    if (!chosen.length) return withSummary<{ bytes?: Uint8Array; report: ApplyReport }>(doc, opened, { report });
    // Appending would keep the redacted content in the earlier revision; a full rewrite breaks the signatures.
    refuseIfSigned(doc, 'applying redactions rewrites the whole file (an appended change would keep the redacted content), which would invalidate its signatures');
    const direct = chosen.find((e) => e.objectNumber === undefined);
    if (direct) throw new EngineError('PROCESSING_FAILED', `Redact annotation ${JSON.stringify(direct.name)} is not an indirect object and cannot be applied`);

    const entriesByPage = new Map<number, AnnotationEntry[]>();
    for (const e of entries) {
      const onPage = entriesByPage.get(e.pageIndex) ?? [];
      onPage.push(e);
      entriesByPage.set(e.pageIndex, onPage);
    }
    // One Helvetica dictionary for every page's overlay text, made when first needed. In a tagged document it gets
    // the embedded metric-compatible program PDFUAConvertAction gives such fonts (PDF/UA-1 7.21.4.1: every font
    // embedded), so that a document that passed PDF/UA-1 still does with overlay text.
    let font: mupdf.PDFObject | undefined;
    const overlayFont = () => {
      if (!font) {
        const dict = doc.newDictionary();
        dict.put('Type', doc.newName('Font'));
        dict.put('Subtype', doc.newName('Type1'));
        dict.put('BaseFont', doc.newName('Helvetica'));
        dict.put('Encoding', doc.newName('WinAnsiEncoding'));
        font = doc.addObject(dict);
        if (isTagged(doc)) new StandardFontEmbedder(doc).embed(deref(font));
      }
      return font;
    };
    const overlay = new PageOverlay(doc, { artifacts: true });
    const byPage = new Map<number, Map<number, AnnotationEntry>>();
    for (const e of chosen) {
      if (!byPage.has(e.pageIndex)) byPage.set(e.pageIndex, new Map());
      byPage.get(e.pageIndex)!.set(e.objectNumber!, e);
    }
    const failures: RedactionFailure[] = [];
    const redactedStrings = new Set<string>();
    const pages = [...byPage].sort((a, b) => a[0] - b[0]);
    // What each page's marked content drew before, so that the sequences the redaction empties leave the structure tree.
    const marked = new Map<number, Map<number, Set<number>>>();
    // Each page's changes drop MuPDF's page-tree cache, and the next page's findPage and loadPage built it again.
    withoutPageTreeCache(doc, () => {
      for (const [done, [pageIndex, selected]] of pages.entries()) {
        marked.set(pageIndex, paintedBefore(doc, pageIndex));
        const result = applyPage(doc, pageIndex, selected, entriesByPage.get(pageIndex) ?? [], request, redactedStrings, overlay, overlayFont);
        failures.push(...result.failures);
        report.removedAnnotations.push(...result.removed);
        report.pages.push(pageIndex);
        // Pages with boxes to apply, as the unit: the others are not touched.
        ctx?.progress({ done: done + 1, total: pages.length, stage: 'apply' });
      }
    });
    if (failures.length) {
      const where = failures.slice(0, 5).map((f) => `page ${f.pageIndex}${f.annotation ? ` (${f.annotation})` : ''}`).join(', ');
      throw new EngineError('REDACTION_INCOMPLETE', `Redacted text would remain on ${where}${failures.length > 5 ? ` and ${failures.length - 5} more` : ''}; the document was not changed`, { failures: failures.slice(0, 100) });
    }
    report.applied = chosen.map((e) => e.name);
    pruneRedacted(doc, marked);
    scrubStructure(doc, [...redactedStrings]);
    report.elsewhere = findElsewhere(doc, [...redactedStrings]);
    if (request.scrubElsewhere && report.elsewhere.length) {
      scrubElsewhere(doc, [...redactedStrings]);
      const left = findElsewhere(doc, [...redactedStrings]);
      if (left.length) throw new EngineError('REDACTION_INCOMPLETE', `Redacted text remains outside page content (${left.map((h) => h.where).join(', ')}); the document was not changed`, { elsewhere: left });
      report.scrubbed = true;
    }
    return withSummary(doc, opened, { bytes: saveFull(doc), report });
  });
}
