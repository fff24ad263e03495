/**
 * Bi-level (1 bit per pixel) samples for bwImageHandler: MuPDF.js makes
 * images only from 8-bit pixmaps, so the service reads the 1-bit rows
 * itself, brings them to the target size and packs them again (rows padded
 * to a byte, as PDF stores them). Values are the stored sample bits, before
 * any /Decode: 0 or 1 per pixel.
 */

/** Packed rows (`stride` bytes each, most significant bit first) as one byte per pixel. */
export function unpackBits(packed: Uint8Array, width: number, height: number): Uint8Array {
  const stride = Math.ceil(width / 8);
  if (packed.length < stride * height) throw new Error(`1-bit samples too short: ${packed.length} bytes for ${width}x${height}`);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    for (let x = 0; x < width; x++) out[y * width + x] = (packed[row + (x >> 3)]! >> (7 - (x & 7))) & 1;
  }
  return out;
}

/** One byte per pixel (0 or not) packed into rows padded to a byte, the padding bits 0. */
export function packBits(values: Uint8Array, width: number, height: number): Uint8Array {
  const stride = Math.ceil(width / 8);
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (values[y * width + x]) out[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  return out;
}

/**
 * The pixels brought to targetWidth x targetHeight. `subsample` (downsampling
 * code 2) takes the source pixel at the centre of each target pixel;
 * otherwise (average, and bicubic, which on two levels has nothing to
 * interpolate) the source pixels a target pixel covers are averaged and
 * thresholded at one half, a tie going to `ink` so that a stroke one pixel
 * wide at a 2x reduction is kept rather than dropped.
 */
export function downsampleBits(values: Uint8Array, width: number, height: number, targetWidth: number, targetHeight: number, subsample: boolean, ink: 0 | 1): Uint8Array {
  const out = new Uint8Array(targetWidth * targetHeight);
  const sx = width / targetWidth;
  const sy = height / targetHeight;
  const x0 = new Int32Array(targetWidth + 1);
  for (let x = 0; x <= targetWidth; x++) x0[x] = Math.min(width, Math.floor(x * sx));
  for (let y = 0; y < targetHeight; y++) {
    if (subsample) {
      const src = Math.min(height - 1, Math.floor((y + 0.5) * sy)) * width;
      for (let x = 0; x < targetWidth; x++) out[y * targetWidth + x] = values[src + Math.min(width - 1, Math.floor((x + 0.5) * sx))]!;
      continue;
    }
    const top = Math.min(height - 1, Math.floor(y * sy));
    const bottom = Math.max(top + 1, Math.min(height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < targetWidth; x++) {
      const left = Math.min(width - 1, x0[x]!);
      const right = Math.max(left + 1, x0[x + 1]!);
      let ones = 0;
      for (let r = top; r < bottom; r++) {
        const row = r * width;
        for (let c = left; c < right; c++) ones += values[row + c]!;
      }
      const total = (bottom - top) * (right - left);
      const inkCount = ink === 1 ? ones : total - ones;
      out[y * targetWidth + x] = 2 * inkCount >= total ? ink : 1 - ink;
    }
  }
  return out;
}
