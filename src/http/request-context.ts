import type { FastifyRequest } from 'fastify';
import type { OperationContext } from '../operations/context.js';
import { documentPathFromUrl, folderPathFromUrl, type StoredPath } from '../storage/paths.js';

export const DOCUMENT_PASSWORD_HEADER = 'x-service-documentpassword';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The operation context of a request: who asks, the document password, If-Match. */
export function operationContext(request: FastifyRequest): OperationContext {
  return {
    principal: request.principal,
    documentPassword: header(request, DOCUMENT_PASSWORD_HEADER),
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
