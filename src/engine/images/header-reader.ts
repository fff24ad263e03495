/**
 * What the image header readers share: the facts they report (frames, sizes,
 * resolutions), a bounds-checked byte reader, and the resolution rules.
 */
import { EngineError } from '../errors.js';
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
export const MIN_DPI = 1;
export const MAX_DPI = 100_000;

/** Runs the part of a header walk that may break off; false if it did (see ImageInfo.complete). */
export function completes(walk: () => void): boolean {
  try {
    walk();
    return true;
  } catch (err) {
    if (err instanceof EngineError) return false;
    throw err;
  }
}

/** Bounds-checked big/little-endian reads; any read past the end means a malformed file. */
export class Reader {
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
export function resolution(x: number | undefined, y: number | undefined): Resolution | undefined {
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
export function snap(dpi: number): number {
  const whole = Math.round(dpi);
  return Math.abs(dpi - whole) <= 0.0254 ? whole : dpi;
}

const NAMES: Record<ImageMediaType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/tiff': 'TIFF',
  'image/gif': 'GIF',
};

export function malformed(type: ImageMediaType): EngineError {
  return new EngineError('MALFORMED_IMAGE', `The file is not a readable ${NAMES[type]} image.`);
}
