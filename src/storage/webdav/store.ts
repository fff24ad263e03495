import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ServiceError } from '../../errors.js';
import { KeyedLock } from '../keyed-lock.js';
import { LocalLocks, type LockProvider } from '../locks.js';
import { copyToFile, etagOfStart, openLocalFile, spoolName, StagedFile, stageToFile } from '../local-files.js';
import { StoredPath } from '../paths.js';
import { etagOfContent, matchesEtag, UNNAMED_WRITE, withRandomSuffix, writeRecord } from '../store.js';
import { OrderedIds } from '../version-records.js';
import type { DocumentStat, DocumentStore, DocumentStores, FolderEntry, OpenDocument, Release, StagedUpload, StoreUser, WriteOptions, WriteResult } from '../store.js';
import { DownloadCache } from '../download-cache.js';
import { DavClient, dmsFailure, opaque, stillAt, unexpected, versionOf, type DavCredentials, type DavResource } from './client.js';
import { WebDavTrash } from './trash.js';
import { RecordMemo, WebDavVersions, type PendingVersion } from './versions.js';

/** Names of uploads not yet moved into place; they start with a dot, so listings never show them. */
const TEMP_PREFIX = '.pdfservice-tmp-';
/** A temporary upload older than this is a leftover of an interrupted write, removed when a listing meets it. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** How many names a `unique` write tries before it gives up (409). */
const UNIQUE_ATTEMPTS = 20;
/**
 * How many times a write without If-Match reads again a document changed under it before it answers 412 (versions
 * on). Commits of one document take turns in a process (WebDavBackend.commits), so each round one writer wins.
 */
const RACED_ATTEMPTS = 20;

/** What a write read of the document it replaces (WebDavStore.place), before its commit. */
interface ReadForWrite {
  before: DavResource | null;
  /** Our tag of it (null: no document, or a write that does not overwrite). */
  replaced: string | null;
  /** The write's content begins with its bytes (an appended update: its version is kept by a pointer). */
  prefix: boolean;
}

interface KnownTag {
  /** The DMS's validator of the version (its ETag, size and time), which our tag was computed for. */
  version: string;
  etag: string;
}

/** The If header for a change under a commit lock: the lock's token and the version read, both required. */
const lockedAt = (url: string, token: string, davEtag: string | undefined): Record<string, string> => ({ if: `<${url}> (${token}${davEtag ? ` [${davEtag}]` : ''})` });

/** How long a commit lock outlives an instance that died holding it: a commit is one MOVE or DELETE. */
const COMMIT_LOCK_SECONDS = 30;
/**
 * How long a commit waits by default for another client's lock on the document before answering 423 DMS_LOCKED
 * (PDFSERVICE_WEBDAV_LOCK_WAIT_MS, WebDavBackend.lockWaitMs). The wait is a bound, not a sleep: the LOCK is tried
 * again every 20-250 ms, so a lock released meanwhile lets the commit go on at once.
 */
const COMMIT_LOCK_WAIT_MS = 3000;
/**
 * Up to this size, a write's commit (the LOCK, its checks, the versions' requests before the MOVE) starts with its
 * upload (WebDavStore.place) and holds the LOCK while the upload ends: an upload of 8 MiB ends well inside
 * COMMIT_LOCK_WAIT_MS on a link of 25 Mbit/s or more. A larger one's commit starts once its body is on the DMS.
 */
const COMMIT_WITH_UPLOAD_BYTES = 8 * 1024 * 1024;

/**
 * How long a read that found no document waits while the DMS shows a replace of it in progress (another instance's
 * MOVE onto it under the commit LOCK: mod_dav has removed the target and not yet renamed onto it), then answers what
 * is there. The MOVE is one rename; the bound is for a DMS slowed down, well inside the LOCK's COMMIT_LOCK_SECONDS.
 */
const REPLACE_WAIT_MS = 3000;
/** How many times a read that found no document reads again because a replace of it was in progress. */
const REPLACE_READS = 8;
/** Of those, how many after a 403 (Apache's GET in the gap: readThroughReplace). */
const REPLACE_FORBIDDEN_READS = 2;

/**
 * What mod_dav shows of a document in the middle of a MOVE onto it under a LOCK: the lock, on a resource without
 * content (a lock-null resource: no entity tag, no length). Its GET is 404.
 */
const replacing = (r: DavResource) => r.locked === true && !r.collection && r.davEtag === undefined && r.size === undefined;

/**
 * The MOVEs onto documents this process has in flight, by target URL. mod_dav's MOVE onto an existing document
 * removes it, then renames onto it: a read in between finds nothing, though the document is there before and after.
 * A read that found nothing asks whether such a MOVE overlapped it (WebDavStore.readThroughReplace).
 */
class Replaces {
  private started = 0;
  private readonly running = new Map<string, Set<Promise<void>>>();
  /** The number of the last MOVE started onto each URL (forgotten beyond 10,000 URLs: the DMS's lock then says). */
  private readonly lastStarted = new Map<string, number>();

  /** A mark to give overlapped() after a read begun now. */
  mark(): number {
    return this.started;
  }

  async during<T>(url: string, move: () => Promise<T>): Promise<T> {
    if (this.lastStarted.size > 10_000) this.lastStarted.clear();
    this.lastStarted.set(url, ++this.started);
    const moving = move();
    const settled = moving.then(
      () => undefined,
      () => undefined,
    );
    const set = this.running.get(url) ?? new Set();
    set.add(settled);
    this.running.set(url, set);
    try {
      return await moving;
    } finally {
      set.delete(settled);
      if (set.size === 0 && this.running.get(url) === set) this.running.delete(url);
    }
  }

  /** Whether a MOVE onto `url` started after `mark` or is still running (then it is waited for). */
  async overlapped(url: string, mark: number): Promise<boolean> {
    const set = this.running.get(url);
    if (set) {
      await Promise.all([...set]);
      return true;
    }
    return (this.lastStarted.get(url) ?? 0) > mark;
  }
}

