/**
 * How an engine task receives its document. Large stored documents come as
 * their file, held open by the main thread for the length of the task: a
 * descriptor belongs to the process, so a worker reads the same open file,
 * and no thread holds a copy of the whole document. Everything else comes as
 * bytes. `openPdf` (engine/pdf/open.ts) is the one reader of both.
 */
export interface OpenFile {
  /** Read with positional reads only: the main thread may be reading the same descriptor. Never closed by the engine. */
  fd: number;
  size: number;
}

export type PdfSource = Uint8Array | OpenFile;

export function sourceSize(source: PdfSource): number {
  return source instanceof Uint8Array ? source.length : source.size;
}
