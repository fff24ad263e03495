import type { FastifyInstance } from 'fastify';
import { WARNING_HEADER } from './reply.js';
import { DOCUMENT_PASSWORD_HEADERS } from './request-context.js';

/**
 * CORS for browser applications on other origins, for the origins listed in
 * PDFSERVICE_CORS_ORIGINS only (none by default: then no CORS header is ever
 * sent and browsers keep the same-origin rule). A small hook rather than
 * @fastify/cors: it must answer preflights before authentication for any URL,
 * including ones without an OPTIONS route, and send nothing at all for other
 * origins.
 *
 * Listed origins may send credentials (the session cookie, Authorization), so
 * `*` is never used: the request's own origin is echoed when it is listed.
 */
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/**
 * Request headers a page may send beyond the CORS-safelisted ones: every request header the API reads. `Prefer`
 * (respond-async, wait: background jobs) and `Last-Event-ID` (resuming a job's event stream) included, or a browser
 * could start no job. The service's X-Service-* headers are added per preflight (allowedRequestHeaders).
 */
const ALLOWED_HEADERS = [
  'authorization', 'content-type', 'accept', 'if-match', 'if-none-match', 'if-range', 'range', 'prefer', 'last-event-id', 'x-request-id',
];
/**
 * Response headers a page may read beyond the safelisted ones (Cache-Control, Content-Language, Content-Length,
 * Content-Type, Expires, Last-Modified, Pragma): every header the API answers with that a client acts on —
 * `Location` and `Preference-Applied` of a 202 job, `Retry-After` of a 429 or 503, `ETag` for If-Match, the paging
 * `Link`, `Deprecation`.
 */
const EXPOSED_HEADERS = [
  'ETag', 'Location', 'Preference-Applied', 'Content-Disposition', 'Content-Range', 'Accept-Ranges', 'Retry-After',
  'WWW-Authenticate', 'Allow', 'Link', 'Deprecation', 'X-Request-Id', WARNING_HEADER,
].join(', ');
/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Headers a preflight may ask for: the list above and the service's own X-Service-* headers (document passwords). */
function allowedRequestHeaders(requested: string | undefined): string {
  const asked = (requested ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  const extra = asked.filter((h) => h.startsWith('x-service-') && /^[a-z0-9-]+$/.test(h));
  return [...new Set([...ALLOWED_HEADERS, ...DOCUMENT_PASSWORD_HEADERS.map((h) => h.toLowerCase()), ...extra])].join(', ');
}

export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Allow-Credentials', 'true');
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (!preflight) {
      reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return;
    }
    const requested = request.headers['access-control-request-headers'];
    reply
      .header('Access-Control-Allow-Methods', METHODS)
      .header('Access-Control-Allow-Headers', allowedRequestHeaders(typeof requested === 'string' ? requested : undefined))
      .header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    return reply.code(204).send();
  });
  // Answers differ by Origin, so shared caches must keep them apart (other code sets Vary: Accept).
  app.addHook('onSend', async (request, reply) => {
    if (request.headers.origin === undefined) return;
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/(^|,)\s*origin\s*(,|$)/i.test(vary)) reply.header('Vary', vary ? `${vary}, Origin` : 'Origin');
  });
}
