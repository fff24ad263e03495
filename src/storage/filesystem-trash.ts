import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import type { LockProvider } from './locks.js';
import { DELETED_PREFIX, errno, readdirOrNone, removeTree, syncDir } from './filesystem-versions.js';
import { removeFile, writeSynced } from './local-files.js';
import { StoredPath } from './paths.js';
import type { DocumentTrash, TrashEntry } from './store.js';
import { OrderedIds, trashEntryFromStored, type StoredTrashEntry } from './version-records.js';

/**
 * The trash of the filesystem store (docs/versions.md, "Trash"). Beside `<dataDir>/documents`, never below it:
 * `<dataDir>/trash/<entry id>/` holds
 *
 * - `entry.json`: the committed entry's record (TrashEntry);
 * - `entry.pending`: the record of a delete in flight (invisible; recover() commits or rolls it back);
 * - `item`: the deleted document, or the deleted folder with its documents, moved there by one rename (no copy);
 * - `versions`: the document's (or the folder's documents') versions folder, moved there by one rename;
 * - `restore.json`: a restore in flight (its target path); recover() finishes or rolls it back.
 *
 * A delete writes the pending record (fsynced), renames the versions folder, then the document or folder (the commit:
 * from then on the entry holds all of it), then renames the record to `entry.json`. A crash before the document's
 * rename leaves it where it was, and recover() moves its versions back; after it, recover() commits the entry. A
 * restore writes `restore.json`, renames the versions back, then the item (its commit), then removes the entry.
 */
const RECORD = 'entry.json';
const PENDING = 'entry.pending';
const RESTORING = 'restore.json';
const ITEM = 'item';
const VERSIONS = 'versions';
const ID = /^\d{16}-[0-9a-f]{8}$/;

/** A record as stored (JSON). */
interface StoredEntry extends StoredTrashEntry {
  /** Whether a versions folder was moved with it (a restore's roll-back moves it back into the entry). */
  hasVersions: boolean;
}

const toEntry = trashEntryFromStored;

/** What the trash needs of its store: the document paths' files, resolved as the store does (no symbolic link on the way). */
export interface TrashHost {
  /** The absolute file name of a document or folder path. */
  resolve(p: StoredPath): Promise<string>;
  /** Makes the folders above `p` (PATH_CONFLICT when a document is on the way); answers the parent's file name. */
  ensureParent(p: StoredPath): Promise<string>;
  /** The store's document locks (LocalLocks, or RedisLocks shared by every instance of the data folder). */
  readonly locks: Pick<LockProvider, 'acquire'>;
}

/** Renames, answering false when the source is not there. */
async function renameIfThere(from: string, to: string): Promise<boolean> {
  try {
    await fs.rename(from, to);
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return false;
    throw err;
  }
}

/** The documents below a folder (or the one document) and their bytes: what an entry holds. */
async function measure(file: string): Promise<{ size: number; documentCount: number }> {
  const st = await fs.lstat(file);
  if (st.isFile()) return /\.pdf$/i.test(file) ? { size: st.size, documentCount: 1 } : { size: 0, documentCount: 0 };
  if (!st.isDirectory()) return { size: 0, documentCount: 0 };
  let size = 0;
  let documentCount = 0;
  for (const name of await readdirOrNone(file)) {
    if (name.startsWith('.')) continue; // leftovers of interrupted writes, not documents
    const inner = await measure(path.join(file, name));
    size += inner.size;
    documentCount += inner.documentCount;
  }
  return { size, documentCount };
}

/** The committed version records below a versions folder (a document's, or a folder's tree of them). */
async function countVersions(dir: string): Promise<number> {
  let count = 0;
  for (const name of await readdirOrNone(dir)) {
    if (/^v-\d{16}\.json$/.test(name)) count++;
    else if (!name.startsWith('.') && (await fs.lstat(path.join(dir, name))).isDirectory()) count += await countVersions(path.join(dir, name));
  }
  return count;
}

export class FilesystemTrash implements DocumentTrash {
  private readonly ids = new OrderedIds();
  /**
   * Serializes restore, purge and expiry of one entry (two restores of one entry: the second finds none): the store's
   * document locks, so with Redis locks across the instances sharing the data folder, under a key no document path can
   * be (a path's segments never start with ".").
   */
  private readonly entryLocks: { acquire(id: string): Promise<() => void> };

