/**
 * Page numbers and Bates numbers: where they go and what they say. Plain data
 * and pure functions (no MuPDF), so the HTTP side checks a format before any
 * work.
 */

/** Where on the page as shown (its crop box, turned by its /Rotate) the number goes. */
export const NUMBER_POSITIONS = ['top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right'] as const;
export type NumberPosition = (typeof NUMBER_POSITIONS)[number];

/** The placeholders a format may hold. */
const PLACEHOLDER = /\{([^{}]*)\}/gu;
const KNOWN = new Set(['n', 'total']);

export interface NumberFormat {
  /** `{n}`: the page's number, `{total}`: the last number given. */
  format: string;
  prefix?: string | undefined;
  suffix?: string | undefined;
  /** The counter {n} is zero-padded to this many digits (Bates: 6 gives 000001). */
  digits?: number | undefined;
}

/** The placeholders of a format the service does not know (`{page}`, say): a client's typo, refused. */
export function unknownPlaceholders(format: string): string[] {
  return [...format.matchAll(PLACEHOLDER)].map((m) => m[0]).filter((p) => !KNOWN.has(p.slice(1, -1)));
}

/** The text for number `n` of `total`: prefix, the format with its placeholders filled in, suffix. */
export function numberLabel(f: NumberFormat, n: number, total: number): string {
  const counter = String(n).padStart(f.digits ?? 1, '0');
  const body = f.format.replace(PLACEHOLDER, (whole, key: string) => (key === 'n' ? counter : key === 'total' ? String(total) : whole));
  return `${f.prefix ?? ''}${body}${f.suffix ?? ''}`;
}
