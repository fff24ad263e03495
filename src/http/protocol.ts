import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { ERROR_CATALOG, ServiceError, type ErrorCode } from '../errors.js';
import { sendProblem } from './errors.js';

/**
 * HTTP-level answers that no route gives: 405 for a method a resource lacks,
 * problem documents for what Node and Fastify refuse before routing (bad
 * percent-encoding, over-long URLs and headers), refused content codings and
 * the headers every response carries.
 */

/** Headers on every answer: the id to find it in the logs, and no content sniffing by browsers. */
export function commonHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', String(request.id)).header('X-Content-Type-Options', 'nosniff');
}

/** Fastify's `frameworkErrors`: URLs the router refuses, answered as problems that do not echo a long URL. */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  commonHeaders(request, reply);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendProblem(request, reply, new ServiceError('URI_TOO_LONG', 'A segment of the URL is longer than the service accepts', { instance: undefined }));
    return;
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    sendProblem(request, reply, new ServiceError('BAD_REQUEST', 'The URL has malformed percent-encoding (a % must be followed by two hexadecimal digits of UTF-8)', { instance: undefined }));
    return;
  }
  request.log.error({ err }, 'router failure');
  sendProblem(request, reply, new ServiceError('INTERNAL_ERROR'));
}

// Not `import { STATUS_CODES } from 'node:http'`: Node's ES module of node:http reads every export, its lazy WebSocket
// among them, which loads Node's bundled undici (about 0.1 s of CPU at every start; docs/testing.md).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

const SOCKET_ERRORS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * Fastify's `clientErrorHandler`: Node refused the request before it was
 * parsed (request line and headers over maxHeaderSize, a malformed request).
 * There is no request to negotiate with, so the answer is a small
 * problem+json that names nothing the client sent.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE' || socket.destroyed) {
    // The client closed the connection mid-request: nothing to answer.
    this.log.info({ code: err.code }, 'client disconnected before the request was complete');
    socket.destroy();
    return;
  }
  const code = SOCKET_ERRORS[err.code ?? ''] ?? 'BAD_REQUEST';
  const { status, title } = ERROR_CATALOG[code];
  this.log.info({ code: err.code }, `client error: ${code}`);
  if (socket.writable) {
    const body = JSON.stringify({ type: `urn:pdfservice:error:${code}`, title, status, code });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Request bodies are taken as sent: a compressed body (Content-Encoding gzip,
 * br, ...) is refused with 415 and Accept-Encoding: identity (RFC 7694) rather
 * than decoded, so no body can expand past the size limits it was checked against.
 */
export function refuseContentEncoding(request: FastifyRequest): void {
  const coding = request.headers['content-encoding'];
  if (coding === undefined || coding.trim() === '' || coding.trim().toLowerCase() === 'identity') return;
  throw new ServiceError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Request bodies are accepted in the identity content coding only (uncompressed), not "${coding.slice(0, 40)}"`,
    { acceptedEncodings: ['identity'] },
    { 'Accept-Encoding': 'identity' },
  );
}

/** Methods a resource may lack (405 with Allow). TRACE and QUERY are methods Fastify routes and OpenAPI tools try; OPTIONS is CORS's. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'QUERY'] as const;
const KNOWN_METHODS = new Set<string>([...METHODS, 'OPTIONS']);

/**
 * A method the service knows for no resource (PROPFIND, LOCK, ...): 501 before login, as RFC 9110 §15.6.2
 * asks, rather than the 404 or 401 of the not-found route such a request would otherwise reach.
 */
export function refuseUnknownMethod(request: FastifyRequest): void {
  if (!KNOWN_METHODS.has(request.method)) {
    throw new ServiceError('METHOD_NOT_IMPLEMENTED', `The method ${request.method.slice(0, 20)} is not implemented by this service`);
  }
}

/**
 * Collects every route's methods by URL; the function returned, called after
 * all routes are registered, adds a 405 route with `Allow` for each method a
 * URL lacks. The router matches them exactly as it matches the real routes.
 * OPTIONS is left to CORS handling.
 */
export function methodNotAllowedRoutes(app: FastifyInstance): () => void {
  const byUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config?.allow !== undefined) return;
    const methods = byUrl.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) methods.add(m);
    if (methods.has('GET')) methods.add('HEAD');
    byUrl.set(route.url, methods);
  });
  return () => {
    for (const [url, methods] of byUrl) {
      const missing = METHODS.filter((m) => !methods.has(m));
      if (missing.length === 0) continue;
      const allow = METHODS.filter((m) => methods.has(m)).join(', ');
      app.route({
        method: missing,
        url,
        config: { public: true, allow },
        schema: { hide: true },
        // Refused as the request arrives, before any body (QUERY has one) is read or parsed.
        onRequest: async (request) => {
          throw new ServiceError('METHOD_NOT_ALLOWED', `${request.method} is not supported here; this resource supports ${allow}`, { allow: allow.split(', ') }, { Allow: allow });
        },
        handler: async () => undefined,
      });
    }
  };
}
