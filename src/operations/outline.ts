import { FIT_TYPES, MAX_OUTLINE_DEPTH, MAX_OUTLINE_ITEMS, MAX_OUTLINE_TITLE, type FitType, type OutlineDestination, type OutlineItemInput, type OutlineModel } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/** What the outline cache may hold, by the estimate below. */
const OUTLINE_CACHE_BYTES = 32 * 1024 * 1024;
/** A generous size of one item of the model in memory (a title, a destination, the object around them). */
const ITEM_BYTES = 256;

/** The outline resource (docs/outline.md): the bookmarks read as a tree (cached by ETag), and replaced under the document's lock. */
export class OutlineOperations {
  /**
   * Looked up by get() after its stat as the requesting user (ReadModelCache says why that suffices). Weighed by an
   * estimate of the bytes of its items (a model of 10,000 items is about 2 MB), not counted: 200 such would be 400 MB.
   */
  private readonly models = new ReadModelCache<OutlineModel>(OUTLINE_CACHE_BYTES, (model) => 1024 + model.itemCount * ITEM_BYTES);

  constructor(private readonly documents: DocumentOperations) {}

  get(path: StoredPath, ctx: OperationContext): Promise<{ model: OutlineModel; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.models,
      compute: (stored, engine) => engine.run('readOutline', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  /** Replaces the whole outline (`items` checked by outlineItems); answers it as read back from the written document. */
  async replace(path: StoredPath, ctx: OperationContext, items: OutlineItemInput[]): Promise<{ model: OutlineModel; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'writeOutline', async (stored, engine) => {
      const { bytes, outline } = await engine.run('writeOutline', { pdf: stored.pdf, password: ctx.documentPassword, items });
      return { ...(bytes ? { bytes } : {}), result: outline };
    });
    return { model: result, etag: stat.etag };
  }
}

const NUMBER_KEYS = ['left', 'top', 'right', 'bottom', 'zoom'] as const;
const ITEM_KEYS = new Set(['title', 'open', 'bold', 'italic', 'color', 'destination', 'uri', 'children', 'namedDestination', 'action']);
/** URI actions hold ASCII (ISO 32000-1 12.6.4.7); other characters are percent-encoded by the client. */
const URI_PATTERN = /^[\x21-\x7e]+$/;

/**
 * The items of a PUT .../outline body, checked at every level: the route's schema sees the first level only (the
 * tree is recursive), and an XML body's values arrive as text (`text`: numbers and booleans are read from it, and
 * a list of children is `<children><item>..</item></children>`). At most MAX_OUTLINE_ITEMS items and
 * MAX_OUTLINE_DEPTH levels (400 OUTLINE_TOO_LARGE); anything else malformed is 400 VALIDATION_FAILED naming the
 * item. namedDestination and action (and the model's itemCount and warnings), which GET answers, are accepted and ignored, so a model read can be sent back.
 */
export function outlineItems(body: unknown, text: boolean): OutlineItemInput[] {
  let count = 0;
  const fail = (at: string, problem: string): never => {
    throw new ServiceError('VALIDATION_FAILED', `${at}: ${problem}`);
  };
  const list = (value: unknown, at: string): unknown[] => {
    if (value === undefined || value === '') return [];
    if (Array.isArray(value)) return value;
    return fail(at, 'must be an array of items');
  };
  const bool = (value: unknown, at: string): boolean | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === 'boolean') return value;
    if (text && (value === 'true' || value === 'false')) return value === 'true';
    return fail(at, 'must be a boolean');
  };
  const number = (value: unknown, at: string): number => {
    const n = typeof value === 'number' ? value : text && typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    return Number.isFinite(n) ? n : fail(at, 'must be a number');
  };
  const object = (value: unknown, at: string): Record<string, unknown> =>
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : fail(at, 'must be an object');
  const destination = (value: unknown, at: string): OutlineDestination => {
    const d = object(value, at);
    for (const key of Object.keys(d)) if (key !== 'pageIndex' && key !== 'fit' && !(NUMBER_KEYS as readonly string[]).includes(key)) fail(`${at}.${key}`, 'unknown field');
    const pageIndex = number(d.pageIndex, `${at}.pageIndex`);
    if (!Number.isInteger(pageIndex) || pageIndex < 0) fail(`${at}.pageIndex`, 'must be an integer from 0');
    const out: OutlineDestination = { pageIndex };
    if (d.fit !== undefined) {
      if (!(FIT_TYPES as readonly unknown[]).includes(d.fit)) fail(`${at}.fit`, `must be one of ${FIT_TYPES.join(', ')}`);
      out.fit = d.fit as FitType;
    }
    for (const key of NUMBER_KEYS) {
      if (d[key] === undefined || d[key] === null) continue;
      out[key] = number(d[key], `${at}.${key}`);
      if (key === 'zoom' && out.zoom! < 0) fail(`${at}.zoom`, 'must not be negative');
    }
    return out;
  };
  const items = (value: unknown, at: string, depth: number): OutlineItemInput[] => {
    const raw = list(value, at);
    if (raw.length > 0 && depth > MAX_OUTLINE_DEPTH) throw new ServiceError('OUTLINE_TOO_LARGE', `${at}: items are nested deeper than ${MAX_OUTLINE_DEPTH} levels`);
    return raw.map((entry, i) => {
      const where = `${at}[${i}]`;
      if (++count > MAX_OUTLINE_ITEMS) throw new ServiceError('OUTLINE_TOO_LARGE', `The outline has more than ${MAX_OUTLINE_ITEMS} items`);
      const e = object(entry, where);
      for (const key of Object.keys(e)) if (!ITEM_KEYS.has(key)) fail(`${where}.${key}`, 'unknown field');
      if (typeof e.title !== 'string') fail(`${where}.title`, 'is required, a string');
      const title = e.title as string;
      if (title.length > MAX_OUTLINE_TITLE) fail(`${where}.title`, `must be at most ${MAX_OUTLINE_TITLE} characters`);
      if (/[\uD800-\uDFFF]/u.test(title)) fail(`${where}.title`, 'must be well-formed Unicode (no lone surrogates)');
      const item: OutlineItemInput = { title };
      for (const key of ['open', 'bold', 'italic'] as const) {
        const v = bool(e[key], `${where}.${key}`);
        if (v !== undefined) item[key] = v;
      }
      if (e.color !== undefined) {
        const c = object(e.color, `${where}.color`);
        for (const key of Object.keys(c)) if (!['red', 'green', 'blue'].includes(key)) fail(`${where}.color.${key}`, 'unknown field');
        const component = (key: 'red' | 'green' | 'blue') => {
          const v = number(c[key], `${where}.color.${key}`);
          return v >= 0 && v <= 1 ? v : fail(`${where}.color.${key}`, 'must be from 0 to 1');
        };
        item.color = { red: component('red'), green: component('green'), blue: component('blue') };
      }
      if (e.destination !== undefined && e.uri !== undefined) fail(where, 'give destination or uri, not both');
      if (e.destination !== undefined) item.destination = destination(e.destination, `${where}.destination`);
      if (e.uri !== undefined) {
        if (typeof e.uri !== 'string' || !URI_PATTERN.test(e.uri) || e.uri.length > 8192) fail(`${where}.uri`, 'must be an ASCII URI without spaces, at most 8192 characters');
        item.uri = e.uri as string;
      }
      const children = items(e.children, `${where}.children`, depth + 1);
      if (children.length > 0) item.children = children;
      return item;
    });
  };
  return items(object(body, 'body').items, 'items', 1);
}
