import { constants, deflateSync, inflateSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import { resolveEntry as res } from '../core/mupdf-objects.js';
import type { OptimizeSettings } from './model.js';

/**
 * Lossless re-encoding of the images a profile leaves alone (docs/optimize.md#lossless-re-encoding):
 * the same samples, byte for byte (colour space, decode array, masks untouched), stored as Flate with
 * PNG predictors (or plain Flate) when that is smaller than what the file holds. Only images stored
 * in a generic lossless coding (Flate, LZW, RunLength, ASCII, none) are looked at; JPEG, JPEG 2000,
 * CCITT and JBIG2 stay as they are.
 */

/** What the pass did, for the report. */
export interface RecompressStats {
  recompressed: number;
  bytesBefore: number;
  bytesAfter: number;
}

const LOSSLESS_FILTERS = new Set(['FlateDecode', 'Fl', 'LZWDecode', 'LZW', 'RunLengthDecode', 'RL', 'ASCIIHexDecode', 'AHx', 'ASCII85Decode', 'A85']);

/** Images decoding to more than this are judged on a band of rows first: a full encoding of a photo that gains nothing costs more than the rest of the task. */
const BAND_FROM_BYTES = 256 * 1024;

/**
 * Larger images are left as they are: their samples and their predicted copy are held in the worker's heap
 * together (a 600 dpi A4 RGB scan decodes to 107 MB).
 */
const MAX_DECODED_BYTES = 128 * 1024 * 1024;

/** The size of the band of rows a large image is judged on. */
const BAND_BYTES = 64 * 1024;

/** A re-encoding must save at least this share (besides being smaller) to be estimated worth the full work on a large image. */
const ESTIMATE_MARGIN = 0.98;


function filters(dict: mupdf.PDFObject): string[] | undefined {
  const f = res(dict.get('Filter'));
  if (f.isNull()) return [];
  if (f.isName()) return [f.asName()];
  if (!f.isArray()) return undefined;
  const names: string[] = [];
  for (let i = 0; i < f.length; i++) {
    const n = res(f.get(i));
    if (!n.isName()) return undefined;
    names.push(n.asName());
  }
  return names;
}

/** Components per sample of a colour space, or undefined for one this pass does not know (left alone). */
function components(cs: mupdf.PDFObject): number | undefined {
  const space = res(cs);
  const byName: Record<string, number> = { DeviceGray: 1, G: 1, CalGray: 1, DeviceRGB: 3, RGB: 3, CalRGB: 3, Lab: 3, DeviceCMYK: 4, CMYK: 4, Indexed: 1, I: 1, Separation: 1 };
  if (space.isName()) return byName[space.asName()];
  if (!space.isArray() || space.length === 0) return undefined;
  const family = res(space.get(0));
  if (!family.isName()) return undefined;
  const kind = family.asName();
  if (kind === 'ICCBased') {
    const n = res(space.get(1)).get('N');
    return n.isNumber() ? n.asNumber() : undefined;
  }
  if (kind === 'DeviceN') {
    const names = res(space.get(1));
    return names.isArray() ? names.length : undefined;
  }
  return byName[kind];
}

const isTrue = (obj: mupdf.PDFObject) => {
  const r = res(obj);
  return r.isBoolean() && r.asBoolean();
};

/** The kind of image, as the profile's handlers divide them (images.ts): masks and 1-bit images are bi-level. */
function kindOf(dict: mupdf.PDFObject, colors: number, bpc: number): 'color' | 'gray' | 'bw' {
  if (isTrue(dict.get('ImageMask'))) return 'bw';
  if (colors === 1) return bpc === 1 ? 'bw' : 'gray';
  return 'color';
}

/** Every this many bytes of a row are looked at to choose its predictor (coprime with 3 and 4 bytes per pixel, so every component is seen). */
const COST_STEP = 5;

/**
 * The rows with a PNG predictor each: the one with the least sum of absolute
 * differences (PNG's usual heuristic), estimated on every COST_STEP-th byte
 * (choosing on every byte took three times as long as the Flate after it,
 * measured on a 4.5 MB photo). `bpp`: bytes per complete pixel, at least 1.
 */
function pngFilter(samples: Uint8Array | Uint8ClampedArray, rowBytes: number, rows: number, bpp: number, options: { firstRow?: number; only?: number; totals?: number[] } = {}): Buffer {
  const { firstRow = 0, only, totals } = options;
  const out = Buffer.allocUnsafe((rowBytes + 1) * rows);
  const zero = new Uint8Array(rowBytes);
  for (let y = firstRow; y < firstRow + rows; y++) {
    const row = samples.subarray(y * rowBytes, (y + 1) * rowBytes);
    const up = y > 0 ? samples.subarray((y - 1) * rowBytes, y * rowBytes) : zero;
    let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    for (let i = only === undefined ? bpp : rowBytes; i < rowBytes; i += COST_STEP) {
      const x = row[i]!;
      const a = row[i - bpp]!;
      const b = up[i]!;
      const c = up[i - bpp]!;
      const p = a + b - c;
      const pa = p > a ? p - a : a - p;
      const pb = p > b ? p - b : b - p;
      const pc = p > c ? p - c : c - p;
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      let d = x;
      c0 += d < 128 ? d : 256 - d;
      d = (x - a) & 0xff;
      c1 += d < 128 ? d : 256 - d;
      d = (x - b) & 0xff;
      c2 += d < 128 ? d : 256 - d;
      d = (x - ((a + b) >> 1)) & 0xff;
      c3 += d < 128 ? d : 256 - d;
      d = (x - paeth) & 0xff;
      c4 += d < 128 ? d : 256 - d;
    }
    const costs = [c0, c1, c2, c3, c4];
    const type = only ?? costs.indexOf(Math.min(c0, c1, c2, c3, c4));
    if (totals) {
      totals[0]! += c0;
      totals[1]! += c1;
      totals[2]! += c2;
      totals[3]! += c3;
      totals[4]! += c4;
    }
    const o = (y - firstRow) * (rowBytes + 1);
    out[o] = type;
    const dst = out.subarray(o + 1, o + 1 + rowBytes);
    // Typed arrays store values modulo 256, which is the predictors' arithmetic.
    const head = Math.min(bpp, rowBytes);
    if (type === 0) {
      dst.set(row);
    } else if (type === 1) {
      for (let i = 0; i < head; i++) dst[i] = row[i]!;
      for (let i = bpp; i < rowBytes; i++) dst[i] = row[i]! - row[i - bpp]!;
    } else if (type === 2) {
      for (let i = 0; i < rowBytes; i++) dst[i] = row[i]! - up[i]!;
    } else if (type === 3) {
      for (let i = 0; i < head; i++) dst[i] = row[i]! - (up[i]! >> 1);
      for (let i = bpp; i < rowBytes; i++) dst[i] = row[i]! - ((row[i - bpp]! + up[i]!) >> 1);
    } else {
      // Paeth with a = c = 0 on the first pixel is the byte above.
      for (let i = 0; i < head; i++) dst[i] = row[i]! - up[i]!;
      for (let i = bpp; i < rowBytes; i++) {
        const a = row[i - bpp]!;
        const b = up[i]!;
        const c = up[i - bpp]!;
        const p = a + b - c;
        const pa = p > a ? p - a : a - p;
        const pb = p > b ? p - b : b - p;
        const pc = p > c ? p - c : c - p;
        dst[i] = row[i]! - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    }
  }
  return out;
}

interface Method {
  predicted: boolean;
  /** zlib strategy: the default (matches) or Huffman only, which on noisy photos is as small and three times as fast (measured). */
  strategy: number;
}

/** The index in METHODS of predictors with Huffman coding only. */
const HUFFMAN = 2;

const METHODS: Method[] = [
  { predicted: true, strategy: constants.Z_DEFAULT_STRATEGY },
  { predicted: false, strategy: constants.Z_DEFAULT_STRATEGY },
  { predicted: true, strategy: constants.Z_HUFFMAN_ONLY },
];

/**
 * Flate at level 9, with a window no larger than the data needs: zlib's set-up for a 32 KB window and the largest
 * hash is most of the work for a small image (200 images of 9 KB on the 200-page bench document).
 */
function deflate(data: Uint8Array | Uint8ClampedArray, strategy: number, level = 9): Buffer {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(data.length + 262))));
  return deflateSync(data, { level, windowBits, memLevel: Math.max(1, Math.min(9, windowBits - 6)), strategy });
}

