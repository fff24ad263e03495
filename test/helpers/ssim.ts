import { execFileSync } from 'node:child_process';
import { withTempFile } from './pdf.js';

/** One page rendered gray by poppler (pdftoppm -gray): width, height, one byte per pixel. */
export function grayRender(bytes: Buffer | Uint8Array, page: number, dpi: number): { width: number; height: number; data: Buffer } {
  const pgm = withTempFile(bytes, (file) => execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), file], { maxBuffer: 1 << 28 }));
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a PGM');
  return { width: Number(header[1]), height: Number(header[2]), data: pgm.subarray(header[0].length) };
}

/** Mean SSIM of two gray images of one size over 8x8 windows (the usual constants); 0 when the sizes differ. */
export function ssim(a: { width: number; height: number; data: Buffer }, b: { width: number; height: number; data: Buffer }): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= a.height; y += 8) {
    for (let x = 0; x + 8 <= a.width; x += 8) {
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let dy = 0; dy < 8; dy++) {
        for (let dx = 0; dx < 8; dx++) {
          const i = (y + dy) * a.width + x + dx;
          const p = a.data[i]!;
          const q = b.data[i]!;
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
