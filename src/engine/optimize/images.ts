import * as mupdf from 'mupdf';
import { resolveEntry as res } from '../core/mupdf-objects.js';
import { downsampleBits, rowBytes } from './bilevel.js';
import { convertInlineImages, unmatchedDraw, type UnmatchedDraw } from './inline.js';
import type { OptimizeSettings } from './model.js';
import { chooseJpegQuality, jpegQuality } from './quality.js';
import { flateSmallest } from './recompress.js';
import { resampleBicubic } from './resample.js';

/** One image XObject and how it is drawn. */
interface ImageEntry {
  num: number;
  obj: mupdf.PDFObject;
  /**
   * MuPDF's image: held for every image only during the survey (draws are matched by identity), then made again
   * for its rewrite alone (from its stored bytes where it can be: loadForRewrite) and destroyed after it, so that one
   * image's data is in the worker at a time (issue 35).
   */
  image: mupdf.Image;
  /** The highest effective resolution (pixels per inch) it is drawn at; Infinity when a draw could not be attributed to it. */
  dpi: number;
  drawn: boolean;
}

/** What the image pass did, for the report. */
export interface ImageStats {
  /** Image XObjects drawn on a page and looked at. */
  examined: number;
  changed: number;
  downsampled: number;
  /** Rewrites tried and dropped because the new stream was not smaller. */
  keptLarger: number;
  /** Images left as they are for a reason other than the profile (a colour-key mask, say). */
  skipped: string[];
  /** The new images' temporary objects, unreferenced once their stream is copied: not counted in the document's categories. */
  freed: Set<number>;
}

type Handler = NonNullable<OptimizeSettings['colorImageHandler']> | NonNullable<OptimizeSettings['bwImageHandler']>;
type BwHandler = NonNullable<OptimizeSettings['bwImageHandler']>;

const name = (obj: mupdf.PDFObject): string | undefined => {
  const r = res(obj);
  return r.isName() ? r.asName() : undefined;
};

/**
 * The image XObjects of the document by object number, without those that
 * are only another image's soft mask or stencil mask (they are not drawn on
 * their own and stay as they are, with the image that uses them).
 */
function imageObjects(doc: mupdf.PDFDocument): { images: Map<number, mupdf.PDFObject>; masks: Set<number> } {
  const images = new Map<number, mupdf.PDFObject>();
  const masks = new Set<number>();
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    // Kept indirect: MuPDF knows an object is a stream only through its reference.
    const ref = doc.newIndirect(num);
    const obj = ref;
    if (!obj.isStream() || name(obj.get('Subtype')) !== 'Image') continue;
    images.set(num, ref);
    for (const key of ['SMask', 'Mask']) {
      const mask = obj.get(key);
      if (mask.isIndirect()) masks.add(mask.asIndirect());
    }
  }
  for (const num of masks) images.delete(num);
  return { images, masks };
}

/** Effective resolution of one draw: the image's pixels over its size on the page in inches, the lower of the two axes. */
function drawDpi(image: mupdf.Image, ctm: mupdf.Matrix): number {
  const [a, b, c, d] = ctm;
  const widthInches = Math.hypot(a, b) / 72;
  const heightInches = Math.hypot(c, d) / 72;
  if (widthInches === 0 || heightInches === 0) return 0;
  return Math.min(image.getWidth() / widthInches, image.getHeight() / heightInches);
}

/**
 * The image to rewrite, made without MuPDF's loadImage where the stored bytes allow it. Every load of an image from
 * the document (loadImage, or the interpreter drawing it) leaves about the image's stored size in the WebAssembly
 * memory for good: neither the image's release, emptyStore nor closing the document gives it back (MuPDF.js 1.28,
 * measured: four passes of loadImage over an 82 MB Flate scan made the process 82 MB larger each, resident; reading
 * the same streams raw or decoded, nothing). The survey has loaded every image once already (its draws are matched to
 * objects by identity); a second load here doubled what a scan leaves behind (issue 35 item 8: the 297 MB Flate scan's
 * peak went from 631 to 1329 MB). So:
 * - a plain JPEG (DCTDecode alone, DeviceRGB or DeviceGray, 8 bits, no decode array, no mask) is made from its stored
 *   bytes;
 * - plain samples (no filter or only lossless ones, which readStream applies with their predictors; DeviceRGB or
 *   DeviceGray, 8 bits, no decode array, no mask, no /Interpolate) are made from the decoded stream: the same samples
 *   MuPDF's decoding gives, in the same colour space;
 * - anything else is loaded by MuPDF, which applies the dictionary's entries.
 */
function loadForRewrite(doc: mupdf.PDFDocument, dict: mupdf.PDFObject): mupdf.Image {
  const filters = filterOf(dict);
  const space = name(dict.get('ColorSpace'));
  const bpc = res(dict.get('BitsPerComponent'));
  const plain = dict.get('Decode').isNull() && (space === 'DeviceRGB' || space === 'DeviceGray') && bpc.isNumber() && bpc.asNumber() === 8
    && !res(dict.get('ImageMask')).isBoolean() && dict.get('SMask').isNull() && dict.get('Mask').isNull();
  const components = space === 'DeviceRGB' ? 3 : 1;
  if (plain && filters.length === 1 && filters[0] === 'DCTDecode' && dict.get('DecodeParms').isNull()) {
    const raw = dict.readRawStream();
    let image: mupdf.Image | undefined;
    try {
      image = new mupdf.Image(raw);
    } catch {
      image = undefined;
    } finally {
      raw.destroy();
    }
    // What MuPDF's JPEG reader found must be what the dictionary says (else the dictionary's reading is the PDF's).
    if (image && image.getWidth() === dimension(dict, 'Width') && image.getHeight() === dimension(dict, 'Height') && image.getNumberOfComponents() === components) return image;
    image?.destroy();
  } else if (plain && filters.every((f) => LOSSLESS_FILTERS.has(f)) && !res(dict.get('Interpolate')).isBoolean()) {
    const image = fromSamples(dict, space === 'DeviceRGB' ? mupdf.ColorSpace.DeviceRGB : mupdf.ColorSpace.DeviceGray, components);
    if (image) return image;
  }
  return doc.loadImage(dict);
}

