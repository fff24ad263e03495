/**
 * Reads what an image file's headers declare (type, frame sizes, resolution) without
 * decoding any pixels, so size limits can be enforced before MuPDF allocates anything, and
 * so "no declared resolution" can be told apart from MuPDF's 96 dpi default.
 */
import { EngineError } from '../errors.js';

// The image types and their signatures need no MuPDF: they live outside engine/pdf for the main thread (upload importers).
export { IMAGE_MEDIA_TYPES, isImageMediaType, sniffImageType, type ImageMediaType } from './model.js';
import type { ImageMediaType } from './model.js';

export interface Resolution {
  /** Dots per inch along each axis. */
  x: number;
  y: number;
}

export interface FrameInfo {
  width: number;
  height: number;
  /** Absent when the file declares no usable resolution. */
  resolution?: Resolution;
  /** EXIF Orientation (2 to 8) when the stored pixels must be turned or mirrored for display. */
  orientation?: number;
}

export interface ImageInfo {
  /** One per page the image becomes: every TIFF directory; the single image of the others. */
  frames: FrameInfo[];
  /** Frames the decoder will go through: TIFF directories (counted up to the limit), GIF frames. */
  frameCount: number;
  /**
   * False when the headers break off or go wrong after the dimensions were read: the file is
   * damaged. It is not thrown at once so that the caller can check the size limits first and
   * report a cut-down pixel bomb as too large.
   */
  complete: boolean;
}

/** Resolutions outside this range are treated as undeclared: they are junk, not intent. */
const MIN_DPI = 1;
const MAX_DPI = 100_000;

const NAMES: Record<ImageMediaType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/tiff': 'TIFF',
  'image/gif': 'GIF',
};

function malformed(type: ImageMediaType): EngineError {
  return new EngineError('MALFORMED_IMAGE', `The file is not a readable ${NAMES[type]} image.`);
}

/**
 * Reads the headers of an image already known (by `sniffImageType`) to be of `type`.
 * For TIFF, at most `maxFrames + 1` frames are read: enough to tell the caller that a
 * limit is exceeded without walking a huge or endless chain of directories.
 * Throws EngineError MALFORMED_IMAGE when not even the dimensions can be read.
 */
export function readImageInfo(bytes: Uint8Array, type: ImageMediaType, maxFrames = Infinity): ImageInfo {
  const r = new Reader(bytes, () => malformed(type));
  const info =
    type === 'image/jpeg' ? readJpeg(r)
    : type === 'image/png' ? readPng(r)
    : type === 'image/gif' ? readGif(r)
    : readTiff(r, maxFrames + 1);
  if (info.frames.length === 0 || info.frames.some((f) => !(f.width > 0 && f.height > 0))) throw r.fail();
  return info;
}

/** Runs the part of a header walk that may break off; false if it did (see ImageInfo.complete). */
function completes(walk: () => void): boolean {
  try {
    walk();
    return true;
  } catch (err) {
    if (err instanceof EngineError) return false;
    throw err;
  }
}

/** Bounds-checked big/little-endian reads; any read past the end means a malformed file. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    readonly fail: () => EngineError,
  ) {}

  get length(): number {
    return this.bytes.length;
  }

  private check(offset: number, size: number): void {
    if (!Number.isInteger(offset) || offset < 0 || offset + size > this.bytes.length) throw this.fail();
  }

  u8(o: number): number {
    this.check(o, 1);
    return this.bytes[o]!;
  }

  u16(o: number, littleEndian = false): number {
    this.check(o, 2);
    const b = this.bytes;
    return littleEndian ? b[o]! | (b[o + 1]! << 8) : (b[o]! << 8) | b[o + 1]!;
  }

  u32(o: number, littleEndian = false): number {
    this.check(o, 4);
    const b = this.bytes;
    const v = littleEndian
      ? b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)
      : (b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!;
    return v >>> 0;
  }

  ascii(o: number, n: number): string {
    this.check(o, n);
    return String.fromCharCode(...this.bytes.subarray(o, o + n));
  }
}

/** Accepts a declared resolution only when it is plausible; fills a missing axis from the other. */
function resolution(x: number | undefined, y: number | undefined): Resolution | undefined {
  const ok = (v: number | undefined) => (v !== undefined && v >= MIN_DPI && v <= MAX_DPI ? snap(v) : undefined);
  const rx = ok(x) ?? ok(y);
  const ry = ok(y) ?? ok(x);
  return rx !== undefined && ry !== undefined ? { x: rx, y: ry } : undefined;
}

