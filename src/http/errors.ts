import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOG, ServiceError, type ErrorCode } from '../errors.js';
import { negotiate } from './negotiation.js';
import { renderXml } from './xml.js';

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

/** Maps what Fastify and its plugins throw to the service's codes. */
function fromFastifyError(err: FastifyError): ServiceError | undefined {
  if (err.validation) {
    const first = err.validation[0];
    const where = err.validationContext ?? 'request';
    const field = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : (first?.params as { missingProperty?: string })?.missingProperty;
    return new ServiceError('VALIDATION_FAILED', `${where}${field ? ` ${field}` : ''}: ${first?.message ?? 'invalid'}`);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ServiceError('PAYLOAD_TOO_LARGE', err.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'This request media type is not supported here');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('MALFORMED_JSON', 'The JSON body is empty or not well-formed');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Expected multipart/form-data');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('BAD_REQUEST', 'Content-Length does not match the body');
    case 'FST_PROTO_VIOLATION':
      return new ServiceError('BAD_REQUEST', 'The body tries to set a prototype');
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

export function toServiceError(err: unknown): ServiceError | undefined {
  if (err instanceof ServiceError) return err;
  if (err instanceof Error) return fromFastifyError(err as FastifyError);
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
  if (error.headers) reply.headers(error.headers);
  reply.code(problem.status).header('Vary', 'Accept');
  const wantsXml = negotiate(request.headers.accept, ['application/json', 'application/xml', 'text/xml']) !== 'application/json' &&
    negotiate(request.headers.accept, ['application/xml', 'text/xml']) !== null;
  if (wantsXml) {
    return reply.type('application/problem+xml; charset=utf-8').send(renderXml({ root: 'Error' }, problem));
  }
  return reply.type('application/problem+json; charset=utf-8').send(JSON.stringify(problem));
}

/** Fastify's error handler: known errors become problems; anything else is logged and hidden. */
export function handleError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toServiceError(err);
  if (known) {
    if (known.status >= 500) request.log.error({ code: known.code }, known.message);
    return sendProblem(request, reply, known);
  }
  request.log.error({ err }, 'unexpected error');
  return sendProblem(request, reply, new ServiceError('INTERNAL_ERROR', 'The service failed unexpectedly; the request id identifies it in the logs'));
}
