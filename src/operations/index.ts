import type { EnginePool } from '../engine/pool.js';
import type { OfficeConverter } from '../engine/office.js';
import type { DocumentStore } from '../storage/store.js';
import { ActionRunner } from './actions/runner.js';
import { AnnotationOperations } from './annotations.js';
import { DocumentOperations } from './documents.js';
import { FolderOperations } from './folders.js';
import { FieldOperations } from './fields.js';
import { PermissionOperations } from './permissions.js';
import { SignatureOperations } from './signatures.js';

export interface Operations {
  documents: DocumentOperations;
  annotations: AnnotationOperations;
  folders: FolderOperations;
  fields: FieldOperations;
  permissions: PermissionOperations;
  signatures: SignatureOperations;
  actions: ActionRunner;
}

export function createOperations({ store, pool, office }: { store: DocumentStore; pool: EnginePool; office: OfficeConverter }): Operations {
  const documents = new DocumentOperations(store, pool, office);
  return {
    documents,
    annotations: new AnnotationOperations(store, pool, documents),
    folders: new FolderOperations(store, documents),
    fields: new FieldOperations(store, pool, documents),
    permissions: new PermissionOperations(store, pool, documents),
    signatures: new SignatureOperations(store, pool, documents),
    actions: new ActionRunner(store, pool, documents),
  };
}