/** The filters whose decoding readStream applies exactly (their predictors too), leaving the image's samples. */
const LOSSLESS_FILTERS = new Set(['FlateDecode', 'LZWDecode', 'RunLengthDecode', 'ASCIIHexDecode', 'ASCII85Decode']);

/**
 * An 8-bit image made from its decoded stream: a pixmap holding the samples, as MuPDF's own decoding of the image
 * would. Undefined when the stream does not decode, or not to exactly width x height samples (MuPDF pads or cuts
 * those; its loadImage decides then).
 */
function fromSamples(dict: mupdf.PDFObject, cs: mupdf.ColorSpace, components: number): mupdf.Image | undefined {
  const width = dimension(dict, 'Width');
  const height = dimension(dict, 'Height');
  if (width <= 0 || height <= 0) return undefined;
  let decoded: mupdf.Buffer;
  try {
    decoded = dict.readStream();
  } catch {
    return undefined;
  }
  let pixmap: mupdf.Pixmap | undefined;
  try {
    if (decoded.getLength() !== width * height * components) return undefined;
    pixmap = new mupdf.Pixmap(cs, [0, 0, width, height], false);
    if (pixmap.getStride() !== width * components) throw new Error('rows not packed');
    // Taken after the allocation: a view into the WebAssembly memory goes stale when the memory grows.
    pixmap.getPixels().set(decoded.asUint8Array());
  } catch {
    pixmap?.destroy();
    return undefined;
  } finally {
    decoded.destroy();
  }
  try {
    return new mupdf.Image(pixmap);
  } finally {
    // The image holds its own reference to the pixmap.
    pixmap.destroy();
  }
}

/** An image dictionary's /Width or /Height (0 when absent): the size draws that match no object are compared by. */
function dimension(dict: mupdf.PDFObject, key: 'Width' | 'Height'): number {
  const value = res(dict.get(key));
  return value.isNumber() ? value.asNumber() : 0;
}

/**
 * The image XObjects (by object number) a page's content can draw: those named in its resources (inherited ones
 * included), in the resources of the forms, patterns, soft-mask groups and Type 3 fonts those name, recursively, and
 * in its annotations' appearance streams. An image drawn some other way is met as an unmatched draw, which only keeps
 * images of its size from being downsampled.
 */
function reachableImages(page: mupdf.PDFObject, images: Map<number, mupdf.PDFObject>): Set<number> {
  const found = new Set<number>();
  const seen = new Set<number>();
  const pending: mupdf.PDFObject[] = [];
  const visit = (obj: mupdf.PDFObject) => {
    if (obj.isNull()) return;
    if (obj.isIndirect()) {
      const num = obj.asIndirect();
      if (images.has(num)) {
        found.add(num);
        return;
      }
      if (seen.has(num)) return;
      seen.add(num);
    }
    pending.push(obj);
  };
  // Resources are inherited from the page tree.
  for (let node = page, depth = 0; !node.isNull() && depth < 64; node = node.get('Parent'), depth++) {
    const resources = node.get('Resources');
    if (!resources.isNull()) {
      visit(resources);
      break;
    }
  }
  const annots = res(page.get('Annots'));
  if (annots.isArray()) {
    for (let i = 0; i < annots.length; i++) {
      const ap = res(res(annots.get(i)).get('AP'));
      if (!ap.isDictionary()) continue;
      for (const key of ['N', 'R', 'D']) {
        const appearance = ap.get(key);
        // An appearance is a stream, or a dictionary of streams by state.
        if (res(appearance).isDictionary() && !appearance.isStream()) res(appearance).forEach((state) => visit(state));
        else visit(appearance);
      }
    }
  }
  while (pending.length > 0) {
    const obj = res(pending.pop()!);
    if (!obj.isDictionary()) continue;
    // A form, pattern or appearance stream: its own resources.
    visit(obj.get('Resources'));
    for (const key of ['XObject', 'Pattern', 'Font']) {
      const dict = res(obj.get(key));
      if (dict.isDictionary()) dict.forEach((value) => visit(value));
    }
    // Graphics states: a soft mask's group is a form.
    const states = res(obj.get('ExtGState'));
    if (states.isDictionary()) {
      states.forEach((state) => {
        const mask = res(res(state).get('SMask'));
        if (mask.isDictionary()) visit(mask.get('G'));
      });
    }
  }
  return found;
}

/**
 * Finds every image XObject's highest effective resolution: each page (and
 * its annotations' appearances) is run through a device that records image
 * draws with their transforms. MuPDF hands the device the same image it
 * loads for the object (its store is keyed by object), so a draw is matched
 * to its object by identity; a draw that matches nothing but has the size
 * of some object marks those objects as drawn at unknown resolution, so they
 * are not downsampled. Only the images one page can draw are loaded while it
 * runs, then released with what MuPDF's store kept for them (issue 35: every
 * image was held from the survey to the end of the image pass).
 */
