import * as mupdf from 'mupdf';
import type { PageTextModel, TextDetail, TextUnit } from '../pages/model.js';
import { withPdf } from '../core/document-task.js';
import { checkPageIndex } from '../core/open.js';
import { PageSpace } from '../pages/geometry.js';
import { bodyQuad, walkText } from './page-text.js';
import { deref } from '../core/mupdf-objects.js';
import type { PdfSource } from '../core/pdf-source.js';
import type { TaskContext } from '../task-context.js';

/**
 * Page text for clients (docs/pages.md): the text of a page in reading
 * order, and on request its words, lines or blocks with their boxes in PDF
 * user space. Extraction needs the `copy` permission (extractTextAllowed).
 */

/**
 * MuPDF's defaults: text outside the page's crop box is left out, ligatures
 * are expanded, spaces are inserted where glyphs leave a gap, and each
 * block's lines keep the order the content draws them.
 */
const STEXT_OPTIONS = '';

/**
 * The page's text as displayed: its content, and what its annotations and
 * form fields show (hidden ones excepted), as the page image shows them and
 * as pdftotext reads them, in the order they are drawn. The content is
 * extracted by MuPDF directly; the annotations loaded with the page (by
 * textPages: those that can show text) are drawn into a display list of
 * their own and extracted after it. (One display list of content and
 * annotations costs a second pass over the content, and drawing the
 * annotations that cannot show text, such as shapes, ink and icons, costs
 * for nothing: together a third of the time on the bench document's 20
 * annotations a page.)
 */
function structuredTexts(page: mupdf.PDFPage): mupdf.StructuredText[] {
  const content = page.toStructuredText(STEXT_OPTIONS);
  // In the order MuPDF draws them: annotations, then widgets.
  const showing = [...page.getAnnotations(), ...page.getWidgets()];
  if (showing.length === 0) return [content];
  const list = new mupdf.DisplayList(page.getBounds());
  const device = new mupdf.DisplayListDevice(list);
  try {
    for (const annot of showing) annot.run(device, mupdf.Matrix.identity);
    device.close();
    return [content, list.toStructuredText(STEXT_OPTIONS)];
  } finally {
    device.destroy();
    list.destroy();
  }
}

/**
 * Pages `from` to `to` (exclusive) loaded for their text, each with only the annotations that can show text: the
 * others are taken out of the page's /Annots in this open copy of the document (never saved) before MuPDF loads the
 * page, so that MuPDF does not make, check and release an annotation object for each (the bench document has 20 a
 * page, of which 2 show text), nor JavaScript a wrapper. Decided on the annotation's dictionary, which is what MuPDF
 * draws: it makes no new appearance on loading for an annotation that has one in a document opened for reading, a
 * widget excepted (NeedAppearances, signature fields), so every widget is kept. Leaving in an annotation that draws no
 * text changes no text, only the time. Every /Annots is changed before the first page is loaded: each change makes
 * MuPDF drop its map of the page tree, which the next loading builds again from every page.
 */
function* textPages(doc: mupdf.PDFDocument, from: number, to: number): Generator<mupdf.PDFPage> {
  yield* textPagesAt(doc, Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k));
}

/** textPages for the pages `indices`, in that order. */
function* textPagesAt(doc: mupdf.PDFDocument, indices: readonly number[]): Generator<mupdf.PDFPage> {
  const pageObjs: mupdf.PDFObject[] = [];
  for (const i of indices) pageObjs.push(doc.findPage(i));
  for (const pageObj of pageObjs) {
    const annots = deref(pageObj.get('Annots'));
    if (!annots.isArray() || annots.length === 0) continue;
    const kept: mupdf.PDFObject[] = [];
    for (let k = 0; k < annots.length; k++) {
      const entry = annots.get(k);
      // As it is: MuPDF resolves a reference in each test and lookup, and a resolved copy would be one more wrapper.
      if (mayShowText(entry)) kept.push(entry);
    }
    if (kept.length === annots.length) continue;
    const pruned = doc.newArray();
    for (const entry of kept) pruned.push(entry);
    pageObj.put('Annots', pruned);
  }
  for (const i of indices) yield doc.loadPage(i);
}

