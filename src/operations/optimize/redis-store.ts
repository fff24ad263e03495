import type { OptimizeSettings } from '../../engine/models.js';
import { withRedis, type RedisConnection } from '../../redis.js';
import { byName, tooManyProfiles, type OptimizeProfileStore, type ProfileRecord } from './store.js';

/**
 * Sets the profile when its record is still the one the new record was made
 * from (its createdAt is kept from it): compare-and-set, so two instances
 * replacing one profile at once each keep the first creation time.
 * A new profile is refused when the hash holds `limit` already (in the same step, so instances cannot pass it together).
 * KEYS: the hash. ARGV: name, the record read ('' for none), the new record, limit. 1 set, 0 changed meanwhile, -1 full.
 */
const PUT = `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if current == '' and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/**
 * User-defined optimize profiles in Redis (PDFSERVICE_REDIS_URL), shared by
 * every instance: one hash `<prefix>optimize-profiles`, profile name → the
 * record as JSON. Every read goes to Redis, so a profile made or deleted on
 * one instance is seen by the others at once. Profiles are few and small
 * (at most MAX_PROFILES, a few hundred bytes each), so listing them all is
 * one HGETALL.
 */
export class RedisProfileStore implements OptimizeProfileStore {
  constructor(private readonly redis: RedisConnection) {}

  private get key(): string {
    return this.redis.key('optimize-profiles');
  }

  async get(name: string): Promise<ProfileRecord | null> {
    const text = await withRedis(() => this.redis.client.hget(this.key, name));
    return text === null ? null : (JSON.parse(text) as ProfileRecord);
  }

  async list(): Promise<ProfileRecord[]> {
    const all = await withRedis(() => this.redis.client.hgetall(this.key));
    return Object.values(all)
      .map((text) => JSON.parse(text) as ProfileRecord)
      .sort(byName);
  }

  async put(name: string, settings: OptimizeSettings, limit = Number.MAX_SAFE_INTEGER): Promise<{ record: ProfileRecord; created: boolean }> {
    for (;;) {
      const previous = await withRedis(() => this.redis.client.hget(this.key, name));
      const now = new Date().toISOString();
      const createdAt = previous === null ? now : (JSON.parse(previous) as ProfileRecord).createdAt;
      const record: ProfileRecord = { name, settings: structuredClone(settings), createdAt, updatedAt: now };
      const set = Number(await withRedis(() => this.redis.client.eval(PUT, 1, this.key, name, previous ?? '', JSON.stringify(record), limit)));
      if (set === 1) return { record, created: previous === null };
      if (set === -1) throw tooManyProfiles(limit);
      // Another instance changed this profile in between: read it again.
    }
  }

  async delete(name: string): Promise<boolean> {
    return (await withRedis(() => this.redis.client.hdel(this.key, name))) === 1;
  }

  /**
   * Copies `records` (the data folder's optimize-profiles.json) into Redis
   * when Redis holds no profile yet; one script, so of instances starting at
   * once one imports. Whether it imported.
   */
  async importIfEmpty(records: ProfileRecord[]): Promise<boolean> {
    if (records.length === 0) return false;
    const script = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1
`;
    const args = records.flatMap((r) => [r.name, JSON.stringify(r)]);
    return Number(await withRedis(() => this.redis.client.eval(script, 1, this.key, ...args))) === 1;
  }
}