function survey(doc: mupdf.PDFDocument, hashAbove: number): { entries: ImageEntry[]; unmatched: UnmatchedDraw[] } {
  const entries = new Map<number, ImageEntry & { width: number; height: number }>();
  const { images, masks } = imageObjects(doc);
  for (const [num, obj] of images) {
    entries.set(num, { num, obj, image: undefined as unknown as mupdf.Image, dpi: 0, drawn: false, width: dimension(obj, 'Width'), height: dimension(obj, 'Height') });
  }
  const unloadable = new Set<number>();
  const maskSizes = [...masks].map((num) => {
    const mask = doc.newIndirect(num);
    return { width: dimension(mask, 'Width'), height: dimension(mask, 'Height') };
  });
  const unmatched: UnmatchedDraw[] = [];
  let byPointer = new Map<number, ImageEntry | null>();
  // What MuPDF's store holds of the images since it was last emptied (their stored bytes, each object once), and
  // whether a page drew an image that is none of those loaded (one the interpreter loaded itself: its size is unknown).
  const stored = new Set<number>();
  let held = 0;
  let drewOther = false;
  const hold = (num: number, obj: mupdf.PDFObject) => {
    if (stored.has(num)) return;
    stored.add(num);
    const length = res(obj.get('Length'));
    held += length.isNumber() ? length.asNumber() : Infinity;
  };
  const record = (image: mupdf.Image, ctm: mupdf.Matrix) => {
    const entry = byPointer.get(image.pointer as unknown as number);
    if (entry === null) return;
    if (entry) {
      entry.drawn = true;
      entry.dpi = Math.max(entry.dpi, drawDpi(image, ctm));
      return;
    }
    drewOther = true;
    // The interpreter may load a soft mask afresh to draw it into its mask group: a draw of a mask's size is taken for that.
    if (maskSizes.some((m) => m.width === image.getWidth() && m.height === image.getHeight())) return;
    // Inline images are drawn this way too: their resolution and pixels, to find and check them (inline.ts).
    unmatched.push(unmatchedDraw(image, drawDpi(image, ctm), hashAbove));
    for (const other of entries.values()) {
      if (other.width === image.getWidth() && other.height === image.getHeight()) {
        other.drawn = true;
        other.dpi = Infinity;
      }
    }
  };
  const device = new mupdf.Device({
    fillImage: (image: mupdf.Image, ctm: mupdf.Matrix) => record(image, ctm),
    fillImageMask: (image: mupdf.Image, ctm: mupdf.Matrix) => record(image, ctm),
    clipImageMask: (image: mupdf.Image, ctm: mupdf.Matrix) => record(image, ctm),
  });
  try {
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      const loaded: mupdf.Image[] = [];
      byPointer = new Map();
      try {
        for (const num of reachableImages(page.getObject(), images)) {
          const entry = entries.get(num)!;
          if (unloadable.has(num)) continue;
          try {
            const image = doc.loadImage(entry.obj);
            hold(num, entry.obj);
            loaded.push(image);
            byPointer.set(image.pointer as unknown as number, entry);
          } catch {
            // An image MuPDF cannot load is not touched.
            unloadable.add(num);
            continue;
          }
          // Its masks are drawn too (into the mask group): known, and not counted as a draw of some image of their size.
          for (const key of ['SMask', 'Mask']) {
            const mask = entry.obj.get(key);
            if (!mask.isIndirect() || !masks.has(mask.asIndirect())) continue;
            try {
              const maskImage = doc.loadImage(mask);
              hold(mask.asIndirect(), mask);
              loaded.push(maskImage);
              byPointer.set(maskImage.pointer as unknown as number, null);
            } catch {
              // Not loadable: its draws fall to the size match, which only makes images keep their resolution.
            }
          }
        }
        page.run(device, mupdf.Matrix.identity);
      } finally {
        page.destroy();
        for (const image of loaded) image.destroy();
        // The images' data (and anything the interpreter cached for the page) goes before the next page's once it is more
        // than STORE_BUDGET, or of unknown size. Not after every page: the store then lost the fonts (and their CMaps)
        // every page loaded again, which doubled the survey on a text document (docs/optimize.md#memory).
        if (held > STORE_BUDGET || drewOther) {
          mupdf.emptyStore();
          stored.clear();
          held = 0;
          drewOther = false;
        }
      }
    }
  } finally {
    device.close();
    device.destroy();
  }
  return { entries: [...entries.values()].filter((e) => e.drawn && !unloadable.has(e.num)), unmatched };
}

/** The stored bytes of images the survey lets MuPDF's store keep between pages (with the fonts it keeps there). */
const STORE_BUDGET = 8 * 1024 * 1024;

type Kind = 'color' | 'gray' | 'bw';

function kindOf(dict: mupdf.PDFObject, image: mupdf.Image): Kind {
  if ((res(dict.get('ImageMask')).isBoolean() && res(dict.get('ImageMask')).asBoolean()) || image.getImageMask()) return 'bw';
  if (image.getNumberOfComponents() === 1) return image.getBitsPerComponent() === 1 ? 'bw' : 'gray';
  return 'color';
}

function filterOf(dict: mupdf.PDFObject): string[] {
  const f = res(dict.get('Filter'));
  if (f.isName()) return [f.asName()];
  const names: string[] = [];
  if (f.isArray()) for (let i = 0; i < f.length; i++) names.push(res(f.get(i)).asName());
  return names;
}

const TARGET_SPACES: Record<number, { cs: mupdf.ColorSpace; components: number }> = {
  1: { cs: mupdf.ColorSpace.DeviceRGB, components: 3 },
  2: { cs: mupdf.ColorSpace.DeviceGray, components: 1 },
  3: { cs: mupdf.ColorSpace.DeviceCMYK, components: 4 },
};

/**
 * Averaging is used only when the reduction is within this of a whole factor; otherwise bicubic, as Ghostscript
 * does with /Average (gdevpsdi.c, its bug 693917): a box a fractional number of pixels wide covers each source
 * pixel unevenly, which softens text into grays (the heading of the corpus's us_constitution.pdf, 400 to 150 dpi,
 * compresses to 38.8 KB averaged and 32.6 KB bicubic).
 */
const WHOLE_FACTOR_TOLERANCE = 0.1;

/** Whether `average` reduces from `from` to `to` pixels by a factor close enough to a whole one. */
function wholeFactor(from: number, to: number): boolean {
  const factor = from / to;
  return Math.abs(factor - Math.round(factor)) < WHOLE_FACTOR_TOLERANCE;
}

/**
 * The exact whole factor by which `average` reduces width x height to newWidth x newHeight (the same on both axes,
 * dividing both), or 0.
 */
