import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOG, ServiceError, type ErrorCode } from '../errors.js';
import { negotiate } from './negotiation.js';
import { renderXml } from './xml.js';
import type { ErrorObject } from 'ajv';
import { describeValidationError } from '../validation.js';
import { noteProblem } from './request-tracing.js';

/** The problem document (RFC 9457) every error response carries. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail?: string;
  instance?: string;
  requestId?: string;
  [extra: string]: unknown;
}

/** The body types a route takes: its schema's `consumes`, else the model types (JSON and XML). */
function acceptedTypes(request: FastifyRequest): string[] {
  const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
  return consumes && consumes.length > 0 ? consumes : ['application/json', 'application/xml', 'text/xml'];
}

/** Maps what Fastify and its plugins throw to the service's codes. */
function fromFastifyError(err: FastifyError, request: FastifyRequest): ServiceError | undefined {
  if (err.validation) {
    // Query parameters are named as such ("query.dip: unknown parameter (did you mean dpi?)"); body members are fields.
    const query = err.validationContext === 'querystring';
    return new ServiceError('VALIDATION_FAILED', describeValidationError(err.validation as ErrorObject[], query ? 'query' : (err.validationContext ?? 'request'), query ? 'parameter' : 'field'));
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ServiceError('PAYLOAD_TOO_LARGE', err.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const accepted = acceptedTypes(request);
      const given = request.headers['content-type'] ? `not ${request.headers['content-type'].slice(0, 100)}` : 'and the request has no Content-Type';
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', `This request takes ${accepted.join(', ')}, ${given}`, { accepted }, { Accept: accepted.join(', ') });
    }
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ServiceError('MALFORMED_JSON', 'A multipart part declared as application/json is not well-formed JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('MALFORMED_JSON', 'The JSON body is empty or not well-formed');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Expected multipart/form-data');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('BAD_REQUEST', 'Content-Length does not match the body');
    case 'FST_PROTO_VIOLATION':
      return new ServiceError('BAD_REQUEST', 'A multipart part is named after an Object.prototype member (__proto__, constructor, toString, ...); such names are refused');
  }
  // busboy's messages for broken multipart bodies
  if (/multipart|boundary|Unexpected end of (form|multipart)|Malformed part header/i.test(err.message)) {
    return new ServiceError('MALFORMED_MULTIPART', 'The multipart body is malformed');
  }
  if (typeof err.statusCode === 'number' && err.statusCode === 413) return new ServiceError('PAYLOAD_TOO_LARGE');
  if (typeof err.statusCode === 'number' && err.statusCode === 415) return new ServiceError('UNSUPPORTED_MEDIA_TYPE');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new ServiceError('BAD_REQUEST', 'The request is invalid');
  }
  return undefined;
}

export function toServiceError(err: unknown, request: FastifyRequest): ServiceError | undefined {
  if (err instanceof ServiceError) return err;
  if (err instanceof Error) return fromFastifyError(err as FastifyError, request);
  return undefined;
}

/** The request's path as the client sent it: routing packs document paths (document-urls.ts), and the packed form would confuse the client. */
export function sentPath(request: FastifyRequest): string {
  return request.originalUrl.split('?')[0]!;
}

export function problemFor(error: ServiceError, request: FastifyRequest): Problem {
  return {
    type: `urn:pdfservice:error:${error.code}`,
    title: ERROR_CATALOG[error.code].title,
    status: error.status,
    code: error.code,
    ...(error.detail ? { detail: error.detail } : {}),
    instance: sentPath(request),
    requestId: String(request.id),
    ...(error.extra ?? {}),
  };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply {
  const problem = problemFor(error, request);
  noteProblem(request, problem.code);
  if (error.headers) reply.headers(error.headers);
  reply.code(problem.status).header('Vary', 'Accept');
  const wantsXml = negotiate(request.headers.accept, ['application/json', 'application/xml', 'text/xml']) !== 'application/json' &&
    negotiate(request.headers.accept, ['application/xml', 'text/xml']) !== null;
  if (wantsXml) {
    return reply.type('application/problem+xml; charset=utf-8').send(renderXml({ root: 'Error' }, problem));
  }
  return reply.type('application/problem+json; charset=utf-8').send(JSON.stringify(problem));
}

const DISCONNECT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** The client went away mid-request (aborted upload, reset connection): its doing, not a service fault. */
function isClientDisconnect(err: unknown, request: FastifyRequest): boolean {
  const { code, message } = (err ?? {}) as NodeJS.ErrnoException;
  if (code !== undefined && DISCONNECT_CODES.has(code)) return true;
  return request.raw.destroyed && !request.raw.complete && /aborted|premature close/i.test(message ?? '');
}

/** Fastify's error handler: known errors become problems; anything else is logged and hidden. */
export function handleError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!(err instanceof ServiceError) && isClientDisconnect(err, request)) {
    request.log.info({ code: (err as NodeJS.ErrnoException)?.code }, 'client disconnected before the request was complete');
    return sendProblem(request, reply, new ServiceError('BAD_REQUEST', 'The request was not received completely'));
  }
  const known = toServiceError(err, request);
  if (known) {
    if (known.status >= 500) request.log.error({ code: known.code }, known.message);
    return sendProblem(request, reply, known);
  }
  request.log.error({ err }, 'unexpected error');
  return sendProblem(request, reply, new ServiceError('INTERNAL_ERROR', 'The service failed unexpectedly; the request id identifies it in the logs'));
}
