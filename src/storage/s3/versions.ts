import { CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand, AbortMultipartUploadCommand, DeleteObjectsCommand, GetBucketVersioningCommand, ListObjectVersionsCommand, PutObjectCommand, UploadPartCopyCommand, type S3Client, type _Object } from '@aws-sdk/client-s3';
import { ServiceError } from '../../errors.js';
import { StoredPath } from '../paths.js';
import type { DocumentStat, DocumentVersions, OpenDocument, Release, VersionRecord, VersionSlice, WriteProvenance } from '../store.js';

/**
 * The versions of the S3 store (docs/versions.md, "Storage (S3)"), under keys that are never a document's:
 * `<prefix>.versions/<the document's path>/` (a name starting with "." is no document's or folder's, as the store's
 * other service areas, S3Store.blobs) holds
 *
 * - `v-<id>-<etag>.json`: one version's record (id: 16 digits, ordered by time; etag: its 32 hex digits, so that one
 *   listing tells which records name which bytes, without reading them);
 * - `b-<etag>`: the bytes of every non-current version with that ETag, copied from the document by CopyObject (on the
 *   server: nothing passes through the service) just before a write replaces it. The current document is the newest
 *   version and costs nothing extra; versions with equal bytes share one blob.
 * - `v-<id>.purge`: written with the record of a write that purges every earlier version (ApplyRedactionsAction),
 *   removed when the purge is done: recover() finishes a purge a crash interrupted.
 *
 * S3 has no rename, so a record cannot be written aside and renamed in: a write puts its record before the document,
 * and what is visible is decided by the document's ETag (stat first, then the listing: a consistent view as of the
 * stat). The current version is the newest record with the document's ETag; records after it are writes that did not
 * commit (or had not yet when the stat was made) and are invisible; an earlier record is shown when its bytes exist
 * (its blob, or the document itself when the ETags are equal). Bytes are copied before the record that needs them and
 * records are removed before their bytes, so no visible record names missing bytes. Changes are made under the
 * document's commit lock (writes) or the document lock (the callers of update, remove, purgeEarlier).
 */

const RECORD = /^v-(\d{16})-([0-9a-f]{32})\.json$/;
const PURGE = /^v-(\d{16})\.purge$/;
const BLOB = /^b-([0-9a-f]{32})$/;
const ID = /^\d{16}$/;
/** Records kept by readListed: a few hundred bytes each. */
const RECORD_CACHE = 10_000;
/** CopyObject copies up to 5 GiB in one request; larger documents (PDFSERVICE_MAX_UPLOAD_BYTES allows 8 GiB) go in parts. */
export const COPY_LIMIT = 5 * 1024 * 1024 * 1024;
/** The size of each part of a copy in parts: 1 GiB keeps an 8 GiB document well below Swift's 1000 parts. */
export const COPY_PART = 1024 * 1024 * 1024;