  /** `root`: `<dataDir>/trash`; `versionsRoot`: `<dataDir>/versions` (moved with the documents whether versions are on or off). */
  constructor(
    private readonly root: string,
    private readonly versionsRoot: string,
    private readonly host: TrashHost,
  ) {
    this.entryLocks = { acquire: (id) => host.locks.acquire(`.trash/${id}`) };
  }

  async init(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
  }

  private nextId(): string {
    return this.ids.nextEntry();
  }

  private versionsOf(segments: readonly string[]): string {
    return path.join(this.versionsRoot, ...segments);
  }

  private async readStored(dir: string, name = RECORD): Promise<StoredEntry | undefined> {
    try {
      return JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as StoredEntry;
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR' || err instanceof SyntaxError) return undefined;
      throw err;
    }
  }

  /** A committed entry not being restored; TRASH_ENTRY_NOT_FOUND otherwise. */
  private async committed(id: string): Promise<{ dir: string; stored: StoredEntry }> {
    const notFound = new ServiceError('TRASH_ENTRY_NOT_FOUND', `The trash has no entry ${JSON.stringify(id)}`);
    if (!ID.test(id)) throw notFound;
    const dir = path.join(this.root, id);
    const stored = await this.readStored(dir);
    if (!stored || (await exists(path.join(dir, RESTORING)))) throw notFound;
    return { dir, stored };
  }

  /**
   * Moves the document or folder at `p` (its file `file`, found there by the store, which holds the document's lock
   * and checked If-Match) with its versions into a new entry deleted by `by`. A folder without documents is not kept:
   * answers null, and the caller erases it.
   */
  async put(kind: 'document' | 'folder', p: StoredPath, file: string, by: string | null): Promise<TrashEntry | null> {
    const { size, documentCount } = await measure(file);
    if (kind === 'folder' && documentCount === 0) return null;
    const versions = this.versionsOf(p.segments);
    const stored: StoredEntry = {
      id: this.nextId(),
      kind,
      path: [...p.segments],
      deleted: new Date().toISOString(),
      deletedBy: by,
      size,
      documentCount,
      versionCount: await countVersions(versions),
      hasVersions: await exists(versions),
    };
    const dir = path.join(this.root, stored.id);
    await fs.mkdir(dir);
    await writeSynced(path.join(dir, PENDING), JSON.stringify(stored));
    await syncDir(dir);
    await syncDir(this.root);
    try {
      // Versions first: a crash before the item's rename leaves the document in place and its versions here, which
      // recover() moves back; never a document in the trash whose versions a new document at the path would inherit.
      if (await renameIfThere(versions, path.join(dir, VERSIONS))) await syncDir(path.dirname(versions));
      await fs.rename(file, path.join(dir, ITEM));
    } catch (err) {
      await this.rollBackDelete(dir, stored);
      throw err;
    }
    await syncDir(path.dirname(file));
    await syncDir(dir);
    await fs.rename(path.join(dir, PENDING), path.join(dir, RECORD));
    await syncDir(dir);
    return toEntry(stored);
  }

  /** A delete that did not move its item: its versions go back, the entry goes. */
  private async rollBackDelete(dir: string, stored: StoredEntry | undefined): Promise<void> {
    if (stored && (await exists(path.join(dir, VERSIONS)))) {
      const versions = this.versionsOf(stored.path);
      await fs.mkdir(path.dirname(versions), { recursive: true });
      await fs.rename(path.join(dir, VERSIONS), versions);
      await syncDir(path.dirname(versions));
    }
    await fs.rm(dir, { recursive: true, force: true });
    await syncDir(this.root);
  }

  async list(filter: { deletedBy?: string | null | undefined }, slice: { offset: number; limit: number }): Promise<{ entries: TrashEntry[]; total: number }> {
    const ids = (await readdirOrNone(this.root)).filter((name) => ID.test(name)).sort().reverse();
    const entries: TrashEntry[] = [];
    for (const id of ids) {
      const dir = path.join(this.root, id);
      const stored = await this.readStored(dir);
      if (!stored || (filter.deletedBy !== undefined && stored.deletedBy !== filter.deletedBy)) continue;
      if (await exists(path.join(dir, RESTORING))) continue;
      entries.push(toEntry(stored));
    }
    return { entries: entries.slice(slice.offset, slice.offset + slice.limit), total: entries.length };
  }

  async get(id: string): Promise<TrashEntry> {
    return toEntry((await this.committed(id)).stored);
  }

