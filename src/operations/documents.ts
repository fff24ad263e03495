import { Readable } from 'node:stream';
import type { PdfSource } from '../engine/models.js';
import type { EnginePool } from '../engine/pool.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { ConflictMode, DocumentStat, DocumentStore, DocumentStores, DocumentTrash, DocumentVersions, OpenContent, OpenDocument, StagedUpload, WriteOptions, WriteResult } from '../storage/store.js';
import { storeUserOf, type OperationContext } from './context.js';
import { ReadModels } from './read-models.js';
import { etagOfContent, matchesEtag } from '../storage/store.js';
import { engineFor, requestExecution, throwIfStopped, type Engine, type ExecutionContext } from './execution.js';

/**
 * A document's content as an action's execute reads it (ExecuteInput.source): a stored version, or a one-shot step's
 * input, which has no stat worth computing (hashing every step's output for an ETag nothing reads).
 */
export interface DocumentContent {
  /** What engine tasks get: the open file for a large document, its bytes otherwise (engineSource). */
  pdf: PdfSource;
  /** The whole content as bytes, read from the same version (to write it elsewhere unchanged). */
  bytes(): Promise<Uint8Array>;
}

/** One version of a stored document, held open while an operation works on it (DocumentOperations.read). */
export interface StoredDocument extends DocumentStat, DocumentContent {}

/**
 * How the engine gets a document's bytes, for every task: the one place that
 * decides. Content with a local file reaches the engine as that open file,
 * whatever its size, and the worker reads it (openPdf copies a small one into
 * MuPDF's memory, which parses faster than a stream): this thread then never
 * holds a copy. Reading a 10 MB document here for each of ten concurrent page
 * listings made garbage collection pauses that held GET /health past 20 ms; a
 * 200 MB document was copied here and into every worker that touched it.
 */
export async function engineSource(content: OpenContent): Promise<PdfSource> {
  if (content.fd !== undefined) return { fd: content.fd, size: content.size };
  return content.read();
}

/** What DocumentOperations.transform does: see there. */
export interface TransformPlan<R> {
  /** The document the work reads; absent for uploads, whose content comes with the request. */
  source?: StoredPath | undefined;
  /** Where the content `work` answers is written. */
  target: StoredPath;
  /** How the write treats an existing target (in place: `overwrite`). */
  conflict: ConflictMode;
  /**
   * Who asks: the store acts as its user for the read and the write, and its If-Match (the request's) is
   * checked against the source, or against the target when there is no source.
   */
  ctx: OperationContext;
  exec?: ExecutionContext | undefined;
  /**
   * How long the target's lock is held. `work` (default): for the whole read, work and write, so that
   * concurrent edits of one document wait for each other and all land (inline requests). `write`: only
   * while writing, and an in-place write requires the version that was read, else 412
   * PRECONDITION_FAILED: long work (a background job) never holds up other writers, nor overwrites them.
   */
  lock?: 'work' | 'write' | undefined;
  /** Which operation writes, for the write's record (WriteRecord): an action's name, "upload", an edit's engine task; "write" when absent. */
  operation?: string | undefined;
  /** After the write, remove every earlier version of the target (an action that removes content: docs/versions.md). */
  purgeEarlierVersions?: boolean | undefined;
  /** Computes the content to write (none: nothing is written), its page count when known (kept with its version), and the result; runs engine tasks through `engine`. */
  work(stored: StoredDocument | undefined, engine: Engine): Promise<{ content?: WriteContent | undefined; pageCount?: number | undefined; result: R }>;
}

export interface TransformResult<R> {
  result: R;
  /** The written document's stat, or the source's when nothing was written (absent with neither). */
  stat: DocumentStat | undefined;
  written?: WriteResult;
}

type WriteContent = Parameters<DocumentStore['writeDocument']>[1];

/** A kept version is read-only: a write naming one is refused before anything is read or written (docs/versions.md). */
function refuseVersionWrite(ctx: OperationContext): void {
  if (ctx.versionId !== undefined) throw new ServiceError('VERSION_READ_ONLY', 'versionId names a kept version, which cannot be changed: restore it (POST .../versions/{id}/restore), then change the document');
}

function statOf(stat: DocumentStat): DocumentStat {
  return { size: stat.size, modified: stat.modified, etag: stat.etag };
}

/**
 * The document lifecycle: read (with ETag), transform, write atomically under
 * the document's lock, update in place, remove; uploads (for now) convert and
 * store through transform (uploads.ts). Routes, actions and uploads go through here; nothing else
 * reads or writes documents. What is read of documents (models, caches by
 * version, the access check) is in `reads` (read-models.ts).
 */
export class DocumentOperations {
  /** The read models of documents and the access check (read-models.ts); they read through this class. */
  readonly reads: ReadModels = new ReadModels(this);

