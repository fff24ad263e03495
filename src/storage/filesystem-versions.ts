import { randomBytes } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { newVersionRecord, OrderedIds, unrecordedVersion, versionFromStored as toRecord, versionToStored as toStored, type StoredVersionRecord as StoredRecord } from './version-records.js';
import { openLocalFile, removeFile, writeSynced } from './local-files.js';
import { syncFolder } from '../state-file.js';
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
 * - `index.jsonl`: the committed records again, for list() and a write's look at the newest (see INDEX).
 * - `p-<etag>-<other etag>` (empty: the name says it all): the bytes of the versions with that ETag are the first bytes
 *   of the other's, whose blob holds them (a "prefix"). A write whose content begins with the bytes of the document it
 *   replaces (an appended update, engine/core/save.ts; the store proves it by the ETag of as many first bytes) keeps
 *   the replaced version so: the pointer is written with its pending record, and after its commit the pointers to the
 *   replaced blob are renamed to point at the new one (so a chain is one step, whatever the number of versions), then
 *   the replaced blob goes. A
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
/**
 * The index of a document's committed records, so that list() and a write's look at the newest record read one file
 * instead of every record: JSON lines, appended by the document lock's holder after each change of the records (a
 * record committed or updated: the record; removed: `{"removed": id}` before the record goes), last line of an id
 * winning. Not fsynced: the records are the truth, and recover() (at start) rewrites the index from them when they
 * differ; a reader that finds the index's newest record is not the document's content (a writer between its rename
 * and its append, a crash there) reads the records instead. Absent (versions from before it): the next write, label,
 * pin or recover() writes it whole. Its last line is always the newest record (an update of an older record, or
 * removals, are followed by the newest's line again), so a write finds the newest record in the file's tail.
 */
const INDEX = 'index.jsonl';
/** How much of the index's end a write reads for its newest record: many records' length (a label is at most a few hundred bytes). */
const INDEX_TAIL = 16 * 1024;
/** `p-<etag>-<etag>`: ETags are hex digests (store.ts etagOfDigest), so a dash parts them. */
const POINTER = /^p-([0-9a-zA-Z]+)-([0-9a-zA-Z]+)$/;
const TEMP_PREFIX = '.tmp-';
/**
 * A folder on its way out (a document's or folder's versions, a trash entry): renamed first to this prefix in its root,
 * then removed (removeTree); recover() removes what a crash left so named.
 */
export const DELETED_PREFIX = '.del-';

export function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
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

/** fsync of a folder: the renames and links in it are durable (state-file.ts's, the one implementation). */
export const syncDir = syncFolder;

/**
 * Takes a folder away atomically (one rename to a DELETED_PREFIX name in `root`, made durable with `syncRoot`), then
 * removes it; false when it was not there.
 */
export async function removeTree(dir: string, root: string, options: { syncRoot?: boolean } = {}): Promise<boolean> {
  const gone = path.join(root, DELETED_PREFIX + randomBytes(8).toString('hex'));
  try {
    await fs.rename(dir, gone);
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return false;
    throw err;
  }
  if (options.syncRoot) await syncDir(root);
  await fs.rm(gone, { recursive: true, force: true });
  return true;
}

/** An empty file made (O_EXCL), not fsynced: the caller's fsync of its folder makes it durable (nothing else to flush). */
async function makeEmpty(file: string): Promise<void> {
  await (await fs.open(file, 'wx', 0o640)).close();
}

export async function readdirOrNone(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return [];
    throw err;
  }
}

/** A folder's names, or undefined when there is no such folder. */
async function readdirOrMissing(dir: string): Promise<string[] | undefined> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

function committedIds(names: string[]): string[] {
  return names.flatMap((name) => RECORD.exec(name)?.[1] ?? []).sort();
}

/** What FilesystemVersions.lookAhead found: the index's newest record, or the error reading it. */
export type IndexLookup = { index: { exists: boolean; newest: VersionRecord | undefined } } | { err: unknown };

/** A version written but not yet committed (FilesystemVersions.prepare). */
export interface PendingVersion {
  readonly record: VersionRecord;
  /** The id of the newest version before this one (a baseline this write made included); null when there is none. */
  readonly predecessor?: string | null;
  /** After the document's rename: the record becomes visible (and a replaced version that is a prefix of it, a pointer). */
  commit(): Promise<void>;
  /** The write did not happen: its record (and a blob it alone made) go. */
  abort(): Promise<void>;
}

