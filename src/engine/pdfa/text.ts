import * as mupdf from 'mupdf';
import { withPdf } from '../core/document-task.js';
import { validateUpload } from '../core/inspect.js';
import type { PdfSource } from '../core/pdf-source.js';
import { wasmBytes } from '../core/wasm.js';

/**
 * The text check of PDFAConvertAction's Ghostscript path (docs/pdfa.md, "Text check"): Ghostscript rewrites every
 * font, and can leave text that MuPDF (the service's own extraction) no longer reads: U+FFFD where a re-encoded
 * font lost its Unicode map, other letters where it dropped a ToUnicode map for its glyph names, nothing where a
 * glyph the substitute font lacks is left out, or a page drawn as one image. What counts is each page's characters,
 * as a multiset: the page's text, NFKC-normalised (a ligature read as "ﬁ" on one side and "fi" on the other is the
 * same), without white space, control and format characters and U+FFFD (what no reader could extract before cannot
 * be lost). Order and spacing are not compared (Ghostscript may split or join text runs).
 */
export type PageCharacters = Record<string, number>;

/**
 * A page loses text when more of its characters are missing after than this share of them (rounded down): a glyph
 * that another map names differently (a bullet read as a quote) may change a character or two on a full page;
 * a lost Unicode map loses every character of its font. Below 100 characters no loss at all is tolerated: a page
 * with one word that becomes U+FFFD fails.
 */
const TEXT_LOSS_TOLERANCE = 0.01;

/** One page that lost text: how many characters it had, how many are missing, and a few of them. */
export interface PageTextLoss {
  pageIndex: number;
  before: number;
  lost: number;
  /** Up to 10 of the missing characters, most missed first. */
  missing: string[];
}

const UNCOUNTED = /[\s\p{Cc}\p{Cf}\p{Cs}\p{Cn}\uFFFD]/u;

function pageCharacters(text: string): PageCharacters {
  const counts: PageCharacters = {};
  for (const ch of text.normalize('NFKC')) if (!UNCOUNTED.test(ch)) counts[ch] = (counts[ch] ?? 0) + 1;
  return counts;
}

/**
 * How much MuPDF's WebAssembly memory may grow while pages' text is read before its store is emptied. The store keeps
 * every image a page loads (up to 256 MB): the 50 photographs of a 100 MB image document grew the worker's memory by
 * 92 MB, which it kept while veraPDF validated (issue 35, item 8). Emptied after every page, the text of a 420-page text
 * document took 3x as long (its fonts loaded again for each page); emptied when the memory grows past this, the text
 * document never empties it, and the image document's memory grew by 24 MB (one step of the memory's growth).
 */
const STORE_GROWTH_BYTES = 8 * 1024 * 1024;

/** Every page's text, read as the service's text routes read it, one page at a time. */
function eachPageText(pdf: PdfSource, onPage: (text: string, pageIndex: number) => void): number {
  let bound = wasmBytes() + STORE_GROWTH_BYTES;
  return withPdf({ pdf }, 'view', (doc) => {
    const pages = doc.countPages();
    for (let i = 0; i < pages; i++) {
      const page = doc.loadPage(i);
      try {
        const text = page.toStructuredText('');
        try {
          onPage(text.asText(), i);
        } finally {
          text.destroy();
        }
      } finally {
        page.destroy();
      }
      if (wasmBytes() > bound) {
        mupdf.emptyStore();
        // The memory never shrinks: what the store frees is used again before the memory grows further.
        bound = wasmBytes();
      }
    }
    return pages;
  });
}

/** Each page's characters, counted (the text check's "before", read by pdfaPrepare from the bytes it prepared). */
export function pdfaPageText(input: { pdf: PdfSource }): { pages: PageCharacters[] } {
  const pages: PageCharacters[] = [];
  eachPageText(input.pdf, (text) => pages.push(pageCharacters(text)));
  return { pages };
}

/**
 * The `pdfaTextLoss` task: the pages of `pdf` (Ghostscript's output) that lost text against `before` (its input's
 * pdfaPageText), its page count, and, when no page lost text, its summary as the runner would read it. A page missing
 * altogether loses all its characters. Bytes given (moved here, not copied) go back as `bytes`, so that the action
 * holds one copy of a large output, not two.
 */
export function pdfaTextLoss(input: { pdf: PdfSource; before: PageCharacters[] }): {
  pageCount: number;
  pages: PageTextLoss[];
  summary?: ReturnType<typeof validateUpload>;
  bytes?: Uint8Array;
} {
  const lost: PageTextLoss[] = [];
  const compare = (before: PageCharacters, after: PageCharacters, pageIndex: number) => {
    let total = 0;
    let missingCount = 0;
    const missing: [string, number][] = [];
    for (const [ch, count] of Object.entries(before)) {
      total += count;
      const gone = count - (after[ch] ?? 0);
      if (gone > 0) {
        missingCount += gone;
        missing.push([ch, gone]);
      }
    }
    if (missingCount > Math.floor(total * TEXT_LOSS_TOLERANCE)) {
      lost.push({ pageIndex, before: total, lost: missingCount, missing: missing.sort((a, b) => b[1] - a[1]).slice(0, 10).map(([ch]) => ch) });
    }
  };
  const pageCount = eachPageText(input.pdf, (text, i) => {
    if (i < input.before.length) compare(input.before[i]!, pageCharacters(text), i);
  });
  for (let i = pageCount; i < input.before.length; i++) compare(input.before[i]!, {}, i);
  const bytes = input.pdf instanceof Uint8Array ? { bytes: input.pdf } : {};
  return { pageCount, pages: lost, ...bytes, ...(lost.length ? {} : { summary: validateUpload({ pdf: input.pdf }) }) };
}
