import type { OptimizeSettings } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';

/** A user-defined optimize profile as stored. Built-in profiles are not stored (profiles.ts). */
export interface ProfileRecord {
  name: string;
  settings: OptimizeSettings;
  createdAt: string;
  updatedAt: string;
}

/**
 * Where user-defined optimize profiles live. The embedded default is one
 * file under the data folder's state (file-store.ts); a Redis store (issue
 * 24) implements the same interface. Records are copied in and out.
 */
export interface OptimizeProfileStore {
  get(name: string): Promise<ProfileRecord | null>;
  /** Every profile, sorted by name. */
  list(): Promise<ProfileRecord[]>;
  /**
   * Creates or replaces the profile (a replaced one keeps its createdAt); durable once this resolves. A new profile
   * when `limit` profiles exist already is refused (tooManyProfiles), in the same step as the write, so writers at
   * once (instances on one Redis) cannot pass the limit together. No limit when absent.
   */
  put(name: string, settings: OptimizeSettings, limit?: number): Promise<{ record: ProfileRecord; created: boolean }>;
  /** Whether there was a profile of that name to delete. */
  delete(name: string): Promise<boolean>;
}

/** 400: the store holds `limit` profiles already. */
export function tooManyProfiles(limit: number): ServiceError {
  return new ServiceError('BAD_REQUEST', `The service keeps at most ${limit} optimize profiles; delete one first`);
}

/** Code-point order, the same whatever the locale. */
export function byName(a: ProfileRecord, b: ProfileRecord): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Profiles in a Map, kept in memory only: the default when no store is given
 * (tests of the operations layer) and the base of the file store.
 */
export class MemoryProfileStore implements OptimizeProfileStore {
  protected readonly profiles = new Map<string, ProfileRecord>();

  async get(name: string): Promise<ProfileRecord | null> {
    const record = this.profiles.get(name);
    return record ? structuredClone(record) : null;
  }

  async list(): Promise<ProfileRecord[]> {
    return [...this.profiles.values()].sort(byName).map((record) => structuredClone(record));
  }

  async put(name: string, settings: OptimizeSettings, limit = Infinity): Promise<{ record: ProfileRecord; created: boolean }> {
    const previous = this.profiles.get(name);
    // Checked and set before any await: puts at once are counted one by one.
    if (!previous && this.profiles.size >= limit) throw tooManyProfiles(limit);
    const now = new Date().toISOString();
    const record: ProfileRecord = { name, settings: structuredClone(settings), createdAt: previous?.createdAt ?? now, updatedAt: now };
    this.profiles.set(name, record);
    try {
      await this.persist();
    } catch (err) {
      // The change did not reach storage: memory goes back to what storage holds.
      if (previous) this.profiles.set(name, previous);
      else this.profiles.delete(name);
      throw err;
    }
    return { record: structuredClone(record), created: previous === undefined };
  }

  async delete(name: string): Promise<boolean> {
    const previous = this.profiles.get(name);
    if (!previous) return false;
    this.profiles.delete(name);
    try {
      await this.persist();
    } catch (err) {
      this.profiles.set(name, previous);
      throw err;
    }
    return true;
  }

  /** Makes the Map's content durable; nothing to do in memory. */
  protected async persist(): Promise<void> {}
}
