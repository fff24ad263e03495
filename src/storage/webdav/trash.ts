import { ServiceError } from '../../errors.js';
import type { LockProvider } from '../locks.js';
import { StoredPath } from '../paths.js';
import type { DocumentTrash, TrashEntry } from '../store.js';
import { OrderedIds, trashEntryFromStored, type StoredTrashEntry } from '../version-records.js';
import { hiddenCollections, unexpected, type DavClient, type DavCredentials, type DavResource } from './client.js';
import { VERSIONS_FOLDER } from './versions.js';

/**
 * The trash of the WebDAV store (docs/versions.md, "Trash"; docs/dms.md). An entry lives beside what was deleted, in
 * a hidden collection of its folder: `<folder>/.pdfservice-trash/<time>-<hex>/`. There, not at the top of the tree,
 * because a DMS's users may write only in parts of it (on the test server, their home and shared/, never the root):
 * whoever may delete in a folder may make a collection in it, the MOVE into the entry stays inside that folder (no
 * transfer, no cross-folder right needed), and the DMS's rights on the folder are the rights on its entries, as for
 * the versions beside each document. It holds
 *
 * - `entry.json`: the committed entry's record (TrashEntry, plus whether versions moved with it);
 * - `entry.pending`: the record of a delete in flight (invisible; recover() commits or rolls it back);
 * - `item`: the deleted document, or the folder with its documents, moved there by one MOVE (a folder carries its
 *   documents' versions collections and any trash inside it);
 * - `versions`: a deleted document's versions collection (`<folder>/.pdfservice-versions/<name>/`), moved there;
 * - `restore.json`: a restore in flight (its target); recover() finishes or rolls it back.
 *
 * The entry's id is its collection's name followed by its folder (base64url), so that get, restore and purge go
 * straight to it; list and expire walk every folder the acting user may list (one PROPFIND each, as the versions'
 * documents() walk): they see exactly the entries the DMS lets that user see, and the operations keep to the
 * deleter's own (TrashOperations).
 */
export const TRASH_FOLDER = '.pdfservice-trash';

const RECORD = 'entry.json';
const PENDING = 'entry.pending';
const RESTORING = 'restore.json';
const ITEM = 'item';
const VERSIONS = 'versions';
const NAME = /^\d{16}-[0-9a-f]{8}$/;
const ID = /^(\d{16}-[0-9a-f]{8})(?:-([A-Za-z0-9_-]+))?$/;
/**
 * A delete or restore in flight this long is a leftover of a crash: the user's next listing finishes or rolls it back
 * (the service has no DMS account to sweep every user's folders with at start, as for temporary uploads: dms.md).
 */
const STALE_MS = 60 * 60 * 1000;

/** A record as stored (JSON). */
interface StoredEntry extends StoredTrashEntry {
  hasVersions: boolean;
}

const toEntry = trashEntryFromStored;

const idOf = (name: string, folder: readonly string[]) => (folder.length === 0 ? name : `${name}-${Buffer.from(folder.join('/')).toString('base64url')}`);

/** What the trash needs of the store that acts as the user (WebDavStore). */
export interface TrashHost {
  readonly client: DavClient;
  readonly user: DavCredentials | undefined;
  /** Makes the folder and those above it (PATH_CONFLICT when a document is on the way). */
  makeFolder(p: StoredPath): Promise<unknown>;
  /** Forgets the tags and kept downloads at and below a URL. */
  forget(urlPrefix: string): Promise<void>;
  /** The visible versions of a document (0 with versions off). */
  versionCount(p: StoredPath): Promise<number>;
  /** The backend's trash entry locks (LocalLocks, or RedisLocks shared by every instance): whichever user's store acts. */
  readonly locks: Pick<LockProvider, 'acquire'>;
  /** PDFSERVICE_TRASH_MAX_AGE: entries deleted longer ago are purged when a listing meets them (0: kept). */
  readonly maxAgeMs: number;
}

export class WebDavTrash implements DocumentTrash {
  private readonly ids = new OrderedIds();

  constructor(private readonly host: TrashHost) {}

  private get client(): DavClient {
    return this.host.client;
  }

  private nextName(): string {
    return this.ids.nextEntry();
  }

  private entryUrl(folder: readonly string[], name: string, file?: string): string {
    return file === undefined ? this.client.url([...folder, TRASH_FOLDER, name], true) : this.client.url([...folder, TRASH_FOLDER, name, file], false);
  }

  private versionsUrl(p: StoredPath): string {
    return this.client.url([...p.parent.segments, VERSIONS_FOLDER, p.name], true);
  }

