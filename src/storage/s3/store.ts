import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
  type _Object,
} from '@aws-sdk/client-s3';
import { ServiceError } from '../../errors.js';
import { DownloadCache } from '../download-cache.js';
import { LocalLocks, type LockProvider } from '../locks.js';
import { checkBlobName, contentStream, type BlobStore } from '../blobs.js';
import { copyToFile, etagOfStart, openLocalFile, spoolName, StagedFile, stageToFile } from '../local-files.js';
import type { StoredPath } from '../paths.js';
import type { BookedEtag, EtagBook } from '../etag-book.js';
import { etagOfContent, matchesEtag, UNNAMED_WRITE, withRandomSuffix, writeRecord } from '../store.js';
import type { DocumentStat, DocumentStore, FolderEntry, OpenDocument, Release, StagedUpload, WriteOptions, WriteResult } from '../store.js';
import { readAgain, s3Failure, s3Status } from './client.js';
import { S3Trash } from './trash.js';
import { COPY_LIMIT, COPY_PART, S3Versions, stageCopy, type PendingS3Version, type S3Area, type S3Guess, type StagedCopy } from './versions.js';

/**
 * Serializes the commits (check the version, then write) of one key. S3
 * servers without conditional PUT (Swift's s3api: docs/s3.md) leave a gap
 * between the check and the write that only a lock closes. LocalLocks closes
 * it within one process; several instances share Redis locks (RedisLocks),
 * whose verify() just before the write refuses it when the lease ran out.
 * A shared one (`shared`: every instance takes it) also lets create-if-absent
 * be one PutObject (writeDocument).
 */
export type CommitLock = LockProvider;

/** The user-metadata field (x-amz-meta-etag) that carries our tag (the content hash, without quotes). */
const ETAG_META = 'etag';
const MiB = 1024 * 1024;
/** How many names a `unique` write tries before it gives up (409). */
const UNIQUE_ATTEMPTS = 20;

export interface S3StoreOptions {
  client: S3Client;
  bucket: string;
  /** Put before every key ('' or ending in '/', say 'pdfservice/'). */
  prefix: string;
  /** Local folder for staged uploads, spooled reads and kept versions (`kept/`). */
  dataDir: string;
  /**
   * Locks of check-then-write commits; default in-process (one instance). A
   * namespace apart from `documentLocks`: a commit lock is only ever taken
   * inside the store, after any document lock, never the other way round, so
   * a writer holding a document's lock and committing it does not wait for
   * itself.
   */
  commitLock?: CommitLock | undefined;
  /** The locks lock() takes (read-modify-write); default in-process. Verified, when held, before every commit. */
  documentLocks?: LockProvider | undefined;
  /** Content of this size and more goes up in parts (S3's minimum part size is 5 MiB). Default 16 MiB. */
  multipartThreshold?: number | undefined;
  /** Default 8 MiB; at least 5 MiB, as every part but the last must be. */
  partSize?: number | undefined;
  /** recover() aborts multipart uploads started this long ago or longer (another instance's may be running). Default 1 hour. */
  staleUploadMs?: number | undefined;
  /**
   * The current version of each key as the service's writers know it, shared
   * by every instance (RedisEtagBook; main.ts gives one only with Redis,
   * whose commit lock every instance takes): stat, create-if-absent and the
   * If-Match check answer from it without a HEAD, and a read of a kept copy
   * of the recorded version without a conditional GET. Without it every read
   * asks S3, as before. S3Store.openDocument says why it is safe.
   */
  etagBook?: EtagBook | undefined;
  /** Keep a version of every write (docs/versions.md, "Storage (S3)"; PDFSERVICE_VERSIONS): S3Store.versions. Default off. */
  versions?: boolean | undefined;
  /** A replaced document above this size is copied to its version's blob in parts (UploadPartCopy) of copyPartSize. Defaults 5 GiB and 1 GiB (S3's limit for one CopyObject). */
  copyLimit?: number | undefined;
  copyPartSize?: number | undefined;
  /**
   * A restore of a version kept as the first bytes of a blob or of the document reads those bytes (the document's kept
   * copy, or a Range GET) and puts them when the version is below this size, else copies them on the server in a
   * multipart upload. Defaults to the multipart threshold (one PutObject); 0 always copies (tests).
   */
  prefixReadBytes?: number | undefined;
  /** Deletes move documents and folders to the trash (docs/versions.md, "Trash"; PDFSERVICE_TRASH): S3Store.trash. Default off. */
  trash?: boolean | undefined;
}

type Content = StagedFile | Uint8Array;

/** What an overwrite writes (S3Store.overwrite): the content's ETag and size, and how it is staged, committed and kept. */
interface OverwritePlan {
  etag: string;
  size: number;
  /** Whether the content begins with the replaced bytes (versions.ts, "p-"), asked once the write is sure to be made. */
  prefix?: () => Promise<boolean>;
  /** The new version's page count when the write's provenance has none (a restore: the kept version's). */
  pageCount?: number | null | undefined;
  /** Made while the version is prepared (a restore's copy in parts); abort() undoes it when the version could not be. */
  stage?: () => Promise<void>;
  abort?: () => Promise<void>;
  /** Writes the document: the commit. */
  commit(): Promise<Stored>;
  /** After the commit: what is kept locally of the version written (DownloadCache). */
  keep(stored: Stored): Promise<void>;
}

/** What an overwrite writes, given the document it found (null: none), our tag of it, and its versions area. */
type Planner = (found: { before: { s3Etag: string | undefined; etag: string | undefined; size: number; modified: Date } | null; replaced: string | null; area: S3Area | undefined }) => Promise<OverwritePlan>;

/** What a write's answer says of the version it stored: S3's ETag of it (undefined if the server sent none) and its time. */
interface Stored {
  s3Etag: string | undefined;
  modified: Date;
}

/** The headers of the answer an SDK error came with (the SDK attaches it, not enumerable). */
function answerHeaders(err: unknown): Record<string, string | undefined> {
  return (err as { $response?: { headers?: Record<string, string | undefined> } } | undefined)?.$response?.headers ?? {};
}