  constructor(
    private readonly stores: DocumentStores,
    private readonly pool: EnginePool,
  ) {}

  /** The store that acts as the user of `ctx`: every store call of this class goes through it, resolved at each call. */
  private storeFor(ctx: OperationContext): DocumentStore {
    return this.stores.for(storeUserOf(ctx));
  }

  /** Whether the user's store keeps versions. */
  keepsVersions(ctx: OperationContext): boolean {
    return this.storeFor(ctx).versions !== undefined;
  }

  /** The versions the user's store keeps (versions.ts); VERSIONS_NOT_KEPT when it keeps none. */
  versionsFor(ctx: OperationContext): DocumentVersions {
    const versions = this.storeFor(ctx).versions;
    if (!versions) throw new ServiceError('VERSIONS_NOT_KEPT', 'This service keeps no versions of documents: PDFSERVICE_VERSIONS is off (docs/versions.md)');
    return versions;
  }

  /** The trash the user's store keeps (trash.ts); TRASH_NOT_KEPT when it keeps none. */
  trashFor(ctx: OperationContext): DocumentTrash {
    const trash = this.storeFor(ctx).trash;
    if (!trash) throw new ServiceError('TRASH_NOT_KEPT', 'This service keeps no trash: PDFSERVICE_TRASH is off, and deletes erase (docs/versions.md)');
    return trash;
  }

  /** The stat of the version `ctx.versionId` names (a read of a kept version, docs/versions.md). */
  private async versionStat(path: StoredPath, ctx: OperationContext & { versionId: string }): Promise<DocumentStat> {
    const record = await this.versionsFor(ctx).get(path, ctx.versionId);
    return { size: record.size, modified: record.created, etag: record.etag };
  }

  /** Opens the document for reading: the kept version `ctx.versionId` names, or the current one. */
  private openVersion(path: StoredPath, ctx: OperationContext): Promise<OpenDocument> {
    return ctx.versionId === undefined ? this.storeFor(ctx).openDocument(path) : this.versionsFor(ctx).open(path, ctx.versionId);
  }

  private readonly writeListeners: ((written: WriteResult, ctx: OperationContext) => void)[] = [];

  /**
   * Calls `listener` after every document write of the operations layer has landed (caches warm up on new
   * versions), with the writer's context: what the listener reads of the new version, it reads as the writer.
   */
  onWritten(listener: (written: WriteResult, ctx: OperationContext) => void): void {
    this.writeListeners.push(listener);
  }

  /** Writes a document version: every operation writes through here (or restoreInStore), so that listeners hear of every write. */
  private async write(path: StoredPath, ctx: OperationContext, content: WriteContent, options: WriteOptions): Promise<WriteResult> {
    refuseVersionWrite(ctx);
    return this.announce(await this.storeFor(ctx).writeDocument(path, content, options), ctx);
  }

  private announce(written: WriteResult, ctx: OperationContext): WriteResult {
    for (const listener of this.writeListeners) listener(written, ctx);
    return written;
  }

  /**
   * Restores kept version `id` as the document's content where the store copies it itself (DocumentVersions.restore:
   * on S3, a copy on its server), so its bytes are neither read nor sent here: under the document's lock, with the
   * request's If-Match checked by the store against the current version, as any write's. Nothing is read first: the
   * version's bytes were a committed version's, and the content a restore writes depends on nothing it could read.
   * Undefined when the store cannot (the caller writes the bytes through transform).
   */
  async restoreInStore(path: StoredPath, id: string, ctx: OperationContext): Promise<WriteResult | undefined> {
    refuseVersionWrite(ctx);
    const versions = this.versionsFor(ctx);
    if (!versions.restore) return undefined;
    const provenance = { by: ctx.principal?.username ?? null, operation: 'restore', requestId: ctx.requestId ?? null, jobId: null, pageCount: null };
    const written = await this.locked(path, ctx, () => versions.restore!(path, id, { conflict: 'overwrite', ifMatch: ctx.ifMatch, provenance }));
    return this.announce(written, ctx);
  }

  /**
   * Tells the write listeners of a document that came back from the trash (the store moved it back itself, with its
   * versions): to them it is a new document at `path`, as any write that creates one (a watched folder's arrival).
   */
  restoredFromTrash(path: StoredPath, stat: DocumentStat, ctx: OperationContext): void {
    this.announce({ path, created: true, stat, record: { by: ctx.principal?.username ?? null, operation: 'trash-restore', requestId: ctx.requestId ?? null, jobId: null, pageCount: null, replaced: null } }, ctx);
  }

