import type { IncomingHttpHeaders } from 'node:http';
import { WEBHOOK_HEADER } from './request-context.js';

/**
 * The `Prefer` request header (RFC 7240) as the actions read it: whether the
 * client asks for an asynchronous answer (`respond-async`) and how long it is
 * willing to wait (`wait=N`, seconds). A client may send several headers or
 * comma-separated lists; preference names are case-insensitive; unknown
 * preferences are ignored, as RFC 7240 asks.
 */
export interface Preferences {
  respondAsync: boolean;
  /** The request names a webhook (X-Service-Webhook-Url): it runs as a job, as with respond-async (docs/webhooks.md). */
  webhook?: boolean;
  /** Seconds from `wait=N`; undefined when absent or not a whole number. */
  wait?: number;
}

/** Longest wait honoured, so that a client cannot hold a request open for hours (a larger value is capped). */
export const MAX_WAIT_SECONDS = 3600;

export function parsePrefer(header: string | string[] | undefined): Preferences {
  const out: Preferences = { respondAsync: false };
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const value of values) {
    for (const item of splitOutsideQuotes(value, ',')) {
      // Only the first token=value pair names the preference; parameters after ';' do not matter here.
      const [head = ''] = splitOutsideQuotes(item, ';');
      const eq = head.indexOf('=');
      const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
      const raw = eq < 0 ? undefined : unquote(head.slice(eq + 1).trim());
      if (name === 'respond-async') out.respondAsync = true;
      else if (name === 'wait' && raw !== undefined && /^\d+$/.test(raw) && out.wait === undefined) {
        // RFC 7240: the first occurrence of a preference wins.
        out.wait = Math.min(Number(raw), MAX_WAIT_SECONDS);
      }
    }
  }
  return out;
}

/**
 * Whether a request that can run as a background job does (docs/jobs.md), and
 * how long it waits for the job before it answers 202: with respond-async
 * always (waiting `wait=N` first, when given); work that is long by nature
 * also without it, answering 202 at once unless the client asks `wait=N`.
 * Null: run inline. `applied` is the Preference-Applied value of a 202.
 */
export function jobPlan(prefer: Preferences, longByNature: boolean): { waitMs: number; applied?: string } | null {
  if (!prefer.respondAsync && !prefer.webhook && !longByNature) return null;
  const waitMs = (prefer.wait ?? 0) * 1000;
  const applied = [...(prefer.respondAsync ? ['respond-async'] : []), ...(prefer.wait !== undefined ? [`wait=${prefer.wait}`] : [])].join(', ');
  return { waitMs, ...(applied ? { applied } : {}) };
}

/** The preferences of a request that can run as a job: its Prefer headers, and whether it names a webhook. */
export function requestPreferences(headers: IncomingHttpHeaders): Preferences {
  return { ...parsePrefer(headers.prefer), ...(headers[WEBHOOK_HEADER] !== undefined ? { webhook: true } : {}) };
}

function unquote(raw: string): string {
  return raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
}

/** Splits on `sep` except inside a quoted string, so `x="a,b"` stays one item. */
function splitOutsideQuotes(value: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === '\\' && i + 1 < value.length) {
      current += c + value[i + 1];
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}
