/**
 * Content negotiation by Accept (RFC 9110 §12.5.1), in one place. Offers are
 * tried in the server's order of preference; among equal client weights, the
 * earlier offer wins, so a missing Accept or "*\/*" picks the first offer.
 */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  specificity: number;
}

function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || header.trim() === '') return [{ type: '*', subtype: '*', q: 1, specificity: 0 }];
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : 2;
    ranges.push({ type, subtype, q, specificity });
  }
  return ranges;
}

function weight(ranges: MediaRange[], offer: string): number {
  const [type, subtype] = offer.toLowerCase().split('/');
  let best: MediaRange | undefined;
  for (const r of ranges) {
    const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    if (matches && (!best || r.specificity > best.specificity)) best = r;
  }
  return best?.q ?? 0;
}

/** The best offer for this Accept header, or null when none is acceptable (406). */
export function negotiate(accept: string | undefined, offers: readonly string[]): string | null {
  const ranges = parseAccept(accept);
  let chosen: string | null = null;
  let chosenQ = 0;
  for (const offer of offers) {
    const q = weight(ranges, offer);
    if (q > chosenQ) {
      chosen = offer;
      chosenQ = q;
    }
  }
  return chosen;
}

export const MODEL_TYPES = ['application/json', 'application/xml', 'text/xml'] as const;
/** Models that are mostly text (page text) are also offered as text/plain, preferred over text/xml for `text/*`. */
export const TEXT_MODEL_TYPES = ['application/json', 'text/plain', 'application/xml', 'text/xml'] as const;
export type ModelFormat = 'json' | 'xml' | 'text';

export function modelFormat(accept: string | undefined, offers: readonly string[] = MODEL_TYPES): { format: ModelFormat; mediaType: string } | null {
  const chosen = negotiate(accept, offers);
  if (!chosen) return null;
  const format = chosen === 'application/json' ? 'json' : chosen === 'text/plain' ? 'text' : 'xml';
  return { format, mediaType: chosen };
}
