import { createHash, randomInt, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { StoredPath } from './paths.js';

/**
 * Content held open for reading: one version of it, whatever replaces it
 * meanwhile (stores replace content atomically, never in place).
 */
export interface OpenContent {
  readonly size: number;
  /**
   * A descriptor of a local file holding the content, valid until close(),
   * for readers in this process (the engine's workers read large documents
   * through it); undefined when the store keeps no local file.
   */
  readonly fd: number | undefined;
  /** The whole content. */
  read(): Promise<Buffer>;
  close(): Promise<void>;
}

export interface OpenDocument extends OpenContent {
  stat: DocumentStat;
  /** For downloads: a byte range (inclusive end), or all of it; the stream closes the document when done. */
  stream(range?: { start: number; end: number }): Readable;
}

/** What the service stores about a document besides its bytes. */
export interface DocumentStat {
  size: number;
  modified: Date;
  /** Strong entity tag, quoted, derived from the content hash. */
  etag: string;
}

export interface FolderEntry {
  name: string;
  type: 'document' | 'folder';
  size?: number;
  modified: Date;
  /**
   * The store's own stamp of this version of a document, when its listing tells one (WebDAV: the DMS's entity tag,
   * length and last modification): changes when the document does, and costs no read of it. Watched folders compare
   * it between polls of a DMS (docs/watched-folders.md).
   */
  version?: string;
}

/**
 * How a write treats an existing target, as `namingMode` says:
 * 0 `fail` (409), 1 `overwrite`, 2 `unique` (a random number is appended to the name).
 */
export type ConflictMode = 'fail' | 'overwrite' | 'unique';

/** `namingMode` (0, 1, 2; absent means 0) as a ConflictMode. */
export function conflictModeFor(namingMode: number | undefined): ConflictMode {
  return (['fail', 'overwrite', 'unique'] as const)[namingMode ?? 0] ?? 'fail';
}

/** The ETag of content whose SHA-256 digest is `sha256`: every store derives it so, so a document's tag does not depend on where it lives. */
export function etagOfDigest(sha256: Buffer): string {
  return `"${sha256.subarray(0, 16).toString('hex')}"`;
}

export function etagOf(content: Uint8Array): string {
  return etagOfDigest(createHash('sha256').update(content).digest());
}

/** Hashed in slices of this size, the event loop served between them (about a millisecond of hashing each). */
const HASH_SLICE = 1 << 20;

/** ETags of byte arrays that are written (an engine's output is hashed for the lifecycle's check and the store's write: once). */
const etags = new WeakMap<Uint8Array, string>();
/**
 * The hash's state after each whole slice of a byte array etagOfContent hashed (the first after HASH_SLICE bytes), so
 * that the ETag of its first n bytes (etagsOfContent: whether a write appends to the document it replaces) hashes at
 * most one slice more instead of the n bytes again (a 200-page document's 4.3 MB: 3.3 ms of hashing on every
 * versioned edit of it, nearly all of it gone). A state is an OpenSSL context of a few hundred bytes.
 */
const sliceStates = new WeakMap<Uint8Array, Hash[]>();

/**
 * etagOf for content about to be written, on the event loop without holding it: a 20 MB engine output took 40 to 60
 * ms of one synchronous hash (twice for a job: its check before the write, then the store's), and every other
 * request waited (a job's 202 reached 98 ms at p99 while two heavy jobs ran). Past a slice, the hash goes a slice per
 * turn of the loop; the answer is kept for the same array (it is not written to afterwards).
 */
export async function etagOfContent(content: Uint8Array): Promise<string> {
  if (content.length <= HASH_SLICE) return etagOf(content);
  const known = etags.get(content);
  if (known !== undefined) return known;
  const hash = createHash('sha256');
  const states: Hash[] = [];
  for (let at = 0; at < content.length; at += HASH_SLICE) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    hash.update(content.subarray(at, at + HASH_SLICE));
    if (at + HASH_SLICE < content.length) states.push(hash.copy());
  }
  const etag = etagOfDigest(hash.digest());
  etags.set(content, etag);
  sliceStates.set(content, states);
  return etag;
}

