import type { DocumentInfo } from '../engine/models.js';
import type { StoredPath } from '../storage/paths.js';
import type { DocumentStat, FolderEntry } from '../storage/store.js';

/** What the engine reports that the DocumentModel shows (all but how the document was opened). */
type ContentFields = Omit<DocumentInfo, 'access' | 'repaired' | 'encrypted'>;

/** DocumentModel / Document: a stored document and, when it could be opened, what it contains. */
export interface DocumentModel extends Partial<ContentFields> {
  path: string;
  name: string;
  size: number;
  modified: string;
  etag: string;
  encrypted: boolean;
}

export function documentModel(path: StoredPath, stat: DocumentStat, info?: Partial<DocumentInfo>): DocumentModel {
  const { access: _access, repaired: _repaired, encrypted, ...content } = info ?? {};
  return {
    path: `/${path.toString()}`,
    name: path.name,
    size: stat.size,
    modified: stat.modified.toISOString(),
    etag: stat.etag,
    encrypted: encrypted ?? false,
    ...content,
  };
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
