import { ServiceError } from '../errors.js';
import { documentPathFromBody, folderPathFromBody, type StoredPath } from '../storage/paths.js';
import type { TrashEntry } from '../storage/store.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import type { FolderOperations } from './folders.js';
import { documentModel, type DocumentModel, type FolderModel } from './models.js';

/** A trash entry as the API shows it (docs/versions.md, "Trash"). */
export interface TrashEntryModel {
  id: string;
  kind: 'document' | 'folder';
  /** Where it was, as a path from the root ("/a/b.pdf"). */
  path: string;
  deleted: string;
  /** Who deleted it; null for the service's own work. */
  deletedBy: string | null;
  size: number;
  documentCount: number;
  versionCount: number;
}

export interface TrashModel {
  entries: TrashEntryModel[];
  total: number;
  offset: number;
  limit: number;
  /** Whose entries: a user's name, or "*" for everyone's (admins). */
  owner: string;
}

/** `?owner=` for every user's entries (admins only). */
export const ALL_OWNERS = '*';

function entryModel(entry: TrashEntry): TrashEntryModel {
  return {
    id: entry.id,
    kind: entry.kind,
    path: `/${entry.path.toString()}`,
    deleted: entry.deleted.toISOString(),
    deletedBy: entry.deletedBy,
    size: entry.size,
    documentCount: entry.documentCount,
    versionCount: entry.versionCount,
  };
}

function isAdmin(ctx: OperationContext): boolean {
  return ctx.principal?.rights.includes('admin') === true;
}

/**
 * The trash (docs/versions.md, "Trash"): what DELETE of a document or folder moved there, per user. A user sees and
 * changes only the entries they deleted (another's is a 404, as if it were not there); an admin sees anyone's with
 * `?owner=` and may restore or purge any entry.
 */
export class TrashOperations {
  constructor(
    private readonly documents: DocumentOperations,
    private readonly folders: FolderOperations,
  ) {}

  /** The caller's entries, newest first; `owner` (admins only, else 403): another user's, or ALL_OWNERS. */
  async list(ctx: OperationContext, owner: string | undefined, slice: { offset: number; limit: number }): Promise<TrashModel> {
    const self = ctx.principal?.username ?? null;
    const whose = owner ?? self;
    if (whose !== self && !isAdmin(ctx)) {
      throw new ServiceError('FORBIDDEN', 'Only an admin may list the trash of another user (?owner=)', { requiredRight: 'admin' });
    }
    const { entries, total } = await this.documents.trashFor(ctx).list({ deletedBy: whose === ALL_OWNERS ? undefined : whose }, slice);
    return { entries: entries.map(entryModel), total, offset: slice.offset, limit: slice.limit, owner: whose ?? '' };
  }

  /** An entry the caller may see: their own, or any for an admin; TRASH_ENTRY_NOT_FOUND otherwise (existence not revealed). */
  private async visible(id: string, ctx: OperationContext): Promise<TrashEntry> {
    const entry = await this.documents.trashFor(ctx).get(id);
    if (!isAdmin(ctx) && entry.deletedBy !== (ctx.principal?.username ?? null)) {
      throw new ServiceError('TRASH_ENTRY_NOT_FOUND', `The trash has no entry ${JSON.stringify(id)}`);
    }
    return entry;
  }

  async get(id: string, ctx: OperationContext): Promise<TrashEntryModel> {
    return entryModel(await this.visible(id, ctx));
  }

  /**
   * Puts an entry back, at its original path or `savePath`, with its versions (TRASH_PATH_TAKEN when something is
   * there now). It writes the destination, so it needs the PUT right as an upload there does. A document is restored
   * under the target's lock; answers its DocumentModel, or a folder's listing.
   */
  async restore(id: string, ctx: OperationContext, savePath: string | undefined): Promise<{ kind: 'document'; model: DocumentModel } | { kind: 'folder'; model: FolderModel }> {
    if (ctx.principal && !ctx.principal.rights.includes('PUT')) {
      throw new ServiceError('FORBIDDEN', `Restoring writes the destination: it needs the PUT right, which user ${JSON.stringify(ctx.principal.username)} does not have`, { requiredRight: 'PUT' });
    }
    const entry = await this.visible(id, ctx);
    const trash = this.documents.trashFor(ctx);
    let target: StoredPath = entry.path;
    if (savePath !== undefined) target = entry.kind === 'document' ? documentPathFromBody(savePath, 'savePath') : folderPathFromBody(savePath, 'savePath');
    if (entry.kind === 'document') {
      await this.documents.locked(target, ctx, () => trash.restore(id, target));
      const stat = await this.documents.find(target, ctx);
      if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${target.toString()}`); // deleted again meanwhile
      this.documents.restoredFromTrash(target, stat, ctx);
      return { kind: 'document', model: documentModel(target, stat) };
    }
    await trash.restore(id, target);
    return { kind: 'folder', model: await this.folders.list(target, ctx, false) };
  }

  /** Removes an entry for good. */
  async purge(id: string, ctx: OperationContext): Promise<void> {
    await this.visible(id, ctx);
    await this.documents.trashFor(ctx).purge(id);
  }
}
