import type { DocumentAttachment, DocumentAttachmentList, NewDocumentAttachment } from '../engine/models.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/** What the list cache may hold, by the estimate below. */
const LIST_CACHE_BYTES = 16 * 1024 * 1024;
/** A generous size of one listed attachment in memory (names, description, dates). */
const ENTRY_BYTES = 512;

/**
 * Document attachments (docs/attachments.md): the embedded files of the catalog's EmbeddedFiles name tree, not
 * FileAttachment annotations (annotations.ts). Listed (cached by ETag), read, added and deleted under the document's
 * lock through the one write path (If-Match, versions, the signed-document rule in the engine).
 */
export class AttachmentOperations {
  private readonly lists = new ReadModelCache<DocumentAttachmentList>(LIST_CACHE_BYTES, (list) => 1024 + list.attachments.length * ENTRY_BYTES);

  constructor(private readonly documents: DocumentOperations) {}

  list(path: StoredPath, ctx: OperationContext): Promise<{ model: DocumentAttachmentList; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.lists,
      compute: (stored, engine) => engine.run('listDocumentAttachments', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  /** One attachment and its bytes (404 ATTACHMENT_NOT_FOUND). */
  read(path: StoredPath, ctx: OperationContext, name: string): Promise<{ attachment: DocumentAttachment; content: Uint8Array }> {
    return this.documents.read(path, ctx, (stored, engine) =>
      engine.run('readDocumentAttachment', { pdf: stored.pdf, password: ctx.documentPassword, name }, { transfer: [stored.pdf] }));
  }

  /** Adds (or, with `replace`, replaces) an attachment; answers it as read back, whether it replaced one, and the new ETag. */
  async add(path: StoredPath, ctx: OperationContext, input: NewDocumentAttachment): Promise<{ attachment: DocumentAttachment; replaced: boolean; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'addDocumentAttachment', async (stored, engine) => {
      const added = await engine.run('addDocumentAttachment', { ...input, pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [input.file] });
      return { bytes: added.bytes, result: { attachment: added.attachment, replaced: added.replaced } };
    });
    return { ...result, etag: stat.etag };
  }

  async remove(path: StoredPath, ctx: OperationContext, name: string): Promise<{ etag: string }> {
    const { stat } = await this.documents.update(path, ctx, 'deleteDocumentAttachment', async (stored, engine) => {
      const { bytes } = await engine.run('deleteDocumentAttachment', { pdf: stored.pdf, password: ctx.documentPassword, name });
      return { bytes, result: undefined };
    });
    return { etag: stat.etag };
  }
}
