import { PutObjectCommand, type S3Client, type _Object } from '@aws-sdk/client-s3';
import { ServiceError } from '../../errors.js';
import type { LockProvider } from '../locks.js';
import { StoredPath } from '../paths.js';
import type { DocumentTrash, OpenDocument, TrashEntry } from '../store.js';
import { OrderedIds, trashEntryFromStored, type StoredTrashEntry } from '../version-records.js';
import { copyKey, versionsArea } from './versions.js';

/**
 * The trash of the S3 store (docs/versions.md, "Trash"; docs/s3.md). Under keys that are never a document's, as the
 * store's other service areas: `<prefix>.trash/<entry id>/` holds
 *
 * - `entry.json`: the committed entry's record (TrashEntry);
 * - `pending.json`: the record with the original keys moved (and their S3 ETags), from the delete's start until its
 *   originals are gone;
 * - `item` (a document) or `item/...` (a folder: its marker and every key below it), and `versions/...` (the versions
 *   area of the document, or of the folder's documents): copies of the originals;
 * - `restore.json`: a restore in flight (its target path).
 *
 * S3 has no rename, so a move is a server-side CopyObject (metadata, our tag, included) then a delete. A delete puts
 * `pending.json`, copies every key, puts `entry.json` (the commit), deletes the originals (the store does, with its
 * locks and ETag book), then removes `pending.json`. recover(): `pending.json` without `entry.json` is a delete that
 * did not commit, whose copies go (the originals were never touched); with it, the originals still there (same S3
 * ETag) are deleted. A restore puts `restore.json`, copies the versions back, then the item (documents last, so a
 * document shows up with its versions), then removes the entry, `entry.json` first; recover() finishes a restore in
 * flight (copies what is missing at the target, then removes the entry). Ids order entries by time.
 */
const RECORD = 'entry.json';
const PENDING = 'pending.json';
const RESTORING = 'restore.json';
const ITEM = 'item';
const VERSIONS = 'versions';
const ID = /^\d{16}-[0-9a-f]{8}$/;
const VERSION_RECORD = /(^|\/)v-\d{16}-[0-9a-f]{32}(-[0-9a-f]{32})?\.json$/;

/** A record as stored (JSON). */
type StoredEntry = StoredTrashEntry;

/** The pending record: the entry and the original keys copied into it, with the S3 ETag each had. */
interface PendingEntry extends StoredEntry {
  moved: { key: string; s3Etag: string | undefined }[];
}

const toEntry = trashEntryFromStored;

/** What the trash needs of its store (S3Store), without reaching into it. */
export interface S3TrashHost {
  readonly bucket: string;
  /** The key prefix of the store ('' or ending in '/'). */
  readonly prefix: string;
  send<T>(what: string, run: (client: S3Client) => Promise<T>): Promise<T>;
  listAll(prefix: string): Promise<_Object[]>;
  deleteKeys(keys: string[]): Promise<void>;
  download(key: string): Promise<Omit<OpenDocument, 'stat'> | null>;
  /** Makes the folder (and its parents') markers when missing. */
  makeFolder(p: StoredPath): Promise<unknown>;
  readonly copyLimit: number;
  readonly copyPart: number;
  /** recover() leaves deletes and restores in flight started less than this long ago (another instance's may be running). */
  readonly staleMs: number;
  /** The store's document locks (LocalLocks, or RedisLocks shared by every instance). */
  readonly locks: Pick<LockProvider, 'acquire'>;
}

/** A delete whose entry is committed, its originals not yet deleted (the store deletes the items, then calls done). */
export interface TrashedS3Item {
  readonly entry: TrashEntry;
  /** The keys of the document, or of the folder (its marker and what is below it), copied into the entry: the store deletes these. */
  readonly items: string[];
  /** The items are gone: the originals of the versions area go, then the pending record (the delete is done). */
  done(): Promise<void>;
  /** The items could not be deleted (a precondition failed): the entry goes, as if the delete had not happened. */
  discard(): Promise<void>;
}

export class S3Trash implements DocumentTrash {
  private readonly ids = new OrderedIds();
  /**
   * Serializes restore, purge and expiry of one entry (two restores of one entry: the second finds none): the store's
   * document locks (with Redis, across instances), under the entry's key, which no document's key can be (a path's
   * segments never start with ".").
   */
  private readonly entryLocks: { acquire(id: string): Promise<() => void> };