function exactFactor(width: number, height: number, newWidth: number, newHeight: number): number {
  const factor = width / newWidth;
  return Number.isInteger(factor) && factor >= 2 && newHeight * factor === height ? factor : 0;
}

/**
 * The pixmap reduced by a whole factor, each target pixel the mean (truncated) of the factor x factor source pixels it
 * covers: Ghostscript's /Average. MuPDF's scaler (and its scaled JPEG decoding, drawReduced) filters more widely, and
 * a page SSIM against the original's render (poppler averages the same boxes) fell short of Ghostscript's at every
 * JPEG quality of the same size (issue 35: 0.9488 against 0.9500 on the photo album). Rows are summed in one pass.
 */
function boxReduced(pixmap: mupdf.Pixmap, factor: number): mupdf.Pixmap {
  const n = pixmap.getNumberOfComponents() + (pixmap.getAlpha() ? 1 : 0);
  const width = pixmap.getWidth() / factor;
  const height = pixmap.getHeight() / factor;
  const out = new mupdf.Pixmap(pixmap.getColorSpace()!, [0, 0, width, height], Boolean(pixmap.getAlpha()));
  // Taken after the allocation: a view into the WebAssembly memory goes stale when the memory grows. Plain byte views
  // of the same memory: MuPDF.js answers Uint8ClampedArray, whose stores clamp (the means need none) and are slower.
  const plain = (view: Uint8ClampedArray) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const source = plain(pixmap.getPixels());
  const target = plain(out.getPixels());
  const stride = pixmap.getStride();
  const targetStride = out.getStride();
  const area = factor * factor;
  const span = factor * n;
  for (let y = 0; y < height; y++) {
    const top = y * factor * stride;
    const base = y * targetStride;
    if (factor === 2) {
      // The common case (300 to 150 dpi) unrolled: four samples per mean.
      const below = top + stride;
      for (let x = 0, to = base, at = 0; x < width; x++, at += span) {
        for (let c = 0; c < n; c++, to++) {
          const i = at + c;
          target[to] = (source[top + i]! + source[top + i + n]! + source[below + i]! + source[below + i + n]!) >> 2;
        }
      }
      continue;
    }
    for (let x = 0, to = base; x < width; x++) {
      for (let c = 0; c < n; c++, to++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++) {
          for (let dx = 0, at = top + dy * stride + x * span + c; dx < factor; dx++, at += n) sum += source[at]!;
        }
        // Truncated, as Ghostscript's s_Average_process (gdevpsds.c) does: its /Average is what the profile matches.
        target[to] = (sum / area) | 0;
      }
    }
  }
  return out;
}

/**
 * The pixmap brought to width x height: an exact box average at an exact whole factor (boxReduced), MuPDF's scaler (an area filter) for average at a whole factor,
 * Catmull-Rom (resample.ts) for bicubic and for average at a fractional factor, centre sampling for subsample.
 */
function resize(pixmap: mupdf.Pixmap, width: number, height: number, method: number): mupdf.Pixmap {
  const w = pixmap.getWidth();
  const h = pixmap.getHeight();
  if (method === 2) {
    return pixmap.warp([[0, 0], [w, 0], [w, h], [0, h]], width, height);
  }
  const factor = method === 0 ? exactFactor(w, h, width, height) : 0;
  if (factor > 0) return boxReduced(pixmap, factor);
  if (method === 1 || !wholeFactor(w, width) || !wholeFactor(h, height)) {
    const n = pixmap.getNumberOfComponents() + (pixmap.getAlpha() ? 1 : 0);
    const samples = resampleBicubic(pixmap.getPixels(), w, h, n, pixmap.getStride(), width, height);
    const out = new mupdf.Pixmap(pixmap.getColorSpace()!, [0, 0, width, height], Boolean(pixmap.getAlpha()));
    const stride = out.getStride();
    // Taken after the allocation: a view into the WebAssembly memory goes stale when the memory grows.
    const pixels = out.getPixels();
    for (let y = 0; y < height; y++) pixels.set(samples.subarray(y * width * n, (y + 1) * width * n), y * stride);
    return out;
  }
  const out = new mupdf.Pixmap(pixmap.getColorSpace()!, [0, 0, width, height], false);
  out.clear(255);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, out);
  const source = new mupdf.Image(pixmap);
  try {
    device.fillImage(source, [width, 0, 0, height, 0, 0], 1);
    device.close();
  } finally {
    device.destroy();
    source.destroy();
  }
  return out;
}

/**
 * Whether an image can be averaged down by drawing it (drawReduced): a device colour space (or an ICC-based one of
 * one, 3 or 4 components), no mask of any kind (the device would composite it over white) and not a stencil.
 */
function drawable(image: mupdf.Image, dict: mupdf.PDFObject): boolean {
  const cs = image.getColorSpace();
  if (!cs || cs.isIndexed() || cs.isLab() || cs.isDeviceN() || !(cs.isGray() || cs.isRGB() || cs.isCMYK())) return false;
  if (image.getImageMask() || !dict.get('SMask').isNull() || !dict.get('Mask').isNull()) return false;
  return cs.getNumberOfComponents() === image.getNumberOfComponents();
}

/**
 * `average` at a whole factor, from the stored image rather than its decoded pixels: MuPDF's draw device decodes a
 * JPEG already reduced by a power of two (libjpeg's scaled IDCT, an average of each 2x2 or 4x4 block) and area-scales
 * what remains, so the full-size pixels are never held (a 300 dpi Letter page in colour: 25 MB) and most of the
 * decoding and scaling work is skipped (measured on 300 dpi photographs: about half of the image pass).
 */
function drawReduced(image: mupdf.Image, width: number, height: number, cs: mupdf.ColorSpace): mupdf.Pixmap {
  const out = new mupdf.Pixmap(cs, [0, 0, width, height], false);
  out.clear(255);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, out);
  try {
    device.fillImage(image, [width, 0, 0, height, 0, 0], 1);
    device.close();
  } finally {
    device.destroy();
  }
  return out;
}