/**
 * Metric resolutions come back a little off: PNG stores whole pixels per metre, so 150 dpi
 * is written as 5905 or 5906 (writers truncate or round) and reads back as 149.99 or 150.01.
 * A value within one such step (0.0254 dpi) of a whole number is taken as that number.
 */
function snap(dpi: number): number {
  const whole = Math.round(dpi);
  return Math.abs(dpi - whole) <= 0.0254 ? whole : dpi;
}

// ---------------------------------------------------------------- JPEG

/**
 * JPEG data goes into the PDF as it is, and MuPDF's decoder forgives almost anything, so a
 * broken JPEG would only show up later, in a reader (qpdf --check reports such streams as
 * corrupt). Hence the whole marker structure is walked here, with the rules libjpeg applies
 * when it decodes: known markers with exact lengths, baseline or progressive 8-bit frames
 * of 1, 3 or 4 components, sound tables, scans that name defined tables, and an end marker
 * (a file cut short has none). Errors inside the entropy-coded data are left alone: decoders
 * treat those as warnings and draw what they can.
 */
interface JpegState {
  components?: Map<number, number>; // component id -> quantization table
  progressive: boolean;
  scans: number;
  quant: Set<number>;
  huffman: Set<number>; // class << 4 | id
}

function readJpeg(r: Reader): ImageInfo {
  let size: { width: number; height: number } | undefined;
  let jfif: Resolution | undefined;
  let exif: Resolution | undefined;
  let orientation: number | undefined;
  const state: JpegState = { progressive: false, scans: 0, quant: new Set(), huffman: new Set() };
  const complete = completes(() => {
    for (let pos = 2; ; ) {
      if (r.u8(pos) !== 0xff) throw r.fail();
      const marker = r.u8(pos + 1);
      if (marker === 0xff) {
        pos += 1; // fill byte before a marker
        continue;
      }
      if (marker === 0xd9) {
        if (state.scans === 0) throw r.fail(); // end of image before any scan
        return;
      }
      const len = r.u16(pos + 2);
      const body = pos + 4;
      const end = pos + 2 + len;
      if (len < 2 || end > r.length) throw r.fail();
      if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
        if (size) throw r.fail();
        size = readFrameHeader(r, body, end, state);
        state.progressive = marker === 0xc2;
      } else if (marker === 0xc4) {
        readHuffmanTables(r, body, end, state);
      } else if (marker === 0xdb) {
        readQuantTables(r, body, end, state);
      } else if (marker === 0xda) {
        if (!size) throw r.fail();
        checkScanHeader(r, body, end, state);
        state.scans += 1;
        pos = skipEntropyData(r, end);
        continue;
      } else if (marker === 0xe0 && len >= 14 && r.ascii(body, 5) === 'JFIF\0') {
        jfif = jfifResolution(r, body + 7);
      } else if (marker === 0xe1 && len >= 16 && r.ascii(body, 6) === 'Exif\0\0') {
        // A broken EXIF block is common and harmless to the image: ignore the block, not the file.
        completes(() => {
          const t = new TiffReader(r, body + 6);
          const { entries } = t.readIfd(t.firstIfd());
          exif = readTiffResolution(t, entries);
          const value = t.integer(entries, TAG_ORIENTATION);
          if (value !== undefined && value >= 2 && value <= 8) orientation = value;
        });
      } else if (marker === 0xdd || marker === 0xdc) {
        if (len !== 4) throw r.fail(); // DRI, DNL
      } else if (!(marker >= 0xe0 && marker <= 0xef) && marker !== 0xfe) {
        throw r.fail(); // not APPn or COM either: another coding process, or junk
      }
      pos = end;
    }
  });
  if (!size) throw r.fail();
  // EXIF first, as MuPDF and most viewers do: cameras write it, JFIF often holds a default.
  const resolution = exif ?? jfif;
  return { frames: [{ ...size, ...(resolution ? { resolution } : {}), ...(orientation ? { orientation } : {}) }], frameCount: 1, complete };
}

