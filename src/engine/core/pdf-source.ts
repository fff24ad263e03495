import { readSync } from 'node:fs';
import type { OpenFile } from '../../open-file.js';
import { EngineError } from '../errors.js';

/**
 * How an engine task receives its document (or a large request body staged on disk). Large stored documents come as
 * their file, held open by the main thread for the length of the task: a
 * descriptor belongs to the process, so a worker reads the same open file,
 * and no thread holds a copy of the whole document. Everything else comes as
 * bytes. `openPdf` (core/open.ts) is the one reader of both. OpenFile is shared (src/open-file.ts): tools take the same.
 */
export type PdfSource = Uint8Array | OpenFile;

/**
 * Where a task writes a large output instead of answering its bytes: a file the main thread holds open (operations:
 * ScratchFile), written from MuPDF's memory at positions, so no copy of the output is made in the worker or sent to
 * the main thread. The task answers the size written; the file is then read as an OpenFile.
 */
export interface OutputFile {
  fd: number;
}

export function sourceSize(source: PdfSource): number {
  return source instanceof Uint8Array ? source.length : source.size;
}

/** Reads `length` bytes at `position` of the source into `memory` at `offset`; answers how many were read (0 at the end). */
export function readAt(source: PdfSource, memory: Uint8Array, offset: number, length: number, position: number): number {
  const n = Math.max(0, Math.min(length, sourceSize(source) - position));
  if (n === 0) return 0;
  if (source instanceof Uint8Array) {
    memory.set(source.subarray(position, position + n), offset);
    return n;
  }
  // Positional reads straight into MuPDF's memory: no intermediate copy, and no shared file offset with other readers of the descriptor.
  return readSync(source.fd, memory, offset, n, position);
}

/** The first `length` bytes (fewer when the document is shorter). */
export function readHead(source: PdfSource, length: number): Uint8Array {
  if (source instanceof Uint8Array) return source.subarray(0, Math.min(length, source.length));
  return readRange(source, 0, length);
}

/** `length` bytes from `start` (fewer past the end), as a new array for an open file. */
function readRange(source: PdfSource, start: number, length: number): Uint8Array {
  if (source instanceof Uint8Array) return source.subarray(start, Math.min(source.length, start + length));
  const out = new Uint8Array(Math.max(0, Math.min(length, source.size - start)));
  let done = 0;
  while (done < out.length) {
    const n = readAt(source, out, done, out.length - done, start + done);
    if (n === 0) throw new EngineError('MALFORMED_PDF', 'The file ended before its expected size');
    done += n;
  }
  return out;
}

/** The whole document as bytes: for the few tasks that work on the file's bytes themselves (signature byte ranges). */
export function readAll(source: PdfSource): Uint8Array {
  return readRange(source, 0, sourceSize(source));
}

