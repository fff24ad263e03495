import type { EnginePool } from '../engine/pool.js';
import type { DocumentStore } from '../storage/store.js';
import { ActionRunner } from './actions/runner.js';
import { DocumentOperations } from './documents.js';
import { FolderOperations } from './folders.js';

export interface Operations {
  documents: DocumentOperations;
  folders: FolderOperations;
  actions: ActionRunner;
}

export function createOperations({ store, pool }: { store: DocumentStore; pool: EnginePool }): Operations {
  const documents = new DocumentOperations(store, pool);
  return {
    documents,
    folders: new FolderOperations(store, documents),
    actions: new ActionRunner(store, pool, documents),
  };
}
