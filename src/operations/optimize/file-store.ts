import path from 'node:path';
import { readStateList, serialStateWriter } from '../../state-file.js';
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
  private readonly write: (text: () => string) => Promise<void>;

  private constructor(private readonly file: string) {
    super();
    this.write = serialStateWriter(file);
  }

  static async open(dataDir: string): Promise<FileProfileStore> {
    const store = new FileProfileStore(path.join(dataDir, 'state', 'optimize-profiles.json'));
    for (const record of (await readStateList<ProfilesFile['profiles'][number]>(store.file, 'profiles', 'optimize profiles')) ?? []) store.profiles.set(record.name, record);
    return store;
  }

  /** Writes the Map as it is when the write starts. */
  protected override persist(): Promise<void> {
    return this.write(() => JSON.stringify({ version: 1, profiles: [...this.profiles.values()] } satisfies ProfilesFile));
  }
}