/** What the versions need of their store (S3Store), without reaching into it. */
export interface S3VersionsHost {
  readonly bucket: string;
  /** The key prefix of the store (''or ending in '/'). */
  readonly prefix: string;
  send<T>(what: string, run: (client: S3Client) => Promise<T>): Promise<T>;
  listAll(prefix: string): Promise<_Object[]>;
  /** Deletes keys (DeleteObjects, 1000 a request). */
  deleteKeys(keys: string[]): Promise<void>;
  docKey(p: StoredPath): string;
  statDocument(p: StoredPath): Promise<DocumentStat | null>;
  openDocument(p: StoredPath): Promise<OpenDocument>;
  /** An object's bytes in a spool file held open (unlinked at once), or null when there is no such key. */
  download(key: string): Promise<Omit<OpenDocument, 'stat'> | null>;
  /** The commit lock of a key (S3Store's CommitLock: shared by every instance with Redis). */
  commitLock(key: string): Promise<Release>;
  /** Documents above this size are copied in parts of copyPart bytes (COPY_LIMIT, COPY_PART; smaller in tests). */
  readonly copyLimit: number;
  readonly copyPart: number;
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

const hex = (etag: string) => etag.replace(/"/g, '');

/** One document's versions area as one listing found it. */
interface Listing {
  /** Ordered by id. */
  /** s3Etag: the record object's own S3 ETag (readListed). */
  records: { id: string; etag: string; key: string; s3Etag: string | undefined }[];
  /** ETags (quoted) that have a blob. */
  blobs: Set<string>;
  purges: { id: string; key: string }[];
  /** Every key of the area. */
  keys: string[];
}

/** What is visible of a listing given the document's ETag (null: no document). */
interface View {
  visible: Listing['records'];
  current: string | null;
  /** Records after the current one: writes that did not commit. */
  pending: Listing['records'];
}

function viewOf(listing: Listing, current: string | null): View {
  const { records, blobs } = listing;
  let cut = -1;
  for (let i = records.length - 1; i >= 0; i--) {
    if (records[i]!.etag === current) {
      cut = i;
      break;
    }
  }
  // Without a record of the current bytes (written by another program, or with versions off), every record is earlier.
  const kept = cut >= 0 ? records.slice(0, cut + 1) : records.filter((r) => blobs.has(r.etag));
  const pending = cut >= 0 ? records.slice(cut + 1) : records.filter((r) => !blobs.has(r.etag));
  return {
    visible: kept.filter((r) => r.etag === current || blobs.has(r.etag)),
    current: cut >= 0 ? records[cut]!.id : null,
    pending,
  };
}

/** A version written but not yet committed (S3Versions.prepare). */
export interface PendingS3Version {
  readonly record: VersionRecord;
  /** The document's write did not happen: its record (and purge marker) go. */
  abort(): Promise<void>;
}

export class S3Versions implements DocumentVersions {
  /** The last id this process gave out: ids stay ordered when two writes fall in one millisecond. */
  private lastId = 0;
  /** Whether the bucket keeps S3 object versions (Enabled, or Suspended with some kept), once S3 answered. */
  private bucketVersioning: boolean | undefined;
  /** Records read by list(), by key, with their objects' S3 ETags (readListed). */
  private readonly recordCache = new Map<string, { s3Etag: string; record: VersionRecord }>();

  constructor(private readonly host: S3VersionsHost) {}

  /** `<prefix>.versions/` */
  private get root(): string {
    return `${this.host.prefix}.versions/`;
  }

  private dirOf(p: StoredPath): string {
    return `${this.root}${p.segments.join('/')}/`;
  }

  private recordKey(p: StoredPath, id: string, etag: string): string {
    return `${this.dirOf(p)}v-${id}-${hex(etag)}.json`;
  }

  private blobKey(p: StoredPath, etag: string): string {
    return `${this.dirOf(p)}b-${hex(etag)}`;
  }

  private nextId(after: string | undefined): string {
    const id = Math.max(Date.now() * 1000, this.lastId + 1, after === undefined ? 0 : Number(after) + 1);
    this.lastId = id;
    return String(id).padStart(16, '0');
  }

  private async listing(dir: string): Promise<Listing> {
    const objects = (await this.host.listAll(dir)).filter((o) => o.Key);
    const keys = objects.map((o) => o.Key!);
    const records: Listing['records'] = [];
    const blobs = new Set<string>();
    const purges: Listing['purges'] = [];
    for (const { Key: key, ETag: s3Etag } of objects) {
      const name = key!.slice(dir.length);
      const record = RECORD.exec(name);
      if (record) records.push({ id: record[1]!, etag: `"${record[2]!}"`, key: key!, s3Etag });
      const blob = BLOB.exec(name);
      if (blob) blobs.add(`"${blob[1]!}"`);
      const purge = PURGE.exec(name);
      if (purge) purges.push({ id: purge[1]!, key: key! });
    }
    records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { records, blobs, purges, keys };
  }

  /** The document's stat, then its listing (in that order: the view is the one as of the stat). */
  private async snapshot(p: StoredPath): Promise<{ stat: DocumentStat | null; listing: Listing; view: View }> {
    const stat = await this.host.statDocument(p);
    const listing = await this.listing(this.dirOf(p));
    return { stat, listing, view: viewOf(listing, stat?.etag ?? null) };
  }

  private async readRecord(key: string, id: string): Promise<VersionRecord> {
    const opened = await this.host.download(key);
    if (!opened) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
    try {
      return toRecord(JSON.parse((await opened.read()).toString('utf8')) as StoredRecord);
    } finally {
      await opened.close();
    }
  }

  /**
   * A listed record, from the records read before when its object is unchanged (the same S3 ETag in the listing: a
   * label or pin rewrites the object, and so changes it), else downloaded. Without it every list downloaded every
   * record it shows: one GetObject per version per list, most of the soak's time on S3. A body downloaded after the
   * listing is as new as the listing or newer; kept under the listed ETag, it is read again once the listing changes.
   */
  private async readListed(r: Listing['records'][number]): Promise<VersionRecord> {
    const known = r.s3Etag === undefined ? undefined : this.recordCache.get(r.key);
    if (known && known.s3Etag === r.s3Etag) return known.record;
    const record = await this.readRecord(r.key, r.id);
    if (r.s3Etag !== undefined) {
      this.recordCache.delete(r.key);
      this.recordCache.set(r.key, { s3Etag: r.s3Etag, record });
      // The oldest read go first (a Map iterates in insertion order).
      if (this.recordCache.size > RECORD_CACHE) this.recordCache.delete(this.recordCache.keys().next().value!);
    }
    return record;
  }

  private async putRecord(p: StoredPath, record: VersionRecord): Promise<void> {
    const body = Buffer.from(JSON.stringify(toStored(record)));
    await this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key: this.recordKey(p, record.id, record.etag), Body: body, ContentLength: body.length, ContentType: 'application/json' })));
  }

  private copySource(key: string): string {
    return `${encodeURIComponent(this.host.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** Copies the document (of `size` bytes) to the blob of `etag`, on the server: one CopyObject, or parts past 5 GiB. */
  private async copyToBlob(p: StoredPath, etag: string, size: number): Promise<void> {
    const Bucket = this.host.bucket;
    const Key = this.blobKey(p, etag);
    const CopySource = this.copySource(this.host.docKey(p));
    if (size <= this.host.copyLimit) {
      await this.host.send('CopyObject', (c) => c.send(new CopyObjectCommand({ Bucket, Key, CopySource })));
      return;
    }
    const created = await this.host.send('CreateMultipartUpload', (c) => c.send(new CreateMultipartUploadCommand({ Bucket, Key })));
    const UploadId = created.UploadId!;
    try {
      const parts: { PartNumber: number; ETag: string | undefined }[] = [];
      for (let start = 0, PartNumber = 1; start < size; start += this.host.copyPart, PartNumber++) {
        const range = `bytes=${start}-${Math.min(start + this.host.copyPart, size) - 1}`;
        const part = await this.host.send('UploadPartCopy', (c) => c.send(new UploadPartCopyCommand({ Bucket, Key, UploadId, PartNumber, CopySource, CopySourceRange: range })));
        parts.push({ PartNumber, ETag: part.CopyPartResult?.ETag });
      }
      await this.host.send('CompleteMultipartUpload', (c) => c.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } })));
    } catch (err) {
      await this.host.send('AbortMultipartUpload', (c) => c.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))).catch(() => undefined);
      throw err;
    }
  }

  /**
   * The first half of a write's version, before the document's PutObject (the caller holds the key's commit lock):
   * leftovers of writes that did not commit go; the document being replaced (`replaced`) is copied to its blob unless
   * one is there, and recorded as a version of its own ("unrecorded") when no record has its bytes (written while
   * versions were off, or by another program); then the new version's record (and purge marker) are put. After a
   * crash before the document's PutObject, the record names bytes that are not the document's: invisible, and removed
   * by recover() or the next write.
   */
  async prepare(p: StoredPath, content: { etag: string; size: number }, provenance: WriteProvenance, replaced: DocumentStat | null, purge = false): Promise<PendingS3Version> {
    const listing = await this.listing(this.dirOf(p));
    const view = viewOf(listing, replaced?.etag ?? null);
    // A document created anew inherits nothing: what is there belongs to one deleted or never written.
    const stale = replaced ? view.pending.map((r) => r.key) : listing.keys;
    if (stale.length > 0) await this.host.deleteKeys(stale);
    let newestId = view.visible.at(-1)?.id;
    if (replaced) {
      if (content.etag !== replaced.etag && !listing.blobs.has(replaced.etag)) await this.copyToBlob(p, replaced.etag, replaced.size);
      if (view.current === null) {
        const baseline: VersionRecord = { id: this.nextId(newestId), etag: replaced.etag, size: replaced.size, created: replaced.modified, by: null, operation: 'unrecorded', requestId: null, jobId: null, pageCount: null, label: null, pinned: false };
        await this.putRecord(p, baseline);
        newestId = baseline.id;
      }
    }
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
    const marker = `${this.dirOf(p)}v-${record.id}.purge`;
    if (purge) await this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key: marker, Body: new Uint8Array(0), ContentLength: 0 })));
    await this.putRecord(p, record);
    return {
      record,
      abort: () => this.host.deleteKeys([this.recordKey(p, record.id, record.etag), ...(purge ? [marker] : [])]),
    };
  }

  /**
   * Whether the bucket has native versioning (GetBucketVersioning, asked at start by recover() and kept): then S3 keeps
   * a noncurrent version of every key overwritten or deleted, which a purge must remove too. Not known (the request
   * refused, say a policy without s3:GetBucketVersioning): asked again next time.
   */
  private async versioned(): Promise<boolean> {
    if (this.bucketVersioning !== undefined) return this.bucketVersioning;
    try {
      const answer = await this.host.send('GetBucketVersioning', (c) => c.send(new GetBucketVersioningCommand({ Bucket: this.host.bucket })));
      this.bucketVersioning = answer.Status === 'Enabled' || answer.Status === 'Suspended';
      return this.bucketVersioning;
    } catch {
      return false;
    }
  }

  /**
   * On a bucket with native versioning: removes for good what S3 keeps of the keys below `prefix` that `matches`
   * besides their current versions (noncurrent versions first, then delete markers, so no older version becomes
   * current meanwhile). Without it a purged version's bytes would stay in the bucket as a noncurrent version of its
   * blob, and the document's earlier bytes as noncurrent versions of its key.
   */
  private async dropNoncurrent(prefix: string, matches: (key: string) => boolean): Promise<void> {
    if (!(await this.versioned())) return;
    const versions: { Key: string; VersionId: string }[] = [];
    const markers: { Key: string; VersionId: string }[] = [];
    let KeyMarker: string | undefined;
    let VersionIdMarker: string | undefined;
    for (;;) {
      const page = await this.host.send('ListObjectVersions', (c) => c.send(new ListObjectVersionsCommand({ Bucket: this.host.bucket, Prefix: prefix, ...(KeyMarker ? { KeyMarker } : {}), ...(VersionIdMarker ? { VersionIdMarker } : {}) })));
      for (const v of page.Versions ?? []) if (v.Key && v.VersionId && !v.IsLatest && matches(v.Key)) versions.push({ Key: v.Key, VersionId: v.VersionId });
      for (const m of page.DeleteMarkers ?? []) if (m.Key && m.VersionId && matches(m.Key)) markers.push({ Key: m.Key, VersionId: m.VersionId });
      if (!page.IsTruncated) break;
      KeyMarker = page.NextKeyMarker;
      VersionIdMarker = page.NextVersionIdMarker;
    }
    for (const batch of [versions, markers]) {
      for (let i = 0; i < batch.length; i += 1000) {
        const res = await this.host.send('DeleteObjects', (c) => c.send(new DeleteObjectsCommand({ Bucket: this.host.bucket, Delete: { Objects: batch.slice(i, i + 1000), Quiet: true } })));
        if (res.Errors?.length) throw new Error(`DeleteObjects of noncurrent versions: ${res.Errors[0]!.Code ?? 'error'} for ${res.Errors[0]!.Key ?? '?'}`);
      }
    }
  }

  async list(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    const { stat, view } = await this.snapshot(p);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
    const newestFirst = [...view.visible].reverse();
    const versions = await Promise.all(newestFirst.slice(slice.offset, slice.offset + slice.limit).map((r) => this.readListed(r)));
    return { versions, total: newestFirst.length, current: view.current };
  }

  /** A visible record's key and the view it was found in; VERSION_NOT_FOUND. */
  private async find(p: StoredPath, id: string): Promise<{ key: string; etag: string; stat: DocumentStat | null; view: View; listing: Listing }> {
    if (!ID.test(id)) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${JSON.stringify(id)}`);
    const { stat, view, listing } = await this.snapshot(p);
    const found = view.visible.find((r) => r.id === id);
    if (!found) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
    return { key: found.key, etag: found.etag, stat, view, listing };
  }

  async get(p: StoredPath, id: string): Promise<VersionRecord> {
    const { key } = await this.find(p, id);
    return this.readRecord(key, id);
  }

  /**
   * A version's bytes: the document's own when they are the version's (openDocument: its download cache, which only
   * ever holds a document's current bytes, confirmed by S3), else its blob, downloaded into a spool file (never kept:
   * a purged version's bytes cannot be served from anywhere once its blob is gone).
   */
  async open(p: StoredPath, id: string): Promise<OpenDocument> {
    const { key, etag, stat } = await this.find(p, id);
    const record = await this.readRecord(key, id);
    const versionStat = { size: record.size, modified: record.created, etag: record.etag };
    if (stat?.etag === etag) {
      const opened = await this.host.openDocument(p).catch(() => undefined);
      if (opened?.stat.etag === etag) return { ...opened, stat: versionStat };
      await opened?.close();
    }
    const blob = await this.host.download(this.blobKey(p, etag));
    if (!blob) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
    return { ...blob, stat: { ...versionStat, size: blob.size } };
  }

  async update(p: StoredPath, id: string, change: { label?: string | null | undefined; pinned?: boolean | undefined }): Promise<VersionRecord> {
    const record = await this.get(p, id);
    const updated: VersionRecord = {
      ...record,
      ...(change.label !== undefined ? { label: change.label } : {}),
      ...(change.pinned !== undefined ? { pinned: change.pinned } : {}),
    };
    await this.putRecord(p, updated);
    return updated;
  }

  async remove(p: StoredPath, id: string): Promise<void> {
    const { key, etag, view } = await this.find(p, id);
    if (view.current === id) throw new ServiceError('VERSION_IS_CURRENT', `Version ${id} is the document's current content: it cannot be deleted`);
    await this.host.deleteKeys([key]);
    // The blob goes when no other earlier version needs it (the current one's bytes are the document).
    const blob = this.blobKey(p, etag);
    if (!view.visible.some((r) => r.id !== id && r.id !== view.current && r.etag === etag)) {
      await this.host.deleteKeys([blob]);
      await this.dropNoncurrent(blob, (k) => k === blob);
    }
  }

  async purgeEarlier(p: StoredPath): Promise<number> {
    const { view, listing } = await this.snapshot(p);
    const records = listing.records.filter((r) => r.id !== view.current).map((r) => r.key);
    const rest = listing.keys.filter((key) => !RECORD.test(key.slice(this.dirOf(p).length)) && !PURGE.test(key.slice(this.dirOf(p).length)));
    // Records first, then every blob (the current version's bytes are the document), then the markers: the purge is done.
    await this.host.deleteKeys(records);
    await this.host.deleteKeys(rest);
    // A versioned bucket still holds the earlier bytes as noncurrent versions of the document and of the blobs.
    const docKey = this.host.docKey(p);
    await this.dropNoncurrent(docKey, (k) => k === docKey);
    await this.dropNoncurrent(this.dirOf(p), () => true);
    await this.host.deleteKeys(listing.purges.map((m) => m.key));
    return view.visible.filter((r) => r.id !== view.current).length;
  }

  /**
   * Removes every version of a document or of the documents below a folder (deleteDocument, deleteFolder), records
   * first: a crash between leaves bytes no record names (recover removes them), never a record without its bytes. Called
   * before the document goes: a crash after leaves a document without versions.
   */
  async removeAll(p: StoredPath): Promise<void> {
    const dir = this.dirOf(p);
    const keys = (await this.host.listAll(dir)).flatMap((o) => (o.Key ? [o.Key] : []));
    const isRecord = (key: string) => RECORD.test(key.slice(key.lastIndexOf('/') + 1));
    await this.host.deleteKeys(keys.filter(isRecord));
    await this.host.deleteKeys(keys.filter((key) => !isRecord(key)));
  }

  /**
   * The documents that have versions (the retention sweep's walk): one listing of the versions area (a request per
   * 1000 keys), a document per folder of records.
   */
  async *documents(): AsyncIterable<StoredPath> {
    const keys = (await this.host.listAll(this.root)).flatMap((o) => (o.Key ? [o.Key] : []));
    const dirs = new Set(keys.map((key) => key.slice(0, key.lastIndexOf('/') + 1)));
    for (const dir of dirs) {
      let p: StoredPath;
      try {
        p = StoredPath.fromValidSegments(dir.slice(this.root.length, -1).split('/'));
      } catch {
        continue; // not a path the store made
      }
      if (p.isDocument) yield p;
    }
  }

  /**
   * After a crash (at start): for every document with a versions area, under its commit lock (other instances may be
   * writing): the versions of a document that is gone go; records of writes that did not commit go; a purge a crash
   * interrupted is finished (its write committed) or dropped (it did not); blobs no record names go. One listing of the
   * area (a request per 1000 keys) and a stat per document that has versions.
   */
  async recover(): Promise<void> {
    await this.versioned();
    const keys = (await this.host.listAll(this.root)).flatMap((o) => (o.Key ? [o.Key] : []));
    const dirs = new Set(keys.map((key) => key.slice(0, key.lastIndexOf('/') + 1)));
    for (const dir of dirs) {
      const segments = dir.slice(this.root.length, -1).split('/');
      let p: StoredPath;
      try {
        p = StoredPath.fromValidSegments(segments);
      } catch {
        continue;
      }
      if (!p.isDocument) continue;
      const release = await this.host.commitLock(this.host.docKey(p));
      try {
        await this.recoverDocument(p);
      } finally {
        release();
      }
    }
  }

  private async recoverDocument(p: StoredPath): Promise<void> {
    const { stat, listing, view } = await this.snapshot(p);
    if (!stat) {
      await this.removeAll(p);
      return;
    }
    await this.host.deleteKeys(view.pending.map((r) => r.key));
    const purging = listing.purges.some((m) => m.id === view.current);
    if (purging) {
      await this.purgeEarlier(p);
      return;
    }
    await this.host.deleteKeys(listing.purges.map((m) => m.key));
    const named = new Set(view.visible.filter((r) => r.id !== view.current).map((r) => r.etag));
    const orphans = [...listing.blobs].filter((etag) => !named.has(etag)).map((etag) => this.blobKey(p, etag));
    await this.host.deleteKeys(orphans);
  }
}
