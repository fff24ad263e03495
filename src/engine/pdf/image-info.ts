/**
 * Reads what an image file's headers declare (type, frame sizes, resolution) without
 * decoding any pixels, so size limits can be enforced before MuPDF allocates anything, and
 * so "no declared resolution" can be told apart from MuPDF's 96 dpi default.
 */
import { EngineError } from '../errors.js';
import type { ImageMediaType } from './images.js';

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
}

export interface ImageInfo {
  frames: FrameInfo[];
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

/** The image type named by the file's magic bytes, or undefined. */
export function sniffImageType(b: Uint8Array): ImageMediaType | undefined {
  const starts = (...sig: number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff';
  if (starts(0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || starts(0x47, 0x49, 0x46, 0x38, 0x39, 0x61)) return 'image/gif';
  return undefined;
}

/**
 * Reads the headers of an image already known (by `sniffImageType`) to be of `type`.
 * For TIFF, at most `maxFrames + 1` frames are read: enough to tell the caller that a
 * limit is exceeded without walking a huge or endless chain of directories.
 * Throws EngineError MALFORMED_IMAGE when the headers cannot be read.
 */
export function readImageInfo(bytes: Uint8Array, type: ImageMediaType, maxFrames = Infinity): ImageInfo {
  const reader = new Reader(bytes, () => malformed(type));
  let frames: FrameInfo[];
  switch (type) {
    case 'image/jpeg':
      frames = [readJpeg(reader)];
      break;
    case 'image/png':
      frames = [readPng(reader)];
      break;
    case 'image/gif':
      frames = [readGif(reader)];
      break;
    case 'image/tiff':
      frames = readTiffFrames(new TiffReader(reader, 0), maxFrames + 1);
      break;
  }
  if (frames.length === 0) throw malformed(type);
  for (const f of frames) {
    if (!(f.width > 0 && f.height > 0)) throw malformed(type);
  }
  return { frames };
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

function readJpeg(r: Reader): FrameInfo {
  let size: { width: number; height: number } | undefined;
  let jfif: Resolution | undefined;
  let exif: Resolution | undefined;
  let pos = 2; // after SOI
  for (;;) {
    if (r.u8(pos) !== 0xff) throw r.fail();
    const marker = r.u8(pos + 1);
    if (marker === 0xff) {
      pos += 1; // fill byte before a marker
      continue;
    }
    // Start of scan: the headers are over. Requiring it refuses header-only fragments,
    // which MuPDF would otherwise embed as they are (JPEG is passed through undecoded).
    if (marker === 0xda) break;
    if (marker === 0xd9) throw r.fail(); // end of image before any scan
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      pos += 2; // markers without a length field
      continue;
    }
    const len = r.u16(pos + 2);
    if (len < 2) throw r.fail();
    const body = pos + 4;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && !size) {
      size = { height: r.u16(body + 1), width: r.u16(body + 3) };
    } else if (marker === 0xe0 && len >= 14 && r.ascii(body, 5) === 'JFIF\0') {
      jfif = jfifResolution(r, body + 7);
    } else if (marker === 0xe1 && len >= 16 && r.ascii(body, 6) === 'Exif\0\0') {
      // A broken EXIF block is common and harmless to the image: ignore it, not the file.
      try {
        exif = readTiffResolution(new TiffReader(r, body + 6), undefined);
      } catch {
        exif = undefined;
      }
    }
    pos += 2 + len;
  }
  if (!size) throw r.fail();
  // EXIF first, as MuPDF and most viewers do: cameras write it, JFIF often holds a default.
  return { ...size, resolution: exif ?? jfif };
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

function readPng(r: Reader): FrameInfo {
  // Signature (8 bytes), then IHDR must come first.
  if (r.ascii(1, 3) !== 'PNG' || r.u32(8) !== 13 || r.ascii(12, 4) !== 'IHDR') throw r.fail();
  const width = r.u32(16);
  const height = r.u32(20);
  let res: Resolution | undefined;
  // pHYs must precede the image data, so stop at the first IDAT.
  for (let pos = 8; ; ) {
    const len = r.u32(pos);
    const kind = r.ascii(pos + 4, 4);
    if (kind === 'IDAT' || kind === 'IEND') break;
    if (kind === 'pHYs' && len === 9 && r.u8(pos + 16) === 1) {
      res = resolution(r.u32(pos + 8) * 0.0254, r.u32(pos + 12) * 0.0254); // per metre
    }
    pos += 12 + len; // length, type, data, CRC
  }
  return { width, height, resolution: res };
}

// ---------------------------------------------------------------- GIF

function readGif(r: Reader): FrameInfo {
  const le = true;
  let width = r.u16(6, le);
  let height = r.u16(8, le);
  // The first frame may reach past the logical screen; size the check on whichever is larger.
  let pos = 13 + colorTableSize(r.u8(10));
  for (;;) {
    const block = r.u8(pos);
    if (block === 0x2c) {
      width = Math.max(width, r.u16(pos + 1, le) + r.u16(pos + 5, le));
      height = Math.max(height, r.u16(pos + 3, le) + r.u16(pos + 7, le));
      break;
    }
    if (block !== 0x21) throw r.fail(); // no image before the trailer, or junk
    pos += 2; // introducer and label, then data sub-blocks up to a zero length
    for (let n = r.u8(pos); n !== 0; n = r.u8(pos)) pos += n + 1;
    pos += 1;
  }
  // GIF has no resolution field (the aspect-ratio byte is not one).
  return { width, height };
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
const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const TYPE_RATIONAL = 5;

/** A TIFF structure starting at `base` in the file; its offsets are relative to `base`. */
class TiffReader {
  readonly le: boolean;

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

function readTiffFrames(t: TiffReader, limit: number): FrameInfo[] {
  const frames: FrameInfo[] = [];
  const seen = new Set<number>(); // a directory chain that loops back is malformed
  for (let ifd = t.firstIfd(); ifd !== 0 && frames.length < limit; ) {
    if (seen.has(ifd)) throw t.r.fail();
    seen.add(ifd);
    const { entries, next } = t.readIfd(ifd);
    const width = t.integer(entries, TAG_WIDTH);
    const height = t.integer(entries, TAG_HEIGHT);
    if (width === undefined || height === undefined) throw t.r.fail();
    frames.push({ width, height, resolution: readTiffResolution(t, entries) });
    ifd = next;
  }
  return frames;
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
