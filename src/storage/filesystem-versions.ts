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
 *   (no copy: the current document and its newest version are one file; versions with equal bytes share one blob);
 * - `p-<etag>-<other etag>` (empty: the name says it all): the bytes of the versions with that ETag are the first bytes
 *   of the other's, whose blob holds them (a "prefix"). A write whose content begins with the bytes of the document it
 *   replaces (an appended update, engine/core/save.ts; the store proves it by the ETag of as many first bytes) keeps
 *   the replaced version so: after its commit, the pointer is written, the pointers to the replaced blob are renamed to
 *   point at the new one (so a chain is one step, whatever the number of versions), then the replaced blob goes. A
 *   blob, while it is there, wins over its pointer; a version's bytes are the first `size` bytes (its record's) of the
 *   blob its chain ends at. 100 appended edits of a 50 MB document so cost one blob of 50 MB and the updates.
 *
 * A write (FilesystemStore.writeDocument) links its fsynced temporary file to its blob and writes the pending record
 * (fsynced, and the folder) before the rename that commits the document, and renames the record to `.json` after it.
 * A crash leaves the old document with a pending record naming other bytes (dropped at recover), or the new document
 * with a pending record naming its bytes (committed at recover); records are removed before their blobs, so no record
 * ever names missing bytes. A prefix adds steps after the commit that only take a blob away once a pointer holds its
 * versions' bytes (a crash between them leaves both, or a chain of two steps, which recover() shortens); removals
 * keep every blob and pointer a remaining version's chain goes through.
 */

const RECORD = /^v-(\d{16})\.json$/;
const PENDING = /^v-(\d{16})\.pending$/;
const PURGE = /^v-(\d{16})\.purge$/;
const ID = /^\d{16}$/;
const BLOB_PREFIX = 'b-';
/** `p-<etag>-<etag>`: ETags are hex digests (store.ts etagOfDigest), so a dash parts them. */
const POINTER = /^p-([0-9a-zA-Z]+)-([0-9a-zA-Z]+)$/;
const TEMP_PREFIX = '.tmp-';
/** A document's or folder's versions on their way out (deleteDocument, deleteFolder): renamed first, then removed. */
const DELETED_PREFIX = '.del-';

