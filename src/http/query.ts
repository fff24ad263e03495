import type { FastifyRequest, RouteOptions } from 'fastify';
import { ServiceError } from '../errors.js';

/**
 * Query parameters that every route takes and ignores: `_`, the cache buster browsers' libraries add
 * (jQuery's `cache: false`, `_=<time>`). docs/api.md ("Query parameters") says so.
 */
export const IGNORED_QUERY_PARAMETERS: readonly string[] = ['_'];

/**
 * Makes every route's query strict: a parameter its querystring schema does not name is 400 VALIDATION_FAILED with
 * "did you mean" (validation.ts), as an unknown JSON field is, rather than ignored (`?dip=150` rendered at the default
 * resolution). A route without a querystring schema takes no parameters. An onRoute hook, so that no route can forget.
 */
export function strictQuerystring(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as { querystring?: Record<string, unknown> };
  const query = schema.querystring ?? { type: 'object', properties: {} };
  if (query.additionalProperties !== undefined) return;
  schema.querystring = { ...query, additionalProperties: false };
}

/** A preValidation hook: drops the ignored parameters before the query is validated. */
export function dropIgnoredQueryParameters(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  for (const name of IGNORED_QUERY_PARAMETERS) delete query[name];
}

/** The document routes, below which `versionId` selects a kept version (docs/versions.md). */
const DOCUMENT_ROUTE = '/documents/:filePath.pdf';

function isDocumentRoute(url: string | undefined): boolean {
  if (url === undefined) return false;
  const at = url.indexOf(DOCUMENT_ROUTE);
  if (at < 0) return false;
  const rest = url.slice(at + DOCUMENT_ROUTE.length);
  // The versions resource names versions in its path, not in a query.
  return !rest.startsWith('/versions');
}

export const VERSION_ID_QUERY = {
  versionId: {
    type: 'string',
    description: 'Read this kept version of the document instead of its current content (GET .../versions lists them; docs/versions.md). 404 VERSION_NOT_FOUND for an unknown id.',
    examples: ['1795219200000000'],
  },
} as const;

/**
 * An onRoute hook: every read of a document (GET below `/documents/{path}.pdf`, the versions resource aside) takes
 * `?versionId=`, which operationContext hands to the operations layer, so that every read model of the document can
 * be read of a kept version. A new object: querystring schemas are shared between routes.
 */
export function versionIdQuery(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.some((m) => m === 'GET' || m === 'HEAD') || !isDocumentRoute(route.url)) return;
  const schema = (route.schema ??= {}) as { querystring?: { properties?: Record<string, unknown> } & Record<string, unknown> };
  const query = schema.querystring ?? { type: 'object', properties: {} };
  schema.querystring = { ...query, properties: { ...(query.properties ?? {}), ...VERSION_ID_QUERY } };
}

/**
 * A preValidation hook: a write of a document (any method but GET and HEAD below `/documents/{path}.pdf`) that names
 * a version is 400 VERSION_READ_ONLY, not the unknown-parameter answer: a kept version is read-only, and this says how
 * to change it (restore it first).
 */
export function refuseVersionWrites(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object' || !('versionId' in query)) return;
  if (!isDocumentRoute(request.routeOptions.url)) return;
  throw new ServiceError('VERSION_READ_ONLY', 'versionId names a kept version, which cannot be changed: restore it (POST .../versions/{id}/restore), then change the document');
}
