import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { heldContentStream } from '../open-file.js';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { etagOfDigest, etagsOfContent, type OpenContent, type OpenDocument, type StagedUpload } from './store.js';

/**
 * Local files every store uses: uploads are staged in a local folder before
 * they are checked and committed, and a remote store spools what it reads to
 * a local file the engine's workers can read through a descriptor.
 */

/**
 * An open file as OpenContent. Every read is positional (pread), so the
 * descriptor can be handed to the engine's workers while this thread also
 * reads it; the file is never written in place, so it stays one version.
 */
export function openContent(handle: fs.FileHandle, size: number): OpenContent {
  return {
    size,
    fd: handle.fd,
    read: async () => {
      // A buffer of its own (not a slice of Node's pool), so that it can be moved to a worker.
      const out = Buffer.allocUnsafeSlow(size);
      let done = 0;
      while (done < size) {
        const { bytesRead } = await handle.read(out, done, size - done, done);
        if (bytesRead === 0) return out.subarray(0, done);
        done += bytesRead;
      }
      return out;
    },
    close: () => handle.close(),
  };
}

/**
 * An open local file of one version as download content (an OpenDocument without its stat, a blob): openContent, and
 * streams of it, all or a byte range, that close it once over (heldContentStream); or close(). Every store's open
 * document (filesystem, WebDAV and S3 spool files) and blob.
 */
export function openLocalFile(handle: fs.FileHandle, size: number): Omit<OpenDocument, 'stat'> {
  const content = openContent(handle, size);
  return { ...content, stream: (range) => heldContentStream(content, range, content.close) };
}

/**
 * A staged upload is a file in the staging folder, fsynced; or being fsynced (`durable`: the fsync and close that
 * stageToFile started, which its store's write waits for before the rename that commits it).
 */
export class StagedFile implements StagedUpload {
  /** Renamed into place by a store's write: nothing is left to discard. */
  private moved = false;
  constructor(
    readonly file: string,
    readonly size: number,
    readonly etag: string,
    readonly head?: Uint8Array,
    private readonly durable?: Promise<void>,
    /** The whole content, kept from the copy when it is small (STAGED_WHOLE_BYTES): read and opened without the file. */
    private readonly whole?: Uint8Array,
  ) {}
  /** Resolves once the file is on disk (its fsync done), or rejects with the fsync's error. */
  async synced(): Promise<void> {
    await this.durable;
  }
  read(): Promise<Buffer> {
    return this.whole ? Promise.resolve(ownCopy(this.whole)) : fs.readFile(this.file);
  }
  async open(): Promise<OpenContent> {
    if (this.whole) {
      // No descriptor: its readers (the engine, through engineSource) take the bytes, a copy of their own each time, which
      // a task may move to its worker.
      const whole = this.whole;
      return { size: whole.length, fd: undefined, read: () => Promise.resolve(ownCopy(whole)), close: () => Promise.resolve() };
    }
    const handle = await fs.open(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
    return openContent(handle, this.size);
  }
  /** Called by the store whose write renamed the file into place or removed it: its discard then unlinks no name that is gone. */
  movedAway(): void {
    this.moved = true;
  }
  async discard(): Promise<void> {
    await this.durable?.catch(() => undefined); // its descriptor closed first
    if (!this.moved) await removeFile(this.file);
  }
}

/**
 * Removes a file that may be gone already (a staged upload a write renamed into place): one unlink, where
 * fs.rm({ force }) first looks at the path (lstat, then more) in as many trips to the thread pool.
 */
export async function removeFile(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** A new file name in `dir` for staged or spooled content (time first, so a listing is in arrival order). */
export function spoolName(dir: string): string {
  return path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
}

/**
 * What copyToFile gathers before one write: the chunks of a request body (16 to 64 KiB each) went one write each
 * through a WriteStream, a thread-pool trip per chunk; one writev per MiB leaves the copy of a 4 MB upload at about the
 * cost of its hash and fsync (issue 38, upload + DocumentModel). At most two batches are held: one being written, one
 * being gathered.
 */
const WRITE_BATCH_BYTES = 1 << 20;
/** And at most this many chunks (a client's tiny ones): one writev's buffers, IOV_MAX on Linux. */
const WRITE_BATCH_CHUNKS = 1024;

/**
 * The first bytes of staged content kept in memory while it is copied (StagedUpload.head): what a look at the content's
 * type reads (the conversion registry's sniff, 1,024 bytes), without three more trips to the thread pool (open, read,
 * close) per upload.
 */
export const STAGED_HEAD_BYTES = 4096;

/**
 * Staged content up to this size is kept whole in memory while it is copied (it is one batch of copyToFile's, held
 * until written anyway), and read from there: an upload of a small document is checked by the engine without an open
 * and a close of its staged file (two trips to the thread pool on the request's path, issue 38). The file is written
 * and fsynced as before. A few pages of a typical document; larger ones reach the engine as their open file.
 */
export const STAGED_WHOLE_BYTES = 256 * 1024;

/** A copy of `bytes` in a buffer of its own (not a slice of Node's pool), so that it can be moved to a worker. */
function ownCopy(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafeSlow(bytes.length);
  out.set(bytes);
  return out;
}

/**
 * Copies `source` into `file` (which must not exist), hashing it on the way: its size, tag and first
 * STAGED_HEAD_BYTES bytes (and with `keepWhole`, all of them up to STAGED_WHOLE_BYTES). Past `limit` bytes it refuses with 413 PAYLOAD_TOO_LARGE; `sync` makes the copy durable
 * (fsync) before it answers, and `sync: 'started'` only starts the fsync (and the close after it): `durable` settles
 * when it is done. A failed copy leaves no file behind.
 */
export async function copyToFile(file: string, source: AsyncIterable<Uint8Array>, options: { limit?: number; sync: boolean | 'started'; keepWhole?: boolean }): Promise<{ size: number; etag: string; head: Uint8Array; durable?: Promise<void>; whole?: Uint8Array }> {
  const limit = options.limit ?? Infinity;
  const hash = createHash('sha256');
  let size = 0;
  const head = Buffer.allocUnsafe(STAGED_HEAD_BYTES);
  let headBytes = 0;
  // Opened once there is a batch to write, not before the source is read: a source that fails while the file opens
  // would meet no reader yet (an uncaught error), and a body refused in its first chunks then creates no file.
  let handle: fs.FileHandle | undefined;
  const open = async () => (handle ??= await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o640));
  let writing: Promise<void> = Promise.resolve();
  let durable: Promise<void> | undefined;
  // The content whole, when it came in one batch no larger than STAGED_WHOLE_BYTES.
  let whole: Uint8Array | undefined;
  let flushed = false;
  try {
    let batch: Uint8Array[] = [];
    let batched = 0;
    // The source is read while the previous batch is written; a failed write is seen at the next await of `writing`.
    for await (const chunk of source) {
      size += chunk.length;
      if (size > limit) throw new ServiceError('PAYLOAD_TOO_LARGE', `The upload is larger than ${limit} bytes`);
      hash.update(chunk);
      if (headBytes < STAGED_HEAD_BYTES) headBytes += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).copy(head, headBytes);
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= WRITE_BATCH_BYTES || batch.length >= WRITE_BATCH_CHUNKS) {
        const out = await open();
        await writing;
        writing = writeAll(out, batch);
        writing.catch(() => undefined); // awaited later; not an unhandled rejection meanwhile
        flushed = true;
        batch = [];
        batched = 0;
      }
    }
    const out = await open();
    await writing;
    if (options.keepWhole && !flushed && size <= STAGED_WHOLE_BYTES) whole = Buffer.concat(batch, size);
    await writeAll(out, batch);
    if (options.sync === 'started') {
      durable = out.sync().then(
        () => out.close(),
        async (err: unknown) => {
          await out.close().catch(() => undefined);
          throw err;
        },
      );
      durable.catch(() => undefined); // awaited by the write or the discard; not an unhandled rejection meanwhile
    } else {
      if (options.sync) await out.sync();
      await out.close();
    }
  } catch (err) {
    await writing.catch(() => undefined);
    if (handle) {
      await handle.close().catch(() => undefined);
      await removeFile(file);
    }
    throw err;
  }
  return { size, etag: etagOfDigest(hash.digest()), head: head.subarray(0, headBytes), ...(durable ? { durable } : {}), ...(whole ? { whole } : {}) };
}

