import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noneMatch } from './conditional.js';
import { acceptableModelFormat } from './reply.js';
import { renderXml, type XmlShape } from './xml.js';

/**
 * Rendered model bodies by document version, for large read models (an
 * annotation listing of thousands of entries is over a megabyte of JSON, and
 * rendering it costs more than finding it). Bounded by total bytes; the least
 * recently used go first. Entries are keyed by the caller's variant (document
 * ETag, password, filters) and the negotiated format, so nothing is shared
 * across documents, passwords or formats.
 */
export class RenderedCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, body: Buffer): void {
    if (body.length > this.maxBytes / 4) return; // one huge body must not empty the cache
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
  }
}

/**
 * Sends a model that belongs to one version of a document: with a weak ETag
 * derived from the document's and the variant's, 304 on If-None-Match, and
 * the rendered body from the cache when this variant was rendered before.
 */
export function sendVersionedModel(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: RenderedCache,
  shape: XmlShape,
  version: { etag: string; variant: string },
  produce: () => unknown,
): FastifyReply {
  const chosen = acceptableModelFormat(request);
  const variant = createHash('sha256').update(`${version.variant}|${chosen.mediaType}`).digest('base64url').slice(0, 16);
  const etag = `W/"${version.etag.replace(/"/g, '')}-${variant}"`;
  reply.header('ETag', etag).header('Vary', 'Accept').header('Cache-Control', 'private, no-cache');
  if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  let body = cache.get(etag);
  if (!body) {
    const value = produce();
    body = Buffer.from(chosen.format === 'xml' ? renderXml(shape, value) : JSON.stringify(value), 'utf8');
    cache.set(etag, body);
  }
  const type = chosen.format === 'xml' ? `${chosen.mediaType}; charset=utf-8` : 'application/json; charset=utf-8';
  return reply.type(type).send(body);
}
