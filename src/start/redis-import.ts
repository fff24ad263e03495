import path from 'node:path';
import { FileUserStore } from '../auth/users.js';
import type { RedisUserStore } from '../auth/redis-users.js';
import type { RedisTokenStore } from '../auth/redis-tokens.js';
import type { StoredToken } from '../auth/tokens.js';
import type { RedisProfileStore } from '../operations/optimize/redis-store.js';
import type { ProfileRecord } from '../operations/optimize/store.js';
import { readStateList } from '../state-file.js';

/** What an instance copied from its data folder into Redis (zero each when Redis had them already). */
export interface Imported {
  users: number;
  tokens: number;
  profiles: number;
}

/**
 * When Redis is switched on over a data folder that has users, API tokens or
 * optimize profiles, they are copied into Redis once: the users (and with them
 * the folder's tokens) when Redis holds no user yet, the profiles when Redis
 * holds no profile yet. Each check and copy is one atomic step, so of
 * instances starting at once only one imports. The files are left as they are
 * and not read again while Redis is on (docs/deployment.md).
 */
export async function importLocalState(dataDir: string, stores: { users: RedisUserStore; tokens: RedisTokenStore; profiles: RedisProfileStore }): Promise<Imported> {
  const imported: Imported = { users: 0, tokens: 0, profiles: 0 };
  if (await FileUserStore.exists(dataDir)) {
    const users = await (await FileUserStore.open(dataDir)).list();
    if (await stores.users.importIfEmpty(users)) {
      imported.users = users.length;
      // The tokens belong to the users just imported (same names and creation times), so they stay valid.
      const tokens = (await readStateList<StoredToken>(path.join(dataDir, 'state', 'tokens.json'), 'tokens', 'tokens')) ?? [];
      const owned = tokens.filter((t) => users.some((u) => u.username === t.username && u.createdAt === t.userCreatedAt));
      imported.tokens = await stores.tokens.importTokens(owned);
    }
  }
  const profiles = (await readStateList<ProfileRecord>(path.join(dataDir, 'state', 'optimize-profiles.json'), 'profiles', 'optimize profiles')) ?? [];
  if (await stores.profiles.importIfEmpty(profiles)) imported.profiles = profiles.length;
  return imported;
}
