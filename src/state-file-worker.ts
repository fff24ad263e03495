/**
 * The state files' writer thread (state-file.ts writeStateFile): each batch of files it is given, written as
 * writeStateFile promises (temporary file, fsync, rename), then one fsync per folder for the whole batch; the answer
 * says per file whether it was written and made durable.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';

export interface StateWrite {
  file: string;
  temp: string;
  text: string;
}
/** Per write of a batch: null when written and durable, else the error as plain fields (an Error's code is lost in a message). */
export type StateWriteResult = null | { message: string; code?: string; errno?: number; syscall?: string; path?: string };

function failure(err: unknown): NonNullable<StateWriteResult> {
  const e = err as NodeJS.ErrnoException;
  return { message: e?.message ?? String(err), ...(e?.code ? { code: e.code } : {}), ...(e?.errno !== undefined ? { errno: e.errno } : {}), ...(e?.syscall ? { syscall: e.syscall } : {}), ...(e?.path ? { path: e.path } : {}) };
}

function synced(file: string, flags: string, mode?: number, text?: string): void {
  const fd = openSync(file, flags, mode);
  try {
    if (text !== undefined) writeFileSync(fd, text, 'utf8');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function writeOne({ file, temp, text }: StateWrite): void {
  synced(temp, 'wx', 0o600, text);
  try {
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

parentPort!.on('message', (batch: StateWrite[]) => {
  const results: StateWriteResult[] = batch.map((write) => {
    try {
      writeOne(write);
      return null;
    } catch (err) {
      return failure(err);
    }
  });
  // The renames of the batch reach the disk with one fsync of each folder.
  const folders = new Map<string, number[]>();
  batch.forEach((w, i) => {
    if (results[i] !== null) return;
    const dir = path.dirname(w.file);
    folders.set(dir, [...(folders.get(dir) ?? []), i]);
  });
  for (const [dir, indexes] of folders) {
    try {
      synced(dir, 'r');
    } catch (err) {
      for (const i of indexes) results[i] = failure(err);
    }
  }
  parentPort!.postMessage(results);
});
