import { createHash, randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../errors.js';
import { heldContentStream } from '../open-file.js';
import { etagOfDigest, type OpenContent, type OpenDocument, type StagedUpload } from './store.js';

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

/** A staged upload is a file in the staging folder, already fsynced. */
export class StagedFile implements StagedUpload {
  constructor(
    readonly file: string,
    readonly size: number,
    readonly etag: string,
  ) {}
  read(): Promise<Buffer> {
    return fs.readFile(this.file);
  }
  async open(): Promise<OpenContent> {
    const handle = await fs.open(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
    return openContent(handle, this.size);
  }
  async discard(): Promise<void> {
    await removeFile(this.file);
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
 * Copies `source` into `file` (which must not exist), hashing it on the way:
 * its size and tag. Past `limit` bytes it refuses with 413
 * PAYLOAD_TOO_LARGE; `sync` makes the copy durable before it answers. A
 * failed copy leaves no file behind.
 */
export async function copyToFile(file: string, source: Readable, options: { limit?: number; sync: boolean }): Promise<{ size: number; etag: string }> {
  const limit = options.limit ?? Infinity;
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) {
        done(new ServiceError('PAYLOAD_TOO_LARGE', `The upload is larger than ${limit} bytes`));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // `flush`: the stream fsyncs its own descriptor before it closes it, where a second open, fsync and close took three
  // more trips to the thread pool for every upload.
  const out = createWriteStream(file, { flags: 'wx', mode: 0o640, flush: options.sync });
  try {
    await pipeline(source, meter, out);
    // The fsync comes with the close: the copy is durable once the stream has closed.
    if (!out.closed) await new Promise<void>((resolve, reject) => out.once('close', () => resolve()).once('error', reject));
  } catch (err) {
    // The stream opens its file asynchronously: a body refused in its first
    // chunks rejects before the file exists, and the open would then create it
    // after the removal (a staged file was left behind now and then).
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve())); // not events.once: it rejects on the stream's 'error'
    await fs.rm(file, { force: true });
    throw err;
  }
  return { size, etag: etagOfDigest(hash.digest()) };
}

/** Stages `source` as a new file in `dir`, durable, refused with 413 past `limit` bytes. */
export async function stageToFile(dir: string, source: Readable, limit: number): Promise<StagedFile> {
  const file = spoolName(dir);
  const { size, etag } = await copyToFile(file, source, { limit, sync: true });
  return new StagedFile(file, size, etag);
}
