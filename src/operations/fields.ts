import type { FieldDataFormat } from '../engine/field-data.js';
import type { FieldsImport } from '../engine/pdf/form-data.js';
import type { EnginePool } from '../engine/pool.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStore } from '../storage/store.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';

/** Form field data: export as XFDF/FDF, import from them (in place, under the document's lock). */
export class FieldOperations {
  constructor(
    private readonly store: DocumentStore,
    private readonly pool: EnginePool,
    private readonly documents: DocumentOperations,
  ) {}

  /** The field values of the document as an XFDF or FDF file, and the version (ETag) they come from. */
  async export(path: StoredPath, ctx: OperationContext, options: { format: FieldDataFormat; exportEmptyFields: boolean }): Promise<{ content: Uint8Array; etag: string }> {
    const stored = await this.store.readDocument(path);
    const { content } = await this.pool.run(
      'exportFields',
      { bytes: stored.bytes, password: ctx.documentPassword, format: options.format, exportEmptyFields: options.exportEmptyFields, fileName: path.name },
      { transfer: [stored.bytes] },
    );
    return { content, etag: stored.etag };
  }

  /**
   * Sets the values of an XFDF or FDF body. The body is read first, before the
   * document is: a malformed or hostile body is refused without touching it.
   * Nothing is written when no field was set or a value was refused.
   */
  async import(path: StoredPath, ctx: OperationContext, body: Uint8Array, format: FieldDataFormat): Promise<{ result: FieldsImport; etag: string }> {
    const parsed = await this.pool.run('parseFieldData', { body, format });
    const { result, stat } = await this.documents.update(path, ctx, async (stored) => {
      const { bytes, ...outcome } = await this.pool.run('importFields', { bytes: stored.bytes, password: ctx.documentPassword, values: parsed.values });
      return { ...(bytes ? { bytes } : {}), result: { ...outcome, warnings: [...parsed.warnings, ...outcome.warnings] } };
    });
    return { result, etag: stat.etag };
  }
}
