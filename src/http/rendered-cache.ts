import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ReadModelCache } from '../operations/read-model-cache.js';
import { noneMatch } from './conditional.js';
import { acceptableModelFormat } from './reply.js';
import { renderXmlYielding, type XmlShape } from './xml.js';

/**
 * Rendered model bodies by document version, for large read models (an
 * annotation listing of thousands of entries is over a megabyte of JSON, and
 * rendering it costs more than finding it). Bounded by total bytes; the least
 * recently used go first. Entries are keyed by the caller's variant (document
 * ETag, password, filters) and the negotiated format, so nothing is shared
 * across documents, passwords or formats. Users do share it: a route renders
 * or looks up a body only with the version its operation has just answered,
 * after a stat or read through the requesting user's store, so a user the
 * store refuses never gets here.
 */
export class RenderedCache {
  private readonly bodies: ReadModelCache<Rendered>;
  constructor(maxBytes: number) {
    this.bodies = new ReadModelCache<Rendered>(maxBytes, (entry) => entry.body.length);
  }

  /** The rendering of one representation: the document's ETag, the route's variant and the negotiated media type. */
  get(key: string): Rendered | undefined {
    return this.bodies.get(key, undefined);
  }

  set(key: string, entry: Rendered): void {
    this.bodies.set(key, undefined, entry);
  }
}

/**
 * A rendered representation, ready to send: its bytes with their ETag and Content-Type, so that a warm read (a hit)
 * hashes and formats nothing (the variant's SHA-256 of the ETag was made on every request before).
 */
interface Rendered {
  body: Buffer;
  etag: string;
  contentType: string;
}

/** What a versioned model is made of: the model, and for routes that also offer text/plain, its text. A function alone makes the model. */
export type VersionedContent = (() => unknown) | { model: () => unknown; text?: () => string };

/** A weak ETag for one variant of one document version, in one format. */
export function variantEtag(documentEtag: string, variant: string): string {
  const hash = createHash('sha256').update(variant).digest('base64url').slice(0, 16);
  return `W/"${documentEtag.replace(/"/g, '')}-${hash}"`;
}

/** The headers of every answer (200 or 304) of a representation of one document version: its ETag, Vary: Accept and Cache-Control. */
export function versionHeaders(reply: FastifyReply, etag: string): FastifyReply {
  return reply.header('ETag', etag).header('Vary', 'Accept').header('Cache-Control', 'private, no-cache');
}

/**
 * The conditional half of sendVersionedModel for a representation that costs more to make than to name (an export, a
 * page image), asked before its work: when If-None-Match holds the variant's ETag of the version `current` answers
 * (a stat, asked only when the header is there), answers 304 with sendVersionedModel's headers and true; otherwise
 * false, and the 200 sets the same headers with versionHeaders(reply, variantEtag(etag, variant)).
 */
export async function answerNotModified(request: FastifyRequest, reply: FastifyReply, variant: string, current: () => Promise<string>): Promise<boolean> {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const etag = variantEtag(await current(), variant);
  if (!noneMatch(header, etag)) return false;
  await versionHeaders(reply, etag).code(304).send();
  return true;
}

/**
 * Sends a model that belongs to one version of a document: with a weak ETag
 * derived from the document's and the variant's, 304 on If-None-Match, and
 * the rendered body from the cache when this variant was rendered before.
 */
export async function sendVersionedModel(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: RenderedCache,
  shape: XmlShape,
  version: { etag: string; variant: string },
  content: VersionedContent,
): Promise<FastifyReply> {
  const chosen = acceptableModelFormat(request);
  const key = `${version.etag}|${version.variant}|${chosen.mediaType}`;
  const cached = cache.get(key);
  const etag = cached?.etag ?? variantEtag(version.etag, `${version.variant}|${chosen.mediaType}`);
  versionHeaders(reply, etag);
  if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  let entry = cached;
  if (!entry) {
    const type = chosen.format === 'json' ? 'application/json' : chosen.mediaType;
    entry = { body: Buffer.from(await render(chosen.format, shape, content), 'utf8'), etag, contentType: `${type}; charset=utf-8` };
    cache.set(key, entry);
  }
  return reply.type(entry.contentType).send(entry.body);
}

async function render(format: 'json' | 'xml' | 'text', shape: XmlShape, content: VersionedContent): Promise<string> {
  const { model, text } = typeof content === 'function' ? { model: content, text: undefined } : content;
  // Large lists (annotations, pages) are rendered in slices, the event loop served between them.
  if (format === 'xml') return renderXmlYielding(shape, model());
  if (format === 'json') return JSON.stringify(model());
  if (!text) throw new Error('this model has no text/plain form');
  return text();
}
