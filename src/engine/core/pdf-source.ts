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

/** Size of the blocks in which streamReader reads an open file. */
const READ_BLOCK = 256 * 1024;
/** Blocks streamReader keeps (1 MiB): MuPDF's reads stay near each other, and more blocks saved no read (measured below). */
const READ_BLOCKS = 4;

/**
 * The read step of a stream MuPDF opens `source` through (open.ts, a large document). MuPDF asks for 8 KiB at a time and
 * drops its buffer at every seek (each object it loads), so an edit of the 21 MB bench document of 1,000 pages read it
 * 33 times over in 83,000 positional reads, about a fifth of the task's time (2.1 s against 1.7 s from bytes). An open
 * file is read through the last few blocks read instead: 244 reads of 256 KiB for that edit, and a bounded copy, since
 * the point of streaming is never to hold the whole document. Bytes are read as they are.
 */
export function streamReader(source: PdfSource): (memory: Uint8Array, offset: number, length: number, position: number) => number {
  if (source instanceof Uint8Array) return (memory, offset, length, position) => readAt(source, memory, offset, length, position);
  // By index, least recently used first.
  const blocks = new Map<number, Uint8Array>();
  const block = (index: number): Uint8Array => {
    const kept = blocks.get(index);
    if (kept) {
      blocks.delete(index);
      blocks.set(index, kept);
      return kept;
    }
    const start = index * READ_BLOCK;
    const data = new Uint8Array(Math.max(0, Math.min(READ_BLOCK, source.size - start)));
    let done = 0;
    for (let n = -1; done < data.length && n !== 0; done += n) n = readAt(source, data, done, data.length - done, start + done);
    const read = data.subarray(0, done);
    blocks.set(index, read);
    if (blocks.size > READ_BLOCKS) blocks.delete(blocks.keys().next().value!);
    return read;
  };
  return (memory, offset, length, position) => {
    let done = 0;
    while (done < length) {
      const at = position + done;
      const data = block(Math.floor(at / READ_BLOCK));
      const from = at % READ_BLOCK;
      // The end of the file (or of what could be read of it).
      if (from >= data.length) break;
      const n = Math.min(length - done, data.length - from);
      memory.set(data.subarray(from, from + n), offset + done);
      done += n;
    }
    return done;
  };
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

