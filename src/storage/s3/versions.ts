import { CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand, AbortMultipartUploadCommand, DeleteObjectsCommand, GetBucketVersioningCommand, GetObjectCommand, ListObjectVersionsCommand, PutObjectCommand, UploadPartCopyCommand, type S3Client, type _Object } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { ServiceError } from '../../errors.js';
import { readAgain, s3Status } from './client.js';
import { StoredPath } from '../paths.js';
import type { DocumentStat, DocumentVersions, OpenDocument, Release, VersionRecord, VersionSlice, WriteOptions, WriteProvenance, WriteResult } from '../store.js';
import { newVersionRecord, OrderedIds, unrecordedVersion, versionFromStored as toRecord, versionToStored as toStored, type StoredVersionRecord as StoredRecord } from '../version-records.js';

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
 * - `p-<etag>-<other etag>` (empty: the name says it all): the bytes of the versions with that ETag are the first bytes
 *   (their record's size) of the other's (a "prefix", as the filesystem store's). A write whose content begins with
 *   the bytes of the document it replaces (an appended update, engine/core/save.ts; proven by the ETag of as many first
 *   bytes of the content) says this pointer by its record's name (`v-<id>-<etag>-<replaced etag>.json`: no request of
 *   its own) instead of copying the replaced document: its bytes are then the first
 *   bytes of the document itself, read by a Range GET, until a write that is no prefix replaces it and the copy made
 *   then (`b-<other etag>`) holds them. Pointers are never rewritten: a version's way is the chain of pointers from its
 *   ETag to a blob (which, while it is there, wins) or to the current document (wayOf: the listing has them all, so
 *   following a chain costs no request). 100 appended edits of a 50 MB document so cost 100 pointing records. A `p-`
 *   object is put only when a version whose record points is deleted while an earlier version's way needs its pointer.
 * - `index.ndjson`: the index, a derived view that lets a list be one GetObject (with the stat) instead of a listing and
 *   a GetObject per record not seen before: a header line naming the document's ETag and current version it was made
 *   for, and the blobs and pointers that stay while it is the view (kept(): so a write lists only the keys after the
 *   current record, survey()), then the visible records, oldest first, one JSON line each. Shown only when it names the ETag the stat found;
 *   else (stale, missing, unreadable) the list is made from the listing and the index written again (relist). Whatever
 *   changes the visible records while the document keeps its ETag (a label or pin, a version deleted, a write of the
 *   same bytes, an unrecorded baseline) deletes the index first and writes it after, and a purge writes it (the current
 *   version alone) before it deletes anything, so no index ever shows a version whose bytes are gone or hides the
 *   current one. A write puts the new index beside its document (S3PendingVersion.commit): until both are there the
 *   index names the other ETag, so it is not used.
 *
 * S3 has no rename, so a record cannot be written aside and renamed in: a write puts its record before the document,
 * and what is visible is decided by the document's ETag (stat first, then the listing: a consistent view as of the
 * stat). The current version is the newest record with the document's ETag; records after it are writes that did not
 * commit (or had not yet when the stat was made) and are invisible; an earlier record is shown when its bytes exist
 * (its blob, or the document itself when the ETags are equal). Bytes are copied before the record that needs them and
 * records are removed before their bytes, so no visible record names missing bytes. Changes are made under the
 * document's commit lock (writes) or the document lock (the callers of update, remove, purgeEarlier).
 */

/**
 * A record's name: `v-<id>-<etag>.json`, or `v-<id>-<etag>-<replaced etag>.json` for an appended write (its content
 * begins with the bytes of the version it replaced): the name then says what a pointer `p-<replaced>-<etag>` says, and
 * the write puts no pointer (one PutObject fewer on its way to the document).
 */
const RECORD = /^v-(\d{16})-([0-9a-f]{32})(?:-([0-9a-f]{32}))?\.json$/;
const PURGE = /^v-(\d{16})\.purge$/;
const BLOB = /^b-([0-9a-f]{32})$/;
const POINTER = /^p-([0-9a-f]{32})-([0-9a-f]{32})$/;
const ID = /^\d{16}$/;
/**
 * The index's name in the area (no record, blob, pointer or purge marker name matches it). It sorts after every record
 * and purge marker (`v-`), so the short listing a write makes from the current record on (survey) shows it with its S3
 * ETag: S3Versions.guess's memory of it is checked by that listing, with no GetObject.
 */
const INDEX = 'z-index.ndjson';
/** The index's name before it sorted after the records: never read; recover() removes it. */
const OLD_INDEX = 'index.ndjson';
/** Documents whose last write here is remembered with its index (S3Versions.guess), the oldest going first past it. */
const KNOWN_KEPT = 1000;
/** An index longer than this is not remembered (a few hundred bytes a version: some hundreds of versions). */
const KNOWN_INDEX_BYTES = 256 * 1024;
/** The index's format, in its header line: another is read as no index (relist writes this one). */
const INDEX_FORMAT = 3;
/** Documents whose newest known current version is remembered (S3Versions.since), the oldest going first past it. */
const SINCE_KEPT = 10_000;
/** GetObjects at once when the records are read to write the index again (relist), so 1,000 records do not queue 1,000 requests. */
const READ_AT_ONCE = 32;
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
  /** Every object under `prefix` (after `startAfter` when given: S3 lists keys in order). */
  listAll(prefix: string, startAfter?: string): Promise<_Object[]>;
  /** Deletes keys (DeleteObjects, 1000 a request). */
  deleteKeys(keys: string[]): Promise<void>;
  docKey(p: StoredPath): string;
  statDocument(p: StoredPath): Promise<DocumentStat | null>;
  openDocument(p: StoredPath): Promise<OpenDocument>;
  /**
   * An object's bytes (its first `bytes` when given: a Range GET) in a spool file held open (unlinked at once), or null
   * when there is no such key, or when `tag` is given and the object's is another (our tag: x-amz-meta-etag).
   */
  download(key: string, only?: { bytes?: number; tag?: string }): Promise<Omit<OpenDocument, 'stat'> | null>;
  /** The commit lock of a key (S3Store's CommitLock: shared by every instance with Redis). */
  commitLock(key: string): Promise<Release>;
  /** Documents above this size are copied in parts of copyPart bytes (COPY_LIMIT, COPY_PART; smaller in tests). */
  readonly copyLimit: number;
  readonly copyPart: number;
  /** Makes a kept version the document's content by a copy on the server (S3Store's restore). */
  restore(p: StoredPath, id: string, options: WriteOptions): Promise<WriteResult>;
}

