import { detachedTask, type EnginePool } from '../engine/pool.js';
import { parsePageRange, type ExportFormat, type ImageFormat, type PageModel, type PageTextModel, type TextDetail } from '../engine/models.js';
import { EngineError } from '../engine/errors.js';
import { ServiceError, type ErrorCode } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations, StoredDocument } from './documents.js';
import type { Engine, ExecutionContext } from './execution.js';
import { checkPage } from './page-range.js';
import { ReadModelCache } from './read-model-cache.js';

/** Extracted text kept per document version: whole documents, and single pages (with their words, lines or blocks). */
const DOCUMENT_TEXT_BYTES = 64 * 1024 * 1024;
const PAGE_TEXT_BYTES = 16 * 1024 * 1024;

/** Documents read as bytes above this size are extracted by one worker, not split: every share would hold a copy (SplitDocumentAction's shares too). */
export const SPLIT_MAX_BYTES = 16 * 1024 * 1024;

/** Exports kept per version, password and options (their bytes): a second request for the same export reads nothing. */
const EXPORT_BYTES = 64 * 1024 * 1024;

/**
 * Exports of more pages than this run as a job unless the client waits (Prefer: wait=N; docs/export.md). Measured on
 * 1 Dec (200 pages of a heading, a paragraph and a 26-row table; 2 cores at load 15 to 18): 40 to 60 ms a page read
 * and written as Markdown, 45 to 55 ms read plus 8 to 19 ms a page to write the workbook as XLSX. So 100 pages take
 * 4 to 8 s: past that a client is better served by a job than by a connection held open.
 */
export const EXPORT_ASYNC_PAGES = 100;

/** What an export is asked for (docs/export.md): the format, the pages (1-based range) and, for XLSX and CSV, one table (1-based). */
export interface ExportOptions {
  format: ExportFormat;
  pageRange?: string | undefined;
  table?: number | undefined;
}

/** Memory a JS string takes, roughly: two bytes a UTF-16 unit. */
const stringBytes = (s: string) => 2 * s.length;
const UNIT_OVERHEAD = 96; // an object with a rectangle of four numbers

function pageTextBytes(page: PageTextModel): number {
  let bytes = stringBytes(page.text);
  for (const unit of page.words ?? page.lines ?? page.blocks ?? []) bytes += stringBytes(unit.text) + UNIT_OVERHEAD;
  return bytes;
}

/** The pages resource: page models, page text and page images (docs/pages.md). */
export class PageOperations {
  // Each of these is looked up after a stat as the requesting user (list, documentText, pageText; ReadModelCache says why).
  private readonly lists = new ReadModelCache<{ pages: PageModel[]; total: number }>(200);
  private readonly documentTexts = new ReadModelCache<string[]>(DOCUMENT_TEXT_BYTES, (texts) => texts.reduce((n, t) => n + stringBytes(t), 0));
  private readonly pageTexts = new ReadModelCache<PageTextModel>(PAGE_TEXT_BYTES, pageTextBytes);
  private readonly exports = new ReadModelCache<{ content: Buffer; warnings: string[] }>(EXPORT_BYTES, (answer) => answer.content.length);
  /** Whole-document extractions under way, by version: a request for the same text waits for it (after its own stat) instead of starting another. */
  private readonly extracting = new Map<string, Promise<string[]>>();

  constructor(
    /** The pool's load and size only (prefetch waits for an idle one; extraction is split among its workers): tasks run through an Engine. */
    private readonly pool: Pick<EnginePool, 'stats' | 'size'>,
    private readonly documents: DocumentOperations,
    private readonly prefetchMaxBytes = 0,
  ) {}