  async restore(id: string, target: StoredPath): Promise<void> {
    const release = await this.entryLocks.acquire(id);
    try {
      const { dir, stored } = await this.committed(id);
      const file = await this.host.resolve(target);
      if (await exists(file)) throw new ServiceError('TRASH_PATH_TAKEN', `A document or folder is at /${target.toString()} now: restore with another savePath`);
      await this.host.ensureParent(target);
      const versions = this.versionsOf(target.segments);
      // Nothing is at the target, so versions found for it belong to no document (leftovers of a document gone): a
      // restored document must carry its own versions, not inherit those.
      await fs.rm(versions, { recursive: true, force: true });
      await writeSynced(path.join(dir, RESTORING), JSON.stringify(target.segments));
      await syncDir(dir);
      if (stored.hasVersions) {
        await fs.mkdir(path.dirname(versions), { recursive: true });
        await fs.rename(path.join(dir, VERSIONS), versions);
        await syncDir(path.dirname(versions));
      }
      try {
        // The commit. A folder made at the target since the check above (by another request) refuses it, unless empty.
        await fs.rename(path.join(dir, ITEM), file);
      } catch (err) {
        await this.rollBackRestore(dir, stored);
        if (['ENOTEMPTY', 'EEXIST', 'EISDIR', 'ENOTDIR'].includes(errno(err) ?? '')) throw new ServiceError('TRASH_PATH_TAKEN', `A document or folder is at /${target.toString()} now: restore with another savePath`);
        throw err;
      }
      await syncDir(path.dirname(file));
      await this.remove(dir);
    } finally {
      release();
    }
  }

  /** A restore whose item did not move: its versions go back into the entry, which stays. */
  private async rollBackRestore(dir: string, stored: StoredEntry): Promise<void> {
    let segments: string[] | undefined;
    try {
      segments = JSON.parse(await fs.readFile(path.join(dir, RESTORING), 'utf8')) as string[];
    } catch {
      segments = undefined; // torn before its fsync: the restore never reached its renames
    }
    if (segments && stored.hasVersions && !(await exists(path.join(dir, VERSIONS)))) {
      await renameIfThere(this.versionsOf(segments), path.join(dir, VERSIONS));
    }
    await removeFile(path.join(dir, RESTORING));
    await syncDir(dir);
  }

  async purge(id: string): Promise<void> {
    const release = await this.entryLocks.acquire(id);
    try {
      await this.remove((await this.committed(id)).dir);
    } finally {
      release();
    }
  }

  async expire(before: Date): Promise<number> {
    let count = 0;
    for (const id of (await readdirOrNone(this.root)).filter((name) => ID.test(name))) {
      const release = await this.entryLocks.acquire(id);
      try {
        const found = await this.committed(id).catch(() => undefined);
        if (found && new Date(found.stored.deleted) < before) {
          await this.remove(found.dir);
          count++;
        }
      } finally {
        release();
      }
    }
    return count;
  }

  /** Takes an entry away atomically (one rename, durable), then removes it. */
  private async remove(dir: string): Promise<void> {
    if (!(await removeTree(dir, this.root, { syncRoot: true }))) throw Object.assign(new Error(`${dir} is gone`), { code: 'ENOENT' });
  }

  /**
   * After a crash (called at start, before the versions' recover and any write): entries on their way out go; a delete
   * in flight is committed when its item moved and rolled back (its versions moved back) otherwise; a restore in flight
   * is finished (the entry goes) when its item moved and rolled back otherwise.
   */
  async recover(): Promise<void> {
    await this.init();
    for (const name of await readdirOrNone(this.root)) {
      const dir = path.join(this.root, name);
      if (!ID.test(name)) {
        if (name.startsWith(DELETED_PREFIX)) await fs.rm(dir, { recursive: true, force: true });
        continue;
      }
      const item = await exists(path.join(dir, ITEM));
      const stored = await this.readStored(dir);
      if (!stored) {
        const pending = await this.readStored(dir, PENDING);
        if (pending && item) {
          await fs.rename(path.join(dir, PENDING), path.join(dir, RECORD));
          await syncDir(dir);
        } else {
          await this.rollBackDelete(dir, pending);
        }
      } else if (await exists(path.join(dir, RESTORING))) {
        if (item) await this.rollBackRestore(dir, stored);
        else await this.remove(dir);
      }
    }
  }
}