/**
 * What the stores of every user share: the connection pool, the local
 * staging and spool folders, the locks and the tags already computed. One
 * per service; `forUser` makes the store that acts as a user.
 */
export class WebDavBackend implements DocumentStores {
  private readonly staging: string;
  private readonly spool: string;
  readonly locks = new KeyedLock();
  /** Serializes the commit (the conditional MOVE) of each target in this process: mod_dav_fs checks Overwrite: F and renames in two steps. */
  readonly commits = new KeyedLock();
  /** The MOVEs onto documents in flight here, which a read that finds no document waits for (readThroughReplace). */
  readonly replaces = new Replaces();
  /**
   * Our tags (content hashes) by URL, for the DMS version they were computed
   * for. Another user's request may use one only after a PROPFIND the DMS
   * answered for that user, so the DMS still decides who sees what.
   */
  private readonly tags = new Map<string, KnownTag>();
  /**
   * The version records read, by URL, for the DMS version read (versions.ts readNamed): a listing reads again only the
   * records changed since. As with the tags, a user's request uses one only after a PROPFIND the DMS answered for
   * that user showed the record at that version.
   */
  readonly versionRecords = new RecordMemo();
  /**
   * The last version of each document downloaded or written, kept locally
   * for a while so that the next read of it needs no download; served only
   * after the DMS confirmed it for the requesting user (openDocument).
   */
  readonly downloads: DownloadCache;

  constructor(
    readonly client: DavClient,
    dataDir: string,
    /** Mapped mode: the DMS account each service user acts as. */
    private readonly accounts?: { credentialsOf(user: string): DavCredentials | undefined },
    /** Keep a version of every write (PDFSERVICE_VERSIONS; versions.ts). */
    readonly keepsVersions = false,
    /** Deletes move to the trash (PDFSERVICE_TRASH; trash.ts). */
    readonly keepsTrash = false,
    /** PDFSERVICE_TRASH_MAX_AGE: a listing purges the entries it meets deleted longer ago (0: kept until purged). */
    readonly trashMaxAgeMs = 0,
    /**
     * The locks of trash entries (restore, purge, expiry, recovery: trash.ts), whichever user's store acts: in the
     * process, or with Redis (RedisLocks) across the instances on one DMS, as the other stores' entries. The DMS cannot
     * lock an entry for us (a WebDAV LOCK is per resource; the entry's MOVEs span several).
     */
    readonly trashLocks: Pick<LockProvider, 'acquire'> = new LocalLocks(),
    /** PDFSERVICE_WEBDAV_LOCK_WAIT_MS: how long a commit waits for another client's lock (commitLock). */
    readonly lockWaitMs = COMMIT_LOCK_WAIT_MS,
  ) {
    this.staging = path.join(dataDir, 'staging');
    this.spool = path.join(dataDir, 'spool');
    this.downloads = new DownloadCache(path.join(dataDir, 'kept'));
  }

  async init(): Promise<void> {
    await fs.mkdir(this.staging, { recursive: true });
    await fs.mkdir(this.spool, { recursive: true });
    await this.downloads.init();
  }

  /**
   * The store acting as `user`: with the credentials they logged in with
   * (passthrough), else the DMS account mapped to them (mapped); with
   * neither, the DMS refuses (403 DMS_FORBIDDEN).
   */
  for(user: StoreUser | null): WebDavStore {
    return this.forUser(user?.credentials ?? (user ? this.accounts?.credentialsOf(user.name) : undefined));
  }

  forUser(credentials: DavCredentials | undefined): WebDavStore {
    return new WebDavStore(this, credentials);
  }

  /** The version ids this process gives out (ordered, version-records.ts). */
  private readonly versionIds = new OrderedIds();

  /** A version id (16 digits, ordered by time) after `after` and after every one given out here. */
  nextVersionId(after: string | undefined): string {
    return this.versionIds.next(after);
  }

  knownTag(url: string, r: DavResource): string | undefined {
    // Written by this service (here or in another instance): the tag it stored, if the DMS version is still the one it
    // stored it for. First: the property is the file's own, while the DMS version (mod_dav_fs: size and modification
    // time, by the kernel's coarse clock) is shared by two files of one size written in the same few milliseconds.
    if (r.own.etag && r.own.davetag && r.davEtag && opaque(r.own.davetag) === opaque(r.davEtag)) return r.own.etag;
    const known = this.tags.get(url);
    if (known && known.version === versionOf(r)) return known.etag;
    return undefined;
  }

  rememberTag(url: string, r: { davEtag?: string | undefined; size?: number | undefined; modified: Date }, etag: string): void {
    if (this.tags.size > 100_000) this.tags.clear();
    this.tags.set(url, { version: versionOf(r), etag });
  }

  /** Forgets what is known of the documents at and below a URL (deleted). */
  async forget(urlPrefix: string): Promise<void> {
    for (const key of this.tags.keys()) if (key.startsWith(urlPrefix)) this.tags.delete(key);
    await this.downloads.dropBelow(urlPrefix);
  }

  stage(source: Readable, limit: number): Promise<StagedFile> {
    return stageToFile(this.staging, source, limit);
  }

  spoolFile(): string {
    return spoolName(this.spool);
  }

  /** Local leftovers of a previous run: staged uploads, spooled downloads and kept versions. */
  async clearLocal(): Promise<void> {
    await this.downloads.clear();
    for (const dir of [this.staging, this.spool]) {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.mkdir(dir, { recursive: true });
    }
  }
}

/**
 * Documents on a WebDAV server, as one user: every request carries that
 * user's credentials, so the server decides what the user sees and changes
 * (its 401 and 403 are 403 DMS_FORBIDDEN). Folders are collections. A write
 * uploads to a temporary name in the target collection, records the content
 * hash as a dead property and MOVEs it into place, so the target is never
 * half-written; reads are spooled to a local file the engine reads, hashed
 * on the way, so a version's tag is its content hash as with every store.
 * The last version read or written of a document is kept locally a while
 * (DownloadCache), and a read of it asks the DMS only whether it is still
 * current for this user (a conditional GET), so a version is downloaded once.
 */