  private targetUrl(p: StoredPath, kind: 'document' | 'folder'): string {
    return this.client.url(p.segments, kind === 'folder');
  }

  private async send(method: string, url: string, headers: Record<string, string> = {}, body?: string) {
    const res = await this.client.send(method, url, this.host.user, body === undefined ? { headers } : { headers, body });
    await res.body.dump();
    return res.statusCode;
  }

  private async mkcol(url: string): Promise<void> {
    const status = await this.send('MKCOL', url);
    if (status !== 201 && status !== 405) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered MKCOL with ${status}`);
  }

  private async putJson(url: string, value: unknown): Promise<void> {
    const status = await this.send('PUT', url, { 'content-type': 'application/json' }, JSON.stringify(value));
    if (status !== 201 && status !== 204 && status !== 200) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered PUT with ${status}`);
  }

  /** MOVE; answers the status (201/204 moved, 404 nothing there, 412 target taken with `overwrite` false). */
  private async move(from: string, to: string, overwrite: boolean, headers: Record<string, string> = {}): Promise<number> {
    const status = await this.send('MOVE', from, { destination: to, overwrite: overwrite ? 'T' : 'F', ...headers });
    if (![201, 204, 404, 412].includes(status)) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered MOVE with ${status}`);
    return status;
  }

  private async remove(url: string): Promise<void> {
    const status = await this.send('DELETE', url);
    if (status !== 204 && status !== 200 && status !== 404) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered DELETE with ${status}`);
    await this.host.forget(url);
  }

  private async exists(url: string): Promise<boolean> {
    return (await this.client.propfind(url, this.host.user, 0)) !== null;
  }

  private async readJson<T>(url: string): Promise<T | undefined> {
    const res = await this.client.send('GET', url, this.host.user);
    if (res.statusCode === 404) {
      await res.body.dump();
      return undefined;
    }
    if (res.statusCode !== 200) throw await unexpected('GET', res);
    try {
      return JSON.parse(await res.body.text()) as T;
    } catch {
      return undefined; // torn: as if not written
    }
  }

  /** The documents below a folder and their bytes, and their versions (one PROPFIND per folder). */
  private async measureFolder(segments: readonly string[]): Promise<{ size: number; documentCount: number; versionCount: number }> {
    const found = (await this.client.propfind(this.client.url(segments, true), this.host.user, 1)) ?? [];
    const self = [this.client.rootPath, ...segments].join('/').replace(/\/+$/, '');
    const total = { size: 0, documentCount: 0, versionCount: 0 };
    for (const r of found) {
      if (r.path !== `${self}/${r.name}` || r.name.startsWith('.')) continue;
      if (r.collection) {
        const inner = await this.measureFolder([...segments, r.name]);
        total.size += inner.size;
        total.documentCount += inner.documentCount;
        total.versionCount += inner.versionCount;
      } else if (/\.pdf$/i.test(r.name)) {
        total.size += r.size ?? 0;
        total.documentCount++;
        total.versionCount += await this.host.versionCount(StoredPath.fromValidSegments([...segments, r.name]));
      }
    }
    return total;
  }

  /**
   * Moves the document (`found`: as the store just found it) or folder at `p` with its versions into a new entry in
   * its folder, deleted by `by`; `condition`: the If header the store's DELETE would have carried (If-Match). A folder
   * without documents is not kept: answers null, and the caller erases it.
   */
  async put(kind: 'document' | 'folder', p: StoredPath, found: DavResource | null, by: string | null, condition: Record<string, string> = {}): Promise<TrashEntry | null> {
    const measured =
      kind === 'folder' ? await this.measureFolder(p.segments) : { size: found?.size ?? 0, documentCount: 1, versionCount: await this.host.versionCount(p) };
    if (kind === 'folder' && measured.documentCount === 0) return null;
    const folder = [...p.parent.segments];
    const name = this.nextName();
    const versions = kind === 'document' ? this.versionsUrl(p) : undefined;
    const stored: StoredEntry = {
      id: idOf(name, folder),
      kind,
      path: [...p.segments],
      deleted: new Date().toISOString(),
      deletedBy: by,
      ...measured,
      hasVersions: versions !== undefined && (await this.exists(versions)),
    };
    let status = await this.send('MKCOL', this.entryUrl(folder, name));
    if (status === 409) {
      await this.mkcol(this.client.url([...folder, TRASH_FOLDER], true));
      status = await this.send('MKCOL', this.entryUrl(folder, name));
    }
    if (status !== 201) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered MKCOL with ${status}`);
    await this.putJson(this.entryUrl(folder, name, PENDING), stored);
    try {
      // Versions first: a crash before the item's MOVE leaves the document in place and its versions here, which
      // recover() moves back; never a document in the trash whose versions a new document at the path would inherit.
      if (versions && stored.hasVersions) await this.move(versions, this.entryUrl(folder, name, VERSIONS), false);
      const moved = await this.move(this.targetUrl(p, kind), this.entryUrl(folder, name, ITEM), false, condition);
      if (moved === 404) throw new ServiceError(kind === 'folder' ? 'FOLDER_NOT_FOUND' : 'DOCUMENT_NOT_FOUND', `Nothing at /${p.toString()}`);
      if (moved === 412) throw new ServiceError('PRECONDITION_FAILED');
    } catch (err) {
      await this.rollBackDelete(folder, name, stored);
      throw err;
    }
    await this.host.forget(this.targetUrl(p, kind));
    await this.move(this.entryUrl(folder, name, PENDING), this.entryUrl(folder, name, RECORD), true);
    return toEntry(stored);
  }

  /** A delete that did not move its item: its versions go back, the entry goes. */
  private async rollBackDelete(folder: readonly string[], name: string, stored: StoredEntry | undefined): Promise<void> {
    if (stored?.hasVersions) {
      const p = StoredPath.fromValidSegments(stored.path);
      await this.mkcol(this.client.url([...p.parent.segments, VERSIONS_FOLDER], true));
      await this.move(this.entryUrl(folder, name, VERSIONS), this.versionsUrl(p), false);
    }
    await this.remove(this.entryUrl(folder, name));
  }

  /** Every entry collection the user may list: its folder and name (the walk of list, expire and recover). */
  private async *entries(): AsyncGenerator<{ folder: string[]; name: string }> {
    yield* hiddenCollections(this.client, this.host.user, TRASH_FOLDER, (name) => NAME.test(name));
  }

  /** A committed entry not being restored, or undefined. */
  private async read(folder: readonly string[], name: string): Promise<StoredEntry | undefined> {
    const stored = await this.readJson<StoredEntry>(this.entryUrl(folder, name, RECORD));
    if (!stored || (await this.exists(this.entryUrl(folder, name, RESTORING)))) return undefined;
    return stored;
  }

  private async committed(id: string): Promise<{ folder: string[]; name: string; stored: StoredEntry }> {
    const notFound = new ServiceError('TRASH_ENTRY_NOT_FOUND', `The trash has no entry ${JSON.stringify(id)}`);
    const m = ID.exec(id);
    if (!m) throw notFound;
    const folder = m[2] === undefined ? [] : Buffer.from(m[2], 'base64url').toString().split('/');
    if (idOf(m[1]!, folder) !== id) throw notFound;
    let stored;
    try {
      stored = await this.read(folder, m[1]!);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'DMS_FORBIDDEN') throw notFound; // not this user's to see
      throw err;
    }
    if (!stored || stored.id !== id) throw notFound;
    return { folder, name: m[1]!, stored };
  }

  async list(filter: { deletedBy?: string | null | undefined }, slice: { offset: number; limit: number }): Promise<{ entries: TrashEntry[]; total: number }> {
    const all: TrashEntry[] = [];
    for await (const { folder, name } of this.entries()) {
      let stored = await this.read(folder, name);
      if (!stored && Date.now() - Number(name.slice(0, 16)) / 1000 > STALE_MS) {
        await this.recoverEntry(folder, name);
        stored = await this.read(folder, name);
      }
      // Expiry as the user lists (the retention sweep does not run on WebDAV: no DMS account sees every folder).
      if (stored && this.host.maxAgeMs > 0 && Date.parse(stored.deleted) < Date.now() - this.host.maxAgeMs) {
        await this.expireEntry(folder, name, new Date(Date.now() - this.host.maxAgeMs));
        continue;
      }
      if (!stored || (filter.deletedBy !== undefined && stored.deletedBy !== filter.deletedBy)) continue;
      all.push(toEntry(stored));
    }
    all.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { entries: all.slice(slice.offset, slice.offset + slice.limit), total: all.length };
  }

  async get(id: string): Promise<TrashEntry> {
    return toEntry((await this.committed(id)).stored);
  }

  /**
   * Runs `body` holding the entry's lock, which serializes its restore, purge, expiry and recovery (two restores of one
   * entry: the second finds none, and does not move the restored document's versions back). As on the filesystem and
   * S3, under a key no document path can be (a path's segments never start with "."): with Redis, across instances.
   */
  private async locked<T>(id: string, body: () => Promise<T>): Promise<T> {
    const release = await this.host.locks.acquire(`.trash/${id}`);
    try {
      return await body();
    } finally {
      release();
    }
  }

  restore(id: string, target: StoredPath): Promise<void> {
    return this.locked(id, () => this.restoreLocked(id, target));
  }

  private async restoreLocked(id: string, target: StoredPath): Promise<void> {
    const { folder, name, stored } = await this.committed(id);
    const taken = () => new ServiceError('TRASH_PATH_TAKEN', `A document or folder is at /${target.toString()} now: restore with another savePath`);
    if ((await this.exists(this.client.url(target.segments, false))) || (await this.exists(this.client.url(target.segments, true)))) throw taken();
    await this.host.makeFolder(target.parent);
    const versions = this.versionsUrl(target);
    if (stored.kind === 'document') {
      // Nothing is at the target, so versions found for it belong to no document: a restored document carries its own.
      await this.remove(versions);
    }
    await this.putJson(this.entryUrl(folder, name, RESTORING), target.segments);
    if (stored.hasVersions) {
      await this.mkcol(this.client.url([...target.parent.segments, VERSIONS_FOLDER], true));
      await this.move(this.entryUrl(folder, name, VERSIONS), versions, false);
    }
    let moved;
    try {
      // The commit; Overwrite: F refuses what was made at the target since the check above (412).
      moved = await this.move(this.entryUrl(folder, name, ITEM), this.targetUrl(target, stored.kind), false);
    } catch (err) {
      await this.rollBackRestore(folder, name, stored);
      throw err;
    }
    if (moved !== 201 && moved !== 204) {
      await this.rollBackRestore(folder, name, stored);
      if (moved === 412) throw taken();
      throw new ServiceError('TRASH_ENTRY_NOT_FOUND', `The trash has no entry ${JSON.stringify(id)}`);
    }
    await this.remove(this.entryUrl(folder, name));
  }

  /** A restore whose item did not move: its versions go back into the entry, which stays. */
  private async rollBackRestore(folder: readonly string[], name: string, stored: StoredEntry): Promise<void> {
    const segments = await this.readJson<string[]>(this.entryUrl(folder, name, RESTORING));
    if (segments && stored.hasVersions && !(await this.exists(this.entryUrl(folder, name, VERSIONS)))) {
      await this.move(this.versionsUrl(StoredPath.fromValidSegments(segments)), this.entryUrl(folder, name, VERSIONS), false);
    }
    await this.remove(this.entryUrl(folder, name, RESTORING));
  }

  purge(id: string): Promise<void> {
    return this.locked(id, async () => {
      const { folder, name } = await this.committed(id);
      await this.remove(this.entryUrl(folder, name));
    });
  }

  /** Entries deleted before `before` that the acting user may see (a DMS has no account that sees everything). */
  async expire(before: Date): Promise<number> {
    let count = 0;
    for await (const { folder, name } of this.entries()) if (await this.expireEntry(folder, name, before)) count++;
    return count;
  }

  /** Removes the entry when it is committed and deleted before `before` (checked again under its lock). */
  private expireEntry(folder: readonly string[], name: string, before: Date): Promise<boolean> {
    return this.locked(idOf(name, folder), async () => {
      const stored = await this.read(folder, name);
      if (!stored || new Date(stored.deleted) >= before) return false;
      await this.remove(this.entryUrl(folder, name));
      return true;
    });
  }

  /**
   * After a crash (WebDavStore.recover, as the user, in every folder they may list; and a listing that meets an
   * entry in flight for longer than STALE_MS): a delete in flight is committed
   * when its item moved and rolled back (its versions moved back) otherwise; a restore in flight is finished (the
   * entry goes) when its item moved and rolled back otherwise.
   */
  async recover(): Promise<void> {
    for await (const { folder, name } of this.entries()) await this.recoverEntry(folder, name);
  }

  private recoverEntry(folder: readonly string[], name: string): Promise<void> {
    return this.locked(idOf(name, folder), async () => {
      const item = await this.exists(this.entryUrl(folder, name, ITEM));
      const stored = await this.readJson<StoredEntry>(this.entryUrl(folder, name, RECORD));
      if (!stored) {
        const pending = await this.readJson<StoredEntry>(this.entryUrl(folder, name, PENDING));
        if (pending && item) await this.move(this.entryUrl(folder, name, PENDING), this.entryUrl(folder, name, RECORD), true);
        else await this.rollBackDelete(folder, name, pending);
      } else if (await this.exists(this.entryUrl(folder, name, RESTORING))) {
        if (item) await this.rollBackRestore(folder, name, stored);
        else await this.remove(this.entryUrl(folder, name));
      }
    });
  }
}
