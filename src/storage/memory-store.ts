import { Readable } from 'node:stream';
import { ServiceError } from '../errors.js';
import { KeyedLock } from './keyed-lock.js';
import type { StoredPath } from './paths.js';
import { etagOf, matchesEtag, withRandomSuffix, writeRecord } from './store.js';
import type { DocumentStat, DocumentStore, FolderEntry, OpenContent, OpenDocument, Release, StagedUpload, WriteOptions, WriteResult } from './store.js';

/** One version of a document: never changed after it is stored, only replaced. */
interface Version {
  readonly bytes: Buffer;
  readonly stat: DocumentStat;
}

/**
 * What a MemoryStore keeps, apart from the store object: two stores on one
 * volume are the service before and after a restart (the contract tests'
 * `reopen`). Keys are StoredPath strings; the root folder is "".
 */
export class MemoryVolume {
  readonly documents = new Map<string, Version>();
  readonly folders = new Map<string, Date>([['', new Date()]]);
  readonly staged = new Set<MemoryStagedUpload>();
}

/** A copy the caller owns (whole ArrayBuffer, so the engine may take it), never the stored buffer itself. */
function ownCopy(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafeSlow(bytes.length);
  out.set(bytes);
  return out;
}

function contentOf(bytes: Buffer): OpenContent {
  return { size: bytes.length, fd: undefined, read: async () => ownCopy(bytes), close: async () => {} };
}

class MemoryStagedUpload implements StagedUpload {
  constructor(
    readonly volume: MemoryVolume,
    readonly bytes: Buffer,
    readonly etag: string,
  ) {}
  get size(): number {
    return this.bytes.length;
  }
  async read(): Promise<Buffer> {
    return ownCopy(this.bytes);
  }
  async open(): Promise<OpenContent> {
    return contentOf(this.bytes);
  }
  async discard(): Promise<void> {
    this.volume.staged.delete(this);
  }
}

/**
 * A DocumentStore in memory, for tests and as the smallest example of the
 * interface: it passes the same contract suite (test/helpers/store-contract.ts)
 * as the filesystem store. Every change happens in one synchronous step after
 * the last await, which is what makes it atomic here.
 */
export class MemoryStore implements DocumentStore {
  private readonly locks = new KeyedLock();

  constructor(private readonly volume = new MemoryVolume()) {}

  async statDocument(p: StoredPath): Promise<DocumentStat | null> {
    return this.volume.documents.get(p.toString())?.stat ?? null;
  }

  async openDocument(p: StoredPath): Promise<OpenDocument> {
    const version = this.volume.documents.get(p.toString());
    if (!version) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    const { bytes, stat } = version;
    return {
      ...contentOf(bytes),
      stat,
      stream: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
    };
  }

  /** Creates the folder and its parents, as the filesystem store's mkdir does. */
  private ensureFolder(p: StoredPath): boolean {
    if (this.volume.folders.has(p.toString())) return false;
    this.ensureFolder(p.parent);
    this.volume.folders.set(p.toString(), new Date());
    this.touch(p.parent);
    return true;
  }

  /** A folder's modified time changes when an entry is added or removed, as a directory's does. */
  private touch(folder: StoredPath): void {
    if (this.volume.folders.has(folder.toString())) this.volume.folders.set(folder.toString(), new Date());
  }

  private checkPrecondition(key: string, ifMatch: string | undefined): boolean {
    const current = this.volume.documents.get(key);
    if (ifMatch !== undefined && !matchesEtag(ifMatch, current?.stat.etag)) throw new ServiceError('PRECONDITION_FAILED');
    return current !== undefined;
  }

