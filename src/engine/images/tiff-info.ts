/** TIFF headers (and EXIF, which is TIFF): frame sizes, resolutions and orientation, directory by directory. */
import { completes, Reader, resolution, type FrameInfo, type ImageInfo, type Resolution } from './header-reader.js';

const TAG_WIDTH = 256;
const TAG_HEIGHT = 257;
const TAG_X_RESOLUTION = 282;
const TAG_Y_RESOLUTION = 283;
const TAG_RESOLUTION_UNIT = 296;
export const TAG_ORIENTATION = 274;
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
export class TiffReader {
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
export function readTiff(r: Reader, limit: number): ImageInfo {
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
export function readTiffResolution(t: TiffReader, entries: Map<number, number> | undefined): Resolution | undefined {
  entries ??= t.readIfd(t.firstIfd()).entries;
  const x = t.rational(entries, TAG_X_RESOLUTION);
  const y = t.rational(entries, TAG_Y_RESOLUTION);
  // The TIFF and EXIF default unit is the inch; 1 means aspect ratio only.
  const unit = t.integer(entries, TAG_RESOLUTION_UNIT) ?? 2;
  const scale = unit === 2 ? 1 : unit === 3 ? 2.54 : undefined;
  if (scale === undefined) return undefined;
  return resolution(x === undefined ? undefined : x * scale, y === undefined ? undefined : y * scale);
}