/** SOF0/1/2: 8-bit samples; 1, 3 or 4 components (what PDF's DCTDecode carries). */
function readFrameHeader(r: Reader, pos: number, end: number, state: JpegState): { width: number; height: number } {
  const count = r.u8(pos + 5);
  if (r.u8(pos) !== 8 || ![1, 3, 4].includes(count) || end !== pos + 6 + 3 * count) throw r.fail();
  state.components = new Map();
  for (let i = 0; i < count; i++) {
    const c = pos + 6 + i * 3;
    const sampling = r.u8(c + 1);
    const h = sampling >> 4;
    const v = sampling & 0x0f;
    if (h < 1 || h > 4 || v < 1 || v > 4 || r.u8(c + 2) > 3) throw r.fail();
    state.components.set(r.u8(c), r.u8(c + 2));
  }
  return { height: r.u16(pos + 1), width: r.u16(pos + 3) };
}

/**
 * DHT: each table's code counts must fit the segment and form a canonical code (with the
 * all-ones code left unused, as libjpeg requires); DC tables hold only values 0 to 15.
 */
function readHuffmanTables(r: Reader, pos: number, end: number, state: JpegState): void {
  while (pos < end) {
    const classAndId = r.u8(pos);
    const isDc = classAndId >> 4 === 0;
    if (classAndId >> 4 > 1 || (classAndId & 0x0f) > 3) throw r.fail();
    let count = 0;
    let code = 0;
    for (let bits = 1; bits <= 16; bits++) {
      const n = r.u8(pos + bits);
      count += n;
      code += n;
      if (code >= 1 << bits) throw r.fail(); // more codes of this length than fit
      code <<= 1;
    }
    const values = pos + 17;
    pos = values + count;
    if (count > 256 || pos > end) throw r.fail();
    if (isDc && r.bytes.subarray(values, pos).some((v) => v > 15)) throw r.fail();
    state.huffman.add(classAndId);
  }
}

/** DQT: 64 entries of 8 or 16 bits per table, tables 0 to 3, filling the segment exactly. */
function readQuantTables(r: Reader, pos: number, end: number, state: JpegState): void {
  while (pos < end) {
    const precisionAndId = r.u8(pos);
    if (precisionAndId >> 4 > 1 || (precisionAndId & 0x0f) > 3) throw r.fail();
    pos += 1 + (precisionAndId >> 4 ? 128 : 64);
    if (pos > end) throw r.fail();
    state.quant.add(precisionAndId & 0x0f);
  }
}

/** SOS: components of the frame, with their tables defined; valid progression parameters. */
function checkScanHeader(r: Reader, pos: number, end: number, state: JpegState): void {
  const count = r.u8(pos);
  if (count < 1 || count > 4 || end !== pos + 1 + 2 * count + 3) throw r.fail();
  const ss = r.u8(end - 3);
  const se = r.u8(end - 2);
  const ah = r.u8(end - 1) >> 4;
  const al = r.u8(end - 1) & 0x0f;
  // Sequential scans always use both tables; progressive ones, per libjpeg's decoder:
  // the first DC pass needs DC tables, AC passes need AC tables.
  const needsDc = !state.progressive || (ss === 0 && ah === 0);
  const needsAc = !state.progressive || ss > 0;
  for (let i = 0; i < count; i++) {
    const quant = state.components!.get(r.u8(pos + 1 + i * 2));
    const tables = r.u8(pos + 2 + i * 2);
    if (quant === undefined || !state.quant.has(quant)) throw r.fail();
    if (needsDc && !state.huffman.has(tables >> 4)) throw r.fail();
    if (needsAc && !state.huffman.has(0x10 | (tables & 0x0f))) throw r.fail();
  }
  if (state.progressive) {
    const bad =
      (ss === 0 ? se !== 0 : ss > se || se > 63 || count !== 1) || (ah !== 0 && al !== ah - 1) || al > 13;
    if (bad) throw r.fail();
  }
}

/**
 * The position of the marker that ends a scan's entropy-coded data. In that data an FF is
 * followed by 00 (a stuffed byte), a restart marker D0-D7, or more FF fill bytes.
 */
function skipEntropyData(r: Reader, pos: number): number {
  const b = r.bytes;
  for (let i = b.indexOf(0xff, pos); i >= 0 && i + 1 < b.length; i = b.indexOf(0xff, i + 1)) {
    const next = b[i + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      i += 1;
    } else if (next !== 0xff) {
      return i;
    }
  }
  throw r.fail(); // cut short: no end marker
}

