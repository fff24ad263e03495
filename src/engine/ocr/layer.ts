import * as mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';
import { editPdf, withPdf, withSummary } from '../core/document-task.js';
import type { WrittenSummary } from '../core/inspect.js';
import { deref } from '../core/mupdf-objects.js';
import type { PdfSource } from '../core/pdf-source.js';
import { ownResources, PageOverlay } from '../pages/overlay.js';
import { EngineError } from '../errors.js';
import { parsePageRange } from '../pages/range.js';
import { layerContent } from './lines.js';
import { addStructureTree } from '../pdfua/build.js';
import { addPageElement, isTagged } from '../pdfua/keep.js';
import type { OcrLine, QuarterTurn } from './model.js';

/**
 * The resource name of the text layer this service adds: a form XObject
 * drawn after the page's own content (which is not changed). It marks the
 * layer as ours, so that `force` replaces it and a page that has it is not
 * taken for a page with text of its own.
 */
const OCR_LAYER = 'PDFServiceOCR';

export interface OcrPageSurvey {
  pageIndex: number;
  /** Extractable text other than our layer. */
  hasText: boolean;
  /** Our text layer from an earlier OCRAction. */
  hasLayer: boolean;
}

/**
 * The `ocrSurvey` task: the pages an OCRAction names (`pageIndex`, or
 * `pageRange`, default all) and, for each, whether it has text of its own
 * and whether it has our layer already.
 */
export function ocrSurvey(input: { pdf: PdfSource; password?: string | undefined; pageIndex?: number | undefined; pageRange?: string | undefined }): { pageCount: number; pages: OcrPageSurvey[] } {
  return withPdf(input, 'edit', (doc) => {
    const pageCount = doc.countPages();
    if (input.pageIndex !== undefined && input.pageIndex >= pageCount) {
      throw new EngineError('PAGE_OUT_OF_RANGE', `pageIndex ${input.pageIndex} is past the last page; the document has ${pageCount} (numbered from 0)`);
    }
    const indexes = input.pageIndex !== undefined ? [input.pageIndex] : parsePageRange(input.pageRange, pageCount);
    const pages = indexes.map((pageIndex) => {
      const page = doc.loadPage(pageIndex);
      try {
        const hasLayer = layerOf(page.getObject()) !== undefined;
        // With our layer, the page's text is (also) ours: it counts as recognised already, not as text of its own.
        const hasText = !hasLayer && pageHasText(page);
        return { pageIndex, hasText, hasLayer };
      } finally {
        page.destroy();
      }
    });
    return { pageCount, pages };
  });
}

function pageHasText(page: mupdf.PDFPage): boolean {
  // The page's content only: annotations (a note, a stamp) are not text of the scan.
  const text = page.toStructuredText('');
  try {
    return /\S/u.test(text.asText());
  } finally {
    text.destroy();
  }
}

function layerOf(pageObj: mupdf.PDFObject): mupdf.PDFObject | undefined {
  // A page may have no /Resources (a blank page) or inherit them: get() on MuPDF's null object throws.
  const resources = deref(pageObj.getInheritable('Resources'));
  if (!resources.isDictionary()) return undefined;
  const xobjects = deref(resources.get('XObject'));
  if (!xobjects.isDictionary()) return undefined;
  const layer = xobjects.get(OCR_LAYER);
  return layer.isNull() ? undefined : layer;
}

/** What tagging did: `added` a structure tree to an untagged document, or `kept` the document's own. */
export type OcrTagging = 'added' | 'kept';

/**
 * Tagged: the page's own content (the scan) opens an /Artifact sequence that the layer's drawing closes before its
 * text, a P of MCID 0: a screen reader reads the recognised text, not the image it was read from.
 */
const ARTIFACT_OPENING = '/Artifact BMC\nq';

export interface OcrLayer {
  pageIndex: number;
  /** Tesseract's text-only PDF of the page image (one page): its page size and its font (GlyphLessFont) are the layer's. */
  textPdf: Uint8Array;
  /** The recognised lines, in the image's pixels: the layer's text. */
  lines: OcrLine[];
  /** The image's resolution and height in pixels (renderForOcr). */
  dpi: number;
  height: number;
  /** Maps the space of Tesseract's PDF onto the page's default user space (renderForOcr). */
  matrix: number[];
  /** Turn the page's display by this many degrees clockwise (autoRotate), or 0. */
  rotate: QuarterTurn;
}

/**
 * The `addOcrLayers` task: each page gets its recognised text as a form
 * XObject over its content, invisible (render mode 3), line by line
 * (lines.ts), in Tesseract's GlyphLessFont, whose codes are Unicode
 * (ToUnicode), so that selection, search and extraction find the words where
 * the image shows them, and phrases across them. The page's content streams and images are not touched: the page's
 * content is wrapped in q/Q by added streams (PageOverlay) and the layer is
 * drawn after it; the document is rewritten without compressing the streams
 * it has (an uncompressed content stream keeps its bytes). A page with our
 * layer already has it replaced (force). The font is stored once per
 * document. A signed document is saved incrementally (editPdf), so its
 * signatures stay intact.
 */