/** Rows `stride` bytes apart, packed `rowBytes` apart (a view when they already are). */
function packedRows(samples: Uint8Array | Uint8ClampedArray, rowBytes: number, height: number, stride: number): Uint8Array | Uint8ClampedArray {
  if (stride === rowBytes) return samples.subarray(0, rowBytes * height);
  const rows = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) rows.set(samples.subarray(y * stride, y * stride + rowBytes), y * rowBytes);
  return rows;
}

/**
 * The smaller of plain Flate and Flate with predictors of the same rows (`predicted` says which). Text and line
 * art often compress better unpredicted than with any per-row choice of predictor: the downsampled gray heading
 * of the corpus's us_constitution.pdf is 32.6 KB plain against 34.7 KB predicted. `level` below 9 only for estimates.
 */
export function flateSmallest(samples: Uint8Array | Uint8ClampedArray, width: number, height: number, components: number, stride: number, level = 9): { bytes: Buffer; predicted: boolean } {
  const rowBytes = width * components;
  const rows = packedRows(samples, rowBytes, height, stride);
  const predicted = deflate(pngFilter(rows, rowBytes, height, components), constants.Z_DEFAULT_STRATEGY, level);
  const plain = deflate(rows, constants.Z_DEFAULT_STRATEGY, level);
  return plain.length <= predicted.length ? { bytes: plain, predicted: false } : { bytes: predicted, predicted: true };
}