export class WebDavStore implements DocumentStore {
  private readonly client: DavClient;
  /** The versions kept of every write, in a hidden collection beside each document (versions.ts); undefined with versions off. */
  readonly versions: WebDavVersions | undefined;
  /** The trash deletes move documents and folders into, beside them in their folder (trash.ts); undefined with the trash off: deletes erase. */
  readonly trash: WebDavTrash | undefined;

  constructor(
    private readonly backend: WebDavBackend,
    private readonly user: DavCredentials | undefined,
  ) {
    this.client = backend.client;
    this.versions = backend.keepsVersions
      ? new WebDavVersions({
          client: this.client,
          user,
          statDocument: (p) => this.statDocument(p),
          openDocument: (p) => this.openDocument(p),
          openUrl: (url, notFound) => this.openUrl(url, notFound),
          openStart: (url, bytes) => this.openStart(url, bytes),
          forget: (url) => backend.forget(url),
          nextId: (after) => backend.nextVersionId(after),
          records: backend.versionRecords,
          commitLocked: (p, change, wait) => this.commitLocked(p, change, wait),
          writeCopy: (p, from, content, options) => this.writeCopy(p, from, content, options),
          writeDocument: (p, content, etag, options) => this.writeDocument(p, content, options, etag),
        })
      : undefined;
    this.trash = backend.keepsTrash
      ? new WebDavTrash({
          client: this.client,
          user,
          makeFolder: (p) => this.ensureFolder(p),
          forget: (url) => backend.forget(url),
          versionCount: async (p) => (this.versions ? (await this.versions.list(p, { offset: 0, limit: 1 })).total : 0),
          locks: backend.trashLocks,
          maxAgeMs: backend.trashMaxAgeMs,
        })
      : undefined;
  }

  private docUrl(p: StoredPath): string {
    return this.client.url(p.segments, false);
  }

  private folderUrl(p: StoredPath): string {
    return this.client.url(p.segments, true);
  }

  private async propfindOne(url: string, withLocks = false): Promise<DavResource | null> {
    const found = await this.client.propfind(url, this.user, 0, withLocks);
    return found?.[0] ?? null;
  }

  /**
   * What is at a document's URL (a collection too), as statDocument and the writes see it: never nothing because a
   * write is replacing the document at that moment (readThroughReplace); null when nothing is there.
   */
  private documentAt(url: string): Promise<DavResource | null> {
    return this.readThroughReplace(url, async () => {
      const r = await this.propfindOne(url, true);
      return r && !replacing(r) ? r : null;
    });
  }

  /**
   * `read` of a document URL (null: the DMS has nothing there), read again while a write replaces the document, so that
   * a reader never sees a document that exists before and after a write vanish during it: mod_dav's MOVE onto an
   * existing target removes it before it renames onto it, and reads take no lock. In this process, a read that found
   * nothing while a MOVE onto the URL ran (or began since the read did) waits for the MOVE and reads again. Across
   * instances, a write that replaces a document holds its commit LOCK across the MOVE (moveIntoPlace), and mod_dav
   * shows the locked URL as a lock-null resource until the rename: seen, the read waits (REPLACE_WAIT_MS at most)
   * and reads again once a document is there. At most REPLACE_READS reads; then what is there is the answer. A
   * document truly absent costs one PROPFIND more; a GET the DMS refuses (403) while it lets the user see the
   * document, two GETs and PROPFINDs more.
   */
  private async readThroughReplace<T>(url: string, read: () => Promise<T | null>): Promise<T | null> {
    let forbidden = 0;
    for (let reads = 1; ; reads++) {
      const mark = this.backend.replaces.mark();
      let found: T | null;
      try {
        found = await read();
      } catch (err) {
        // Apache maps a GET to the file, and the MOVE removes it before the file is opened: 403 ("file permissions
        // deny server access", ENOENT in its error log). Read again (twice at most: a 403 that stays is the DMS's
        // refusal) when a replace overlapped the read or a document is there.
        const gap = err instanceof ServiceError && err.code === 'DMS_FORBIDDEN' && err.extra?.dmsStatus === 403;
        if (!gap || ++forbidden > REPLACE_FORBIDDEN_READS || reads >= REPLACE_READS) throw err;
        if (!(await this.backend.replaces.overlapped(url, mark)) && !(await this.placedAfterLock(url))) throw err;
        continue;
      }
      if (found !== null || reads >= REPLACE_READS) return found;
      if (!(await this.backend.replaces.overlapped(url, mark)) && !(await this.placedAfterLock(url))) return null;
    }
  }