export class FilesystemVersions implements DocumentVersions {
  private readonly ids = new OrderedIds();

  /**
   * `root`: `<dataDir>/versions`. `current`: the store's stat of a document (the current version is the newest record
   * whose ETag is the document's).
   */
  constructor(
    private readonly root: string,
    private readonly current: (p: StoredPath) => Promise<DocumentStat | null>,
    /** The document's file, for list()'s look without a hash (see list); absent: always `current`. */
    private readonly documentFile?: (p: StoredPath) => string,
  ) {}

  async init(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
  }

  private dirOf(p: StoredPath): string {
    return path.join(this.root, ...p.segments);
  }

  private nextId(after: string | undefined): string {
    return this.ids.next(after);
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

  /** The index's records, oldest first, and its number of lines; null when there is none. A torn line (an append cut short) is skipped. */
  private async readIndex(dir: string): Promise<{ records: VersionRecord[]; lines: number } | null> {
    let text: string;
    try {
      text = await fs.readFile(path.join(dir, INDEX), 'utf8');
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return null;
      throw err;
    }
    const byId = new Map<string, StoredRecord>();
    let lines = 0;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      lines++;
      let entry: StoredRecord | { removed: string };
      try {
        entry = JSON.parse(line) as StoredRecord | { removed: string };
      } catch {
        continue;
      }
      if ('removed' in entry) byId.delete(entry.removed);
      else byId.set(entry.id, entry);
    }
    const records = [...byId.values()].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).map(toRecord);
    return { records, lines };
  }

  /**
   * The newest record as the index's last line says (undefined when that line is not a whole record: torn, no
   * records), and whether there is an index. One read of the file's tail, whatever the number of versions.
   */
  private async readNewest(dir: string): Promise<{ exists: boolean; newest: VersionRecord | undefined }> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(dir, INDEX), constants.O_RDONLY);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return { exists: false, newest: undefined };
      throw err;
    }
    try {
      // Read from the start: an index shorter than INDEX_TAIL (a few dozen versions) is then read whole without a stat
      // first; a longer one is read again at its end.
      let { buffer, bytesRead } = await handle.read(Buffer.alloc(INDEX_TAIL), 0, INDEX_TAIL, 0);
      if (bytesRead === INDEX_TAIL) {
        const { size } = await handle.stat();
        ({ buffer, bytesRead } = await handle.read(Buffer.alloc(INDEX_TAIL), 0, INDEX_TAIL, size - INDEX_TAIL));
      }
      const text = buffer.subarray(0, bytesRead).toString('utf8');
      if (!text.endsWith('\n')) return { exists: true, newest: undefined };
      const line = text.slice(text.lastIndexOf('\n', text.length - 2) + 1, -1);
      try {
        const entry = JSON.parse(line) as StoredRecord | { removed: string };
        return { exists: true, newest: 'removed' in entry ? undefined : toRecord(entry) };
      } catch {
        return { exists: true, newest: undefined };
      }
    } finally {
      // Not waited for (a descriptor read from has nothing to flush): one trip less on a write's path.
      handle.close().catch(() => undefined);
    }
  }

  /** The records as their files say, oldest first (the index's source of truth). */
  private async readRecords(dir: string): Promise<VersionRecord[]> {
    return Promise.all(committedIds(await readdirOrNone(dir)).map((id) => this.read(dir, id)));
  }

  /** Writes the index whole (temporary file, rename): from `records`, or from the record files. */
  private async writeIndex(dir: string, records?: VersionRecord[]): Promise<void> {
    const all = records ?? (await this.readRecords(dir));
    const temp = path.join(dir, TEMP_PREFIX + randomBytes(8).toString('hex'));
    try {
      await fs.writeFile(temp, all.map((r) => JSON.stringify(toStored(r)) + '\n').join(''));
      await fs.rename(temp, path.join(dir, INDEX));
    } finally {
      await removeFile(temp);
    }
  }

  /**
   * Appends to the index (the caller holds the document's lock). No index yet: after a commit or an update (`whole`),
   * the index is written whole from the records, which already say it; before a removal, nothing (the records go next,
   * and the next commit writes the index).
   */
  private async appendIndex(dir: string, lines: (StoredRecord | { removed: string })[], whole: boolean | 'create'): Promise<void> {
    let handle: fs.FileHandle;
    try {
      // `create`: the caller knows the document has no record besides these lines (its first write), which are then the
      // index whole: made here, without reading the records back (a torn first line is mended as any other).
      handle = await fs.open(path.join(dir, INDEX), constants.O_WRONLY | constants.O_APPEND | (whole === 'create' ? constants.O_CREAT : 0), 0o640);
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
      if (whole) await this.writeIndex(dir);
      return;
    }
    try {
      await handle.write(lines.map((line) => JSON.stringify(line) + '\n').join(''));
    } finally {
      // Not waited for: the index is not fsynced (see INDEX), so its close decides nothing; one trip less per write.
      handle.close().catch(() => undefined);
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

  /**
   * The document's versions folder, made when missing: `made` says whether this call made the folder itself (it is then
   * empty), `durable` settles when its entry in every parent made on the way is on disk (the parents' fsyncs, started
   * together: a write waits for them before its commit, not before its own steps in the folder).
   */
  private async ensureDir(p: StoredPath): Promise<{ dir: string; made: boolean; durable: Promise<void> }> {
    const dir = this.dirOf(p);
    const first = await fs.mkdir(dir, { recursive: true });
    const parents: string[] = [];
    if (first !== undefined) for (let at = dir; at.length >= first.length; at = path.dirname(at)) parents.push(path.dirname(at));
    const durable = Promise.all(parents.map((parent) => syncDir(parent))).then(() => undefined);
    durable.catch(() => undefined); // awaited by the caller; not an unhandled rejection meanwhile
    // mkdir made every folder from `first` down to `dir`: the document's own among them.
    return { dir, made: first !== undefined, durable };
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
  /**
   * The replaced document's index lookup that prepare() starts with, started by the store as soon as it knows the write
   * replaces a document (its lock held): read while the content is written and hashed, not after. Never rejects (a
   * failed read is prepare's to throw).
   */
  lookAhead(p: StoredPath): Promise<IndexLookup> {
    return this.readNewest(this.dirOf(p)).then((index) => ({ index }), (err: unknown) => ({ err }));
  }

  async prepare(p: StoredPath, source: string, content: { etag: string; size: number }, provenance: WriteProvenance, replaced: { file: string; etag: string; prefix?: boolean; lookAhead?: Promise<IndexLookup> } | null, verify: () => Promise<void>, purge = false): Promise<PendingVersion> {
    // The folder is looked for the way the write suggests (issue 38: every trip to the thread pool is on the write's
    // path): a new document's is made (mkdir), and when that made it, it is empty, with nothing to read; a replaced
    // document's is read first, and made only when it is missing (written while versions were off).
    let dir = this.dirOf(p);
    let made = false;
    let parentsDurable: Promise<void> = Promise.resolve();
    let index: { exists: boolean; newest: VersionRecord | undefined } = { exists: false, newest: undefined };
    let names: string[] | undefined;
    if (replaced === null) {
      ({ dir, made, durable: parentsDurable } = await this.ensureDir(p));
      if (!made) index = await this.readNewest(dir);
    } else {
      const looked = replaced.lookAhead ? await replaced.lookAhead : undefined;
      if (looked && 'err' in looked) throw looked.err;
      index = looked ? looked.index : await this.readNewest(dir);
      if (!index.exists) {
        names = await readdirOrMissing(dir);
        if (names === undefined) ({ dir, made, durable: parentsDurable } = await this.ensureDir(p));
      }
    }
    // The newest record from the index; from the records when the index has none or its newest is not the replaced
    // content (a document written with versions off, or an index behind its records after a crash).
    let newest = index.newest;
    // Whether the document has no committed record (nor an index): this write's record is then its index whole.
    let fresh = made;
    if (!made && (newest === undefined || (replaced && newest.etag !== replaced.etag))) {
      const ids = committedIds(names ?? (await fs.readdir(dir)));
      newest = ids.length === 0 ? undefined : await this.read(dir, ids.at(-1)!);
      fresh = ids.length === 0 && !index.exists;
      // An index behind its records (a writer killed between its commit and its append): written anew, under the lock.
      if (index.exists && newest?.id !== index.newest?.id) await this.writeIndex(dir);
    }
    let newestId = newest?.id;
    // Whether the document has an index to append to (a whole one is written, or made, with a baseline below).
    let indexed = index.exists;
    if (replaced && newest?.etag !== replaced.etag) {
      await verify();
      const st = await fs.stat(replaced.file);
      await this.linkBlob(dir, replaced.file, replaced.etag);
      const baseline = unrecordedVersion(this.nextId(newestId), { etag: replaced.etag, size: st.size, modified: st.mtime });
      await this.writeRecord(dir, baseline);
      await this.appendIndex(dir, [toStored(baseline)], fresh ? 'create' : true);
      fresh = false;
      indexed = true;
      newestId = baseline.id;
    }
    const record = newVersionRecord(this.nextId(newestId), content, provenance);
    const pending = path.join(dir, `v-${record.id}.pending`);
    const purgeMarker = path.join(dir, `v-${record.id}.purge`);
    // An appended update's pointer (keepAsPrefix): true from now on (the content begins with the replaced bytes, proven
    // by their ETag), unused while the replaced blob is there (a blob wins), and made durable with the pending record, so
    // that after the commit only renames and a removal are left, none of them fsynced.
    const prefixOf = replaced?.prefix === true && !purge && replaced.etag !== content.etag ? replaced.etag : undefined;
    const pointer = prefixOf !== undefined ? path.join(dir, pointerName(prefixOf, content.etag)) : undefined;
    // The blob's link, the purge marker, the pointer and the pending record are independent of each other: made together,
    // then made durable by one fsync of the folder (and of the parents a new folder was made in), all before the
    // document's rename. A crash before it leaves a pending record naming bytes that are not the document's, which
    // recover() drops with the blob no record names and the pointer to it, as before.
    const [linked, pointed, ...written] = await Promise.allSettled([
      this.linkBlob(dir, source, content.etag),
      // Empty: no bytes to fsync, only its name and inode, which the folder's fsync below makes durable (as the link's).
      pointer !== undefined ? makeEmpty(pointer).then(() => true, (err: unknown) => (errno(err) === 'EEXIST' ? false : Promise.reject(err))) : Promise.resolve(false),
      ...(purge ? [writeSynced(purgeMarker, '')] : []),
      writeSynced(pending, JSON.stringify(toStored(record))),
    ]);
    const newBlob = linked.status === 'fulfilled' && linked.value;
    const newPointer = pointed.status === 'fulfilled' && pointed.value;
    const abort = async () => {
      await removeFile(pending);
      if (purge) await removeFile(purgeMarker);
      if (newBlob) await removeFile(path.join(dir, blobName(content.etag)));
      if (newPointer) await removeFile(pointer!);
    };
    try {
      for (const settled of [linked, pointed, ...written]) if (settled.status === 'rejected') throw settled.reason;
      await Promise.all([syncDir(dir), parentsDurable]);
    } catch (err) {
      await abort();
      throw err;
    }
    return {
      record,
      predecessor: newestId ?? null,
      commit: async () => {
        // Not fsynced: a rename lost in a crash leaves the pending record, which recover() commits (its bytes are
        // current). The index's line does not wait for it: a reader trusts the index only where its newest record is
        // the document's content, which it is from the document's rename on (visible()).
        const renamed = fs.rename(pending, path.join(dir, `v-${record.id}.json`));
        // The replaced blob's pointers and removal touch neither the record nor the index: they go alongside. A failure
        // there leaves the replaced blob whole: it costs room, not bytes, and the write has committed.
        const prefixKept = prefixOf !== undefined ? this.keepAsPrefix(dir, prefixOf, content.etag).catch(() => undefined) : undefined;
        if (indexed || fresh) {
          await Promise.all([renamed, this.appendIndex(dir, [toStored(record)], fresh ? 'create' : true), prefixKept]);
        } else {
          // No index yet, and records before this one: it is written whole from the records, this one's among them.
          await renamed;
          await Promise.all([this.appendIndex(dir, [toStored(record)], true), prefixKept]);
        }
      },
      abort,
    };
  }

  /**
   * Keeps the versions of `from` as the first bytes of `into`'s blob (their content begins with `from`'s, proven by the
   * store), and `from`'s blob goes: the pointer `p-<from>-<into>` is there and durable already (prepare made it with the
   * pending record), then the pointers to `from` are renamed to `into`, then the blob is removed. Neither is fsynced: a
   * crash that keeps the removal and loses a rename leaves a chain of two steps (`p-<x>-<from>`, `p-<from>-<into>`),
   * which readers follow and recover() makes one, and the next write's fsync of this folder makes both durable. So a
   * crash leaves every version's bytes reachable (docs above). Called by the document's writer (its lock held).
   */
  private async keepAsPrefix(dir: string, from: string, into: string): Promise<void> {
    if (from === into) return;
    const names = await fs.readdir(dir);
    const own = pointerName(from, into);
    if (!names.includes(own) || !names.includes(blobName(from)) || !names.includes(blobName(into))) return;
    // An older pointer of `from` (its bytes were written again since): unused while its blob is there.
    for (const name of names) if (name !== own && POINTER.exec(name)?.[1] === bare(from)) await removeFile(path.join(dir, name));
    for (const name of names) {
      const pointer = POINTER.exec(name);
      if (pointer?.[2] !== bare(from)) continue;
      await fs.rename(path.join(dir, name), path.join(dir, pointerName(pointer[1]!, into)));
    }
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
    const dir = this.dirOf(p);
    const indexed = (await this.readIndex(dir))?.records;
    const newest = indexed?.at(-1);
    // The document is its newest version's blob (one inode: the write linked it) when both stat the same: current,
    // known without the document's hash (which a store's first look at a document after a start reads it whole for:
    // the retention sweep walks every document).
    if (newest && this.documentFile) {
      const [document, blob] = await Promise.all([fs.stat(this.documentFile(p)).catch(() => null), fs.stat(path.join(dir, blobName(newest.etag))).catch(() => null)]);
      if (document?.isFile() && blob && document.ino === blob.ino && document.dev === blob.dev) {
        const newestFirst = indexed!.reverse();
        return { versions: newestFirst.slice(slice.offset, slice.offset + slice.limit), total: newestFirst.length, current: newest.id };
      }
    }
    const stat = await this.current(p);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
    // One file when the index is current (its newest record is the document's content); the records otherwise.
    if (indexed !== undefined && indexed.at(-1)?.etag === stat.etag) {
      const newestFirst = indexed.reverse();
      return { versions: newestFirst.slice(slice.offset, slice.offset + slice.limit), total: newestFirst.length, current: newestFirst[0]!.id };
    }
    // The records (the index is behind: a write between its renames, or a crash): as a reader sees them (visible).
    const { stat: seen, ids } = await this.visible(p, dir);
    ids.reverse();
    const versions = await Promise.all(ids.slice(slice.offset, slice.offset + slice.limit).map((id) => this.readVisible(p, dir, id, true)));
    const newestRecord = ids[0] === undefined ? undefined : (versions[0]?.id === ids[0] ? versions[0] : await this.readVisible(p, dir, ids[0], true));
    return { versions, total: ids.length, current: newestRecord?.etag === seen.etag ? newestRecord.id : null };
  }

  async get(p: StoredPath, id: string): Promise<VersionRecord> {
    if (!ID.test(id)) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${JSON.stringify(id)}`);
    return this.readVisible(p, this.dirOf(p), id, false);
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
    const { newest } = await this.readNewest(dir);
    await this.writeRecord(dir, updated);
    await syncDir(dir);
    // The newest record's line last again (see INDEX).
    await this.appendIndex(dir, [toStored(updated), ...(newest && newest.id > updated.id ? [toStored(newest)] : [])], true);
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

  /**
   * `written`: the record of the write that asks, just committed under the same lock (FilesystemStore.writeDocument):
   * the current version, known without reading the document's stat and its newest record again, and its purge marker
   * is the one to remove. Without it (recover() finishing a purge), both are looked up.
   */
  async purgeEarlier(p: StoredPath, written?: VersionRecord): Promise<number> {
    const dir = this.dirOf(p);
    const names = await readdirOrNone(dir);
    const ids = committedIds(names);
    const current = written && ids.includes(written.id) ? written.id : await this.currentId(p, dir, ids);
    const gone = ids.filter((id) => id !== current);
    // The purge is done once the records are out (durable) and their bytes removed: its write's marker goes with the
    // bytes (a crash before that, and recover() purges again; bytes a crash leaves behind no record names, and recover()
    // removes them as any such blob).
    const marker = current !== null && current === written?.id ? path.join(dir, `v-${written.id}.purge`) : undefined;
    // The folder's listing, taken under the document's lock, serves the removal too (its blobs and pointers stay as listed).
    await this.removeRecords(dir, gone, current === null ? [] : [current === written?.id ? written : current], { names, alongside: marker ? () => removeFile(marker) : undefined });
    if (!marker) for (const name of await readdirOrNone(dir)) if (PURGE.test(name)) await removeFile(path.join(dir, name));
    return gone.length;
  }

  /**
   * Removes records, then the blobs and pointers on their ways to their bytes (their own, or a blob of a version removed
   * earlier that held them as a prefix) that no remaining record's way goes through (a blob holding a remaining
   * version's bytes stays whole): a crash between leaves a blob (recover), never a record without bytes.
   */
  private async removeRecords(dir: string, goneRecords: (string | VersionRecord)[], kept: (string | VersionRecord)[], options: { names?: string[]; alongside?: (() => Promise<void>) | undefined } = {}): Promise<void> {
    if (goneRecords.length === 0) return options.alongside?.();
    const readAll = (list: (string | VersionRecord)[]) => Promise.all(list.map((k) => (typeof k === 'string' ? this.read(dir, k) : k)));
    // The kept records the caller has are not read again.
    const keptRecords = (await readAll(kept)).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    // Out of the index first, the newest kept record's line last (see INDEX): a list never names a record (or bytes)
    // on its way out. The index's lines need only the ids: the gone records (their ETags, for their bytes) are read
    // meanwhile, and removed once both are done.
    const newestKept = keptRecords.at(-1);
    const removed = goneRecords.map((g) => ({ removed: typeof g === 'string' ? g : g.id }));
    const [gone] = await Promise.all([readAll(goneRecords), this.appendIndex(dir, [...removed, ...(newestKept ? [toStored(newestKept)] : [])], false)]);
    await Promise.all(gone.map((record) => removeFile(path.join(dir, `v-${record.id}.json`))));
    await syncDir(dir);
    // The records are all that went since the caller's listing (taken under the same lock), if it has one.
    const ways = indexOf(options.names ?? (await fs.readdir(dir)));
    const needed = new Set(keptRecords.flatMap((r) => chainOf(ways, r.etag) ?? []));
    const candidates = new Set(gone.flatMap((r) => chainOf(ways, r.etag) ?? [blobName(r.etag)]));
    // A pointer of a gone ETag whose blob is back (written again since) is on no way: it goes too.
    for (const [from, into] of ways.pointers) if (gone.some((r) => bare(r.etag) === from)) candidates.add(`p-${from}-${into}`);
    // The blobs and pointers go together, with what the caller removes alongside, while the index is read (removals
    // and updates leave lines behind: the index is written anew once they are most of it).
    const [, index] = await Promise.all([
      Promise.all([...candidates].filter((name) => !needed.has(name)).map((name) => removeFile(path.join(dir, name)))),
      this.readIndex(dir),
      options.alongside?.(),
    ]);
    if (index && index.lines > 2 * index.records.length + 64) await this.writeIndex(dir);
  }

  /**
   * Takes a document's or folder's versions away, atomically (one rename), then removes them: deleting a document
   * erases its versions when the store keeps no trash (with one, FilesystemTrash moves them into the entry). Called before the document goes, so a crash between
   * leaves a document without versions, never versions a new document at the path would inherit.
   */
  async removeAll(p: StoredPath): Promise<void> {
    await removeTree(this.dirOf(p), this.root);
  }

  /** Every folder below the root whose name ends in .pdf is a document's; names starting with "." are never paths (leftovers). */
  async *documents(): AsyncIterable<StoredPath> {
    const walk = async function* (dir: string, segments: string[]): AsyncGenerator<StoredPath> {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return; // removed meanwhile
        throw err;
      }
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
        if (/\.pdf$/i.test(entry.name)) yield StoredPath.fromValidSegments([...segments, entry.name]);
        else yield* walk(path.join(dir, entry.name), [...segments, entry.name]);
      }
    };
    yield* walk(this.root, []);
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
    // The index as the records say (a crash may have left it behind them, or it predates them).
    const records = await this.readRecords(dir);
    const stored = await this.readIndex(dir);
    if (!stored || JSON.stringify(stored.records.map(toStored)) !== JSON.stringify(records.map(toStored))) await this.writeIndex(dir, records);
    await syncDir(dir);
  }
}
