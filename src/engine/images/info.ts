/**
 * Reads what an image file's headers declare (type, frame sizes, resolution) without
 * decoding any pixels, so size limits can be enforced before MuPDF allocates anything, and
 * so "no declared resolution" can be told apart from MuPDF's 96 dpi default.
 */

// The image types and their signatures are in model.ts, which the main thread loads too (the image converter).
export { IMAGE_MEDIA_TYPES, isImageMediaType, sniffImageType, type ImageMediaType } from './model.js';
import type { ImageMediaType } from './model.js';
import { completes, malformed, Reader, resolution, type ImageInfo, type Resolution } from './header-reader.js';
import { readJpeg } from './jpeg-info.js';
import { readTiff } from './tiff-info.js';

export type { FrameInfo, ImageInfo, Resolution } from './header-reader.js';

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
