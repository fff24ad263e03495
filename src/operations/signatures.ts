import type { NewWidget, SignatureFieldModel, SignatureFieldsModel, SignRequest } from '../engine/models.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/**
 * Signature fields and signing (docs/signing.md). Changes go through the
 * document's lock and If-Match like every in-place edit. The key store is
 * handed to the engine in memory and zeroed there after use; it is never
 * staged, written or logged.
 */
export class SignatureOperations {
  /** Looked up by list() after its stat as the requesting user (ReadModelCache says why that suffices). */
  private readonly lists = new ReadModelCache<SignatureFieldsModel>(100);

  constructor(private readonly documents: DocumentOperations) {}

  /** Every signature field, each signature verified; cached by version. */
  list(path: StoredPath, ctx: OperationContext): Promise<{ model: SignatureFieldsModel; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.lists,
      compute: (stored, engine) => engine.run('listSignatureFields', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  async get(path: StoredPath, ctx: OperationContext, name: string): Promise<{ field: SignatureFieldModel; etag: string }> {
    const { model, etag } = await this.list(path, ctx);
    const field = model.signatureFields.find((f) => f.name === name);
    if (field) return { field, etag };
    // Not in the list: let the engine answer (404 FIELD_NOT_FOUND with its message).
    return this.documents.read(path, ctx, async (stored, engine) => {
      const one = await engine.run('listSignatureFields', { pdf: stored.pdf, password: ctx.documentPassword, name }, { transfer: [stored.pdf] });
      return { field: one.signatureFields[0]!, etag: stored.etag };
    });
  }

  async create(path: StoredPath, ctx: OperationContext, name: string, widgets: NewWidget[]): Promise<{ field: SignatureFieldModel; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'createSignatureField', async (stored, engine) => {
      const { bytes, field } = await engine.run('createSignatureField', { pdf: stored.pdf, password: ctx.documentPassword, name, widgets });
      return { bytes, result: field };
    });
    return { field: result, etag: stat.etag };
  }

  /** Removes an unsigned field, or clears a signed one; answers whether a signature was cleared. */
  async remove(path: StoredPath, ctx: OperationContext, name: string): Promise<{ cleared: boolean; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'deleteSignatureField', async (stored, engine) => {
      const { bytes, cleared } = await engine.run('deleteSignatureField', { pdf: stored.pdf, password: ctx.documentPassword, name });
      return { bytes, result: cleared };
    });
    return { cleared: result, etag: stat.etag };
  }

  async sign(path: StoredPath, ctx: OperationContext, name: string, keyStore: Uint8Array, request: SignRequest): Promise<{ field: SignatureFieldModel; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'signField', async (stored, engine) => {
      const { bytes, field } = await engine.run(
        'signField',
        { pdf: stored.pdf, password: ctx.documentPassword, name, keyStore, request },
        { transfer: [keyStore] },
      );
      return { bytes, result: field };
    });
    return { field: result, etag: stat.etag };
  }
}
