import * as mupdf from 'mupdf';
import { ssim, type GrayImage } from './ssim.js';

/**
 * The JPEG quality of a rewritten image (docs/optimize.md#jpeg-quality): the
 * profile's `jpegQuality` is the reference. A lower step is taken while the
 * image stays as close to its pixels as at the reference, within
 * JPEG_SSIM_TOLERANCE of SSIM: a flat logo or a drawing loses nothing a reader
 * could see at a lower quality and is written in fewer bytes; a photo, whose
 * similarity falls with every step, keeps the reference. An image that JPEG
 * damages at the reference (SSIM below DAMAGED_SSIM: grain, sharp edges, the
 * images Ghostscript's AutoFilter writes losslessly) is raised instead, step
 * by step up to RAISE_LIMIT, until it reaches DAMAGED_SSIM.
 */

/** The qualities tried below the profile's (IJG scale), in this order; the first that loses too much ends the search. */
const STEPS = [85, 75, 62, 50, 40];

/**
 * Below this SSIM (gray, against the pixels written) at the profile's quality, JPEG is damaging the image. Measured
 * (150 dpi, IJG 62): smooth photographs 0.95 to 0.96 (bench/photo-fixtures.ts; Ghostscript's own JPEG of the same
 * pixels 0.958), the grainy photos of the image-heavy test document 0.84 to 0.89, which Ghostscript /ebook writes
 * losslessly and which at 0.62 made our pages worse than its (SSIM 0.9650 against 0.9724).
 */
export const DAMAGED_SSIM = 0.93;

/** The qualities a damaged image is raised through, and the highest (the quality `ebook` used for every image before). */
const RAISE = [75, 85, 92];

/**
 * SSIM a lower quality may lose against the profile's own. Measured on the corpus's us_constitution.pdf: its CMYK
 * logo (292x45, as RGB) is 5.9 KB at 0.92 and 4.6 KB at 0.85 for 0.0016 less; the image-heavy bench document's
 * photos lose 0.015 to 0.04 at the first step and keep 0.92.
 */
const JPEG_SSIM_TOLERANCE = 0.002;

/** The side of the tiles a large image is judged on, a multiple of 16 so that JPEG's blocks (16x16 with subsampled colour) never straddle two. */
const TILE = 128;

/** Images of more pixels than four tiles are judged on four tiles, one from the middle of each quarter, side by side. */
const SAMPLE_FROM_PIXELS = 4 * TILE * TILE;

/**
 * What the search encodes and compares: the image itself, or for a large one four tiles of it in a strip
 * (4 x 128 x 128). Encoding and decoding every step on the whole image made the image pass of the image-heavy
 * bench document twice as slow; the tiles tell the same photo from the same logo.
 */
function sampleOf(pixmap: mupdf.Pixmap): mupdf.Pixmap | undefined {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  if (width * height <= SAMPLE_FROM_PIXELS || width < 2 * TILE || height < 2 * TILE) return undefined;
  const n = pixmap.getNumberOfComponents() + (pixmap.getAlpha() ? 1 : 0);
  const strip = new mupdf.Pixmap(pixmap.getColorSpace()!, [0, 0, 4 * TILE, TILE], Boolean(pixmap.getAlpha()));
  const source = pixmap.getPixels();
  const stride = pixmap.getStride();
  // Taken after the allocation: a view into the WebAssembly memory goes stale when the memory grows.
  const target = strip.getPixels();
  const targetStride = strip.getStride();
  const at = (extent: number, half: number) => Math.max(0, Math.min(extent - TILE, Math.round((extent * (2 * half + 1)) / 4 - TILE / 2)) & ~15);
  for (let t = 0; t < 4; t++) {
    const x0 = at(width, t % 2);
    const y0 = at(height, t >> 1);
    for (let y = 0; y < TILE; y++) {
      const from = (y0 + y) * stride + x0 * n;
      target.set(source.subarray(from, from + TILE * n), y * targetStride + t * TILE * n);
    }
  }
  return strip;
}

/** The pixmap's samples as gray, the form SSIM compares. */
function grayOf(pixmap: mupdf.Pixmap): GrayImage {
  const cs = pixmap.getColorSpace();
  const gray = cs?.isGray() ? pixmap : pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceGray, false);
  try {
    return { width: gray.getWidth(), height: gray.getHeight(), stride: gray.getStride(), data: gray.getPixels().slice() };
  } finally {
    if (gray !== pixmap) gray.destroy();
  }
}

/** JPEG bytes decoded by MuPDF, as gray. */
function decodedGray(jpeg: Uint8Array): GrayImage {
  const buffer = new mupdf.Buffer(jpeg);
  let image: mupdf.Image;
  try {
    image = new mupdf.Image(buffer);
  } finally {
    // The image holds its own reference to the data.
    buffer.destroy();
  }
  try {
    const pixmap = image.toPixmap();
    try {
      return grayOf(pixmap);
    } finally {
      pixmap.destroy();
    }
  } finally {
    image.destroy();
  }
}

/** The profile's jpegQuality (0 to 1) on libjpeg's scale (1 to 100). */
export function jpegQuality(quality: number): number {
  return Math.min(100, Math.max(1, Math.round(quality * 100)));
}

/**
 * `reference`: the profile's quality (1 to 100), `atReference` the image encoded at it. Answers the JPEG to write
 * and its quality: the lowest step within the tolerance, the reference's own bytes, or for a damaged image a higher
 * step (the first that reaches DAMAGED_SSIM, else the highest).
 */
export function chooseJpegQuality(pixmap: mupdf.Pixmap, reference: number, atReference: Uint8Array): { bytes: Uint8Array; quality: number } {
  const lower = STEPS.filter((q) => q < reference);
  const higher = RAISE.filter((q) => q > reference);
  if (lower.length === 0 && higher.length === 0) return { bytes: atReference, quality: reference };
  const sample = sampleOf(pixmap);
  const judged = sample ?? pixmap;
  let chosen = reference;
  let bytes = atReference;
  try {
    const original = grayOf(judged);
    if (sample) bytes = sample.asJPEG(reference, false);
    const atRef = ssim(original, decodedGray(bytes));
    if (atRef < DAMAGED_SSIM) {
      for (const q of higher) {
        chosen = q;
        if (ssim(original, decodedGray(judged.asJPEG(q, false))) >= DAMAGED_SSIM) break;
      }
    } else {
      const bound = atRef - JPEG_SSIM_TOLERANCE;
      for (const q of lower) {
        const candidate = judged.asJPEG(q, false);
        if (candidate.length >= bytes.length || ssim(original, decodedGray(candidate)) < bound) break;
        chosen = q;
        bytes = candidate;
      }
    }
  } finally {
    sample?.destroy();
  }
  if (chosen === reference) return { bytes: atReference, quality: reference };
  // Judged on tiles (or raised): the whole image is encoded once more, at the quality chosen.
  return { bytes: sample || chosen > reference ? pixmap.asJPEG(chosen, false) : bytes, quality: chosen };
}
