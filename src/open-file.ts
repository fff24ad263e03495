import { createReadStream, read } from 'node:fs';
import { Readable } from 'node:stream';

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

/**
 * The content of a file held open by the caller, from its start to `size`, as a stream of positional reads (`start`,
 * `end`: pread): the descriptor's own offset, which engine workers and other readers share, is left alone, and the
 * descriptor is not closed (its owner closes it). The one such reader for a stored document's descriptor, a scratch file
 * and a program's input (ScratchFile.stream, tools' writeInput, a one-shot's answer). A ReadStream destroyed early (a
 * client gone mid-download) closes its descriptor even with autoClose false, and the owner's own close then failed with
 * EBADF, or would close a number reused meanwhile: its close is a no-op here.
 */
export function openFileStream(file: OpenFile): Readable {
  if (file.size === 0) return Readable.from([]);
  return createReadStream('', { fd: file.fd, start: 0, end: file.size - 1, autoClose: false, fs: { read, close: (_fd: number, done: (err: null) => void) => done(null) } });
}
