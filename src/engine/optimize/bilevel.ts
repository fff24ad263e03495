/**
 * Bi-level (1 bit per pixel) samples for bwImageHandler: MuPDF.js makes
 * images only from 8-bit pixmaps, so the service brings the 1-bit rows to
 * the target size itself. Samples stay packed as PDF stores them (rows padded
 * to a byte, most significant bit first): a 600 dpi A3 scan is 8.7 MB so,
 * eight times that as a byte per pixel. Values are the stored sample bits,
 * before any /Decode.
 */

/** Bytes per packed row. */
export const rowBytes = (width: number): number => Math.ceil(width / 8);

/**
 * The packed samples brought to targetWidth x targetHeight. `subsample`
 * (downsampling code 2) takes the source pixel at the centre of each target
 * pixel; otherwise (average, and bicubic, which on two levels has nothing to
 * interpolate) the source pixels a target pixel covers are averaged and
 * thresholded at one half, a tie going to `ink` so that a stroke one pixel
 * wide at a 2x reduction is kept rather than dropped.
 */
export function downsampleBits(packed: Uint8Array, width: number, height: number, targetWidth: number, targetHeight: number, subsample: boolean, ink: 0 | 1): Uint8Array {
  const stride = rowBytes(width);
  if (packed.length < stride * height) throw new Error(`1-bit samples too short: ${packed.length} bytes for ${width}x${height}`);
  const targetStride = rowBytes(targetWidth);
  const out = new Uint8Array(targetStride * targetHeight);
  const sx = width / targetWidth;
  const sy = height / targetHeight;
  const bit = (row: number, x: number) => (packed[row + (x >> 3)]! >> (7 - (x & 7))) & 1;
  const x0 = new Int32Array(targetWidth + 1);
  for (let x = 0; x <= targetWidth; x++) x0[x] = Math.min(width, Math.floor(x * sx));
  for (let y = 0; y < targetHeight; y++) {
    const outRow = y * targetStride;
    const set = (x: number, value: number) => {
      if (value) out[outRow + (x >> 3)]! |= 0x80 >> (x & 7);
    };
    if (subsample) {
      const row = Math.min(height - 1, Math.floor((y + 0.5) * sy)) * stride;
      for (let x = 0; x < targetWidth; x++) set(x, bit(row, Math.min(width - 1, Math.floor((x + 0.5) * sx))));
      continue;
    }
    const top = Math.min(height - 1, Math.floor(y * sy));
    const bottom = Math.max(top + 1, Math.min(height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < targetWidth; x++) {
      const left = Math.min(width - 1, x0[x]!);
      const right = Math.max(left + 1, x0[x + 1]!);
      let ones = 0;
      for (let r = top; r < bottom; r++) {
        const row = r * stride;
        for (let c = left; c < right; c++) ones += bit(row, c);
      }
      const total = (bottom - top) * (right - left);
      const inkCount = ink === 1 ? ones : total - ones;
      set(x, 2 * inkCount >= total ? ink : 1 - ink);
    }
  }
  return out;
}