  async writeDocument(p: StoredPath, content: Buffer | Uint8Array | StagedUpload, options: WriteOptions): Promise<WriteResult> {
    if (!p.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    let bytes: Buffer;
    let etag: string;
    if (content instanceof MemoryStagedUpload && content.volume === this.volume) {
      ({ bytes, etag } = content);
      this.volume.staged.delete(content);
    } else if (content instanceof Uint8Array) {
      bytes = ownCopy(content);
      etag = etagOf(bytes);
    } else {
      throw new TypeError('Staged uploads must come from this store');
    }
    let target = p;
    const existed = this.checkPrecondition(target.toString(), options.ifMatch);
    const replaced = options.conflict === 'overwrite' ? (this.volume.documents.get(target.toString())?.stat.etag ?? null) : null;
    if (options.conflict !== 'overwrite') {
      for (let attempt = 0; this.volume.documents.has(target.toString()); attempt++) {
        if (options.conflict === 'fail' || attempt >= 20) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
        target = withRandomSuffix(p);
      }
    }
    const stat: DocumentStat = { size: bytes.length, modified: new Date(), etag };
    this.ensureFolder(p.parent);
    this.volume.documents.set(target.toString(), { bytes, stat });
    this.touch(p.parent);
    return { path: target, created: options.conflict === 'overwrite' ? !existed : true, stat, record: writeRecord(options, replaced) };
  }

  async deleteDocument(p: StoredPath, ifMatch?: string): Promise<void> {
    if (!this.checkPrecondition(p.toString(), ifMatch)) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${p.toString()}`);
    this.volume.documents.delete(p.toString());
    this.touch(p.parent);
  }

  async moveDocument(from: StoredPath, to: StoredPath, options: WriteOptions): Promise<WriteResult> {
    if (!to.isDocument) throw new ServiceError('INVALID_PATH', 'A document path must end in ".pdf"');
    if (from.equals(to)) throw new ServiceError('MOVE_INTO_ITSELF', 'The document is already at this path');
    if (!this.checkPrecondition(from.toString(), options.ifMatch)) throw new ServiceError('DOCUMENT_NOT_FOUND', `No document at ${from.toString()}`);
    if (this.volume.folders.has(to.toString())) throw new ServiceError('PATH_CONFLICT', 'A folder exists at this path');
    let target = to;
    for (let attempt = 0; options.conflict !== 'overwrite' && this.volume.documents.has(target.toString()); attempt++) {
      if (options.conflict === 'fail' || attempt >= 20) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
      target = withRandomSuffix(to);
    }
    const version = this.volume.documents.get(from.toString())!;
    const replaced = this.volume.documents.get(target.toString())?.stat.etag ?? null;
    this.ensureFolder(target.parent);
    this.volume.documents.delete(from.toString());
    this.volume.documents.set(target.toString(), version);
    this.touch(from.parent);
    this.touch(target.parent);
    return { path: target, created: replaced === null, stat: version.stat, record: writeRecord(options, replaced) };
  }

  async moveFolder(from: StoredPath, to: StoredPath): Promise<void> {
    if (from.isRoot || to.isWithin(from)) throw new ServiceError('MOVE_INTO_ITSELF', 'A folder cannot be moved into itself');
    if (!this.volume.folders.has(from.toString())) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${from.toString()}`);
    if (this.volume.folders.has(to.toString())) throw new ServiceError('ALREADY_EXISTS', `A folder exists at /${to.toString()}`);
    if (this.volume.documents.has(to.toString())) throw new ServiceError('PATH_CONFLICT', 'A document exists at this path');
    this.ensureFolder(to.parent);
    const below = `${from.toString()}/`;
    const renamed = (key: string) => (key === from.toString() ? to.toString() : `${to.toString()}/${key.slice(below.length)}`);
    for (const map of [this.volume.documents, this.volume.folders] as Map<string, unknown>[]) {
      const moving = [...map.entries()].filter(([key]) => key === from.toString() || key.startsWith(below));
      for (const [key] of moving) map.delete(key);
      for (const [key, value] of moving) map.set(renamed(key), value);
    }
    this.touch(from.parent);
    this.touch(to.parent);
  }

  async stage(source: Readable, limit: number): Promise<StagedUpload> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of source) {
      const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += piece.length;
      if (size > limit) {
        source.destroy();
        throw new ServiceError('PAYLOAD_TOO_LARGE', `The upload is larger than ${limit} bytes`);
      }
      chunks.push(piece);
    }
    const bytes = ownCopy(Buffer.concat(chunks, size));
    const staged = new MemoryStagedUpload(this.volume, bytes, etagOf(bytes));
    this.volume.staged.add(staged);
    return staged;
  }

  async statFolder(p: StoredPath): Promise<{ modified: Date } | null> {
    const modified = this.volume.folders.get(p.toString());
    return modified ? { modified } : null;
  }

  async makeFolder(p: StoredPath): Promise<{ created: boolean }> {
    return { created: this.ensureFolder(p) };
  }

  /** The entries directly inside a folder, sorted by name as the filesystem store sorts them. */
  async listFolder(p: StoredPath): Promise<FolderEntry[]> {
    if (!this.volume.folders.has(p.toString())) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    const entries: FolderEntry[] = [];
    for (const [key, modified] of this.volume.folders) {
      if (key !== '' && this.isChild(p, key)) entries.push({ name: lastSegment(key), type: 'folder', modified });
    }
    for (const [key, { stat }] of this.volume.documents) {
      if (this.isChild(p, key)) entries.push({ name: lastSegment(key), type: 'document', size: stat.size, modified: stat.modified });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private isChild(folder: StoredPath, key: string): boolean {
    const prefix = folder.isRoot ? '' : `${folder.toString()}/`;
    return key.startsWith(prefix) && !key.slice(prefix.length).includes('/');
  }

  async deleteFolder(p: StoredPath, recursive: boolean): Promise<void> {
    if (p.isRoot) throw new ServiceError('INVALID_PATH', 'The root folder cannot be deleted');
    if (!this.volume.folders.has(p.toString())) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${p.toString()}`);
    if (!recursive && (await this.listFolder(p)).length > 0) {
      throw new ServiceError('FOLDER_NOT_EMPTY', 'The folder is not empty; use ?recursive=true');
    }
    const below = `${p.toString()}/`;
    for (const map of [this.volume.documents, this.volume.folders]) {
      for (const key of map.keys()) if (key.startsWith(below)) map.delete(key);
    }
    this.volume.folders.delete(p.toString());
    this.touch(p.parent);
  }

  lock(p: StoredPath): Promise<Release> {
    return this.locks.acquire(p.toString());
  }

  /** What a restart leaves behind in memory: staged uploads nobody committed or discarded. */
  async recover(): Promise<void> {
    this.volume.staged.clear();
  }
}

function lastSegment(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}