const hex = (etag: string) => etag.replace(/"/g, '');

/** One document's versions area as one listing found it. */
interface Listing {
  /** The area's key prefix. */
  dir: string;
  /** Ordered by id. */
  /** s3Etag: the record object's own S3 ETag (readListed). */
  records: { id: string; etag: string; key: string; s3Etag: string | undefined }[];
  /** ETags (quoted) that have a blob. */
  blobs: Set<string>;
  /**
   * Pointers: for each ETag (quoted), the ETags whose bytes begin with its, each with the key that says so (a pointer
   * `p-<from>-<into>`, or the record of an appended write, `v-<id>-<into>-<from>.json`).
   */
  pointers: Map<string, Edge[]>;
  purges: { id: string; key: string }[];
  /** Every key of the area. */
  keys: string[];
}

/** A pointer: the bytes of some ETag are the first bytes of `into`'s, as `key` (a pointer or a record) says. */
interface Edge {
  into: string;
  key: string;
}

/** Adds the pointer `key` says (a `p-` name, or a record's with a replaced ETag) to `pointers`. */
function addEdge(pointers: Map<string, Edge[]>, dir: string, key: string): void {
  const name = key.slice(dir.length);
  const pointer = POINTER.exec(name);
  const record = pointer ? null : RECORD.exec(name);
  const [from, into] = pointer ? [pointer[1], pointer[2]] : record?.[3] !== undefined ? [record[3], record[2]] : [];
  if (from === undefined || into === undefined) return;
  pointers.set(`"${from}"`, [...(pointers.get(`"${from}"`) ?? []), { into: `"${into}"`, key }]);
}

/**
 * The listing without the pointers of records after the current one (`current`: the document's ETag): those are writes
 * that did not commit, removed by the next write or recover(), so no way may go through their names. (Without a
 * record of the current bytes there is none to cut after; a record whose pointer a way uses then has bytes itself,
 * the rest of that way, so it is shown and stays.)
 */
function usable<L extends Listing>(listing: L, current: string | null): L {
  const cut = listing.records.findLastIndex((r) => r.etag === current);
  if (cut < 0) return listing;
  const pending = new Set(listing.records.slice(cut + 1).map((r) => r.key));
  if (![...listing.pointers.values()].some((edges) => edges.some((e) => pending.has(e.key)))) return listing;
  const pointers = new Map<string, Edge[]>();
  for (const [from, edges] of listing.pointers) pointers.set(from, edges.filter((e) => !pending.has(e.key)));
  return { ...listing, pointers };
}

/** What is visible of a listing given the document's ETag (null: no document). */
interface View {
  visible: Listing['records'];
  current: string | null;
  /** Records after the current one: writes that did not commit. */
  pending: Listing['records'];
}

/** Where a version's bytes are: the first bytes of the blob of `holder`, or of the document (`inDocument`). */
interface Way {
  holder: string;
  inDocument: boolean;
  /** The keys the way goes through (pointers, then the blob): removals keep them while a remaining version's way needs them. */
  keys: string[];
}

/**
 * The way to the bytes of `etag` given the document's ETag (`current`; null: not counting the document): its blob, the
 * document, or a chain of pointers to one of those. Pointers go from a shorter content to a longer one, so chains end.
 */
function wayOf(listing: Listing, etag: string, current: string | null, seen = new Set<string>(), accept: (blob: string) => boolean = () => true): Way | null {
  const blob = `${listing.dir}b-${hex(etag)}`;
  if (listing.blobs.has(etag) && accept(blob)) return { holder: etag, inDocument: false, keys: [blob] };
  if (etag === current) return { holder: etag, inDocument: true, keys: [] };
  if (seen.has(etag)) return null;
  seen.add(etag);
  for (const { into, key } of listing.pointers.get(etag) ?? []) {
    const rest = wayOf(listing, into, current, seen, accept);
    if (rest) return { ...rest, keys: [key, ...rest.keys] };
  }
  return null;
}

/** The keys the ways of `records` go through (given the document's ETag). */
function needed(listing: Listing, records: Listing['records'], current: string | null): Set<string> {
  return new Set(records.flatMap((r) => wayOf(listing, r.etag, current)?.keys ?? []));
}

/**
 * The blobs and pointers that stay (recover() removes the others; the index names these, so a write needs no listing
 * of them): those the ways of the earlier visible versions (`visible` but `currentId`) go through, and the pointers
 * from the current bytes (`current`) to one of those blobs, which cost nothing (empty) and spare the write that
 * replaces them a copy (a version restored from the first bytes of a blob is a prefix again).
 */
function kept(listing: Listing, visible: Listing['records'], current: string | null, currentId: string | null): Set<string> {
  const keep = needed(listing, visible.filter((r) => r.id !== currentId), current);
  // Only a way that ends at a blob kept anyway (another blob would be a whole copy kept for nothing): whichever such
  // way a listing finds, there is one as long as the index names one, which is all a write takes from it.
  const own = current === null ? null : wayOf(listing, current, null, new Set(), (blob) => keep.has(blob));
  for (const k of own?.keys ?? []) keep.add(k);
  return keep;
}

function viewOf(all: Listing, current: string | null): View {
  const listing = usable(all, current);
  const { records } = listing;
  const stored = (r: { etag: string }) => wayOf(listing, r.etag, null) !== null;
  let cut = -1;
  for (let i = records.length - 1; i >= 0; i--) {
    if (records[i]!.etag === current) {
      cut = i;
      break;
    }
  }
  // Without a record of the current bytes (written by another program, or with versions off), every record is earlier.
  const kept = cut >= 0 ? records.slice(0, cut + 1) : records.filter(stored);
  const pending = cut >= 0 ? records.slice(cut + 1) : records.filter((r) => !stored(r));
  return {
    visible: kept.filter((r) => wayOf(listing, r.etag, current) !== null),
    current: cut >= 0 ? records[cut]!.id : null,
    pending,
  };
}

/** A versions area as survey() listed it, with its index as read beside the listing, for prepare() and restoreSource() under the same commit lock. */
export type S3Area = Listing & {
  readonly index: Index | null;
  /**
   * Set when the listing is the records after a version known to this instance (survey's tail listing) with the rest
   * taken from the index: then it is the area only while the document has this ETag (the index's); S3Versions.settle.
   */
  readonly onlyIf?: string;
};

/** A version written but not yet committed (S3Versions.prepare). */
export interface PendingS3Version {
  readonly record: VersionRecord;
  /** The record's key (its name points at the replaced version for an appended write: RECORD). */
  readonly key: string;
  /**
   * The visible version before the record once the document is written (null: none), as a list then shows it
   * (WriteResult.predecessor); undefined when the record would not be the newest visible one.
   */
  readonly predecessor: string | null | undefined;
  /**
   * Runs the document's write (`write`, under the key's commit lock still) and puts the versions' index made for it
   * beside it (at the same time: until both are there the index names another ETag than the document's, so no list
   * uses it). A failed index PUT fails nothing (the next list makes it from the listing); both have ended when this does.
   */
  commit<T extends { s3Etag: string | undefined; modified: Date } | null>(write: () => Promise<T>): Promise<T>;
  /** The document's write did not happen: its record (and purge marker, and the index put for it) go. */
  abort(): Promise<void>;
}

/** A document's index as read (S3Versions.readIndex): the ETag and current version it was made for, and its records. */
interface Index {
  etag: string;
  current: string;
  /** Each visible record's JSON line (its stored form), by id, oldest first. */
  lines: Map<string, string>;
  /**
   * The names (in the area) of the blobs and pointers that stay while the index is the view (kept(): what recover()
   * and a version delete keep), so a write needs no listing of them.
   */
  keys: string[];
  /** By id, the replaced ETag in the names of the records of appended writes (their keys: recordKey). */
  appends: Map<string, string>;
}

/**
 * What this instance knows of a document it wrote last (S3Versions.guess): the document as its write's answer gave it
 * and the index put beside it, with the index object's S3 ETag as the PUT answered it.
 */
interface Known {
  docS3Etag: string;
  etag: string;
  size: number;
  modified: Date;
  index: Index;
  indexS3Etag: string;
}

/**
 * A write's guess of the document it replaces (S3Versions.guess): the document and its versions area as this instance
 * left them, for a write that sends its version's requests with its stat instead of after it (S3Store.overwriteKnown),
 * and commits only when the stat and the listing sent together confirm the guess (S3Versions.confirms).
 */
export interface S3Guess {
  readonly before: { s3Etag: string; etag: string; size: number; modified: Date };
  readonly area: S3Area;
  readonly known: Known;
}

/**
 * The index's text: its header, then a line per record (oldest first). `appends`: by id, the replaced ETag the names of
 * the records of appended writes carry (their keys are not the line's id and ETag alone).
 */
function indexText(etag: string, current: string, lines: Iterable<string>, keys: Iterable<string>, appends: ReadonlyMap<string, string>): string {
  const body = [...lines];
  const named = Object.fromEntries([...appends].map(([id, from]) => [id, hex(from)]));
  return [JSON.stringify({ format: INDEX_FORMAT, etag, current, count: body.length, keys: [...keys].sort(), appends: named }), ...body].join('\n');
}

/** The ETags records' names carry (appended writes), by id (the index's `appends`). */
function appendsOf(records: readonly { id: string; key: string }[]): Map<string, string> {
  const appends = new Map<string, string>();
  for (const r of records) {
    const from = RECORD.exec(r.key.slice(r.key.lastIndexOf('/') + 1))?.[3];
    if (from !== undefined) appends.set(r.id, `"${from}"`);
  }
  return appends;
}

/** kept()'s keys as names in the area (the index's `keys`). */
const namesIn = (dir: string, keys: Iterable<string>) => [...keys].map((k) => k.slice(dir.length));

/** An index's text read back; null when it is not one this code wrote whole (another format, cut short, garbled). */
function parseIndex(text: string): Index | null {
  const [head, ...rest] = text.split('\n');
  let header: { format?: unknown; etag?: unknown; current?: unknown; count?: unknown; keys?: unknown; appends?: unknown };
  try {
    header = JSON.parse(head ?? '') as typeof header;
  } catch {
    return null;
  }
  if (header.format !== INDEX_FORMAT || typeof header.etag !== 'string' || typeof header.current !== 'string' || header.count !== rest.length) return null;
  const keys = header.keys;
  // A way's keys: blobs, pointers, and records whose names point (appended writes).
  if (!Array.isArray(keys) || !keys.every((k): k is string => typeof k === 'string' && (BLOB.test(k) || POINTER.test(k) || RECORD.exec(k)?.[3] !== undefined))) return null;
  const named = header.appends;
  if (typeof named !== 'object' || named === null || Array.isArray(named)) return null;
  const appends = new Map<string, string>();
  for (const [id, from] of Object.entries(named)) {
    if (!ID.test(id) || typeof from !== 'string' || !/^[0-9a-f]{32}$/.test(from)) return null;
    appends.set(id, `"${from}"`);
  }
  const lines = new Map<string, string>();
  for (const line of rest) {
    // A stored record's first field is its id (versionToStored keeps the record's order): read without parsing it.
    const id = line.startsWith('{"id":"') ? line.slice(7, 23) : '';
    if (!ID.test(id) || !line.endsWith('}')) return null;
    lines.set(id, line);
  }
  if (!lines.has(header.current)) return null;
  return { etag: header.etag, current: header.current, lines, keys, appends };
}

/** A record's line in the index. */
const lineOf = (record: VersionRecord) => JSON.stringify(toStored(record));

/** Whether `index` is the view `view` shows for the document's ETag `etag`: the same current version and records. */
function indexMatches(index: Index | null, etag: string | null, view: View): index is Index {
  return index !== null && index.etag === etag && index.current === view.current && index.lines.size === view.visible.length && view.visible.every((r) => index.lines.has(r.id));
}

/** `<prefix>.versions/<the path>/`: the versions area of a document, or of the documents below a folder. */
export function versionsArea(prefix: string, p: StoredPath): string {
  return `${prefix}.versions/${p.segments.join('/')}/`;
}

/** The metadata a copy gives its target instead of the source's (a document restored from a blob: our tag, its type). */
export interface CopyMetadata {
  Metadata: Record<string, string>;
  ContentType?: string | undefined;
}

/** A copy on the server whose parts (if any) are made: commit() makes the target, abort() leaves it as it was. */
export interface StagedCopy {
  /** The target's S3 ETag and time, as the commit's answer gives them (undefined where it gives none). */
  commit(): Promise<{ s3Etag: string | undefined; modified: Date | undefined }>;
  abort(): Promise<void>;
}

/**
 * Stages a copy of an object (of `size` bytes), or of its first `size` bytes (`firstBytes`), to another key of the bucket, on the
 * server (nothing passes through the service), with the source's metadata or `metadata`: one CopyObject at commit, or
 * a multipart upload of UploadPartCopy parts (made now, completed at commit) above the host's copyLimit or for first
 * bytes (S3 copies a byte range only as a part: CopyObject has none).
 */
export async function stageCopy(host: Pick<S3VersionsHost, 'bucket' | 'send' | 'copyLimit' | 'copyPart'>, from: string, to: string, size: number, only: { firstBytes?: boolean | undefined; metadata?: CopyMetadata | undefined; sourceIs?: string | undefined } = {}): Promise<StagedCopy> {
  const Bucket = host.bucket;
  const Key = to;
  const CopySource = `${encodeURIComponent(Bucket)}/${from.split('/').map(encodeURIComponent).join('/')}`;
  const replace = only.metadata ? { MetadataDirective: 'REPLACE' as const, ...only.metadata } : {};
  // A copy sent before the source's stat has answered (S3Store.overwriteKnown) copies only the version it expects (412 else).
  const condition = only.sourceIs !== undefined ? { CopySourceIfMatch: only.sourceIs } : {};
  if (size === 0 && only.metadata) {
    // No range of no bytes: the empty object is put, as any write of it would be.
    return {
      commit: async () => {
        const put = await host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0), ContentLength: 0, ...only.metadata })));
        return { s3Etag: put.ETag, modified: undefined };
      },
      abort: async () => {},
    };
  }
  if (only.firstBytes !== true && size <= host.copyLimit) {
    return {
      commit: async () => {
        const copied = await host.send('CopyObject', (c) => c.send(new CopyObjectCommand({ Bucket, Key, CopySource, ...replace, ...condition })));
        return { s3Etag: copied.CopyObjectResult?.ETag, modified: copied.CopyObjectResult?.LastModified };
      },
      abort: async () => {},
    };
  }
  const created = await host.send('CreateMultipartUpload', (c) => c.send(new CreateMultipartUploadCommand({ Bucket, Key, ...(only.metadata ?? {}) })));
  const UploadId = created.UploadId!;
  const abort = () => host.send('AbortMultipartUpload', (c) => c.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))).then(() => undefined, () => undefined);
  try {
    const parts: { PartNumber: number; ETag: string | undefined }[] = [];
    // Up to copyLimit in one part (S3 copies at most 5 GiB a part), else parts of copyPart bytes.
    const step = size <= host.copyLimit ? size : host.copyPart;
    for (let start = 0, PartNumber = 1; start < size; start += step, PartNumber++) {
      const range = `bytes=${start}-${Math.min(start + step, size) - 1}`;
      const part = await host.send('UploadPartCopy', (c) => c.send(new UploadPartCopyCommand({ Bucket, Key, UploadId, PartNumber, CopySource, CopySourceRange: range, ...condition })));
      parts.push({ PartNumber, ETag: part.CopyPartResult?.ETag });
    }
    return {
      commit: async () => {
        try {
          const done = await host.send('CompleteMultipartUpload', (c) => c.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } })));
          return { s3Etag: done.ETag, modified: undefined };
        } catch (err) {
          await abort();
          throw err;
        }
      },
      abort,
    };
  } catch (err) {
    await abort();
    throw err;
  }
}