  /**
   * Called after every write: when the engine has nothing else to do, the new
   * version's text is extracted into the cache, so that reading it later costs
   * no extraction (text is what clients most often read after an upload). It
   * never queues behind or ahead of a client's task and runs on one worker
   * only, so that a client's next request (often right after its upload) finds
   * the other free rather than waiting for the extraction. It skips documents
   * over the configured size, and gives up silently on documents that need a
   * password.
   */
  prefetchText(path: StoredPath, etag: string, size: number, ctx: OperationContext): void {
    if (this.prefetchMaxBytes === 0 || size > this.prefetchMaxBytes) return;
    const { busy, queued } = this.pool.stats;
    if (queued > 0 || busy >= this.pool.size) return;
    if (this.documentTexts.get(etag, undefined) || this.extracting.has(etag)) return;
    // The service's own work, counted against no user's task limit (the upload's client may need a worker next)
    // and not stopped if the upload's client goes away.
    // Read as the writer (ctx): a store with its own users reads the new version as the user who wrote it.
    detachedTask(() => void this.extractVersion(path, ctx, etag, undefined, 1).catch(() => undefined));
  }

  /** The text of one version, extracted once however many ask for it at the same time. */
  private extractVersion(path: StoredPath, ctx: OperationContext, etag: string, password: string | undefined, parts: number): Promise<string[]> {
    const key = `${etag}|${password ?? ''}`;
    const running = this.extracting.get(key);
    if (running) return running;
    const work = this.documents.read(path, ctx, async (stored, engine) => {
      // The document may have changed meanwhile: the text is kept under the version that was read.
      const texts = await this.extractAll(stored, password, parts, engine);
      this.documentTexts.set(stored.etag, password, texts);
      if (stored.etag !== etag) throw new Error('the document changed while its text was extracted');
      return texts;
    }).finally(() => this.extracting.delete(key));
    this.extracting.set(key, work);
    return work;
  }

  /** The PageModels of one slice of the pages (docs/pages.md, paging), the page count, and the document version they describe. */
  async list(path: StoredPath, ctx: OperationContext, slice: { offset: number; limit: number }): Promise<{ pages: PageModel[]; total: number; etag: string }> {
    const { model, etag } = await this.documents.reads.get(path, ctx, {
      cache: this.lists,
      variant: `${slice.offset}|${slice.limit}`,
      compute: (stored, engine) => engine.run('listPages', { pdf: stored.pdf, password: ctx.documentPassword, ...slice }, { transfer: [stored.pdf] }),
    });
    return { ...model, etag };
  }

  /** The text of every page, from the cache when this version's text was extracted before. */
  async documentText(path: StoredPath, ctx: OperationContext): Promise<{ texts: string[]; etag: string }> {
    const { model, etag } = await this.documents.reads.get(path, ctx, {
      cache: this.documentTexts,
      // A prefetch of this version under way is waited for; a password-protected read checks its password itself.
      elsewhere: (etag) => (ctx.documentPassword === undefined ? this.extracting.get(`${etag}|`)?.catch(() => undefined) : undefined),
      compute: (stored, engine) => this.extractAll(stored, ctx.documentPassword, Math.max(1, this.pool.size), engine),
    });
    return { texts: model, etag };
  }

  /**
   * One page's text, with its words, lines or blocks when asked. Plain text
   * comes from the whole document's extraction when that was done for this
   * version (the page count then also answers an index past the end).
   */
  async pageText(path: StoredPath, ctx: OperationContext, pageIndex: number, detail: TextDetail | undefined): Promise<{ page: PageTextModel; etag: string }> {
    const { model, etag } = await this.documents.reads.get(path, ctx, {
      cache: this.pageTexts,
      variant: `${pageIndex}|${detail ?? ''}`,
      elsewhere: (etag) => {
        const all = detail ? undefined : this.documentTexts.get(etag, ctx.documentPassword);
        if (!all) return undefined;
        checkPage(pageIndex, all.length, { inPath: true });
        return { pageIndex, text: all[pageIndex]! };
      },
      compute: async (stored, engine) => (await engine.run('pageText', { pdf: stored.pdf, password: ctx.documentPassword, pageIndex, detail }, { transfer: [stored.pdf] })).page,
    });
    return { page: model, etag };
  }

  /** The version (ETag) of a document the request may view: for answering 304 without rendering. */
  async viewableVersion(path: StoredPath, ctx: OperationContext): Promise<string> {
    return (await this.viewable(path, ctx)).etag;
  }

