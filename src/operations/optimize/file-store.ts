import fs from 'node:fs/promises';
import path from 'node:path';
import { readStateList, writeStateFile } from '../../state-file.js';
import { MemoryProfileStore, type ProfileRecord } from './store.js';

interface ProfilesFile {
  version: 1;
  profiles: ProfileRecord[];
}

/**
 * The embedded profile store: every user-defined profile in one file,
 * `<dataDir>/state/optimize-profiles.json`, kept in memory and replaced
 * atomically on every change (writeStateFile: temporary file, fsync, rename,
 * fsync of the folder), one write at a time, as the token store does.
 * Profiles are few and small (a few hundred bytes each), so one file is
 * simpler than one per profile and needs no file name made from a user's name.
 */
export class FileProfileStore extends MemoryProfileStore {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: string) {
    super();
  }

  static async open(dataDir: string): Promise<FileProfileStore> {
    const store = new FileProfileStore(path.join(dataDir, 'state', 'optimize-profiles.json'));
    for (const record of (await readStateList<ProfilesFile['profiles'][number]>(store.file, 'profiles', 'optimize profiles')) ?? []) store.profiles.set(record.name, record);
    return store;
  }

  /** Writes the Map as it is when the write starts; writes queue, so the last one on disk holds every change before it. */
  protected override persist(): Promise<void> {
    const write = this.queue.then(async () => {
      // mode 0700, as the other state folders: the service's own files.
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const data: ProfilesFile = { version: 1, profiles: [...this.profiles.values()] };
      await writeStateFile(this.file, JSON.stringify(data));
    });
    this.queue = write.catch(() => undefined);
    return write;
  }
}
