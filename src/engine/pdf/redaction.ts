import type * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { RegexBudget } from '../regex-budget.js';
import { findMatches, quadBounds, searchPattern, type PageText, type Quad, type SearchOptions } from '../text-match.js';
import { annotationEntries } from './annotations.js';
import { isoToPdfDate } from './dates.js';
import { rgb } from './pdf-data.js';
import { formFacts } from './inspect.js';
import { checkPageIndex, openPdf } from './open.js';
import { annotationText, pageContentText } from './page-text.js';
import { saveEdited } from './save.js';
import type { PdfSource } from '../pdf-source.js';

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
export function createRedactions(input: { pdf: PdfSource; password?: string | undefined; request: RedactionRequest }): { bytes?: Uint8Array; redactions: RedactionMatch[]; pageCount: number } {
  const request = input.request;
  if (!request.searchText.trim()) throw new EngineError('INVALID_SEARCH', 'searchText must not be empty');
  const pattern = searchPattern(request);
  // A client's regular expression may backtrack for ever: it runs under a time budget (400 past it).
  const budget = request.regex ? new RegexBudget(pattern.source, pattern.flags) : undefined;
  const opened = openPdf(input.pdf, input.password, 'annotate');
  const { doc } = opened;
  try {
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
    const now = doc.newString(isoToPdfDate(new Date()));
    const redactions: RedactionMatch[] = [];
    const first = request.pageIndex ?? 0;
    const last = request.pageIndex ?? pageCount - 1;
    for (let p = first; p <= last; p++) {
      // Loading a page makes MuPDF update the annotations of every page still loaded: each is released when done, or the search is quadratic.
      const page = doc.loadPage(p);
      try {
        for (const source of pageTexts(page, request.includeAnnotations !== false)) {
          for (const match of findMatches(source.text, pattern, budget?.spans(source.text.text))) {
            const name = nextName();
            addRedactAnnotation(doc, page, match.quads, name, request, now);
            const annotationName = source.annotation ? nameOf.get(source.annotation.getObject().asIndirect()) : undefined;
            redactions.push({
              name,
              pageIndex: p,
              text: match.text,
              foundIn: source.annotation ? 'annotation' : 'content',
              ...(annotationName !== undefined ? { annotation: annotationName } : {}),
            });
          }
        }
      } finally {
        page.destroy();
      }
    }
    if (!redactions.length) return { redactions, pageCount };
    return { bytes: saveEdited(doc, formFacts(doc).hasSignatures), redactions, pageCount };
  } finally {
    doc.destroy();
  }
}

function addRedactAnnotation(doc: mupdf.PDFDocument, page: mupdf.PDFPage, quads: Quad[], name: string, request: RedactionRequest, now: mupdf.PDFObject): void {
  const annot = page.createAnnotation('Redact');
  annot.setQuadPoints(quads as unknown as mupdf.Quad[]);
  const bounds = quads.map(quadBounds);
  annot.setRect([Math.min(...bounds.map((b) => b[0])), Math.min(...bounds.map((b) => b[1])), Math.max(...bounds.map((b) => b[2])), Math.max(...bounds.map((b) => b[3]))]);
  annot.setColor(rgb(request.outlineColor ?? '#FF0000'));
  if (request.author !== undefined) annot.setAuthor(request.author);
  if (request.contents !== undefined) annot.setContents(request.contents);
  const obj = annot.getObject();
  // MuPDF refuses setInteriorColor on Redact annotations, though /IC is their fill colour (ISO 32000-2, 12.5.6.23).
  obj.put('IC', rgb(request.fillColor ?? '#000000'));
  obj.put('NM', doc.newString(name));
  obj.put('CreationDate', now);
  obj.put('M', now);
  if (request.overlayText) {
    obj.put('OverlayText', doc.newString(request.overlayText));
    const [r, g, b] = rgb(request.overlayTextColor ?? '#FFFFFF');
    obj.put('DA', doc.newString(`/Helv 0 Tf ${r.toFixed(3)} ${g.toFixed(3)} ${b.toFixed(3)} rg`));
  }
}