  /** The DocumentModel of the version a read of `path` sees (ctx.versionId's, or the current one): what a file job's result names as its source. */
  viewable(path: StoredPath, ctx: OperationContext) {
    return this.documents.reads.model(path, ctx);
  }

  /** The page rendered as PNG or JPEG, and the document version it shows. */
  async image(path: StoredPath, ctx: OperationContext, pageIndex: number, dpi: number, format: ImageFormat): Promise<{ image: Uint8Array; etag: string }> {
    return this.documents.read(path, ctx, async (stored, engine) => {
      const { image } = await engine.run('renderPage', { pdf: stored.pdf, password: ctx.documentPassword, pageIndex, dpi, format }, { transfer: [stored.pdf] });
      return { image, etag: stored.etag };
    });
  }

  /**
   * The document (or the pages of `pageRange`) exported (docs/export.md), and the version exported: from the cache
   * when this version was exported so before with the same options and password, with its warnings (DOCX answers
   * them in headers). `exec`: a job's (it runs alone).
   */
  async export(path: StoredPath, ctx: OperationContext, options: ExportOptions, exec?: ExecutionContext): Promise<{ content: Buffer; warnings: string[]; etag: string }> {
    const { format, pageRange, table } = options;
    const title = (path.segments[path.segments.length - 1] ?? '').replace(/\.pdf$/iu, '');
    const { model, etag } = await this.documents.reads.get(path, ctx, {
      cache: this.exports,
      variant: `${format}|${pageRange ?? ''}|${table ?? ''}`,
      metric: 'export',
      shared: exec === undefined,
      exec,
      compute: async (stored, engine) => {
        const { content, warnings } = await engine.run('exportDocument', { pdf: stored.pdf, password: ctx.documentPassword, format, pageRange, table, title }, { transfer: [stored.pdf] });
        return { content: typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength), warnings };
      },
    });
    return { content: model.content, warnings: model.warnings, etag };
  }

  /**
   * What an export will read, for deciding whether it is a job: the number of pages exported (a malformed or too long
   * `pageRange` is its 400 here, before any job) and the document's size.
   */
  async exportSize(path: StoredPath, ctx: OperationContext, pageRange: string | undefined): Promise<{ pages: number; bytes: number }> {
    const model = await this.documents.reads.model(path, ctx);
    // Not opened (encrypted, no password given): the export itself answers its 401/403, not a range error here.
    if (model.pageCount === undefined) return { pages: 0, bytes: model.size };
    try {
      return { pages: parsePageRange(pageRange, model.pageCount ?? 0).length, bytes: model.size };
    } catch (err) {
      if (err instanceof EngineError) throw new ServiceError(err.code as ErrorCode, err.message);
      throw err;
    }
  }

  /**
   * Extraction shared among the workers: each opens the document and takes
   * its share of the pages (it learns the page count on opening, so no
   * separate call asks for it). Shares of an open file read the same file;
   * shares of bytes each get their own copy, since a share may wait in the
   * queue while another has moved its buffer.
   */
  private async extractAll(stored: StoredDocument, password: string | undefined, wanted: number, engine: Engine): Promise<string[]> {
    const { pdf } = stored;
    // Copies of a large document's bytes cost more memory than the second core saves time.
    const parts = pdf instanceof Uint8Array && pdf.length > SPLIT_MAX_BYTES ? 1 : wanted;
    // The shares are one request's work: one group, counted once against the user's task limit (pool.ts, mayStart).
    const group = {};
    const shares = await Promise.all(
      Array.from({ length: parts }, (_, part) => {
        // A copy of bytes (a Buffer's slice() would share memory); an open file is shared as it is.
        const share = part === parts - 1 || !(pdf instanceof Uint8Array) ? pdf : new Uint8Array(pdf);
        return engine.run('documentText', { pdf: share, password, part, parts }, { transfer: [share], group });
      }),
    );
    return shares.flatMap((share) => share.texts);
  }
}