/**
 * Copies an object (of `size` bytes) to another key of the bucket, on the server (nothing passes through the service),
 * metadata included (our tag): one CopyObject, or parts (UploadPartCopy) above the host's copyLimit.
 */
export async function copyKey(host: Pick<S3VersionsHost, 'bucket' | 'send' | 'copyLimit' | 'copyPart'>, from: string, to: string, size: number, sourceIs?: string): Promise<void> {
  await (await stageCopy(host, from, to, size, { sourceIs })).commit();
}

export class S3Versions implements DocumentVersions {
  private readonly ids = new OrderedIds();
  /** Whether the bucket keeps S3 object versions (Enabled, or Suspended with some kept), once S3 answered. */
  private bucketVersioning: boolean | undefined;
  /** Records read or put here, by key, with their objects' S3 ETags (readListed). */
  private readonly recordCache = new Map<string, { s3Etag: string; record: VersionRecord }>();

  /**
   * By versions area: a version id this instance knows was current once (it wrote it, or a list read it as the index's
   * current). Every record a write left without committing since has a later id (ids are ordered by time), so a write
   * lists only the keys after it (survey): one short page whatever the number of versions.
   */
  private readonly since = new Map<string, string>();

  /** By versions area: the document and index this instance's last write there left (guess), for the next write. */
  private readonly known = new Map<string, Known>();