export function addOcrLayers(input: { pdf: PdfSource; password?: string | undefined; layers: OcrLayer[]; tagged?: boolean | undefined }): { bytes?: Uint8Array; summary?: WrittenSummary; tagged?: OcrTagging } {
  return editPdf(input, 'edit', (doc, { save, opened }) => {
    if (!input.layers.length) return withSummary(doc, opened, {});
    // Tagged (the default) only where the document has no tree of its own: one it has is kept as it is (docs/accessibility.md).
    const tagging: OcrTagging | undefined = input.tagged === false ? undefined : isTagged(doc) ? 'kept' : 'added';
    const overlay = new PageOverlay(doc, { opening: tagging === 'added' ? ARTIFACT_OPENING : undefined });
    const marked: number[] = [];
    const fonts = new Map<string, mupdf.PDFObject>();
    for (const layer of input.layers) {
      const form = layerForm(doc, layer, fonts);
      const pageObj = doc.findPage(layer.pageIndex);
      const xobjects = ownResources(doc, pageObj, 'XObject');
      const had = !xobjects.get(OCR_LAYER).isNull();
      xobjects.put(OCR_LAYER, form);
      // A replaced layer keeps the drawing that shows it.
      // A document's own tree gets a P for the layer after the page's elements (PDF/UA-1 7.1: all content tagged).
      const keptMcid = !had && tagging === 'kept' ? addPageElement(doc, layer.pageIndex, 'P') : undefined;
      const drawing = tagging === 'added' ? `EMC\n/P <</MCID 0>> BDC\n/${OCR_LAYER} Do\nEMC` : keptMcid !== undefined ? `/P <</MCID ${keptMcid}>> BDC\n/${OCR_LAYER} Do\nEMC` : `/${OCR_LAYER} Do`;
      if (!had) overlay.attach(pageObj, overlay.drawing(drawing));
      // A layer replaced (force) on a page of an untagged document kept the drawing of its untagged first run: no P there.
      if (!had) marked.push(layer.pageIndex);
      if (layer.rotate) {
        const was = deref(pageObj.getInheritable('Rotate'));
        const current = was.isNumber() ? was.asNumber() : 0;
        pageObj.put('Rotate', doc.newInteger((((current + layer.rotate) % 360) + 360) % 360));
      }
    }
    const added = tagging === 'added' && marked.length > 0;
    if (added) addStructureTree(doc, marked.map((pageIndex) => ({ pageIndex, content: [{ type: 'P', mcid: 0 }] })));
    const tagged = tagging === 'kept' ? tagging : added ? 'added' : undefined;
    // The pages' own streams keep their stored bytes, an uncompressed one too (not compressed on the way).
    return withSummary(doc, opened, { bytes: save({ keepStreams: true }), ...(tagged ? { tagged } : {}) });
  });
}

/**
 * The layer as a form XObject of `doc`: the recognised lines written as text
 * (lines.ts) in the space of Tesseract's PDF of the image, whose page box and
 * font it takes; the font is grafted once per document (it is the same for
 * every page).
 */
function layerForm(doc: mupdf.PDFDocument, layer: OcrLayer, fonts: Map<string, mupdf.PDFObject>): mupdf.PDFObject {
  const text = new mupdf.PDFDocument(layer.textPdf);
  try {
    const page = text.findPage(0);
    const resources = doc.newDictionary();
    const fontDict = doc.newDictionary();
    let fontName: string | undefined;
    deref(deref(page.get('Resources')).get('Font')).forEach((font, name) => {
      const key = `${name}`;
      fontName ??= key;
      if (!fonts.has(key)) fonts.set(key, doc.graftObject(font));
      fontDict.put(name, fonts.get(key)!);
    });
    if (fontName === undefined) throw new EngineError('PROCESSING_FAILED', "Tesseract's PDF of the page has no font");
    resources.put('Font', fontDict);
    const dict = doc.newDictionary();
    dict.put('Type', doc.newName('XObject'));
    dict.put('Subtype', doc.newName('Form'));
    dict.put('BBox', numbers(doc, deref(page.get('MediaBox'))));
    const matrix = doc.newArray();
    for (const v of layer.matrix) matrix.push(doc.newReal(Math.round(v * 1e6) / 1e6));
    dict.put('Matrix', matrix);
    dict.put('Resources', resources);
    // Compressed here, as the document is saved without compressing streams (addOcrLayers).
    dict.put('Filter', doc.newName('FlateDecode'));
    const content = layerContent(layer.lines, { dpi: layer.dpi, height: layer.height, font: fontName });
    return doc.addRawStream(deflateSync(Buffer.from(content, 'latin1')), dict);
  } finally {
    text.destroy();
  }
}

function numbers(doc: mupdf.PDFDocument, array: mupdf.PDFObject): mupdf.PDFObject {
  const out = doc.newArray();
  for (let i = 0; i < array.length; i++) out.push(doc.newReal(deref(array.get(i)).asNumber()));
  return out;
}
