import { withRedis, type RedisConnection } from '../redis.js';
import type { Principal, Right, TokenView } from './types.js';
import type { UserStore } from './users.js';
import {
  hashOf,
  LastUseWriter,
  MAX_TOKENS_PER_USER,
  newToken,
  notFound,
  TOKEN_RE,
  tokenRefused,
  principalOfToken,
  tooManyTokens,
  toView,
  type StoredToken,
  type TokenStore,
} from './tokens.js';

/** KEYS: the owner's index, the token's key. ARGV: id, secret hash, record, limit. 1 kept, 0 the id is taken, -1 no room. */
const CREATE = `
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return -1 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[2], 'record', ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/** KEYS: the owner's index. ARGV: id, the token keys' prefix. 1 when it was there. */
const REVOKE = `
local hash = redis.call('HGET', KEYS[1], ARGV[1])
if not hash then return 0 end
redis.call('DEL', ARGV[2] .. hash)
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`;

/**
 * KEYS: the owner's index. ARGV: the token keys' prefix. Like the sessions'
 * DELETE_USER it builds keys from the index, which suits one Redis, not Cluster.
 */
const REMOVE_USER = `
local hashes = redis.call('HVALS', KEYS[1])
for _, hash in ipairs(hashes) do redis.call('DEL', ARGV[1] .. hash) end
redis.call('DEL', KEYS[1])
return #hashes
`;

/** KEYS: the token's key. ARGV: a last-use time (ISO 8601, which sorts as text). Never brings back a revoked token, never goes back in time. */
const USED = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local old = redis.call('HGET', KEYS[1], 'lastUsedAt')
if not old or old < ARGV[1] then redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1]) end
return 1
`;

/**
 * API tokens in Redis (PDFSERVICE_REDIS_URL), shared by every instance: a
 * token created on one authenticates on all, and one revoked on any is
 * refused by all at once (every use reads Redis).
 *
 * `<prefix>token:<SHA-256 of the secret>` is a hash: `record` (the token's
 * JSON: id, owner, name, rights, times; never the secret) and `lastUsedAt`.
 * A presented token is looked up by the hash of its secret, so Redis holds
 * nothing that can be presented. `<prefix>user-tokens:<user name>` maps each
 * of the user's token ids to its secret hash: listing, revoking by id, the
 * limit of MAX_TOKENS_PER_USER (checked in the same script that adds one, so
 * instances creating at once cannot pass it), and removing a user's tokens.
 *
 * Last-use times are gathered in memory and written at most once a minute,
 * as the file store does: every request must not write to Redis.
 */
export class RedisTokenStore implements TokenStore {
  /** Last-use times not yet written, by the token's key. */
  private readonly pending = new Map<string, string>();
  private readonly lastUse = new LastUseWriter(() => this.flush(), 'Redis');

  constructor(
    private readonly redis: RedisConnection,
    private readonly users: UserStore,
  ) {}

  private tokenKey(hash: string): string {
    return this.redis.key('token', hash);
  }

  private userKey(username: string): string {
    return this.redis.key('user-tokens', username);
  }

  async create(owner: Principal, input: { name: string; expiresAt?: Date; rights?: Right[] }): Promise<{ token: string; view: TokenView }> {
    for (;;) {
      const { record, token } = await newToken(this.users, owner, input);
      const { lastUsedAt: _unused, ...kept } = record;
      const result = await withRedis(() =>
        this.redis.client.eval(CREATE, 2, this.userKey(record.username), this.tokenKey(record.hash), record.id, record.hash, JSON.stringify(kept), MAX_TOKENS_PER_USER),
      );
      if (Number(result) === -1) throw tooManyTokens();
      // 0: the user has a token with this id already (64 random bits: all but impossible); another id.
      if (Number(result) === 1) return { token, view: toView(record) };
    }
  }

  async list(username: string): Promise<TokenView[]> {
    const hashes = Object.values(await withRedis(() => this.redis.client.hgetall(this.userKey(username))));
    const tokens = await Promise.all(hashes.map((hash) => this.read(hash)));
    return tokens
      .filter((t): t is StoredToken => t !== null && t.username === username)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map(toView);
  }

  async get(username: string, id: string): Promise<TokenView> {
    const hash = await withRedis(() => this.redis.client.hget(this.userKey(username), id));
    const t = hash === null ? null : await this.read(hash);
    if (!t || t.username !== username) throw notFound(id);
    return toView(t);
  }

  async revoke(username: string, id: string): Promise<void> {
    const removed = await withRedis(() => this.redis.client.eval(REVOKE, 1, this.userKey(username), id, this.tokenKey('')));
    if (Number(removed) !== 1) throw notFound(id);
  }

  async removeUser(username: string): Promise<void> {
    await withRedis(() => this.redis.client.eval(REMOVE_USER, 1, this.userKey(username), this.tokenKey('')));
  }

  /**
   * Copies tokens of another store (the data folder's tokens.json, whose
   * users were just imported) into Redis, each as create would, and returns
   * how many it kept (one whose id its user has already, or past the limit, is not).
   */
  async importTokens(records: StoredToken[]): Promise<number> {
    let kept = 0;
    for (const record of records) {
      const { lastUsedAt, ...rest } = record;
      const result = await withRedis(() =>
        this.redis.client.eval(CREATE, 2, this.userKey(record.username), this.tokenKey(record.hash), record.id, record.hash, JSON.stringify(rest), MAX_TOKENS_PER_USER),
      );
      if (Number(result) !== 1) continue;
      kept++;
      if (lastUsedAt) await withRedis(() => this.redis.client.eval(USED, 1, this.tokenKey(record.hash), lastUsedAt));
    }
    return kept;
  }

  async authenticate(presented: string): Promise<Principal> {
    const match = TOKEN_RE.exec(presented);
    const hash = match ? hashOf(match[2]!).toString('base64url') : undefined;
    // Found by the hash of its secret: a record there proves the secret; the id must be the one it was made with.
    const t = hash === undefined ? null : await this.read(hash);
    if (!t || t.id !== match![1]) throw tokenRefused('INVALID_CREDENTIALS', 'The API token is unknown or has been revoked');
    const now = Date.now();
    const principal = await principalOfToken(t, this.users, (username) => this.removeUser(username), now);
    this.pending.set(this.tokenKey(t.hash), new Date(now).toISOString());
    this.lastUse.soon();
    return principal;
  }

  close(): Promise<void> {
    return this.lastUse.close();
  }

  private async read(hash: string): Promise<StoredToken | null> {
    const fields = await withRedis(() => this.redis.client.hgetall(this.tokenKey(hash)));
    if (fields.record === undefined) return null;
    const record = JSON.parse(fields.record) as Omit<StoredToken, 'lastUsedAt'>;
    // A use this instance has not written yet is newer than what Redis holds.
    const times = [fields.lastUsedAt, this.pending.get(this.tokenKey(hash))].filter((t): t is string => t !== undefined).sort();
    return { ...record, lastUsedAt: times.at(-1) ?? null };
  }

  private async flush(): Promise<void> {
    const uses = [...this.pending];
    this.pending.clear();
    const pipeline = this.redis.client.pipeline();
    for (const [key, at] of uses) pipeline.eval(USED, 1, key, at);
    await pipeline.exec();
  }
}