/**
 * Rewrites the image XObjects as the profile's handlers say (docs/optimize.md):
 * downsampled only above 1.5 times the handler's dpi, to that dpi; converted
 * and re-encoded per the codes. The new stream replaces the old one in the
 * same object (every page that draws it follows) only when it is smaller.
 * Soft masks and explicit masks stay with the image (a mask may have other
 * dimensions than its image); the decode array and an indexed palette are
 * applied while decoding, so the new image has neither; an ICC-based colour
 * space that is kept is kept as the same object. Bi-level images and
 * stencil masks go to rewriteBilevel (1-bit samples, bilevel.ts). Inline
 * images above their target are first made image XObjects (inline.ts). Not
 * rewritten: colour images with a colour-key mask (lossy coding would move
 * the keyed colour).
 */
export function rewriteImages(doc: mupdf.PDFDocument, settings: OptimizeSettings, progress: (done: number, total: number) => void): ImageStats {
  const stats: ImageStats = { examined: 0, changed: 0, downsampled: 0, keptLarger: 0, skipped: [], freed: new Set() };
  const handlers: Record<Kind, Handler | undefined> = { color: settings.colorImageHandler, gray: settings.grayImageHandler, bw: settings.bwImageHandler };
  // An unmatched draw can only be an inline image worth converting above 1.5 times the lowest target (Infinity: none).
  const targets = Object.values(handlers).map((h) => h?.dpi ?? 0).filter((d) => d > 0);
  const { entries, unmatched } = survey(doc, targets.length > 0 ? 1.5 * Math.min(...targets) : Infinity);
  // Inline images above their target become image XObjects (inline.ts) and go through the same pass.
  const inline = convertInlineImages(doc, unmatched, handlers);
  stats.skipped.push(...inline.notes);
  // The image is loaded in the loop (survey destroyed the ones it held).
  for (const { ref, dpi } of inline.converted) entries.push({ num: ref.asIndirect(), obj: ref, image: undefined as unknown as mupdf.Image, dpi, drawn: true });
  stats.examined = entries.length;
  let done = 0;
  for (const entry of entries) {
    progress(done++, entries.length);
    try {
      entry.image = loadForRewrite(doc, entry.obj);
    } catch {
      continue;
    }
    try {
      rewriteEntry(entry);
    } finally {
      // One image at a time: its data, and the decoded pixmaps MuPDF keeps in its store for it, go before the next.
      entry.image.destroy();
      mupdf.emptyStore();
    }
  }
  progress(done, entries.length);
  return stats;

  function rewriteEntry(entry: ImageEntry): void {
    const dict = entry.obj;
    const kind = kindOf(dict, entry.image);
    const handler = handlers[kind];
    if (!handler) return;
    if (kind === 'bw') {
      try {
        if (rewriteBilevel(doc, entry, dict, handler as BwHandler, stats)) stats.changed++;
      } catch (err) {
        stats.skipped.push(`object ${entry.num}: bi-level image kept, it could not be rewritten (${err instanceof Error ? err.message.slice(0, 120) : 'error'})`);
      }
      return;
    }
    if (res(dict.get('Mask')).isArray()) {
      stats.skipped.push(`object ${entry.num}: colour-key masked image kept`);
      return;
    }
    try {
      if (rewriteOne(doc, entry, dict, handler as NonNullable<OptimizeSettings['colorImageHandler']>, stats)) stats.changed++;
    } catch (err) {
      // One image MuPDF cannot decode or re-encode (a broken stream, an exotic colour space) stays as it is; the rest go on.
      stats.skipped.push(`object ${entry.num}: kept, it could not be rewritten (${err instanceof Error ? err.message.slice(0, 120) : 'error'})`);
    }
  }
}


/**
 * The pixels losslessly (Flate, plain or with predictors, the smaller), or
 * undefined when a band of rows from the middle already shows it would be well
 * over `bar` bytes: on a grainy photo the whole encoding (five filters per
 * byte, then Flate at level 9) would double the time of the image pass for nothing.
 */
function losslessIfSmaller(pixmap: mupdf.Pixmap, components: number, bar: number): { bytes: Uint8Array; predicted: boolean } | undefined {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  const band = Math.max(16, Math.ceil(height / 16));
  if (height >= 4 * band) {
    const start = Math.floor((height - band) / 2) * stride;
    // Estimated at Flate level 1, a fifth of level 9's time on a photo, and at most about a tenth larger (measured): the
    // margin is widened to match.
    const sample = flateSmallest(pixels.subarray(start, start + band * stride), width, band, components, stride, 1);
    if ((sample.bytes.length * height) / band > 1.7 * bar) return undefined;
  }
  return flateSmallest(pixels, width, height, components, stride);
}

