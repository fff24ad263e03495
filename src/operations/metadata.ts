import { normalizeChange, type MetadataChange, type MetadataModel } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/** The metadata resource (docs/metadata.md): the Info dictionary, /Lang and XMP read (cached by ETag) and written together under the document's lock. */
export class MetadataOperations {
  /** Looked up by get() after its stat as the requesting user (ReadModelCache says why that suffices). */
  private readonly models = new ReadModelCache<MetadataModel>(200);

  constructor(private readonly documents: DocumentOperations) {}

  get(path: StoredPath, ctx: OperationContext): Promise<{ model: MetadataModel; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.models,
      compute: (stored, engine) => engine.run('readMetadata', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  /** The XMP packet's bytes; 404 XMP_NOT_FOUND when the document has none. */
  async getXmp(path: StoredPath, ctx: OperationContext): Promise<{ xmp: Uint8Array; etag: string }> {
    return this.documents.read(path, ctx, async (stored, engine) => {
      const { xmp } = await engine.run('readXmp', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] });
      if (!xmp) throw new ServiceError('XMP_NOT_FOUND', 'The document has no XMP metadata (no /Metadata stream in its catalog)');
      return { xmp, etag: stored.etag };
    });
  }

  /**
   * PATCH (merge) or PUT (`replace`) of the metadata. Dates are checked before the document is read; answers the
   * metadata as read back from the written document.
   */
  async write(path: StoredPath, ctx: OperationContext, change: MetadataChange, replace: boolean): Promise<{ model: MetadataModel; etag: string }> {
    const normalized = normalizeChange(change);
    if ('invalidDate' in normalized) throw new ServiceError('VALIDATION_FAILED', `body/${String(normalized.invalidDate)} is no real date and time (ISO 8601 with a zone, e.g. 2026-11-30T15:00:00Z)`);
    const { result, stat } = await this.documents.update(path, ctx, 'writeMetadata', async (stored, engine) => {
      const { bytes, model } = await engine.run('writeMetadata', { pdf: stored.pdf, password: ctx.documentPassword, change: normalized as MetadataChange, replace });
      return { bytes, result: model };
    });
    return { model: result, etag: stat.etag };
  }

  /** PUT of a raw XMP packet (at most `limit` bytes): parsed by the engine before the document is opened (400 MALFORMED_XMP), stored, and the Info dictionary updated from it. */
  async writeXmp(path: StoredPath, ctx: OperationContext, xmp: Uint8Array): Promise<{ model: MetadataModel; etag: string }> {
    if (xmp.byteLength === 0) throw new ServiceError('MALFORMED_XMP', 'The XMP packet is empty');
    const { result, stat } = await this.documents.update(path, ctx, 'writeXmp', async (stored, engine) => {
      const { bytes, model } = await engine.run('writeXmp', { pdf: stored.pdf, password: ctx.documentPassword, xmp });
      return { bytes, result: model };
    });
    return { model: result, etag: stat.etag };
  }
}