  /** After a read found no document at `url`: whether one is there once a replace the DMS shows in progress (lock-null) has ended. */
  private async placedAfterLock(url: string): Promise<boolean> {
    const deadline = Date.now() + REPLACE_WAIT_MS;
    for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
      const r = await this.propfindOne(url, true);
      if (!r || !replacing(r)) return r !== null;
      if (Date.now() + delay > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** Our tag of a document version: stored or remembered, else the hash of its bytes. */
  private async tagOf(p: StoredPath, url: string, r: DavResource): Promise<string> {
    const known = this.backend.knownTag(url, r);
    if (known) return known;
    const opened = await this.openDocument(p);
    await opened.close();
    return opened.stat.etag;
  }

  async statDocument(p: StoredPath): Promise<DocumentStat | null> {
    if (!p.isDocument) return null;
    const url = this.docUrl(p);
    const r = await this.documentAt(url);
    if (!r || r.collection) return null;
    return { size: r.size ?? 0, modified: r.modified, etag: await this.tagOf(p, url, r) };
  }

  /**
   * Downloads the document into the spool folder, hashing it on the way, or,
   * when a version of it is kept (DownloadCache), asks the DMS for it only if
   * it is not that version (If-None-Match): the DMS answers 304 for this user
   * only when it would give them those very bytes, having checked their
   * credentials and rights as for any GET, so the kept file serves them
   * without a second download and never past the DMS.
   */
  async openDocument(p: StoredPath): Promise<OpenDocument> {
    const notFound = () => new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    if (!p.isDocument) throw notFound();
    const url = this.docUrl(p);
    const opened = await this.readThroughReplace(url, () => this.download(url));
    if (!opened) throw notFound();
    return opened;
  }

  /** openDocument of any resource of the DMS (a document, or a kept version's bytes: versions.ts); `notFound` when it is not there. */
  async openUrl(url: string, notFound: () => ServiceError): Promise<OpenDocument> {
    const opened = await this.download(url);
    if (!opened) throw notFound();
    return opened;
  }

  /** openUrl's work: null when nothing is there (404). */
  private async download(url: string): Promise<OpenDocument | null> {
    const kept = await this.backend.downloads.open(url);
    let res: Dispatcher.ResponseData;
    try {
      res = await this.client.send('GET', url, this.user, kept ? { headers: { 'if-none-match': kept.version.sourceEtag } } : {});
    } catch (err) {
      await kept?.handle.close();
      throw err;
    }
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    if (res.statusCode === 304 && kept) {
      await res.body.dump();
      const { handle, version } = kept;
      // A 304 names the current version; one that is not ours (a server that got the condition wrong) is not served.
      const tag = header('etag');
      if (tag === undefined || opaque(tag) === opaque(version.sourceEtag)) return this.opened(handle, version);
      await handle.close();
      await this.backend.downloads.drop(url);
      return this.download(url);
    }
    await kept?.handle.close();
    if (res.statusCode === 404 || (res.statusCode >= 300 && res.statusCode < 400)) {
      await res.body.dump();
      if (kept) await this.backend.downloads.drop(url);
      return null;
    }
    if (res.statusCode !== 200) throw await unexpected('GET', res);
    // Spooled while it arrives and hashed on the way: one version, whatever replaces it on the server meanwhile.
    const file = this.backend.spoolFile();
    let copied: { size: number; etag: string };
    let handle: fs.FileHandle;
    try {
      // A body that stops arriving (a DMS that hangs or dies mid-download) is 503 like a request that does.
      copied = await copyToFile(file, res.body, { sync: false }).catch((err: unknown) => {
        throw dmsFailure(err);
      });
      handle = await fs.open(file, 'r');
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    const { size, etag } = copied;
    const lastModified = header('last-modified');
    const modified = lastModified ? new Date(lastModified) : new Date();
    const davEtag = header('etag');
    this.backend.rememberTag(url, { davEtag, size, modified }, etag);
    // Kept for the next read of this version (or removed now when it cannot be); the descriptor reads it either way.
    await this.backend.downloads.keepDownload(url, { sourceEtag: davEtag, size, modified, etag }, file);
    return this.opened(handle, { size, modified, etag });
  }

  /**
   * The first `bytes` bytes of a resource (a version kept as a prefix, versions.ts): one Range GET, spooled and hashed
   * on the way, never kept (the download cache holds whole documents); null when it is not there or shorter.
   */
  async openStart(url: string, bytes: number): Promise<OpenDocument | null> {
    const res = await this.client.send('GET', url, this.user, { headers: { range: `bytes=0-${bytes - 1}` } });
    if (res.statusCode === 404) {
      await res.body.dump();
      return null;
    }
    if (res.statusCode !== 206 && res.statusCode !== 200) throw await unexpected('GET', res);
    const file = this.backend.spoolFile();
    try {
      // A server that ignores the range sends it all: only the first bytes are read (the limit refuses the rest).
      const copied = await copyToFile(file, res.body, { sync: false, limit: bytes }).catch(async (err: unknown) => {
        if (err instanceof ServiceError && err.code === 'PAYLOAD_TOO_LARGE') {
          res.body.destroy();
          return null;
        }
        throw dmsFailure(err);
      });
      if (!copied) return null;
      const handle = await fs.open(file, 'r');
      return this.opened(handle, { size: copied.size, modified: new Date(), etag: copied.etag });
    } finally {
      // The open descriptor keeps the bytes; the name goes at once.
      await fs.rm(file, { force: true });
    }
  }

  /** An open local file of one version as an OpenDocument; the stream or close() closes it. */
  private opened(handle: fs.FileHandle, stat: DocumentStat): OpenDocument {
    const { size, modified, etag } = stat;
    return { ...openLocalFile(handle, size), stat: { size, modified, etag } };
  }

  /** Creates the collections of `folder` that are missing, from the top (MKCOL). */
  private async ensureFolder(folder: StoredPath): Promise<boolean> {
    if (folder.isRoot || (await this.statFolder(folder))) return false;
    await this.ensureFolder(folder.parent);
    let res;
    try {
      res = await this.client.send('MKCOL', this.folderUrl(folder), this.user);
    } catch (err) {
      // mod_dav_fs answers 403 to a MKCOL that loses a race with another: the collection is there, which is what was asked.
      if (err instanceof ServiceError && err.code === 'DMS_FORBIDDEN' && (await this.statFolder(folder))) return false;
      throw err;
    }
    await res.body.dump();
    if (res.statusCode === 201) return true;
    // A DMS that hides a collection from this user (there, or a parent of it) answers 404 even to a MKCOL.
    if (res.statusCode === 404) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${folder.toString()}`);
    // 405: something is there already; a collection made meanwhile is fine, a document is a conflict.
    if (res.statusCode === 405) {
      if (await this.statFolder(folder)) return false;
      throw new ServiceError('PATH_CONFLICT', 'A document exists on this path');
    }
    throw await unexpected('MKCOL', res);
  }

  async writeDocument(p: StoredPath, content: Buffer | Uint8Array | StagedUpload, options: WriteOptions, known?: string): Promise<WriteResult> {
    if (!p.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    if (!(content instanceof StagedFile || content instanceof Uint8Array)) throw new TypeError('Staged uploads must come from this store');
    // `known`: the content's tag, hashed already (a kept version read: WebDavVersions.restore).
    const etag = content instanceof StagedFile ? content.etag : (known ?? (await etagOfContent(content)));
    const size = content instanceof StagedFile ? content.size : content.byteLength;
    const written = await this.place(p, options, {
      etag,
      size,
      upload: async (tempUrl) => {
        const body = content instanceof StagedFile ? createReadStream(content.file) : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
        const put = await this.client.send('PUT', tempUrl, this.user, { headers: { 'content-type': 'application/pdf', 'content-length': String(size) }, body });
        await put.body.dump();
        if (put.statusCode !== 201 && put.statusCode !== 204 && put.statusCode !== 200) throw await unexpected('PUT', put);
        return true;
      },
      startsWith: (bytes) => etagOfStart(content, bytes),
      written: content,
    });
    return written!;
  }

  /**
   * A write whose content is the bytes at `from` on the DMS (a version's blob: WebDavVersions.restore), which the DMS
   * copies onto the write's temporary upload (COPY): nothing passes through the service. Then as any write (the tag,
   * the commit, the version). null when nothing is at `from`. The copy is not kept locally (DownloadCache): the next
   * read downloads it.
   */
  writeCopy(p: StoredPath, from: string, content: { etag: string; size: number }, options: WriteOptions): Promise<WriteResult | null> {
    return this.place(p, options, {
      ...content,
      // The COPY first: a version whose blob is gone (404) then touches nothing of the versions (the caller reads it).
      commitAfterUpload: true,
      upload: async (tempUrl) => {
        const res = await this.client.send('COPY', from, this.user, { headers: { destination: tempUrl, overwrite: 'F', depth: '0' } });
        await res.body.dump();
        if (res.statusCode === 404) return false;
        if (res.statusCode !== 201 && res.statusCode !== 204) throw await unexpected('COPY', res);
        return true;
      },
    });
  }

  /**
   * writeDocument's work, whatever puts the content at the temporary URL (`upload`: false when it found nothing to put,
   * and the write answers null). `startsWith(n)`: the tag of the content's first n bytes (an appended update is kept by
   * a pointer); `written`: the content, kept locally for the next read; `commitAfterUpload`: the commit starts once
   * `upload` has answered, whatever the size.
   */
  private async place(
    p: StoredPath,
    options: WriteOptions,
    content: { etag: string; size: number; upload(tempUrl: string): Promise<boolean>; startsWith?(bytes: number): Promise<string>; written?: Buffer | Uint8Array | StagedFile; commitAfterUpload?: boolean },
  ): Promise<WriteResult | null> {
    if (!p.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    const targetUrl = this.docUrl(p);
    const { etag, size } = content;
    // Checked before anything is created, so that a refused write leaves no folder and no upload behind.
    const before = await this.documentAt(targetUrl);
    if (before?.collection) throw new ServiceError('PATH_CONFLICT', 'A folder exists on this path');
    let replaced = before && options.conflict === 'overwrite' ? await this.tagOf(p, targetUrl, before) : null;
    if (options.ifMatch !== undefined && (!before || !matchesEtag(options.ifMatch, replaced ?? (await this.tagOf(p, targetUrl, before))))) {
      throw new ServiceError('PRECONDITION_FAILED');
    }
    // A document there: its folder is too (no PROPFIND of it).
    if (!before) await this.ensureFolder(p.parent);
    const tempUrl = this.client.url([...p.parent.segments, `${TEMP_PREFIX}${Date.now()}-${randomBytes(8).toString('hex')}`], false);
    let moved = false;
    // The upload to the temporary name runs while the commit is prepared (moveIntoPlace: the commit LOCK, the check of
    // the version replaced, the versions' requests before the MOVE), which waits for it only before its MOVE: none of
    // those touches the temporary upload, and the MOVE still comes after all of them. `ready`: false when `upload` found
    // nothing to put; else the temporary upload as the DMS showed it (its tag is set on it as a dead property first).
    const body = content.upload(tempUrl);
    const ready = body.then(async (put) => {
      if (!put) return false as const;
      const uploaded = await this.propfindOne(tempUrl);
      // The tag travels with the document as a dead property (MOVE keeps it), so other instances and later runs need not hash it.
      if (uploaded?.davEtag) await this.client.setOwnProps(tempUrl, this.user, { etag, davetag: uploaded.davEtag });
      return { uploaded };
    });
    const put = ready.then((r) => r !== false);
    // Awaited by the commit or below; never an unhandled rejection when the commit fails first.
    for (const settled of [ready, put]) settled.catch(() => undefined);
    try {
      // A large upload is not waited for under the commit lock (other instances' writers wait COMMIT_LOCK_WAIT_MS for it,
      // and it lasts COMMIT_LOCK_SECONDS): its commit starts once the body is on the DMS, beside the tag's requests.
      if ((size > COMMIT_WITH_UPLOAD_BYTES || content.commitAfterUpload === true) && !(await body)) return null;
      // What the write learns of the version it made, inside its commit (moveIntoPlace): its tag, and its bytes as the
      // next read's (the model after an upload, the text prefetch) when the DMS shows the version uploaded under the
      // temporary name, so no one else's write came in between.
      const landed = async (url: string, after: DavResource | null) => {
        if (after) this.backend.rememberTag(url, after, etag);
        const uploaded = await ready.then((r) => (r ? r.uploaded : null));
        if (content.written && after?.davEtag && uploaded?.davEtag && opaque(after.davEtag) === opaque(uploaded.davEtag) && after.size === size) {
          await this.backend.downloads.keepWritten(url, { sourceEtag: after.davEtag, size, modified: after.modified, etag }, content.written);
        } else {
          await this.backend.downloads.drop(url);
        }
      };
      // Whether the content begins with the replaced bytes (an appended update): its version is then kept by a pointer (versions.ts, "p-").
      const read = async (found: DavResource | null, tag: string | null): Promise<ReadForWrite> => ({
        before: found,
        replaced: tag,
        prefix: this.versions !== undefined && content.startsWith !== undefined && options.purgeEarlierVersions !== true && found !== null && tag !== null && (found.size ?? 0) > 0 && (found.size ?? 0) < size && (await content.startsWith(found.size ?? 0)) === tag,
      });
      // With versions, an overwrite commits only while the document is the one whose bytes it kept (moveIntoPlace):
      // one changed meanwhile by someone else (a DMS user, another instance) is read again and kept in turn, as a
      // write without If-Match asks nothing of what it replaces. With If-Match, the change is the 412 asked for.
      const again =
        this.versions && options.conflict === 'overwrite' && options.ifMatch === undefined
          ? async () => {
              const found = await this.documentAt(targetUrl);
              if (found?.collection) throw new ServiceError('PATH_CONFLICT', 'A folder exists on this path');
              return read(found, found ? await this.tagOf(p, targetUrl, found) : null);
            }
          : undefined;
      const placed = await this.moveIntoPlace(p, tempUrl, options, await read(before, replaced), { etag, size }, landed, put, again);
      if (!placed) return null;
      const { target, created, version, purgedVersions, after } = placed;
      replaced = placed.replaced;
      moved = true;
      const stat = { size, modified: after?.modified ?? new Date(), etag };
      return {
        path: target,
        created,
        stat,
        record: writeRecord(options, created ? null : replaced),
        ...(version ? { version: version.record } : {}),
        // The version shown before this one, known from the write's look: the answer's Link names it without a listing.
        ...(version && target === p && version.predecessor !== undefined ? { predecessor: version.predecessor } : {}),
        ...(options.purgeEarlierVersions && purgedVersions !== undefined ? { purgedVersions } : {}),
      };
    } finally {
      if (!moved) {
        // Once the upload has ended: removed before, the temporary name would be put after.
        await ready.catch(() => undefined);
        await this.removeQuietly(tempUrl);
      }
    }
  }

  /**
   * The commit: MOVE onto the target, replacing it only when asked to and,
   * when the caller named a version, only while the DMS still holds that
   * version (an If header tagged with the target's DMS entity tag, so a
   * writer in another instance in between makes it 412, never a silent
   * overwrite). Everything a write does to the document's versions and what
   * it learns of the version it made happen inside the commit, in turn with
   * the other writers of the document: in this process under
   * WebDavBackend.commits, across instances under the commit LOCK, taken
   * first (commitLock):
   * - the version's prepare() tidies the versions collection by the version
   *   the write read, and removes what that version does not show: run for a
   *   version another writer had replaced since, it removed that writer's
   *   newest record (the LOCK's If header now refuses such a stale read
   *   first: 412, and the write reads again);
   * - the version's commit() (its record's rename) is done before the next
   *   writer's prepare() can rename it too (the second MOVE found nothing:
   *   503 DMS_UNAVAILABLE);
   * - `after`, the DMS's stat of the target, is the version this write
   *   made, not the next writer's (whose DMS tag the write would otherwise
   *   remember with its own content's tag), and `landed` keeps its bytes for
   *   the next read before the next writer keeps theirs, never after.
   */
  private async moveIntoPlace(
    p: StoredPath,
    tempUrl: string,
    options: WriteOptions,
    read: ReadForWrite,
    content: { etag: string; size: number },
    landed: (url: string, after: DavResource | null) => Promise<void>,
    uploaded: Promise<boolean>,
    again?: () => Promise<ReadForWrite>,
  ): Promise<{ target: StoredPath; created: boolean; version: PendingVersion | undefined; purgedVersions: number | undefined; after: DavResource | null; replaced: string | null } | null> {
    let target = p;
    const overwrite = options.conflict === 'overwrite';
    names: for (let attempt = 0; ; attempt++) {
      const targetUrl = this.docUrl(target);
      const release = await this.backend.commits.acquire(targetUrl);
      try {
        for (let raced = 0; ; raced++) {
          const { before, replaced, prefix } = read;
          let version: PendingVersion | undefined;
          let committed = false;
          let token: string | undefined;
          try {
            // With versions, every overwrite is conditional on the version read, as one that names it: the bytes the
            // versions kept of the document (its blob) must be the ones the MOVE replaces, or a version would be lost.
            const named = overwrite && (options.ifMatch !== undefined || this.versions !== undefined);
            // Every overwrite of a document holds a LOCK across its MOVE (conditional on the version read when named): a
            // read in another instance that meets the MOVE's gap sees the lock-null resource and waits (readThroughReplace).
            token = overwrite && before ? await this.commitLock(targetUrl, named ? before.davEtag : undefined) : undefined;
            const kept = overwrite && before && replaced !== null ? { davEtag: before.davEtag, etag: replaced, size: before.size ?? 0, modified: before.modified, prefix } : null;
            // The versions' index is read under the lock, beside the check of the version replaced (one round trip for both).
            const index = kept ? this.versions?.readIndexAhead(target) : undefined;
            if (named && before) await this.stillReplacing(targetUrl, before, replaced);
            version = await this.versions?.prepare(target, targetUrl, content, options.provenance ?? UNNAMED_WRITE, kept, options.purgeEarlierVersions === true, index);
            // The content is at the temporary name (its upload ran beside the steps above): nothing put, nothing committed.
            if (!(await uploaded)) return null;
            const condition = token ? lockedAt(targetUrl, token, named ? before?.davEtag : undefined) : named ? stillAt(targetUrl, before?.davEtag) : {};
            // With versions, an overwrite of a document that was not there does not replace one made meanwhile (unkept).
            const replace = overwrite && !(this.versions && !before);
            const move = () => this.client.send('MOVE', tempUrl, this.user, { headers: { destination: targetUrl, overwrite: replace ? 'T' : 'F', ...condition } });
            // A replace removes the target before it renames onto it: the reads in this process that meet the gap wait for it.
            const res = await (replace ? this.backend.replaces.during(targetUrl, move) : move());
            await res.body.dump();
            if (res.statusCode === 201 || res.statusCode === 204) {
              committed = true;
              const purgedVersions = await version?.commit();
              const after = await this.propfindOne(targetUrl);
              await landed(targetUrl, after);
              return { target, created: overwrite ? res.statusCode === 201 && !before : true, version, purgedVersions, after, replaced };
            }
            if (res.statusCode !== 412) throw await unexpected('MOVE', res);
            if (options.conflict === 'overwrite') throw new ServiceError('PRECONDITION_FAILED');
            if (options.conflict === 'fail' || attempt >= UNIQUE_ATTEMPTS) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
            target = withRandomSuffix(p);
            continue names;
          } catch (err) {
            if (!(again && raced < RACED_ATTEMPTS && err instanceof ServiceError && err.code === 'PRECONDITION_FAILED')) throw err;
          } finally {
            // Undone before the LOCK ends: the next writer's prepare() then never meets (nor has removed) this write's
            // record, marker or versions index.
            if (!committed) await version?.abort();
            // The LOCK stays on the target across the MOVE made with its token (mod_dav): ended here, after the commit.
            if (token) await this.client.unlock(targetUrl, this.user, token);
          }
          // Raced (the document changed since it was read): read again while this process's commits of the document
          // still wait for this one, so that its other writers, whose commits start with their uploads, never keep it
          // from its turn.
          read = await again();
        }
      } finally {
        release();
      }
    }
  }

  /**
   * Under the commit lock, before anything is changed: the document is still the content the write read (`replaced`,
   * our tag), not only the DMS version (PRECONDITION_FAILED otherwise). mod_dav_fs's entity tag is the size and the
   * modification time, which the kernel's coarse clock gives to every file written in the same few milliseconds: two
   * uploads of one size at once share it, and the If header of the LOCK and MOVE cannot tell the one the write read
   * from the one another writer put in its place since. Our tag, a dead property of the file that MOVE carries, can;
   * a document written on the DMS directly (none) has the If header alone.
   */
  private async stillReplacing(url: string, before: DavResource, replaced: string | null): Promise<void> {
    const now = await this.propfindOne(url);
    if (!now || now.collection || opaque(now.davEtag) !== opaque(before.davEtag)) throw new ServiceError('PRECONDITION_FAILED');
    const tag = this.backend.knownTag(url, now);
    if (replaced !== null && tag !== undefined && tag !== replaced) throw new ServiceError('PRECONDITION_FAILED');
  }

  /**
   * A WebDAV lock on a document for one commit, taken only while it is the
   * version read (412 otherwise). mod_dav checks a MOVE's or DELETE's If
   * header and then acts in a second step, so two instances could both pass
   * the check; the lock makes their commits of one document take turns, and
   * the second then finds the version changed (412). Another instance's
   * commit lock is waited for; a lock an editor holds (a user who opened the
   * document from the DMS) is 423 DMS_LOCKED after backend.lockWaitMs.
   * undefined: the DMS does not do locks, and the If header alone decides.
   */
  private async commitLock(url: string, davEtag: string | undefined): Promise<string | undefined> {
    const deadline = Date.now() + this.backend.lockWaitMs;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      try {
        const token = await this.client.lock(url, this.user, stillAt(url, davEtag), COMMIT_LOCK_SECONDS);
        if (token === null) throw new ServiceError('PRECONDITION_FAILED');
        return token;
      } catch (err) {
        if (!(err instanceof ServiceError && err.code === 'DMS_LOCKED') || Date.now() + delay > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * `change` with the document's commit lock held, as a write's commit holds it (moveIntoPlace): in this process
   * (WebDavBackend.commits) and across instances (the DMS LOCK on the document, taken while it is the version found;
   * none when there is no document). The versions' label, pin, delete and purge change their index under it
   * (versions.ts). `wait: false` (a listing that rewrites a missing or stale index): one LOCK, and undefined without
   * `change` when another client holds the lock or the DMS refuses one (a user who may only read).
   */
  async commitLocked<T>(p: StoredPath, change: () => Promise<T>, wait = true): Promise<T | undefined> {
    const url = this.docUrl(p);
    const release = await this.backend.commits.acquire(url);
    let token: string | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const r = await this.documentAt(url);
        if (!r || r.collection) break;
        let got: string | null | undefined;
        try {
          got = wait ? await this.commitLock(url, r.davEtag) : await this.client.lock(url, this.user, stillAt(url, r.davEtag), COMMIT_LOCK_SECONDS);
        } catch (err) {
          if (err instanceof ServiceError && err.code === 'PRECONDITION_FAILED') got = null;
          else if (!wait && err instanceof ServiceError) return undefined;
          else throw err;
        }
        // null: the document changed between its stat and the LOCK (a write just committed): found again.
        if (got !== null) {
          token = got;
          break;
        }
        if (attempt >= 3) {
          if (!wait) return undefined;
          throw new ServiceError('PRECONDITION_FAILED');
        }
      }
      return await change();
    } finally {
      if (token) await this.client.unlock(url, this.user, token);
      release();
    }
  }

  private async removeQuietly(url: string): Promise<void> {
    try {
      const res = await this.client.send('DELETE', url, this.user);
      await res.body.dump();
    } catch {
      // Left for the next listing or start to remove (it is hidden meanwhile).
    }
  }

  async deleteDocument(p: StoredPath, ifMatch?: string, by: string | null = null): Promise<void> {
    const url = this.docUrl(p);
    const r = p.isDocument ? await this.documentAt(url) : null;
    if (!r || r.collection) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    let token: string | undefined;
    if (ifMatch !== undefined) {
      const tag = await this.tagOf(p, url, r);
      if (!matchesEtag(ifMatch, tag)) throw new ServiceError('PRECONDITION_FAILED');
      token = await this.commitLock(url, r.davEtag);
      // Under the LOCK, our tag as a write checks it (stillReplacing): the DMS's entity tag alone is equal for two
      // versions of one size written in one clock tick, so the DELETE's If header cannot tell them apart.
      try {
        await this.stillReplacing(url, r, tag);
      } catch (err) {
        if (token) await this.client.unlock(url, this.user, token);
        throw err;
      }
    }
    if (this.trash) {
      let moved = false;
      try {
        const condition = token ? lockedAt(url, token, r.davEtag) : ifMatch !== undefined ? stillAt(url, r.davEtag) : {};
        await this.trash.put('document', p, r, by, condition);
        moved = true;
      } finally {
        // A moved document's lock stays at its old URL on some servers: ended either way.
        if (token && !moved) await this.client.unlock(url, this.user, token);
      }
      return;
    }
    let res;
    try {
      // Its versions first (the trash off: erased with the document): a crash between leaves
      // the document without versions, never versions a new document at this path would show as its own.
      await this.versions?.removeAll(p);
      const headers = token ? lockedAt(url, token, r.davEtag) : ifMatch !== undefined ? stillAt(url, r.davEtag) : {};
      res = await this.client.send('DELETE', url, this.user, { headers });
      await res.body.dump();
    } finally {
      // A deleted document's lock goes with it; this ends one the DELETE did not use.
      if (token && res?.statusCode !== 204 && res?.statusCode !== 200) await this.client.unlock(url, this.user, token);
    }
    await this.backend.forget(url);
    if (res.statusCode === 404) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    if (res.statusCode === 412) throw new ServiceError('PRECONDITION_FAILED');
    if (res.statusCode !== 204 && res.statusCode !== 200) throw await unexpected('DELETE', res);
  }

  stage(source: Readable, limit: number): Promise<StagedUpload> {
    return this.backend.stage(source, limit);
  }

  async statFolder(p: StoredPath): Promise<{ modified: Date } | null> {
    if (p.isDocument) return null; // folder names never end in .pdf
    const r = await this.propfindOne(this.folderUrl(p));
    return r?.collection ? { modified: r.modified } : null;
  }

  async makeFolder(p: StoredPath): Promise<{ created: boolean }> {
    return { created: await this.ensureFolder(p) };
  }

  async listFolder(p: StoredPath): Promise<FolderEntry[]> {
    const url = this.folderUrl(p);
    const found = await this.client.propfind(url, this.user, 1);
    const self = found?.find((r) => r.path === this.selfPath(p));
    if (!found || !self?.collection) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const entries: FolderEntry[] = [];
    for (const r of found) {
      if (r === self || r.path !== `${self.path}/${r.name}`) continue;
      if (r.name.startsWith(TEMP_PREFIX)) {
        this.sweepIfStale(p, r);
        continue;
      }
      if (r.name.startsWith('.')) continue;
      if (r.collection) entries.push({ name: r.name, type: 'folder', modified: r.modified });
      else if (/\.pdf$/i.test(r.name)) entries.push({ name: r.name, type: 'document', size: r.size ?? 0, modified: r.modified });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The decoded href path of a folder, as the server lists it. */
  private selfPath(p: StoredPath): string {
    return [this.client.rootPath, ...p.segments].join('/').replace(/\/+$/, '');
  }

  /** A temporary upload from an interrupted write, met in a listing: removed in the background once it is old. */
  private sweepIfStale(folder: StoredPath, r: DavResource): void {
    const started = Number(/^\.pdfservice-tmp-(\d+)-/.exec(r.name)?.[1]);
    if (!Number.isFinite(started) || Date.now() - started < STALE_TEMP_MS) return;
    void this.removeQuietly(this.client.url([...folder.segments, r.name], false));
  }

  async deleteFolder(p: StoredPath, recursive: boolean, by: string | null = null): Promise<void> {
    if (p.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    if (!(await this.statFolder(p))) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    if (!recursive && (await this.listFolder(p)).length > 0) throw new ServiceError('FOLDER_NOT_EMPTY', 'The folder is not empty; use ?recursive=true');
    // Into the trash in one MOVE when it holds documents (put answers null for a folder of none: erased).
    if (this.trash && (await this.trash.put('folder', p, null, by))) return;
    const url = this.folderUrl(p);
    const res = await this.client.send('DELETE', url, this.user);
    await res.body.dump();
    await this.backend.forget(url);
    if (res.statusCode === 404) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    if (res.statusCode !== 204 && res.statusCode !== 200) throw await unexpected('DELETE', res);
  }

  lock(p: StoredPath): Promise<Release> {
    return this.backend.locks.acquire(this.docUrl(p));
  }

  /**
   * Removes local leftovers and, as this store's user, the temporary uploads
   * of interrupted writes in every collection the user may list.
   */
  async recover(): Promise<void> {
    await this.backend.clearLocal();
    const sweep = async (segments: readonly string[]): Promise<void> => {
      let found: DavResource[] | null;
      try {
        found = await this.client.propfind(this.client.url(segments, true), this.user, 1);
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'DMS_FORBIDDEN') return; // not this user's to clean
        throw err;
      }
      const self = [this.client.rootPath, ...segments].join('/').replace(/\/+$/, '');
      for (const r of found ?? []) {
        if (r.path !== `${self}/${r.name}`) continue;
        if (r.name.startsWith(TEMP_PREFIX)) await this.removeQuietly(this.client.url([...segments, r.name], false));
        else if (r.collection && !r.name.startsWith('.')) await sweep([...segments, r.name]);
      }
      await this.versions?.recoverFolder(StoredPath.fromValidSegments([...segments]));
    };
    // The trash first: a delete rolled back moves versions back before their collections are tidied.
    await this.trash?.recover();
    await sweep([]);
  }
}