  /** The document's stat, or null when there is none at `path` (for the user of `ctx`). */
  find(path: StoredPath, ctx: OperationContext): Promise<DocumentStat | null> {
    if (ctx.versionId !== undefined) return this.versionStat(path, { ...ctx, versionId: ctx.versionId });
    return this.storeFor(ctx).statDocument(path);
  }

  async stat(path: StoredPath, ctx: OperationContext): Promise<DocumentStat> {
    const stat = await this.find(path, ctx);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${path.toString()}`);
    return stat;
  }

  /** Whether a document exists at `path` (for the user of `ctx`). */
  async exists(path: StoredPath, ctx: OperationContext): Promise<boolean> {
    return (await this.find(path, ctx)) !== null;
  }

  /** For downloads: stat and bytes of one version of the document (the current one, or the kept one `ctx.versionId` names). */
  openForDownload(path: StoredPath, ctx: OperationContext): Promise<OpenDocument> {
    return this.openVersion(path, ctx);
  }

  /**
   * Reads one version of the document for `work`, which hands `stored.pdf` to
   * engine tasks through `engine` (under `exec`'s signal and progress; an
   * inline request's by default). The version stays open until `work` ends,
   * since the engine may be reading it from the file.
   */
  async read<R>(path: StoredPath, ctx: OperationContext, work: (stored: StoredDocument, engine: Engine) => Promise<R>, exec?: ExecutionContext): Promise<R> {
    const content = await this.openVersion(path, ctx);
    try {
      return await work({ ...content.stat, pdf: await engineSource(content), bytes: () => content.read() }, engineFor(this.pool, exec ?? requestExecution()));
    } finally {
      // After a task timeout the worker is still being terminated while this closes: it may at most
      // read a reused descriptor before it stops, and its result is discarded; it never writes.
      await content.close();
    }
  }

  /** Stages a request body (a multipart file part, a PUT body) in the staging area of the user's store, at most `limit` bytes (413 past it). */
  stage(body: Readable, limit: number, ctx: OperationContext): Promise<StagedUpload> {
    return this.storeFor(ctx).stage(body, limit);
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
  async withStagedBody<R>(body: unknown, limit: number, ctx: OperationContext, empty: ServiceError, work: (source: PdfSource, engine: Engine) => Promise<R>): Promise<R> {
    if (!(body instanceof Readable)) throw empty;
    const staged = await this.stage(body, limit, ctx);
    try {
      if (staged.size === 0) throw empty;
      return await this.withStagedSource(staged, (source) => work(source, engineFor(this.pool, requestExecution())));
    } finally {
      await staged.discard();
    }
  }

  /**
   * The one write path of the service: every operation that writes a document
   * (in-place edits, actions, uploads, PUT) goes through here. Under the
   * target's lock it reads `source` (when given) as one version, checks
   * If-Match against it (or, with no source, against the target as it is
   * written), lets `work` compute the new content under `exec`'s signal and
   * progress, and writes it atomically; `work` may answer no content, and
   * then nothing is written. Locking only the target keeps two operations
   * that read each other's target free of deadlock: the source is read as one
   * version whatever happens to it meanwhile.
   */
  async transform<R>(plan: TransformPlan<R>): Promise<TransformResult<R>> {
    const { source, target, ctx } = plan;
    refuseVersionWrite(ctx);
    const { ifMatch } = ctx;
    const exec = plan.exec ?? requestExecution();
    const lockWhileWriting = plan.lock === 'write';
    const produce = async (stored: StoredDocument | undefined): Promise<TransformResult<R>> => {
      if (stored && ifMatch !== undefined && !matchesEtag(ifMatch, stored.etag)) throw new ServiceError('PRECONDITION_FAILED');
      throwIfStopped(exec);
      const { content, result, pageCount } = await plan.work(stored, engineFor(this.pool, exec));
      // A stop that arrived after the last engine task still writes nothing.
      throwIfStopped(exec);
      if (content === undefined) return { result, stat: stored ? statOf(stored) : undefined };
      // An in-place change names the version it read, locked or not: the lock is this process's, and the store's
      // conditional write is what keeps another instance (or a DMS user editing directly) from being overwritten (412).
      const expected = !stored ? ifMatch : source!.equals(target) ? stored.etag : undefined;
      const write = async () => {
        if (exec.beforeWrite) await exec.beforeWrite(content instanceof Uint8Array ? await etagOfContent(content) : content.etag);
        const provenance = { by: ctx.principal?.username ?? null, operation: plan.operation ?? 'write', requestId: ctx.requestId ?? null, jobId: exec.jobId ?? null, pageCount: pageCount ?? null };
        return this.write(target, ctx, content, { conflict: plan.conflict, ifMatch: expected, provenance, purgeEarlierVersions: plan.purgeEarlierVersions });
      };
      const written = lockWhileWriting ? await this.locked(target, ctx, write) : await write();
      return { result, stat: written.stat, written };
    };
    const run = () => (source ? this.read(source, ctx, produce) : produce(undefined));
    return lockWhileWriting ? run() : this.locked(target, ctx, run);
  }

  /** Runs `fn` under the document's lock (versions.ts changes versions under it, as writes do). */
  async locked<T>(path: StoredPath, ctx: OperationContext, fn: () => Promise<T>): Promise<T> {
    const release = await this.storeFor(ctx).lock(path);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Changes a document in place (transform with the document as source and
   * target): `change` computes the new bytes, or none to leave it as it is.
   * `operation` names the change in the write's record (the engine task's name).
   */
  async update<R>(path: StoredPath, ctx: OperationContext, operation: string, change: (stored: StoredDocument, engine: Engine) => Promise<{ bytes?: Uint8Array; result: R }>, exec?: ExecutionContext): Promise<{ result: R; stat: DocumentStat }> {
    const { result, stat } = await this.transform({
      source: path,
      target: path,
      conflict: 'overwrite',
      operation,
      ctx,
      exec,
      work: async (stored, engine) => {
        const { bytes, result } = await change(stored!, engine);
        return { content: bytes, result };
      },
    });
    return { result, stat: stat! };
  }

  /**
   * Moves the document at `from` to `to` with its versions (MoveAction, docs/move.md), under both paths' locks, If-Match
   * checked against `from`; a write to its listeners (a watched folder's arrival at `to`). Refused before anything
   * moves: a user without PUT and DELETE (403: a move writes one path and deletes another), the same path (400), a
   * store that cannot move (501).
   */
  async move(from: StoredPath, to: StoredPath, conflict: ConflictMode, ctx: OperationContext): Promise<WriteResult> {
    refuseVersionWrite(ctx);
    const store = this.movingStore(ctx);
    if (from.equals(to)) throw new ServiceError('MOVE_INTO_ITSELF', 'savePath is the document\'s own path');
    const provenance = { by: ctx.principal?.username ?? null, operation: 'MoveAction', requestId: ctx.requestId ?? null, jobId: null, pageCount: null };
    const written = await this.lockedBoth(from, to, ctx, () => store.moveDocument!(from, to, { conflict, ifMatch: ctx.ifMatch, provenance }));
    return this.announce(written, ctx);
  }

  /**
   * Tells the write listeners of the documents directly in a folder that was moved to `folder`: each arrived there as
   * a moved document does (a folder moved onto a watched folder's path).
   */
  async announceMovedFolder(folder: StoredPath, ctx: OperationContext): Promise<void> {
    const store = this.storeFor(ctx);
    for (const entry of await store.listFolder(folder)) {
      if (entry.type !== 'document') continue;
      const path = folder.child(entry.name);
      const stat = await store.statDocument(path);
      if (stat) this.announce({ path, created: true, stat: statOf(stat), record: { by: ctx.principal?.username ?? null, operation: 'MoveAction', requestId: ctx.requestId ?? null, jobId: null, pageCount: null, replaced: null } }, ctx);
    }
  }

  /** The user's store, when it can move (MOVE_NOT_SUPPORTED otherwise) and the user may (PUT and DELETE: FORBIDDEN otherwise). */
  movingStore(ctx: OperationContext): DocumentStore {
    const missing = ctx.principal ? (['PUT', 'DELETE'] as const).filter((r) => !ctx.principal!.rights.includes(r)) : [];
    if (missing.length > 0) throw new ServiceError('FORBIDDEN', `A move writes the new path and deletes the old one: it needs the rights PUT and DELETE, and ${JSON.stringify(ctx.principal!.username)} lacks ${missing.join(', ')}`, { requiredRight: missing[0] });
    const store = this.storeFor(ctx);
    if (!store.moveDocument || !store.moveFolder) throw new ServiceError('MOVE_NOT_SUPPORTED', 'This document store cannot move documents or folders: copy (CopyAction), then delete (docs/move.md)');
    return store;
  }

  /** Runs `fn` under the locks of both paths, taken in one order (by path) so that two moves between them never wait for each other. */
  async lockedBoth<T>(a: StoredPath, b: StoredPath, ctx: OperationContext, fn: () => Promise<T>): Promise<T> {
    const [first, second] = a.toString() < b.toString() ? [a, b] : [b, a];
    return this.locked(first, ctx, () => this.locked(second, ctx, fn));
  }

  async remove(path: StoredPath, ctx: OperationContext): Promise<void> {
    refuseVersionWrite(ctx);
    await this.locked(path, ctx, () => this.storeFor(ctx).deleteDocument(path, ctx.ifMatch, ctx.principal?.username ?? null));
  }
}