/**
 * Whether an /Annots entry can show text: a widget, anything but an annotation, or an annotation whose appearance
 * (the state shown) can draw text: text is drawn between BT and ET, or by a form it invokes (Do). Resources are no
 * guide: MuPDF draws text whose font is missing with a fallback font. An annotation without an appearance is left to
 * MuPDF, which makes one (a popup or a link excepted: those it leaves without).
 */
function mayShowText(obj: mupdf.PDFObject): boolean {
  if (!obj.isDictionary()) return true;
  const subtype = obj.get('Subtype');
  if (!subtype.isName()) return true;
  const kind = subtype.asName();
  if (kind === 'Widget') return true;
  // /AP's /N in one lookup: MuPDF resolves the dictionaries it looks through and answers /N as stored, a stream as its
  // reference (a stream is known as one by its reference, not by its resolved dictionary). One wrapper, not three: the
  // check runs for every annotation of every page, and each wrapper is a FinalizationRegistry entry.
  let appearance = obj.get('AP', 'N');
  // MuPDF makes an appearance for an annotation without one, but never for a popup or a link.
  if (appearance.isNull()) return kind !== 'Popup' && kind !== 'Link';
  if (!appearance.isStream() && deref(appearance).isDictionary()) {
    const state = deref(obj.get('AS'));
    appearance = deref(appearance).get(state.isName() ? state.asName() : 'Off');
  }
  if (!appearance.isStream()) return appearance.isNull();
  // The decoded stream is a copy in MuPDF's memory: given back now rather than when a garbage collection finds it.
  const stream = appearance.readStream();
  try {
    return /(^|[\s\]>)])(BT|Do)(?=[\s[<(/]|$)/.test(stream.asString());
  } finally {
    stream.destroy();
  }
}

/** Axis-aligned bounds of characters in page space. */
class Bounds {
  x0 = Infinity;
  y0 = Infinity;
  x1 = -Infinity;
  y1 = -Infinity;

  addQuad(q: ArrayLike<number>): void {
    for (let k = 0; k < 8; k += 2) {
      if (q[k]! < this.x0) this.x0 = q[k]!;
      if (q[k]! > this.x1) this.x1 = q[k]!;
      if (q[k + 1]! < this.y0) this.y0 = q[k + 1]!;
      if (q[k + 1]! > this.y1) this.y1 = q[k + 1]!;
    }
  }

  add(b: Bounds): void {
    this.x0 = Math.min(this.x0, b.x0);
    this.y0 = Math.min(this.y0, b.y0);
    this.x1 = Math.max(this.x1, b.x1);
    this.y1 = Math.max(this.y1, b.y1);
  }

  get empty(): boolean {
    return this.x0 > this.x1;
  }

  box(): [number, number, number, number] {
    return [this.x0, this.y0, this.x1, this.y1];
  }
}

const WHITESPACE = /^\s$/u;

/**
 * Words, lines or blocks of the page with their boxes. Characters are taken
 * from the plain text, matched one by one to the walk's characters: the walk
 * reports each character as a single UTF-16 unit (mupdf.js uses
 * String.fromCharCode, which truncates characters beyond U+FFFF), the plain
 * text has them whole, and the units' text then equals the page text's by
 * construction. Should the two ever disagree, the walk's characters are used.
 * A word is a run of characters without whitespace within one line. Boxes
 * are the characters' bodies (bodyQuad: 0.18 em below the baseline to 0.78 em
 * above it), the boxes redaction uses, so a word's box can redact that word.
 */
