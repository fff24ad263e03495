import type { FastifyRequest, RouteOptions } from 'fastify';

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
export async function dropIgnoredQueryParameters(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  for (const name of IGNORED_QUERY_PARAMETERS) delete query[name];
}
