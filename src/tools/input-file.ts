import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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