/** A coding that stores the samples in an eighth of their size or less is kept without trying the others (200 small images took 60 ms more). */
const GOOD_ENOUGH = 1 / 8;

/** The samples re-encoded the smallest way, or undefined when none is estimated smaller than `stored`. */
function encode(samples: Uint8Array, rowBytes: number, rows: number, bpp: number, bpc: number, stored: number): { bytes: Buffer; predicted: boolean } | undefined {
  // Predictors rarely help samples of fewer than 8 bits (bi-level scans): plain Flate is tried first there.
  let methods = bpc < 8 ? [METHODS[1]!, METHODS[0]!, METHODS[2]!] : METHODS;
  let only: number | undefined;
  if (samples.length > BAND_FROM_BYTES) {
    // A band of rows from the middle decides the method (and whether to go on at all).
    // About 64 KB of rows is enough to judge by (and Flate at level 9 on a band of a noisy photo is slow).
    const band = Math.min(rows, Math.max(16, Math.ceil(BAND_BYTES / rowBytes)));
    const start = Math.floor((rows - band) / 2);
    const totals = [0, 0, 0, 0, 0];
    const filtered = pngFilter(samples, rowBytes, band, bpp, { firstRow: start, totals });
    // The whole image then takes the predictor best over the band: choosing per row costs as much as the predicting.
    only = totals.indexOf(Math.min(...totals));
    const plain = samples.subarray(start * rowBytes, (start + band) * rowBytes);
    const sizes = METHODS.map((method) => deflate(method.predicted ? filtered : plain, method.strategy).length);
    let pick = sizes.indexOf(Math.min(...sizes));
    // Huffman only takes a third of the time: worth a coding up to 2% larger.
    if (sizes[HUFFMAN]! <= 1.02 * sizes[pick]!) pick = HUFFMAN;
    if ((sizes[pick]! * rows) / band > ESTIMATE_MARGIN * stored) return undefined;
    methods = [METHODS[pick]!];
  }
  let filtered: Buffer | undefined;
  let result: { bytes: Buffer; predicted: boolean } | undefined;
  for (const method of methods) {
    if (result && result.bytes.length <= GOOD_ENOUGH * samples.length) break;
    if (method.predicted) filtered ??= pngFilter(samples, rowBytes, rows, bpp, only === undefined ? {} : { only });
    const bytes = deflate(method.predicted ? filtered! : samples, method.strategy);
    if (!result || bytes.length < result.bytes.length) result = { bytes, predicted: method.predicted };
  }
  return result;
}

