import type { FigureChange, FigureModel, FiguresModel } from '../engine/models.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/** What the figure cache may hold, by the estimate below. */
const FIGURE_CACHE_BYTES = 16 * 1024 * 1024;
/** A generous size of one figure of the model in memory without its texts (index, page, box, the object around them). */
const FIGURE_BYTES = 160;

/** The figures of a tagged document and their alternate text (docs/accessibility.md, "Figures and their alternative text"). */
export class FigureOperations {
  /** Looked up by list() after its stat as the requesting user (ReadModelCache says why that suffices); weighed by its figures and texts. */
  private readonly lists = new ReadModelCache<FiguresModel>(FIGURE_CACHE_BYTES, (model) =>
    model.figures.reduce((sum, f) => sum + FIGURE_BYTES + 2 * ((f.alt?.length ?? 0) + (f.actualText?.length ?? 0)), 256));

  constructor(private readonly documents: DocumentOperations) {}

  /** Every Figure element in structure-tree order, and the version (ETag) the list comes from. */
  list(path: StoredPath, ctx: OperationContext): Promise<{ model: FiguresModel; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.lists,
      compute: (stored, engine) => engine.run('listFigures', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  /**
   * Sets or removes the alternate and actual texts of the figures `changes` name (all checked before any changes: an
   * index past the last figure is FIGURE_NOT_FOUND, 404 when `inPath`); an ordinary write under the document's lock
   * (If-Match, a new version). Answers the changed figures as written.
   */
  async change(path: StoredPath, ctx: OperationContext, changes: FigureChange[], inPath: boolean): Promise<{ figures: FigureModel[]; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'writeFigures', async (stored, engine) => {
      const { bytes, figures } = await engine.run('writeFigures', { pdf: stored.pdf, password: ctx.documentPassword, changes, inPath });
      return { ...(bytes ? { bytes } : {}), result: figures };
    });
    return { figures: result, etag: stat.etag };
  }
}
