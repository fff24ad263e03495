import path from 'node:path';
import { readStateList, serialStateWriter } from '../../state-file.js';

/** One saved version of a pipeline: what a PUT stored. */
export interface PipelineVersion {
  /** 1 for the first PUT, one more for each PUT after it. */
  version: number;
  /** The steps as validated at save time: each an object with one key naming the action, its parameters with their defaults. */
  steps: Record<string, unknown>[];
  description?: string;
  /** Shared with every user (set by an admin only: docs/pipelines.md, "Rights"). */
  shared: boolean;
  /** When this version was saved, and by whom (the owner, or an admin). */
  created: string;
  createdBy: string;
}

/** A pipeline as stored: its owner's name, its name, and its kept versions, oldest first. */
export interface PipelineRecord {
  owner: string;
  name: string;
  versions: PipelineVersion[];
}

/**
 * Where pipelines live: one file under the data folder's state (FilePipelineStore), or Redis (redis-store.ts) when
 * instances share state. Records are copied in and out. A change is a function of the record as it is (or null):
 * the store applies it atomically (in one step in memory, compare-and-set in Redis), so a PUT with If-Match on one
 * instance and another PUT on a second cannot both build on the same version.
 */
export interface PipelineStore {
  get(owner: string, name: string): Promise<PipelineRecord | null>;
  /** Every pipeline of every user, by owner then name (operations filter what a caller sees). */
  list(): Promise<PipelineRecord[]>;
  /**
   * Replaces the record by what `change` makes of the current one (null: there is none); `change` answers null to
   * delete it, or throws to leave it (412, a limit). Durable once this resolves; answers what `change` answered.
   */
  update(owner: string, name: string, change: (current: PipelineRecord | null) => PipelineRecord | null): Promise<PipelineRecord | null>;
}

export function byOwnerAndName(a: PipelineRecord, b: PipelineRecord): number {
  const ka = `${a.owner}\u0000${a.name}`;
  const kb = `${b.owner}\u0000${b.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A record's key: owner and name as JSON, so no name can run into another user's. */
export function recordKey(owner: string, name: string): string {
  return JSON.stringify([owner, name]);
}

/** Pipelines in a Map, in memory only: the default of createOperations (tests of the operations layer) and the base of the file store. */
export class MemoryPipelineStore implements PipelineStore {
  protected readonly records = new Map<string, PipelineRecord>();

  async get(owner: string, name: string): Promise<PipelineRecord | null> {
    const record = this.records.get(recordKey(owner, name));
    return record ? structuredClone(record) : null;
  }

  async list(): Promise<PipelineRecord[]> {
    return [...this.records.values()].sort(byOwnerAndName).map((r) => structuredClone(r));
  }

  async update(owner: string, name: string, change: (current: PipelineRecord | null) => PipelineRecord | null): Promise<PipelineRecord | null> {
    const key = recordKey(owner, name);
    const previous = this.records.get(key);
    // Read, changed and set before any await: changes at once apply one after the other.
    const next = change(previous ? structuredClone(previous) : null);
    if (next) this.records.set(key, structuredClone(next));
    else this.records.delete(key);
    try {
      await this.persist();
    } catch (err) {
      // The change did not reach storage: memory goes back to what storage holds.
      if (previous) this.records.set(key, previous);
      else this.records.delete(key);
      throw err;
    }
    return next;
  }

  /** Makes the Map's content durable; nothing to do in memory. */
  protected async persist(): Promise<void> {}
}

/**
 * The embedded store: every pipeline in one file, `<dataDir>/state/pipelines.json` (mode 0600), kept in memory and
 * replaced atomically on every change (writeStateFile), one write at a time, as the optimize profiles' store does.
 */
export class FilePipelineStore extends MemoryPipelineStore {
  private readonly write: (text: () => string) => Promise<void>;

  private constructor(private readonly file: string) {
    super();
    this.write = serialStateWriter(file);
  }

  static async open(dataDir: string): Promise<FilePipelineStore> {
    const store = new FilePipelineStore(path.join(dataDir, 'state', 'pipelines.json'));
    for (const record of (await readStateList<PipelineRecord>(store.file, 'pipelines', 'pipelines')) ?? []) store.records.set(recordKey(record.owner, record.name), record);
    return store;
  }

  /** Writes the Map as it is when the write starts. */
  protected override persist(): Promise<void> {
    return this.write(() => JSON.stringify({ version: 1, pipelines: [...this.records.values()] }));
  }
}