  constructor(private readonly host: S3TrashHost) {
    this.entryLocks = { acquire: (id) => host.locks.acquire(this.dirOf(id)) };
  }

  /** `<prefix>.trash/` */
  private get root(): string {
    return `${this.host.prefix}.trash/`;
  }

  private dirOf(id: string): string {
    return `${this.root}${id}/`;
  }

  private nextId(): string {
    return this.ids.nextEntry();
  }

  /** The key of a document or folder path's item: the document's key, or the folder's prefix without its '/'. */
  private base(p: StoredPath): string {
    return this.host.prefix + p.segments.join('/');
  }

  private async keysBelow(prefix: string): Promise<_Object[]> {
    return (await this.host.listAll(prefix)).filter((o) => o.Key !== undefined);
  }

  private async putJson(key: string, value: unknown): Promise<void> {
    const body = Buffer.from(JSON.stringify(value));
    await this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key: key, Body: body, ContentLength: body.length, ContentType: 'application/json' })));
  }

  private async readJson<T>(key: string): Promise<T | undefined> {
    const opened = await this.host.download(key);
    if (!opened) return undefined;
    try {
      return JSON.parse((await opened.read()).toString('utf8')) as T;
    } catch (err) {
      if (err instanceof SyntaxError) return undefined;
      throw err;
    } finally {
      await opened.close();
    }
  }

  /**
   * Copies the document or folder at `p` (its versions too) into a new entry deleted by `by`, and commits it; the
   * caller (deleteDocument, deleteFolder, which checked If-Match under the key's lock) then deletes the originals and
   * calls done(). A folder without documents is not kept: answers null, and the caller erases it.
   */
  async put(kind: 'document' | 'folder', p: StoredPath, by: string | null): Promise<TrashedS3Item | null> {
    const base = this.base(p);
    const items = kind === 'document' ? (await this.keysBelow(base)).filter((o) => o.Key === base) : await this.keysBelow(`${base}/`);
    const documents = items.filter((o) => /\.pdf$/i.test(o.Key!) && !o.Key!.slice(base.length).split('/').some((s) => s.startsWith('.')));
    if (documents.length === 0) return null;
    const area = versionsArea(this.host.prefix, p);
    const versions = await this.keysBelow(area);
    const id = this.nextId();
    const dir = this.dirOf(id);
    const stored: StoredEntry = {
      id,
      kind,
      path: [...p.segments],
      deleted: new Date().toISOString(),
      deletedBy: by,
      size: documents.reduce((sum, o) => sum + (o.Size ?? 0), 0),
      documentCount: documents.length,
      versionCount: versions.filter((o) => VERSION_RECORD.test(o.Key!.slice(area.length))).length,
    };
    const moves = [
      ...versions.map((o) => ({ o, to: `${dir}${VERSIONS}/${o.Key!.slice(area.length)}` })),
      ...items.map((o) => ({ o, to: `${dir}${ITEM}${o.Key!.slice(base.length)}` })),
    ];
    const pending: PendingEntry = { ...stored, moved: moves.map(({ o }) => ({ key: o.Key!, s3Etag: o.ETag })) };
    await this.putJson(dir + PENDING, pending);
    try {
      for (const { o, to } of moves) await copyKey(this.host, o.Key!, to, o.Size ?? 0);
      await this.putJson(dir + RECORD, stored);
    } catch (err) {
      // Not committed: the copies go (a failure here leaves them to recover()); the originals were not touched.
      await this.removeDir(dir).catch(() => undefined);
      throw err;
    }
    return {
      entry: toEntry(stored),
      items: items.map((o) => o.Key!),
      done: async () => {
        await this.deleteVersions(versions.map((o) => o.Key!));
        await this.host.deleteKeys([dir + PENDING]);
      },
      discard: () => this.removeDir(dir),
    };
  }

  /** Deletes keys of a versions area, records first (as S3Versions.removeAll: never a record without its bytes). */
  private async deleteVersions(keys: string[]): Promise<void> {
    await this.host.deleteKeys(keys.filter((k) => VERSION_RECORD.test(k)));
    await this.host.deleteKeys(keys.filter((k) => !VERSION_RECORD.test(k)));
  }

  /** Removes an entry's keys, its record first (it is gone for list and get from then on), its markers last. */
  private async removeDir(dir: string): Promise<void> {
    const keys = (await this.keysBelow(dir)).map((o) => o.Key!);
    const markers = [dir + PENDING, dir + RESTORING];
    await this.host.deleteKeys(keys.filter((k) => k === dir + RECORD));
    await this.host.deleteKeys(keys.filter((k) => k !== dir + RECORD && !markers.includes(k)));
    await this.host.deleteKeys(keys.filter((k) => markers.includes(k)));
  }

  /** The ids of the entries and the names below each, from one listing of the trash (a request per 1000 keys). */
  private async entries(): Promise<Map<string, Map<string, _Object>>> {
    const out = new Map<string, Map<string, _Object>>();
    for (const o of await this.keysBelow(this.root)) {
      const rest = o.Key!.slice(this.root.length);
      const slash = rest.indexOf('/');
      const id = rest.slice(0, slash);
      if (slash < 0 || !ID.test(id)) continue;
      if (!out.has(id)) out.set(id, new Map());
      out.get(id)!.set(rest.slice(slash + 1), o);
    }
    return out;
  }

  async list(filter: { deletedBy?: string | null | undefined }, slice: { offset: number; limit: number }): Promise<{ entries: TrashEntry[]; total: number }> {
    const found = await this.entries();
    const ids = [...found.keys()].filter((id) => found.get(id)!.has(RECORD) && !found.get(id)!.has(RESTORING)).sort().reverse();
    const entries: TrashEntry[] = [];
    for (const id of ids) {
      const stored = await this.readJson<StoredEntry>(this.dirOf(id) + RECORD);
      if (!stored || (filter.deletedBy !== undefined && stored.deletedBy !== filter.deletedBy)) continue;
      entries.push(toEntry(stored));
    }
    return { entries: entries.slice(slice.offset, slice.offset + slice.limit), total: entries.length };
  }

  /** A committed entry not being restored; TRASH_ENTRY_NOT_FOUND otherwise. */
  private async committed(id: string): Promise<{ dir: string; stored: StoredEntry; keys: _Object[] }> {
    const notFound = new ServiceError('TRASH_ENTRY_NOT_FOUND', `The trash has no entry ${JSON.stringify(id)}`);
    if (!ID.test(id)) throw notFound;
    const dir = this.dirOf(id);
    const keys = await this.keysBelow(dir);
    if (!keys.some((o) => o.Key === dir + RECORD) || keys.some((o) => o.Key === dir + RESTORING)) throw notFound;
    const stored = await this.readJson<StoredEntry>(dir + RECORD);
    if (!stored) throw notFound;
    return { dir, stored, keys };
  }

  async get(id: string): Promise<TrashEntry> {
    return toEntry((await this.committed(id)).stored);
  }

  /**
   * Puts the entry back at `target`. Refused (TRASH_PATH_TAKEN) when a document or folder is there: a check, not an
   * atomic refusal (S3 has no conditional copy); a document's restore holds the target's document lock.
   */
  async restore(id: string, target: StoredPath): Promise<void> {
    const release = await this.entryLocks.acquire(id);
    try {
      await this.restoreEntry(id, target);
    } finally {
      release();
    }
  }

  private async restoreEntry(id: string, target: StoredPath): Promise<void> {
    const { dir, keys } = await this.committed(id);
    const base = this.base(target);
    const taken = target.isDocument ? (await this.keysBelow(base)).some((o) => o.Key === base) : (await this.keysBelow(`${base}/`)).length > 0;
    if (taken) throw new ServiceError('TRASH_PATH_TAKEN', `A document or folder is at /${target.toString()} now: restore with another savePath`);
    // Nothing is at the target, so versions found for it belong to no document: the restored one carries its own.
    const area = versionsArea(this.host.prefix, target);
    await this.host.deleteKeys((await this.keysBelow(area)).map((o) => o.Key!));
    await this.putJson(dir + RESTORING, target.segments);
    await this.finishRestore(dir, target, keys, new Set());
  }

  /** Copies the entry's keys not yet at the target (versions, then folder markers, then documents), then removes the entry. */
  private async finishRestore(dir: string, target: StoredPath, keys: _Object[], there: Set<string>): Promise<void> {
    if (!target.parent.isRoot) await this.host.makeFolder(target.parent);
    const area = versionsArea(this.host.prefix, target);
    const base = this.base(target);
    const moves: { o: _Object; to: string }[] = [];
    for (const o of keys) {
      const rest = o.Key!.slice(dir.length);
      if (rest.startsWith(`${VERSIONS}/`)) moves.push({ o, to: area + rest.slice(VERSIONS.length + 1) });
      else if (rest === ITEM || rest.startsWith(`${ITEM}/`)) moves.push({ o, to: base + rest.slice(ITEM.length) });
    }
    const rank = (to: string) => (to.startsWith(area) ? 0 : /\.pdf$/i.test(to) ? 2 : 1);
    moves.sort((a, b) => rank(a.to) - rank(b.to));
    for (const { o, to } of moves) if (!there.has(to)) await copyKey(this.host, o.Key!, to, o.Size ?? 0);
    await this.removeDir(dir);
  }

  async purge(id: string): Promise<void> {
    const release = await this.entryLocks.acquire(id);
    try {
      await this.removeDir((await this.committed(id)).dir);
    } finally {
      release();
    }
  }

  async expire(before: Date): Promise<number> {
    let count = 0;
    for (const [id, names] of await this.entries()) {
      if (!names.has(RECORD) || names.has(RESTORING)) continue;
      const release = await this.entryLocks.acquire(id);
      try {
        // Looked at again under the lock: a restore or purge may have taken it since the listing.
        const found = await this.committed(id).catch(() => undefined);
        if (found && new Date(found.stored.deleted) < before) {
          await this.removeDir(found.dir);
          count++;
        }
      } finally {
        release();
      }
    }
    return count;
  }

  /**
   * After a crash (at start, before the versions' recover): a delete that did not commit loses its copies; one that
   * did has its originals still there (with the S3 ETag they were copied with) deleted; a restore in flight is
   * finished; what is left of a purge goes. Only what was started staleMs ago or longer (another instance may be
   * running one now). One listing of the trash, and of each interrupted entry's originals.
   */
  async recover(): Promise<void> {
    const cutoff = Date.now() - this.host.staleMs;
    const stale = (o: _Object | undefined) => this.host.staleMs <= 0 || (o?.LastModified?.getTime() ?? 0) <= cutoff;
    for (const [id, names] of await this.entries()) {
      const dir = this.dirOf(id);
      if (names.has(RESTORING)) {
        if (!stale(names.get(RESTORING))) continue;
        const segments = names.has(RECORD) ? await this.readJson<string[]>(dir + RESTORING) : undefined;
        if (!segments) {
          await this.removeDir(dir); // its record gone: the restore was done, the entry on its way out
          continue;
        }
        const target = StoredPath.fromValidSegments(segments);
        const there = new Set<string>([...(await this.keysBelow(versionsArea(this.host.prefix, target))), ...(await this.keysBelow(this.base(target)))].map((o) => o.Key!));
        await this.finishRestore(dir, target, [...names.values()], there);
      } else if (names.has(PENDING)) {
        if (!stale(names.get(PENDING))) continue;
        if (!names.has(RECORD)) {
          await this.removeDir(dir);
          continue;
        }
        const pending = await this.readJson<PendingEntry>(dir + PENDING);
        if (pending) {
          const p = StoredPath.fromValidSegments(pending.path);
          const now = new Map([...(await this.keysBelow(this.base(p))), ...(await this.keysBelow(versionsArea(this.host.prefix, p)))].map((o) => [o.Key!, o.ETag]));
          await this.deleteVersions(pending.moved.filter((m) => now.has(m.key) && now.get(m.key) === m.s3Etag).map((m) => m.key));
        }
        await this.host.deleteKeys([dir + PENDING]);
      } else if (!names.has(RECORD)) {
        if ([...names.values()].every((o) => stale(o))) await this.removeDir(dir);
      }
    }
  }
}
