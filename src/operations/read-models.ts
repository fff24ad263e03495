import type { DocumentInfo, Need, TaskOutput } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import { readModelLookups } from '../metrics.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStat } from '../storage/store.js';
import type { OperationContext } from './context.js';
import type { StoredDocument } from './documents.js';
import type { Engine, ExecutionContext } from './execution.js';
import { documentModel, type DocumentModel } from './models.js';
import { ReadModelCache, readModelKey } from './read-model-cache.js';

/** What the read models need of the lifecycle (DocumentOperations): a stat and a read, both as the requesting user. */
export interface DocumentReader {
  stat(path: StoredPath, ctx: OperationContext): Promise<DocumentStat>;
  read<R>(path: StoredPath, ctx: OperationContext, work: (stored: StoredDocument, engine: Engine) => Promise<R>, exec?: ExecutionContext): Promise<R>;
}

/** One read model of a document (ReadModels.get): where it is cached and how the engine computes it. */
export interface ReadModelRequest<T> {
  cache: ReadModelCache<T>;
  /** Tells apart several models of one version in one cache (a page, a slice, a profile). */
  variant?: string | undefined;
  /** Computes the model from the version read; its engine carries the request's signal. */
  compute(stored: StoredDocument, engine: Engine): Promise<T>;
  /** Answers the model from elsewhere (another cache, work under way) when the cache has none; undefined: compute it. */
  elsewhere?: ((etag: string) => T | undefined | Promise<T | undefined>) | undefined;
  /**
   * Whether requests for the same model (version, password, variant) at the same time share one computation: a later one
   * waits for the first (after its own stat, as for the cache) instead of running its own; when the first was stopped
   * (its client went away), the later one runs its own.
   */
  shared?: boolean | undefined;
  /** Counts the lookups in pdfservice_read_model_lookups_total under this name, hit or miss (docs/api.md, Metrics). */
  metric?: string | undefined;
  /** A job's execution context (its signal, progress and task timeout) for the computation; absent: the request's. */
  exec?: ExecutionContext | undefined;
}

/** A read model and the version it describes (its ETag, and the stat of that version: size, modified). */
export interface ReadModel<T> {
  model: T;
  etag: string;
  stat: DocumentStat;
}

/** summary's answer for a version that needs its password to be read: it is encrypted, its page count unknown. */
class PasswordNeeded extends Error {}

/** How many plain versions the access check remembers (an ETag is about 40 bytes). */
const UNENCRYPTED_VERSIONS = 10_000;

/**
 * The read side of the lifecycle: the read-model caches keyed by version
 * (ETag), the DocumentModel and folder summaries, and the access check. Every
 * read model of the operations layer (fields, permissions, signatures,
 * annotations, pages, preflight) is looked up and computed through `get`, so
 * that each does its stat as the requesting user before its cache is consulted
 * (ReadModelCache says why that suffices for a store with users of its own).
 */
export class ReadModels {
  /** DocumentInfo by version and password; model and summary look it up after their stat as the requesting user. */
  private readonly infoCache = new ReadModelCache<DocumentInfo>(2000);
  /**
   * Versions (ETags) known not to be encrypted, from every upload, action
   * output and inspection: such a document opens for any need without a
   * password, so the access check needs no engine task for it (after its stat as
   * the requesting user). Bounded, oldest forgotten first.
   */
  private readonly unencrypted = new Set<string>();
  /** Computations under way that requests share (ReadModelRequest.shared), by cache and key. */
  private readonly running = new WeakMap<ReadModelCache<unknown>, Map<string, Promise<ReadModel<unknown>>>>();

  constructor(private readonly documents: DocumentReader) {}

  /**
   * The one read-model helper: a stat as the requesting user, then the model of
   * that version from `cache` (or `elsewhere`), else the document read and the
   * model computed and kept under the version actually read. Answers the model
   * and the version (ETag, and its stat) it describes.
   */
  async get<T>(path: StoredPath, ctx: OperationContext, request: ReadModelRequest<T>): Promise<ReadModel<T>> {
    const { cache, variant = '' } = request;
    const password = ctx.documentPassword;
    const stat = await this.documents.stat(path, ctx);
    const hit = cache.get(stat.etag, password, variant) ?? (await request.elsewhere?.(stat.etag));
    if (request.metric) readModelLookups.inc({ model: request.metric, outcome: hit === undefined ? 'miss' : 'hit' });
    if (hit !== undefined) return { model: hit, etag: stat.etag, stat };
    const compute = () =>
      this.documents.read(path, ctx, async (stored, engine) => {
        const model = await request.compute(stored, engine);
        cache.set(stored.etag, password, model, variant);
        return { model, etag: stored.etag, stat: { size: stored.size, modified: stored.modified, etag: stored.etag } };
      }, request.exec);
    if (!request.shared) return compute();
    let running = this.running.get(cache as ReadModelCache<unknown>) as Map<string, Promise<ReadModel<T>>> | undefined;
    if (!running) {
      running = new Map();
      this.running.set(cache as ReadModelCache<unknown>, running);
    }
    // Same key, same password: the shared computation's access check holds for this request too.
    const key = readModelKey(stat.etag, password, variant);
    const first = running.get(key);
    if (first) {
      try {
        return await first;
      } catch (err) {
        if (!(err instanceof ServiceError && err.code === 'TASK_CANCELLED')) throw err;
      }
    }
    const work = compute();
    // Registered before anything is awaited, so a request arriving meanwhile finds it.
    running.set(key, work);
    try {
      return await work;
    } finally {
      if (running.get(key) === work) running.delete(key);
    }
  }

