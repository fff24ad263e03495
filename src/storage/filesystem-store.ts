import { createHash, randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../errors.js';
import { LocalLocks, type LockProvider } from './locks.js';
import { syncFolder } from '../state-file.js';
import { etagOfFile, openLocalFile, removeFile, StagedFile, stageToFile, writeAndClose } from './local-files.js';
import { FilesystemTrash } from './filesystem-trash.js';
import { FilesystemVersions, removeTree, type PendingVersion } from './filesystem-versions.js';
import { etagOfContent, etagOfDigest, etagsOfContent, matchesEtag, withRandomSuffix, writeRecord } from './store.js';
import { StoredPath } from './paths.js';
import type {
  DocumentStat,
  DocumentStore,
  FolderEntry,
  OpenDocument,
  Release,
  StagedUpload,
  WriteOptions,
  WriteResult,
} from './store.js';

const TEMP_PREFIX = '.pdfservice-tmp-';

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

interface CachedTag {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  etag: string;
}

/**
 * The embedded default store: documents are files below `<dataDir>/documents`.
 * Writes go to a temporary file in the target folder, are fsynced and renamed
 * into place (or hard-linked, when the target must not be replaced), and the
 * folder is fsynced, so a crash leaves either the old or the new document.
 */
export class FilesystemStore implements DocumentStore {
  private readonly root: string;
  private readonly staging: string;
  /** `<dataDir>/versions`: a moved document's (or folder's) versions folder moves with it, whether versions are on or off. */
  private readonly versionsRoot: string;
  private readonly locks: LockProvider;
  private readonly tags = new Map<string, CachedTag>();
  /** The freshness stats of tagged documents, shared by requests that ask at the same time (SharedStats). */
  private readonly freshStats = new SharedStats();
  /** The data folder's documents/ as realpath answers it (the folder itself may be reached through a link, e.g. a linked /tmp). */
  private realRoot: string | undefined;
  /** The versions kept of every write (filesystem-versions.ts), below `<dataDir>/versions`; undefined with versions off. */
  readonly versions: FilesystemVersions | undefined;
  /** The trash deletes move documents and folders into (filesystem-trash.ts), `<dataDir>/trash`; undefined with the trash off: deletes erase. */
  readonly trash: FilesystemTrash | undefined;

  /**
   * `locks`: the document locks; default in-process (one instance). Several
   * instances on one data folder share Redis locks (RedisLocks), and every
   * commit (rename, link, unlink) first verifies the lock of its path is still
   * held, so an instance that paused past its lease writes nothing.
   */
  constructor(dataDir: string, options: { locks?: LockProvider | undefined; versions?: boolean | undefined; trash?: boolean | undefined } = {}) {
    this.root = path.join(dataDir, 'documents');
    this.staging = path.join(dataDir, 'staging');
    this.versionsRoot = path.join(dataDir, 'versions');
    this.locks = options.locks ?? new LocalLocks();
    this.versions = options.versions === false ? undefined : new FilesystemVersions(path.join(dataDir, 'versions'), (p) => this.statDocument(p), (p) => path.join(this.root, ...p.segments));
    this.trash = options.trash === false ? undefined : new FilesystemTrash(path.join(dataDir, 'trash'), path.join(dataDir, 'versions'), {
      resolve: (p) => this.resolve(p),
      ensureParent: (p) => this.ensureParent(p),
      locks: this.locks,
    });
  }

  async init(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.mkdir(this.staging, { recursive: true });
    await this.versions?.init();
    await this.trash?.init();
  }

  /**
   * The absolute file name of a path. No component may be a symbolic link, so
   * nothing outside the data folder is ever reached through one. An existing
   * path is checked with one realpath (one trip to libuv's thread pool, where a
   * walk took one lstat per segment: every request of a document paid for them
   * before its cache could answer); only when that does not answer the plain
   * path itself (a link on the way, a path not there yet) does the walk say which.
   */
  private async resolve(p: StoredPath): Promise<string> {
    return (await this.locate(p)).file;
  }

  /**
   * resolve, and what it learnt on the way: `absent` when the walk found every folder of the path (no link) and
   * nothing at its last segment (lstat answers ENOENT there only when the segment before is a folder). A write of a
   * new document then needs no stat of the target, no second resolve of its folder and no mkdir (four trips to the
   * thread pool of an upload's twenty-two, issue 38).
   */
  private async locate(p: StoredPath): Promise<{ file: string; absent: boolean }> {
    const full = path.join(this.root, ...p.segments);
    if (full !== this.root && !full.startsWith(this.root + path.sep)) throw new ServiceError('INVALID_PATH');
    try {
      this.realRoot ??= await fs.realpath(this.root);
      if ((await fs.realpath(full)) === path.join(this.realRoot, ...p.segments)) return { file: full, absent: false };
    } catch {
      // Not there (yet), or not readable as a path: the walk tells which segment, and refuses a link.
    }
    return { file: full, absent: await this.walk(p) };
  }

  /** Refuses a link on the way; answers whether the path stopped at its last segment (see locate). */
  private async walk(p: StoredPath): Promise<boolean> {
    let current = this.root;
    for (const [index, segment] of p.segments.entries()) {
      current = path.join(current, segment);
      try {
        const st = await fs.lstat(current);
        if (st.isSymbolicLink()) throw new ServiceError('INVALID_PATH', 'The path goes through a symbolic link');
      } catch (err) {
        if (errno(err) === 'ENOENT') return index === p.segments.length - 1;
        if (errno(err) === 'ENOTDIR') return false;
        throw err;
      }
    }
    return false;
  }

  private cachedTag(file: string, st: Stats): string | undefined {
    const c = this.tags.get(file);
    return c && c.dev === st.dev && c.ino === st.ino && c.size === st.size && c.mtimeMs === st.mtimeMs ? c.etag : undefined;
  }

  private rememberTag(file: string, st: Stats, etag: string): void {
    if (this.tags.size > 100_000) this.tags.clear();
    this.tags.set(file, { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, etag });
  }

  /**
   * The stat of a document this store has resolved, hashed or written before, when one stat shows that very file
   * unchanged (same device, inode, size and mtime as when it was tagged): a cached read (a model by ETag) then costs
   * one trip to the thread pool instead of a resolve and a stat. A tag is only kept after a resolve that found no
   * link, so a hit is a file that was checked to be inside the data folder; anything else (not tagged, changed,
   * missing, not a file) goes the whole way (resolve, which refuses links, and stat).
   */
  private async knownStat(p: StoredPath): Promise<DocumentStat | undefined> {
    const known = await this.knownFile(p);
    return known && { size: known.st.size, modified: known.st.mtime, etag: known.etag };
  }

  /** knownStat's look: the file, its stat and its ETag, when one stat shows the tagged file unchanged. */
  private async knownFile(p: StoredPath): Promise<{ file: string; st: Stats; etag: string } | undefined> {
    const file = path.join(this.root, ...p.segments);
    if (!this.tags.has(file)) return undefined;
    let st: Stats;
    try {
      st = await this.freshStats.stat(file);
    } catch {
      return undefined;
    }
    const etag = st.isFile() ? this.cachedTag(file, st) : undefined;
    return etag === undefined ? undefined : { file, st, etag };
  }

  async statDocument(p: StoredPath): Promise<DocumentStat | null> {
    const known = await this.knownStat(p);
    if (known) return known;
    const file = await this.resolve(p);
    let st: Stats;
    try {
      st = await fs.stat(file);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return null;
      throw err;
    }
    if (!st.isFile()) return null;
    let etag = this.cachedTag(file, st);
    if (!etag) {
      etag = await etagOfFile(file);
      this.rememberTag(file, st, etag);
    }
    return { size: st.size, modified: st.mtime, etag };
  }

  private async openForRead(p: StoredPath): Promise<{ file: string; handle: fs.FileHandle; st: Stats }> {
    const file = await this.resolve(p);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (err) {
      if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errno(err) ?? '')) {
        throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
      }
      throw err;
    }
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    }
    return { file, handle, st };
  }

  async openDocument(p: StoredPath): Promise<OpenDocument> {
    const { file, handle, st } = await this.openForRead(p);
    try {
      let etag = this.cachedTag(file, st);
      if (!etag) {
        const hash = createHash('sha256');
        await pipeline(handle.createReadStream({ start: 0, autoClose: false }), hash);
        etag = etagOfDigest(hash.digest());
        this.rememberTag(file, st, etag);
      }
      return { ...openLocalFile(handle, st.size), stat: { size: st.size, modified: st.mtime, etag } };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  private async ensureParent(p: StoredPath): Promise<string> {
    const parent = await this.resolve(p.parent);
    try {
      await fs.mkdir(parent, { recursive: true });
    } catch (err) {
      if (errno(err) === 'EEXIST' || errno(err) === 'ENOTDIR') {
        throw new ServiceError('PATH_CONFLICT', 'A folder on the path is a document');
      }
      throw err;
    }
    return parent;
  }

  /**
   * Checks If-Match against the document at `file`; answers whether it exists and, when `tagged`, its ETag
   * (the version a write replaces: usually known from the read before, else hashed) and size.
   */
  private async checkPrecondition(file: string, ifMatch: string | undefined, tagged = false): Promise<{ existed: boolean; etag: string | undefined; size?: number }> {
    let st: Stats | undefined;
    try {
      st = await fs.stat(file);
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
    }
    if (st && !st.isFile()) throw new ServiceError('PATH_CONFLICT', 'A folder exists at this path');
    const current = st && (ifMatch !== undefined || tagged) ? (this.cachedTag(file, st) ?? (await etagOfFile(file))) : undefined;
    if (ifMatch !== undefined && !matchesEtag(ifMatch, current)) throw new ServiceError('PRECONDITION_FAILED');
    return { existed: st !== undefined, etag: current, ...(st ? { size: st.size } : {}) };
  }

  /** checkPrecondition for a document knownFile found: its stat and ETag are known. */
  private checkKnown(known: { st: Stats; etag: string }, ifMatch: string | undefined): { existed: boolean; etag: string | undefined; size?: number } {
    if (ifMatch !== undefined && !matchesEtag(ifMatch, known.etag)) throw new ServiceError('PRECONDITION_FAILED');
    return { existed: true, etag: known.etag, size: known.st.size };
  }

  /** checkPrecondition for a path the walk found missing (locate's `absent`): nothing to stat. */
  private checkAbsent(ifMatch: string | undefined): { existed: boolean; etag: string | undefined; size?: number } {
    if (ifMatch !== undefined && !matchesEtag(ifMatch, undefined)) throw new ServiceError('PRECONDITION_FAILED');
    return { existed: false, etag: undefined };
  }

  async writeDocument(
    p: StoredPath,
    content: Buffer | Uint8Array | StagedUpload,
    options: WriteOptions,
  ): Promise<WriteResult> {
    if (!p.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    if (!(content instanceof StagedFile || content instanceof Uint8Array)) throw new TypeError('Staged uploads must come from this store');
    // Checked before anything is created, so that a refused write leaves no folder behind (callers hold the document's lock).
    // A document this store has tagged (read or written before: an in-place change read it under the same lock) and
    // that one stat shows unchanged is the file resolved then, as for a read (knownStat): the stat the check needs is
    // all it costs, with no second resolve of its path.
    const known = options.conflict === 'overwrite' ? await this.knownFile(p) : undefined;
    const { file: resolved, absent } = known ? { file: known.file, absent: false } : await this.locate(p);
    const { existed, etag: before, size: beforeSize } = known
      ? this.checkKnown(known, options.ifMatch)
      : absent
        ? this.checkAbsent(options.ifMatch)
        : await this.checkPrecondition(resolved, options.ifMatch, options.conflict === 'overwrite');
    // A document found there (resolved without a link, a file), or a name found missing in its folder, has its folder:
    // no second resolve and mkdir for it.
    // The replaced document's version index is read while the content is written and hashed (prepare needs it first).
    const lookAhead = this.versions && options.conflict === 'overwrite' && existed && before !== undefined ? this.versions.lookAhead(p) : undefined;
    const folder = existed || absent ? path.dirname(resolved) : await this.ensureParent(p);
    let source: string;
    let etag: string;
    const size = content instanceof StagedFile ? content.size : content.length;
    // Whether the content begins with the bytes of the document it replaces (an appended update: engine/core/save.ts):
    // that version is then kept as the first bytes of this write's (filesystem-versions.ts, "prefix"). Proven by the
    // ETag of as many first bytes, hashed with the content's own, so the replaced file is not read.
    const prefixOf = this.versions && options.conflict === 'overwrite' && before !== undefined && beforeSize !== undefined && beforeSize > 0 && beforeSize < size ? beforeSize : undefined;
    let prefix = false;
    // A write from memory's write and fsync of its temporary file, running while the version is prepared.
    let contentDurable: Promise<void> | undefined;
    if (content instanceof StagedFile) {
      source = content.file;
      etag = content.etag;
      if (prefixOf !== undefined) prefix = (await etagOfFile(source, prefixOf)) === before;
    } else {
      source = path.join(folder, TEMP_PREFIX + randomBytes(8).toString('hex'));
      // The file is made first (a version links it as its blob), then written and fsynced by the thread pool while the
      // content is hashed (a slice per turn of the loop) and the version is prepared: its record, link and the fsync of
      // its folder need the ETag, not the bytes on disk. The rename below waits for the fsync (contentDurable).
      const handle = await fs.open(source, 'wx', 0o640);
      contentDurable = writeAndClose(handle, content);
      contentDurable.catch(() => undefined); // awaited before the rename, or below when the hash fails
      const hashed = prefixOf !== undefined ? etagsOfContent(content, prefixOf) : etagOfContent(content).then((tag) => ({ etag: tag, prefix: undefined }));
      const tags = await hashed.catch(async (err: unknown) => {
        await contentDurable!.catch(() => undefined);
        await removeFile(source);
        throw err;
      });
      etag = tags.etag;
      prefix = tags.prefix === before;
    }
    // Whether `source` is still there to remove: a rename took it away.
    let moved = false;
    // The version this write keeps (versions on): prepared before the commit, committed after it (filesystem-versions.ts).
    let version: PendingVersion | undefined;
    const provenance = options.provenance ?? { by: null, operation: 'write' };
    try {
      let target = p;
      let file = resolved;
      // The content on disk before its name commits it: a staged upload's fsync ran while it was checked, a write from
      // memory's while its version was prepared.
      const durable = () => (content instanceof StagedFile ? content.synced() : contentDurable!);
      if (options.conflict === 'overwrite') {
        const verify = () => this.locks.verify(p.toString());
        version = await this.versions?.prepare(target, source, { etag, size }, provenance, existed && before !== undefined ? { file, etag: before, prefix, lookAhead } : null, verify, options.purgeEarlierVersions === true);
        await durable();
        // Last thing before the commit: a writer whose document lock ran out (another may have written since) stops here.
        await this.locks.verify(p.toString());
        await this.moveInto(source, file, true);
        moved = true;
      } else {
        for (let attempt = 0; ; attempt++) {
          version = await this.versions?.prepare(target, source, { etag, size }, provenance, null, async () => {});
          await durable();
          try {
            await this.locks.verify(p.toString());
            await this.moveInto(source, file, false);
            break;
          } catch (err) {
            await version?.abort();
            version = undefined;
            if (errno(err) !== 'EEXIST') throw err;
            if (options.conflict === 'fail' || attempt >= 20) {
              throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
            }
            target = withRandomSuffix(p);
            file = await this.resolve(target);
          }
        }
      }
      // The written file's stat does not wait for the folder's fsync (one trip to the thread pool less on every write).
      const [, st] = await Promise.all([syncFolder(folder), fs.stat(file)]);
      await version?.commit();
      this.rememberTag(file, st, etag);
      const purgedVersions = options.purgeEarlierVersions && this.versions ? await this.versions.purgeEarlier(target, version?.record) : undefined;
      const created = options.conflict === 'overwrite' ? !existed : true;
      return {
        path: target,
        created,
        stat: { size: st.size, modified: st.mtime, etag },
        record: writeRecord(options, options.conflict === 'overwrite' ? (before ?? null) : null),
        ...(version ? { version: version.record } : {}),
        ...(purgedVersions !== undefined ? { purgedVersions } : {}),
        // A purge leaves no version before this one.
        ...(version?.predecessor !== undefined ? { predecessor: options.purgeEarlierVersions ? null : version.predecessor } : {}),
      };
    } catch (err) {
      // A write that did not commit leaves no version (a pending record whose rename happened is committed above).
      if (!moved) await version?.abort();
      throw err;
    } finally {
      if (!moved) {
        // Its descriptor closed first (the write from memory may still be under way when a check before it failed).
        await contentDurable?.catch(() => undefined);
        await removeFile(source);
      }
      if (content instanceof StagedFile) content.movedAway();
    }
  }

  /** rename() replaces atomically; link() refuses an existing target atomically. */
  private async moveInto(source: string, target: string, replace: boolean): Promise<void> {
    if (replace) {
      await fs.rename(source, target);
    } else {
      await fs.link(source, target);
    }
  }

  async deleteDocument(p: StoredPath, ifMatch?: string, by: string | null = null): Promise<void> {
    const file = await this.resolve(p);
    const { existed } = await this.checkPrecondition(file, ifMatch);
    if (!existed) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    await this.locks.verify(p.toString());
    if (this.trash) {
      await this.trash.put('document', p, file, by);
    } else {
      // Its versions first: a crash between leaves the document without versions, never versions that a new document
      // at this path would inherit.
      await this.versions?.removeAll(p);
      await fs.unlink(file);
    }
    this.tags.delete(file);
    await syncFolder(path.dirname(file));
  }

  /**
   * A document moves by two renames (no copy): its versions folder first, then the document (the commit). A crash
   * between leaves the document where it was and its versions at the new path with no document, which recover()
   * removes as it removes the versions of any document that is gone: the history is lost, never the content, and no
   * document inherits versions not its own. A document replaced at `to` (overwrite) goes first, as deleteDocument.
   */
  async moveDocument(from: StoredPath, to: StoredPath, options: WriteOptions): Promise<WriteResult> {
    if (!to.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    if (from.equals(to)) throw new ServiceError('MOVE_INTO_ITSELF', 'The document is already at this path');
    const source = await this.resolve(from);
    const { existed, etag } = await this.checkPrecondition(source, options.ifMatch, true);
    if (!existed || etag === undefined) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${from.toString()}`);
    let target = to;
    let file = await this.resolve(target);
    let there = await this.checkPrecondition(file, undefined, options.conflict === 'overwrite');
    for (let attempt = 0; options.conflict !== 'overwrite' && there.existed; attempt++) {
      if (options.conflict === 'fail' || attempt >= 20) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
      target = withRandomSuffix(to);
      file = await this.resolve(target);
      there = await this.checkPrecondition(file, undefined);
    }
    await this.ensureParent(target);
    await this.locks.verify(from.toString());
    await this.locks.verify(target.toString());
    const replaced = there.existed ? (there.etag ?? null) : null;
    if (there.existed) {
      if (!(this.trash && (await this.trash.put('document', target, file, options.provenance?.by ?? null)))) {
        await this.versions?.removeAll(target);
        await fs.unlink(file);
      }
      this.tags.delete(file);
    }
    await this.moveVersions(from, target);
    await fs.rename(source, file);
    const cached = this.tags.get(source);
    this.tags.delete(source);
    if (cached) this.tags.set(file, cached); // same inode and mtime: the tag holds
    await syncFolder(path.dirname(source));
    await syncFolder(path.dirname(file));
    const st = await fs.stat(file);
    return { path: target, created: replaced === null, stat: { size: st.size, modified: st.mtime, etag }, record: writeRecord(options, replaced) };
  }

  /** A folder moves as a document does (moveDocument): its versions tree, then the folder, each by one rename. */
  async moveFolder(from: StoredPath, to: StoredPath): Promise<void> {
    if (from.isRoot || to.isWithin(from)) throw new ServiceError('MOVE_INTO_ITSELF', 'A folder cannot be moved into itself');
    const dir = await this.resolve(from);
    if (!(await this.statFolder(from))) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${from.toString()}`);
    const target = await this.resolve(to);
    const there = await fs.lstat(target).catch((err: unknown) => {
      if (errno(err) === 'ENOENT') return undefined;
      if (errno(err) === 'ENOTDIR') throw new ServiceError('PATH_CONFLICT', 'A folder on the path is a document');
      throw err;
    });
    if (there?.isDirectory()) throw new ServiceError('ALREADY_EXISTS', `A folder exists at /${to.toString()}`);
    if (there) throw new ServiceError('PATH_CONFLICT', 'A document exists at this path');
    await this.ensureParent(to);
    await this.moveVersions(from, to);
    await fs.rename(dir, target);
    for (const key of this.tags.keys()) if (key.startsWith(dir + path.sep)) this.tags.delete(key);
    await syncFolder(path.dirname(dir));
    await syncFolder(path.dirname(target));
  }

  /** Renames the versions kept below `from` to `to` (nothing when there are none); versions left at `to` by no document (a crash's) go first. */
  private async moveVersions(from: StoredPath, to: StoredPath): Promise<void> {
    const source = path.join(this.versionsRoot, ...from.segments);
    const target = path.join(this.versionsRoot, ...to.segments);
    await removeTree(target, this.versionsRoot);
    try {
      await fs.lstat(source);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return; // no versions kept (or versions off, the root absent)
      throw err;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source, target);
    await syncFolder(path.dirname(source));
    await syncFolder(path.dirname(target));
  }

  stage(source: Readable, limit: number): Promise<StagedUpload> {
    return stageToFile(this.staging, source, limit, { syncLater: true });
  }

  async statFolder(p: StoredPath): Promise<{ modified: Date } | null> {
    const dir = await this.resolve(p);
    try {
      const st = await fs.stat(dir);
      return st.isDirectory() ? { modified: st.mtime } : null;
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return null;
      throw err;
    }
  }

  async makeFolder(p: StoredPath): Promise<{ created: boolean }> {
    const dir = await this.resolve(p);
    if (await this.statFolder(p)) return { created: false };
    try {
      await fs.mkdir(dir, { recursive: true });
    } catch (err) {
      if (errno(err) === 'EEXIST' || errno(err) === 'ENOTDIR') {
        throw new ServiceError('PATH_CONFLICT', 'A document exists on this path');
      }
      throw err;
    }
    await syncFolder(path.dirname(dir));
    return { created: true };
  }

  async listFolder(p: StoredPath): Promise<FolderEntry[]> {
    const dir = await this.resolve(p);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (err) {
      if (['ENOENT', 'ENOTDIR'].includes(errno(err) ?? '')) {
        throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
      }
      throw err;
    }
    const entries: FolderEntry[] = [];
    for (const name of names.sort()) {
      if (name.startsWith('.')) continue;
      let st: Stats;
      try {
        st = await fs.lstat(path.join(dir, name));
      } catch {
        continue; // removed meanwhile
      }
      if (st.isDirectory()) entries.push({ name, type: 'folder', modified: st.mtime });
      else if (st.isFile() && /\.pdf$/i.test(name)) entries.push({ name, type: 'document', size: st.size, modified: st.mtime });
    }
    return entries;
  }

  async deleteFolder(p: StoredPath, recursive: boolean, by: string | null = null): Promise<void> {
    if (p.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    const dir = await this.resolve(p);
    if (!(await this.statFolder(p))) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    if (recursive) {
      // Into the trash in one rename when it holds documents (put answers null for a folder of none: erased).
      if (!(this.trash && (await this.trash.put('folder', p, dir, by)))) {
        await this.versions?.removeAll(p);
        await fs.rm(dir, { recursive: true });
      }
    } else {
      const visible = await this.listFolder(p);
      if (visible.length > 0) throw new ServiceError('FOLDER_NOT_EMPTY', 'The folder is not empty; use ?recursive=true');
      await this.versions?.removeAll(p); // only versions of documents gone (none, as documents take theirs along)
      await fs.rm(dir, { recursive: true }); // only leftovers of interrupted writes remain in it
    }
    for (const key of this.tags.keys()) if (key.startsWith(dir + path.sep)) this.tags.delete(key);
    await syncFolder(path.dirname(dir));
  }

  lock(p: StoredPath): Promise<Release> {
    return this.locks.acquire(p.toString());
  }

  async recover(): Promise<void> {
    await fs.rm(this.staging, { recursive: true, force: true });
    await fs.mkdir(this.staging, { recursive: true });
    const sweep = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await sweep(full);
        else if (entry.name.startsWith(TEMP_PREFIX)) await fs.rm(full, { force: true });
      }
    };
    await sweep(this.root);
    // Before the versions: a delete or restore rolled back puts versions back beside their document, which the
    // versions' recover() would otherwise remove as versions of a document gone.
    await this.trash?.recover();
    // After the documents' leftovers: a pending version is committed when its bytes are the document's.
    await this.versions?.recover();
  }
}

/**
 * Stats of one file asked for at the same time, shared, each still made after its asker arrived: a request joins the
 * stat queued to start when the one under way ends, never the one under way (it may have looked before a write the
 * request must see), so another instance's write on a shared data folder is seen as at once as with a stat per request.
 * Under concurrent reads of one document (the bench's 32 connections on one listing) most requests then share a trip to
 * libuv's thread pool instead of taking one each: a trip was about six futex calls and two thread wake-ups, the largest
 * system-time cost of a warm cached read beyond the HTTP layer (bench/results/annlist-2026-11-30.md).
 */
/** A file's stat under way, with the askers who arrived during it and wait for the next one. */
interface StatFlight {
  queued?: { resolve: (st: Stats) => void; reject: (err: unknown) => void }[];
}

export class SharedStats {
  private readonly running = new Map<string, StatFlight>();

  stat(file: string): Promise<Stats> {
    const current = this.running.get(file);
    if (current) return new Promise((resolve, reject) => (current.queued ??= []).push({ resolve, reject }));
    return this.start(file);
  }

  private start(file: string): Promise<Stats> {
    const flight: StatFlight = {};
    this.running.set(file, flight);
    const stat = fs.stat(file);
    const next = () => {
      const queued = flight.queued;
      if (!queued) {
        this.running.delete(file);
        return;
      }
      // Everyone queued arrived while the last stat was under way: one stat started now is after each of them.
      this.start(file).then(
        (st) => queued.forEach((q) => q.resolve(st)),
        (err: unknown) => queued.forEach((q) => q.reject(err)),
      );
    };
    stat.then(next, next);
    return stat;
  }
}