/** Writes `chunks` at the handle's position, all of them: writev may write less than asked. */
async function writeAll(handle: fs.FileHandle, chunks: Uint8Array[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    const left: Uint8Array[] = [];
    for (const chunk of rest) {
      if (bytesWritten >= chunk.length) bytesWritten -= chunk.length;
      else {
        left.push(bytesWritten > 0 ? chunk.subarray(bytesWritten) : chunk);
        bytesWritten = 0;
      }
    }
    rest = left;
  }
}

/**
 * Stages `source` as a new file in `dir`, durable, refused with 413 past `limit` bytes. `syncLater`: the fsync is
 * started, not waited for, so that it runs while the engine checks the upload; the store's write then waits for it
 * (StagedFile.synced) before its rename (issue 38: one fsync less on an upload's path, the same on disk).
 */
export async function stageToFile(dir: string, source: AsyncIterable<Uint8Array>, limit: number, options: { syncLater?: boolean } = {}): Promise<StagedFile> {
  const file = spoolName(dir);
  const { size, etag, head, durable, whole } = await copyToFile(file, source, { limit, sync: options.syncLater ? 'started' : true, keepWhole: true });
  return new StagedFile(file, size, etag, head, durable, whole);
}

/** A new file (which must not exist) holding `content`, fsynced and closed. */
export async function writeSynced(file: string, content: Uint8Array | string): Promise<void> {
  await writeAndClose(await fs.open(file, 'wx', 0o640), content);
}

/**
 * Writes `content` into a file just opened for it, fsyncs and closes it. The close after a successful fsync is not
 * waited for (the content is on disk: the descriptor has nothing left to flush), one trip to the thread pool less on
 * the path of every write's version record (issue 38); after a failure it is.
 */
export async function writeAndClose(handle: fs.FileHandle, content: Uint8Array | string): Promise<void> {
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  handle.close().catch(() => undefined);
}

/** The ETag of a file's content, or of its first `bytes` bytes. */
export async function etagOfFile(file: string, bytes?: number): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, bytes !== undefined ? { end: bytes - 1 } : {}), hash);
  return etagOfDigest(hash.digest());
}

/**
 * The ETag of a write's first `bytes` bytes (in memory, or a staged file): whether it begins with the version it
 * replaces, when this is that version's ETag (docs/versions.md, "Prefixes").
 */
export async function etagOfStart(content: Uint8Array | { readonly file: string }, bytes: number): Promise<string> {
  return content instanceof Uint8Array ? (await etagsOfContent(content, bytes)).prefix : etagOfFile(content.file, bytes);
}
