import { Readable } from 'node:stream';
import type { DocumentInfo } from '../engine/pdf/inspect.js';
import type { EnginePool } from '../engine/pool.js';
import { ServiceError } from '../errors.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import { chooseImporter, UPLOAD_TYPES_TEXT } from './importers.js';
import type { StoredPath } from '../storage/paths.js';
import type { ConflictMode, DocumentStat, DocumentStore, OpenContent, OpenDocument, StagedUpload, WriteOptions, WriteResult } from '../storage/store.js';
import type { PdfSource } from '../engine/pdf-source.js';
import type { OperationContext } from './context.js';
import { ReadModelCache } from './read-model-cache.js';
import { matchesEtag } from '../storage/store.js';
import { documentModel, type DocumentModel } from './models.js';

/** One version of a stored document, held open while an operation works on it (DocumentOperations.read). */
export interface StoredDocument extends DocumentStat {
  /** What engine tasks get: the open file for a large document, its bytes otherwise (engineSource). */
  pdf: PdfSource;
  /** The whole content as bytes, read from the same version (to write it elsewhere unchanged). */
  bytes(): Promise<Uint8Array>;
}

/**
 * How the engine gets a document's bytes, for every task: the one place that
 * decides. Content with a local file reaches the engine as that open file,
 * whatever its size, and the worker reads it (openPdf copies a small one into
 * MuPDF's memory, which parses faster than a stream): this thread then never
 * holds a copy. Reading a 10 MB document here for each of ten concurrent page
 * listings made garbage collection pauses that held GET /health past 20 ms; a
 * 200 MB document was copied here and into every worker that touched it.
 */
async function engineSource(content: OpenContent): Promise<PdfSource> {
  if (content.fd !== undefined) return { fd: content.fd, size: content.size };
  return content.read();
}

/** A document read from the store and opened by the engine with the request's password. */
export interface OpenedDocument {
  path: StoredPath;
  stored: StoredDocument;
  info: DocumentInfo;
}

export interface StoreResult {
  model: DocumentModel;
  created: boolean;
}

/**
 * The document lifecycle: read (with ETag), open with the password, convert
 * uploads, write atomically under the document's lock. Routes and actions go
 * through here; nothing else reads or writes documents.
 */
export class DocumentOperations {
  private readonly infoCache = new ReadModelCache<DocumentInfo>(2000);

  constructor(
    private readonly store: DocumentStore,
    private readonly pool: EnginePool,
    private readonly tools: ToolSupervisor,
  ) {}

  private readonly writeListeners: ((written: WriteResult) => void)[] = [];

  /** Calls `listener` after every document write of the operations layer has landed (caches warm up on new versions). */
  onWritten(listener: (written: WriteResult) => void): void {
    this.writeListeners.push(listener);
  }

  /** Writes a document version: every operation writes through here, so that listeners hear of every write. */
  async write(path: StoredPath, content: Parameters<DocumentStore['writeDocument']>[1], options: WriteOptions): Promise<WriteResult> {
    const written = await this.store.writeDocument(path, content, options);
    for (const listener of this.writeListeners) listener(written);
    return written;
  }