export function errno(err: unknown): string | undefined {
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

/** An ETag as it is in file names: without its quotes. */
function bare(etag: string): string {
  return etag.replace(/"/g, '');
}

function blobName(etag: string): string {
  return BLOB_PREFIX + bare(etag);
}

function pointerName(from: string, into: string): string {
  return `p-${bare(from)}-${bare(into)}`;
}

/** The blobs and the pointers (by the bare ETag they start from) among a versions folder's names. */
function indexOf(names: string[]): { blobs: Set<string>; pointers: Map<string, string> } {
  const blobs = new Set<string>();
  const pointers = new Map<string, string>();
  for (const name of names) {
    if (name.startsWith(BLOB_PREFIX)) blobs.add(name);
    const pointer = POINTER.exec(name);
    if (pointer) pointers.set(pointer[1]!, pointer[2]!);
  }
  return { blobs, pointers };
}

/**
 * The names the bytes of `etag` are found through: its blob, or the pointers to follow and the blob they end at;
 * undefined when the chain ends at nothing (a pointer left by a write that never committed, or bytes removed).
 */
function chainOf(index: { blobs: Set<string>; pointers: Map<string, string> }, etag: string): string[] | undefined {
  const chain: string[] = [];
  // Each step leads to longer content, so a chain has no loop; the bound is a guard.
  // (`etag` quoted or bare.)
  for (let at = bare(etag); chain.length <= index.pointers.size;) {
    if (index.blobs.has(BLOB_PREFIX + at)) return [...chain, BLOB_PREFIX + at];
    const into = index.pointers.get(at);
    if (into === undefined) return undefined;
    chain.push(`p-${at}-${into}`);
    at = into;
  }
  return undefined;
}

/** fsync of a folder: the renames and links in it are durable. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function readdirOrNone(dir: string): Promise<string[]> {
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
  /** After the document's rename: the record becomes visible (and a replaced version that is a prefix of it, a pointer). */
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
   * document's lock is still held: a baseline is a committed record, written only by the lock's holder). `prefix`:
   * the written content begins with the replaced document's bytes (proven by the store), so the replaced version is
   * kept as the first bytes of this one's blob once the write commits.
   */
  async prepare(p: StoredPath, source: string, content: { etag: string; size: number }, provenance: WriteProvenance, replaced: { file: string; etag: string; prefix?: boolean } | null, verify: () => Promise<void>, purge = false): Promise<PendingVersion> {
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
      commit: async () => {
        // Not fsynced: a rename lost in a crash leaves the pending record, which recover() commits (its bytes are current).
        await fs.rename(pending, path.join(dir, `v-${record.id}.json`));
        // A failure here leaves the replaced blob whole: it costs room, not bytes, and the write has committed.
        if (replaced?.prefix === true && !purge) await this.keepAsPrefix(dir, replaced.etag, content.etag).catch(() => undefined);
      },
      abort: async () => {
        await removeFile(pending);
        if (purge) await removeFile(purgeMarker);
        if (newBlob) await removeFile(path.join(dir, blobName(content.etag)));
      },
    };
  }

  /**
   * Keeps the versions of `from` as the first bytes of `into`'s blob (their content begins with `from`'s, proven by the
   * store), and `from`'s blob goes: the pointer written first, the pointers to `from` renamed to `into`, then the blob
   * removed, each step durable before the next, so a crash leaves every version's bytes reachable (docs above).
   * Called by the document's writer (its lock held).
   */
  private async keepAsPrefix(dir: string, from: string, into: string): Promise<void> {
    if (from === into) return;
    const names = await fs.readdir(dir);
    if (!names.includes(blobName(from)) || !names.includes(blobName(into))) return;
    // An older pointer of `from` (its bytes were written again since): unused while its blob is there.
    for (const name of names) if (POINTER.exec(name)?.[1] === bare(from)) await removeFile(path.join(dir, name));
    await writeSynced(path.join(dir, pointerName(from, into)), '');
    await syncDir(dir);
    let renamed = false;
    for (const name of names) {
      const pointer = POINTER.exec(name);
      if (pointer?.[2] !== bare(from)) continue;
      await fs.rename(path.join(dir, name), path.join(dir, pointerName(pointer[1]!, into)));
      renamed = true;
    }
    if (renamed) await syncDir(dir);
    await removeFile(path.join(dir, blobName(from)));
  }

  /**
   * Opens the blob holding `etag`'s bytes: its own, or the one its pointers lead to. A write may move a chain meanwhile
   * (keepAsPrefix renames pointers, then removes a blob): looked up again then.
   */
  private async openBlob(dir: string, etag: string): Promise<fs.FileHandle | undefined> {
    const openName = async (name: string) => {
      try {
        return await fs.open(path.join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (err) {
        if (errno(err) === 'ENOENT') return undefined;
        throw err;
      }
    };
    const own = await openName(blobName(etag));
    if (own) return own;
    for (let attempt = 0; attempt < 3; attempt++) {
      const chain = chainOf(indexOf(await readdirOrNone(dir)), etag);
      if (chain === undefined) return undefined;
      const handle = await openName(chain.at(-1)!);
      if (handle) return handle;
    }
    return undefined;
  }

  async list(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    const stat = await this.current(p);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
    const dir = this.dirOf(p);
    const ids = committedIds(await readdirOrNone(dir)).reverse();
    const versions = await Promise.all(ids.slice(slice.offset, slice.offset + slice.limit).map((id) => this.read(dir, id)));
    const newest = ids[0] === undefined ? undefined : (versions[0]?.id === ids[0] ? versions[0] : await this.read(dir, ids[0]));
    return { versions, total: ids.length, current: newest?.etag === stat.etag ? newest.id : null };
  }

  async get(p: StoredPath, id: string): Promise<VersionRecord> {
    if (!ID.test(id)) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${JSON.stringify(id)}`);
    return this.read(this.dirOf(p), id);
  }

  async open(p: StoredPath, id: string): Promise<OpenDocument> {
    const record = await this.get(p, id);
    const handle = await this.openBlob(this.dirOf(p), record.etag);
    // Removed meanwhile (a delete or purge between the record's read and the open).
    if (!handle) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
    // The version's bytes are the blob's first `size` (all of them, unless it is a prefix of a later version).
    const st = await handle.stat();
    if (st.size < record.size) {
      await handle.close();
      throw new Error(`The blob of version ${id} holds ${st.size} bytes, fewer than its ${record.size}`);
    }
    return { ...openLocalFile(handle, record.size), stat: { size: record.size, modified: record.created, etag: record.etag } };
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

  /**
   * Removes records, then the blobs and pointers on their ways to their bytes (their own, or a blob of a version removed
   * earlier that held them as a prefix) that no remaining record's way goes through (a blob holding a remaining
   * version's bytes stays whole): a crash between leaves a blob (recover), never a record without bytes.
   */
  private async removeRecords(dir: string, gone: VersionRecord[], kept: string[]): Promise<void> {
    if (gone.length === 0) return;
    for (const record of gone) await removeFile(path.join(dir, `v-${record.id}.json`));
    await syncDir(dir);
    const keptTags = (await Promise.all(kept.map((id) => this.read(dir, id)))).map((r) => r.etag);
    const index = indexOf(await fs.readdir(dir));
    const needed = new Set(keptTags.flatMap((etag) => chainOf(index, etag) ?? []));
    const candidates = new Set(gone.flatMap((r) => chainOf(index, r.etag) ?? [blobName(r.etag)]));
    // A pointer of a gone ETag whose blob is back (written again since) is on no way: it goes too.
    for (const [from, into] of index.pointers) if (gone.some((r) => bare(r.etag) === from)) candidates.add(`p-${from}-${into}`);
    for (const name of candidates) if (!needed.has(name)) await removeFile(path.join(dir, name));
  }

  /**
   * Takes a document's or folder's versions away, atomically (one rename), then removes them: deleting a document
   * erases its versions when the store keeps no trash (with one, FilesystemTrash moves them into the entry). Called before the document goes, so a crash between
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
    // A chain of more than one pointer (a crash while a prefix's pointers were renamed) made one step again.
    const index = indexOf(await fs.readdir(dir));
    for (const [from, into] of index.pointers) {
      const end = chainOf(index, into)?.at(-1);
      if (end === undefined || end === BLOB_PREFIX + into) continue;
      const to = end.slice(BLOB_PREFIX.length);
      await fs.rename(path.join(dir, pointerName(from, into)), path.join(dir, pointerName(from, to)));
      index.pointers.set(from, to);
    }
    const names = await fs.readdir(dir);
    const named = new Set<string>();
    const current = indexOf(names);
    for (const id of committedIds(names)) {
      const record = await this.read(dir, id).catch(() => undefined);
      const chain = record && chainOf(current, record.etag);
      if (chain) for (const name of chain) named.add(name);
      else await removeFile(path.join(dir, `v-${id}.json`));
    }
    // Blobs and pointers no record's chain goes through (a pointer whose blob is back wins nothing: the blob does).
    for (const name of names) {
      if ((name.startsWith(BLOB_PREFIX) || POINTER.test(name)) && !named.has(name)) await removeFile(path.join(dir, name));
    }
    await syncDir(dir);
  }
}
