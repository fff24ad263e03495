import { ServiceError } from '../../errors.js';
import { StoredPath } from '../paths.js';
import { UNNAMED_WRITE, type DocumentStat, type DocumentVersions, type OpenDocument, type VersionRecord, type VersionSlice, type WriteOptions, type WriteProvenance, type WriteResult } from '../store.js';
import { newVersionRecord, unrecordedVersion, versionFromStored, versionToStored, type StoredVersionRecord } from '../version-records.js';
import { hiddenCollections, stillAt, unexpected, versionOf, type DavClient, type DavCredentials } from './client.js';

/**
 * The versions of the WebDAV store (docs/versions.md, "Storage (WebDAV)"): a hidden collection beside each document,
 * `<folder>/.pdfservice-versions/<name>/`, in the document's own folder so that the DMS's rights on the folder are
 * the rights on its versions (every request goes as the user, as for the document). A name starting with "." is
 * never a document path (paths.ts) and never listed (WebDavStore.listFolder). It holds
 *
 * - `v-<id>-<hex>.json`: one committed version's record (id: 16 digits, ordered by time; hex: its ETag's digits, so
 *   that one PROPFIND tells which records have bytes without reading them);
 * - `v-<id>-<hex>.pending`: the record of a write in flight (written before the document's MOVE), and of the newest
 *   committed write until the next write renames it (with its requests before its own MOVE: prepare);
 * - `v-<id>.purge`: written with the pending record of a write that purges every earlier version (a redaction, or a
 *   document created where versions of a gone one were left), removed when the purge is done;
 * - `b-<hex>`: the bytes of every earlier version with that ETag, made by a server-side COPY of the document just
 *   before a write replaces it (no byte goes through the service). The current document is its newest version's
 *   bytes: a version costs nothing until its document is replaced, then exactly one copy; equal bytes share a blob.
 * - `p-<hex>-<other hex>` (empty: the name says it all): the bytes of the versions with the first ETag are the first
 *   bytes (their record's size) of the other's (a "prefix", as the S3 store's, s3/versions.ts). A write whose content
 *   begins with the bytes of the document it replaces (an appended update; proven by the ETag of as many first bytes of
 *   the content, WebDavStore.writeDocument) puts this pointer instead of the COPY. A version's way (wayOf) is the chain
 *   of pointers from its ETag to a blob (which, while it is there, wins) or to the current document, followed in the
 *   names the look found (the index's or a PROPFIND's: no request per step); its bytes are read by a Range GET and hashed, so bytes that are not
 *   the version's (a rewrite replaced the document meanwhile: its COPY holds the prefix now) are never served.
 *
 * What is shown is decided from the names and the document's ETag alone (view()): a record whose bytes are neither a
 * blob nor the document is not shown (a write that did not commit, or a document replaced behind the service's
 * back), the newest pending record of the document's ETag (newer than every committed one) is shown (its write
 * committed; the next write renames it), and nothing older than a purge marker whose write committed is shown. A write
 * that reads the collection (no valid index) settles what is left under its lock (tidy), so reads never need the lock.
 *
 * `index.json` is a view derived from those names and records, so that a listing is one GET whatever the number of
 * versions (a PROPFIND of the collection and a GET per record not read yet cost 0.4 to 1 s at 1,000 versions): the
 * records of every version shown, oldest first, the document's ETag it was written for, the blobs and pointers their
 * ways go through and the newest record when it may still be pending. Valid only while that is the document's ETag;
 * then it is also a write's look (prepare: one GET, no PROPFIND, no tidy) and a read's (located). Every change of what is shown writes it under the document's commit lock: a write's prepare()
 * beside its pending record (before the MOVE, so it becomes valid with the MOVE that makes it true), a label or pin
 * (the index deleted first, so that no crash leaves one with the old label), a version delete and a purge (the
 * smaller index first: it never names bytes about to go). Missing, unreadable or stale (a crash before a MOVE, a
 * document changed on the DMS directly): list() reads the names and records as without it and writes it again
 * under the lock.
 */
export const VERSIONS_FOLDER = '.pdfservice-versions';

const RECORD = /^v-(\d{16})-([0-9a-f]{32})\.(json|pending)$/;
const PURGE = /^v-(\d{16})\.purge$/;
const BLOB = /^b-([0-9a-f]{32})$/;
const POINTER = /^p-([0-9a-f]{32})-([0-9a-f]{32})$/;
const ID = /^\d{16}$/;
/** The versions' index (WebDavVersions): every version shown, oldest first, for the document at one ETag. */
const INDEX = 'index.json';

interface StoredIndex {
  etag: string;
  versions: StoredVersionRecord[];
  /** The digits of the blobs the versions' ways go through; absent in an index written before they were (a write then reads the collection). */
  blobs?: string[];
  /** The pointers (`p-<from>-<into>`) the versions' ways go through, as [from, into]. */
  pointers?: [string, string][];
  /** The newest version's id when its record may still be named `.pending`: the next write renames it. */
  pending?: string;
}

/** What readIndexAhead answers. */
export type IndexRead = Index | null;

/** The blobs and pointers of a collection (Collection's), or those an index names. */
interface Names {
  blobs: Set<string>;
  pointers: Map<string, string[]>;
}

/** The index as read: `versions` are what is shown while the document's ETag is `etag` (oldest first). */
interface Index {
  etag: string;
  versions: VersionRecord[];
  /** The blobs and pointers their ways go through (a write's look then needs no PROPFIND); undefined in an older index. */
  names?: Names | undefined;
  pending?: string | undefined;
}

/** A slice of versions (oldest first) for the list, newest first; the newest is current when it is the document's content. */
function sliceOf(versions: VersionRecord[], docEtag: string, slice: { offset: number; limit: number }): VersionSlice {
  const to = Math.max(0, versions.length - slice.offset);
  const from = Math.max(0, to - slice.limit);
  const newest = versions.at(-1);
  return { versions: versions.slice(from, to).reverse(), total: versions.length, current: newest && newest.etag === docEtag ? newest.id : null };
}