function jfifResolution(r: Reader, o: number): Resolution | undefined {
  const units = r.u8(o);
  const x = r.u16(o + 1);
  const y = r.u16(o + 3);
  if (units === 1) return resolution(x, y);
  if (units === 2) return resolution(x * 2.54, y * 2.54);
  return undefined; // 0: aspect ratio only
}

// ---------------------------------------------------------------- PNG

function readPng(r: Reader): ImageInfo {
  // The whole 8-byte signature, then IHDR, which must come first.
  if (r.u32(0) !== 0x89504e47 || r.u32(4) !== 0x0d0a1a0a || r.u32(8) !== 13 || r.ascii(12, 4) !== 'IHDR') {
    throw r.fail();
  }
  const width = r.u32(16);
  const height = r.u32(20);
  let res: Resolution | undefined;
  // pHYs must precede the image data, so stop at the first IDAT.
  const complete = completes(() => {
    for (let pos = 8; ; ) {
      const len = r.u32(pos);
      const kind = r.ascii(pos + 4, 4);
      if (kind === 'IDAT' || kind === 'IEND') break;
      if (kind === 'pHYs' && len === 9 && r.u8(pos + 16) === 1) {
        res = resolution(r.u32(pos + 8) * 0.0254, r.u32(pos + 12) * 0.0254); // per metre
      }
      pos += 12 + len; // length, type, data, CRC
    }
  });
  return { frames: [{ width, height, resolution: res }], frameCount: 1, complete };
}

// ---------------------------------------------------------------- GIF

/**
 * The page is the logical screen. MuPDF goes through every frame and allocates each at the
 * size its descriptor declares, so all frames are walked: each must lie within the screen
 * (as the format requires), which makes the screen's size the one to check against limits.
 */
function readGif(r: Reader): ImageInfo {
  const le = true;
  const width = r.u16(6, le);
  const height = r.u16(8, le);
  let frameCount = 0;
  const complete = completes(() => {
    walkGif(r, (pos) => {
      frameCount += 1;
      if (r.u16(pos + 1, le) + r.u16(pos + 5, le) > width || r.u16(pos + 3, le) + r.u16(pos + 7, le) > height) {
        throw r.fail();
      }
    });
    if (frameCount === 0) throw r.fail();
  });
  // GIF has no resolution field (the aspect-ratio byte is not one).
  return { frames: [{ width, height }], frameCount, complete };
}

/**
 * The GIF cut after its first frame, with a trailer. MuPDF draws every frame of an
 * animation onto one image, so the page would show the last state; the first frame is
 * the picture people expect (and one frame is all the decoding we need).
 */
export function gifFirstFrame(bytes: Uint8Array): Uint8Array {
  const r = new Reader(bytes, () => malformed('image/gif'));
  let end: number | undefined;
  walkGif(r, (_pos, frameEnd) => {
    end ??= frameEnd;
  });
  if (end === undefined) throw r.fail();
  const out = new Uint8Array(end + 1);
  out.set(bytes.subarray(0, end));
  out[end] = 0x3b;
  return out;
}

/** Calls `onFrame` with the start and end of each image descriptor and its data. */
function walkGif(r: Reader, onFrame: (pos: number, end: number) => void): void {
  for (let pos = 13 + colorTableSize(r.u8(10)); pos < r.length; ) {
    const block = r.u8(pos);
    if (block === 0x3b) return; // trailer (often missing: the end of the data will do)
    const start = pos;
    if (block === 0x2c) {
      pos += 10 + colorTableSize(r.u8(pos + 9)) + 1; // descriptor, colour table, LZW code size
    } else if (block === 0x21) {
      pos += 2; // extension introducer and label
    } else {
      throw r.fail();
    }
    for (let n = r.u8(pos); n !== 0; n = r.u8(pos)) pos += n + 1; // data sub-blocks
    pos += 1;
    if (block === 0x2c) onFrame(start, pos);
  }
}

function colorTableSize(packed: number): number {
  return packed & 0x80 ? 3 * (2 << (packed & 7)) : 0;
}

// ---------------------------------------------------------------- TIFF (and EXIF, which is TIFF)

