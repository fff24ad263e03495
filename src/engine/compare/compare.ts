/**
 * Compare (issue 40, docs/compare.md): the engine tasks. The service runs them in phases, each document in its own
 * tasks so both workers work: page digests of both documents; the words and a thumbnail of the pages without a twin
 * of equal digest, which matching needs; matching (pure, in a worker too); the changed pairs rendered and diffed, in
 * shares; and, for the PDF answer, the document with its changes highlighted.
 */
import { createHash, type Hash } from 'node:crypto';
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { withPdf, type PdfInput } from '../core/document-task.js';
import { saveFull } from '../core/save.js';
import { unregistered } from '../core/wrapper-registry.js';
import type { Need } from '../core/access.js';
import { PageSpace } from '../pages/geometry.js';
import { MAX_PIXELS, MAX_SIDE } from '../pages/model.js';
import { pageWords } from '../text/extraction.js';
import { buildForm } from '../drawing/form.js';
import { drawTextStamp } from '../stamps/text.js';
import { chooseFont } from '../drawing/model.js';
import { faceChain } from '../drawing/fonts.js';
import type { Rectangle } from '../syntax/geometry.js';
import { diffSequences, differingRegions, matchPages } from './diff.js';
import { MAX_COMPARE_PAGES, type CompareOptions, type CompareWord, type PageContent, type PageMatch, type PairDiff, type VisualChange } from './model.js';

/** Keys that do not change what a page shows and would tie its digest to other objects: parents, structure, pages. */
const SKIPPED_KEYS = new Set(['Parent', 'P', 'StructParents', 'StructParent', 'Popup', 'ID', 'PieceInfo', 'LastModified', 'M']);
/**
 * Keys of a stream's dictionary left out when the stream is hashed decoded: another writer may compress what one left
 * plain (qpdf does), which changes the stored bytes and these keys, not what the stream says.
 */