  async stat(path: StoredPath): Promise<DocumentStat> {
    const stat = await this.store.statDocument(path);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${path.toString()}`);
    return stat;
  }

  /** For downloads: stat and bytes of one version of the document. */
  openForDownload(path: StoredPath): Promise<OpenDocument> {
    return this.store.openDocument(path);
  }

  /**
   * Reads one version of the document for `work`, which hands `stored.pdf` to
   * engine tasks. The version stays open until `work` ends, since the engine
   * may be reading it from the file.
   */
  async read<R>(path: StoredPath, work: (stored: StoredDocument) => Promise<R>): Promise<R> {
    const content = await this.store.openDocument(path);
    try {
      return await work({ ...content.stat, pdf: await engineSource(content), bytes: () => content.read() });
    } finally {
      // After a task timeout the worker is still being terminated while this closes: it may at most
      // read a reused descriptor before it stops, and its result is discarded; it never writes.
      await content.close();
    }
  }

  async inspect(stored: StoredDocument, password: string | undefined): Promise<DocumentInfo> {
    const cached = this.infoCache.get(stored.etag, password);
    if (cached) return cached;
    const info = await this.pool.run('inspect', { pdf: stored.pdf, password });
    this.infoCache.set(stored.etag, password, info);
    return info;
  }

  /** The DocumentModel; a document whose version (ETag) was inspected before is not read again. */
  async model(path: StoredPath, ctx: OperationContext): Promise<DocumentModel> {
    const stat = await this.stat(path);
    const cached = this.infoCache.get(stat.etag, ctx.documentPassword);
    if (cached) return documentModel(path, stat, cached);
    return this.read(path, async (stored) => documentModel(path, stored, await this.inspect(stored, ctx.documentPassword)));
  }

  /**
   * Stores an upload as a PDF at `target`: a PDF is checked to open, anything
   * else converted by its importer (importers.ts). Nothing is written when the
   * check or conversion fails.
   */
  async storeUpload(
    target: StoredPath,
    staged: StagedUpload,
    mediaType: string,
    conflict: ConflictMode,
    ifMatch?: string,
  ): Promise<StoreResult> {
    try {
      const chosen = await chooseImporter(mediaType, staged);
      if (chosen === undefined) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Cannot store ${mediaType}: send ${UPLOAD_TYPES_TEXT}`);
      if (chosen === null) {
        const summary = await this.validateStaged(staged);
        const written = await this.write(target, staged, { conflict, ifMatch });
        return { model: documentModel(written.path, written.stat, summary), created: written.created };
      }
      const { pdf, info } = await chosen.importer.convert(await staged.read(), chosen.mediaType, { pool: this.pool, tools: this.tools });
      const written = await this.write(target, pdf, { conflict, ifMatch });
      return { model: documentModel(written.path, written.stat, info), created: written.created };
    } finally {
      await staged.discard();
    }
  }

  /** The engine's check of a staged PDF upload, reading it as any stored document is read (engineSource). */
  private validateStaged(staged: StagedUpload) {
    return this.withStagedSource(staged, (pdf) => this.pool.run('validateUpload', { pdf }, { transfer: [pdf] }));
  }

  /** Lets `work` hand staged content to engine tasks as a stored document is handed (engineSource): its open file when large, else its bytes. */
  private async withStagedSource<R>(staged: StagedUpload, work: (source: PdfSource) => Promise<R>): Promise<R> {
    const content = await staged.open();
    try {
      return await work(await engineSource(content));
    } finally {
      await content.close();
    }
  }

  /**
   * A request body that an engine task parses (XFDF, FDF): streamed into the
   * staging area up to `limit` bytes (413 past it) and given to `work` as a
   * source the engine reads itself, so no thread but the engine's holds it.
   * An empty body is `empty`. Nothing is read from or written to any document
   * until the whole body has arrived.
   */
  async withStagedBody<R>(body: unknown, limit: number, empty: ServiceError, work: (source: PdfSource) => Promise<R>): Promise<R> {
    if (!(body instanceof Readable)) throw empty;
    const staged = await this.store.stage(body, limit);
    try {
      if (staged.size === 0) throw empty;
      return await this.withStagedSource(staged, work);
    } finally {
      await staged.discard();
    }
  }

  /**
   * Changes a document in place: under its lock, read it, check If-Match, let
   * `change` compute the new bytes (or none), write them atomically. Every
   * in-place edit goes through here.
   */
  async update<R>(path: StoredPath, ctx: OperationContext, change: (stored: StoredDocument) => Promise<{ bytes?: Uint8Array; result: R }>): Promise<{ result: R; stat: DocumentStat }> {
    const release = await this.store.lock(path);
    try {
      return await this.read(path, async (stored) => {
        if (ctx.ifMatch !== undefined && !matchesEtag(ctx.ifMatch, stored.etag)) throw new ServiceError('PRECONDITION_FAILED');
        const { bytes, result } = await change(stored);
        const stat: DocumentStat = { size: stored.size, modified: stored.modified, etag: stored.etag };
        if (!bytes) return { result, stat };
        const written = await this.write(path, bytes, { conflict: 'overwrite' });
        return { result, stat: written.stat };
      });
    } finally {
      release();
    }
  }

  /** PUT of a document body: replaces or creates (201 / 200). */
  async put(target: StoredPath, body: Readable, mediaType: string, limit: number, ctx: OperationContext): Promise<StoreResult> {
    const staged = await this.store.stage(body, limit);
    if (staged.size === 0) {
      await staged.discard();
      throw new ServiceError('MALFORMED_PDF', 'The body is empty');
    }
    const release = await this.store.lock(target);
    try {
      return await this.storeUpload(target, staged, mediaType, 'overwrite', ctx.ifMatch);
    } finally {
      release();
    }
  }

  async remove(path: StoredPath, ctx: OperationContext): Promise<void> {
    const release = await this.store.lock(path);
    try {
      await this.store.deleteDocument(path, ctx.ifMatch);
    } finally {
      release();
    }
  }

  /** Page count and encryption for folder listings; never fails for one bad file. */
  async summary(path: StoredPath): Promise<{ pageCount?: number; encrypted?: boolean }> {
    try {
      const stat = await this.stat(path);
      const cached = this.infoCache.get(stat.etag, undefined);
      if (cached) return { pageCount: cached.pageCount, encrypted: cached.encrypted };
      const s = await this.read(path, (stored) => this.pool.run('validateUpload', { pdf: stored.pdf }, { transfer: [stored.pdf] }));
      return { ...(s.pageCount !== undefined ? { pageCount: s.pageCount } : {}), encrypted: s.encrypted };
    } catch {
      return {};
    }
  }
}
