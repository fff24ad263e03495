import { createWriteStream, ftruncate, write } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { openFileStream, type OpenFile } from '../open-file.js';

/**
 * Writes a program's input file (veraPDF's document, Ghostscript's in.pdf) from bytes or from an open file (a stored
 * document's descriptor, or a scratch file an engine task wrote), copied from it, never held in memory whole.
 */
export async function writeInput(file: string, pdf: Uint8Array | OpenFile): Promise<void> {
  if (pdf instanceof Uint8Array) return writeFile(file, pdf);
  await pipeline(openFileStream(pdf), createWriteStream(file));
}

/** Bytes copyOutput reads at a time. */
const OUTPUT_BLOCK = 4 * 1024 * 1024;
/** Bytes each window of copyOutput shares with the next: an edit must span fewer, so that one window holds it whole. */
export const OUTPUT_EDIT_SPAN = 256;

const writeAt = promisify(write);
const truncate = promisify(ftruncate);

/**
 * Copies a program's output file into a file the caller holds open (`into`, from its start; the file is cut at the
 * end), in blocks, so the output is never held whole (issue 35, item 8: Ghostscript's 100 MB PDF/A output was read
 * into memory for two small edits). `edit` changes each window in place without changing its length (so no offset of
 * the file moves); windows overlap by OUTPUT_EDIT_SPAN bytes, so an occurrence shorter than that is whole in one, and
 * one in the overlap is seen twice: an edit must not match what it wrote. Answers the size copied.
 */
export async function copyOutput(file: string, into: { fd: number }, edit?: (window: Buffer) => void): Promise<number> {
  const from = await open(file, 'r');
  try {
    const window = Buffer.alloc(OUTPUT_BLOCK + OUTPUT_EDIT_SPAN);
    // `kept` bytes at the window's start came from the last window, edited but not written; they go at `position`.
    let kept = 0;
    let position = 0;
    for (;;) {
      const { bytesRead } = await from.read(window, kept, OUTPUT_BLOCK, position + kept);
      const end = kept + bytesRead;
      if (bytesRead > 0) edit?.(window.subarray(0, end));
      const last = bytesRead === 0;
      const written = last ? end : end - Math.min(OUTPUT_EDIT_SPAN, end);
      for (let done = 0; done < written;) done += (await writeAt(into.fd, window, done, written - done, position + done)).bytesWritten;
      position += written;
      if (last) break;
      window.copy(window, 0, written, end);
      kept = end - written;
    }
    await truncate(into.fd, position);
    return position;
  } finally {
    await from.close();
  }
}