  constructor(private readonly host: S3VersionsHost) {}

  private knownCurrent(dir: string, id: string): void {
    const had = this.since.get(dir);
    if (had !== undefined && had >= id) return;
    this.since.delete(dir);
    this.since.set(dir, id);
    if (this.since.size > SINCE_KEPT) this.since.delete(this.since.keys().next().value!);
  }

  /** `<prefix>.versions/` */
  private get root(): string {
    return `${this.host.prefix}.versions/`;
  }

  private dirOf(p: StoredPath): string {
    return versionsArea(this.host.prefix, p);
  }

  /** A record's key; `appends`: the ETag of the version its content begins with, when the write pointed at it by its name. */
  private recordKey(p: StoredPath, id: string, etag: string, appends?: string): string {
    return `${this.dirOf(p)}v-${id}-${hex(etag)}${appends === undefined ? '' : `-${hex(appends)}`}.json`;
  }

  private blobKey(p: StoredPath, etag: string): string {
    return `${this.dirOf(p)}b-${hex(etag)}`;
  }

  private nextId(after: string | undefined): string {
    return this.ids.next(after);
  }

  private async listing(dir: string, startAfter?: string): Promise<Listing> {
    const objects = (await this.host.listAll(dir, startAfter)).filter((o) => o.Key);
    const keys = objects.map((o) => o.Key!);
    const records: Listing['records'] = [];
    const blobs = new Set<string>();
    const pointers = new Map<string, Edge[]>();
    const purges: Listing['purges'] = [];
    for (const { Key: key, ETag: s3Etag } of objects) {
      const name = key!.slice(dir.length);
      const record = RECORD.exec(name);
      if (record) records.push({ id: record[1]!, etag: `"${record[2]!}"`, key: key!, s3Etag });
      const blob = BLOB.exec(name);
      if (blob) blobs.add(`"${blob[1]!}"`);
      addEdge(pointers, dir, key!);
      const purge = PURGE.exec(name);
      if (purge) purges.push({ id: purge[1]!, key: key! });
    }
    records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { dir, records, blobs, pointers, purges, keys };
  }

  /** The document's stat, then its listing (in that order: the view is the one as of the stat). */
  private async snapshot(p: StoredPath): Promise<{ stat: DocumentStat | null; listing: Listing; view: View }> {
    const stat = await this.host.statDocument(p);
    // Without the pointers of writes that did not commit: no way taken from this listing goes through them.
    const listing = usable(await this.listing(this.dirOf(p)), stat?.etag ?? null);
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
    if (r.s3Etag !== undefined) this.remember(r.key, r.s3Etag, record);
    return record;
  }

  /** Keeps a record's body under its object's S3 ETag (readListed), the oldest read or put going first past RECORD_CACHE. */
  private remember(key: string, s3Etag: string, record: VersionRecord): void {
    this.recordCache.delete(key);
    this.recordCache.set(key, { s3Etag, record });
    // A Map iterates in insertion order.
    if (this.recordCache.size > RECORD_CACHE) this.recordCache.delete(this.recordCache.keys().next().value!);
  }

