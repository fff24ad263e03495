/**
 * The drawing of an image stamp: the image placed with its lower-left corner
 * at (x, y), sized in points, turned about that corner. JPEG data goes in as
 * it is (DCTDecode, no recompression); PNG transparency becomes an /SMask.
 */
import * as mupdf from 'mupdf';
import { EngineError } from '../errors.js';
import { isStampImageType, type DeclaredImageType, type StampImageType } from '../images/model.js';
import { sniffImageType, type FrameInfo } from '../images/info.js';
import { checkDecoded, checkedFrames, decode, placement, sizeInPoints, withBuffer } from '../images/to-pdf.js';
import { alphaState, type StampDrawing } from '../drawing/form.js';
import { pdfNumbers, stampMatrix } from '../drawing/geometry.js';


/** The image type of a stamp upload: as declared, or by its signature when sent as octet-stream. */
function stampImageType(bytes: Uint8Array, declared: DeclaredImageType): StampImageType {
  if (declared !== 'application/octet-stream') return declared;
  const sniffed = sniffImageType(bytes);
  if (!isStampImageType(sniffed)) {
    throw new EngineError('UNSUPPORTED_MEDIA_TYPE', `The stamp image must be a JPEG or PNG image, not ${sniffed ?? 'an unknown type'}`);
  }
  return sniffed;
}

export interface ImageStampRequest {
  x: number;
  y: number;
  /** Degrees, counter-clockwise about (x, y). */
  rotation?: number | undefined;
  /** Points; with only one of width and height the other keeps the aspect ratio. */
  width?: number | undefined;
  height?: number | undefined;
  /** Of the natural size (the image's own resolution, else 72 dpi); not with width or height. */
  scale?: number | undefined;
  /** 0 opaque to 1 invisible. */
  transparency?: number | undefined;
}

export function drawImageStamp(scratch: mupdf.PDFDocument, bytes: Uint8Array, mediaType: DeclaredImageType, request: ImageStampRequest): { drawing: StampDrawing; width: number; height: number } {
  const frame = checkedFrames(bytes, stampImageType(bytes, mediaType))[0]!;
  const image = withBuffer(bytes, (buffer) => decode(() => new mupdf.Image(buffer)));
  try {
    checkDecoded(image, frame);
    const { width, height } = targetSize(frame, request);
    // An EXIF-turned photo shows upright: its stored pixels are height x width.
    const orientation = frame.orientation ?? 1;
    const turned = orientation >= 5;
    const place = placement(turned ? height : width, turned ? width : height, orientation).matrix as mupdf.Matrix;
    const matrix = mupdf.Matrix.concat(place, stampMatrix(request.x, request.y, request.rotation ?? 0));

    const resources = scratch.newDictionary();
    const xobjects = scratch.newDictionary();
    xobjects.put('Im0', decode(() => scratch.addImage(image)));
    resources.put('XObject', xobjects);
    const gs = alphaState(scratch, resources, request.transparency ?? 0);
    const content = ['q', gs, `${pdfNumbers(matrix)} cm`, '/Im0 Do', 'Q'].filter(Boolean).join('\n');
    return { drawing: { content, bbox: mupdf.Rect.transform([0, 0, 1, 1], matrix), resources, embedsFonts: false }, width, height };
  } finally {
    image.destroy();
  }
}

/** The size the image is shown at, in points, as it appears (after its EXIF orientation). */
function targetSize(frame: FrameInfo, request: ImageStampRequest): { width: number; height: number } {
  const { w, h } = sizeInPoints(frame);
  const [naturalWidth, naturalHeight] = (frame.orientation ?? 1) >= 5 ? [h, w] : [w, h];
  if (request.width !== undefined && request.height !== undefined) return { width: request.width, height: request.height };
  if (request.width !== undefined) return { width: request.width, height: (request.width * naturalHeight) / naturalWidth };
  if (request.height !== undefined) return { width: (request.height * naturalWidth) / naturalHeight, height: request.height };
  const scale = request.scale ?? 1;
  return { width: naturalWidth * scale, height: naturalHeight * scale };
}
