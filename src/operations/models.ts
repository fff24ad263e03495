import type { DocumentInfo } from '../engine/pdf/inspect.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStat, FolderEntry } from '../storage/store.js';

/** DocumentModel / Document: a stored document and, when it could be opened, what it contains. */
export interface DocumentModel {
  path: string;
  name: string;
  size: number;
  modified: string;
  etag: string;
  encrypted: boolean;
  pageCount?: number;
  pdfVersion?: string;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  creationDate?: string;
  modificationDate?: string;
  hasForm?: boolean;
  hasXfa?: boolean;
  hasSignatures?: boolean;
  linearized?: boolean;
}

export function documentModel(path: StoredPath, stat: DocumentStat, info?: Partial<DocumentInfo>): DocumentModel {
  const model: DocumentModel = {
    path: `/${path.toString()}`,
    name: path.name,
    size: stat.size,
    modified: stat.modified.toISOString(),
    etag: stat.etag,
    encrypted: info?.encrypted ?? false,
  };
  if (!info) return model;
  const copy = ['pageCount', 'pdfVersion', 'title', 'author', 'subject', 'keywords', 'creator', 'producer', 'creationDate',
    'modificationDate', 'hasForm', 'hasXfa', 'hasSignatures', 'linearized'] as const;
  for (const key of copy) {
    if (info[key] !== undefined) (model as unknown as Record<string, unknown>)[key] = info[key];
  }
  return model;
}

/** FolderModel / Folder: a folder and its entries. */
export interface FolderEntryModel {
  name: string;
  path: string;
  type: 'document' | 'folder';
  size?: number;
  modified: string;
  pageCount?: number;
  encrypted?: boolean;
}

export interface FolderModel {
  path: string;
  entries: FolderEntryModel[];
}

export function folderEntryModel(folder: StoredPath, entry: FolderEntry): FolderEntryModel {
  const path = `/${[...folder.segments, entry.name].join('/')}`;
  return {
    name: entry.name,
    path,
    type: entry.type,
    ...(entry.size !== undefined ? { size: entry.size } : {}),
    modified: entry.modified.toISOString(),
  };
}