/**
 * etagOfContent, and the ETag of the content's first `prefixBytes` bytes, in one pass (the hash copied at that point):
 * whether a write's content begins with the version it replaces (an appended update, engine/core/save.ts) is proven
 * by comparing that ETag with the replaced one, without reading the replaced file. When the content's ETag is known
 * already (hashed for the lifecycle's check), only the prefix is hashed, from the state etagOfContent kept after its
 * last whole slice (sliceStates): at most a slice.
 */
export async function etagsOfContent(content: Uint8Array, prefixBytes: number): Promise<{ etag: string; prefix: string }> {
  const known = etags.get(content);
  const end = known !== undefined ? prefixBytes : content.length;
  // Known: from the state after the last whole slice before the prefix's end (sliceStates), if any.
  const skip = known !== undefined ? Math.min(Math.floor(prefixBytes / HASH_SLICE), sliceStates.get(content)?.length ?? 0) : 0;
  const hash = skip > 0 ? sliceStates.get(content)![skip - 1]!.copy() : createHash('sha256');
  let prefix: string | undefined;
  for (let at = skip * HASH_SLICE; at < end; at += HASH_SLICE) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const stop = Math.min(at + HASH_SLICE, end);
    if (prefix === undefined && stop >= prefixBytes) {
      hash.update(content.subarray(at, prefixBytes));
      prefix = etagOfDigest(hash.copy().digest());
      hash.update(content.subarray(prefixBytes, stop));
    } else {
      hash.update(content.subarray(at, stop));
    }
  }
  prefix ??= etagOfDigest(hash.copy().digest()); // an empty prefix
  const etag = known ?? etagOfDigest(hash.digest());
  etags.set(content, etag);
  return { etag, prefix };
}

/** The name a `unique` write tries when the requested one is taken. */
export function withRandomSuffix(p: StoredPath): StoredPath {
  const base = p.name.replace(/\.pdf$/i, '');
  return p.parent.child(`${base}-${randomInt(100000, 1000000)}.pdf`);
}

/** Who asks for a write, and which operation it is: what a write records of itself besides the version it replaced. */
export interface WriteProvenance {
  /** The service user the write is made for; null: the service's own work, for no signed-in user. */
  readonly by: string | null;
  /** The operation that writes: an action's name ("StampAction"), "upload", or an edit of a resource (an engine task's name: "setFieldValue"). */
  readonly operation: string;
  /** The request that asked for the write, when it came from one (its X-Request-Id); kept with the version. */
  readonly requestId?: string | null | undefined;
  /** The background job that wrote, when a job did; kept with the version. */
  readonly jobId?: string | null | undefined;
  /** The written content's page count, when the writer knows it (an engine summarised the content); kept with the version. */
  readonly pageCount?: number | null | undefined;
}

/**
 * What every write records of itself: who, which operation, and the ETag of
 * the version it replaced. The seam document versions will use: a store that
 * keeps versions keeps this with each one; the stores of today answer it in
 * WriteResult.record (the operations layer hands it to its write listeners).
 */
export interface WriteRecord extends WriteProvenance {
  /**
   * The ETag of the version the write replaced, as the store found it just before its commit (with If-Match, the
   * version matched); null when the write created the document (also under another name, namingMode 2).
   */
  readonly replaced: string | null;
}

/** The provenance of a write that names none (a store's own tests, tools): the service's own. */
export const UNNAMED_WRITE: WriteProvenance = { by: null, operation: 'write' };

export interface WriteOptions {
  conflict: ConflictMode;
  /** The target must currently have this ETag (412 otherwise). */
  ifMatch?: string | undefined;
  /** Who writes, and why (WriteRecord); UNNAMED_WRITE when absent. */
  provenance?: WriteProvenance | undefined;
  /**
   * After the write, remove every earlier version the store keeps of the document (DocumentVersions.purgeEarlier):
   * an action that removes content (ApplyRedactionsAction) must leave no version that still holds it. Ignored by a
   * store that keeps no versions.
   */
  purgeEarlierVersions?: boolean | undefined;
}

