import { createReadStream, read } from 'node:fs';
import { finished, Readable } from 'node:stream';

/**
 * A file held open by its owner (the main thread: a stored document's descriptor, a staged body, a scratch file an
 * engine task wrote), handed to engine tasks (PdfSource) and programs' inputs (tools' writeInput) so that no thread
 * holds a copy of it. A descriptor belongs to the process: a worker reads the same open file.
 */
export interface OpenFile {
  /** Read with positional reads only: others may be reading the same descriptor. Never closed by its readers. */
  fd: number;
  size: number;
}

/** Bytes `start` to `end` of some content, both included (HTTP's Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The content of a file held open by the caller, from its start to `size` or the bytes of `range`, as a stream of
 * positional reads (`start`, `end`: pread): the descriptor's own offset, which engine workers and other readers share,
 * is left alone, and the descriptor is not closed (its owner closes it). The one such reader for a stored document's
 * descriptor, a scratch file and a program's input (ScratchFile.stream, tools' writeInput, heldContentStream). A
 * ReadStream destroyed early (a client gone mid-download) closes its descriptor even with autoClose false, and the
 * owner's own close then failed with EBADF, or would close a number reused meanwhile: its close is a no-op here.
 */
export function openFileStream(file: OpenFile, range?: ByteRange): Readable {
  if (file.size === 0) return Readable.from([]);
  return createReadStream('', {
    fd: file.fd,
    start: range?.start ?? 0,
    end: range?.end ?? file.size - 1,
    autoClose: false,
    fs: { read, close: (_fd: number, done: (err: null) => void) => done(null) },
  });
}

/** Content held open (storage's OpenContent): a local file's descriptor when there is one, else only its bytes. */
export interface HeldContent {
  readonly size: number;
  readonly fd: number | undefined;
  read(): Promise<Buffer>;
}

/**
 * Content held open, streamed out: all of it or the bytes of `range`, from its descriptor (openFileStream) or, without
 * one, its bytes read when the stream is first read. `done` (closing what holds it, discarding a staged file) runs
 * once the stream is over: ended, failed, or destroyed early (a client gone). An fd stream that ends emits no 'close'
 * (autoClose false), so this waits for `finished`, not 'close'. The one way held content is sent (a download of a
 * stored document or a job's result file, an action's file answer, a one-shot's result) or copied (blobs' put).
 */
export function heldContentStream(content: HeldContent, range?: ByteRange, done?: () => Promise<void>): Readable {
  const stream =
    content.fd !== undefined
      ? openFileStream({ fd: content.fd, size: content.size }, range)
      : Readable.from(
          (async function* () {
            const bytes = await content.read();
            yield range ? bytes.subarray(range.start, range.end + 1) : bytes;
          })(),
        );
  if (done) finished(stream, () => void done().catch(() => undefined));
  return stream;
}
