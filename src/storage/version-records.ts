import { randomBytes } from 'node:crypto';
import { StoredPath } from './paths.js';
import type { TrashEntry, VersionRecord, WriteProvenance } from './store.js';

/**
 * What every store's versions and trash share of their records (docs/versions.md): ids ordered by time, the record a
 * write makes, and the records' stored (JSON) forms. One home for them, so the stores' records cannot drift apart.
 */

/**
 * Ids ordered by time: microseconds since the epoch, 16 digits, each after the last this process gave out and after
 * `after` (the newest id already there, possibly another instance's), so ids stay ordered when two fall in one
 * microsecond or a clock steps back.
 */
export class OrderedIds {
  private last = 0;

  next(after?: string | undefined): string {
    const id = Math.max(Date.now() * 1000, this.last + 1, after === undefined ? 0 : Number(after) + 1);
    this.last = id;
    return String(id).padStart(16, '0');
  }

  /** A trash entry's id: ordered, and unique across instances deleting in the same microsecond. */
  nextEntry(): string {
    return `${this.next()}-${randomBytes(4).toString('hex')}`;
  }
}

/** The record of a write's content, made by `provenance`. */
export function newVersionRecord(id: string, content: { etag: string; size: number }, provenance: WriteProvenance): VersionRecord {
  return {
    id,
    etag: content.etag,
    size: content.size,
    created: new Date(),
    by: provenance.by,
    operation: provenance.operation,
    requestId: provenance.requestId ?? null,
    jobId: provenance.jobId ?? null,
    pageCount: provenance.pageCount ?? null,
    label: null,
    pinned: false,
  };
}

/** The record of content a store found without one (written while versions were off): kept as "unrecorded", by nobody. */
export function unrecordedVersion(id: string, content: { etag: string; size: number; modified: Date }): VersionRecord {
  return { id, etag: content.etag, size: content.size, created: content.modified, by: null, operation: 'unrecorded', requestId: null, jobId: null, pageCount: null, label: null, pinned: false };
}

/** A version's record as the stores keep it (JSON): its time as an ISO string. */
export interface StoredVersionRecord extends Omit<VersionRecord, 'created'> {
  created: string;
}

export function versionFromStored(stored: StoredVersionRecord): VersionRecord {
  return { ...stored, created: new Date(stored.created) };
}

export function versionToStored(record: VersionRecord): StoredVersionRecord {
  return { ...record, created: record.created.toISOString() };
}

/** A trash entry's record as the stores keep it (JSON); a store may keep more fields beside these. */
export interface StoredTrashEntry extends Omit<TrashEntry, 'path' | 'deleted'> {
  path: string[];
  deleted: string;
}

/** The entry of a stored record, its own fields only (a store's extra fields stay behind). */
export function trashEntryFromStored(stored: StoredTrashEntry): TrashEntry {
  const { path: segments, deleted, id, kind, deletedBy, size, documentCount, versionCount } = stored;
  return { id, kind, deletedBy, size, documentCount, versionCount, path: StoredPath.fromValidSegments(segments), deleted: new Date(deleted) };
}