/** A time from an HTTP date header, or undefined. */
function httpDate(value: string | undefined): Date | undefined {
  const date = value ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

interface DateStack {
  add(
    middleware: (next: (args: unknown) => Promise<{ response: unknown }>) => (args: unknown) => Promise<{ response: unknown }>,
    options: { step: 'deserialize'; priority: 'low'; name: string },
  ): void;
}

/**
 * The `Date` header of the answer to one command (a middleware on that
 * command alone, inside the SDK's deserializer: the client is shared and its
 * output has no such field). Read after the command was sent.
 */
function serverDateOf(command: PutObjectCommand | CompleteMultipartUploadCommand): () => Date | undefined {
  let date: string | undefined;
  (command.middlewareStack as unknown as DateStack).add(
    (next) => async (args) => {
      const out = await next(args);
      const headers = (out.response as { headers?: Record<string, string | undefined> } | undefined)?.headers;
      date = headers?.date ?? headers?.Date;
      return out;
    },
    { step: 'deserialize', priority: 'low', name: 'pdfserviceServerDate' },
  );
  return () => httpDate(date);
}

/**
 * Documents in one bucket of S3-compatible storage, under a key prefix. A
 * document's key is the prefix and its path's segments joined by '/'; a
 * folder is a key prefix ending in '/', with a zero-byte marker object of that
 * name so that an empty folder exists (every write makes the markers of its
 * folders, so deleting the last document keeps its folder, as on a disk).
 *
 * Our tag (the content hash, as every store's) is stored with the object as
 * user metadata at write; a read streams the object into a local spool file,
 * hashed on the way, so the engine reads a local copy of one version and the
 * tag it gets is that of the bytes it got. The last version read or written
 * of each document is kept locally a while (DownloadCache), and a read of it
 * asks S3 only whether it is still current (a conditional GET), so a version
 * is downloaded at most once per instance while it stays current.
 *
 * Writes are atomic by S3's nature: an object (single PUT or completed
 * multipart upload) becomes visible whole, and replaces the old one whole, so
 * a reader sees the old version or the new one, never a mix; an interrupted
 * upload leaves at most an unfinished multipart upload, which no listing shows
 * and recover() aborts.
 */
export class S3Store implements DocumentStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly staging: string;
  private readonly spool: string;
  private readonly locks: LockProvider;
  private readonly commits: CommitLock;
  private readonly multipartThreshold: number;
  private readonly partSize: number;
  private readonly staleUploadMs: number;
  /** Copies on the server above copyLimit bytes go in parts of copyPart (versions.ts stageCopy). */
  private readonly copyLimit: number;
  private readonly copyPart: number;
  /** S3StoreOptions.prefixReadBytes. */
  private readonly prefixReadBytes: number;
  /**
   * Tags computed by reading objects whose metadata has none or the wrong one (written by another program), by
   * key, for the S3 version they were computed for: such an object is hashed once per version, not at every stat.
   */
  private readonly computed = new Map<string, { s3Etag: string; etag: string }>();
  /**
   * The last version of each key downloaded or written here, kept locally for
   * a while (`<dataDir>/kept`), served only after S3 confirmed it is still the
   * key's current version (openDocument): other instances write the bucket too.
   */
  private readonly downloads: DownloadCache;
  private readonly book: EtagBook | undefined;
  /** The versions kept of every write (versions.ts), under `<prefix>.versions/`; undefined with versions off. */
  readonly versions: S3Versions | undefined;
  /** The trash deletes move into (trash.ts), under `<prefix>.trash/`; undefined with the trash off: deletes erase. */
  readonly trash: S3Trash | undefined;

  constructor(options: S3StoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.staging = path.join(options.dataDir, 'staging');
    this.spool = path.join(options.dataDir, 'spool');
    this.downloads = new DownloadCache(path.join(options.dataDir, 'kept'));
    this.commits = options.commitLock ?? new LocalLocks();
    this.locks = options.documentLocks ?? new LocalLocks();
    this.partSize = Math.max(options.partSize ?? 8 * MiB, 5 * MiB);
    this.multipartThreshold = Math.max(options.multipartThreshold ?? 16 * MiB, this.partSize);
    this.staleUploadMs = options.staleUploadMs ?? 60 * 60 * 1000;
    this.book = options.etagBook;
    this.copyLimit = options.copyLimit ?? COPY_LIMIT;
    this.copyPart = Math.max(options.copyPartSize ?? COPY_PART, 5 * MiB);
    this.prefixReadBytes = Math.min(options.prefixReadBytes ?? this.multipartThreshold, this.multipartThreshold);
    // A record is current only if every writer of every instance forgets it under a lock they all take.
    if (this.book && !this.commits.shared) throw new Error('S3Store: an ETag book needs a shared commit lock (RedisLocks)');
    this.versions = options.versions
      ? new S3Versions({
          bucket: this.bucket,
          prefix: this.prefix,
          send: (what, run) => this.send(what, run),
          listAll: async (prefix, startAfter) => (await this.listAll(prefix, false, startAfter)).objects,
          deleteKeys: (keys) => this.deleteKeys(keys),
          docKey: (p) => this.docKey(p),
          statDocument: (p) => this.statDocument(p),
          openDocument: (p) => this.openDocument(p),
          download: (key, only) => this.download(key, only),
          commitLock: (key) => this.commits.acquire(key),
          copyLimit: this.copyLimit,
          copyPart: this.copyPart,
          restore: (p, id, options) => this.restore(p, id, options),
        })
      : undefined;
    this.trash = options.trash
      ? new S3Trash({
          bucket: this.bucket,
          prefix: this.prefix,
          send: (what, run) => this.send(what, run),
          listAll: async (prefix) => (await this.listAll(prefix, false)).objects,
          deleteKeys: (keys) => this.deleteKeys(keys),
          download: (key) => this.download(key),
          makeFolder: (p) => this.makeFolder(p),
          locks: this.locks,
          copyLimit: this.copyLimit,
          copyPart: this.copyPart,
          staleMs: this.staleUploadMs,
        })
      : undefined;
  }

  async init(): Promise<void> {
    await fs.mkdir(this.staging, { recursive: true });
    await fs.mkdir(this.spool, { recursive: true });
    await this.downloads.init();
  }

  private docKey(p: StoredPath): string {
    return this.prefix + p.segments.join('/');
  }

  /** The folder's key prefix, which is also its marker's key ('' and the bare prefix for the root). */
  private folderKey(p: StoredPath): string {
    return p.isRoot ? this.prefix : `${this.prefix}${p.segments.join('/')}/`;
  }

  /**
   * Last thing before a commit (PutObject, CompleteMultipartUpload,
   * DeleteObject) of `key`: the commit lock and, when this process holds it,
   * the document lock are still ours (their leases did not run out), else
   * nothing is written (LOCK_LOST).
   */
  private async verifyLocks(key: string): Promise<void> {
    await this.commits.verify(key);
    await this.locks.verify(key);
  }

  /** Sends a command; failures the client cannot fix become 503 STORE_UNAVAILABLE (s3Failure). */
  private async send<T>(what: string, run: (client: S3Client) => Promise<T>): Promise<T> {
    try {
      return await run(this.client);
    } catch (err) {
      throw s3Failure(err, what);
    }
  }

  /**
   * The object's S3 ETag and our tag (undefined when it was written without one, by another program), or null.
   * `unlocked`: the caller does not hold the key's commit lock, so a write of the service may be replacing the object,
   * and a 404 is asked again (readAgain).
   */
  private async head(key: string, unlocked = false): Promise<{ s3Etag: string | undefined; etag: string | undefined; size: number; modified: Date } | null> {
    try {
      const ask = () => this.send('HeadObject', (c) => c.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      const res = await (unlocked ? readAgain(ask) : ask());
      const own = res.Metadata?.[ETAG_META];
      const known = this.computed.get(key);
      const etag = known && known.s3Etag === res.ETag ? known.etag : own && /^[0-9a-f]{32}$/.test(own) ? `"${own}"` : undefined;
      return { s3Etag: res.ETag, etag, size: res.ContentLength ?? 0, modified: res.LastModified ?? new Date() };
    } catch (err) {
      if (s3Status(err) === 404) return null;
      throw err;
    }
  }

  /**
   * The key's current version: the ETag book's record when there is one
   * (no request), else a HEAD. Under the key's commit lock a record is current
   * (every writer of the service takes that lock and forgets the record
   * before it writes); outside it, current as of the moment it was read.
   */
  private async current(key: string, unlocked: boolean): Promise<{ s3Etag: string | undefined; etag: string | undefined; size: number; modified: Date } | null> {
    const booked = await this.book?.get(key);
    if (booked) return { s3Etag: booked.sourceEtag, etag: booked.etag, size: booked.size, modified: booked.modified };
    return this.head(key, unlocked);
  }

  /**
   * After a write of `key` succeeded: records the version in the book, if
   * this process still holds the key's commit lock (a holder whose lease ran
   * out after its write must not record over a later writer's record; the
   * moment between that check and the record is left, one Redis round trip).
   * Without an S3 ETag, or when Redis fails, nothing is recorded: the key
   * then has no record (forget came before the write), and reads ask S3.
   */
  private async recordWritten(key: string, version: { s3Etag: string | undefined } & Omit<BookedEtag, 'sourceEtag'>): Promise<void> {
    if (!this.book || version.s3Etag === undefined) return;
    try {
      await this.commits.verify(key);
      await this.book.record(key, { sourceEtag: version.s3Etag, etag: version.etag, size: version.size, modified: version.modified });
    } catch {
      // No record: the next reader asks S3.
    }
  }

  /** Our tag of the current version: the stored one, else the hash of its bytes. */
  private async tagOf(p: StoredPath, stored: string | undefined): Promise<string> {
    if (stored) return stored;
    const opened = await this.openDocument(p);
    await opened.close();
    return opened.stat.etag;
  }

  async statDocument(p: StoredPath): Promise<DocumentStat | null> {
    if (!p.isDocument) return null;
    const found = await this.current(this.docKey(p), true);
    if (!found) return null;
    return { size: found.size, modified: found.modified, etag: await this.tagOf(p, found.etag) };
  }

  /**
   * Downloads the current version into the spool folder, hashing it, and
   * keeps the download (DownloadCache) for the next read of this version. When
   * a version of the key is kept, the GET carries If-None-Match with its S3
   * ETag: S3 answers 304 only while that is still the key's version (another
   * instance may have replaced it), and then the kept file is served without
   * a download; any other answer is read as without the condition. A kept
   * version is never served without that answer, or without the version
   * book naming it.
   *
   * With an ETag book: when its record for the key names the kept
   * version's S3 ETag, the kept copy is served with no request at all. The
   * record was current when it was read: every writer of the service forgets
   * the record (under the key's commit lock) before its PutObject,
   * CompleteMultipartUpload or DeleteObject and records the new version only
   * after S3 answered it, and readers never record. So a record this read got
   * was written after the last completed write before it and read before the
   * next write's forget, hence before that write reached S3: the read takes
   * effect at the moment it read the record, which lies within it, before any
   * write that changes the key since (linearisable, as a read that overlaps a
   * write may be ordered before it). No record (none yet, expired, forgotten
   * by a write in progress or one that failed, Redis unreachable) or another
   * version: the conditional GET as without a book. The book does not see
   * programs other than the service writing the bucket (docs/s3.md).
   */
  async openDocument(p: StoredPath): Promise<OpenDocument> {
    const notFound = () => new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    if (!p.isDocument) throw notFound();
    const key = this.docKey(p);
    const booked = await this.book?.get(key);
    const kept = await this.downloads.open(key);
    if (booked && kept && booked.sourceEtag === kept.version.sourceEtag) {
      return this.opened(kept.handle, { size: kept.version.size, modified: booked.modified, etag: kept.version.etag });
    }
    let res: { Body?: unknown; LastModified?: Date; ETag?: string; Metadata?: Record<string, string> };
    try {
      // Reads take no commit lock: a write may be replacing the object (readAgain).
      res = await readAgain(() => this.send('GetObject', (c) => c.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(kept ? { IfNoneMatch: kept.version.sourceEtag } : {}) }))));
    } catch (err) {
      if (kept && s3Status(err) === 304) {
        const { handle, version } = kept;
        // A 304 names the current version; one that is not the kept one (a server that got the condition wrong) is not served.
        const headers = answerHeaders(err);
        if (headers.etag === undefined || headers.etag === version.sourceEtag) {
          // The time S3 gives the version now (its HEAD and listings say the same), rather than the one noted at the write.
          return this.opened(handle, { size: version.size, modified: httpDate(headers['last-modified']) ?? version.modified, etag: version.etag });
        }
        await handle.close();
        await this.downloads.drop(key);
        return this.openDocument(p);
      }
      await kept?.handle.close();
      if (s3Status(err) === 404) {
        await this.downloads.drop(key);
        throw notFound();
      }
      throw err;
    }
    await kept?.handle.close();
    const file = spoolName(this.spool);
    let handle: fs.FileHandle;
    let copied: { size: number; etag: string };
    try {
      // A body that stops arriving (S3 gone mid-download) is 503 like a request that fails.
      copied = await copyToFile(file, res.Body as Readable, { sync: false }).catch((err: unknown) => {
        throw s3Failure(err, 'GetObject');
      });
      handle = await fs.open(file, 'r');
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    // The tag is the hash of the bytes read, whatever the metadata says (another program may have replaced them).
    const stat = { size: copied.size, modified: res.LastModified ?? new Date(), etag: copied.etag };
    if (res.ETag && `"${res.Metadata?.[ETAG_META] ?? ''}"` !== copied.etag) {
      if (this.computed.size > 10_000) this.computed.clear();
      this.computed.set(key, { s3Etag: res.ETag, etag: copied.etag });
    }
    // Kept for the next read of this version (or removed now when it cannot be); the descriptor reads it either way.
    await this.downloads.keepDownload(key, { sourceEtag: res.ETag, ...stat }, file);
    return this.opened(handle, stat);
  }

  /** An open local file of one version as an OpenDocument; the stream or close() closes it. */
  private opened(handle: fs.FileHandle, stat: DocumentStat): OpenDocument {
    return { ...openLocalFile(handle, stat.size), stat };
  }

  /**
   * Writes a document. What S3 servers honour decides how each mode stays
   * safe (docs/s3.md):
   * - `fail` and `unique` (create if absent): under the commit lock, a HEAD;
   *   when the name is free:
   *   - with a shared commit lock (`commitLock.shared`: RedisLocks, which
   *     every instance takes for every write of the key) and a document below
   *     multipartThreshold, one PutObject. No writer of this service can come
   *     between the HEAD and the PUT, as each takes that lock first, and
   *     verifyLocks() refuses the PUT when this holder's lease ran out
   *     meanwhile. (Programs other than this service writing the bucket are
   *     not covered, as for `overwrite` with If-Match below.)
   *   - else (the in-process lock, which other instances do not see, or a
   *     large document) a multipart upload completed with If-None-Match: *,
   *     which S3 and Swift's s3api refuse with 412 when the key exists: a
   *     document another instance created after the HEAD is not replaced. On
   *     AWS that is atomic; Swift checks and then writes, so two completions
   *     at the same moment can both succeed (measured): across instances on
   *     Swift only the shared CommitLock closes that.
   * - `overwrite` with If-Match: Swift refuses every conditional PUT (501),
   *   so the version is checked (HEAD, our tag) and the object written under
   *   the commit lock of its key. Across instances that needs the shared
   *   (Redis) CommitLock (main.ts uses it with PDFSERVICE_REDIS_URL): with
   *   several instances on the in-process lock, a writer in another instance
   *   between the check and the PUT would be overwritten.
   * - `overwrite` without a condition: one PUT (under the commit lock too).
   * Everything that can refuse is checked before a folder marker is made (and
   * none is looked for when the document is there already: so is its
   * folder), and the locks are verified just before the object is written
   * (verifyLocks). The version written is kept locally (DownloadCache) with
   * the S3 ETag the write answered, for the next read; no HEAD follows a
   * write (upload() says why its answer is enough).
   */
  async writeDocument(p: StoredPath, content: Buffer | Uint8Array | StagedUpload, options: WriteOptions): Promise<WriteResult> {
    if (!p.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    if (!(content instanceof StagedFile || content instanceof Uint8Array)) throw new TypeError('Staged uploads must come from this store');
    const etag = content instanceof StagedFile ? content.etag : await etagOfContent(content);
    const size = content instanceof StagedFile ? content.size : content.byteLength;
    if (options.conflict === 'overwrite') {
      return this.overwrite(p, options, ({ before, replaced }) => Promise.resolve({
        etag,
        size,
        // Whether the content begins with the replaced bytes (an appended update, engine/core/save.ts): the replaced
        // version is then kept as the first bytes of this one (versions.ts, "p-"), proven by the ETag of as many first
        // bytes of the content, so the replaced object is not read.
        prefix: async () => (this.versions && before && replaced && before.size > 0 && before.size < size ? (await etagOfStart(content, before.size)) === replaced : false),
        commit: () => this.upload(this.docKey(p), content, etag, false),
        keep: (stored) => this.keepWritten(this.docKey(p), stored, content, { size, etag }),
      }));
    }
    // The HEAD under a lock every instance takes decides alone for a small document; else the conditional completion does.
    const conditional = !this.commits.shared || size >= this.multipartThreshold;
    let target = p;
    let foldersMade = false;
    for (let attempt = 0; ; attempt++) {
      const key = this.docKey(target);
      const release = await this.commits.acquire(key);
      try {
        // A name known to be taken is not uploaded to.
        const taken = (await this.current(key, false)) !== null;
        if (!taken) {
          if (!foldersMade) await this.ensureFolders(p.parent);
          foldersMade = true;
          const version = await this.versions?.prepare(target, { etag, size }, options.provenance ?? UNNAMED_WRITE, null);
          const upload = () => this.upload(key, content, etag, conditional);
          const stored = await (version ? version.commit(upload) : upload()).catch(async (err: unknown) => {
            await version?.abort();
            throw err;
          });
          if (stored) {
            await this.keepWritten(key, stored, content, { size, etag });
            return { path: target, created: true, stat: { size, modified: stored.modified, etag }, record: writeRecord(options, null), ...(await this.versionResult(target, version, options)) };
          }
          await version?.abort();
        }
      } finally {
        release();
      }
      if (options.conflict === 'fail' || attempt >= UNIQUE_ATTEMPTS) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
      target = withRandomSuffix(p);
    }
  }

  /**
   * An overwrite (writeDocument's `overwrite`, or a restore), under the key's commit lock: the current version and,
   * with versions on, the versions area asked together (S3Versions.survey says why their order does not matter
   * here); If-Match checked; the version prepared (the replaced bytes kept, the record put: S3Versions.prepare) while
   * the write stages what it can (a restore's copy in parts), then the document committed (`write.commit`).
   */
  private async overwrite(p: StoredPath, options: WriteOptions, plan: Planner): Promise<WriteResult> {
    const key = this.docKey(p);
    const release = await this.commits.acquire(key);
    try {
      // A purge's marker goes with its record, and its copy is not a prefix's pointer: not guessed (rare, a redaction).
      const guess = options.purgeEarlierVersions === true ? undefined : this.versions?.guess(p);
      const guessed = guess && (await this.overwriteKnown(p, options, plan, guess));
      if (guessed) return guessed;
      const [before, surveyed] = await Promise.all([this.current(key, false), this.versions?.survey(p)]);
      const replaced = before ? await this.tagOf(p, before.etag) : null;
      // The area as of the document found (a second listing only when the index that stood for it is stale).
      const area = surveyed && (await this.versions!.settle(p, surveyed, replaced));
      // Before the If-Match check: a restore of a version that is not there is 404 whatever the condition (RFC 9110 13.2.1).
      const write = await plan({ before, replaced, area });
      if (options.ifMatch !== undefined && !matchesEtag(options.ifMatch, replaced ?? undefined)) throw new ServiceError('PRECONDITION_FAILED');
      if (!before) await this.ensureFolders(p.parent);
      const prefix = (await write.prefix?.()) ?? false;
      const provenance = options.provenance ?? UNNAMED_WRITE;
      // The version this write keeps (versions on): the replaced bytes copied (or pointed at) and the record put before the write.
      const [prepared, staged] = await Promise.allSettled([
        this.versions?.prepare(p, { etag: write.etag, size: write.size }, { ...provenance, pageCount: provenance.pageCount ?? write.pageCount ?? null }, before && replaced ? { size: before.size, modified: before.modified, etag: replaced, prefix } : null, options.purgeEarlierVersions === true, area),
        write.stage?.(),
      ]);
      if (prepared.status === 'rejected' || staged.status === 'rejected') {
        if (prepared.status === 'fulfilled') await prepared.value?.abort();
        if (staged.status === 'fulfilled') await write.abort?.();
        throw prepared.status === 'rejected' ? prepared.reason : (staged as PromiseRejectedResult).reason;
      }
      const version = prepared.value;
      // With versions, the index of the document's versions is put beside the document (versions.ts, "z-index.ndjson").
      const stored = await (version ? version.commit(() => write.commit()) : write.commit()).catch(async (err: unknown) => {
        await version?.abort();
        throw err;
      });
      await write.keep(stored);
      return { path: p, created: !before, stat: { size: write.size, modified: stored.modified, etag: write.etag }, record: writeRecord(options, replaced), ...(await this.versionResult(p, version, options)) };
    } finally {
      release();
    }
  }

  /**
   * An overwrite of a document this instance wrote last (S3Versions.guess), in as many serialized round trips as a
   * write with versions off: the version's requests (the replaced bytes kept, the record put: prepare) and the write's
   * staging go with the stat and the tail listing, taking the document and its area to be as the last write left them;
   * the document (and the index beside it) is committed only when the stat and the listing confirm that
   * (S3Versions.confirms), and after If-Match. Not confirmed: what was put is removed and undefined is answered (the
   * caller does as without a guess). A plan or prepare failure the stat confirms is the write's failure.
   */
  private async overwriteKnown(p: StoredPath, options: WriteOptions, plan: Planner, guess: S3Guess): Promise<WriteResult | undefined> {
    const versions = this.versions!;
    const guessed = guess.before;
    // The plan first (a restore finds its version in the index known: no request): a write of the same bytes makes
    // its record current as soon as it is put, and a copy in parts is not conditional (COPY_LIMIT): neither is guessed.
    let write: OverwritePlan;
    try {
      write = await plan({ before: guessed, replaced: guessed.etag, area: guess.area });
    } catch {
      return undefined;
    }
    if (write.etag === guessed.etag || guessed.size > this.copyLimit) return undefined;
    const stat = this.current(this.docKey(p), false);
    const listed = versions.check(p, guess);
    const mine = new Set<string>();
    const attempt = (async () => {
      const prefix = (await write.prefix?.()) ?? false;
      const provenance = options.provenance ?? UNNAMED_WRITE;
      const [prepared, staged] = await Promise.allSettled([
        versions.prepare(p, { etag: write.etag, size: write.size }, { ...provenance, pageCount: provenance.pageCount ?? write.pageCount ?? null }, { size: guessed.size, modified: guessed.modified, etag: guessed.etag, prefix, s3Etag: guessed.s3Etag }, false, guess.area),
        write.stage?.(),
      ]);
      if (prepared.status === 'fulfilled') mine.add(prepared.value.key);
      return { prepared, staged };
    })();
    const [found, area, made] = await Promise.allSettled([stat, listed, attempt]);
    const confirmed = found.status === 'fulfilled' && found.value !== null && area.status === 'fulfilled' && versions.confirms(p, guess, found.value.s3Etag, area.value, mine);
    const sent = made.status === 'fulfilled' ? made.value : undefined;
    const undo = async () => {
      if (sent?.prepared.status === 'fulfilled') await sent.prepared.value.abort().catch(() => undefined);
      if (sent?.staged.status === 'fulfilled') await write.abort?.().catch(() => undefined);
    };
    if (!confirmed || !sent) {
      // Not as guessed: the write goes as without a guess, from a stat of its own.
      versions.forget(p);
      await undo();
      return undefined;
    }
    const { prepared, staged } = sent;
    if (prepared.status === 'rejected' || staged.status === 'rejected') {
      // Say the conditional copy refused (Swift compares CopySourceIfMatch with its own ETag of a multipart object, not
      // S3's): done again as without a guess, which fails on its own if S3 does.
      await undo();
      versions.forget(p);
      return undefined;
    }
    if (options.ifMatch !== undefined && !matchesEtag(options.ifMatch, guessed.etag)) {
      await undo();
      throw new ServiceError('PRECONDITION_FAILED');
    }
    const version = prepared.value;
    const stored = await version.commit(() => write.commit()).catch(async (err: unknown) => {
      await version.abort();
      throw err;
    });
    await write.keep(stored);
    return { path: p, created: false, stat: { size: write.size, modified: stored.modified, etag: write.etag }, record: writeRecord(options, guessed.etag), ...(await this.versionResult(p, version, options)) };
  }

  /**
   * Makes kept version `id` the document's content again as a new version (DocumentVersions.restore), by a copy on
   * the server: nothing passes through the service. Under the document's lock (the caller's) and the key's commit
   * lock, as any overwrite (If-Match on the current version, the replaced bytes kept first, the record put, then the
   * document): a version kept whole (its blob) is one CopyObject onto the document with our tag; one kept as the first
   * bytes of a blob or of the document (a prefix) is a multipart upload of UploadPartCopy ranges (S3 copies a range
   * only as a part), made while the version is prepared and completed after; the current content restored writes no
   * document (its bytes are there: the new record makes them a new version). The new version's page count is the
   * kept one's. The restored document is not kept locally (DownloadCache): its next read downloads it.
   */
  private restore(p: StoredPath, id: string, options: WriteOptions): Promise<WriteResult> {
    const key = this.docKey(p);
    return this.overwrite(p, options, async ({ before, replaced, area }) => {
      if (!before || !replaced) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
      const { record, from, firstBytes } = await this.versions!.restoreSource(p, id, replaced, area!);
      const base = { etag: record.etag, size: record.size, pageCount: record.pageCount };
      if (record.etag === replaced) {
        return { ...base, commit: async () => ({ s3Etag: before.s3Etag, modified: before.modified }), keep: async () => {} };
      }
      if (firstBytes && record.size < this.prefixReadBytes) {
        // A prefix below the multipart threshold: its bytes read while the version is prepared (from the document's
        // copy kept here when it is the document's current one, else a Range GET), then one PutObject: a round trip
        // less than a copy in parts (create, UploadPartCopy, complete), whose bytes S3 reads and writes all the same.
        let bytes: Buffer | undefined;
        return {
          ...base,
          stage: async () => {
            bytes = await this.firstBytes(from, record, from === key ? { s3Etag: before.s3Etag, tag: replaced } : undefined);
          },
          commit: () => this.upload(key, bytes!, record.etag, false),
          keep: (stored) => this.keepWritten(key, stored, bytes!, { size: record.size, etag: record.etag }),
        };
      }
      let copy: StagedCopy | undefined;
      const metadata = { ContentType: 'application/pdf', Metadata: { [ETAG_META]: record.etag.slice(1, -1) } };
      const host = { bucket: this.bucket, send: this.send.bind(this), copyLimit: this.copyLimit, copyPart: this.copyPart };
      return {
        ...base,
        stage: async () => {
          copy = await stageCopy(host, from, key, record.size, { firstBytes, metadata });
        },
        abort: async () => copy?.abort(),
        commit: async () => {
          await this.book?.forget(key);
          await this.verifyLocks(key).catch(async (err: unknown) => {
            await copy!.abort();
            throw err;
          });
          const done = await copy!.commit();
          const stored = { s3Etag: done.s3Etag, modified: done.modified ?? new Date() };
          if (this.book) await this.recordWritten(key, { ...stored, etag: record.etag, size: record.size });
          return stored;
        },
        // Another version of the key now: the kept download (if any) is the replaced one's.
        keep: () => this.downloads.drop(key),
      };
    });
  }

  /**
   * The first `version.size` bytes of the object at `from` (a restore's prefix), checked against the version's tag:
   * from the copy of the document kept here (DownloadCache) when `from` is the document and the kept copy is of the
   * version `doc` names (its S3 ETag), else by a Range GET (of the document only while it carries `doc.tag`).
   */
  private async firstBytes(from: string, version: { size: number; etag: string; id: string }, doc: { s3Etag: string | undefined; tag: string } | undefined): Promise<Buffer> {
    let bytes: Buffer | undefined;
    const kept = doc && doc.s3Etag !== undefined ? await this.downloads.open(from) : undefined;
    if (kept) {
      try {
        if (kept.version.sourceEtag === doc!.s3Etag && kept.version.size >= version.size) {
          bytes = Buffer.alloc(version.size);
          const { bytesRead } = await kept.handle.read(bytes, 0, version.size, 0);
          if (bytesRead !== version.size) bytes = undefined;
        }
      } finally {
        await kept.handle.close();
      }
    }
    if (!bytes) {
      const got = await this.download(from, { bytes: version.size, ...(doc ? { tag: doc.tag.slice(1, -1) } : {}) });
      if (!got) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${version.id}`);
      try {
        bytes = await got.read();
      } finally {
        await got.close();
      }
    }
    if (bytes.length !== version.size || (await etagOfContent(bytes)) !== version.etag) throw new Error(`the first ${version.size} bytes of ${from} are not version ${version.id}`);
    return bytes;
  }

  /** What a write answers of its version, after the purge it asked for (under the commit lock still). */
  private async versionResult(p: StoredPath, version: PendingS3Version | undefined, options: WriteOptions): Promise<Pick<WriteResult, 'version' | 'purgedVersions' | 'predecessor'>> {
    if (!version || !this.versions) return {};
    const purgedVersions = options.purgeEarlierVersions ? await this.versions.purgeEarlier(p) : undefined;
    // The predecessor the write found (as the other stores report theirs): its answer then lists no versions to name it.
    return { version: version.record, ...(purgedVersions !== undefined ? { purgedVersions } : {}), ...(version.predecessor !== undefined ? { predecessor: version.predecessor } : {}) };
  }

  /** Keeps the version just written for the next read, under the S3 ETag the write answered (without one, none is kept). */
  private async keepWritten(key: string, stored: Stored, content: Content, version: { size: number; etag: string }): Promise<void> {
    if (stored.s3Etag === undefined) await this.downloads.drop(key);
    else await this.downloads.keepWritten(key, { sourceEtag: stored.s3Etag, size: version.size, modified: stored.modified, etag: version.etag }, content);
  }

  /**
   * Puts the content at `key` with our tag in its metadata: one PUT when it is
   * small and need not be `conditional`, else a multipart upload (which
   * streams a large staged file part by part, and is the one write Swift lets
   * be conditional: completed with If-None-Match: * when `conditional`).
   * Answers the version stored (null when `conditional` and the key exists):
   * its S3 ETag, from the write's answer, and its time, the `Date` header of
   * that answer. No HEAD after the write: it would cost a request per write
   * only to learn Last-Modified. The server's Date rather than this
   * instance's clock, as instances' clocks differ and the server's is the one
   * its Last-Modified comes from. The two are not equal: Last-Modified is the
   * object's timestamp in whole seconds, which Swift rounds up (a PUT at
   * 10:00:00.4 lists as 10:00:01) and Date rounds down, so the time a write
   * reports can be a second before the one a later stat or listing reports
   * for the same version. Nothing compares them (the time is only shown: the
   * Last-Modified header, the model's `modified`), and a read of the kept
   * version takes the time from S3's 304 answer, so reads agree with stat
   * and listings.
   */
  private async upload(key: string, content: Content, etag: string, conditional: false, blob?: true): Promise<Stored>;
  private async upload(key: string, content: Content, etag: string, conditional: boolean): Promise<Stored | null>;
  private async upload(key: string, content: Content, etag: string, conditional: boolean, blob?: true): Promise<Stored | null> {
    const size = content instanceof StagedFile ? content.size : content.byteLength;
    // A blob (blobs()) is no document: no ETag book record, and S3 is not told it is a PDF.
    const book = blob ? undefined : this.book;
    const common = { Bucket: this.bucket, Key: key, ...(blob ? {} : { ContentType: 'application/pdf' }), Metadata: { [ETAG_META]: etag.slice(1, -1) } };
    if (!conditional && size < this.multipartThreshold) {
      const body = content instanceof StagedFile ? createReadStream(content.file) : content;
      await book?.forget(key);
      await this.verifyLocks(key);
      const command = new PutObjectCommand({ ...common, Body: body, ContentLength: size });
      const date = serverDateOf(command);
      const put = await this.send('PutObject', (c) => c.send(command));
      const stored = { s3Etag: put.ETag, modified: date() ?? new Date() };
      if (book) await this.recordWritten(key, { ...stored, etag, size });
      return stored;
    }
    const created = await this.send('CreateMultipartUpload', (c) => c.send(new CreateMultipartUploadCommand(common)));
    const uploadId = created.UploadId;
    if (!uploadId) throw s3Failure(Object.assign(new Error('no UploadId'), { $metadata: { httpStatusCode: 502 } }), 'CreateMultipartUpload');
    let completed = false;
    try {
      const parts: CompletedPart[] = [];
      // One part at least, even for empty content; each part but the last of partSize bytes.
      for (let start = 0, number = 1; start < size || number === 1; start += this.partSize, number++) {
        const end = Math.min(start + this.partSize, size);
        const body = end === start ? new Uint8Array(0) : content instanceof StagedFile ? createReadStream(content.file, { start, end: end - 1 }) : content.subarray(start, end);
        const part = await this.send('UploadPart', (c) => c.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: number, Body: body, ContentLength: end - start })));
        parts.push({ PartNumber: number, ETag: part.ETag });
      }
      await book?.forget(key);
      await this.verifyLocks(key);
      const command = new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts }, ...(conditional ? { IfNoneMatch: '*' } : {}) });
      const date = serverDateOf(command);
      let done: { ETag?: string | undefined };
      try {
        done = await this.send('CompleteMultipartUpload', (c) => c.send(command));
      } catch (err) {
        // 412 (Swift says InvalidRequest, AWS PreconditionFailed; 409 when a concurrent completion on AWS): the key exists.
        if (conditional && (s3Status(err) === 412 || s3Status(err) === 409)) return null;
        throw err;
      }
      completed = true;
      const stored = { s3Etag: done.ETag, modified: date() ?? new Date() };
      if (book) await this.recordWritten(key, { ...stored, etag, size });
      return stored;
    } finally {
      if (!completed) await this.abortQuietly(key, uploadId);
    }
  }

  private async abortQuietly(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch {
      // Left for recover() to abort (no listing shows it meanwhile).
    }
  }

  /**
   * Makes the marker objects of `folder` and its parents unless its own is
   * there (then its parents' are too, as they are made together).
   */
  private async ensureFolders(folder: StoredPath): Promise<boolean> {
    if (folder.isRoot || (await this.head(this.folderKey(folder)))) return false;
    for (let p = folder; !p.isRoot; p = p.parent) {
      await this.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.folderKey(p), Body: new Uint8Array(0), ContentLength: 0 })));
    }
    return true;
  }

  /**
   * With If-Match: checked against our tag under the key's commit lock (as
   * writes are), and the DELETE made conditional on the S3 version checked
   * where the server can: Swift compares If-Match with a multipart object's
   * manifest, never its S3 ETag ("<md5>-<parts>"), so only a single-PUT
   * object's delete carries it.
   */
  async deleteDocument(p: StoredPath, ifMatch?: string, by: string | null = null): Promise<void> {
    const key = this.docKey(p);
    // With an ETag book every delete takes the commit lock: a write between its forget and its record must not meet a delete.
    const release = ifMatch !== undefined || this.book ? await this.commits.acquire(key) : undefined;
    try {
      const found = p.isDocument ? await this.current(key, release === undefined) : null;
      if (!found) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
      if (ifMatch !== undefined && !matchesEtag(ifMatch, await this.tagOf(p, found.etag))) throw new ServiceError('PRECONDITION_FAILED');
      const conditional = ifMatch !== undefined && found.s3Etag !== undefined && /^"[0-9a-f]{32}"$/.test(found.s3Etag);
      // Into the trash: copied there and committed (trash.ts), then the document goes, then its versions' originals.
      const trashed = this.trash ? await this.trash.put('document', p, by) : null;
      // Erased: its versions first, a crash between leaves the document without versions, never versions that a new
      // document at this path would inherit.
      if (!trashed) await this.versions?.removeAll(p);
      await this.book?.forget(key);
      try {
        await this.verifyLocks(key);
        await this.send('DeleteObject', (c) => c.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key, ...(conditional ? { IfMatch: found.s3Etag } : {}) })));
      } catch (err) {
        await trashed?.discard();
        if (s3Status(err) === 412) throw new ServiceError('PRECONDITION_FAILED');
        throw err;
      } finally {
        await this.downloads.drop(key);
      }
      await trashed?.done();
    } finally {
      release?.();
    }
  }

  stage(source: Readable, limit: number): Promise<StagedUpload> {
    return stageToFile(this.staging, source, limit);
  }

  /**
   * Files the service keeps for itself in the bucket (job result files: every instance and worker reads the one a
   * job on any of them made), under `<prefix>.<area>/`: a name starting with "." is never a document's or a
   * folder's (storage/paths.ts), so no listing shows these keys and no document path reaches them, and the root
   * folder, which holds them, cannot be deleted. Written as documents are (one PUT, or parts for a large file, an
   * object whole or not at all), read through a spool file that is unlinked once open (nothing left behind).
   */
  blobs(area: string): BlobStore {
    checkBlobName(area);
    const keyOf = (name: string) => {
      checkBlobName(name);
      return `${this.prefix}.${area}/${name}`;
    };
    return {
      put: async (name, content) => {
        const key = keyOf(name);
        if (content instanceof StagedFile || content instanceof Uint8Array) {
          const etag = content instanceof StagedFile ? content.etag : await etagOfContent(content);
          await this.upload(key, content, etag, false, true);
          return { size: content instanceof StagedFile ? content.size : content.byteLength, etag };
        }
        // Another store's staged content: spooled here first (S3 needs the length, and parts re-read the file).
        const file = spoolName(this.spool);
        const { stream, done } = await contentStream(content);
        try {
          const copied = await copyToFile(file, stream, { sync: false }).finally(done);
          await this.upload(key, new StagedFile(file, copied.size, copied.etag), copied.etag, false, true);
          return { size: copied.size, etag: copied.etag };
        } finally {
          await fs.rm(file, { force: true });
        }
      },
      open: (name) => this.download(keyOf(name)),
      delete: async (name) => {
        const key = keyOf(name);
        try {
          await this.send('DeleteObject', (c) => c.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
        } catch (err) {
          if (s3Status(err) !== 404) throw err;
        }
      },
    };
  }

  /**
   * An object of a service area (blobs, versions) read through a spool file that is unlinked once open (nothing left
   * behind, and nothing kept: DownloadCache is for documents); null when there is no such key.
   */
  private async download(key: string, only: { bytes?: number; tag?: string } = {}): Promise<ReturnType<typeof openLocalFile> | null> {
    let res: { Body?: unknown; Metadata?: Record<string, string> };
    try {
      const range = only.bytes !== undefined ? { Range: `bytes=0-${only.bytes - 1}` } : {};
      res = await this.send('GetObject', (c) => c.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, ...range })));
    } catch (err) {
      if (s3Status(err) === 404) return null;
      throw err;
    }
    // Another object than the one asked for (a version's prefix read from a document replaced meanwhile): not read.
    if (only.tag !== undefined && res.Metadata?.[ETAG_META] !== only.tag) {
      (res.Body as Readable | undefined)?.destroy();
      return null;
    }
    const file = spoolName(this.spool);
    try {
      const copied = await copyToFile(file, res.Body as Readable, { sync: false }).catch((err: unknown) => {
        throw s3Failure(err, 'GetObject');
      });
      const handle = await fs.open(file, 'r');
      return openLocalFile(handle, copied.size);
    } finally {
      // The open descriptor keeps the bytes; the name goes at once, so no spool file outlives its reader.
      await fs.rm(file, { force: true });
    }
  }

  /** A folder exists when any key starts with its prefix (its marker sorts first: its time is the folder's). */
  async statFolder(p: StoredPath): Promise<{ modified: Date } | null> {
    if (p.isDocument) return null; // folder names never end in .pdf
    if (p.isRoot) return { modified: new Date() }; // S3 keeps no time for a key prefix
    const res = await this.send('ListObjectsV2', (c) => c.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.folderKey(p), MaxKeys: 1 })));
    const first = res.Contents?.[0];
    return first ? { modified: first.LastModified ?? new Date() } : null;
  }

  async makeFolder(p: StoredPath): Promise<{ created: boolean }> {
    if (p.isDocument) throw new ServiceError('INVALID_PATH', 'A folder name may not end in ".pdf"');
    if (await this.statFolder(p)) return { created: false };
    return { created: await this.ensureFolders(p) };
  }

  /** Every page of a listing (ListObjectsV2 pages through continuation tokens). */
  private async listAll(prefix: string, delimiter: boolean, startAfter?: string): Promise<{ objects: _Object[]; prefixes: string[] }> {
    const objects: _Object[] = [];
    const prefixes: string[] = [];
    let token: string | undefined;
    do {
      const res = await this.send('ListObjectsV2', (c) => c.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(delimiter ? { Delimiter: '/' } : {}), ...(startAfter !== undefined ? { StartAfter: startAfter } : {}), ...(token ? { ContinuationToken: token } : {}) })),
      );
      objects.push(...(res.Contents ?? []));
      for (const c of res.CommonPrefixes ?? []) if (c.Prefix) prefixes.push(c.Prefix);
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return { objects, prefixes };
  }

  /**
   * The folders and documents directly in a folder. A folder's time in a
   * listing is the listing's: S3 lists key prefixes without one (statFolder
   * gives its marker's).
   */
  async listFolder(p: StoredPath): Promise<FolderEntry[]> {
    if (p.isDocument) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const base = this.folderKey(p);
    const { objects, prefixes } = await this.listAll(base, true);
    if (!p.isRoot && objects.length === 0 && prefixes.length === 0) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const now = new Date();
    const entries: FolderEntry[] = [];
    for (const folder of prefixes) {
      const name = folder.slice(base.length, -1);
      if (name && !name.startsWith('.')) entries.push({ name, type: 'folder', modified: now });
    }
    for (const o of objects) {
      const name = (o.Key ?? '').slice(base.length);
      if (!name || name.startsWith('.') || !/\.pdf$/i.test(name)) continue;
      entries.push({ name, type: 'document', size: o.Size ?? 0, modified: o.LastModified ?? now });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Deletes the keys one listing found below the folder (its marker too),
   * with DeleteObjects: a request per 1000 keys rather than one per key, so
   * a large folder goes in few round trips. Without `recursive`, refused when
   * that listing shows anything a listing of the folder would.
   */
  async deleteFolder(p: StoredPath, recursive: boolean, by: string | null = null): Promise<void> {
    if (p.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    if (p.isDocument) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const base = this.folderKey(p);
    const { objects } = await this.listAll(base, false);
    if (objects.length === 0) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    let keys = objects.flatMap((o) => (o.Key ? [o.Key] : []));
    if (!recursive) {
      const visible = keys.some((key) => {
        const rest = key.slice(base.length);
        const first = rest.split('/')[0] ?? '';
        if (!rest || first.startsWith('.')) return false;
        return rest.includes('/') || /\.pdf$/i.test(rest);
      });
      if (visible) throw new ServiceError('FOLDER_NOT_EMPTY', 'The folder is not empty; use ?recursive=true');
    }
    await this.downloads.dropBelow(base);
    // Into the trash when it holds documents (put answers null for a folder of none: erased): what was copied there goes.
    const trashed = recursive && this.trash ? await this.trash.put('folder', p, by) : null;
    if (trashed) keys = trashed.items;
    // Erased: the versions of its documents first, as deleteDocument does.
    else await this.versions?.removeAll(p);
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const releases = await this.forgetAll(batch);
      try {
        await this.deleteKeys(batch);
      } finally {
        for (const release of releases) release();
      }
    }
    await trashed?.done();
  }

  /** Deletes keys with DeleteObjects, a request per 1000 keys. */
  private async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const res = await this.send('DeleteObjects', (c) => c.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })));
      const failed = res.Errors?.[0];
      if (failed) throw s3Failure(Object.assign(new Error(`${failed.Code ?? 'error'} for ${failed.Key ?? '?'}`), { $metadata: { httpStatusCode: 503 } }), 'DeleteObjects');
    }
  }

  /**
   * With an ETag book, before a folder's objects are deleted: takes the
   * commit lock of each object (not the folder markers: only documents are
   * recorded) and forgets its record, so no write of one can record between
   * the forget and the delete. In key order, as the listing gives them, so
   * two folder deletes never wait for each other in a circle (a writer holds
   * one commit lock at a time). Answers the releases, for after the delete.
   */
  private async forgetAll(keys: string[]): Promise<Release[]> {
    if (!this.book) return [];
    const releases: Release[] = [];
    try {
      for (const key of [...keys].filter((k) => !k.endsWith('/')).sort()) {
        releases.push(await this.commits.acquire(key));
        await this.book.forget(key);
      }
    } catch (err) {
      for (const release of releases) release();
      throw err;
    }
    return releases;
  }

  lock(p: StoredPath): Promise<Release> {
    return this.locks.acquire(this.docKey(p));
  }

  /**
   * Empties the local staging, spool and kept folders and aborts the multipart
   * uploads below the prefix that interrupted writes left (those started at
   * least staleUploadMs ago: another instance's may be running now).
   */
  async recover(): Promise<void> {
    await this.downloads.clear();
    for (const dir of [this.staging, this.spool]) {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.mkdir(dir, { recursive: true });
    }
    const cutoff = Date.now() - this.staleUploadMs;
    for (const upload of await this.openUploads()) {
      if (this.staleUploadMs <= 0 || (upload.initiated?.getTime() ?? 0) <= cutoff) await this.abortQuietly(upload.key, upload.uploadId);
    }
    // Before the versions: a delete or restore finished puts versions beside their document, or takes them away (trash.ts).
    await this.trash?.recover();
    // Versions of writes that did not commit, purges a crash interrupted, versions of documents gone (versions.ts).
    await this.versions?.recover();
  }

  /** The unfinished multipart uploads below the prefix. */
  async openUploads(): Promise<{ key: string; uploadId: string; initiated: Date | undefined }[]> {
    const out: { key: string; uploadId: string; initiated: Date | undefined }[] = [];
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    for (;;) {
      const res = await this.send('ListMultipartUploads', (c) => c.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix, ...(keyMarker ? { KeyMarker: keyMarker } : {}), ...(idMarker ? { UploadIdMarker: idMarker } : {}) })),
      );
      for (const u of res.Uploads ?? []) if (u.Key && u.UploadId) out.push({ key: u.Key, uploadId: u.UploadId, initiated: u.Initiated });
      if (!res.IsTruncated || !res.NextKeyMarker) return out;
      keyMarker = res.NextKeyMarker;
      idMarker = res.NextUploadIdMarker;
    }
  }
}