function rewriteOne(doc: mupdf.PDFDocument, entry: ImageEntry, dict: mupdf.PDFObject, handler: NonNullable<OptimizeSettings['colorImageHandler']>, stats: ImageStats): boolean {
  const image = entry.image;
  const width = image.getWidth();
  const height = image.getHeight();
  const target = handler.dpi ?? 0;
  const downsample = target > 0 && Number.isFinite(entry.dpi) && entry.dpi > 1.5 * target;
  const space = TARGET_SPACES[handler.colorSpace ?? 0];
  const convert = space !== undefined && image.getNumberOfComponents() !== space.components;
  const filters = filterOf(dict);
  const wasJpeg = filters.length === 1 && filters[0] === 'DCTDecode';
  const compression = handler.compression ?? 0;
  const jpeg = compression === 1 || (compression === 0 && wasJpeg);
  // Re-encoding a JPEG as JPEG, or Flate as Flate, with nothing else changed only loses quality or gains nothing.
  if (!downsample && !convert && (compression === 0 || (compression === 1 && wasJpeg) || (compression === 2 && filters.every((f) => f === 'FlateDecode')))) return false;

  const scale = downsample ? target / entry.dpi : 1;
  const newWidth = Math.max(1, Math.round(width * scale));
  const newHeight = Math.max(1, Math.round(height * scale));
  const average = downsample && (handler.downsampling ?? 0) === 0;
  // At an exact whole factor the box is averaged from the decoded pixels, then converted (fewer pixels to convert).
  const box = average ? exactFactor(width, height, newWidth, newHeight) : 0;
  const direct = average && box === 0 && wholeFactor(width, newWidth) && wholeFactor(height, newHeight) && drawable(image, dict);
  let pixmap = direct ? drawReduced(image, newWidth, newHeight, convert ? space.cs : image.getColorSpace()!) : image.toPixmap();
  const owned: mupdf.Pixmap[] = [pixmap];
  try {
    if (pixmap.getAlpha()) return false;
    if (box > 0) {
      const reduced = boxReduced(pixmap, box);
      // The full-size pixels go before the rest of the work (a 300 dpi Letter page in colour: 25 MB).
      owned.shift()!.destroy();
      owned.push((pixmap = reduced));
    }
    if (!direct && convert) owned.push((pixmap = pixmap.convertToColorSpace(space.cs, false)));
    if (!direct && box === 0 && downsample) owned.push((pixmap = resize(pixmap, newWidth, newHeight, handler.downsampling ?? 0)));
    const cs = pixmap.getColorSpace();
    if (!cs) return false;
    // The same pixels losslessly (Flate at level 9, with PNG predictors or plain): chosen whenever it is no larger than
    // the JPEG at the profile's quality or MuPDF's own Flate. A drawing or gradient then keeps every pixel, and is
    // smaller too (Ghostscript's AutoFilter keeps such images lossless). Only when the JPEG is smaller is a lower
    // quality looked for (quality.ts), which may then be smaller still.
    const components = pixmap.getNumberOfComponents();
    let jpegBytes: Uint8Array | undefined;
    let candidate: ReturnType<typeof losslessIfSmaller>;
    if (jpeg) {
      const reference = jpegQuality(handler.jpegQuality ?? 0.75);
      // A damaged image at an exact whole factor is encoded again from drawReduced (below): its first encoding is only
      // asked whether it is damaged, and stops there (the raised qualities and their lossless bar would be thrown away).
      const redo = box > 0 && drawable(image, dict);
      const encode = (pixels: mupdf.Pixmap, stopIfDamaged: boolean) => {
        let bytes = pixels.asJPEG(reference, false);
        let lossless = losslessIfSmaller(pixels, components, bytes.length);
        let damaged = false;
        if (!lossless || lossless.bytes.length > bytes.length) {
          const chosen = chooseJpegQuality(pixels, reference, bytes, stopIfDamaged);
          damaged = chosen.damaged;
          if (damaged && stopIfDamaged) return { bytes, lossless, damaged };
          // Raised above the reference (an image JPEG damages, or grain): the lossless coding may beat that one.
          if (!lossless && chosen.quality > reference) lossless = losslessIfSmaller(pixels, components, chosen.bytes.length);
          bytes = chosen.bytes;
        }
        return { bytes, lossless, damaged };
      };
      let encoded = encode(pixmap, redo);
      if (redo && encoded.damaged) {
        // Grain that JPEG damages at the reference (the images Ghostscript's AutoFilter keeps lossless) survives the box
        // and costs bytes at the raised quality; MuPDF's wider filter softens it, as before issue 35's box average (the
        // image-heavy test document: 528 KB with the box, under 515 KB so). Not grain that JPEG only smooths (quality.ts):
        // the scans' pages are closer to the original's from the box (docs/optimize.md#jpeg-quality).
        owned.push((pixmap = drawReduced(image, newWidth, newHeight, convert ? space.cs : image.getColorSpace()!)));
        encoded = encode(pixmap, false);
      }
      jpegBytes = encoded.bytes;
      candidate = encoded.lossless;
    }
    // Buffers and images are destroyed here, not left to the garbage collector: a scan's pages otherwise leave their
    // JPEGs in the WebAssembly heap until it runs, and the heap grows around them (measured: 50 MB more at the peak
    // on the 234-page bench scan).
    // Kept colour spaces stay the same object (an ICC profile is not written twice); an indexed one was expanded to its base.
    const oldSpace = dict.get('ColorSpace');
    const indexed = res(oldSpace).isArray() && name(res(oldSpace).get(0)) === 'Indexed';
    // Only when the samples are still in it: MuPDF may decode some spaces (Lab, DeviceN) into another.
    const keepSpace = !convert && !indexed && !oldSpace.isNull() && cs.getNumberOfComponents() === image.getNumberOfComponents();
    // A gray or RGB JPEG in the colour space the image keeps is written into the object as it is: MuPDF's addImage would
    // decode it again to fingerprint its pixels and hold a second copy in a new object until the save, per image (issue
    // 35). Others (CMYK's inverted samples, a converted or expanded space, which addImage writes as ICC-based) go through
    // addImage.
    const written = jpegBytes && keepSpace && (cs.isRGB() || cs.isGray()) ? jpegBytes : undefined;
    // The stored stream's length without reading it, where the dictionary states it (an object read from the file has it right).
    const storedLength = res(dict.get('Length'));
    const oldLength = storedLength.isNumber() && storedLength.asNumber() > 0 ? storedLength.asNumber() : rawLength(dict);
    let fresh: mupdf.PDFObject | undefined;
    let newBytes: mupdf.Buffer;
    if (written) {
      newBytes = new mupdf.Buffer(written);
    } else {
      // Buffers and images are destroyed here, not left to the garbage collector: a scan's pages otherwise leave their
      // JPEGs in the WebAssembly heap until it runs, and the heap grows around them (measured: 50 MB more at the peak
      // on the 234-page bench scan).
      const jpegBuffer = jpegBytes ? new mupdf.Buffer(jpegBytes) : undefined;
      try {
        const encoded = jpegBuffer ? new mupdf.Image(jpegBuffer) : new mupdf.Image(pixmap);
        try {
          fresh = doc.addImage(encoded);
        } finally {
          encoded.destroy();
        }
      } finally {
        jpegBuffer?.destroy();
      }
      newBytes = fresh.readRawStream();
    }
    const freshDict = fresh;
    if (!jpeg) candidate = losslessIfSmaller(pixmap, components, newBytes.getLength());
    const lossless = candidate !== undefined && (jpeg ? candidate.bytes.length <= newBytes.getLength() : candidate.bytes.length < newBytes.getLength()) ? candidate : undefined;
    if (lossless) {
      newBytes.destroy();
      newBytes = new mupdf.Buffer(lossless.bytes);
    }
    try {
      if (newBytes.getLength() >= oldLength) {
        stats.keptLarger++;
        return false;
      }
      entry.obj.writeRawStream(newBytes);
      for (const key of ['Filter', 'DecodeParms', 'Decode', 'Width', 'Height', 'BitsPerComponent', 'ColorSpace']) dict.delete(key);
      if (freshDict) {
        for (const key of ['Filter', 'DecodeParms', 'Width', 'Height', 'BitsPerComponent']) {
          const value = freshDict.get(key);
          if (!value.isNull()) dict.put(key, value);
        }
      } else {
        dict.put('Filter', doc.newName('DCTDecode'));
        dict.put('Width', doc.newInteger(pixmap.getWidth()));
        dict.put('Height', doc.newInteger(pixmap.getHeight()));
        dict.put('BitsPerComponent', doc.newInteger(8));
      }
      dict.put('ColorSpace', keepSpace || !freshDict ? oldSpace : freshDict.get('ColorSpace'));
      if (lossless) {
        dict.put('Filter', doc.newName('FlateDecode'));
        dict.put('BitsPerComponent', doc.newInteger(8));
        dict.delete('DecodeParms');
      }
      if (lossless?.predicted) {
        const parms = doc.newDictionary();
        parms.put('Predictor', doc.newInteger(15));
        parms.put('Colors', doc.newInteger(components));
        parms.put('BitsPerComponent', doc.newInteger(8));
        parms.put('Columns', doc.newInteger(pixmap.getWidth()));
        dict.put('DecodeParms', parms);
      }
      if (downsample) stats.downsampled++;
      return true;
    } finally {
      newBytes.destroy();
      // Unreferenced now: the save's garbage collection drops it (and an ICC profile it brought). Not deleted: MuPDF's
      // addImage answers the object it made before for an image of the same pixels (a scan's repeated page), which
      // must still be a stream then.
      if (fresh) stats.freed.add(fresh.asIndirect());
    }
  } finally {
    for (const p of owned) p.destroy();
  }
}