const STREAM_CODING_KEYS = new Set(['Length', 'Filter', 'DecodeParms', 'DL']);
/** Filters of image data: such a stream is hashed as stored (decoding a JPEG to hash it would cost a rendering's time). */
const IMAGE_FILTERS = new Set(['DCTDecode', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode', 'DCT', 'CCF']);

function imageCoded(dict: mupdf.PDFObject): boolean {
  const filter = dict.get('Filter');
  const names: string[] = [];
  if (filter.isName()) names.push(filter.asName());
  else if (filter.isArray()) for (let k = 0; k < filter.length; k++) names.push(String(filter.get(k).isName() ? filter.get(k).asName() : ''));
  return names.some((n) => IMAGE_FILTERS.has(n));
}

/** What a page inherits from its parents (ISO 32000-1 7.7.3.4), put into its digest since Parent is not followed. */
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;

/**
 * A document's page digests: each a hash of what the page object holds, followed through every object it refers to
 * (content streams and images as stored, fonts, annotations and their appearances), each shared object hashed once
 * (by object number). Two pages of equal digests draw the same, so they need neither rendering nor extraction; two
 * pages that draw the same but are written differently (another producer) differ here, and are compared by their
 * content later. A reference to a page (a link's destination) counts as "a page", not followed.
 */
export function comparePageDigests(input: PdfInput & { need: Need }): { pageCount: number; digests: string[] } {
  return withPdf(input, input.need, (doc) => collectingObjects(() => {
    const pageCount = doc.countPages();
    if (pageCount > MAX_COMPARE_PAGES) throw new EngineError('COMPARE_TOO_LARGE', `The document has ${pageCount} pages; compare takes documents of at most ${MAX_COMPARE_PAGES}`);
    const pages: mupdf.PDFObject[] = [];
    const pageNumbers = new Set<number>();
    for (let i = 0; i < pageCount; i++) {
      const page = doc.findPage(i);
      pages.push(page);
      if (page.isIndirect()) pageNumbers.add(page.asIndirect());
    }
    const memo = new Map<number, string>();
    const busy = new Set<number>();
    const feed = (obj: mupdf.PDFObject, h: Hash): void => {
      if (obj.isIndirect()) {
        const num = obj.asIndirect();
        if (pageNumbers.has(num)) return void h.update('@page;');
        const known = memo.get(num);
        if (known !== undefined) return void h.update(known);
        // A cycle (an annotation's /IRT pair, a structure loop): marked, not followed.
        if (busy.has(num)) return void h.update('@cycle;');
        busy.add(num);
        const sub = createHash('sha1');
        // A stream is known as one by its reference, not by its resolved dictionary (MuPDF).
        const resolved = obj.resolve();
        const decoded = obj.isStream() && !imageCoded(resolved);
        feedDirect(resolved, sub, decoded);
        if (obj.isStream()) {
          sub.update('stream');
          sub.update((decoded ? obj.readStream() : obj.readRawStream()).asUint8Array());
        }
        const digest = sub.digest('base64');
        busy.delete(num);
        memo.set(num, digest);
        return void h.update(digest);
      }
      feedDirect(obj, h);
    };
    const feedDirect = (obj: mupdf.PDFObject, h: Hash, decoded = false): void => {
      if (obj.isNull()) h.update('n;');
      else if (obj.isBoolean()) h.update(obj.asBoolean() ? 't;' : 'f;');
      else if (obj.isNumber()) h.update(`${obj.asNumber()};`);
      else if (obj.isName()) h.update(`/${obj.asName()};`);
      else if (obj.isString()) {
        h.update('(');
        h.update(obj.asByteString());
        h.update(');');
      } else if (obj.isArray()) {
        // An array of plain values (a Rect, a colour, QuadPoints, a Matrix: most arrays of a page) as MuPDF prints it,
        // in one call: element by element, each number would be a wrapper of its own, and those were half the time.
        const printed = obj.toString(true);
        if (!/ R\b|<<|\(/.test(printed)) return void h.update(printed);
        h.update('[');
        for (let k = 0; k < obj.length; k++) feed(obj.get(k), h);
        h.update(']');
      } else if (obj.isDictionary()) {
        const entries: [string, mupdf.PDFObject][] = [];
        obj.forEach((value, key) => {
          if (!SKIPPED_KEYS.has(String(key)) && !(decoded && STREAM_CODING_KEYS.has(String(key)))) entries.push([String(key), value]);
        });
        entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        h.update('<<');
        for (const [key, value] of entries) {
          h.update(`/${key} `);
          feed(value, h);
        }
        h.update('>>');
      }
    };
    const digests = pages.map((page) => {
      const h = createHash('sha1');
      const own = page.resolve();
      feedDirect(own, h);
      for (const key of INHERITED) {
        if (!own.get(key).isNull()) continue;
        h.update(`^${key} `);
        feed(own.getInheritable(key), h);
      }
      return h.digest('base64');
    });
    return { pageCount, digests };
  }));
}

/**
 * Runs `work` (synchronous) with the PDFObject wrappers it makes kept in a list instead of registered with mupdf.js's
 * FinalizationRegistry (core/wrapper-registry.ts), and releases them all when it ends. The digests make a wrapper for
 * every value they visit (about 100,000 for the 200-page bench document); registering each and collecting them later
 * was over half of the digests' time (CPU profile: garbage collection 35%, the wrapper's constructor 20%). Every
 * wrapper made is destroyed, so none leaks.
 */
function collectingObjects<T>(work: () => T): T {
  const made: mupdf.PDFObject[] = [];
  try {
    return unregistered(mupdf.PDFObject, (wrapper) => made.push(wrapper as mupdf.PDFObject), work);
  } finally {
    for (const obj of made) obj.destroy();
  }
}

/** Thumbnails are this many pixels a side (the page squeezed into a square): enough to tell a picture page from another. */
const THUMB = 16;

/** The words and a thumbnail of the pages `pages` (those matching pairs by content). */
export function comparePageContent(input: PdfInput & { need: Need; pages: number[] }): PageContent[] {
  return withPdf(input, input.need, (doc) => {
    // Rendered first: the word extraction takes the annotations that show no text out of this open copy.
    const thumbnails = input.pages.map((pageIndex) => {
      const page = doc.loadPage(pageIndex);
      try {
        const [x0, y0, x1, y1] = page.getBounds();
        const matrix = mupdf.Matrix.scale(THUMB / Math.max(1, x1 - x0), THUMB / Math.max(1, y1 - y0));
        const pixmap = page.toPixmap(matrix, mupdf.ColorSpace.DeviceGray, false, true);
        try {
          const pixels = pixmap.getPixels();
          const stride = pixmap.getStride();
          const out: number[] = [];
          for (let y = 0; y < THUMB; y++) for (let x = 0; x < THUMB; x++) out.push(y < pixmap.getHeight() && x < pixmap.getWidth() ? pixels[y * stride + x]! : 255);
          return out;
        } finally {
          pixmap.destroy();
        }
      } finally {
        page.destroy();
      }
    });
    const words = pageWords(doc, input.pages);
    return input.pages.map((pageIndex, k) => ({ pageIndex, words: words[k]!.map((w) => ({ text: w.text, rectangle: w.rectangle })), thumbnail: thumbnails[k]! }));
  });
}

/** matchPages (diff.ts) as a task: pure work, but proportional to the pages without twins squared, so not on the event loop. */
export function matchComparePages(input: { baseDigests: string[]; digests: string[]; baseContent: PageContent[]; content: PageContent[] }): PageMatch {
  return matchPages(input.baseDigests, input.digests, input.baseContent, input.content);
}

export interface PairInput {
  basePageIndex: number;
  pageIndex: number;
  /** The words of both pages (comparePageContent's), for the text diff. */
  baseWords: CompareWord[];
  words: CompareWord[];
}

/** The page at `dpi` as RGB, its size checked first as renderPage checks it; and the page's space, for boxes. */
function renderRgb(doc: mupdf.PDFDocument, pageIndex: number, dpi: number): { pixels: Uint8ClampedArray; width: number; height: number; stride: number; x: number; y: number; toUser: mupdf.Matrix } {
  const page = doc.loadPage(pageIndex);
  try {
    const scale = dpi / 72;
    const [x0, y0, x1, y1] = page.getBounds();
    const w = Math.ceil((x1 - x0) * scale);
    const h = Math.ceil((y1 - y0) * scale);
    if (w * h > MAX_PIXELS || w > MAX_SIDE || h > MAX_SIDE) {
      throw new EngineError('VALIDATION_FAILED', `dpi: at ${dpi} dpi page ${pageIndex + 1} would be ${w} x ${h} pixels; the limit is ${MAX_PIXELS / 1e6} megapixels and ${MAX_SIDE} pixels a side`);
    }
    const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      // Copied out of MuPDF's memory: the next rendering may grow it and move the view.
      return { pixels: new Uint8ClampedArray(pixmap.getPixels()), width: pixmap.getWidth(), height: pixmap.getHeight(), stride: pixmap.getStride(), x: pixmap.getX(), y: pixmap.getY(), toUser: new PageSpace(page).toUser };
    } finally {
      pixmap.destroy();
    }
  } finally {
    page.destroy();
  }
}

/** [x0, y0, x1, y1] of page space as a user-space rectangle (PageSpace.rectangle without a page object at hand). */
function userRectangle(box: mupdf.Rect, toUser: mupdf.Matrix): Rectangle {
  const r = mupdf.Rect.transform(box, toUser);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { x: round(Math.min(r[0], r[2])), y: round(Math.min(r[1], r[3])), width: round(Math.abs(r[2] - r[0])), height: round(Math.abs(r[3] - r[1])) };
}

/**
 * The changed pairs (a share of them): words diffed (diffSequences: inserted words with their boxes on the document's
 * page, deleted words with theirs on the base's), and both pages rendered at `dpi` and their differing pixels grouped
 * into boxes, given in user space of the document's page.
 */
export function comparePagePairs(input: { base: PdfInput; document: PdfInput; need: Need; pairs: PairInput[]; options: CompareOptions }): PairDiff[] {
  const { options } = input;
  return withPdf(input.base, input.need, (baseDoc) =>
    withPdf(input.document, input.need, (doc) =>
      input.pairs.map((pair) => {
        const out: PairDiff = { basePageIndex: pair.basePageIndex, pageIndex: pair.pageIndex, insertedWords: [], deletedWords: [], visualChanges: [] };
        if (options.text) {
          const { deleted, inserted } = diffSequences(pair.baseWords.map((w) => w.text), pair.words.map((w) => w.text));
          out.deletedWords = pair.baseWords.filter((_w, i) => deleted[i]);
          out.insertedWords = pair.words.filter((_w, j) => inserted[j]);
        }
        if (options.visual) {
          const a = renderRgb(baseDoc, pair.basePageIndex, options.dpi);
          const b = renderRgb(doc, pair.pageIndex, options.dpi);
          const scale = options.dpi / 72;
          out.visualChanges = differingRegions(a, b, options.threshold).map(({ box, pixels }): VisualChange => ({
            rectangle: userRectangle([(box[0] + b.x) / scale, (box[1] + b.y) / scale, (box[2] + b.x) / scale, (box[3] + b.y) / scale], b.toUser),
            pixels,
          }));
        }
        return out;
      }),
    ),
  );
}

/** Colours of the highlight document: inserted words, changed regions. */
const INSERTED_COLOR: [number, number, number] = [0.2, 0.85, 0.2];
const CHANGED_COLOR: [number, number, number] = [0.9, 0.1, 0.1];
/** The summary pages: text size, lines a page, characters a line. */
const SUMMARY_SIZE = 9;
const SUMMARY_MARGIN = 50;

export interface HighlightPage {
  pageIndex: number;
  insertedWords: CompareWord[];
  visualChanges: VisualChange[];
}

/**
 * The document with its changes shown: a highlight annotation over each inserted word, a red rectangle around each
 * changed region, and summary pages in front (`summary`'s lines: counts, moved, inserted and deleted pages, deleted
 * words), drawn as real text as the text stamp draws it. The stored document is not changed: this is a new file.
 */
export function compareHighlights(input: PdfInput & { pages: HighlightPage[]; summary: string[] }): { bytes: Uint8Array } {
  return withPdf(input, 'view', (doc) => {
    for (const entry of input.pages) {
      const page = doc.loadPage(entry.pageIndex) as mupdf.PDFPage;
      try {
        const toPage = page.getTransform();
        const pageBox = (r: Rectangle): mupdf.Rect => mupdf.Rect.transform([r.x, r.y, r.x + r.width, r.y + r.height], toPage);
        for (const word of entry.insertedWords) {
          const [x0, y0, x1, y1] = pageBox(word.rectangle);
          const annot = page.createAnnotation('Highlight');
          annot.setColor(INSERTED_COLOR);
          annot.setQuadPoints([[x0, y0, x1, y0, x0, y1, x1, y1]]);
          annot.setContents(`Inserted: ${word.text}`);
          annot.update();
        }
        for (const change of entry.visualChanges) {
          const annot = page.createAnnotation('Square');
          annot.setRect(pageBox(change.rectangle));
          annot.setColor(CHANGED_COLOR);
          annot.setBorderWidth(1);
          annot.setContents('Changed region');
          annot.update();
        }
      } finally {
        page.destroy();
      }
    }
    addSummaryPages(doc, input.summary);
    return { bytes: saveFull(doc) };
  });
}

/** Characters a summary line holds before it wraps (Helvetica at SUMMARY_SIZE across a Letter page's margins). */
const SUMMARY_LINE = 110;

/** Lines cut at spaces to SUMMARY_LINE characters, with the characters no font of the service draws left out. */
function summaryLines(lines: string[]): string[] {
  const faces = faceChain(chooseFont('Helvetica')!);
  const out: string[] = [];
  for (const raw of lines) {
    const line = [...raw.replace(/\s+/gu, ' ')].filter((ch) => faces.some((f) => f.has(ch.codePointAt(0)!))).join('');
    let rest = line;
    while (rest.length > SUMMARY_LINE) {
      const cut = rest.lastIndexOf(' ', SUMMARY_LINE);
      const at = cut > SUMMARY_LINE / 2 ? cut : SUMMARY_LINE;
      out.push(rest.slice(0, at));
      rest = `    ${rest.slice(at).trimStart()}`;
    }
    out.push(rest);
  }
  return out;
}

function addSummaryPages(doc: mupdf.PDFDocument, text: string[]): void {
  const lines = summaryLines(text);
  const [width, height] = [612, 792];
  const leading = SUMMARY_SIZE * 1.2;
  const perPage = Math.max(1, Math.floor((height - 2 * SUMMARY_MARGIN) / leading));
  const chunks: string[][] = [];
  for (let i = 0; i < lines.length; i += perPage) chunks.push(lines.slice(i, i + perPage));
  chunks.forEach((chunk, p) => {
    const scratch = new mupdf.PDFDocument();
    let form: mupdf.PDFObject;
    try {
      const { drawing } = drawTextStamp(scratch, { text: chunk.join('\n'), x: SUMMARY_MARGIN, y: height - SUMMARY_MARGIN - SUMMARY_SIZE, fontSize: SUMMARY_SIZE });
      form = doc.graftObject(buildForm(scratch, drawing));
    } finally {
      scratch.destroy();
    }
    const xobjects = doc.newDictionary();
    xobjects.put('S0', form);
    const resources = doc.newDictionary();
    resources.put('XObject', xobjects);
    doc.insertPage(p, doc.addPage([0, 0, width, height], 0, resources, '/S0 Do'));
  });
}
