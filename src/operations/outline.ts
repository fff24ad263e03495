import { MAX_OUTLINE_DEPTH, MAX_OUTLINE_ITEMS, type OutlineItemInput, type OutlineModel } from '../engine/models.js';
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

  /** Replaces the whole outline (`items` as the route's schema and checkOutlineSize passed them); answers it as read back from the written document. */
  async replace(path: StoredPath, ctx: OperationContext, items: OutlineItemInput[]): Promise<{ model: OutlineModel; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'writeOutline', async (stored, engine) => {
      const { bytes, outline } = await engine.run('writeOutline', { pdf: stored.pdf, password: ctx.documentPassword, items });
      return { ...(bytes ? { bytes } : {}), result: outline };
    });
    return { model: result, etag: stat.etag };
  }
}

/**
 * What the route's schema cannot check of a PUT .../outline body (OutlineItemRequest, http/schemas/outline.ts), checked
 * before it: at most MAX_OUTLINE_ITEMS items in all and MAX_OUTLINE_DEPTH levels (400 OUTLINE_TOO_LARGE), walked
 * without recursion, so a body nested a million deep is refused here rather than met by the schema's recursive check.
 * An XML body's empty list (`<items/>`, `<children/>`) arrives as an empty text: made the empty list it means (`text`).
 * Anything else malformed is left to the schema (400 VALIDATION_FAILED naming the field).
 */
export function checkOutlineSize(body: unknown, text: boolean): void {
  const record = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
  const root = record(body);
  if (!root) return;
  let count = 0;
  const stack: { holder: Record<string, unknown>; key: string; depth: number; at: string }[] = [{ holder: root, key: 'items', depth: 1, at: 'items' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { holder, key, depth, at } = next;
    if (text && holder[key] === '') holder[key] = [];
    const list = holder[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    if (depth > MAX_OUTLINE_DEPTH) throw new ServiceError('OUTLINE_TOO_LARGE', `${at}: items are nested deeper than ${MAX_OUTLINE_DEPTH} levels`);
    count += list.length;
    if (count > MAX_OUTLINE_ITEMS) throw new ServiceError('OUTLINE_TOO_LARGE', `The outline has more than ${MAX_OUTLINE_ITEMS} items`);
    list.forEach((entry, i) => {
      const item = record(entry);
      if (item && 'children' in item) stack.push({ holder: item, key: 'children', depth: depth + 1, at: `${at}[${i}].children` });
    });
  }
}

/** The items to write of a body the schema passed: what is read only (namedDestination, action) left out. */
export function outlineInput(items: readonly OutlineItemInput[]): OutlineItemInput[] {
  return items.map((item) => {
    const out: OutlineItemInput = { title: item.title };
    for (const key of ['open', 'bold', 'italic', 'color', 'destination', 'uri'] as const) if (item[key] !== undefined) Object.assign(out, { [key]: item[key] });
    if (item.children?.length) out.children = outlineInput(item.children);
    return out;
  });
}
