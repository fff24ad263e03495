import type { EnginePool } from '../engine/pool.js';
import type { OfficeConverter } from '../engine/office.js';
import type { DocumentStore, WriteResult } from '../storage/store.js';
import { ActionRunner } from './actions/runner.js';
import { AnnotationOperations } from './annotations.js';
import { DocumentOperations } from './documents.js';
import { FolderOperations } from './folders.js';
import { FieldOperations } from './fields.js';
import { PageOperations } from './pages.js';
import { PermissionOperations } from './permissions.js';
import { SignatureOperations } from './signatures.js';

export interface Operations {
  documents: DocumentOperations;
  annotations: AnnotationOperations;
  folders: FolderOperations;
  fields: FieldOperations;
  permissions: PermissionOperations;
  pages: PageOperations;
  signatures: SignatureOperations;
  actions: ActionRunner;
}

/**
 * The store as the operations see it: every document write, from whatever
 * operation, is also announced to `written` once it has landed.
 */
function announcingWrites(store: DocumentStore, written: (result: WriteResult, size: number) => void): DocumentStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'writeDocument') {
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: Parameters<DocumentStore['writeDocument']>) => {
        const result = await target.writeDocument(...args);
        written(result, result.stat.size);
        return result;
      };
    },
  });
}

export function createOperations({ store: baseStore, pool, office, textPrefetchMaxBytes = 0 }: { store: DocumentStore; pool: EnginePool; office: OfficeConverter; textPrefetchMaxBytes?: number }): Operations {
  let pages: PageOperations | undefined;
  const store = announcingWrites(baseStore, (result, size) => pages?.prefetchText(result.path, result.stat.etag, size));
  const documents = new DocumentOperations(store, pool, office);
  pages = new PageOperations(pool, documents, textPrefetchMaxBytes);
  return {
    documents,
    annotations: new AnnotationOperations(pool, documents),
    folders: new FolderOperations(store, documents),
    fields: new FieldOperations(pool, documents),
    permissions: new PermissionOperations(pool, documents),
    pages,
    signatures: new SignatureOperations(pool, documents),
    actions: new ActionRunner(store, pool, documents),
  };
}
