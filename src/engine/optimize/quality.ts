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
 * Grain (issue 35, 2026-11-29): an image whose SSIM against its own 3x3 mean is below GRAIN_SSIM is mostly
 * pixel-scale texture, and one whose SSIM at the profile's quality is also below GRAINY_BELOW_SSIM is one JPEG smooths
 * visibly without damaging it. Measured at 150 dpi: the bench's 300 dpi scans (paper grain of +-12 under lines of
 * words) 0.80 to 0.87 against their mean, 0.926 to 0.953 at IJG 62; smooth photographs 0.966 against their mean (so
 * never grain); a text scan 0.45 against its mean but 0.999 at IJG 62 (its edges, not grain). Such an image's page,
 * rendered as Ghostscript's is compared, fell short of Ghostscript's /ebook at the reference and at every lower step
 * (docs/optimize.md#jpeg-quality), so it is written one step above the reference (GRAIN_QUALITY) and never lower.
 */
const GRAIN_SSIM = 0.9;
const GRAINY_BELOW_SSIM = 0.98;
const GRAIN_QUALITY = 75;

/** The image's samples, each the mean of the 3x3 pixels around it (fewer at the edges): what grain does not survive. */
function meanOf3x3(image: GrayImage): GrayImage {
  const { width, height } = image;
  const stride = image.stride ?? width;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - 1);
    const y1 = Math.min(height - 1, y + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - 1);
      const x1 = Math.min(width - 1, x + 1);
      let sum = 0;
      for (let yy = y0; yy <= y1; yy++) for (let xx = x0; xx <= x1; xx++) sum += image.data[yy * stride + xx]!;
      data[y * width + x] = Math.round(sum / ((y1 - y0 + 1) * (x1 - x0 + 1)));
    }
  }
  return { width, height, data };
}

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
 * step (the first that reaches DAMAGED_SSIM, else the highest). `stopIfDamaged`: a damaged image is answered at once,
 * with the reference's bytes, for a caller that will not write them (it encodes other pixels instead).
 */
export function chooseJpegQuality(pixmap: mupdf.Pixmap, reference: number, atReference: Uint8Array, stopIfDamaged = false): { bytes: Uint8Array; quality: number; damaged: boolean } {
  const lower = STEPS.filter((q) => q < reference);
  const higher = RAISE.filter((q) => q > reference);
  if (lower.length === 0 && higher.length === 0) return { bytes: atReference, quality: reference, damaged: false };
  const sample = sampleOf(pixmap);
  const judged = sample ?? pixmap;
  let chosen = reference;
  let bytes = atReference;
  let damaged: boolean;
  try {
    const original = grayOf(judged);
    if (sample) bytes = sample.asJPEG(reference, false);
    const atRef = ssim(original, decodedGray(bytes));
    damaged = atRef < DAMAGED_SSIM;
    if (damaged && stopIfDamaged) return { bytes: atReference, quality: reference, damaged };
    if (damaged) {
      for (const [i, q] of higher.entries()) {
        chosen = q;
        // The highest is taken whatever it reaches: not encoded and judged for nothing.
        if (i === higher.length - 1 || ssim(original, decodedGray(judged.asJPEG(q, false))) >= DAMAGED_SSIM) break;
      }
    } else if (atRef < GRAINY_BELOW_SSIM && reference < GRAIN_QUALITY && ssim(original, meanOf3x3(original)) < GRAIN_SSIM) {
      chosen = GRAIN_QUALITY;
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
  if (chosen === reference) return { bytes: atReference, quality: reference, damaged };
  // Judged on tiles (or raised): the whole image is encoded once more, at the quality chosen.
  return { bytes: sample || chosen > reference ? pixmap.asJPEG(chosen, false) : bytes, quality: chosen, damaged };
}
