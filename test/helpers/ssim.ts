import { execFileSync } from 'node:child_process';
import { withTempFile } from './pdf.js';

/** One page rendered gray by poppler (pdftoppm -gray): width, height, one byte per pixel. */
export function grayRender(bytes: Buffer | Uint8Array, page: number, dpi: number): { width: number; height: number; data: Buffer } {
  const pgm = withTempFile(bytes, (file) => execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), file], { maxBuffer: 1 << 28 }));
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a PGM');
  return { width: Number(header[1]), height: Number(header[2]), data: pgm.subarray(header[0].length) };
}

/** Mean SSIM over 8x8 windows: the engine's (the optimizer chooses JPEG qualities with it). */
export { ssim } from '../../src/engine/optimize/ssim.js';
