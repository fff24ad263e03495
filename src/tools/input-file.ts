import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { openFileStream } from '../open-file.js';

/**
 * A document held open by the caller (a stored document's descriptor, or a scratch file an engine task wrote), read
 * with positional reads only and never closed here: a large document is copied to a program's scratch folder from it,
 * never held in memory whole.
 */
export interface OpenPdfFile {
  fd: number;
  size: number;
}

/** Writes a program's input file from bytes or from an open file (veraPDF's document, Ghostscript's in.pdf). */
export async function writeInput(file: string, pdf: Uint8Array | OpenPdfFile): Promise<void> {
  if (pdf instanceof Uint8Array) return writeFile(file, pdf);
  await pipeline(openFileStream(pdf), createWriteStream(file));
}
