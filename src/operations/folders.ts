import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStore, DocumentStores, FolderEntry } from '../storage/store.js';
import { storeUserOf, type OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { folderEntryModel, type FolderModel } from './models.js';

/** How many documents a detailed listing inspects at once (the engine pool queues the rest). */
const DETAIL_CONCURRENCY = 4;

/** Folders: listing, making, deleting, each through the store that acts as the user of the request. */
export class FolderOperations {
  constructor(
    private readonly stores: DocumentStores,
    private readonly documents: DocumentOperations,
  ) {}

  private storeFor(ctx: OperationContext): DocumentStore {
    return this.stores.for(storeUserOf(ctx));
  }

  async list(path: StoredPath, ctx: OperationContext, details: boolean): Promise<FolderModel> {
    const entries = (await this.entries(path, ctx)).map((e) => folderEntryModel(path, e));
    if (details) {
      const docs = entries.filter((e) => e.type === 'document');
      for (let i = 0; i < docs.length; i += DETAIL_CONCURRENCY) {
        await Promise.all(
          docs.slice(i, i + DETAIL_CONCURRENCY).map(async (entry) => {
            Object.assign(entry, await this.documents.reads.summary(path.child(entry.name), ctx));
          }),
        );
      }
    }
    return { path: `/${path.toString()}`, entries };
  }

  /** The folder's entries as the store lists them, with what only the service uses (a document's store version). */
  entries(path: StoredPath, ctx: OperationContext): Promise<FolderEntry[]> {
    return this.storeFor(ctx).listFolder(path);
  }

  make(path: StoredPath, ctx: OperationContext): Promise<{ created: boolean }> {
    if (path.isRoot) return Promise.resolve({ created: false });
    return this.storeFor(ctx).makeFolder(path);
  }

  async remove(path: StoredPath, ctx: OperationContext, recursive: boolean): Promise<void> {
    if (path.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    await this.storeFor(ctx).deleteFolder(path, recursive, ctx.principal?.username ?? null);
  }

  /**
   * Moves (renames) the folder at `from` with everything below it to `to`, which must not exist (docs/move.md). Under
   * both folder paths' locks, which serialize moves of one folder; the documents inside are not locked one by one, as
   * a folder's delete does not lock them. The documents directly in it then arrive at `to` (a watched folder's).
   */
  async move(from: StoredPath, to: StoredPath, ctx: OperationContext): Promise<void> {
    const store = this.documents.movingStore(ctx);
    if (from.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be moved');
    if (to.isWithin(from)) throw new ServiceError('MOVE_INTO_ITSELF', `A folder cannot be moved into itself: /${to.toString()} is inside /${from.toString()}`);
    await this.documents.lockedBoth(from, to, ctx, () => store.moveFolder!(from, to));
    await this.documents.announceMovedFolder(to, ctx);
  }

  async exists(path: StoredPath, ctx: OperationContext): Promise<boolean> {
    return path.isRoot || (await this.storeFor(ctx).statFolder(path)) !== null;
  }
}
