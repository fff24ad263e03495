import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';
import { MODEL_TYPES, modelFormat, TEXT_MODEL_TYPES } from './negotiation.js';
import { renderXml, type XmlShape } from './xml.js';

/** The format the request's Accept asks for among the route's model types (its `model` option: `text` adds text/plain); 406 when none. */
export function acceptableModelFormat(request: FastifyRequest) {
  const offers = request.routeOptions.config.model === 'text' ? TEXT_MODEL_TYPES : MODEL_TYPES;
  const chosen = modelFormat(request.headers.accept, offers);
  if (!chosen) throw new ServiceError('NOT_ACCEPTABLE', `This resource is available as ${offers.join(', ')}`);
  return chosen;
}

/** Sends a model as JSON or XML, as the request's Accept header asks. */
export function sendModel(request: FastifyRequest, reply: FastifyReply, shape: XmlShape, value: unknown, status = 200): FastifyReply {
  const chosen = acceptableModelFormat(request);
  if (chosen.format === 'text') throw new Error('sendModel has no text/plain form: use sendVersionedModel with a text rendering');
  reply.code(status).header('Vary', 'Accept');
  if (chosen.format === 'xml') return reply.type(`${chosen.mediaType}; charset=utf-8`).send(renderXml(shape, value));
  return reply.type('application/json; charset=utf-8').send(value);
}

/** An RFC 6266 Content-Disposition value, with an ASCII fallback and a UTF-8 filename*. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The header that carries the warnings of an answer whose body is a file (exposed to browsers by CORS). */
export const WARNING_HEADER = 'X-Service-Warning';

/**
 * Warnings of an answer whose body is a file (an XFDF export), one
 * `X-Service-Warning` header each. Header values are ASCII here: other
 * characters are written as JSON-style \uXXXX escapes.
 */
export function warningHeaders(reply: FastifyReply, warnings: string[]): FastifyReply {
  if (warnings.length === 0) return reply;
  const ascii = warnings.map((w) => w.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return reply.header(WARNING_HEADER, ascii.length === 1 ? ascii[0]! : ascii);
}

/**
 * The URLs of the next and previous slices of a listing paged by ?offset= and ?limit= (pages, versions), for the body's
 * next/prev, also set as the Link header. `link` is that header's value ('' when the listing is one slice). `keep`: query
 * parameters every slice's URL keeps.
 */
export function sliceLinks(request: FastifyRequest, reply: FastifyReply, offset: number, limit: number, total: number, keep: Record<string, string | undefined> = {}): { links: { next?: string; prev?: string }; base: string; link: string } {
  const base = request.originalUrl.split('?')[0]!;
  // Query parameters that choose what is listed (the trash's owner) stay in every slice's URL.
  const kept = Object.entries(keep).flatMap(([name, value]) => (value === undefined ? [] : [`&${name}=${encodeURIComponent(value)}`])).join('');
  const slice = (from: number) => `${base}?offset=${from}&limit=${limit}${kept}`;
  const links = {
    ...(offset + limit < total ? { next: slice(offset + limit) } : {}),
    ...(offset > 0 ? { prev: slice(Math.max(0, Math.min(offset, total) - limit)) } : {}),
  };
  const link = Object.entries(links).map(([rel, url]) => `<${url}>; rel="${rel}"`).join(', ');
  if (link) reply.header('Link', link);
  return { links, base, link };
}
