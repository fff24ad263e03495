import { randomBytes } from 'node:crypto';
import { withRedis, type RedisConnection } from '../redis.js';
import type { Sealer } from '../secrets.js';
import { expiresAt, MAX_SESSIONS_PER_USER, sessionKey, type SessionLimits, type SessionRecord, type SessionStore } from './sessions.js';
import type { StoreCredentials } from './types.js';

/** A session as Redis holds it: the DMS credentials sealed, never in plaintext. */
interface StoredSession {
  username: string;
  stamp: string;
  /** Sealer output: AES-256-GCM under PDFSERVICE_SECRETS_KEY with the session's id in the associated data. */
  sealedCredentials?: string;
  createdAt: number;
  lastUsedAt: number;
  absoluteExpiresAt: number;
}

/**
 * Ends every session of a user at once: the user's index lists their sessions'
 * keys. One script, so a session made meanwhile on another instance is either
 * ended too or not yet listed (and then ended by its password stamp, index.ts).
 * It builds the session keys from the index's members, which suits one Redis
 * (with or without Sentinel), not Redis Cluster.
 */
const DELETE_USER = `
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, member in ipairs(members) do redis.call('DEL', ARGV[1] .. member) end
redis.call('DEL', KEYS[1])
return #members
`;

/**
 * Sessions in Redis, shared by every instance that uses the same Redis and
 * prefix. Behaves as MemorySessionStore: ids are 32 random bytes handed to the
 * client only, the record lives under the SHA-256 of the id
 * (`<prefix>session:<hash>`), it expires at the earlier of the idle and the
 * absolute limit (the key's TTL, set again on every touch), a user keeps at
 * most MAX_SESSIONS_PER_USER (the oldest end first; `<prefix>user-sessions:<name>`,
 * a sorted set by login time), and deleteUser ends all of a user's.
 *
 * DMS credentials of a passthrough login are sealed with the secrets key and
 * the session id as context: neither a copy of Redis nor the key alone opens
 * them, only the key together with the id the client holds.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly limits: SessionLimits,
    private readonly sealer: Sealer | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private recordKey(hash: string): string {
    return this.redis.key('session', hash);
  }

  private userKey(username: string): string {
    return this.redis.key('user-sessions', username);
  }

  private static context(id: string): string {
    // A label ahead of the id keeps a sealed session apart from other sealed secrets (the mapped accounts use user names).
    return `session:${id}`;
  }

  async create(username: string, stamp: string, credentials?: StoreCredentials): Promise<{ id: string; session: SessionRecord }> {
    if (credentials && !this.sealer) throw new Error('sessions with DMS credentials in Redis need PDFSERVICE_SECRETS_KEY');
    const id = randomBytes(32).toString('base64url');
    const hash = sessionKey(id);
    const now = this.now();
    const session: SessionRecord = { username, stamp, ...(credentials ? { credentials } : {}), createdAt: now, lastUsedAt: now, absoluteExpiresAt: now + this.limits.maxSeconds * 1000 };
    const stored: StoredSession = {
      username,
      stamp,
      ...(credentials ? { sealedCredentials: this.sealer!.seal(RedisSessionStore.context(id), JSON.stringify({ username: credentials.username, password: credentials.password })) } : {}),
      createdAt: now,
      lastUsedAt: now,
      absoluteExpiresAt: session.absoluteExpiresAt,
    };
    const userKey = this.userKey(username);
    await withRedis(async () => {
      const results = await this.redis.client
        .multi()
        .set(this.recordKey(hash), JSON.stringify(stored), 'PX', this.ttl(session, now))
        // Index entries of sessions past the absolute limit are surely dead: they go, so they do not count.
        .zremrangebyscore(userKey, '-inf', now - this.limits.maxSeconds * 1000)
        .zadd(userKey, now, hash)
        // The newest session is the last to reach its absolute limit, so the index lives as long as it.
        .pexpire(userKey, this.limits.maxSeconds * 1000)
        .zcard(userKey)
        .exec();
      const count = Number(results?.[4]?.[1] ?? 0);
      if (count > MAX_SESSIONS_PER_USER) {
        // ZPOPMIN takes each of the oldest once, even when two instances trim at the same moment.
        const popped = await this.redis.client.zpopmin(userKey, count - MAX_SESSIONS_PER_USER);
        const hashes = popped.filter((_, i) => i % 2 === 0);
        if (hashes.length > 0) await this.redis.client.del(...hashes.map((h) => this.recordKey(h)));
      }
    });
    return { id, session };
  }

  async touch(id: string): Promise<SessionRecord | null> {
    const key = this.recordKey(sessionKey(id));
    return withRedis(async () => {
      const text = await this.redis.client.get(key);
      if (text === null) return null;
      const stored = JSON.parse(text) as StoredSession;
      const now = this.now();
      // Redis expires the key; this catches the moments between (and clocks of instances a little apart).
      if (now >= expiresAt(stored, this.limits)) {
        await this.drop(key, stored.username);
        return null;
      }
      stored.lastUsedAt = Math.max(stored.lastUsedAt, now);
      // XX: only while the key exists, so a touch never brings back a session another instance just ended.
      const updated = await this.redis.client.set(key, JSON.stringify(stored), 'PX', this.ttl(stored, now), 'XX');
      if (updated === null) return null;
      const credentials = stored.sealedCredentials === undefined ? undefined : this.open(id, stored.sealedCredentials);
      const { sealedCredentials: _sealed, ...rest } = stored;
      return { ...rest, ...(credentials ? { credentials } : {}) };
    });
  }

  async delete(id: string): Promise<void> {
    const key = this.recordKey(sessionKey(id));
    await withRedis(async () => {
      const text = await this.redis.client.get(key);
      if (text === null) return;
      await this.drop(key, (JSON.parse(text) as StoredSession).username);
    });
  }

  async deleteUser(username: string): Promise<void> {
    await withRedis(() => this.redis.client.eval(DELETE_USER, 1, this.userKey(username), this.recordKey('')));
  }

  /** The connection belongs to whoever opened it (main.ts), which closes it after the stores. */
  async close(): Promise<void> {}

  private async drop(key: string, username: string): Promise<void> {
    const hash = key.slice(this.recordKey('').length);
    await this.redis.client.multi().del(key).zrem(this.userKey(username), hash).exec();
  }

  /** Milliseconds until the session ends if unused from `now` on (at least 1: PX 0 is refused). */
  private ttl(session: Pick<SessionRecord, 'lastUsedAt' | 'absoluteExpiresAt'>, now: number): number {
    return Math.max(1, expiresAt(session, this.limits) - now);
  }

  private open(id: string, sealed: string): StoreCredentials | undefined {
    if (!this.sealer) return undefined;
    try {
      const { username, password } = JSON.parse(this.sealer.open(RedisSessionStore.context(id), sealed)) as StoreCredentials;
      return { username, password };
    } catch {
      // Sealed under another key (PDFSERVICE_SECRETS_KEY changed): without its credentials a directory login's
      // session is refused at once (index.ts), and the user logs in again.
      return undefined;
    }
  }
}