  /**
   * Puts a record, and keeps it under the S3 ETag S3 answered (an MD5 of the body for a single PUT: the listing names
   * the same object by it), so no list downloads a record written here: every write's record had been read back by
   * the next list.
   */
  private async putRecord(Key: string, record: VersionRecord): Promise<void> {
    const body = Buffer.from(JSON.stringify(toStored(record)));
    const put = await this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key, Body: body, ContentLength: body.length, ContentType: 'application/json' })));
    if (put.ETag !== undefined) this.remember(Key, put.ETag, record);
  }

  private indexKey(p: StoredPath): string {
    return `${this.dirOf(p)}${INDEX}`;
  }

  /**
   * The document's index, or null when there is none or it cannot be read as one. `unlocked`: the caller does not hold
   * the commit lock, so a write may be replacing the index, which Swift can answer with a 404 (readAgain).
   */
  private async readIndex(p: StoredPath, unlocked: boolean): Promise<Index | null> {
    const ask = () => this.host.send('GetObject', (c) => c.send(new GetObjectCommand({ Bucket: this.host.bucket, Key: this.indexKey(p) })));
    let text: string;
    try {
      const res = await (unlocked ? readAgain(ask) : ask());
      text = (await res.Body?.transformToString('utf8')) ?? '';
    } catch (err) {
      if (s3Status(err) === 404) return null;
      throw err;
    }
    return parseIndex(text);
  }

  /** Puts the index; answers its S3 ETag (undefined when S3 sent none). */
  private async putIndex(p: StoredPath, text: string): Promise<string | undefined> {
    const body = Buffer.from(text, 'utf8');
    const put = await this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key: this.indexKey(p), Body: body, ContentLength: body.length, ContentType: 'application/x-ndjson' })));
    return put.ETag;
  }

  /** The lines of `records` (listed ones): from `index` when it has them, else read (readListed; READ_AT_ONCE at a time). */
  private async linesOf(records: Listing['records'], index: Index | null, made: Map<string, VersionRecord> = new Map()): Promise<string[]> {
    const lines: string[] = [];
    for (let i = 0; i < records.length; i += READ_AT_ONCE) {
      const batch = records.slice(i, i + READ_AT_ONCE);
      lines.push(...(await Promise.all(batch.map(async (r) => index?.lines.get(r.id) ?? lineOf(made.get(r.id) ?? (await this.readListed(r)))))));
    }
    return lines;
  }

  private async putPointer(p: StoredPath, from: string, into: string): Promise<void> {
    const Key = `${this.dirOf(p)}p-${hex(from)}-${hex(into)}`;
    await this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key, Body: new Uint8Array(0), ContentLength: 0 })));
  }

  /** Copies the document (of `size` bytes) to the blob of `etag`, on the server (copyKey); `sourceIs`: only while the document has that S3 ETag. */
  private copyToBlob(p: StoredPath, etag: string, size: number, sourceIs?: string): Promise<void> {
    return copyKey(this.host, this.host.docKey(p), this.blobKey(p, etag), size, sourceIs);
  }

  /**
   * The document's versions area as one listing finds it, or, when this instance knows a version was current (since),
   * as the index names it with the keys from that version's record on (one short page: the records of writes that did
   * not commit come after it), for settle() to check against the document's ETag (S3Store.overwrite asks it together with the document's
   * stat: under the key's commit lock, and the document lock every writer and every change of versions takes, neither
   * changes until the write commits, so their order does not matter there, unlike a reader's snapshot()).
   */
  async survey(p: StoredPath): Promise<S3Area> {
    const dir = this.dirOf(p);
    const since = this.since.get(dir);
    // Known a version once current: only the keys from its record on (records and purge markers of later writes, and
    // the index; the blobs and pointers sort before every `v-`), the rest from the index when it covers them (settle).
    const [listing, index] = await Promise.all([this.listing(dir, since === undefined ? undefined : `${dir}v-${since}`), this.readIndex(p, false)]);
    if (since === undefined) return { ...listing, index };
    if (index === null || index.current < since) return { ...(await this.listing(dir)), index };
    return this.areaOf(p, index, listing);
  }

  /** The area as `index` names it, with the records and purge markers of `tail` (a listing from the current record on). */
  private areaOf(p: StoredPath, index: Index, listing: Listing): S3Area {
    const dir = this.dirOf(p);
    const records = new Map(listing.records.map((r) => [r.id, r]));
    for (const [id, line] of index.lines) {
      if (records.has(id)) continue;
      const etag = (JSON.parse(line) as StoredRecord).etag;
      records.set(id, { id, etag, key: this.recordKey(p, id, etag, index.appends.get(id)), s3Etag: undefined });
    }
    const blobs = new Set<string>();
    const pointers = new Map<string, Edge[]>();
    for (const name of index.keys) {
      const blob = BLOB.exec(name);
      if (blob) blobs.add(`"${blob[1]!}"`);
      if (POINTER.test(name)) addEdge(pointers, dir, dir + name);
    }
    const sorted = [...records.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const r of sorted) addEdge(pointers, dir, r.key);
    const keys = [...new Set([...index.keys.map((k) => dir + k), this.indexKey(p), ...sorted.map((r) => r.key), ...listing.keys])];
    return { dir, records: sorted, blobs, pointers, purges: listing.purges, keys, index, onlyIf: index.etag };
  }

  /**
   * The document and its area as this instance's last write left them (undefined when it knows none), with the tail
   * listing that checks them sent now: a write that takes the guess sends its version's requests (the replaced bytes
   * kept, the record put) with its stat and this listing, and commits only when they confirm it (confirms); else it
   * removes what it put and does as without a guess. What it sends is safe whichever way: a record is invisible until
   * the document has its bytes, a pointer is true whenever it is read, and the copy to a blob is conditional on the
   * document's S3 ETag (CopySourceIfMatch), so a blob never holds other bytes than its name says.
   */
  guess(p: StoredPath): S3Guess | undefined {
    const dir = this.dirOf(p);
    const known = this.known.get(dir);
    if (!known) return undefined;
    const tail: Listing = { dir, records: [], blobs: new Set(), pointers: new Map(), purges: [], keys: [] };
    return {
      before: { s3Etag: known.docS3Etag, etag: known.etag, size: known.size, modified: known.modified },
      area: this.areaOf(p, known.index, tail),
      known,
    };
  }

  /** The tail listing (from the current record on) that checks a guess (confirms), to send with the write's other requests. */
  check(p: StoredPath, guess: S3Guess): Promise<_Object[]> {
    const dir = this.dirOf(p);
    return this.host.listAll(dir, `${dir}v-${guess.known.index.current}`);
  }

  /**
   * Whether the stat and the tail listing sent with a guess's requests confirm it: the document has the S3 ETag its
   * last write here answered (`s3Etag`), and from the current record on the area holds that record and the index this
   * instance put (its S3 ETag) and nothing else but what `mine` (the guessing write's own record and marker) names. Then
   * the area is as the guess took it: every change of versions rewrites or deletes the index, every write of the
   * service changes the document, and records of writes that did not commit sort after the current one.
   */
  confirms(p: StoredPath, guess: S3Guess, s3Etag: string | undefined, objects: _Object[], mine: Set<string>): boolean {
    if (s3Etag !== guess.known.docS3Etag) return false;
    const current = this.recordKey(p, guess.known.index.current, guess.known.etag, guess.known.index.appends.get(guess.known.index.current));
    let sawIndex = false;
    let sawCurrent = false;
    for (const o of objects) {
      if (o.Key === this.indexKey(p) && o.ETag === guess.known.indexS3Etag) sawIndex = true;
      else if (o.Key === current) sawCurrent = true;
      else if (!mine.has(o.Key ?? '')) return false;
    }
    return sawIndex && sawCurrent;
  }

  /** Forgets what this instance knew of a document's area (guess): a write that failed or was not confirmed. */
  forget(p: StoredPath): void {
    this.known.delete(this.dirOf(p));
  }

  /** Keeps what a committed write left (guess), the oldest going first past KNOWN_KEPT. */
  private rememberWrite(dir: string, known: Known): void {
    this.known.delete(dir);
    this.known.set(dir, known);
    if (this.known.size > KNOWN_KEPT) this.known.delete(this.known.keys().next().value!);
  }

  /**
   * survey()'s area as of the document's ETag `etag` (null: no document): itself, unless it was made from the index
   * and the document no longer has the index's ETag (stale: a write that did not finish, or another program's), or
   * has none (a document created anew removes every key there); then the whole area is listed.
   */
  async settle(p: StoredPath, area: S3Area, etag: string | null): Promise<S3Area> {
    if (area.onlyIf === undefined || area.onlyIf === etag) return area;
    return { ...(await this.listing(this.dirOf(p))), index: area.index };
  }

  /**
   * The first half of a write's version, before the document's PutObject (the caller holds the key's commit lock;
   * `area`: survey()'s listing, made under it): leftovers of writes that did not commit go; the document being
   * replaced (`replaced`) is copied to its blob unless its bytes are kept already (a blob, or pointers to one), or
   * pointed at (`p-`) when the content begins with its bytes (`replaced.prefix`, not with a purge), and recorded as a
   * version of its own ("unrecorded") when no record has its bytes (written while versions were off, or by another
   * program); then the new version's record (and purge marker) are put. These requests go together: each must be done
   * before the document's PutObject (the caller's, after this answers), none before another. The new record names
   * bytes no object has until the document is written, so it is invisible until then whatever else is there yet; the
   * copy or pointer keeps bytes the current record names (the document's, there until that PutObject); a baseline
   * record names the current document. After a crash before the document's PutObject, the record names bytes that are
   * not the document's: invisible, and removed by recover() or the next write.
   */
  async prepare(p: StoredPath, content: { etag: string; size: number }, provenance: WriteProvenance, replaced: (DocumentStat & { prefix?: boolean; s3Etag?: string }) | null, purge = false, area?: S3Area): Promise<PendingS3Version> {
    const listing = await this.settle(p, area ?? (await this.survey(p)), replaced?.etag ?? null);
    const index = listing.index;
    const view = viewOf(listing, replaced?.etag ?? null);
    // The index the document has, when it is the view of the replaced document; kept (it names the replaced ETag, so
    // it is stale once the document is written) only when this write changes no visible record before its document
    // does: not a write of the same bytes (its record is current as soon as it is there) nor one that puts a baseline.
    const valid = replaced && indexMatches(index, replaced.etag, view) ? index : null;
    const keepIndex = valid !== null && content.etag !== replaced!.etag;
    // A document created anew inherits nothing: what is there belongs to one deleted or never written.
    const stale = replaced ? view.pending.map((r) => r.key) : listing.keys.filter((key) => key !== this.indexKey(p));
    // The index goes with them (first: no index ever names more than the records there) unless kept.
    const dropIndex = !keepIndex && (index !== null || listing.keys.includes(this.indexKey(p)));
    if (stale.length > 0 || dropIndex) await this.host.deleteKeys([...(dropIndex ? [this.indexKey(p)] : []), ...stale]);
    const requests: Promise<void>[] = [];
    let newestId = view.visible.at(-1)?.id;
    const made = new Map<string, VersionRecord>();
    const gone = new Set(stale);
    // The pointers of the records removed go with them (a way never goes through a name that is gone).
    const pointers = new Map([...listing.pointers].map(([from, edges]) => [from, edges.filter((e) => !gone.has(e.key))]));
    const after: Listing = { ...listing, records: listing.records.filter((r) => !gone.has(r.key)), blobs: new Set(listing.blobs), pointers };
    // The replaced ETag the new record's name carries when it points at the replaced bytes (an appended write).
    let appends: string | undefined;
    if (replaced) {
      if (content.etag !== replaced.etag && !wayOf(after, replaced.etag, null)) {
        // The pointer is true whenever it is read (the content's ETag names bytes that begin with the replaced ones); it
        // leads to bytes once the document's PutObject is done, or to none (a write that did not commit: unused). It is
        // the new record's name (RECORD): no request of its own, and there exactly as long as the record.
        if (replaced.prefix === true && !purge) {
          appends = replaced.etag;
        } else {
          // A guessed document (replaced.s3Etag: S3Store.overwriteKnown) is copied only while it is the one guessed.
          requests.push(this.copyToBlob(p, replaced.etag, replaced.size, replaced.s3Etag));
          after.blobs.add(replaced.etag);
        }
      }
      if (view.current === null) {
        const baseline = unrecordedVersion(this.nextId(newestId), replaced);
        const baselineKey = this.recordKey(p, baseline.id, baseline.etag);
        requests.push(this.putRecord(baselineKey, baseline));
        newestId = baseline.id;
        made.set(baseline.id, baseline);
        after.records.push({ id: baseline.id, etag: baseline.etag, key: baselineKey, s3Etag: undefined });
      }
    }
    const record = newVersionRecord(this.nextId(newestId), content, provenance);
    const marker = `${this.dirOf(p)}v-${record.id}.purge`;
    if (purge) requests.push(this.host.send('PutObject', (c) => c.send(new PutObjectCommand({ Bucket: this.host.bucket, Key: marker, Body: new Uint8Array(0), ContentLength: 0 }))).then(() => undefined));
    const key = this.recordKey(p, record.id, record.etag, appends);
    requests.push(this.putRecord(key, record));
    made.set(record.id, record);
    after.records.push({ id: record.id, etag: record.etag, key, s3Etag: undefined });
    addEdge(after.pointers, listing.dir, key);
    // The index as it is once the document is written (a purging write has none: its purge writes it, before it deletes),
    // made while the requests are out.
    const visible = viewOf(after, content.etag).visible;
    const keys = namesIn(listing.dir, kept(after, visible, content.etag, record.id));
    const textMade = purge ? Promise.resolve(undefined) : this.linesOf(visible, valid, made).then((lines) => indexText(content.etag, record.id, lines, keys, appendsOf(visible))).catch(() => undefined);
    let indexPut = false;
    const abort = () => this.host.deleteKeys([key, ...(purge ? [marker] : []), ...(indexPut ? [this.indexKey(p)] : [])]);
    // Every request answered before the caller goes on, failed or not: what one that failed leaves is the record's to remove.
    const [text, ...settled] = await Promise.all([textMade, ...requests.map((r) => r.then(() => null, (err: unknown) => ({ err })))]);
    const failed = settled.find((r) => r !== null);
    if (failed) {
      await abort().catch(() => undefined);
      throw failed.err;
    }
    const newest = visible.at(-1)?.id === record.id;
    return {
      record,
      key,
      predecessor: purge ? null : newest ? (visible.at(-2)?.id ?? null) : undefined,
      commit: async (write) => {
        this.known.delete(listing.dir);
        if (text === undefined) return write();
        indexPut = true;
        const [written, indexed] = await Promise.allSettled([write(), this.putIndex(p, text)]);
        if (written.status === 'rejected') throw written.reason;
        this.knownCurrent(listing.dir, record.id);
        // What the next write here may guess: the document and the index as S3 answered them.
        const parsed = text.length <= KNOWN_INDEX_BYTES ? parseIndex(text) : null;
        const s3Etag = written.value?.s3Etag;
        if (parsed && s3Etag !== undefined && indexed.status === 'fulfilled' && indexed.value !== undefined) {
          this.rememberWrite(listing.dir, { docS3Etag: s3Etag, etag: content.etag, size: content.size, modified: written.value!.modified, index: parsed, indexS3Etag: indexed.value });
        }
        return written.value;
      },
      abort,
    };
  }

  /**
   * Where a restore (S3Store's) finds the bytes of version `id` (VERSION_NOT_FOUND when `area`, as of the document's
   * ETag `current`, shows none): its record, and the key whose bytes (`firstBytes`: whose first record.size bytes) are
   * the version's, read by a copy on the server before the document is replaced: its blob, the blob that holds it as a
   * prefix, or the document itself (the version is the current content, or its first bytes).
   */
  async restoreSource(p: StoredPath, id: string, current: string, area: S3Area): Promise<{ record: VersionRecord; from: string; firstBytes: boolean }> {
    const settled = usable(await this.settle(p, area, current), current);
    const view = viewOf(settled, current);
    const found = ID.test(id) ? view.visible.find((r) => r.id === id) : undefined;
    const way = found ? wayOf(settled, found.etag, current) : null;
    if (!found || !way) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
    // The index's line when the index is the view: nothing read.
    const line = indexMatches(settled.index, current, view) ? settled.index.lines.get(id) : undefined;
    const record = line !== undefined ? toRecord(JSON.parse(line) as StoredRecord) : await this.readListed(found);
    const from = way.inDocument ? this.host.docKey(p) : this.blobKey(p, way.holder);
    return { record, from, firstBytes: way.holder !== found.etag };
  }

  /** A restore by a copy on the server (S3Store.restore: DocumentVersions.restore). */
  restore(p: StoredPath, id: string, options: WriteOptions): Promise<WriteResult> {
    return this.host.restore(p, id, options);
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

  /**
   * The stat and the index at the same time: the index is the list when it names the stat's ETag (one GetObject);
   * else the list is made from the listing, and the index written again (relist).
   */
  async list(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    const [stat, index] = await Promise.all([this.host.statDocument(p), this.readIndex(p, true)]);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
    if (index?.etag !== stat.etag) return this.relist(p, slice);
    this.knownCurrent(this.dirOf(p), index.current);
    const newestFirst = [...index.lines.values()].reverse();
    const versions = newestFirst.slice(slice.offset, slice.offset + slice.limit).map((line) => {
      const record = toRecord(JSON.parse(line) as StoredRecord);
      // Kept as readListed keeps what it reads: a record's object is its line, put whole (putRecord), so its S3 ETag
      // is the line's MD5 (a bucket that answers other ETags, say with SSE-KMS, only misses the cache).
      this.remember(this.recordKey(p, record.id, record.etag, index.appends.get(record.id)), `"${createHash('md5').update(line).digest('hex')}"`, record);
      return record;
    });
    return { versions, total: newestFirst.length, current: index.current };
  }

  /**
   * The list from the listing (stat, then listing), under the commit lock, which every change of the area takes, with
   * the index read again beside: a write that held the lock may have put it meanwhile (a list between a write's
   * document and its index), and then it is the list. Else the index is written again from the view found, its lines
   * taken from the index there when it has them (an index, stale or not, has every record it names as that record is:
   * a label or pin deletes it first) and the others read (kept ones are not read again), so the next list is one
   * GetObject. Without a current version (a document written by another program, or while versions were off) there is
   * no index: the page's records alone are read.
   */
  private async relist(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    const release = await this.host.commitLock(this.host.docKey(p));
    try {
      const [{ stat, view, listing }, index] = await Promise.all([this.snapshot(p), this.readIndex(p, false)]);
      if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
      const newestFirst = [...view.visible].reverse();
      const page = newestFirst.slice(slice.offset, slice.offset + slice.limit);
      if (view.current === null) return { versions: await Promise.all(page.map((r) => this.readListed(r))), total: newestFirst.length, current: null };
      const matches = indexMatches(index, stat.etag, view);
      const lines = await this.linesOf(view.visible, index);
      // Not written: the list answers all the same, and the next one tries again.
      const keys = namesIn(this.dirOf(p), kept(listing, view.visible, stat.etag, view.current));
      if (!matches) await this.putIndex(p, indexText(stat.etag, view.current, lines, keys, appendsOf(view.visible))).catch(() => undefined);
      const byId = new Map(view.visible.map((r, i) => [r.id, lines[i]!]));
      return { versions: page.map((r) => toRecord(JSON.parse(byId.get(r.id)!) as StoredRecord)), total: newestFirst.length, current: view.current };
    } finally {
      release();
    }
  }

  /** A visible record and the view it was found in; VERSION_NOT_FOUND. */
  private async find(p: StoredPath, id: string): Promise<{ found: Listing['records'][number]; stat: DocumentStat | null; view: View; listing: Listing }> {
    if (!ID.test(id)) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${JSON.stringify(id)}`);
    const { stat, view, listing } = await this.snapshot(p);
    const found = view.visible.find((r) => r.id === id);
    if (!found) throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
    return { found, stat, view, listing };
  }

  /**
   * A visible version's record and way from the index, when the index is the view (it names the document's ETag, as
   * list() takes it): the document's HeadObject and the index's GetObject at once, and no listing of the area, whose
   * pages grow with the versions (a record, a blob, pointers each). Undefined when the index is not the view or does not
   * name `id`: then the listing decides (find).
   */
  private async fromIndex(p: StoredPath, id: string): Promise<{ record: VersionRecord; way: Way | null; stat: DocumentStat } | undefined> {
    if (!ID.test(id)) return undefined;
    const [stat, index] = await Promise.all([this.host.statDocument(p), this.readIndex(p, true)]);
    if (!stat || index?.etag !== stat.etag) return undefined;
    const line = index.lines.get(id);
    if (line === undefined) return undefined;
    const record = toRecord(JSON.parse(line) as StoredRecord);
    const tail: Listing = { dir: this.dirOf(p), records: [], blobs: new Set(), pointers: new Map(), purges: [], keys: [] };
    return { record, way: wayOf(this.areaOf(p, index, tail), record.etag, stat.etag), stat };
  }

  async get(p: StoredPath, id: string): Promise<VersionRecord> {
    return (await this.fromIndex(p, id))?.record ?? this.readListed((await this.find(p, id)).found);
  }

  /**
   * A version's bytes: the document's own when they are the version's (openDocument: its download cache, which only
   * ever holds a document's current bytes, confirmed by S3), else the first bytes (a Range GET) of the blob or of the
   * document its way leads to, downloaded into a spool file (never kept: a purged version's bytes cannot be served from
   * anywhere once its blob is gone). The document read for a prefix must still be the one its way names (our tag in
   * its metadata): a write that replaced it meanwhile made the blob that holds the prefix now, so the way is looked up
   * again.
   */
  async open(p: StoredPath, id: string): Promise<OpenDocument> {
    // The first look from the index when it is the view; then (a write moved the bytes meanwhile), or else, up to three from the listing.
    for (let attempt = 0; attempt < 4; attempt++) {
      const indexed = attempt === 0 ? await this.fromIndex(p, id) : undefined;
      if (indexed && !indexed.way) continue;
      const listed = indexed ? undefined : await this.find(p, id);
      const etag = listed?.found.etag ?? indexed!.record.etag;
      const record = listed ? await this.readListed(listed.found) : indexed!.record;
      const versionStat = { size: record.size, modified: record.created, etag: record.etag };
      const way = indexed ? indexed.way : wayOf(listed!.listing, etag, listed!.stat?.etag ?? null);
      if (!way) break;
      if (way.inDocument && way.holder === etag) {
        const opened = await this.host.openDocument(p).catch(() => undefined);
        if (opened?.stat.etag === etag) return { ...opened, stat: versionStat };
        await opened?.close();
        continue;
      }
      const whole = way.holder === etag;
      const from = way.inDocument ? this.host.docKey(p) : this.blobKey(p, way.holder);
      const bytes = await this.host.download(from, { ...(whole ? {} : { bytes: record.size }), ...(way.inDocument ? { tag: hex(way.holder) } : {}) });
      if (bytes) return { ...bytes, stat: { ...versionStat, size: bytes.size } };
    }
    throw new ServiceError('VERSION_NOT_FOUND', `The document has no version ${id}`);
  }

  /**
   * A label or pin, under the commit lock (the caller holds the document lock): the index goes first (no index ever
   * shows a record other than it is), the record is put, and the index, when it was the view, is put again with it.
   */
  async update(p: StoredPath, id: string, change: { label?: string | null | undefined; pinned?: boolean | undefined }): Promise<VersionRecord> {
    const release = await this.host.commitLock(this.host.docKey(p));
    try {
      const [{ found, stat, view, listing }, index] = await Promise.all([this.find(p, id), this.readIndex(p, false)]);
      const valid = indexMatches(index, stat?.etag ?? null, view) ? index : null;
      const line = valid?.lines.get(id);
      const record = line !== undefined ? toRecord(JSON.parse(line) as StoredRecord) : await this.readListed(found);
      const updated: VersionRecord = {
        ...record,
        ...(change.label !== undefined ? { label: change.label } : {}),
        ...(change.pinned !== undefined ? { pinned: change.pinned } : {}),
      };
      if (index !== null || listing.keys.includes(this.indexKey(p))) await this.host.deleteKeys([this.indexKey(p)]);
      // Under its own name (an appended write's names the version it points at).
      await this.putRecord(found.key, updated);
      if (valid) {
        valid.lines.set(id, lineOf(updated));
        await this.putIndex(p, indexText(valid.etag, valid.current, valid.lines.values(), valid.keys, valid.appends)).catch(() => undefined);
      }
      return updated;
    } finally {
      release();
    }
  }

  /**
   * Deletes a version, under the commit lock (the caller holds the document lock): the index first, then the record,
   * then its way's bytes (with the index without it, when the index was the view).
   */
  async remove(p: StoredPath, id: string): Promise<void> {
    const release = await this.host.commitLock(this.host.docKey(p));
    try {
      const [{ found, view, stat, listing }, index] = await Promise.all([this.find(p, id), this.readIndex(p, false)]);
      const { key, etag } = found;
      if (view.current === id) throw new ServiceError('VERSION_IS_CURRENT', `Version ${id} is the document's current content: it cannot be deleted`);
      const current = stat?.etag ?? null;
      const valid = indexMatches(index, current, view) ? index : null;
      // The record of an appended write names a pointer (RECORD): said by a pointer of its own once the record is gone,
      // put before the record goes when an earlier version's way needs it.
      const from = RECORD.exec(key.slice(listing.dir.length))?.[3];
      const pointer = from === undefined ? undefined : `${listing.dir}p-${from}-${hex(etag)}`;
      const rest: Listing = pointer === undefined ? listing : { ...listing, keys: [...listing.keys, pointer], pointers: new Map([...listing.pointers].map(([f, edges]) => [f, edges.map((e) => (e.key === key ? { ...e, key: pointer } : e))])) };
      // Its way's pointers and blob go unless another earlier version's way needs them (the current one's bytes are the
      // document): a blob that holds other versions as its first bytes stays. Records on its way (later appended
      // writes) are other versions': they stay.
      const keep = kept(rest, view.visible.filter((r) => r.id !== id), current, view.current);
      const gone = (wayOf(rest, etag, current)?.keys ?? []).filter((k) => !keep.has(k) && !RECORD.test(k.slice(listing.dir.length)));
      if (index !== null || listing.keys.includes(this.indexKey(p))) await this.host.deleteKeys([this.indexKey(p)]);
      if (pointer !== undefined && keep.has(pointer)) await this.putPointer(p, `"${from!}"`, etag);
      await this.host.deleteKeys([key]);
      valid?.lines.delete(id);
      valid?.appends.delete(id);
      await Promise.all([this.host.deleteKeys(gone), valid ? this.putIndex(p, indexText(valid.etag, valid.current, valid.lines.values(), namesIn(listing.dir, keep), valid.appends)).catch(() => undefined) : undefined]);
      for (const blob of gone.filter((k) => BLOB.test(k.slice(listing.dir.length)))) await this.dropNoncurrent(blob, (k) => k === blob);
    } finally {
      release();
    }
  }

  async purgeEarlier(p: StoredPath): Promise<number> {
    const { stat, view, listing } = await this.snapshot(p);
    const records = listing.records.filter((r) => r.id !== view.current).map((r) => r.key);
    const rest = listing.keys.filter((key) => !RECORD.test(key.slice(this.dirOf(p).length)) && !PURGE.test(key.slice(this.dirOf(p).length)) && key !== this.indexKey(p));
    // The index first (the listing is the list until the purge is done, as a purge a crash interrupted shows what is
    // left until recover() finishes it), then the records, then every blob and pointer (the current version's bytes
    // are the document) with the index of the current version alone, then the markers.
    await this.host.deleteKeys([this.indexKey(p)]);
    await this.host.deleteKeys(records);
    const currentRecord = view.visible.find((r) => r.id === view.current);
    const index = stat && currentRecord ? indexText(stat.etag, currentRecord.id, await this.linesOf([currentRecord], null), [], appendsOf([currentRecord])) : undefined;
    await Promise.all([this.host.deleteKeys(rest), index === undefined ? undefined : this.putIndex(p, index).catch(() => undefined)]);
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
    // The index goes with the records (it names them).
    const isRecord = (key: string) => RECORD.test(key.slice(key.lastIndexOf('/') + 1)) || key.slice(key.lastIndexOf('/') + 1) === INDEX;
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
    // Blobs and pointers no earlier version's way goes through (bytes of removed versions, pointers of writes that did not commit).
    const keep = kept(listing, view.visible, stat.etag, view.current);
    const orphans = listing.keys.filter((key) => ((BLOB.test(key.slice(listing.dir.length)) || POINTER.test(key.slice(listing.dir.length))) && !keep.has(key)) || key === `${listing.dir}${OLD_INDEX}`);
    // The index first: it may name one of them (another way to the same bytes, found in a listing without this one's
    // keys), and a write takes the ways it names as they are. The next list writes it again.
    if (orphans.length === 0) return;
    if (listing.keys.includes(this.indexKey(p))) await this.host.deleteKeys([this.indexKey(p)]);
    await this.host.deleteKeys(orphans);
  }
}
