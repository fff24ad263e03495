import type { FastifyRequest } from 'fastify';
import type { OperationContext } from '../operations/context.js';
import { documentPathFromUrl, folderPathFromUrl, type StoredPath } from '../storage/paths.js';

export const DOCUMENT_PASSWORD_HEADER = 'x-service-documentpassword';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Header values arrive as Latin-1 strings. A password typed in a UTF-8 terminal
 * arrives as UTF-8 bytes, so non-ASCII values that are valid UTF-8 are read as
 * UTF-8; anything else stays Latin-1 (docs/api.md, "Document passwords").
 */
export function headerText(value: string | undefined): string | undefined {
  if (value === undefined || !/[^\x00-\x7f]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/** The operation context of a request: who asks, the document password, If-Match. */
export function operationContext(request: FastifyRequest): OperationContext {
  return {
    principal: request.principal,
    documentPassword: headerText(header(request, DOCUMENT_PASSWORD_HEADER)),
    ifMatch: header(request, 'if-match'),
  };
}

/** `:filePath` (packed by document-urls.ts, still percent-encoded inside) as a safe path. */
export function documentPathParam(request: FastifyRequest): StoredPath {
  return documentPathFromUrl((request.params as { filePath: string }).filePath);
}

export function folderPathParam(request: FastifyRequest): StoredPath {
  const raw = (request.params as { folderPath?: string }).folderPath;
  return folderPathFromUrl(raw ?? '');
}
