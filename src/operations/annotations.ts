import type { AnnotationList, AnnotationModel, AnnotationSubtype, AttachmentModel, DeleteSelection, NewFileAttachment, RedactionMatch, RedactionRequest } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { checkPage } from './page-range.js';
import { ReadModelCache } from './read-model-cache.js';

export interface AnnotationFilter {
  pageIndex?: number | undefined;
  subtype?: AnnotationSubtype | undefined;
}

/** The annotations resource: listing (cached by ETag), reading one, deleting. */
export class AnnotationOperations {
  /** Looked up by current() after its stat as the requesting user (ReadModelCache says why that suffices). */
  private readonly lists = new ReadModelCache<AnnotationList>(200);

  constructor(private readonly documents: DocumentOperations) {}

  /** The document's annotations and the version they belong to, from the cache when that version was listed before (no read). */
  private async current(path: StoredPath, ctx: OperationContext): Promise<AnnotationList & { etag: string }> {
    const { model, etag } = await this.documents.reads.get(path, ctx, {
      cache: this.lists,
      // The bytes are not needed here afterwards: move them to the worker instead of copying.
      compute: (stored, engine) => engine.run('listAnnotations', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
    return { ...model, etag };
  }

  /** The annotations that pass the filter, and the document version (ETag) they come from. */
  async list(path: StoredPath, ctx: OperationContext, filter: AnnotationFilter): Promise<{ annotations: AnnotationModel[]; etag: string }> {
    const { annotations, pageCount, etag } = await this.current(path, ctx);
    checkPage(filter.pageIndex, pageCount);
    const all = filter.pageIndex === undefined && filter.subtype === undefined;
    return {
      annotations: all ? annotations : annotations.filter((a) => (filter.pageIndex === undefined || a.pageIndex === filter.pageIndex) && (filter.subtype === undefined || a.subtype === filter.subtype)),
      etag,
    };
  }

  async get(path: StoredPath, ctx: OperationContext, name: string): Promise<AnnotationModel> {
    const found = (await this.current(path, ctx)).annotations.find((a) => a.name === name);
    if (!found) throw new ServiceError('ANNOTATION_NOT_FOUND', `No annotation named ${JSON.stringify(name)} in /${path.toString()}`);
    return found;
  }

  /** Deletes the document's annotations (form widgets excepted), or one page's; answers those that remain. */
  async deleteMany(path: StoredPath, ctx: OperationContext, pageIndex: number | undefined): Promise<AnnotationModel[]> {
    return this.edit(path, ctx, { pageIndex });
  }

  /** Deletes one annotation with its popup and its replies. */
  async deleteOne(path: StoredPath, ctx: OperationContext, name: string): Promise<void> {
    await this.edit(path, ctx, { names: [name] });
  }

  /** Adds a FileAttachment annotation with its embedded file (A4). */
  async addFileAttachment(path: StoredPath, ctx: OperationContext, input: Omit<NewFileAttachment, 'pdf' | 'password'>): Promise<AnnotationModel> {
    const { result } = await this.documents.update(path, ctx, 'addFileAttachment', async (stored, engine) => {
      const added = await engine.run('addFileAttachment', { ...input, pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [input.file] });
      return { bytes: added.bytes, result: added.annotation };
    });
    return result;
  }

  /** The attachment of a FileAttachment annotation (A10), with its bytes when asked (A11). */
  async attachment(path: StoredPath, ctx: OperationContext, name: string, withContent: boolean): Promise<{ attachment: AttachmentModel; content?: Uint8Array }> {
    return this.documents.read(path, ctx, async (stored, engine) => {
      return engine.run('readAttachment', { pdf: stored.pdf, password: ctx.documentPassword, name, withContent }, { transfer: [stored.pdf] });
    });
  }

  /** All annotations as XFDF or FDF (A6), and what XFDF could not carry as it is. */
  async exportContent(path: StoredPath, ctx: OperationContext, format: 'xfdf' | 'fdf'): Promise<{ content: Uint8Array; warnings: string[] }> {
    return this.documents.read(path, ctx, async (stored, engine) => {
      const input = { pdf: stored.pdf, password: ctx.documentPassword, fileName: path.name };
      if (format === 'fdf') return { content: (await engine.run('exportAnnotationsFdf', input, { transfer: [stored.pdf] })).fdf, warnings: [] };
      const { xfdf, warnings } = await engine.run('exportAnnotationsXfdf', input, { transfer: [stored.pdf] });
      return { content: Buffer.from(xfdf, 'utf8'), warnings };
    });
  }

  /**
   * Imports an XFDF or FDF request body (A5, A3), staged first (DocumentOperations.withStagedBody, at most
   * `limit` bytes): new names added, existing names updated; answers all annotations and what happened.
   */
  async importContent(path: StoredPath, ctx: OperationContext, format: 'xfdf' | 'fdf', body: unknown, limit: number): Promise<{ annotations: AnnotationModel[]; created: string[]; updated: string[]; warnings: string[] }> {
    const empty = new ServiceError(format === 'xfdf' ? 'MALFORMED_XFDF' : 'MALFORMED_FDF', 'The body is empty');
    const { result, stat } = await this.documents.withStagedBody(body, limit, ctx, empty, (source) => this.documents.update(path, ctx, format === 'fdf' ? 'importAnnotationsFdf' : 'importAnnotationsXfdf', async (stored, engine) => {
      const imported = format === 'fdf'
        ? await engine.run('importAnnotationsFdf', { pdf: stored.pdf, password: ctx.documentPassword, fdf: source })
        : await engine.run('importAnnotationsXfdf', { pdf: stored.pdf, password: ctx.documentPassword, xfdf: source });
      const changed = imported.created.length + imported.updated.length > 0;
      return changed ? { bytes: imported.bytes, result: imported } : { result: imported };
    }));
    this.lists.set(stat.etag, ctx.documentPassword, { annotations: result.annotations, pageCount: result.pageCount });
    return { annotations: result.annotations, created: result.created, updated: result.updated, warnings: result.warnings };
  }

  /** Creates a Redact annotation for every match of the search (A7); the document is written only when something matched. */
  async createRedactions(path: StoredPath, ctx: OperationContext, request: RedactionRequest): Promise<RedactionMatch[]> {
    const { result } = await this.documents.update(path, ctx, 'createRedactions', async (stored, engine) => {
      const created = await engine.run('createRedactions', { pdf: stored.pdf, password: ctx.documentPassword, request });
      return created.bytes ? { bytes: created.bytes, result: created.redactions } : { result: created.redactions };
    });
    return result;
  }

  private async edit(path: StoredPath, ctx: OperationContext, selection: DeleteSelection): Promise<AnnotationModel[]> {
    const { result, stat } = await this.documents.update(path, ctx, 'deleteAnnotations', async (stored, engine) => {
      const edited = await engine.run('deleteAnnotations', { pdf: stored.pdf, password: ctx.documentPassword, selection });
      const list: AnnotationList = { annotations: edited.annotations, pageCount: edited.pageCount };
      return edited.deleted.length ? { bytes: edited.bytes, result: list } : { result: list };
    });
    // The engine listed what remains: the next read of this version needs no parsing.
    this.lists.set(stat.etag, ctx.documentPassword, result);
    return result.annotations;
  }
}
