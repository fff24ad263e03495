import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { RegexBudget } from '../text/regex-budget.js';
import { findMatches, quadBounds, searchPattern, type PageText, type Quad, type SearchOptions, type TextMatch } from '../text/match.js';
import { annotationEntries } from '../annotations/read.js';
import { pdfDate } from '../syntax/dates.js';
import { rgb } from '../syntax/readers.js';
import { editPdf } from '../core/document-task.js';
import { checkPageIndex } from '../core/open.js';
import { annotationText, pageContentText } from '../text/page-text.js';
import type { PdfSource } from '../core/pdf-source.js';
import type { TaskContext } from '../task-context.js';

/** RedactionModel's request side: what to search and how the Redact annotations look. */
export interface RedactionRequest extends SearchOptions {
  pageIndex?: number | undefined;
  overlayText?: string | undefined;
  overlayTextColor?: string | undefined;
  fillColor?: string | undefined;
  outlineColor?: string | undefined;
  author?: string | undefined;
  contents?: string | undefined;
  /** Search the text annotations show (FreeText, stamps, form fields) as well as the page content. Default true. */
  includeAnnotations?: boolean | undefined;
}

/** One created Redact annotation. */
export interface RedactionMatch {
  name: string;
  pageIndex: number;
  /** The matched text. */
  text: string;
  /** Where the text was found: the page content, or the appearance of the named annotation. */
  foundIn: 'content' | 'annotation';
  annotation?: string;
}

/**
 * Pages a search goes through before marking empties MuPDF's store. Up to here the store's scans at each change
 * cost nothing measurable (bench document, 200 pages: the same CPU time with and without emptying), while an
 * emptied store makes the next task on the worker rebuild its colour conversion links and fonts: the apply that
 * follows a one-page mark took 5 ms more CPU (about a fifth).
 */
const EMPTY_STORE_AFTER_PAGES = 64;

/** Subtypes whose own text is not searched: the marks themselves, and popups (which show their parent's text). */
const NOT_SEARCHED = new Set(['Redact', 'Popup']);

/** A page's searchable texts: its content, then each annotation that shows text. */
function pageTexts(page: mupdf.PDFPage, withAnnotations: boolean): { text: PageText; annotation?: mupdf.PDFAnnotation }[] {
  const texts: { text: PageText; annotation?: mupdf.PDFAnnotation }[] = [{ text: pageContentText(page) }];
  if (!withAnnotations) return texts;
  for (const annot of [...page.getAnnotations(), ...page.getWidgets()]) {
    if (NOT_SEARCHED.has(annot.getType())) continue;
    texts.push({ text: annotationText(annot), annotation: annot });
  }
  return texts;
}

/**
 * The `createRedactions` task (A7): one Redact annotation for every match of
 * the term in the page content (and in what annotations show), with a quad
 * for each line the match spans. Matches are found in the extracted text, so
 * there is no cap on their number.
 */
export function createRedactions(input: { pdf: PdfSource; password?: string | undefined; request: RedactionRequest }, ctx?: TaskContext): { bytes?: Uint8Array; redactions: RedactionMatch[]; pageCount: number } {
  const request = input.request;
  if (!request.searchText.trim()) throw new EngineError('INVALID_SEARCH', 'searchText must not be empty');
  const pattern = searchPattern(request);
  // A client's regular expression may backtrack for ever: it runs under a time budget (400 past it).
  const budget = request.regex ? new RegexBudget(pattern.source, pattern.flags) : undefined;
  return editPdf(input, 'annotate', (doc, { save }) => {
    const pageCount = doc.countPages();
    checkPageIndex(doc, request.pageIndex);
    const entries = annotationEntries(doc);
    const taken = new Set(entries.map((e) => e.name));
    const nameOf = new Map(entries.filter((e) => e.objectNumber !== undefined).map((e) => [e.objectNumber!, e.name]));
    let serial = 0;
    const nextName = () => {
      let name: string;
      do name = `redaction-${++serial}`; while (taken.has(name));
      taken.add(name);
      return name;
    };
    // Two passes, so that the time grows with the pages and not with their square (it took 114 s at
    // 20,000 pages). Searching only reads. Writing does not go through loaded pages: every change to an
    // object linked into the document makes MuPDF drop its map of the page tree, and loading the next
    // page rebuilds that map from every page; each change also scans MuPDF's whole resource store, which
    // the search filled page after page. So the search notes each page's object, the store is emptied
    // once, and each page's Redact annotations are made as objects and linked to the page in one change.
    const found: Found[] = [];
    const pageObjects = new Map<number, { num: number; toPdf: mupdf.Matrix }>();
    const first = request.pageIndex ?? 0;
    const last = request.pageIndex ?? pageCount - 1;
    for (let p = first; p <= last; p++) {
      // Loading a page makes MuPDF update the annotations of every page still loaded: each is released when done.
      const page = doc.loadPage(p);
      try {
        for (const source of pageTexts(page, request.includeAnnotations !== false)) {
          const annotation = source.annotation ? nameOf.get(source.annotation.getObject().asIndirect()) : undefined;
          for (const match of findMatches(source.text, pattern, budget?.spans(source.text.text))) {
            if (!pageObjects.has(p)) pageObjects.set(p, { num: page.getObject().asIndirect(), toPdf: mupdf.Matrix.invert(page.getTransform()) });
            found.push({ pageIndex: p, match, inAnnotation: source.annotation !== undefined, ...(annotation !== undefined ? { annotation } : {}) });
          }
        }
      } finally {
        page.destroy();
      }
      ctx?.progress({ done: p - first + 1, total: last - first + 1, stage: 'search' });
    }
    if (!found.length) return { redactions: [], pageCount };
    // Emptying the store also drops what every task reuses (colour conversion links, about 5 ms of WebAssembly to
    // remake; fonts): only a long search fills it enough for the scans to cost more than that.
    if (last - first + 1 > EMPTY_STORE_AFTER_PAGES) mupdf.emptyStore();
    const style = redactStyle(doc, request);
    const redactions: RedactionMatch[] = [];
    for (let i = 0; i < found.length; ) {
      const pageIndex = found[i]!.pageIndex;
      const { num, toPdf } = pageObjects.get(pageIndex)!;
      const pageObject = doc.newIndirect(num);
      const annots = doc.newArray();
      const existing = pageObject.get('Annots');
      if (existing.isArray()) existing.forEach((item) => void annots.push(item));
      for (; i < found.length && found[i]!.pageIndex === pageIndex; i++) {
        const { match, annotation, inAnnotation } = found[i]!;
        const name = nextName();
        const annot = redactAnnotation(doc, pageObject, pdfQuads(match.quads, toPdf), style, name);
        annots.push(doc.addObject(annot)).destroy();
        annot.destroy();
        redactions.push({ name, pageIndex, text: match.text, foundIn: inAnnotation ? 'annotation' : 'content', ...(annotation !== undefined ? { annotation } : {}) });
      }
      pageObject.put('Annots', annots);
    }
    return { bytes: save({ appendable: true }), redactions, pageCount };
  });
}

