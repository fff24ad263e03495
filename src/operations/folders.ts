import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStore } from '../storage/store.js';
import type { DocumentOperations } from './documents.js';
import { folderEntryModel, type FolderModel } from './models.js';

/** How many documents a detailed listing inspects at once (the engine pool queues the rest). */
const DETAIL_CONCURRENCY = 4;

export class FolderOperations {
  constructor(
    private readonly store: DocumentStore,
    private readonly documents: DocumentOperations,
  ) {}

  async list(path: StoredPath, details: boolean): Promise<FolderModel> {
    const entries = (await this.store.listFolder(path)).map((e) => folderEntryModel(path, e));
    if (details) {
      const docs = entries.filter((e) => e.type === 'document');
      for (let i = 0; i < docs.length; i += DETAIL_CONCURRENCY) {
        await Promise.all(
          docs.slice(i, i + DETAIL_CONCURRENCY).map(async (entry) => {
            Object.assign(entry, await this.documents.summary(path.child(entry.name)));
          }),
        );
      }
    }
    return { path: `/${path.toString()}`, entries };
  }

  make(path: StoredPath): Promise<{ created: boolean }> {
    if (path.isRoot) return Promise.resolve({ created: false });
    return this.store.makeFolder(path);
  }

  async remove(path: StoredPath, recursive: boolean): Promise<void> {
    if (path.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    await this.store.deleteFolder(path, recursive);
  }

  async exists(path: StoredPath): Promise<boolean> {
    return path.isRoot || (await this.store.statFolder(path)) !== null;
  }
}
