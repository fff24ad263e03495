import { deflateSync } from 'node:zlib';

/**
 * Flate with PNG predictors (PDF /Predictor 15: a filter byte per row), the
 * way Ghostscript's pdfwrite writes lossless images: a gradient or a flat
 * drawing, which plain Flate hardly compresses, becomes runs of small
 * differences. Each row takes the filter with the least sum of absolute
 * differences (PNG's usual heuristic). `samples` holds rows of
 * width x components bytes (8 bits per component), `stride` apart.
 */
export function flatePredicted(samples: Uint8Array | Uint8ClampedArray, width: number, height: number, components: number, stride: number): Uint8Array {
  const rowBytes = width * components;
  const out = Buffer.alloc((rowBytes + 1) * height);
  const candidate = [0, 1, 2, 3, 4].map(() => Buffer.alloc(rowBytes));
  const zero = Buffer.alloc(rowBytes);
  for (let y = 0; y < height; y++) {
    const row = samples.subarray(y * stride, y * stride + rowBytes);
    const up = y > 0 ? samples.subarray((y - 1) * stride, (y - 1) * stride + rowBytes) : zero;
    let best = 0;
    let bestCost = Infinity;
    for (let type = 0; type < 5; type++) {
      const target = candidate[type]!;
      let cost = 0;
      for (let i = 0; i < rowBytes; i++) {
        const a = i >= components ? row[i - components]! : 0;
        const b = up[i]!;
        const c = i >= components ? up[i - components]! : 0;
        let predicted = 0;
        if (type === 1) predicted = a;
        else if (type === 2) predicted = b;
        else if (type === 3) predicted = (a + b) >> 1;
        else if (type === 4) {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        }
        const value = (row[i]! - predicted) & 0xff;
        target[i] = value;
        cost += value < 128 ? value : 256 - value;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = type;
      }
    }
    out[y * (rowBytes + 1)] = best;
    candidate[best]!.copy(out, y * (rowBytes + 1) + 1);
  }
  return deflateSync(out, { level: 9, memLevel: 9 });
}
