/**
 * Image to PDF: one page per image frame, each page exactly the image's physical size.
 */
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { gifFirstFrame, readImageInfo, sniffImageType, type FrameInfo, type ImageMediaType } from './info.js';
import { saveFull } from '../core/save.js';
import { addStructureTree } from '../pdfua/build.js';

// Declared with the header reader (which names the types it sniffs) so the two modules do not import each other.
export { IMAGE_MEDIA_TYPES, isImageMediaType, type ImageMediaType } from './info.js';

/** Checked against the headers before anything is decoded: decoding allocates w * h * 4 bytes or more. */
const IMAGE_LIMITS = { maxSide: 30_000, maxPixelsPerFrame: 200_000_000, maxFrames: 2_000 } as const;

/** Our rule when the file declares no resolution (MuPDF would assume 96). */
const DEFAULT_DPI = 72;

/**
 * How an image's pages are tagged (docs/accessibility.md, "Tagged output from converters"): each page's image is one
 * Figure, with `alt` as its alternate text when given (a description only a person can give is never invented).
 */
export interface ImageFigure {
  alt?: string | undefined;
}

/** Builds a PDF with one page per image frame, tagged when `figure` is given. Throws EngineError (src/engine/errors.ts). */
export function imageToPdf(bytes: Uint8Array, mediaType: ImageMediaType, figure?: ImageFigure): Uint8Array {
  const frames = checkedFrames(bytes, mediaType);
  const doc = new mupdf.PDFDocument();
  const tagged = figure !== undefined;
  try {
    if (mediaType === 'image/tiff') {
      addTiffPages(doc, bytes, frames, tagged);
    } else {
      // JPEG stays compressed in the Image and goes into the PDF byte for byte (DCTDecode).
      const data = mediaType === 'image/gif' ? gifFirstFrame(bytes) : bytes;
      const image = withBuffer(data, (buffer) => decode(() => new mupdf.Image(buffer)));
      try {
        addImagePage(doc, image, frames[0]!, tagged);
      } finally {
        image.destroy();
      }
    }
    if (figure) addStructureTree(doc, Array.from({ length: doc.countPages() }, (_, pageIndex) => ({ pageIndex, content: [{ type: 'Figure', mcid: 0, alt: figure.alt }] })));
    return saveFull(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * The frames an image file declares, after checking (before anything is decoded)
 * that its content is of the declared type, within the size limits and whole.
 */
export function checkedFrames(bytes: Uint8Array, mediaType: ImageMediaType): FrameInfo[] {
  if (sniffImageType(bytes) !== mediaType) {
    throw new EngineError('MALFORMED_IMAGE', 'The file content does not match the declared image type.', {
      mediaType,
    });
  }
  const { frames, frameCount, complete } = readImageInfo(bytes, mediaType, IMAGE_LIMITS.maxFrames);
  checkLimits(frames, frameCount);
  if (!complete) throw malformed();
  return frames;
}

function checkLimits(frames: FrameInfo[], frameCount: number): void {
  const { maxSide, maxPixelsPerFrame, maxFrames } = IMAGE_LIMITS;
  if (frameCount > maxFrames) {
    throw new EngineError('IMAGE_TOO_LARGE', `The image has more than ${maxFrames} frames.`, { maxFrames });
  }
  for (const { width, height } of frames) {
    if (width > maxSide || height > maxSide || width * height > maxPixelsPerFrame) {
      throw new EngineError('IMAGE_TOO_LARGE', 'The image dimensions exceed the allowed limit.', {
        width,
        height,
        maxSide,
        maxPixelsPerFrame,
      });
    }
  }
}

/**
 * MuPDF opens a TIFF as a document with one page per directory. Running a page through a
 * device hands us that frame as an Image (already decoded: TIFF has no PDF filter, so its
 * pixels are recompressed with Flate whichever way they get in).
 */
function addTiffPages(doc: mupdf.PDFDocument, bytes: Uint8Array, frames: FrameInfo[], tagged: boolean): void {
  const tiff = decode(() => mupdf.Document.openDocument(bytes, 'image/tiff'));
  try {
    // Both walk the same directory chain; a disagreement means a damaged file.
    if (decode(() => tiff.countPages()) !== frames.length) throw malformed();
    frames.forEach((frame, i) => {
      const image = decode(() => frameImage(tiff, i));
      try {
        addImagePage(doc, image, frame, tagged);
      } finally {
        image.destroy();
      }
    });
  } finally {
    tiff.destroy();
  }
}

function frameImage(tiff: mupdf.Document, index: number): mupdf.Image {
  const images: mupdf.Image[] = [];
  const device = new mupdf.Device({ fillImage: (image) => void images.push(image) });
  const page = tiff.loadPage(index);
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    page.destroy();
    device.destroy();
  }
  const [first, ...rest] = images;
  for (const extra of rest) extra.destroy();
  if (!first) throw malformed();
  return first;
}

function addImagePage(doc: mupdf.PDFDocument, image: mupdf.Image, frame: FrameInfo, tagged: boolean): void {
  checkDecoded(image, frame);
  const { w, h } = sizeInPoints(frame);
  const { matrix, pageWidth, pageHeight } = placement(w, h, frame.orientation ?? 1);

  // addImage decodes non-JPEG data and writes the alpha channel as an /SMask.
  const imageRef = decode(() => doc.addImage(image));
  // Built by hand rather than from a JS object literal, so they can be destroyed here.
  const xobjects = doc.newDictionary();
  const resources = doc.newDictionary();
  try {
    xobjects.put('Im0', imageRef);
    resources.put('XObject', xobjects);
    const drawing = `q ${matrix.join(' ')} cm /Im0 Do Q`;
    // Tagged: the image is the page's one piece of content, MCID 0 of its Figure (addStructureTree).
    const content = new TextEncoder().encode(tagged ? `/Figure <</MCID 0>> BDC\n${drawing}\nEMC` : drawing);
    const page = withBuffer(content, (buffer) => doc.addPage([0, 0, pageWidth, pageHeight], 0, resources, buffer));
    doc.insertPage(-1, page);
    page.destroy();
  } finally {
    resources.destroy();
    xobjects.destroy();
    imageRef.destroy();
  }
}

/**
 * Where the image's unit square goes on the page so that it shows upright, as
 * EXIF Orientation says: the stored image is w x h points; orientations 5 to 8
 * turn it a quarter, so the page is h x w. The PDF keeps the JPEG untouched
 * (an image XObject has no orientation of its own), so the turn is in `cm`.
 */
export function placement(w: number, h: number, orientation: number): { matrix: number[]; pageWidth: number; pageHeight: number } {
  switch (orientation) {
    case 2: return { matrix: [-w, 0, 0, h, w, 0], pageWidth: w, pageHeight: h }; // mirrored left-right
    case 3: return { matrix: [-w, 0, 0, -h, w, h], pageWidth: w, pageHeight: h }; // turned half way
    case 4: return { matrix: [w, 0, 0, -h, 0, h], pageWidth: w, pageHeight: h }; // mirrored top-bottom
    case 5: return { matrix: [0, -w, -h, 0, h, w], pageWidth: h, pageHeight: w }; // transposed
    case 6: return { matrix: [0, -w, h, 0, 0, w], pageWidth: h, pageHeight: w }; // turned clockwise for display
    case 7: return { matrix: [0, w, h, 0, 0, 0], pageWidth: h, pageHeight: w }; // transversed
    case 8: return { matrix: [0, w, -h, 0, h, 0], pageWidth: h, pageHeight: w }; // turned counter-clockwise
    default: return { matrix: [w, 0, 0, h, 0, 0], pageWidth: w, pageHeight: h };
  }
}

/** The headers and the decoder must agree, or the size checks were made on the wrong numbers. */
export function checkDecoded(image: mupdf.Image, frame: FrameInfo): void {
  if (image.getWidth() !== frame.width || image.getHeight() !== frame.height) throw malformed();
}

/** A frame's stored size in points, at the resolution it declares or at 72 dpi. */
export function sizeInPoints(frame: FrameInfo): { w: number; h: number } {
  const dpi = frame.resolution ?? { x: DEFAULT_DPI, y: DEFAULT_DPI };
  return { w: points(frame.width, dpi.x), h: points(frame.height, dpi.y) };
}

/** Page length in points, rounded so MediaBox and content stream carry the same short number. */
function points(pixels: number, dpi: number): number {
  return Math.round(((pixels * 72) / dpi) * 1e4) / 1e4;
}


/**
 * Passing a Uint8Array (or string) where MuPDF wants a Buffer makes a hidden Buffer that is
 * freed only when the garbage collector gets to it, and the collector does not see WASM
 * memory: converting large PNGs back to back grew the heap by the input size each time.
 */
export function withBuffer<T>(data: Uint8Array, use: (buffer: mupdf.Buffer) => T): T {
  const buffer = new mupdf.Buffer(data);
  try {
    return use(buffer);
  } finally {
    buffer.destroy();
  }
}

function malformed(): EngineError {
  return new EngineError('MALFORMED_IMAGE', 'The image data is damaged or cannot be decoded.');
}

/** How MuPDF words a failed allocation, e.g. "malloc (784000000 bytes) failed". */
const OUT_OF_MEMORY = /^(?:malloc|calloc|realloc) \(.*\) failed$/;

/**
 * Runs a MuPDF step that decodes the upload. MuPDF reports bad input as a plain Error; a
 * WebAssembly RuntimeError (abort, memory fault), a TypeError (our bug) or a thrown string
 * ("TRYLATER", "ABORT") is the engine failing, not the file: let those through.
 */
export function decode<T>(step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (!(err instanceof Error) || err.constructor !== Error) throw err;
    // Within the header limits this still happens: a 196-megapixel 16-bit RGBA PNG needs
    // more than the 2 GiB a WASM instance can have. The file is fine, just too big for us.
    if (OUT_OF_MEMORY.test(err.message)) {
      throw new EngineError('IMAGE_TOO_LARGE', 'The image is too large to convert.');
    }
    throw malformed();
  }
}