/** The stored (raw) length of a stream whose dictionary does not state it. */
function rawLength(dict: mupdf.PDFObject): number {
  const raw = dict.readRawStream();
  try {
    return raw.getLength();
  } finally {
    raw.destroy();
  }
}

/** The colour spaces whose 1 bit means ink (a tint), not white. */
const TINT_SPACES = new Set(['Separation', 'DeviceN']);

/**
 * bwImageHandler on one bi-level image or stencil mask (docs/optimize.md):
 * above 1.5 times the target it is brought to the target resolution on its
 * 1-bit samples (bilevel.ts) and written back as 1 bit per pixel (Flate with
 * PNG predictors when smaller than plain). Colour space code 0 keeps the samples as
 * stored, so /ImageMask, /Decode and the colour space (the colour a mask
 * paints is the content stream's, untouched) stay; code 4 writes an image
 * (not a mask) as DeviceGray with its decode applied, 0 black and 1 white.
 * Written as CCITT G4 (through MuPDF's save, ccittG4) or Flate as the
 * compression code says (JBIG2 cannot be written), and kept only when
 * smaller than the stored stream.
 */
function rewriteBilevel(doc: mupdf.PDFDocument, entry: ImageEntry, dict: mupdf.PDFObject, handler: BwHandler, stats: ImageStats): boolean {
  const image = entry.image;
  const width = image.getWidth();
  const height = image.getHeight();
  const target = handler.dpi ?? 0;
  const downsample = target > 0 && Number.isFinite(entry.dpi) && entry.dpi > 1.5 * target;
  const imageMask = image.getImageMask() || (res(dict.get('ImageMask')).isBoolean() && res(dict.get('ImageMask')).asBoolean());
  const decode = res(dict.get('Decode'));
  const inverted = decode.isArray() && decode.length >= 2 && res(decode.get(0)).isNumber() && res(decode.get(0)).asNumber() === 1;
  const spaceName = name(dict.get('ColorSpace')) ?? (res(dict.get('ColorSpace')).isArray() ? name(res(dict.get('ColorSpace')).get(0)) : undefined);
  // Code 4 changes only what is not already plain 1-bit DeviceGray.
  const normalise = !imageMask && handler.colorSpace === 4 && (spaceName !== 'DeviceGray' || inverted);
  const filters = filterOf(dict);
  const compression = handler.compression ?? 0;
  // Nothing asked that the stored stream does not already have (unfiltered samples are compressed by the save).
  const inCoding = compression === 2 ? filters.every((f) => f === 'FlateDecode') : filters.length === 1 && filters[0] === 'CCITTFaxDecode';
  if (!downsample && !normalise && (compression === 0 || inCoding)) return false;
  if (normalise && res(dict.get('Mask')).isArray()) {
    stats.skipped.push(`object ${entry.num}: colour-key masked bi-level image kept (its key is in the stored sample values)`);
    return false;
  }

  let packed: Uint8Array;
  let ink: 0 | 1;
  if (normalise) {
    // MuPDF decodes the colour space and the decode array; thresholded at half gray, 1 = white as DeviceGray says.
    let pixmap = image.toPixmap();
    const owned = [pixmap];
    try {
      const cs = pixmap.getColorSpace();
      if (!cs || !cs.isGray()) owned.push((pixmap = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceGray, false)));
      const n = pixmap.getNumberOfComponents() + (pixmap.getAlpha() ? 1 : 0);
      const stride = pixmap.getStride();
      const pixels = pixmap.getPixels();
      const bytesPerRow = rowBytes(width);
      packed = new Uint8Array(bytesPerRow * height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) if (pixels[y * stride + x * n]! >= 128) packed[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
      }
    } finally {
      for (const p of owned) p.destroy();
    }
    ink = 0;
  } else {
    if (!imageMask && image.getBitsPerComponent() !== 1) return false;
    const decoded = dict.readStream();
    try {
      const bytes = decoded.asUint8Array();
      if (bytes.length < rowBytes(width) * height) throw new Error(`1-bit samples too short: ${bytes.length} bytes for ${width}x${height}`);
      // A copy: the buffer's view is into WebAssembly memory.
      packed = bytes.slice(0, rowBytes(width) * height);
    } finally {
      decoded.destroy();
    }
    // Which stored bit is ink matters only for a tie when averaging: a mask paints where the decoded sample is 0.
    ink = ((!imageMask && TINT_SPACES.has(spaceName ?? '') ? 1 : 0) ^ (inverted ? 1 : 0)) as 0 | 1;
  }
  let newWidth = width;
  let newHeight = height;
  if (downsample) {
    const scale = target / entry.dpi;
    newWidth = Math.max(1, Math.round(width * scale));
    newHeight = Math.max(1, Math.round(height * scale));
    packed = downsampleBits(packed, width, height, newWidth, newHeight, (handler.downsampling ?? 2) === 2, ink);
  }
  const stride = rowBytes(newWidth);
  // Code 0 keeps CCITT as CCITT and Flate as Flate; JBIG2 (not writable) and unfiltered samples take the smaller of the two.
  const wasFlate = filters.length > 0 && filters.every((f) => f === 'FlateDecode');
  const wasCcitt = filters.length === 1 && filters[0] === 'CCITTFaxDecode';
  const tryFlate = compression === 2 || (compression === 0 && !wasCcitt);
  const tryG4 = compression === 4 || (compression === 0 && !wasFlate);
  let bytes: Uint8Array | undefined;
  let parms: 'g4' | 'predictor' | undefined;
  if (tryFlate) {
    const flate = flateSmallest(packed, stride, newHeight, 1, stride);
    parms = flate.predicted ? 'predictor' : undefined;
    bytes = flate.bytes;
  }
  if (tryG4) {
    const g4 = ccittG4(packed, newWidth, newHeight);
    if (!bytes || g4.length < bytes.length) {
      bytes = g4;
      parms = 'g4';
    }
  }
  if (!bytes) return false;
  const old = dict.readRawStream();
  const oldLength = old.getLength();
  old.destroy();
  if (bytes.length >= oldLength) {
    stats.keptLarger++;
    return false;
  }
  dict.writeRawStream(bytes);
  for (const key of ['Filter', 'DecodeParms', 'Width', 'Height', 'BitsPerComponent']) dict.delete(key);
  dict.put('Filter', doc.newName(parms === 'g4' ? 'CCITTFaxDecode' : 'FlateDecode'));
  if (parms === 'predictor') {
    const entries = doc.newDictionary();
    entries.put('Predictor', doc.newInteger(15));
    entries.put('Colors', doc.newInteger(1));
    entries.put('BitsPerComponent', doc.newInteger(1));
    entries.put('Columns', doc.newInteger(newWidth));
    dict.put('DecodeParms', entries);
  } else if (parms === 'g4') {
    const entries = doc.newDictionary();
    entries.put('K', doc.newInteger(-1));
    entries.put('Columns', doc.newInteger(newWidth));
    entries.put('Rows', doc.newInteger(newHeight));
    dict.put('DecodeParms', entries);
  }
  dict.put('Width', doc.newInteger(newWidth));
  dict.put('Height', doc.newInteger(newHeight));
  dict.put('BitsPerComponent', doc.newInteger(1));
  if (normalise) {
    dict.delete('Decode');
    dict.put('ColorSpace', doc.newName('DeviceGray'));
  }
  if (downsample) stats.downsampled++;
  return true;
}

