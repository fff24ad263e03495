import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StateWrite, StateWriteResult } from './state-file-worker.js';

/**
 * Replaces a state file (users, tokens, jobs) atomically: a temporary file in the
 * same folder (mode 0600), fsync, rename over the old one, fsync of the
 * folder, so a crash leaves either the old or the new content.
 *
 * The steps run on one writer thread of their own (state-file-worker.ts), not as eight trips through libuv's thread
 * pool: a job's record is written before its 202, and while heavy jobs kept the pool's four threads busy with their
 * documents' reads, writes and fsyncs, each trip waited for a pool thread and then for the event loop (bench/results/
 * accept-2026-11-30.md). Writes that arrive while the thread is busy go together in its next batch, whose renames in a
 * folder share one fsync of the folder.
 */
export function writeStateFile(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  return writer.write({ file, temp, text });
}

interface Waiting {
  write: StateWrite;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** The writer thread (started at the first write) and the writes waiting for its next batch. */
class StateWriter {
  private worker: Worker | undefined;
  private waiting: Waiting[] = [];
  private inFlight: Waiting[] | undefined;

  write(write: StateWrite): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.inFlight || this.waiting.length === 0) return;
    const worker = (this.worker ??= this.start());
    this.inFlight = this.waiting;
    this.waiting = [];
    // Held while a batch is out, so the process does not end under a write; idle, the thread keeps no process alive.
    worker.ref();
    worker.postMessage(this.inFlight.map((w) => w.write));
  }

  private start(): Worker {
    const worker = new Worker(new URL('./state-file-worker.js', import.meta.url), { name: 'state-file-writer' });
    worker.on('message', (results: StateWriteResult[]) => this.settle((w, i) => {
      const result = results[i];
      if (result === null) w.resolve();
      else w.reject(Object.assign(new Error(result?.message ?? 'the state file writer gave no answer'), result ?? {}));
    }));
    // A thread that fails fails its batch; the next write starts another.
    const gone = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.settle((w) => w.reject(err));
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the state file writer thread exited with code ${code}`)));
    return worker;
  }

  private settle(each: (w: Waiting, i: number) => void): void {
    const batch = this.inFlight ?? [];
    this.inFlight = undefined;
    this.worker?.unref();
    batch.forEach(each);
    this.next();
  }
}

const writer = new StateWriter();

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

/**
 * Writes of one state file, one at a time (writeStateFile each, its folder made first with mode 0700): `text` is
 * called when the write starts, so the last write on disk holds every change made before it. A failed write fails
 * its caller only; the next one runs.
 */
export function serialStateWriter(file: string): (text: () => string) => Promise<void> {
  const folder = stateFolder(path.dirname(file));
  let queue: Promise<unknown> = Promise.resolve();
  return (text) => {
    const run = async () => {
      await folder();
      await writeStateFile(file, text());
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
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