export interface WriteResult {
  path: StoredPath;
  created: boolean;
  stat: DocumentStat;
  /** What the write recorded of itself. */
  record: WriteRecord;
  /** The version the store kept of this write (a store that keeps versions); absent otherwise. */
  version?: VersionRecord | undefined;
  /** With purgeEarlierVersions: how many earlier versions were removed. */
  purgedVersions?: number | undefined;
  /**
   * The id of the kept version before `version` (null: none), when the store knows it from the write (the filesystem,
   * S3 and WebDAV stores: the newest visible record before it); absent otherwise. What a document's answer names as its
   * predecessor (RFC 5829).
   */
  predecessor?: string | null | undefined;
}

/**
 * One kept version of a document (docs/versions.md): immutable but for its label and pin. Every write through a store
 * that keeps versions makes one, the current content included (the newest version is the current one).
 */
export interface VersionRecord {
  /** Opaque, URL-safe, and ordered: a later version's id sorts after an earlier one's. */
  readonly id: string;
  readonly etag: string;
  readonly size: number;
  readonly created: Date;
  /** The user that wrote it; null for the service's own work or a version found unrecorded (written with versions off). */
  readonly by: string | null;
  /** The writing operation (WriteProvenance.operation); "unrecorded" for content the store found without a version. */
  readonly operation: string;
  readonly requestId: string | null;
  readonly jobId: string | null;
  readonly pageCount: number | null;
  readonly label: string | null;
  /** Kept whatever the retention policy says (src/operations/retention-policy.ts). */
  readonly pinned: boolean;
}

/** A slice of a document's versions, newest first. */
export interface VersionSlice {
  versions: VersionRecord[];
  /** How many versions the document has. */
  total: number;
  /** The id of the current version (the document's content as it is), or null when no kept version is it. */
  current: string | null;
}

/**
 * The versions a store keeps of its documents, beside DocumentStore (the seam of issue 39). A store that keeps versions
 * answers this as DocumentStore.versions (filesystem-versions.ts, s3/versions.ts, webdav/versions.ts); a store without it (versions turned
 * off) has none, and the versions endpoints answer VERSIONS_NOT_KEPT. Every write of such a store (writeDocument) keeps
 * the written content as a new version, crash-safely: after a crash the list names the old current content or the new
 * one, never bytes that are not there. Callers that change versions (update, remove, purgeEarlier) hold the document's
 * lock (DocumentStore.lock). A restore is not here: it is an ordinary write of a version's bytes (the operations layer).
 */
