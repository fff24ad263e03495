import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { openFileStream } from './open-file.js';

/**
 * A scratch file for a large intermediate result (an engine task's output that would otherwise be a copy in the
 * worker and in the main thread: issue 35, item 8). It is removed from its folder as soon as it is open, so nothing is
 * left behind whatever happens to the process; it lives while its descriptor is open. The descriptor belongs to the
 * process: an engine worker writes it at positions (engine/core/save.ts, `saveFullTo` with an OutputFile), a program's
 * output is copied into it in blocks (tools' copyOutput), and tasks, tools and the store read it the same way (as an
 * OpenFile, open-file.ts), never through a shared file offset.
 */
export class ScratchFile {
  private constructor(
    private readonly handle: fs.FileHandle,
  ) {}

  static async create(): Promise<ScratchFile> {
    const file = path.join(tmpdir(), `pdfservice-${randomBytes(8).toString('hex')}.tmp`);
    const handle = await fs.open(file, 'wx+', 0o600);
    await fs.rm(file, { force: true });
    return new ScratchFile(handle);
  }

  get fd(): number {
    return this.handle.fd;
  }

  /** The content from its start: a stream with positional reads, so the descriptor's offset is left alone. */
  stream(size: number): Readable {
    return openFileStream({ fd: this.handle.fd, size });
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