/** The digits of a quoted ETag (`"<32 hex>"`, etagOfDigest). */
const hexOf = (etag: string) => etag.replace(/"/g, '');


/** One record named in the collection. */
interface Entry {
  id: string;
  hex: string;
  pending: boolean;
  /** The record's version on the DMS as the PROPFIND that named it told (client.ts versionOf). */
  dav?: string;
}

/** How many version records a process keeps read (RecordMemo): a few MB. */
const RECORD_MEMO = 10_000;

/**
 * Version records read, by URL, with the DMS version they were read at (the backend's, shared by every user's store):
 * without it every listing read every record it shows, one GET each (1,000 for `?limit=1000`). A record is used only
 * for the version a PROPFIND just named, so a record changed since (a label, a pin, by any instance) is read again.
 */
export class RecordMemo {
  private readonly records = new Map<string, { dav: string; record: VersionRecord }>();

  get(url: string, dav: string): VersionRecord | undefined {
    const known = this.records.get(url);
    return known?.dav === dav ? known.record : undefined;
  }

  set(url: string, dav: string, record: VersionRecord): void {
    this.records.delete(url);
    this.records.set(url, { dav, record });
    // The oldest read go first (a Map iterates in insertion order).
    if (this.records.size > RECORD_MEMO) this.records.delete(this.records.keys().next().value!);
  }

  drop(url: string): void {
    this.records.delete(url);
  }
}

/** The collection's names, sorted out. */
interface Collection extends Names {
  /** Committed and pending records, oldest first. */
  records: Entry[];
  purges: string[];
  /** Pointers (`p-<from>-<into>`): for each ETag's digits, the digits of those whose bytes begin with its. */
  pointers: Map<string, string[]>;
}

/** The collection as a valid index names it (its versions, blobs and pointers; the newest record maybe pending). */
function collectionOf(index: Index & { names: Names }): Collection {
  return {
    records: index.versions.map((r) => ({ id: r.id, hex: hexOf(r.etag), pending: r.id === index.pending })),
    purges: [],
    blobs: new Set(index.names.blobs),
    pointers: new Map([...index.names.pointers].map(([from, intos]) => [from, [...intos]])),
  };
}

/** The blobs and pointers of `c` that the ways of `kept` go through: what an index of them names. */
function namesFor(c: Names, kept: { hex: string }[], docHex: string | null): Names {
  const named = new Set(kept.flatMap((e) => wayOf(c, e.hex, docHex)?.names ?? []));
  const pointers = new Map<string, string[]>();
  for (const [from, intos] of c.pointers) {
    const used = intos.filter((into) => named.has(`p-${from}-${into}`));
    if (used.length > 0) pointers.set(from, used);
  }
  return { blobs: new Set([...c.blobs].filter((hex) => named.has(`b-${hex}`))), pointers };
}

/** Where a version's bytes are: the first bytes of the blob of `holder`, or of the document (`inDocument`). */
interface Way {
  holder: string;
  inDocument: boolean;
  /** The names the way goes through (pointers, then the blob): removals keep them while a remaining version's way needs them. */
  names: string[];
}

/**
 * The way to the bytes of `hex` given the document's ETag digits (`docHex`; null: not counting the document): its blob,
 * the document, or a chain of pointers to one of those. Pointers go from a shorter content to a longer one, so chains end.
 */
function wayOf(c: Names, hex: string, docHex: string | null, seen = new Set<string>()): Way | null {
  if (c.blobs.has(hex)) return { holder: hex, inDocument: false, names: [`b-${hex}`] };
  if (hex === docHex) return { holder: hex, inDocument: true, names: [] };
  if (seen.has(hex)) return null;
  seen.add(hex);
  for (const into of c.pointers.get(hex) ?? []) {
    const rest = wayOf(c, into, docHex, seen);
    if (rest) return { ...rest, names: [`p-${hex}-${into}`, ...rest.names] };
  }
  return null;
}

/** The blob and pointer names the ways of `kept` go through (given the document's ETag digits). */
function needed(c: Collection, kept: Entry[], docHex: string | null): Set<string> {
  return new Set(kept.flatMap((e) => wayOf(c, e.hex, docHex)?.names ?? []));
}

/** The names of a collection's blobs and pointers. */
function bytesNames(c: Collection): string[] {
  return [...[...c.blobs].map((hex) => `b-${hex}`), ...[...c.pointers].flatMap(([from, intos]) => intos.map((into) => `p-${from}-${into}`))];
}

/** What is shown of a collection, for a document whose ETag's digits are `docHex` (null: no document). */
interface View {
  /** Oldest first. */
  visible: Entry[];
  current: Entry | null;
}

function view(c: Collection, docHex: string | null): View {
  const newestCommitted = c.records.filter((e) => !e.pending).at(-1)?.id ?? '';
  // At most one pending record is a committed write's (every write renames its predecessor's before its MOVE): the
  // newest of the document's ETag. An older one is a write killed before its MOVE, never shown.
  const committedPending = c.records.filter((e) => e.pending && e.hex === docHex && e.id > newestCommitted).at(-1)?.id;
  let visible = c.records.filter((e) => (!e.pending || e.id === committedPending) && wayOf(c, e.hex, docHex) !== null);
  const shown = new Set(visible.map((e) => e.id));
  const purgedBefore = c.purges.filter((id) => shown.has(id)).sort().at(-1);
  if (purgedBefore !== undefined) visible = visible.filter((e) => e.id >= purgedBefore);
  const newest = visible.at(-1);
  return { visible, current: newest && newest.hex === docHex ? newest : null };
}

/** A version's record and where its bytes are (WebDavVersions.located). */
interface Located {
  record: VersionRecord;
  hex: string;
  stat: DocumentStat | null;
  c: Names;
}

/** What the versions need of the store that acts as the user (WebDavStore). */
export interface VersionHost {
  readonly client: DavClient;
  readonly user: DavCredentials | undefined;
  statDocument(p: StoredPath): Promise<DocumentStat | null>;
  openDocument(p: StoredPath): Promise<OpenDocument>;
  openUrl(url: string, notFound: () => ServiceError): Promise<OpenDocument>;
  /** The first `bytes` bytes of a resource (a Range GET), spooled and hashed, never kept; null when it is not there. */
  openStart(url: string, bytes: number): Promise<OpenDocument | null>;
  /** Forgets the tags and kept downloads at and below a URL (bytes removed: the download cache must not keep them). */
  forget(urlPrefix: string): Promise<void>;
  /** An id after `after` and after every id this process gave out. */
  nextId(after: string | undefined): string;
  /** The records read already (shared by every user's store). */
  readonly records: RecordMemo;
  /**
   * A write whose content is the bytes at `from` on the DMS, copied there (WebDavStore.writeCopy); null when they are
   * not there (the caller then writes them itself).
   */
  writeCopy(p: StoredPath, from: string, content: { etag: string; size: number }, options: WriteOptions): Promise<WriteResult | null>;
  /** An ordinary write (WebDavStore.writeDocument) of bytes whose tag is known. */
  writeDocument(p: StoredPath, content: Uint8Array, etag: string, options: WriteOptions): Promise<WriteResult>;
  /** `change` under the document's commit lock (WebDavStore.commitLocked); `wait: false`: undefined when the lock is not to be had at once. */
  commitLocked<T>(p: StoredPath, change: () => Promise<T>, wait?: boolean): Promise<T | undefined>;
}

/** The document as a write found it, before it replaces it. */
export interface ReplacedDocument {
  /** The DMS's entity tag of the version (the COPY that keeps it is conditional on it). */
  davEtag: string | undefined;
  etag: string;
  size: number;
  modified: Date;
  /** The write's content begins with these bytes (an appended update): kept by a pointer, not a COPY. */
  prefix?: boolean;
}

/** A version written but not yet committed (WebDavVersions.prepare). */
export interface PendingVersion {
  readonly record: VersionRecord;
  /** The id of the version shown before it (null: none, or all purged; undefined: not known): the document's answer names it (RFC 5829). */
  readonly predecessor: string | null | undefined;
  /** After the document's MOVE: the record becomes a committed one; a purge it carries is done; answers how many versions it purged. */
  commit(): Promise<number | undefined>;
  /** The write did not happen: its record and marker go. */
  abort(): Promise<void>;
}

const notFound = (id: string) => new ServiceError('VERSION_NOT_FOUND', `The document has no version ${JSON.stringify(id)}`);

export class WebDavVersions implements DocumentVersions {
  constructor(private readonly host: VersionHost) {}

  private get client(): DavClient {
    return this.host.client;
  }

  private segments(p: StoredPath): string[] {
    return [...p.parent.segments, VERSIONS_FOLDER, p.name];
  }

  /** The document's versions collection (with its trailing slash). */
  dirUrl(p: StoredPath): string {
    return this.client.url(this.segments(p), true);
  }

  private fileUrl(p: StoredPath, name: string): string {
    return this.client.url([...this.segments(p), name], false);
  }

  private indexUrl(p: StoredPath): string {
    return this.fileUrl(p, INDEX);
  }

  /**
   * The index, read for a write's prepare() under the commit lock, as soon as the lock is held (WebDavStore.moveIntoPlace
   * sends it with its check of the document): null when it cannot be read (prepare then reads the collection).
   */
  readIndexAhead(p: StoredPath): Promise<IndexRead> {
    return this.readIndex(p).catch(() => null);
  }

  /** The index as stored; null when there is none or it cannot be read (the names and records say then). */
  private async readIndex(p: StoredPath): Promise<Index | null> {
    const res = await this.client.send('GET', this.indexUrl(p), this.host.user);
    if (res.statusCode !== 200) {
      await res.body.dump();
      return null;
    }
    try {
      const stored = JSON.parse(await res.body.text()) as StoredIndex;
      if (typeof stored.etag !== 'string' || !Array.isArray(stored.versions) || !stored.versions.every((r) => typeof r?.id === 'string' && ID.test(r.id) && typeof r.etag === 'string')) return null;
      const hexes = (list: unknown) => Array.isArray(list) && list.every((h) => typeof h === 'string' && /^[0-9a-f]{32}$/.test(h));
      const named = hexes(stored.blobs) && Array.isArray(stored.pointers) && stored.pointers.every((pair) => hexes(pair) && pair.length === 2);
      const pointers = new Map<string, string[]>();
      for (const [from, into] of named ? stored.pointers! : []) pointers.set(from, [...(pointers.get(from) ?? []), into]);
      return {
        etag: stored.etag,
        versions: stored.versions.map(versionFromStored),
        names: named ? { blobs: new Set(stored.blobs), pointers } : undefined,
        pending: typeof stored.pending === 'string' && ID.test(stored.pending) ? stored.pending : undefined,
      };
    } catch {
      return null;
    }
  }

  private writeIndex(p: StoredPath, index: Index): Promise<void> {
    const stored: StoredIndex = { etag: index.etag, versions: index.versions.map(versionToStored) };
    if (index.names) {
      stored.blobs = [...index.names.blobs];
      stored.pointers = [...index.names.pointers].flatMap(([from, intos]) => intos.map((into): [string, string] => [from, into]));
    }
    if (index.pending !== undefined && index.versions.at(-1)?.id === index.pending) stored.pending = index.pending;
    return this.put(this.indexUrl(p), JSON.stringify(stored));
  }

  /** The records of `entries` in their order: a valid index's (`known`), else read (RecordMemo); undefined when one is gone. */
  private async recordsOf(p: StoredPath, entries: Entry[], known: Index | null): Promise<VersionRecord[] | undefined> {
    const byId = new Map(known?.versions.map((r) => [r.id, r]));
    const read = await Promise.all(entries.map((e) => byId.get(e.id) ?? this.readNamed(p, e)));
    return read.every((r) => r !== undefined) ? read : undefined;
  }

  private recordName(e: Entry): string {
    return `v-${e.id}-${e.hex}.${e.pending ? 'pending' : 'json'}`;
  }

  /** The collection's names (one PROPFIND); null when there is none. */
  private async collection(p: StoredPath): Promise<Collection | null> {
    const found = await this.client.propfind(this.dirUrl(p), this.host.user, 1);
    if (!found) return null;
    const self = [this.client.rootPath, ...this.segments(p)].join('/');
    const c: Collection = { records: [], purges: [], blobs: new Set(), pointers: new Map() };
    for (const r of found) {
      if (r.path !== `${self}/${r.name}`) continue;
      const record = RECORD.exec(r.name);
      if (record) c.records.push({ id: record[1]!, hex: record[2]!, pending: record[3] === 'pending', dav: versionOf(r) });
      const purge = PURGE.exec(r.name);
      if (purge) c.purges.push(purge[1]!);
      const blob = BLOB.exec(r.name);
      if (blob) c.blobs.add(blob[1]!);
      const pointer = POINTER.exec(r.name);
      if (pointer) c.pointers.set(pointer[1]!, [...(c.pointers.get(pointer[1]!) ?? []), pointer[2]!]);
    }
    // A record both pending and committed (a crash inside a rename that copied): the committed one counts.
    const committed = new Set(c.records.filter((e) => !e.pending).map((e) => e.id));
    c.records = c.records.filter((e) => !e.pending || !committed.has(e.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return c;
  }

  /**
   * A record named by a PROPFIND, read without the lock: a pending one committed since is read under its committed
   * name; undefined when it is gone (removed by a write's tidy or a purge since).
   */
  private async readNamed(p: StoredPath, e: Entry): Promise<VersionRecord | undefined> {
    // A committed record at the version the PROPFIND named: read before, unless it changed since (RecordMemo).
    // A pending record too (the newest stays pending until the next write): its name and version say its body.
    const memo = e.dav !== undefined ? { url: this.fileUrl(p, this.recordName(e)), dav: e.dav } : undefined;
    const known = memo && this.host.records.get(memo.url, memo.dav);
    if (known) return known;
    for (const name of e.pending ? [this.recordName(e), this.recordName({ ...e, pending: false })] : [this.recordName(e)]) {
      const res = await this.client.send('GET', this.fileUrl(p, name), this.host.user);
      if (res.statusCode === 404) {
        await res.body.dump();
        continue;
      }
      if (res.statusCode !== 200) throw await unexpected('GET', res);
      const record = versionFromStored(JSON.parse(await res.body.text()) as StoredVersionRecord);
      // The body is as new as the PROPFIND's version or newer: kept under that version, it is read again once that
      // changes (a pending record read under its committed name: the body is the one it had).
      if (memo) this.host.records.set(memo.url, memo.dav, record);
      return record;
    }
    return undefined;
  }

  private async read(p: StoredPath, e: Entry): Promise<VersionRecord> {
    const record = await this.readNamed(p, e);
    if (!record) throw notFound(e.id);
    return record;
  }

  private async put(url: string, body: string, headers: Record<string, string> = {}): Promise<void> {
    const res = await this.client.send('PUT', url, this.host.user, { headers: { 'content-type': 'application/json', ...headers }, body });
    await res.body.dump();
    if (res.statusCode !== 201 && res.statusCode !== 204 && res.statusCode !== 200) throw await unexpected('PUT', res);
  }

  private async writeRecord(p: StoredPath, e: Entry, record: VersionRecord): Promise<void> {
    await this.put(this.fileUrl(p, this.recordName(e)), JSON.stringify(versionToStored(record)));
  }

  /** DELETE; a resource already gone is fine. */
  private async remove1(url: string): Promise<void> {
    const res = await this.client.send('DELETE', url, this.host.user);
    await res.body.dump();
    if (res.statusCode !== 204 && res.statusCode !== 200 && res.statusCode !== 404) throw await unexpected('DELETE', res);
  }

  /** `gone`: a source already gone is fine (a pending record renamed already). */
  private async move(from: string, to: string, gone = false): Promise<void> {
    const res = await this.client.send('MOVE', from, this.host.user, { headers: { destination: to, overwrite: 'T' } });
    await res.body.dump();
    if (res.statusCode === 404 && gone) return;
    if (res.statusCode !== 201 && res.statusCode !== 204) throw await unexpected('MOVE', res);
  }

  /**
   * The document's stat, its versions' names and what is shown of them. The collection is read between two stats of
   * the document, again when a write's MOVE came between them: names read before a write's pending record and a
   * stat from after its MOVE would show no current version (as filesystem-versions.ts visible()). And mod_dav_fs
   * lists a collection by reading its names and then each one's properties: a record renamed in between (pending to
   * committed) is left out of the PROPFIND's answer (the error log's "could not access file ... during directory
   * walk"), and only the document's newest record is ever renamed, so a look that finds the document but not its
   * current version looks again. A document's writes are serialized and each takes a few requests: a few looks find
   * one moment between two (a document written behind the service's back has no current version: it costs the
   * few looks).
   */
  private async look(p: StoredPath): Promise<{ stat: DocumentStat | null; c: Collection | null; v: View }> {
    let stat = await this.host.statDocument(p);
    for (let attempt = 0; ; attempt++) {
      const c = await this.collection(p);
      const again = await this.host.statDocument(p);
      const v = c ? view(c, stat ? hexOf(stat.etag) : null) : { visible: [], current: null };
      if ((again?.etag !== stat?.etag || (stat && c && !v.current)) && attempt < 3) {
        stat = again;
        continue;
      }
      return { stat, c, v };
    }
  }

  /**
   * Without the lock: a record the look named may be removed before it is read (a write's tidy or purge settled it),
   * and then the look is behind that write. A document's writes are serialized and each takes a few requests: a few
   * looks find one moment between two; past them, what is gone is left out.
   */
  async list(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    const [stat, index] = await Promise.all([this.host.statDocument(p), this.readIndex(p)]);
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
    if (index?.etag === stat.etag) return sliceOf(index.versions, stat.etag, slice);
    // Missing or stale: written again under the lock when it can be had at once, else read as without an index.
    const rebuilt = await this.host.commitLocked(p, () => this.reindex(p), false);
    return rebuilt ? sliceOf(rebuilt.versions, rebuilt.etag, slice) : this.listNamed(p, slice);
  }

  /** Under the commit lock: the index from the names and records, written (not by a user who may only read: still answered). */
  private async reindex(p: StoredPath): Promise<Index | undefined> {
    const { stat, c, v } = await this.look(p);
    if (!stat) return undefined;
    const versions = await this.recordsOf(p, v.visible, null);
    if (!versions) return undefined;
    const docHex = hexOf(stat.etag);
    const index: Index = { etag: stat.etag, versions, names: c ? namesFor(c, v.visible, docHex) : undefined, pending: v.visible.find((e) => e.pending)?.id };
    if (c) await this.writeIndex(p, index).catch(() => undefined);
    return index;
  }

  /** The list as the collection's names and the records say (no index). */
  private async listNamed(p: StoredPath, slice: { offset: number; limit: number }): Promise<VersionSlice> {
    for (let attempt = 0; ; attempt++) {
      const { stat, v } = await this.look(p);
      if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
      const newestFirst = [...v.visible].reverse();
      const entries = newestFirst.slice(slice.offset, slice.offset + slice.limit);
      const read = await Promise.all(entries.map((e) => this.readNamed(p, e)));
      const gone = new Set(entries.filter((_, i) => read[i] === undefined).map((e) => e.id));
      if (gone.size > 0 && attempt < 3) continue;
      const versions = read.filter((r): r is VersionRecord => r !== undefined);
      const current = v.current && !gone.has(v.current.id) ? v.current.id : null;
      return { versions, total: newestFirst.length - gone.size, current };
    }
  }

  private async find(p: StoredPath, id: string): Promise<{ entry: Entry; stat: DocumentStat | null; c: Collection; v: View }> {
    if (!ID.test(id)) throw notFound(id);
    const { stat, c, v } = await this.look(p);
    const entry = v.visible.find((e) => e.id === id);
    if (!entry || !c) throw notFound(id);
    return { entry, stat, c, v };
  }

  /**
   * A version's record and where its bytes are: from the index alone when it is valid for the document and names the
   * blobs and pointers (its GET and the document's stat, sent together), else from the collection's names (find).
   */
  private async located(p: StoredPath, id: string, indexFirst = true): Promise<Located> {
    if (!ID.test(id)) throw notFound(id);
    if (indexFirst) {
      const [stat, index] = await Promise.all([this.host.statDocument(p), this.readIndex(p)]);
      if (stat && index?.etag === stat.etag && index.names) {
        const record = index.versions.find((r) => r.id === id);
        if (!record) throw notFound(id);
        return { record, hex: hexOf(record.etag), stat, c: index.names };
      }
    }
    const { entry, stat, c } = await this.find(p, id);
    return { record: await this.read(p, entry), hex: entry.hex, stat, c };
  }

  async get(p: StoredPath, id: string): Promise<VersionRecord> {
    return (await this.located(p, id)).record;
  }

  /**
   * The bytes of a version: the document itself when it is the version (the current one, through the download cache
   * as any read), else its blob, downloaded as the user and hashed on the way: bytes that are not the version's (a
   * blob changed on the DMS) are never served under its ETag. A version kept as a prefix (its way goes through
   * pointers) is the first bytes of a blob or of the document, read by a Range GET and hashed: the document replaced
   * by a full rewrite meanwhile hashes to another ETag, and the way is looked up again (that rewrite's COPY holds it).
   * The first look is the index's (located), the others the collection's.
   */
  async open(p: StoredPath, id: string, first?: Located): Promise<OpenDocument> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { record, hex, stat, c } = attempt === 0 && first ? first : await this.located(p, id, attempt === 0);
      const as = (opened: OpenDocument): OpenDocument => ({ ...opened, stat: { size: opened.stat.size, modified: record.created, etag: record.etag } });
      if (stat && hexOf(stat.etag) === hex) {
        // Gone meanwhile (a write or delete since the look): the blob may still have the bytes. Other failures are the answer.
        const opened = await this.host.openDocument(p).catch((err: unknown) => {
          if (err instanceof ServiceError && err.code === 'DOCUMENT_NOT_FOUND') return undefined;
          throw err;
        });
        if (opened?.stat.etag === record.etag) return as(opened);
        await opened?.close();
      }
      if (c.blobs.has(hex)) {
        const opened = await this.host.openUrl(this.fileUrl(p, `b-${hex}`), () => notFound(id));
        if (opened.stat.etag === record.etag) return as(opened);
        await opened.close();
        throw notFound(id);
      }
      const way = wayOf(c, hex, stat ? hexOf(stat.etag) : null);
      if (!way || way.holder === hex) continue;
      const from = way.inDocument ? this.client.url(p.segments, false) : this.fileUrl(p, `b-${way.holder}`);
      const opened = await this.host.openStart(from, record.size);
      if (opened?.stat.etag === record.etag) return as(opened);
      await opened?.close();
    }
    throw notFound(id);
  }

  /**
   * Makes version `id` the document's content again as a new version (DocumentVersions.restore; the caller holds the
   * document's lock), with the fewest requests: a version kept whole (its blob) is copied by
   * the DMS onto the write's temporary upload (a server-side COPY: no byte passes through the service), then committed
   * as any write (WebDavStore.writeCopy: If-Match, the replaced bytes kept, the record, the MOVE under the LOCK); one
   * kept as a prefix (the first bytes of a blob or of the document: WebDAV copies no range), or the current content, is
   * read, hashed, and written as an upload. The new version's page count is the kept one's when the provenance has none.
   */
  async restore(p: StoredPath, id: string, options: WriteOptions): Promise<WriteResult> {
    const found = await this.located(p, id);
    const { record, hex, stat, c } = found;
    if (!stat) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at /${p.toString()}`);
    const given = options.provenance ?? UNNAMED_WRITE;
    const restoring: WriteOptions = { ...options, provenance: { ...given, pageCount: given.pageCount ?? record.pageCount } };
    const way = wayOf(c, hex, hexOf(stat.etag));
    // A blob is never changed once made (named by its bytes, made with Overwrite: F); the document may be, meanwhile, so
    // the current content restored is read and written as a prefix is.
    if (way && way.holder === hex && !way.inDocument) {
      const written = await this.host.writeCopy(p, this.fileUrl(p, `b-${hex}`), { etag: record.etag, size: record.size }, restoring);
      if (written) return written;
    }
    // Read (hashed: its tag is the record's) from the look just made, and written with that tag.
    const opened = await this.open(p, id, found);
    try {
      return await this.host.writeDocument(p, await opened.read(), opened.stat.etag, restoring);
    } finally {
      await opened.close();
    }
  }

  /** The look and the index, with the index only when it is valid for the document looked at. */
  private async findIndexed(p: StoredPath, id: string): Promise<{ entry: Entry; stat: DocumentStat | null; c: Collection; v: View; index: Index | null; known: Index | null }> {
    const [found, index] = await Promise.all([this.find(p, id), this.readIndex(p)]);
    return { ...found, index, known: found.stat && index?.etag === found.stat.etag ? index : null };
  }

  async update(p: StoredPath, id: string, change: { label?: string | null | undefined; pinned?: boolean | undefined }): Promise<VersionRecord> {
    const updated = await this.host.commitLocked(p, async () => {
      const { entry, index, known } = await this.findIndexed(p, id);
      const record = known?.versions.find((r) => r.id === id) ?? (await this.read(p, entry));
      const updated: VersionRecord = {
        ...record,
        ...(change.label !== undefined ? { label: change.label } : {}),
        ...(change.pinned !== undefined ? { pinned: change.pinned } : {}),
      };
      // The index goes first: a crash after the record's PUT then leaves none (list() writes it from the records), never
      // one with the old label that would stay valid.
      if (index) await this.remove1(this.indexUrl(p));
      // A PUT over the record: mod_dav_fs writes a temporary file and renames it, so a reader gets the old or the new one.
      await this.writeRecord(p, entry, updated);
      this.host.records.drop(this.fileUrl(p, this.recordName(entry)));
      if (known) await this.writeIndex(p, { ...known, versions: known.versions.map((r) => (r.id === id ? updated : r)) });
      return updated;
    });
    return updated!;
  }

  async remove(p: StoredPath, id: string): Promise<void> {
    await this.host.commitLocked(p, async () => {
      const { c, v, stat, known } = await this.findIndexed(p, id);
      if (v.current?.id === id) throw new ServiceError('VERSION_IS_CURRENT', `Version ${id} is the document's current content: it cannot be deleted`);
      // The index without it first: it never names bytes about to go.
      const kept = v.visible.filter((e) => e.id !== id);
      const docHex = stat ? hexOf(stat.etag) : null;
      // Without the names until the bytes are gone: a crash midway leaves them to the next write's tidy (it reads the
      // collection), never to an index that would let them stay.
      const smaller = known ? { ...known, versions: known.versions.filter((r) => r.id !== id) } : null;
      if (smaller) await this.writeIndex(p, { ...smaller, names: undefined });
      await this.settle(p, c, kept, docHex);
      if (smaller) await this.writeIndex(p, { ...smaller, names: namesFor(c, kept, docHex) });
    });
  }

  async purgeEarlier(p: StoredPath): Promise<number> {
    const purged = await this.host.commitLocked(p, async () => {
      const { c, v, stat } = await this.look(p);
      if (!c) return 0;
      const kept = v.current ? [v.current] : [];
      // The index of what stays first (or none): it never names bytes about to go.
      const versions = stat ? await this.recordsOf(p, kept, null) : undefined;
      const smaller: Index | null = stat && versions ? { etag: stat.etag, versions, pending: v.current?.pending ? v.current.id : undefined } : null;
      // Without the names until the bytes are gone (as remove()).
      if (smaller) await this.writeIndex(p, smaller);
      else await this.remove1(this.indexUrl(p));
      await this.settle(p, c, kept, stat ? hexOf(stat.etag) : null);
      if (smaller) await this.writeIndex(p, { ...smaller, names: namesFor(c, kept, hexOf(stat!.etag)) });
      return v.visible.length - kept.length;
    });
    return purged!;
  }

  /**
   * Leaves exactly `kept` (committed) and the blobs and pointers their ways go through (given the document's ETag
   * digits `docHex`): removes every other record, then every other blob and pointer, then the purge markers, in that
   * order, so that a crash midway leaves no record whose bytes are gone and a marker that still hides what its purge had
   * to remove. The blobs' URLs are forgotten by the download cache.
   */
  private async settle(p: StoredPath, c: Collection, kept: Entry[], docHex: string | null): Promise<void> {
    const keep = new Set(kept.map((e) => e.id));
    for (const e of c.records) if (!keep.has(e.id)) await this.remove1(this.fileUrl(p, this.recordName(e)));
    const named = needed(c, kept, docHex);
    for (const name of bytesNames(c)) {
      if (named.has(name)) continue;
      const url = this.fileUrl(p, name);
      await this.remove1(url);
      await this.host.forget(url);
    }
    for (const id of c.purges) await this.remove1(this.fileUrl(p, `v-${id}.purge`));
  }

  /**
   * Under the document's lock, before a write: pending records shown are committed, and what is not shown (records of
   * writes that did not commit, or whose bytes are gone; what a committed purge marker hides; blobs no record names)
   * goes. Answers the collection as it is afterwards.
   */
  private async tidy(p: StoredPath, c: Collection, docHex: string): Promise<Collection> {
    const { visible } = view(c, docHex);
    for (const e of visible) {
      if (!e.pending) continue;
      await this.move(this.fileUrl(p, this.recordName(e)), this.fileUrl(p, this.recordName({ ...e, pending: false })));
      e.pending = false;
    }
    const named = needed(c, visible, docHex);
    const untidy = c.purges.length > 0 || c.records.length !== visible.length || bytesNames(c).some((name) => !named.has(name));
    if (untidy) await this.settle(p, c, visible, docHex);
    const pointers = new Map([...c.pointers].map(([from, intos]) => [from, intos.filter((into) => named.has(`p-${from}-${into}`))] as const).filter(([, intos]) => intos.length > 0));
    return { records: visible, purges: [], blobs: new Set([...c.blobs].filter((hex) => named.has(`b-${hex}`))), pointers };
  }

  /** The collection, made (and `.pdfservice-versions/` above it) when missing. */
  private async ensureCollection(p: StoredPath): Promise<void> {
    const mkcol = async (url: string) => {
      const res = await this.client.send('MKCOL', url, this.host.user);
      await res.body.dump();
      return res.statusCode;
    };
    let status = await mkcol(this.dirUrl(p));
    if (status === 409) {
      const parent = await mkcol(this.client.url([...p.parent.segments, VERSIONS_FOLDER], true));
      if (parent !== 201 && parent !== 405) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered MKCOL with ${parent}`);
      status = await mkcol(this.dirUrl(p));
    }
    if (status !== 201 && status !== 405) throw new ServiceError('DMS_UNAVAILABLE', `The document server answered MKCOL with ${status}`);
  }

  /**
   * Keeps the bytes of the document as the blob of its ETag by a COPY on the DMS, only while it is still the version
   * the write read (an If header with its DMS tag): 412 then means the blob is there already (equal bytes), or the
   * document changed meanwhile, which is PRECONDITION_FAILED (the write reads it again: WebDavStore.writeDocument).
   */
  private async keepBytes(p: StoredPath, docUrl: string, replaced: ReplacedDocument): Promise<void> {
    const blobUrl = this.fileUrl(p, `b-${hexOf(replaced.etag)}`);
    const res = await this.client.send('COPY', docUrl, this.host.user, { headers: { destination: blobUrl, overwrite: 'F', depth: '0', ...stillAt(docUrl, replaced.davEtag) } });
    await res.body.dump();
    if (res.statusCode === 201 || res.statusCode === 204) return;
    if (res.statusCode === 412) {
      if (await this.client.propfind(blobUrl, this.host.user, 0)) return;
      throw new ServiceError('PRECONDITION_FAILED');
    }
    if (res.statusCode === 404) throw new ServiceError('PRECONDITION_FAILED');
    throw await unexpected('COPY', res);
  }

  /**
   * The first half of a write's version, before the document's MOVE (the caller holds the document's lock). With
   * `replaced` (an overwrite of an existing document): the look is one GET of the index when it is valid for the
   * document replaced and names the blobs and pointers (no PROPFIND, no tidy: it is what the collection shows);
   * else the collection is read (one PROPFIND) and tidied. Then the document's bytes are kept as a blob (one
   * server-side COPY, none when a blob of those bytes is there; an empty pointer for an appended update), and a record
   * "unrecorded" written for it when no record has it as the newest (written while versions were off). Without (a
   * document created): a collection left by a gone document gets a purge marker, so that its versions are never shown
   * as the new document's. Then the pending record, the index, the purge marker when `purge`, and the rename of the
   * replaced version's record when the index says it may still be pending (its write committed: the document is its).
   */
  async prepare(p: StoredPath, docUrl: string, content: { etag: string; size: number }, provenance: WriteProvenance, replaced: ReplacedDocument | null, purge: boolean, ahead?: Promise<IndexRead>): Promise<PendingVersion> {
    const index = replaced ? await (ahead ?? this.readIndexAhead(p)) : null;
    const valid = replaced && index?.etag === replaced.etag ? index : null;
    const indexed = valid?.names ? { ...valid, names: valid.names } : null;
    let c: Collection | null;
    if (indexed) {
      c = collectionOf(indexed);
    } else {
      c = await this.collection(p);
      if (c && replaced) c = await this.tidy(p, c, hexOf(replaced.etag));
      if (!c) await this.ensureCollection(p);
    }
    let newestId = c?.records.at(-1)?.id;
    // What a purge removes: every version shown before the write (the document replaced counted, kept or not).
    const earlier = replaced ? (c?.records.length ?? 0) + (c?.records.at(-1)?.hex === hexOf(replaced.etag) ? 0 : 1) : 0;
    // What is shown after the write, oldest first (the index's versions), and the requests before the MOVE. Those are
    // sent together: each is true, or not shown, until the MOVE (a record names the document's bytes or a blob made
    // before it is shown; the index names the new content's ETag), and the MOVE waits for all of them.
    const shown: VersionRecord[] = [];
    const steps: (() => Promise<unknown>)[] = [];
    // The blobs and pointers after the write (the index names them).
    const names: Names = { blobs: new Set(c?.blobs), pointers: new Map([...(c?.pointers ?? [])].map(([from, intos]) => [from, [...intos]])) };
    const previous = indexed ? c?.records.at(-1) : undefined;
    if (previous?.pending) {
      // The index's newest record, committed by the write that made the document replaced (the index is valid): renamed
      // before this write's MOVE, so a collection never holds two pending records of committed writes.
      const committed = { ...previous, pending: false };
      steps.push(() => this.move(this.fileUrl(p, this.recordName(previous)), this.fileUrl(p, this.recordName(committed)), true));
    }
    // Purged right after the write: what it would keep of the document replaced is not kept.
    if (replaced && !purge) {
      const hex = hexOf(replaced.etag);
      // Kept already (a blob, or pointers to one): nothing to do. An appended update points at the new content instead
      // of a COPY: the pointer is true whenever it is read, and leads to bytes once the MOVE is done (or to none: unused).
      if (!c || !wayOf(c, hex, null)) {
        if (replaced.prefix === true && content.etag !== replaced.etag) {
          const into = hexOf(content.etag);
          steps.push(() => this.put(this.fileUrl(p, `p-${hex}-${into}`), '', { 'content-type': 'application/octet-stream' }));
          names.pointers.set(hex, [...(names.pointers.get(hex) ?? []), into]);
        } else {
          steps.push(() => this.keepBytes(p, docUrl, replaced));
          names.blobs.add(hex);
        }
      }
      // After the tidy every record is committed and shown; the index valid for the document replaced has them read.
      const records = indexed ? indexed.versions : c ? await this.recordsOf(p, c.records, valid) : [];
      if (records) shown.push(...records);
      if (c?.records.at(-1)?.hex !== hex) {
        const baseline = unrecordedVersion(this.host.nextId(newestId), replaced);
        steps.push(() => this.writeRecord(p, { id: baseline.id, hex, pending: false }, baseline));
        shown.push(baseline);
        newestId = baseline.id;
      }
      if (!records) shown.length = 0;
    }
    const record = newVersionRecord(this.host.nextId(newestId), content, provenance);
    const entry: Entry = { id: record.id, hex: hexOf(content.etag), pending: true };
    const marked = purge || (!replaced && c !== null && (c.records.length > 0 || c.blobs.size > 0));
    const marker = this.fileUrl(p, `v-${record.id}.purge`);
    if (marked) steps.push(() => this.put(marker, ''));
    steps.push(() => this.writeRecord(p, entry, record));
    // A record that could not be read (none under the lock, short of a DMS changed by hand): no index, list() writes one.
    const withIndex = marked || !replaced || shown.length > 0;
    // A purging write's index names no blobs until its purge is done (commit): a crash before leaves what it had to
    // remove to the next write's tidy.
    const after: Index = marked ? { etag: content.etag, versions: [record], pending: record.id } : { etag: content.etag, versions: [...shown, record], names, pending: record.id };
    steps.push(() => (withIndex ? this.writeIndex(p, after) : this.remove1(this.indexUrl(p))));
    const undo = async () => {
      await this.remove1(this.fileUrl(p, this.recordName(entry))).catch(() => undefined);
      if (marked) await this.remove1(marker).catch(() => undefined);
      // The next write then reads the collection and tidies what this one left (a pointer, a blob: true but unused).
      await this.remove1(this.indexUrl(p)).catch(() => undefined);
    };
    const failed = (await Promise.allSettled(steps.map((step) => step()))).find((r) => r.status === 'rejected');
    if (failed) {
      await undo();
      throw failed.reason;
    }
    return {
      record,
      predecessor: purge ? null : replaced && shown.length === 0 ? undefined : (shown.at(-1)?.id ?? null),
      commit: async () => {
        // After the document's MOVE the write is committed: its record stays named `.pending` (view() shows it, the
        // index names it), and the next write renames it with its own requests. Only a purge has work left here; nothing
        // may fail the write: what is not done, view() shows right and the next write settles.
        if (!marked) return undefined;
        try {
          const now = await this.collection(p);
          if (!now) return 0;
          const kept = view(now, entry.hex).visible.filter((e) => e.id === record.id);
          await this.settle(p, now, kept, entry.hex);
          if (withIndex && kept.length === 1) await this.writeIndex(p, { ...after, names: namesFor(now, kept, entry.hex) });
          return earlier;
        } catch {
          return purge ? undefined : 0;
        }
      },
      abort: undo,
    };
  }

  /**
   * After a crash (WebDavStore.recover, as the user, in every folder they may list): the versions of documents that
   * are gone go, and every other document's collection is tidied as its next write would.
   */
  async recoverFolder(folder: StoredPath): Promise<void> {
    const found = await this.client.propfind(this.client.url([...folder.segments, VERSIONS_FOLDER], true), this.host.user, 1);
    const self = [this.client.rootPath, ...folder.segments, VERSIONS_FOLDER].join('/');
    for (const r of found ?? []) {
      if (r.path !== `${self}/${r.name}` || !r.collection || !/\.pdf$/i.test(r.name)) continue;
      const p = StoredPath.fromValidSegments([...folder.segments, r.name]);
      const [stat, c] = await Promise.all([this.host.statDocument(p), this.collection(p)]);
      if (!stat) await this.removeAll(p);
      else if (c) await this.tidy(p, c, hexOf(stat.etag));
    }
  }

  /**
   * The documents that have versions, as this store's user sees them: every folder the user may list is walked (one
   * PROPFIND each) for its hidden versions collection. The retention sweep's walk, as each of its DMS accounts
   * (sweep.ts).
   */
  async *documents(): AsyncIterable<StoredPath> {
    for await (const { folder, name } of hiddenCollections(this.client, this.host.user, VERSIONS_FOLDER, (n) => /\.pdf$/i.test(n))) {
      yield StoredPath.fromValidSegments([...folder, name]);
    }
  }

  /** Deleting a document deletes its versions (before the document: a crash between leaves a document without versions). */
  async removeAll(p: StoredPath): Promise<void> {
    const url = this.dirUrl(p);
    await this.remove1(url);
    await this.host.forget(url);
  }
}