/** The decoded samples: Node's zlib for plain Flate (several times faster than MuPDF's), MuPDF for the rest or when zlib refuses the data. */
function decoded(obj: mupdf.PDFObject, names: string[], raw: Uint8Array): Uint8Array {
  if (names.length === 1 && (names[0] === 'FlateDecode' || names[0] === 'Fl') && obj.get('DecodeParms').isNull()) {
    try {
      return inflateSync(raw);
    } catch {
      // A damaged or truncated stream: MuPDF's reading is lenient, and the length check below decides.
    }
  }
  const buffer = obj.readStream();
  try {
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}

/**
 * Re-encodes the image XObjects (soft masks included) whose kind has no
 * handler in the profile, in place, when the new coding is smaller.
 * `images`: the image objects' numbers. The images a handler covers are the
 * handlers' (images.ts), so the two passes never touch the same image.
 */
export function recompressImages(doc: mupdf.PDFDocument, settings: OptimizeSettings, images: readonly number[]): RecompressStats {
  const stats: RecompressStats = { recompressed: 0, bytesBefore: 0, bytesAfter: 0 };
  const handled = { color: settings.colorImageHandler !== undefined, gray: settings.grayImageHandler !== undefined, bw: settings.bwImageHandler !== undefined };
  for (const num of images) {
    const obj = doc.newIndirect(num);
    try {
      const names = filters(obj);
      if (!names || !names.every((n) => LOSSLESS_FILTERS.has(n))) continue;
      const mask = isTrue(obj.get('ImageMask'));
      const colors = mask ? 1 : components(obj.get('ColorSpace'));
      const bpcObj = res(obj.get('BitsPerComponent'));
      const bpc = mask ? 1 : bpcObj.isNumber() ? bpcObj.asNumber() : undefined;
      const width = res(obj.get('Width'));
      const height = res(obj.get('Height'));
      if (colors === undefined || bpc === undefined || ![1, 2, 4, 8, 16].includes(bpc) || !width.isNumber() || !height.isNumber()) continue;
      if (handled[kindOf(obj, colors, bpc)]) continue;
      const w = width.asNumber();
      const h = height.asNumber();
      const rowBytes = Math.ceil((w * colors * bpc) / 8);
      if (w <= 0 || h <= 0 || rowBytes * h > MAX_DECODED_BYTES) continue;
      const rawBuffer = obj.readRawStream();
      let stored: number;
      let samples: Uint8Array;
      try {
        stored = rawBuffer.getLength();
        samples = decoded(obj, names, rawBuffer.asUint8Array());
      } finally {
        rawBuffer.destroy();
      }
      // Short data is padded by each renderer its own way; longer data is ignored by all: only the image's own bytes are kept.
      if (samples.length < rowBytes * h) continue;
      const result = encode(samples.subarray(0, rowBytes * h), rowBytes, h, Math.max(1, Math.ceil((colors * bpc) / 8)), bpc, stored);
      if (!result || result.bytes.length >= stored) continue;
      obj.writeRawStream(new mupdf.Buffer(result.bytes));
      obj.put('Filter', doc.newName('FlateDecode'));
      if (result.predicted) {
        const parms = doc.newDictionary();
        parms.put('Predictor', doc.newInteger(15));
        parms.put('Colors', doc.newInteger(colors));
        parms.put('BitsPerComponent', doc.newInteger(bpc));
        parms.put('Columns', doc.newInteger(w));
        obj.put('DecodeParms', parms);
      } else {
        obj.delete('DecodeParms');
      }
      // /DL, a hint of the decoded length some writers add, would be wrong where bytes past the image were dropped.
      obj.delete('DL');
      stats.recompressed++;
      stats.bytesBefore += stored;
      stats.bytesAfter += result.bytes.length;
    } catch {
      // An image MuPDF cannot read stays as it is.
    }
  }
  return stats;
}

/** Stream types the save writes anew itself (cross-reference and object streams), or images (the passes above). */
const NOT_RECOMPRESSED = new Set(['XRef', 'ObjStm']);

/**
 * Every other stream stored as plain Flate (content streams, font programs, ICC profiles, embedded files...)
 * deflated again at level 9 and kept when smaller: what `qpdf --recompress-flate --compression-level=9` does.
 * Content streams written at a writer's default level were where qpdf's output was smaller than ours
 * (94 KB against 86 KB on the corpus's us_constitution.pdf). Streams with DecodeParms keep their coding;
 * unfiltered streams are compressed by MuPDF's save.
 *
 * The objects are read through their references, never `resolve()`d: a stream resolved from JavaScript lost its
 * data in a save with garbage=compact (MuPDF.js 1.28; verapdf/PDF_A-2b/6-2-11-3-3-t03-fail-a.pdf's CMap).
 */
export function recompressFlateStreams(doc: mupdf.PDFDocument): RecompressStats {
  const stats: RecompressStats = { recompressed: 0, bytesBefore: 0, bytesAfter: 0 };
  const count = doc.countObjects();
  for (let num = 1; num < count; num++) {
    const ref = doc.newIndirect(num);
    try {
      if (!ref.isStream()) continue;
      const names = filters(ref);
      if (!names || names.length !== 1 || (names[0] !== 'FlateDecode' && names[0] !== 'Fl')) continue;
      if (!ref.get('DecodeParms').isNull()) continue;
      const type = res(ref.get('Type'));
      const subtype = res(ref.get('Subtype'));
      if ((type.isName() && NOT_RECOMPRESSED.has(type.asName())) || (subtype.isName() && subtype.asName() === 'Image')) continue;
      const raw = ref.readRawStream();
      let stored: number;
      let data: Uint8Array;
      try {
        stored = raw.getLength();
        // zlib refuses damaged data MuPDF reads leniently: such a stream stays as it is (the catch below).
        data = inflateSync(raw.asUint8Array(), { maxOutputLength: MAX_DECODED_BYTES });
      } finally {
        raw.destroy();
      }
      const bytes = deflate(data, constants.Z_DEFAULT_STRATEGY);
      if (bytes.length >= stored) continue;
      ref.writeRawStream(new mupdf.Buffer(bytes));
      ref.delete('DL');
      stats.recompressed++;
      stats.bytesBefore += stored;
      stats.bytesAfter += bytes.length;
    } catch {
      // Damaged or oversized data: the stream stays as it is.
    }
  }
  return stats;
}