/**
 * Packed 1-bit rows as CCITT Group 4 (K -1, 0 is black as PDF's default
 * BlackIs1 false says). MuPDF.js has no call for its G4 encoder, but its save
 * ("compress") writes an unfiltered 1-bit image that way: the rows go through
 * a scratch document saved on its own, and the encoded stream is read back.
 */
function ccittG4(packed: Uint8Array, width: number, height: number): Uint8Array {
  const scratch = new mupdf.PDFDocument();
  try {
    const dict = scratch.newDictionary();
    dict.put('Type', scratch.newName('XObject'));
    dict.put('Subtype', scratch.newName('Image'));
    dict.put('Width', scratch.newInteger(width));
    dict.put('Height', scratch.newInteger(height));
    dict.put('ColorSpace', scratch.newName('DeviceGray'));
    dict.put('BitsPerComponent', scratch.newInteger(1));
    const num = scratch.addRawStream(packed, dict).asIndirect();
    const saved = scratch.saveToBuffer('compress=yes');
    const reread = new mupdf.PDFDocument(saved);
    saved.destroy();
    try {
      const ref = reread.newIndirect(num);
      if (name(ref.get('Filter')) !== 'CCITTFaxDecode') throw new Error('MuPDF did not write CCITT Group 4');
      const raw = ref.readRawStream();
      // A copy: the buffer's view is into WebAssembly memory.
      const bytes = raw.asUint8Array().slice();
      raw.destroy();
      return bytes;
    } finally {
      reread.destroy();
    }
  } finally {
    scratch.destroy();
  }
}
