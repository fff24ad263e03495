import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { heldContentStream } from '../open-file.js';
import { errno, stateFolder, syncFolder } from '../state-file.js';
import { copyToFile, openLocalFile, StagedFile } from './local-files.js';
import { etagOfDigest, type OpenDocument, type StagedUpload } from './store.js';

/**
 * Files the service keeps for itself under a name, beside the documents but never one of them (a job's result file:
 * operations/jobs/result-files.ts). Each is written whole or not at all, and read as one version.
 */
export interface BlobStore {
  /** Keeps `content` under `name` (replacing what was there), streamed from a staged file; answers its size and strong tag. */
  put(name: string, content: Uint8Array | StagedUpload): Promise<{ size: number; etag: string }>;
  /** The content held open (closed by close() or by the end of a stream), or null when there is none. */
  open(name: string): Promise<OpenBlob | null>;
  /** Removes it; nothing happens when there is none. */
  delete(name: string): Promise<void>;
}

/** A kept file held open: its bytes, a download stream of them (a range, or all), no time or tag of its own. */
export type OpenBlob = Omit<OpenDocument, 'stat'>;

/** A name a blob store accepts: one safe file name (the callers' are job ids). */
const BLOB_NAME = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

export function checkBlobName(name: string): void {
  if (!BLOB_NAME.test(name)) throw new Error(`Not a blob name: ${JSON.stringify(name.slice(0, 200))}`);
}

/**
 * The content as a stream read from its file (a staged file, or another staged upload's open descriptor), never
 * read whole; a Uint8Array as it is. `done` closes what was opened for it.
 */
export async function contentStream(content: Uint8Array | StagedUpload): Promise<{ stream: Readable; done: () => Promise<void> }> {
  if (content instanceof Uint8Array) return { stream: Readable.from([content]), done: async () => {} };
  if (content instanceof StagedFile) return { stream: createReadStream(content.file), done: async () => {} };
  const opened = await content.open();
  return { stream: heldContentStream(opened), done: () => opened.close() };
}

/**
 * Blobs in memory (tests; a single process that keeps nothing across restarts). A put streams the content in as the
 * folder's does (contentStream: a staged file is read as a stream, not whole by read()), taking its size and tag on the
 * way, and keeps one copy.
 */
export class MemoryBlobs implements BlobStore {
  private readonly blobs = new Map<string, Buffer>();

  async put(name: string, content: Uint8Array | StagedUpload): Promise<{ size: number; etag: string }> {
    checkBlobName(name);
    const { stream, done } = await contentStream(content);
    const hash = createHash('sha256');
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of stream as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        chunks.push(chunk);
      }
    } finally {
      await done();
    }
    const bytes = Buffer.concat(chunks);
    this.blobs.set(name, bytes);
    return { size: bytes.length, etag: etagOfDigest(hash.digest()) };
  }

  open(name: string): Promise<OpenBlob | null> {
    checkBlobName(name);
    const bytes = this.blobs.get(name);
    if (!bytes) return Promise.resolve(null);
    const content = { size: bytes.length, fd: undefined, read: () => Promise.resolve(Buffer.from(bytes)) };
    return Promise.resolve({ ...content, stream: (range) => heldContentStream(content, range), close: () => Promise.resolve() });
  }

  delete(name: string): Promise<void> {
    checkBlobName(name);
    this.blobs.delete(name);
    return Promise.resolve();
  }
}

/**
 * Blobs as files of one folder (the embedded service: `<dataDir>/state/job-results/`, beside the job records). A put
 * streams into a temporary file of the folder (a leading dot: never a blob's name), fsyncs it, renames it over the
 * name and fsyncs the folder, so a crash leaves the old file or the new one; a failed put leaves no file.
 */
export class DirectoryBlobs implements BlobStore {
  private readonly ready: () => Promise<void>;

  constructor(readonly dir: string) {
    this.ready = stateFolder(dir);
  }

  async put(name: string, content: Uint8Array | StagedUpload): Promise<{ size: number; etag: string }> {
    checkBlobName(name);
    await this.ready();
    const temp = path.join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    const { stream, done } = await contentStream(content);
    let copied: { size: number; etag: string };
    try {
      const { size, etag } = await copyToFile(temp, stream, { sync: true });
      copied = { size, etag };
    } finally {
      await done();
    }
    try {
      await fs.rename(temp, path.join(this.dir, name));
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    await syncFolder(this.dir);
    return copied;
  }

  async open(name: string): Promise<OpenBlob | null> {
    checkBlobName(name);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(this.dir, name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (err) {
      if (errno(err) === 'ENOENT') return null;
      throw err;
    }
    try {
      return openLocalFile(handle, (await handle.stat()).size);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async delete(name: string): Promise<void> {
    checkBlobName(name);
    try {
      await fs.unlink(path.join(this.dir, name));
    } catch (err) {
      if (errno(err) === 'ENOENT') return;
      throw err;
    }
    await syncFolder(this.dir);
  }

  /**
   * Removes temporary files a crash left (a put that never renamed) older than `olderThanMs`: younger ones may be
   * another instance's put in progress on a shared data folder.
   */
  async removeStale(olderThanMs = 3_600_000): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (err) {
      if (errno(err) === 'ENOENT') return;
      throw err;
    }
    for (const name of names.filter((n) => n.startsWith('.') && n.endsWith('.tmp'))) {
      const file = path.join(this.dir, name);
      const stat = await fs.lstat(file).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > olderThanMs) await fs.rm(file, { force: true });
    }
  }

  /** The names kept now (tests, and a sweep of files whose record is gone). */
  async names(): Promise<string[]> {
    try {
      return (await fs.readdir(this.dir)).filter((n) => BLOB_NAME.test(n));
    } catch (err) {
      if (errno(err) === 'ENOENT') return [];
      throw err;
    }
  }
}
