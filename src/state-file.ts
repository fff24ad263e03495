import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Replaces a state file (users, tokens, jobs) atomically: a temporary file in the
 * same folder (mode 0600), fsync, rename over the old one, fsync of the
 * folder, so a crash leaves either the old or the new content.
 */
export async function writeStateFile(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncFolder(dir);
}

/** Makes a rename or removal in `dir` durable: the folder's entries reach the disk, not only the files'. */
export async function syncFolder(dir: string): Promise<void> {
  const folder = await fs.open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    // Not waited for: a folder's descriptor has nothing left to flush once its fsync has answered, and the close was one
    // more trip to the thread pool on the path of every write (issue 38; a document's write fsyncs two folders).
    folder.close().catch(() => undefined);
  }
}

/**
 * Makes `dir` (mode 0700: the service's own state) at the first call and answers at once after that; a failed
 * attempt is tried again at the next call.
 */
export function stateFolder(dir: string): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return async () => {
    ready ??= fs.mkdir(dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    try {
      await ready;
    } catch (err) {
      ready = undefined;
      throw err;
    }
  };
}

export function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Reads a state file written by writeStateFile as JSON `{ version: 1, <key>: [...] }`:
 * the list, or null when the file does not exist yet. Any other version or shape is
 * an error naming the file, so a service never starts over state it misread.
 */
export async function readStateList<T>(file: string, key: string, what: string): Promise<T[] | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  }
  const data = JSON.parse(text) as { version?: unknown } & Record<string, unknown>;
  const list = data[key];
  if (data.version !== 1 || !Array.isArray(list)) throw new Error(`${file}: not a version 1 ${what} file`);
  return list as T[];
}
