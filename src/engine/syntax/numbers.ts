/**
 * Every way the engine writes a number as text, in one place. They differ on
 * purpose and each keeps its output byte for byte, because stored documents,
 * exports and tests compare those bytes: pick by what the output is for.
 * No MuPDF here, so the main thread may use it too.
 */

/** Exactly, never with an exponent (PDF syntax has none, §7.3.3): FDF and PDF objects we write. */
export function exactNumber(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const plain = String(n);
  if (!plain.includes('e')) return plain;
  if (Math.abs(n) >= 1) return BigInt(Math.round(n)).toString();
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') || '0';
}

/** Rounded to `decimals` places, shortest form, no "-0": XFDF (6 places) and field appearances (3). */
export function roundedNumber(n: number, decimals: number): string {
  const scale = 10 ** decimals;
  const r = Math.round(n * scale) / scale;
  return Object.is(r, -0) ? '0' : String(r);
}

/** At most `decimals` places, trailing zeros dropped, no "-0": stamp and signature content streams (4). */
export function trimmedNumber(n: number, decimals: number): string {
  const fixed = n.toFixed(decimals).replace(/\.?0+$/u, '');
  return fixed === '-0' ? '0' : fixed;
}

/** Integers as they are, anything else with exactly `decimals` places: redaction content streams (3). */
export function fixedNumber(n: number, decimals: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(decimals);
}
