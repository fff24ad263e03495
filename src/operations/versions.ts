import type { StoredPath } from '../storage/paths.js';
import type { VersionRecord, WriteResult } from '../storage/store.js';
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

/** What a remembered predecessor was found for: the user (the DMS decides per user what they see) and the content or version. */
function predecessorKey(ctx: OperationContext, of: { etag: string } | { versionId: string }): string {
  return `${ctx.principal?.username ?? ''}\0${'etag' in of ? `e${of.etag}` : `v${of.versionId}`}`;
}

/** How long a predecessor found stays trusted (see VersionOperations.predecessors). */
const PREDECESSOR_TTL_MS = 30_000;
const PREDECESSOR_PATHS = 10_000;
/** Versions listed a request while looking for a kept version's predecessor. */
const PREDECESSOR_PAGE = 500;

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
  /**
   * The last predecessor found per document (one entry a path, the oldest dropped past PREDECESSOR_PATHS): a document's
   * answers name it (RFC 5829), and on S3 or WebDAV finding it is a listing request, which every download would
   * otherwise pay. Keyed by what it was found for (the current content's ETag, or the version read) and the user (the
   * DMS decides per user what they see); dropped here when a version of the path is removed, and trusted for at most
   * PREDECESSOR_TTL_MS, which bounds what a removal elsewhere (another instance, the retention sweep) leaves named.
   */
  private readonly predecessors = new Map<string, { key: string; id: string | null; at: number }>();

  constructor(private readonly documents: DocumentOperations) {}

  /**
   * The id of the version before the current content (`of.etag`: its ETag as just read or written) or before the kept
   * version `of.versionId`; null when there is none. Versions are ordered by id (time), so the predecessor is the next
   * in the newest-first list; a current content found unrecorded (written while versions were off) has the newest kept
   * version before it.
   */
  async predecessor(path: StoredPath, ctx: OperationContext, of: { etag: string } | { versionId: string }): Promise<string | null> {
    const key = predecessorKey(ctx, of);
    const name = path.toString();
    const known = this.predecessors.get(name);
    if (known && known.key === key && Date.now() - known.at < PREDECESSOR_TTL_MS) return known.id;
    const versions = this.documents.versionsFor(ctx);
    let id: string | null = null;
    if ('etag' in of) {
      const { versions: newest, current } = await versions.list(path, { offset: 0, limit: 2 });
      id = (current !== null && newest[0]?.etag === of.etag ? newest[1]?.id : newest.find((v) => v.etag !== of.etag)?.id) ?? null;
    } else {
      // A kept version's: walk the list to it (reads of old versions are rare; a page holds PREDECESSOR_PAGE).
      for (let offset = 0; ; offset += PREDECESSOR_PAGE) {
        const { versions: page, total } = await versions.list(path, { offset, limit: PREDECESSOR_PAGE + 1 });
        const at = page.findIndex((v) => v.id === of.versionId);
        if (at >= 0 && at < PREDECESSOR_PAGE) {
          id = page[at + 1]?.id ?? null;
          break;
        }
        if (offset + PREDECESSOR_PAGE >= total || page.length === 0) break;
      }
    }
    this.remember(name, key, id);
    return id;
  }

  private remember(name: string, key: string, id: string | null): void {
    this.predecessors.delete(name);
    this.predecessors.set(name, { key, id, at: Date.now() });
    if (this.predecessors.size > PREDECESSOR_PATHS) this.predecessors.delete(this.predecessors.keys().next().value!);
  }

  /**
   * After every write (DocumentOperations.onWritten): the predecessor the store found while it wrote (the newest version
   * before the new one), remembered for the writer as predecessor() remembers one it looked up, so that the write's
   * answer and the reads right after it (an upload's DocumentModel) list no versions to name it (issue 38: a listing
   * of the versions on every upload's path).
   */
  noteWritten(written: WriteResult, ctx: OperationContext): void {
    if (written.version === undefined || written.predecessor === undefined) return;
    this.remember(written.path.toString(), predecessorKey(ctx, { etag: written.stat.etag }), written.predecessor);
  }

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
    this.predecessors.delete(path.toString());
  }

  /**
   * Makes version `id`'s bytes the document's content again, as a new version (history is never rewritten): a write
   * like any other, under the lock, with If-Match checked against the current version; by the store itself where it
   * can (DocumentOperations.restoreInStore), else the kept bytes read and written through transform.
   */
  async restore(path: StoredPath, id: string, ctx: OperationContext): Promise<{ model: DocumentModel; version: string | null }> {
    // A store that copies the version itself (S3): no bytes read or sent here.
    const copied = await this.documents.restoreInStore(path, id, ctx);
    if (copied) return { model: documentModel(copied.path, copied.stat), version: copied.version?.id ?? null };
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