export interface DocumentVersions {
  /** The document's versions, newest first, `limit` from `offset`; DOCUMENT_NOT_FOUND when there is no document. */
  list(path: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice>;
  /** One version's record; VERSION_NOT_FOUND. */
  get(path: StoredPath, id: string): Promise<VersionRecord>;
  /** One version's bytes and stat (its own ETag; modified: when it was written), as openDocument; VERSION_NOT_FOUND. */
  open(path: StoredPath, id: string): Promise<OpenDocument>;
  /** Sets a version's label (null removes it) and pin. */
  update(path: StoredPath, id: string, change: { label?: string | null | undefined; pinned?: boolean | undefined }): Promise<VersionRecord>;
  /** Removes one version; VERSION_IS_CURRENT for the current one. */
  remove(path: StoredPath, id: string): Promise<void>;
  /** Removes every version but the current one (pinned ones too); answers how many went. */
  purgeEarlier(path: StoredPath): Promise<number>;
  /**
   * Optional: makes version `id` the document's content again, as a new version, without its bytes passing through the
   * service (the S3 store copies them on its server); a write as writeDocument(path, <its bytes>, options) with
   * `overwrite` would be (If-Match on the current version, the replaced one kept), the new version's page count the
   * kept one's when the provenance has none. The caller holds the document's lock. VERSION_NOT_FOUND. A store without
   * it: the caller opens the version and writes its bytes.
   */
  restore?(path: StoredPath, id: string, options: WriteOptions): Promise<WriteResult>;
  /**
   * Every document that has kept versions, in no set order (the retention sweep walks them: docs/versions.md,
   * "Retention"). A document written or deleted during the walk may be named or not.
   */
  documents(): AsyncIterable<StoredPath>;
}

/** One deleted document or folder kept in the trash (docs/versions.md, "Trash"). */
export interface TrashEntry {
  /** Opaque, URL-safe, and ordered: a later deletion's id sorts after an earlier one's. */
  readonly id: string;
  readonly kind: 'document' | 'folder';
  /** Where it was when deleted (where a restore puts it back by default). */
  readonly path: StoredPath;
  readonly deleted: Date;
  /** The user that deleted it; null for the service's own work. The trash is per user: each sees their own entries. */
  readonly deletedBy: string | null;
  /** The bytes of the documents it holds (their current content, not their versions). */
  readonly size: number;
  readonly documentCount: number;
  /** The versions kept with its documents. */
  readonly versionCount: number;
}

/**
 * The trash a store keeps of deleted documents and folders, beside DocumentStore (issue 39). A store that keeps one
 * answers this as DocumentStore.trash, and its deleteDocument and deleteFolder move what they delete into a trash entry
 * (the document or the folder's documents, with their versions) instead of erasing it, crash-safely: after a crash a
 * document is where it was or whole in the trash. A store without one (memory, or the trash turned
 * off) erases, and the trash endpoints answer TRASH_NOT_KEPT. Restoring a document entry: the caller holds the lock of
 * the target path (DocumentStore.lock).
 */
export interface DocumentTrash {
  /** Entries newest first, `limit` from `offset`; those deleted by `deletedBy` (undefined: everyone's). */
  list(filter: { deletedBy?: string | null | undefined }, slice: { offset: number; limit: number }): Promise<{ entries: TrashEntry[]; total: number }>;
  /** One entry; TRASH_ENTRY_NOT_FOUND. */
  get(id: string): Promise<TrashEntry>;
  /**
   * Puts the entry back at `target` (a document path for a document entry, a folder path for a folder entry) with its
   * versions, and removes the entry; TRASH_PATH_TAKEN when a document or folder is there now.
   */
  restore(id: string, target: StoredPath): Promise<void>;
  /** Removes the entry for good; TRASH_ENTRY_NOT_FOUND. */
  purge(id: string): Promise<void>;
  /** Removes for good every entry deleted before `before` (the retention sweep's call); answers how many went. */
  expire(before: Date): Promise<number>;
}

/** The record of a write with `options` that replaced `replaced` (null: created the document). */
export function writeRecord(options: WriteOptions, replaced: string | null): WriteRecord {
  const { by, operation, jobId } = options.provenance ?? UNNAMED_WRITE;
  // The job that wrote, for the write's listeners (a watched folder tells an in-place run's own write from an arrival).
  return { by, operation, replaced, ...(jobId ? { jobId } : {}) };
}

/** An upload received into the store's staging area before it is validated and committed. */
export interface StagedUpload {
  readonly size: number;
  readonly etag: string;
  read(): Promise<Buffer>;
  /**
   * The content's first bytes (all of it when shorter), when the store kept them while staging (local-files.ts
   * STAGED_HEAD_BYTES): a look at them then reads nothing. Absent: open() and read.
   */
  readonly head?: Uint8Array | undefined;
  /** The staged content held open (for the engine's check of a large upload, without reading it into memory). */
  open(): Promise<OpenContent>;
  discard(): Promise<void>;
}

export type Release = () => void;

/**
 * Where documents live. The filesystem store is the embedded default; an
 * S3-compatible or WebDAV store implements the same interface. Nothing above
 * this interface touches the file system.
 */
export interface DocumentStore {
  statDocument(path: StoredPath): Promise<DocumentStat | null>;
  /**
   * Opens a document: its stat and its bytes come from the same version even
   * while a writer replaces it. Call stream() once, or close().
   */
  openDocument(path: StoredPath): Promise<OpenDocument>;
  writeDocument(path: StoredPath, content: Buffer | Uint8Array | StagedUpload, options: WriteOptions): Promise<WriteResult>;
  /** Erases the document, or moves it to the trash when the store keeps one (`by`: who deletes, DocumentTrash). */
  deleteDocument(path: StoredPath, ifMatch?: string, by?: string | null): Promise<void>;
  /** Receives a stream into the staging area; rejects with PAYLOAD_TOO_LARGE past `limit` bytes. */
  stage(source: Readable, limit: number): Promise<StagedUpload>;
  statFolder(path: StoredPath): Promise<{ modified: Date } | null>;
  makeFolder(path: StoredPath): Promise<{ created: boolean }>;
  listFolder(path: StoredPath): Promise<FolderEntry[]>;
  /** Erases the folder, or moves it to the trash when the store keeps one (as deleteDocument). */
  deleteFolder(path: StoredPath, recursive: boolean, by?: string | null): Promise<void>;
  /**
   * Moves the document at `from` to `to` with its kept versions (docs/move.md): the same bytes and ETag, no new version,
   * the trash untouched. `options.conflict` decides a document at `to` (fail: ALREADY_EXISTS; overwrite: it is deleted
   * as deleteDocument would, into the trash when the store keeps one; unique: another name), `options.ifMatch` is
   * checked against `from` (PRECONDITION_FAILED). The caller holds the locks of both paths. The answer is the write at
   * the path it landed on (`record.replaced`: the ETag of the document it replaced). Absent: the store cannot move, and
   * the operations layer answers MOVE_NOT_SUPPORTED.
   */
  moveDocument?(from: StoredPath, to: StoredPath, options: WriteOptions): Promise<WriteResult>;
  /**
   * Moves (renames) the folder at `from`, with every document below it and their versions, to `to`, which must not
   * exist (ALREADY_EXISTS; PATH_CONFLICT for a document there) and must not be inside `from` (the caller refuses that).
   * FOLDER_NOT_FOUND. Absent: as moveDocument.
   */
  moveFolder?(from: StoredPath, to: StoredPath): Promise<void>;
  /** Serializes writers of one document; read-modify-write holds it throughout. */
  lock(path: StoredPath): Promise<Release>;
  /** Removes leftovers of interrupted writes; called at start. */
  recover(): Promise<void>;
  /** The versions this store keeps (docs/versions.md); absent: it keeps none, and writes replace documents. */
  readonly versions?: DocumentVersions | undefined;
  /** The trash this store keeps (DocumentTrash); absent: deletes erase. */
  readonly trash?: DocumentTrash | undefined;
}

/** The credentials a store acts with on the user's behalf (a DMS account). Held in memory only, never logged. */
export interface StoreCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * Who a store call is made for: the service user, and the credentials the
 * store should act with when it has its own users (a DMS). Storage does not
 * know the auth layer: the operations layer makes this from the request's
 * principal (operations/context.ts, storeUserOf).
 */
export interface StoreUser {
  /** The service user's name. */
  readonly name: string;
  /** Absent: the store acts as the user by its own means (a mapped account), or refuses when it has none. */
  readonly credentials?: StoreCredentials | undefined;
}

/**
 * The store each user's calls go to. A store with its own users (WebDAV with
 * per-user rights) answers a store that acts as `user`, so the DMS decides
 * what each user sees and changes; stores without users answer one store to
 * everyone (sharedStores). The stores one provider answers hold one set of
 * documents: their per-document locks must be shared (one lock table per
 * provider, not per user), or two users' writes of one document would not wait
 * for each other. `null`: work for no signed-in user.
 */
export interface DocumentStores {
  for(user: StoreUser | null): DocumentStore;
}

/** The provider of a store that ignores the user (filesystem, memory): every user gets `store`. */
export function sharedStores(store: DocumentStore): DocumentStores {
  return { for: () => store };
}

/** If-Match semantics (RFC 9110): "*" matches any current document; otherwise a list of strong tags. */
export function matchesEtag(header: string, current: string | undefined): boolean {
  if (current === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim() === current);
}
