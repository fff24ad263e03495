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
import { LocalLocks, type LockProvider } from '../redis-lock.js';
import { copyToFile, openContent, spoolName, StagedFile, stageToFile } from '../local-files.js';
import type { StoredPath } from '../paths.js';
import { etagOf, matchesEtag, withRandomSuffix } from '../store.js';
import type { DocumentStat, DocumentStore, FolderEntry, OpenDocument, Release, StagedUpload, WriteOptions, WriteResult } from '../store.js';
import { s3Failure, s3Status } from './client.js';

/**
 * Serializes the commits (check the version, then write) of one key. S3
 * servers without conditional PUT (Swift's s3api: docs/s3.md) leave a gap
 * between the check and the write that only a lock closes. LocalLocks closes
 * it within one process; several instances share Redis locks (RedisLocks),
 * whose verify() just before the write refuses it when the lease ran out.
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
  /** Local folder for staged uploads and spooled reads. */
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
}

type Content = StagedFile | Uint8Array;

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
 * tag it gets is that of the bytes it got.
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
  /**
   * Tags computed by reading objects whose metadata has none or the wrong one (written by another program), by
   * key, for the S3 version they were computed for: such an object is hashed once per version, not at every stat.
   */
  private readonly computed = new Map<string, { s3Etag: string; etag: string }>();

  constructor(options: S3StoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.staging = path.join(options.dataDir, 'staging');
    this.spool = path.join(options.dataDir, 'spool');
    this.commits = options.commitLock ?? new LocalLocks();
    this.locks = options.documentLocks ?? new LocalLocks();
    this.partSize = Math.max(options.partSize ?? 8 * MiB, 5 * MiB);
    this.multipartThreshold = Math.max(options.multipartThreshold ?? 16 * MiB, this.partSize);
    this.staleUploadMs = options.staleUploadMs ?? 60 * 60 * 1000;
  }

  async init(): Promise<void> {
    await fs.mkdir(this.staging, { recursive: true });
    await fs.mkdir(this.spool, { recursive: true });
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

  /** The object's S3 ETag and our tag (undefined when it was written without one, by another program), or null. */
  private async head(key: string): Promise<{ s3Etag: string | undefined; etag: string | undefined; size: number; modified: Date } | null> {
    try {
      const res = await this.send('HeadObject', (c) => c.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      const own = res.Metadata?.[ETAG_META];
      const known = this.computed.get(key);
      const etag = known && known.s3Etag === res.ETag ? known.etag : own && /^[0-9a-f]{32}$/.test(own) ? `"${own}"` : undefined;
      return { s3Etag: res.ETag, etag, size: res.ContentLength ?? 0, modified: res.LastModified ?? new Date() };
    } catch (err) {
      if (s3Status(err) === 404) return null;
      throw err;
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
    const found = await this.head(this.docKey(p));
    if (!found) return null;
    return { size: found.size, modified: found.modified, etag: await this.tagOf(p, found.etag) };
  }

  /**
   * Downloads the current version into the spool folder, hashing it; the
   * file is unlinked once open, so it goes when the document is closed (or the
   * process ends) and nothing is left to clean up.
   */
  async openDocument(p: StoredPath): Promise<OpenDocument> {
    const notFound = () => new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    if (!p.isDocument) throw notFound();
    const key = this.docKey(p);
    let res: { Body?: unknown; LastModified?: Date; ETag?: string; Metadata?: Record<string, string> };
    try {
      res = await this.send('GetObject', (c) => c.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })));
    } catch (err) {
      if (s3Status(err) === 404) throw notFound();
      throw err;
    }
    const file = spoolName(this.spool);
    let handle: fs.FileHandle;
    let copied: { size: number; etag: string };
    try {
      // A body that stops arriving (S3 gone mid-download) is 503 like a request that fails.
      copied = await copyToFile(file, res.Body as Readable, { sync: false }).catch((err: unknown) => {
        throw s3Failure(err, 'GetObject');
      });
      handle = await fs.open(file, 'r');
    } finally {
      await fs.rm(file, { force: true });
    }
    // The tag is the hash of the bytes read, whatever the metadata says (another program may have replaced them).
    const stat = { size: copied.size, modified: res.LastModified ?? new Date(), etag: copied.etag };
    if (res.ETag && `"${res.Metadata?.[ETAG_META] ?? ''}"` !== copied.etag) {
      if (this.computed.size > 10_000) this.computed.clear();
      this.computed.set(key, { s3Etag: res.ETag, etag: copied.etag });
    }
    return {
      ...openContent(handle, stat.size),
      stat,
      stream: (range) => handle.createReadStream({ autoClose: true, start: range?.start ?? 0, ...(range ? { end: range.end } : {}) }),
    };
  }

  /**
   * Writes a document. What S3 servers honour decides how each mode stays
   * safe (docs/s3.md):
   * - `fail` and `unique` (create if absent): under the commit lock, a HEAD,
   *   then a multipart upload completed with If-None-Match: *, which S3 and
   *   Swift's s3api refuse with 412 when the key exists: a document another
   *   instance created after the HEAD is not replaced. On AWS that is atomic;
   *   Swift checks and then writes, so two completions at the same moment can
   *   both succeed (measured): across instances on Swift only the shared
   *   CommitLock closes that.
   * - `overwrite` with If-Match: Swift refuses every conditional PUT (501),
   *   so the version is checked (HEAD, our tag) and the object written under
   *   the commit lock of its key. Across instances that needs the shared
   *   (Redis) CommitLock (main.ts uses it with PDFSERVICE_REDIS_URL): with
   *   several instances on the in-process lock, a writer in another instance
   *   between the check and the PUT would be overwritten.
   * - `overwrite` without a condition: one PUT (under the commit lock too).
   * Everything that can refuse is checked before a folder marker is made, and
   * the locks are verified just before the object is written (verifyLocks).
   */
  async writeDocument(p: StoredPath, content: Buffer | Uint8Array | StagedUpload, options: WriteOptions): Promise<WriteResult> {
    if (!p.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    if (!(content instanceof StagedFile || content instanceof Uint8Array)) throw new TypeError('Staged uploads must come from this store');
    const etag = content instanceof StagedFile ? content.etag : etagOf(content);
    const size = content instanceof StagedFile ? content.size : content.byteLength;
    if (options.conflict === 'overwrite') {
      const key = this.docKey(p);
      const release = await this.commits.acquire(key);
      try {
        const before = await this.head(key);
        if (options.ifMatch !== undefined && (!before || !matchesEtag(options.ifMatch, await this.tagOf(p, before.etag)))) throw new ServiceError('PRECONDITION_FAILED');
        await this.ensureFolders(p.parent);
        const modified = await this.upload(key, content, etag, false);
        return { path: p, created: !before, stat: { size, modified, etag } };
      } finally {
        release();
      }
    }
    let target = p;
    let foldersMade = false;
    for (let attempt = 0; ; attempt++) {
      const key = this.docKey(target);
      const release = await this.commits.acquire(key);
      try {
        // A name known to be taken is not uploaded to; the conditional completion decides the rest.
        const taken = (await this.head(key)) !== null;
        if (!taken) {
          if (!foldersMade) await this.ensureFolders(p.parent);
          foldersMade = true;
          const modified = await this.upload(key, content, etag, true);
          if (modified) return { path: target, created: true, stat: { size, modified, etag } };
        }
      } finally {
        release();
      }
      if (options.conflict === 'fail' || attempt >= UNIQUE_ATTEMPTS) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
      target = withRandomSuffix(p);
    }
  }

  /**
   * Puts the content at `key` with our tag in its metadata: one PUT when it is
   * small and need not be new, else a multipart upload (which streams a large
   * staged file part by part, and is the one write Swift lets be conditional).
   * The time it was stored; null when `createOnly` and the key exists.
   */
  private async upload(key: string, content: Content, etag: string, createOnly: false): Promise<Date>;
  private async upload(key: string, content: Content, etag: string, createOnly: true): Promise<Date | null>;
  private async upload(key: string, content: Content, etag: string, createOnly: boolean): Promise<Date | null> {
    const size = content instanceof StagedFile ? content.size : content.byteLength;
    const common = { Bucket: this.bucket, Key: key, ContentType: 'application/pdf', Metadata: { [ETAG_META]: etag.slice(1, -1) } };
    if (!createOnly && size < this.multipartThreshold) {
      const body = content instanceof StagedFile ? createReadStream(content.file) : content;
      await this.verifyLocks(key);
      await this.send('PutObject', (c) => c.send(new PutObjectCommand({ ...common, Body: body, ContentLength: size })));
      return (await this.head(key))?.modified ?? new Date();
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
      await this.verifyLocks(key);
      try {
        await this.send('CompleteMultipartUpload', (c) => c.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts }, ...(createOnly ? { IfNoneMatch: '*' } : {}) })));
      } catch (err) {
        // 412 (Swift says InvalidRequest, AWS PreconditionFailed; 409 when a concurrent completion on AWS): the key exists.
        if (createOnly && (s3Status(err) === 412 || s3Status(err) === 409)) return null;
        throw err;
      }
      completed = true;
      return (await this.head(key))?.modified ?? new Date();
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
  async deleteDocument(p: StoredPath, ifMatch?: string): Promise<void> {
    const key = this.docKey(p);
    const release = ifMatch !== undefined ? await this.commits.acquire(key) : undefined;
    try {
      const found = p.isDocument ? await this.head(key) : null;
      if (!found) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
      if (ifMatch !== undefined && !matchesEtag(ifMatch, await this.tagOf(p, found.etag))) throw new ServiceError('PRECONDITION_FAILED');
      const conditional = ifMatch !== undefined && found.s3Etag !== undefined && /^"[0-9a-f]{32}"$/.test(found.s3Etag);
      await this.verifyLocks(key);
      try {
        await this.send('DeleteObject', (c) => c.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key, ...(conditional ? { IfMatch: found.s3Etag } : {}) })));
      } catch (err) {
        if (s3Status(err) === 412) throw new ServiceError('PRECONDITION_FAILED');
        throw err;
      }
    } finally {
      release?.();
    }
  }

  stage(source: Readable, limit: number): Promise<StagedUpload> {
    return stageToFile(this.staging, source, limit);
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
  private async listAll(prefix: string, delimiter: boolean): Promise<{ objects: _Object[]; prefixes: string[] }> {
    const objects: _Object[] = [];
    const prefixes: string[] = [];
    let token: string | undefined;
    do {
      const res = await this.send('ListObjectsV2', (c) => c.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(delimiter ? { Delimiter: '/' } : {}), ...(token ? { ContinuationToken: token } : {}) })),
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
  async deleteFolder(p: StoredPath, recursive: boolean): Promise<void> {
    if (p.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    if (p.isDocument) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const base = this.folderKey(p);
    const { objects } = await this.listAll(base, false);
    if (objects.length === 0) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const keys = objects.flatMap((o) => (o.Key ? [o.Key] : []));
    if (!recursive) {
      const visible = keys.some((key) => {
        const rest = key.slice(base.length);
        const first = rest.split('/')[0] ?? '';
        if (!rest || first.startsWith('.')) return false;
        return rest.includes('/') || /\.pdf$/i.test(rest);
      });
      if (visible) throw new ServiceError('FOLDER_NOT_EMPTY', 'The folder is not empty; use ?recursive=true');
    }
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const res = await this.send('DeleteObjects', (c) => c.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })),
      );
      const failed = res.Errors?.[0];
      if (failed) throw s3Failure(Object.assign(new Error(`${failed.Code ?? 'error'} for ${failed.Key ?? '?'}`), { $metadata: { httpStatusCode: 503 } }), 'DeleteObjects');
    }
  }

  lock(p: StoredPath): Promise<Release> {
    return this.locks.acquire(this.docKey(p));
  }

  /**
   * Empties the local staging and spool folders and aborts the multipart
   * uploads below the prefix that interrupted writes left (those started at
   * least staleUploadMs ago: another instance's may be running now).
   */
  async recover(): Promise<void> {
    for (const dir of [this.staging, this.spool]) {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.mkdir(dir, { recursive: true });
    }
    const cutoff = Date.now() - this.staleUploadMs;
    for (const upload of await this.openUploads()) {
      if (this.staleUploadMs <= 0 || (upload.initiated?.getTime() ?? 0) <= cutoff) await this.abortQuietly(upload.key, upload.uploadId);
    }
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
