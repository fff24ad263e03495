import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStore, DocumentStores } from '../storage/store.js';
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
    const entries = (await this.storeFor(ctx).listFolder(path)).map((e) => folderEntryModel(path, e));
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

  make(path: StoredPath, ctx: OperationContext): Promise<{ created: boolean }> {
    if (path.isRoot) return Promise.resolve({ created: false });
    return this.storeFor(ctx).makeFolder(path);
  }

  async remove(path: StoredPath, ctx: OperationContext, recursive: boolean): Promise<void> {
    if (path.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    await this.storeFor(ctx).deleteFolder(path, recursive, ctx.principal?.username ?? null);
  }

  async exists(path: StoredPath, ctx: OperationContext): Promise<boolean> {
    return path.isRoot || (await this.storeFor(ctx).statFolder(path)) !== null;
  }
}
