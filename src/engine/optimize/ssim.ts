/**
 * Structural similarity (SSIM) of two gray images of one size: the mean over
 * 8x8 windows with the usual constants (K1 0.01, K2 0.03, L 255). One
 * implementation for the optimizer's choice of JPEG quality (quality.ts) and
 * for the tests and benchmarks that compare page renders.
 */
export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, rows `stride` bytes apart (default: `width`). */
  data: Uint8Array | Uint8ClampedArray;
  stride?: number;
}

/**
 * `step`: the distance between windows, 8 (every window) or more to sample
 * them on a large image. 0 when the sizes differ.
 */
export function ssim(a: GrayImage, b: GrayImage, step = 8): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  const strideA = a.stride ?? a.width;
  const strideB = b.stride ?? b.width;
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= a.height; y += step) {
    for (let x = 0; x + 8 <= a.width; x += step) {
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let dy = 0; dy < 8; dy++) {
        const rowA = (y + dy) * strideA + x;
        const rowB = (y + dy) * strideB + x;
        for (let dx = 0; dx < 8; dx++) {
          const p = a.data[rowA + dx]!;
          const q = b.data[rowB + dx]!;
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const ma = sa / 64;
      const mb = sb / 64;
      const va = saa / 64 - ma * ma;
      const vb = sbb / 64 - mb * mb;
      const cov = sab / 64 - ma * mb;
      total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      windows++;
    }
  }
  return windows ? total / windows : 1;
}
