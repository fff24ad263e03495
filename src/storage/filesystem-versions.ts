import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { openLocalFile, removeFile, writeSynced } from './local-files.js';
import { StoredPath } from './paths.js';
import type { DocumentStat, DocumentVersions, OpenDocument, VersionRecord, VersionSlice, WriteProvenance } from './store.js';

/**
 * The versions of the filesystem store (docs/versions.md, "Storage"). Beside `<dataDir>/documents`, never below it, so
 * no document path, folder listing or path rule ever reaches them: `<dataDir>/versions/<the document's path>/` holds
 *
 * - `v-<id>.json`: one committed version's record (id: 16 digits, ordered by time);
 * - `v-<id>.pending`: the record of a write in flight (invisible to readers; recover() commits or drops it);
 * - `v-<id>.purge`: written with the pending record of a write that purges every earlier version (ApplyRedactionsAction),
 *   removed when the purge is done: a crash after the write's rename and before the end of its purge leaves it, and
 *   recover() finishes the purge, so no earlier version of a redacted document outlives a crash;
 * - `b-<etag>`: the bytes of every version with that ETag, a hard link to the inode the write renamed into place
 *   (no copy: the current document and its newest version are one file; versions with equal bytes share one blob).
 *
 * A write (FilesystemStore.writeDocument) links its fsynced temporary file to its blob and writes the pending record
 * (fsynced, and the folder) before the rename that commits the document, and renames the record to `.json` after it.
 * A crash leaves the old document with a pending record naming other bytes (dropped at recover), or the new document
 * with a pending record naming its bytes (committed at recover); records are removed before their blobs, so no record
 * ever names missing bytes.
 */

const RECORD = /^v-(\d{16})\.json$/;
const PENDING = /^v-(\d{16})\.pending$/;
const PURGE = /^v-(\d{16})\.purge$/;
const ID = /^\d{16}$/;
const BLOB_PREFIX = 'b-';
const TEMP_PREFIX = '.tmp-';
/** A document's or folder's versions on their way out (deleteDocument, deleteFolder): renamed first, then removed. */
const DELETED_PREFIX = '.del-';

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** A record as stored (JSON). */
interface StoredRecord extends Omit<VersionRecord, 'created'> {
  created: string;
}

function toRecord(stored: StoredRecord): VersionRecord {
  return { ...stored, created: new Date(stored.created) };
}

function toStored(record: VersionRecord): StoredRecord {
  return { ...record, created: record.created.toISOString() };
}

