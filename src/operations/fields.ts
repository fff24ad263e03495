import type { FieldDataFormat, FieldModel, FieldsImport, FieldsModel } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/** The fields resource and form field data: the field list (cached by ETag), one value, reset; XFDF/FDF export and import (in place, under the document's lock). */
export class FieldOperations {
  /** Looked up by list() after its stat as the requesting user (ReadModelCache says why that suffices). */
  private readonly lists = new ReadModelCache<FieldsModel>(200);

  constructor(private readonly documents: DocumentOperations) {}

  /** Every terminal field, and the version (ETag) the list comes from. */
  async list(path: StoredPath, ctx: OperationContext): Promise<{ model: FieldsModel; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.lists,
      compute: (stored, engine) => engine.run('listFields', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  /** Sets one field's value; answers the field afterwards. Nothing is written when the value is unchanged. */
  async setValue(path: StoredPath, ctx: OperationContext, name: string, value: string | string[]): Promise<{ field: FieldModel; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'setFieldValue', async (stored, engine) => {
      const { bytes, field } = await engine.run('setFieldValue', { pdf: stored.pdf, password: ctx.documentPassword, name, value });
      return { ...(bytes ? { bytes } : {}), result: field };
    });
    return { field: result, etag: stat.etag };
  }

  /** Resets every field to its default value; answers the fields afterwards and what could not be reset as asked. */
  async reset(path: StoredPath, ctx: OperationContext): Promise<{ model: FieldsModel; warnings: string[]; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'resetFields', async (stored, engine) => {
      const { bytes, fields, warnings } = await engine.run('resetFields', { pdf: stored.pdf, password: ctx.documentPassword });
      return { ...(bytes ? { bytes } : {}), result: { model: fields, warnings } };
    });
    return { ...result, etag: stat.etag };
  }

  /** The field values of the document as an XFDF or FDF file, what XFDF could not carry as it is, and the version (ETag) they come from. */
  async export(path: StoredPath, ctx: OperationContext, options: { format: FieldDataFormat; exportEmptyFields: boolean }): Promise<{ content: Uint8Array; warnings: string[]; etag: string }> {
    return this.documents.read(path, ctx, async (stored, engine) => {
      const { content, warnings } = await engine.run(
        'exportFields',
        { pdf: stored.pdf, password: ctx.documentPassword, format: options.format, exportEmptyFields: options.exportEmptyFields, fileName: path.name },
        { transfer: [stored.pdf] },
      );
      return { content, warnings, etag: stored.etag };
    });
  }

  /**
   * Sets the values of an XFDF or FDF request body, staged first (DocumentOperations.withStagedBody,
   * at most `limit` bytes). The body is parsed before the document is read: a malformed or hostile
   * body is refused without touching it. Nothing is written when no field was set or a value was refused.
   */
  async import(path: StoredPath, ctx: OperationContext, body: unknown, format: FieldDataFormat, limit: number): Promise<{ result: FieldsImport; etag: string }> {
    const empty = new ServiceError(format === 'xfdf' ? 'MALFORMED_XFDF' : 'MALFORMED_FDF', 'The body is empty');
    const parsed = await this.documents.withStagedBody(body, limit, ctx, empty, (source, engine) => engine.run('parseFieldData', { body: source, format }));
    const { result, stat } = await this.documents.update(path, ctx, 'importFields', async (stored, engine) => {
      const { bytes, ...outcome } = await engine.run('importFields', { pdf: stored.pdf, password: ctx.documentPassword, values: parsed.values });
      return { ...(bytes ? { bytes } : {}), result: { ...outcome, warnings: [...parsed.warnings, ...outcome.warnings] } };
    });
    return { result, etag: stat.etag };
  }
}
