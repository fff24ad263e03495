import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import type { OperationContext } from '../operations/context.js';
import { documentPathFromUrl, folderPathFromUrl, type StoredPath } from '../storage/paths.js';

export const DOCUMENT_PASSWORD_HEADER = 'x-service-documentpassword';
/** The same password as base64 of its bytes: any password, spaces at either end included, in a form HTTP leaves alone. */
export const DOCUMENT_PASSWORD_BASE64_HEADER = 'x-service-documentpassword-base64';
export const DOCUMENT_PASSWORD_HEADERS = [DOCUMENT_PASSWORD_HEADER, DOCUMENT_PASSWORD_BASE64_HEADER] as const;

/** The callback URL of a request that creates a job (docs/webhooks.md); its presence makes the request a job. */
export const WEBHOOK_HEADER = 'x-service-webhook-url';

/** W3C Trace Context, version 00: trace id and parent id of hex digits, neither all zeros. */
const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The request's webhook as sent (checked when its job is created), with its traceparent when that is valid. */
function webhookOf(request: FastifyRequest): OperationContext['webhook'] {
  const url = header(request, WEBHOOK_HEADER);
  if (url === undefined) return undefined;
  const traceparent = header(request, 'traceparent')?.trim();
  return { url, ...(traceparent !== undefined && TRACEPARENT.test(traceparent) ? { traceparent } : {}) };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Header values arrive as Latin-1 strings. A password typed in a UTF-8 terminal
 * arrives as UTF-8 bytes, so non-ASCII values that are valid UTF-8 are read as
 * UTF-8; anything else stays Latin-1 (docs/api.md, "Document passwords").
 */
function headerText(value: string | undefined): string | undefined {
  if (value === undefined || !/[^\x00-\x7f]/.test(value)) return value;
  return passwordFromBytes(Buffer.from(value, 'latin1'));
}

function passwordFromBytes(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/**
 * An RFC 8187 ext-value with charset UTF-8 (either case), an optional language tag and nothing but
 * attr-chars and %XX escapes after it: `UTF-8''%20x%20`. A value of any other shape is a plain password.
 */
const EXT_VALUE = /^UTF-8'[A-Za-z0-9-]*'((?:%[0-9A-F]{2}|[A-Z0-9!#$&+.^_`|~-])*)$/i;
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

function badPasswordHeader(name: string, why: string): ServiceError {
  return new ServiceError('VALIDATION_FAILED', `headers ${name}: ${why}`);
}

/**
 * The document password of a request, the one place it is read (docs/api.md, "Document passwords").
 * HTTP drops spaces at either end of a header value, so besides the plain header there are two exact
 * forms: an RFC 8187 ext-value in X-Service-DocumentPassword, or base64 in X-Service-DocumentPassword-Base64.
 */
export function documentPassword(request: FastifyRequest): string | undefined {
  // Decoded once per request: the preValidation hook of app.ts decodes it first, operationContext reads it after.
  if (decodedPasswords.has(request)) return decodedPasswords.get(request);
  const password = decodePassword(request);
  decodedPasswords.set(request, password);
  return password;
}

const decodedPasswords = new WeakMap<FastifyRequest, string | undefined>();

function decodePassword(request: FastifyRequest): string | undefined {
  const plain = header(request, DOCUMENT_PASSWORD_HEADER);
  const base64 = header(request, DOCUMENT_PASSWORD_BASE64_HEADER);
  if (plain !== undefined && base64 !== undefined) {
    throw badPasswordHeader(DOCUMENT_PASSWORD_BASE64_HEADER, `send either ${DOCUMENT_PASSWORD_HEADER} or ${DOCUMENT_PASSWORD_BASE64_HEADER}, not both`);
  }
  if (base64 !== undefined) {
    if (!BASE64.test(base64)) throw badPasswordHeader(DOCUMENT_PASSWORD_BASE64_HEADER, 'not base64');
    return passwordFromBytes(Buffer.from(base64, 'base64'));
  }
  const ext = plain === undefined ? null : EXT_VALUE.exec(plain);
  if (!ext) return headerText(plain);
  try {
    return decodeURIComponent(ext[1]!); // throws on bytes that are not UTF-8
  } catch {
    throw badPasswordHeader(DOCUMENT_PASSWORD_HEADER, "the UTF-8'' form decodes to bytes that are not UTF-8");
  }
}

/** The operation context of a request: who asks, the document password, If-Match. */
export function operationContext(request: FastifyRequest): OperationContext {
  const versionId = (request.query as { versionId?: unknown } | undefined)?.versionId;
  return {
    principal: request.principal,
    documentPassword: documentPassword(request),
    ifMatch: header(request, 'if-match'),
    requestId: String(request.id),
    ...(typeof versionId === 'string' ? { versionId } : {}),
    webhook: webhookOf(request),
  };
}

/** `:filePath` (packed by document-urls.ts, still percent-encoded inside) as a safe path. */
export function documentPathParam(request: { params: { filePath: string } }): StoredPath {
  return documentPathFromUrl(request.params.filePath);
}

/** `:folderPath`, or the root folder on routes without it. */
export function folderPathParam(request: { params: unknown }): StoredPath {
  const { params } = request;
  const raw = typeof params === 'object' && params !== null && 'folderPath' in params ? params.folderPath : undefined;
  return folderPathFromUrl(typeof raw === 'string' ? raw : '');
}