function blobName(etag: string): string {
  return BLOB_PREFIX + etag.replace(/"/g, '');
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readdirOrNone(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return [];
    throw err;
  }
}

function committedIds(names: string[]): string[] {
  return names.flatMap((name) => RECORD.exec(name)?.[1] ?? []).sort();
}

/** A version written but not yet committed (FilesystemVersions.prepare). */
export interface PendingVersion {
  readonly record: VersionRecord;
  /** After the document's rename: the record becomes visible. */
  commit(): Promise<void>;
  /** The write did not happen: its record (and a blob it alone made) go. */
  abort(): Promise<void>;
}

export class FilesystemVersions implements DocumentVersions {
  /** The last id this process gave out: ids stay ordered when two writes fall in one millisecond. */
  private lastId = 0;

  /**
   * `root`: `<dataDir>/versions`. `current`: the store's stat of a document (the current version is the newest record
   * whose ETag is the document's).
   */
  constructor(
    private readonly root: string,
    private readonly current: (p: StoredPath) => Promise<DocumentStat | null>,
  ) {}

  async init(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
  }

  private dirOf(p: StoredPath): string {
    return path.join(this.root, ...p.segments);
  }

  private nextId(after: string | undefined): string {
    const id = Math.max(Date.now() * 1000, this.lastId + 1, after === undefined ? 0 : Number(after) + 1);
    this.lastId = id;
    return String(id).padStart(16, '0');
  }

  private async read(dir: string, id: string): Promise<VersionRecord> {
    try {
      return toRecord(JSON.parse(await fs.readFile(path.join(dir, `v-${id}.json`), 'utf8')) as StoredRecord);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
      throw err;
    }
  }

  /** A pending record, or undefined when there is none (committed or dropped meanwhile) or it is still being written. */
  private async readPending(dir: string, id: string): Promise<StoredRecord | undefined> {
    try {
      return JSON.parse(await fs.readFile(path.join(dir, `v-${id}.pending`), 'utf8')) as StoredRecord;
    } catch (err) {
      if (err instanceof SyntaxError || errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return undefined;
      throw err;
    }
  }

  /**
   * What a reader (list, get, open: no lock) sees of a document's versions at one moment: its stat and its version ids,
   * oldest first. A write commits in two renames, the document's and then its record's, with the folder's fsync between:
   * a reader in between saw the new bytes and no version naming them, so no current version. So a pending record whose
   * bytes are the document's counts as committed, as recover() decides after a crash. And the folder is read between
   * two stats of the document, again when a write committed meanwhile: a stat from before a write and a listing from
   * after it named no current version either. (Changes of versions hold the document's lock, as writers do: they see
   * no write in flight and read the committed records alone.)
   */
  private async visible(p: StoredPath, dir: string): Promise<{ stat: DocumentStat; ids: string[] }> {
    let stat = await this.current(p);
    for (let attempt = 0; ; attempt++) {
      if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
      const names = await readdirOrNone(dir);
      const again = await this.current(p);
      // A document's writes are serialized and each takes milliseconds: a few reads find one moment between two.
      if (again?.etag !== stat.etag && attempt < 3) {
        stat = again;
        continue;
      }
      const ids = committedIds(names);
      for (const name of names) {
        const id = PENDING.exec(name)?.[1];
        if (id === undefined) continue;
        // Committed since the folder was read: its record is read instead.
        const record = (await this.readPending(dir, id)) ?? (await this.read(dir, id).catch((err: unknown) => (err instanceof ServiceError ? undefined : Promise.reject(err))));
        if (record?.etag === stat.etag) ids.push(id);
      }
      return { stat, ids: ids.sort() };
    }
  }

  /**
   * A record a reader may see (visible): committed, or pending with the document's bytes; a pending one gone meanwhile
   * was committed, and is read again. `checked`: the caller found the pending record's bytes to be the document's.
   */
  private async readVisible(p: StoredPath, dir: string, id: string, checked: boolean): Promise<VersionRecord> {
    try {
      return await this.read(dir, id);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const pending = await this.readPending(dir, id);
      if (pending && (checked || pending.etag === (await this.current(p))?.etag)) return toRecord(pending);
      return this.read(dir, id);
    }
  }

  /** A committed record, written whole (temporary file, fsync, rename): a crash leaves the old record or the new one. */
  private async writeRecord(dir: string, record: VersionRecord): Promise<void> {
    const temp = path.join(dir, TEMP_PREFIX + randomBytes(8).toString('hex'));
    try {
      await writeSynced(temp, JSON.stringify(toStored(record)));
      await fs.rename(temp, path.join(dir, `v-${record.id}.json`));
    } finally {
      await removeFile(temp);
    }
  }

  /** Links `file` as the blob of `etag`; answers whether the link is new (an equal blob may be there already). */
  private async linkBlob(dir: string, file: string, etag: string): Promise<boolean> {
    try {
      await fs.link(file, path.join(dir, blobName(etag)));
      return true;
    } catch (err) {
      if (errno(err) === 'EEXIST') return false;
      throw err;
    }
  }

  /** The document's versions folder, made durable when it is new (its entry in every parent made on the way). */
  private async ensureDir(p: StoredPath): Promise<string> {
    const dir = this.dirOf(p);
    const first = await fs.mkdir(dir, { recursive: true });
    if (first !== undefined) {
      for (let at = dir; at.length >= first.length; at = path.dirname(at)) await syncDir(path.dirname(at));
    }
    return dir;
  }

  /**
   * The first half of a write's version, before the document's rename (the caller holds the document's lock):
   * `source` (the fsynced file about to be renamed into place) linked as its blob, and a pending record, both durable.
   * `replaced`: the document being replaced, kept as a version of its own ("unrecorded") when no record has it as the
   * newest (written while versions were off, or before this slice), after `verify` (the store's check that the
   * document's lock is still held: a baseline is a committed record, written only by the lock's holder).
   */
  async prepare(p: StoredPath, source: string, content: { etag: string; size: number }, provenance: WriteProvenance, replaced: { file: string; etag: string } | null, verify: () => Promise<void>, purge = false): Promise<PendingVersion> {
    const dir = await this.ensureDir(p);
    const ids = committedIds(await fs.readdir(dir));
    let newestId = ids.at(-1);
    const newest = newestId === undefined ? undefined : await this.read(dir, newestId);
    if (replaced && newest?.etag !== replaced.etag) {
      await verify();
      const st = await fs.stat(replaced.file);
      await this.linkBlob(dir, replaced.file, replaced.etag);
      const baseline: VersionRecord = { id: this.nextId(newestId), etag: replaced.etag, size: st.size, created: st.mtime, by: null, operation: 'unrecorded', requestId: null, jobId: null, pageCount: null, label: null, pinned: false };
      await this.writeRecord(dir, baseline);
      newestId = baseline.id;
    }
    const newBlob = await this.linkBlob(dir, source, content.etag);
    const record: VersionRecord = {
      id: this.nextId(newestId),
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
    const pending = path.join(dir, `v-${record.id}.pending`);
    const purgeMarker = path.join(dir, `v-${record.id}.purge`);
    if (purge) await writeSynced(purgeMarker, '');
    await writeSynced(pending, JSON.stringify(toStored(record)));
    await syncDir(dir);
    return {
      record,
      // Not fsynced: a rename lost in a crash leaves the pending record, which recover() commits (its bytes are current).
      commit: () => fs.rename(pending, path.join(dir, `v-${record.id}.json`)),
      abort: async () => {
        await removeFile(pending);
        if (purge) await removeFile(purgeMarker);
        if (newBlob) await removeFile(path.join(dir, blobName(content.etag)));
      },
    };
  }

  async list(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    const dir = this.dirOf(p);
    const { stat, ids } = await this.visible(p, dir);
    ids.reverse();
    const versions = await Promise.all(ids.slice(slice.offset, slice.offset + slice.limit).map((id) => this.readVisible(p, dir, id, true)));
    const newest = ids[0] === undefined ? undefined : (versions[0]?.id === ids[0] ? versions[0] : await this.readVisible(p, dir, ids[0], true));
    return { versions, total: ids.length, current: newest?.etag === stat.etag ? newest.id : null };
  }

  async get(p: StoredPath, id: string): Promise<VersionRecord> {
    if (!ID.test(id)) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${JSON.stringify(id)}`);
    return this.readVisible(p, this.dirOf(p), id, false);
  }

  async open(p: StoredPath, id: string): Promise<OpenDocument> {
    const record = await this.get(p, id);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(this.dirOf(p), blobName(record.etag)), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (err) {
      // Removed meanwhile (a delete or purge between the record's read and the open).
      if (errno(err) === 'ENOENT') throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
      throw err;
    }
    const st = await handle.stat();
    return { ...openLocalFile(handle, st.size), stat: { size: st.size, modified: record.created, etag: record.etag } };
  }

  async update(p: StoredPath, id: string, change: { label?: string | null | undefined; pinned?: boolean | undefined }): Promise<VersionRecord> {
    const record = await this.get(p, id);
    const updated: VersionRecord = {
      ...record,
      ...(change.label !== undefined ? { label: change.label } : {}),
      ...(change.pinned !== undefined ? { pinned: change.pinned } : {}),
    };
    const dir = this.dirOf(p);
    await this.writeRecord(dir, updated);
    await syncDir(dir);
    return updated;
  }

  /** The id of the current version, or null (see list). */
  private async currentId(p: StoredPath, dir: string, ids: string[]): Promise<string | null> {
    const newestId = ids.at(-1);
    if (newestId === undefined) return null;
    const [stat, newest] = await Promise.all([this.current(p), this.read(dir, newestId)]);
    return newest.etag === stat?.etag ? newestId : null;
  }

  async remove(p: StoredPath, id: string): Promise<void> {
    const record = await this.get(p, id);
    const dir = this.dirOf(p);
    const ids = committedIds(await fs.readdir(dir));
    if ((await this.currentId(p, dir, ids)) === id) throw new ServiceError('VERSION_IS_CURRENT', `Version ${id} is the document's current content: it cannot be deleted`);
    await this.removeRecords(dir, [record], ids.filter((other) => other !== id));
  }

  async purgeEarlier(p: StoredPath): Promise<number> {
    const dir = this.dirOf(p);
    const ids = committedIds(await readdirOrNone(dir));
    const current = await this.currentId(p, dir, ids);
    const gone = await Promise.all(ids.filter((id) => id !== current).map((id) => this.read(dir, id)));
    await this.removeRecords(dir, gone, current === null ? [] : [current]);
    // The purge is done: its write's marker goes (a crash before this line, and recover() purges again).
    for (const name of await readdirOrNone(dir)) if (PURGE.test(name)) await removeFile(path.join(dir, name));
    return gone.length;
  }

  /** Removes records, then the blobs no remaining record names: a crash between leaves a blob (recover), never a record without bytes. */
  private async removeRecords(dir: string, gone: VersionRecord[], kept: string[]): Promise<void> {
    if (gone.length === 0) return;
    for (const record of gone) await removeFile(path.join(dir, `v-${record.id}.json`));
    await syncDir(dir);
    const keptTags = new Set((await Promise.all(kept.map((id) => this.read(dir, id)))).map((r) => r.etag));
    for (const etag of new Set(gone.map((r) => r.etag))) {
      if (!keptTags.has(etag)) await removeFile(path.join(dir, blobName(etag)));
    }
  }

  /**
   * Takes a document's or folder's versions away, atomically (one rename), then removes them: deleting a document
   * erases its versions in this slice (the trash is a later one). Called before the document goes, so a crash between
   * leaves a document without versions, never versions a new document at the path would inherit.
   */
  async removeAll(p: StoredPath): Promise<void> {
    const gone = path.join(this.root, DELETED_PREFIX + randomBytes(8).toString('hex'));
    try {
      await fs.rename(this.dirOf(p), gone);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return;
      throw err;
    }
    await fs.rm(gone, { recursive: true, force: true });
  }

  /**
   * After a crash (called at start, before any write): versions on their way out go; a pending record is committed when
   * its bytes are the document's (the rename happened) and dropped otherwise; temporary files, records whose blob is
   * missing, blobs no record names, and the versions of documents that are gone are removed.
   */
  async recover(): Promise<void> {
    await this.init();
    const walk = async (dir: string, segments: string[]): Promise<void> => {
      for (const entry of await readdirOrNone(dir)) {
        const full = path.join(dir, entry);
        if (entry.startsWith(DELETED_PREFIX) || entry.startsWith(TEMP_PREFIX)) {
          await fs.rm(full, { recursive: true, force: true });
          continue;
        }
        const st = await fs.lstat(full);
        if (!st.isDirectory()) continue;
        if (/\.pdf$/i.test(entry)) await this.recoverDocument(full, StoredPath.fromValidSegments([...segments, entry]));
        else await walk(full, [...segments, entry]);
      }
    };
    await walk(this.root, []);
  }

  private async recoverDocument(dir: string, p: StoredPath): Promise<void> {
    const stat = await this.current(p);
    if (!stat) {
      await fs.rm(dir, { recursive: true, force: true });
      return;
    }
    for (const name of await fs.readdir(dir)) {
      const pending = PENDING.exec(name);
      if (pending) {
        let record: StoredRecord | undefined;
        try {
          record = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as StoredRecord;
        } catch {
          record = undefined; // torn before its fsync: the write never reached its rename
        }
        if (record?.etag === stat.etag) await fs.rename(path.join(dir, name), path.join(dir, `v-${pending[1]!}.json`));
        else await removeFile(path.join(dir, name));
      } else if (name.startsWith(TEMP_PREFIX)) {
        await removeFile(path.join(dir, name));
      }
    }
    // A purging write that committed and crashed before its purge ended: finish it. One whose write did not commit: drop its marker.
    for (const name of await fs.readdir(dir)) {
      const purge = PURGE.exec(name);
      if (!purge) continue;
      const record = await this.read(dir, purge[1]!).catch(() => undefined);
      if (record?.etag === stat.etag) await this.purgeEarlier(p);
      else await removeFile(path.join(dir, name));
    }
    const names = await fs.readdir(dir);
    const blobs = new Set(names.filter((name) => name.startsWith(BLOB_PREFIX)));
    const named = new Set<string>();
    for (const id of committedIds(names)) {
      const record = await this.read(dir, id).catch(() => undefined);
      if (record && blobs.has(blobName(record.etag))) named.add(blobName(record.etag));
      else await removeFile(path.join(dir, `v-${id}.json`));
    }
    for (const blob of blobs) if (!named.has(blob)) await removeFile(path.join(dir, blob));
    await syncDir(dir);
  }
}
