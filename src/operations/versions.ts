import type { StoredPath } from '../storage/paths.js';
import type { VersionRecord } from '../storage/store.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { documentModel, type DocumentModel } from './models.js';

/** A kept version as the API shows it (docs/versions.md). */
export interface VersionModel {
  id: string;
  etag: string;
  size: number;
  created: string;
  /** The user that wrote it; null for the service's own work or content found unrecorded. */
  user: string | null;
  operation: string;
  requestId: string | null;
  jobId: string | null;
  pageCount: number | null;
  label: string | null;
  pinned: boolean;
  /** Whether it is the document's current content. */
  current: boolean;
}

export interface VersionsModel {
  versions: VersionModel[];
  total: number;
  offset: number;
  limit: number;
  /** The current version's id; null when no kept version is the current content (written while versions were off). */
  current: string | null;
}

function versionModel(record: VersionRecord, current: string | null): VersionModel {
  return {
    id: record.id,
    etag: record.etag,
    size: record.size,
    created: record.created.toISOString(),
    user: record.by,
    operation: record.operation,
    requestId: record.requestId,
    jobId: record.jobId,
    pageCount: record.pageCount,
    label: record.label,
    pinned: record.pinned,
    current: record.id === current,
  };
}

/**
 * The versions of a document (docs/versions.md): listing, label and pin, deletion, and restore, which is an ordinary
 * write of the kept bytes through the document lifecycle (DocumentOperations.transform: the lock, If-Match on the
 * current version, a new version of its own). Reads of a kept version's content go through DocumentOperations with
 * `ctx.versionId` (every read model included).
 */
export class VersionOperations {
  constructor(private readonly documents: DocumentOperations) {}

  async list(path: StoredPath, ctx: OperationContext, slice: { offset: number; limit: number }): Promise<VersionsModel> {
    const { versions, total, current } = await this.documents.versionsFor(ctx).list(path, slice);
    return { versions: versions.map((v) => versionModel(v, current)), total, offset: slice.offset, limit: slice.limit, current };
  }

  async get(path: StoredPath, id: string, ctx: OperationContext): Promise<VersionModel> {
    const versions = this.documents.versionsFor(ctx);
    const record = await versions.get(path, id);
    const { current } = await versions.list(path, { offset: 0, limit: 1 });
    return versionModel(record, current);
  }

  /** Label and pin, under the document's lock. */
  async update(path: StoredPath, id: string, ctx: OperationContext, change: { label?: string | null | undefined; pinned?: boolean | undefined }): Promise<VersionModel> {
    const versions = this.documents.versionsFor(ctx);
    return this.documents.locked(path, ctx, async () => {
      const record = await versions.update(path, id, change);
      const { current } = await versions.list(path, { offset: 0, limit: 1 });
      return versionModel(record, current);
    });
  }

  /** Removes one version (not the current one: VERSION_IS_CURRENT), under the document's lock. */
  async remove(path: StoredPath, id: string, ctx: OperationContext): Promise<void> {
    const versions = this.documents.versionsFor(ctx);
    await this.documents.locked(path, ctx, () => versions.remove(path, id));
  }

  /**
   * Makes version `id`'s bytes the document's content again, as a new version (history is never rewritten): a write
   * like any other, under the lock, with If-Match checked against the current version.
   */
  async restore(path: StoredPath, id: string, ctx: OperationContext): Promise<{ model: DocumentModel; version: string | null }> {
    const versions = this.documents.versionsFor(ctx);
    // 404 before anything is read. Its page count is the version's for good (a record changes only its label and pin).
    const { pageCount } = await versions.get(path, id);
    const { written } = await this.documents.transform({
      source: path,
      target: path,
      conflict: 'overwrite',
      operation: 'restore',
      ctx,
      work: async () => {
        // Read under the lock: a version deleted meanwhile is a 404, not a write of nothing.
        const opened = await versions.open(path, id);
        try {
          return { content: await opened.read(), pageCount: pageCount ?? undefined, result: undefined };
        } finally {
          await opened.close();
        }
      },
    });
    return { model: documentModel(written!.path, written!.stat), version: written!.version?.id ?? null };
  }
}
