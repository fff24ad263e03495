import type { Readable } from 'node:stream';
import { documentBytes } from '../metrics.js';
import type { StoredPath } from './paths.js';
import type { DocumentStore, DocumentStores, OpenDocument, StagedUpload, StoreUser, WriteOptions, WriteResult } from './store.js';

/**
 * Counts the bytes of documents read from and written to any store, for the
 * metrics: one place whatever the backend. A write counts the stored size. A
 * read counts what the opening handed out: the bytes of read() calls, a
 * download's range, or, when the engine was given the open file to read by
 * descriptor, the whole document once.
 */
export class MeteredStore implements DocumentStore {
  constructor(private readonly inner: DocumentStore) {}

  /** The inner store's versions as they are (a version read is not a document read in the metrics). */
  get versions() {
    return this.inner.versions;
  }

  get trash() {
    return this.inner.trash;
  }

  async writeDocument(path: StoredPath, content: Buffer | Uint8Array | StagedUpload, options: WriteOptions): Promise<WriteResult> {
    const result = await this.inner.writeDocument(path, content, options);
    documentBytes.written.inc(result.stat.size);
    return result;
  }

  async openDocument(path: StoredPath): Promise<OpenDocument> {
    const opened = await this.inner.openDocument(path);
    let readBytes = 0;
    let byDescriptor = false;
    const settle = () => documentBytes.read.inc(Math.max(readBytes, byDescriptor ? opened.size : 0));
    return {
      stat: opened.stat,
      size: opened.size,
      get fd() {
        byDescriptor ||= opened.fd !== undefined;
        return opened.fd;
      },
      read: async () => {
        const bytes = await opened.read();
        readBytes += bytes.length;
        return bytes;
      },
      stream: (range?: { start: number; end: number }): Readable => {
        documentBytes.read.inc(range ? range.end - range.start + 1 : opened.size);
        return opened.stream(range);
      },
      close: async () => {
        settle();
        await opened.close();
      },
    };
  }

  statDocument(path: StoredPath) {
    return this.inner.statDocument(path);
  }
  deleteDocument(path: StoredPath, ifMatch?: string, by?: string | null) {
    return this.inner.deleteDocument(path, ifMatch, by);
  }
  stage(source: Readable, limit: number) {
    return this.inner.stage(source, limit);
  }
  statFolder(path: StoredPath) {
    return this.inner.statFolder(path);
  }
  makeFolder(path: StoredPath) {
    return this.inner.makeFolder(path);
  }
  listFolder(path: StoredPath) {
    return this.inner.listFolder(path);
  }
  deleteFolder(path: StoredPath, recursive: boolean, by?: string | null) {
    return this.inner.deleteFolder(path, recursive, by);
  }
  /** The inner store's moves, when it has them (a move reads and writes no bytes here: not metered). */
  get moveDocument() {
    return this.inner.moveDocument?.bind(this.inner);
  }
  get moveFolder() {
    return this.inner.moveFolder?.bind(this.inner);
  }
  lock(path: StoredPath) {
    return this.inner.lock(path);
  }
  recover() {
    return this.inner.recover();
  }
}

/**
 * Meters every store a provider answers, each wrapped once. A provider that
 * makes a store per user (or per call) would otherwise get a new wrapper at
 * every call; the wrappers are kept in a WeakMap keyed by the store they wrap,
 * so a store the provider keeps (a shared one, a cached per-user one) gets
 * the same wrapper every time, and a wrapper goes with its store when the
 * provider drops it: nothing is kept per request or per user here. A
 * MeteredStore holds nothing but its inner store (the counters are the
 * process's), so it costs no more than the store it wraps.
 */
export function meteredStores(stores: DocumentStores): DocumentStores {
  const wrapped = new WeakMap<DocumentStore, MeteredStore>();
  return {
    for(user: StoreUser | null): DocumentStore {
      const store = stores.for(user);
      let metered = wrapped.get(store);
      if (!metered) {
        metered = new MeteredStore(store);
        wrapped.set(store, metered);
      }
      return metered;
    },
  };
}