/**
 * A Redact annotation as MuPDF's createAnnotation makes it (printable, no appearance: viewers draw the
 * outline), in PDF coordinates. Each mupdf.js wrapper made here is released at once: left to its
 * FinalizationRegistry, the hundreds of thousands a long document needs made garbage collection the
 * largest cost, and one that grew faster than the pages.
 */
function redactAnnotation(doc: mupdf.PDFDocument, page: mupdf.PDFObject, quads: Quad[], style: RedactStyle, name: string): mupdf.PDFObject {
  const annot = doc.newDictionary();
  const put = (key: string, value: mupdf.PDFObject) => {
    annot.put(key, value);
    value.destroy();
  };
  const numbers = (values: number[]) => {
    const array = doc.newArray();
    for (const v of values) array.push(v).destroy();
    return array;
  };
  const bounds = quads.map(quadBounds);
  for (const [key, value] of style.shared) annot.put(key, value);
  annot.put('P', page);
  put('QuadPoints', numbers(quads.flat()));
  put('Rect', numbers([Math.min(...bounds.map((b) => b[0])), Math.min(...bounds.map((b) => b[1])), Math.max(...bounds.map((b) => b[2])), Math.max(...bounds.map((b) => b[3]))]));
  put('C', numbers(style.outline));
  put('IC', numbers(style.fill));
  put('NM', doc.newString(name));
  return annot;
}

/** What every Redact annotation of one request has: names, strings and numbers (never arrays or dictionaries, which belong to one object) made once. */
interface RedactStyle {
  shared: [string, mupdf.PDFObject][];
  outline: number[];
  fill: number[];
}

function redactStyle(doc: mupdf.PDFDocument, request: RedactionRequest): RedactStyle {
  const now = doc.newString(pdfDate(new Date()));
  const shared: [string, mupdf.PDFObject][] = [['Type', doc.newName('Annot')], ['Subtype', doc.newName('Redact')], ['F', doc.newInteger(4)], ['CreationDate', now], ['M', now]];
  if (request.author !== undefined) shared.push(['T', doc.newString(request.author)]);
  if (request.contents !== undefined) shared.push(['Contents', doc.newString(request.contents)]);
  if (request.overlayText) {
    const [r, g, b] = rgb(request.overlayTextColor ?? '#FFFFFF');
    shared.push(['OverlayText', doc.newString(request.overlayText)], ['DA', doc.newString(`/Helv 0 Tf ${r.toFixed(3)} ${g.toFixed(3)} ${b.toFixed(3)} rg`)]);
  }
  // /IC is a Redact annotation's fill colour (ISO 32000-2, 12.5.6.23).
  return { shared, outline: rgb(request.outlineColor ?? '#FF0000'), fill: rgb(request.fillColor ?? '#000000') };
}

/** Quads of MuPDF's page space (extracted text) in the page's PDF user space, where /QuadPoints are. */
function pdfQuads(quads: Quad[], toPdf: mupdf.Matrix): Quad[] {
  const [a, b, c, d, e, f] = toPdf;
  return quads.map((q) => q.map((_, k) => (k % 2 === 0 ? a * q[k]! + c * q[k + 1]! + e : b * q[k - 1]! + d * q[k]! + f)) as Quad);
}

interface Found {
  pageIndex: number;
  match: TextMatch;
  inAnnotation: boolean;
  /** Name of the annotation whose text matched. */
  annotation?: string;
}
