import { BUILT_IN_PROFILES, canonicalSettings, isBuiltInProfile, type OptimizeSettings } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { checkName } from '../../storage/paths.js';
import type { OptimizeProfileStore } from './store.js';

/** What the resource answers for one profile. */
export interface ProfileView extends OptimizeSettings {
  name: string;
  /** A built-in profile: read-only, always there. */
  builtIn: boolean;
  /** Absent for built-in profiles. */
  createdAt?: string;
  updatedAt?: string;
}

/** User-defined profiles at most: the store keeps them in memory and in one file. */
export const MAX_PROFILES = 1000;

function readOnly(name: string): ServiceError {
  return new ServiceError('PROFILE_READ_ONLY', `"${name}" is a built-in profile and cannot be replaced or deleted; PUT your own under another name`);
}

function builtInView(name: string): ProfileView {
  return { name, builtIn: true, ...canonicalSettings(structuredClone(BUILT_IN_PROFILES[name]!)) };
}

/**
 * The optimize profiles resource (docs/optimize.md): the built-in profiles,
 * answered from code and read-only, and the user-defined ones in the store.
 * Profiles are service-wide, shared by every user as documents are: who may
 * read, create or delete them is decided by the request method's right
 * (GET, PUT, DELETE), as for documents, not by the admin right, which is
 * for user management. A profile name is a path segment and follows the
 * same rules (storage/paths.ts), so it can be put in a URL as it is.
 */
export class OptimizeProfileOperations {
  constructor(private readonly store: OptimizeProfileStore) {}

  async list(): Promise<ProfileView[]> {
    const builtIn = Object.keys(BUILT_IN_PROFILES).map(builtInView);
    const stored = (await this.store.list()).map((r) => ({ name: r.name, builtIn: false, ...r.settings, createdAt: r.createdAt, updatedAt: r.updatedAt }));
    return [...builtIn, ...stored];
  }

  /** The profile of that name, built-in or stored; 404 PROFILE_NOT_FOUND otherwise. OptimizeAction resolves profileName here. */
  async get(name: string): Promise<ProfileView> {
    checkName(name, 'profileName');
    if (isBuiltInProfile(name)) return builtInView(name);
    const record = await this.store.get(name);
    if (!record) throw new ServiceError('PROFILE_NOT_FOUND', `There is no optimize profile named ${JSON.stringify(name)}`);
    return { name: record.name, builtIn: false, ...record.settings, createdAt: record.createdAt, updatedAt: record.updatedAt };
  }

  /** Creates or replaces a user-defined profile; `settings` were validated (and completed with defaults) by the route's schema. */
  async put(name: string, settings: OptimizeSettings): Promise<{ profile: ProfileView; created: boolean }> {
    checkName(name, 'profileName');
    if (isBuiltInProfile(name)) throw readOnly(name);
    const { record, created } = await this.store.put(name, canonicalSettings(settings), MAX_PROFILES);
    return { profile: { name: record.name, builtIn: false, ...record.settings, createdAt: record.createdAt, updatedAt: record.updatedAt }, created };
  }

  async delete(name: string): Promise<void> {
    checkName(name, 'profileName');
    if (isBuiltInProfile(name)) throw readOnly(name);
    if (!(await this.store.delete(name))) throw new ServiceError('PROFILE_NOT_FOUND', `There is no optimize profile named ${JSON.stringify(name)}`);
  }
}
