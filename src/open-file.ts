import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * The content of a file held open by the caller, from its start to `size`, as a stream of positional reads (`start`,
 * `end`: pread): the descriptor's own offset, which engine workers and other readers share, is left alone, and the
 * descriptor is not closed (its owner closes it). The one such reader for a stored document's descriptor, a scratch file
 * and a program's input (ScratchFile.stream, tools' writeInput).
 */
export function openFileStream(file: { fd: number; size: number }): Readable {
  if (file.size === 0) return Readable.from([]);
  return createReadStream('', { fd: file.fd, start: 0, end: file.size - 1, autoClose: false });
}