  /** The DocumentInfo of a version at hand, from the cache when it was inspected before with this password. */
  async inspect(stored: StoredDocument, password: string | undefined, engine: Engine): Promise<DocumentInfo> {
    const cached = this.infoCache.get(stored.etag, password);
    if (cached) return cached;
    const info = await this.inspectNow(stored, password, engine);
    this.infoCache.set(stored.etag, password, info);
    return info;
  }

  /** The engine's DocumentInfo of a version, its encryption noted (the caller keeps the info). */
  private async inspectNow(stored: StoredDocument, password: string | undefined, engine: Engine): Promise<DocumentInfo> {
    const info = await engine.run('inspect', { pdf: stored.pdf, password });
    this.noteEncryption(stored.etag, info.encrypted);
    return info;
  }

  /**
   * validateUpload's answer for a version at hand, as a reader without the password sees it (what an action that
   * changed nothing reports of its source): from the DocumentInfo kept for such a reader when there is one, with no
   * engine task; else the engine's validateUpload, as before (inspect would fail a task, which wears a worker, for every
   * encrypted source), whose DocumentInfo noteWritten keeps. Undefined where validateUpload refuses the document.
   */
  async readerSummary(stored: StoredDocument, engine: Engine): Promise<TaskOutput<'validateUpload'> | undefined> {
    const info = this.infoCache.get(stored.etag, undefined);
    // validateUpload refuses a document without pages.
    if (info) return info.pageCount > 0 ? { encrypted: info.encrypted, pageCount: info.pageCount, repaired: info.repaired } : undefined;
    return engine.run('validateUpload', { pdf: stored.pdf }).catch(() => undefined);
  }

  /** The DocumentModel; a document whose version (ETag) was inspected before is not read again. */
  async model(path: StoredPath, ctx: OperationContext): Promise<DocumentModel> {
    const { model: info, stat } = await this.get(path, ctx, {
      cache: this.infoCache,
      compute: (stored, engine) => this.inspectNow(stored, ctx.documentPassword, engine),
    });
    return documentModel(path, stat, info);
  }

  /**
   * Page count and encryption for folder listings, as a reader without the password sees them (the cached DocumentInfo
   * without a password, else validateUpload's, whose DocumentInfo is kept when it has one); never fails for one bad file.
   */
  async summary(path: StoredPath, ctx: OperationContext): Promise<{ pageCount?: number; encrypted?: boolean }> {
    try {
      const { model: info } = await this.get(path, { ...ctx, documentPassword: undefined }, {
        cache: this.infoCache,
        compute: async (stored, engine) => {
          const s = await engine.run('validateUpload', { pdf: stored.pdf }, { transfer: [stored.pdf] });
          this.noteEncryption(stored.etag, s.encrypted);
          // Encrypted and not readable without its password: nothing to keep, only that it is encrypted.
          if (!s.info) throw new PasswordNeeded();
          return s.info;
        },
      });
      return { pageCount: info.pageCount, encrypted: info.encrypted };
    } catch (err) {
      return err instanceof PasswordNeeded ? { encrypted: true } : {};
    }
  }

  /**
   * Whether the document password of `ctx` opens the document at `path` and allows `need` (401/403 otherwise); nothing
   * else is done. Answers the password to give an external program that reads it (programPassword: the one the engine
   * opened it with, SASLprep'd where that was needed; undefined when it is not encrypted). `etag`: the version's, when
   * the caller stated it a moment ago (a job's 202 waited for each trip through the thread pool while heavy jobs ran).
   */
  async checkAccess(path: StoredPath, ctx: OperationContext, need: Need, exec?: ExecutionContext, etag?: string): Promise<string | undefined> {
    // Measured (bench/jobs.ts): the engine task waited up to 43 ms at p99 for the one worker jobs leave free.
    if (this.unencrypted.has(etag ?? (await this.documents.stat(path, ctx)).etag)) return undefined;
    return this.documents.read(path, ctx, (stored, engine) => this.access(stored, ctx, need, engine), exec);
  }

  /** checkAccess for a version at hand (read by the caller, which goes on to use it). */
  async access(stored: StoredDocument, ctx: OperationContext, need: Need, engine: Engine): Promise<string | undefined> {
    if (this.unencrypted.has(stored.etag)) return undefined;
    // Not transferred: the caller's work goes on with the same bytes.
    const { password } = await engine.run('checkAccess', { pdf: stored.pdf, password: ctx.documentPassword, need });
    return password;
  }

  /**
   * What the engine's check of a version just written found: its encryption (noteEncryption) and, when it opened
   * without a password, its DocumentInfo for the DocumentModel (the request that follows an upload or an action is
   * often the model). Answers the summary without the info, as the write's own answer reports it.
   */
  noteWritten<S extends { encrypted: boolean; info?: DocumentInfo }>(etag: string, summary: S | undefined): Omit<S, 'info'> | undefined {
    if (!summary) return undefined;
    const { info, ...rest } = summary;
    this.noteEncryption(etag, summary.encrypted);
    if (info) this.infoCache.set(etag, undefined, info);
    return rest;
  }

  /** Records whether a version is encrypted, as a write or an inspection found it (the access check skips the engine for plain ones). */
  noteEncryption(etag: string, encrypted: boolean | undefined): void {
    if (encrypted !== false) return;
    this.unencrypted.delete(etag);
    this.unencrypted.add(etag);
    if (this.unencrypted.size > UNENCRYPTED_VERSIONS) this.unencrypted.delete(this.unencrypted.values().next().value!);
  }
}