function textUnits(page: mupdf.PDFPage, stext: mupdf.StructuredText, text: string, detail: TextDetail): TextUnit[] {
  const space = new PageSpace(page);
  const units: TextUnit[] = [];
  const emit = (chars: string, bounds: Bounds) => {
    if (chars !== '' && !bounds.empty) units.push({ text: chars, rectangle: space.rectangle(bounds.box()) });
  };
  let pos = 0;
  let aligned = true;
  const character = (c: string): string => {
    if (aligned) {
      const cp = text.codePointAt(pos);
      if (cp !== undefined && (cp & 0xffff) === c.charCodeAt(0)) {
        const whole = String.fromCodePoint(cp);
        pos += whole.length;
        return whole;
      }
      aligned = false;
    }
    return c;
  };
  const lineBreak = () => {
    if (aligned && text[pos] === '\n') pos++;
    else aligned = false;
  };

  let word = '';
  let wordBounds = new Bounds();
  let line = '';
  let lineBounds = new Bounds();
  let blockLines: string[] = [];
  let blockBounds = new Bounds();
  const box = new Float64Array(8);
  const endWord = () => {
    if (detail === 'words') emit(word, wordBounds);
    word = '';
    wordBounds = new Bounds();
  };
  walkText(stext, {
    beginTextBlock() {
      blockLines = [];
      blockBounds = new Bounds();
    },
    beginLine() {
      line = '';
      lineBounds = new Bounds();
    },
    onChar(c, origin, size, quad) {
      const ch = character(c);
      bodyQuad(quad, origin, size, box);
      line += ch;
      lineBounds.addQuad(box);
      if (detail !== 'words') return;
      if (WHITESPACE.test(ch)) {
        endWord();
      } else {
        word += ch;
        wordBounds.addQuad(box);
      }
    },
    endLine() {
      lineBreak();
      endWord();
      if (detail === 'lines') emit(line, lineBounds);
      if (line !== '') {
        blockLines.push(line);
        blockBounds.add(lineBounds);
      }
    },
    endTextBlock() {
      lineBreak();
      if (detail === 'blocks') emit(blockLines.join('\n'), blockBounds);
    },
  });
  return units;
}

function loadText(page: mupdf.PDFPage, pageIndex: number, detail: TextDetail | undefined): PageTextModel {
  const stexts = structuredTexts(page);
  try {
    // Written by MuPDF in C, so plain text makes no call per character: each line ends with "\n", each block with one more.
    const texts = stexts.map((stext) => stext.asText());
    const text = texts.join('');
    return detail ? { pageIndex, text, [detail]: stexts.flatMap((stext, i) => textUnits(page, stext, texts[i]!, detail)) } : { pageIndex, text };
  } finally {
    for (const stext of stexts) stext.destroy();
  }
}

/**
 * The `documentText` task: the text of every page, or of share `part` of
 * `parts` equal shares of the pages (so that the service can divide a
 * document among its workers without asking for its page count first).
 */
export function documentText(input: { pdf: PdfSource; password?: string | undefined; part?: number; parts?: number }, ctx?: TaskContext): { pageCount: number; texts: string[] } {
  return withPdf(input, 'copy', (doc) => {
    const pageCount = doc.countPages();
    const parts = input.parts ?? 1;
    const part = input.part ?? 0;
    const from = Math.floor((part * pageCount) / parts);
    const to = Math.floor(((part + 1) * pageCount) / parts);
    const texts: string[] = [];
    let i = from;
    for (const page of textPages(doc, from, to)) {
      try {
        texts.push(loadText(page, i, undefined).text);
      } finally {
        page.destroy();
      }
      i++;
      ctx?.progress({ done: i - from, total: to - from, stage: 'text' });
    }
    return { pageCount, texts };
  });
}

/** The `pageText` task: one page's text, with its words, lines or blocks when asked. The page is the resource addressed (pages/{pageIndex}), so a page that does not exist is 404. */
export function pageText(input: { pdf: PdfSource; password?: string | undefined; pageIndex: number; detail?: TextDetail | undefined }): { pageCount: number; page: PageTextModel } {
  return withPdf(input, 'copy', (doc) => {
    checkPageIndex(doc, input.pageIndex, { inPath: true });
    const [page] = textPages(doc, input.pageIndex, input.pageIndex + 1);
    try {
      return { pageCount: doc.countPages(), page: loadText(page!, input.pageIndex, input.detail) };
    } finally {
      page!.destroy();
    }
  });
}

/**
 * The words of the pages `indices` with their boxes, as pageText's `words` detail gives them (what the page shows,
 * its annotations' text included): for compare (engine/compare), which diffs them. Like every text read here it takes
 * out of this open copy the annotations that show no text: render the pages before, not after.
 */
export function pageWords(doc: mupdf.PDFDocument, indices: readonly number[]): TextUnit[][] {
  const out: TextUnit[][] = [];
  let k = 0;
  for (const page of textPagesAt(doc, indices)) {
    try {
      out.push(loadText(page, indices[k]!, 'words').words ?? []);
    } finally {
      page.destroy();
    }
    k++;
  }
  return out;
}