const TAG_WIDTH = 256;
const TAG_HEIGHT = 257;
const TAG_X_RESOLUTION = 282;
const TAG_Y_RESOLUTION = 283;
const TAG_RESOLUTION_UNIT = 296;
const TAG_ORIENTATION = 274;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const TYPE_RATIONAL = 5;

/**
 * Directory entries read per file at most. Real files have a few dozen per directory;
 * directories may overlap, so without a budget a small crafted file could make us read
 * 65,535 entries for each of thousands of directories.
 */
const MAX_TIFF_ENTRIES = 1_000_000;

/** A TIFF structure starting at `base` in the file; its offsets are relative to `base`. */
class TiffReader {
  readonly le: boolean;
  private entriesRead = 0;

  constructor(
    readonly r: Reader,
    readonly base: number,
  ) {
    const order = r.ascii(base, 2);
    if (order !== 'II' && order !== 'MM') throw r.fail();
    this.le = order === 'II';
    if (this.u16(2) !== 42) throw r.fail();
  }

  u16(o: number): number {
    return this.r.u16(this.base + o, this.le);
  }

  u32(o: number): number {
    return this.r.u32(this.base + o, this.le);
  }

  firstIfd(): number {
    return this.u32(4);
  }

  /** The directory's entries by tag, and the offset of the next directory (0: none). */
  readIfd(offset: number): { entries: Map<number, number>; next: number } {
    const count = this.u16(offset);
    this.entriesRead += count;
    if (this.entriesRead > MAX_TIFF_ENTRIES) throw this.r.fail();
    const entries = new Map<number, number>(); // tag -> offset of its 12-byte entry
    for (let i = 0; i < count; i++) {
      const e = offset + 2 + i * 12;
      entries.set(this.u16(e), e);
    }
    return { entries, next: this.u32(offset + 2 + count * 12) };
  }

  /** A SHORT or LONG tag's first value. */
  integer(entries: Map<number, number>, tag: number): number | undefined {
    const e = entries.get(tag);
    if (e === undefined) return undefined;
    const type = this.u16(e + 2);
    if (type === TYPE_SHORT) return this.u16(e + 8);
    if (type === TYPE_LONG) return this.u32(e + 8);
    return undefined;
  }

  rational(entries: Map<number, number>, tag: number): number | undefined {
    const e = entries.get(tag);
    if (e === undefined || this.u16(e + 2) !== TYPE_RATIONAL) return undefined;
    const at = this.u32(e + 8); // 8 bytes never fit in the entry: always an offset
    const den = this.u32(at + 4);
    return den === 0 ? undefined : this.u32(at) / den;
  }
}

/** Frames in directory order, at most `limit` of them. */
function readTiff(r: Reader, limit: number): ImageInfo {
  const t = new TiffReader(r, 0);
  const frames: FrameInfo[] = [];
  const seen = new Set<number>(); // a directory chain that loops back is malformed
  const complete = completes(() => {
    for (let ifd = t.firstIfd(); ifd !== 0 && frames.length < limit; ) {
      if (seen.has(ifd)) throw r.fail();
      seen.add(ifd);
      const { entries, next } = t.readIfd(ifd);
      const width = t.integer(entries, TAG_WIDTH);
      const height = t.integer(entries, TAG_HEIGHT);
      if (width === undefined || height === undefined) throw r.fail();
      frames.push({ width, height, resolution: readTiffResolution(t, entries) });
      ifd = next;
    }
  });
  return { frames, frameCount: frames.length, complete };
}

/** Resolution from a directory (the first one when `entries` is not given, as in EXIF). */
function readTiffResolution(t: TiffReader, entries: Map<number, number> | undefined): Resolution | undefined {
  entries ??= t.readIfd(t.firstIfd()).entries;
  const x = t.rational(entries, TAG_X_RESOLUTION);
  const y = t.rational(entries, TAG_Y_RESOLUTION);
  // The TIFF and EXIF default unit is the inch; 1 means aspect ratio only.
  const unit = t.integer(entries, TAG_RESOLUTION_UNIT) ?? 2;
  const scale = unit === 2 ? 1 : unit === 3 ? 2.54 : undefined;
  if (scale === undefined) return undefined;
  return resolution(x === undefined ? undefined : x * scale, y === undefined ? undefined : y * scale);
}
