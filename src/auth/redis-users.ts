import { ServiceError } from '../errors.js';
import { withRedis, type RedisConnection } from '../redis.js';
import { normalizeRights, type StoredUser, type UserStore } from './users.js';

/**
 * The table's version, a field of the users hash itself: user names never
 * start with ".", so it cannot be a user's. Every change increments it.
 */
const VERSION = '.version';

/**
 * Applies a transaction's changes when the table is still at the version the
 * change was computed from (compare-and-set), and increments the version.
 * ARGV: expected version, count of fields to set, then name/value pairs, then
 * names to delete. Returns 1 when applied, 0 when another change came first.
 */
const APPLY = `
local current = redis.call('HGET', KEYS[1], '${VERSION}') or '0'
if current ~= ARGV[1] then return 0 end
local sets = tonumber(ARGV[2])
for i = 0, sets - 1 do redis.call('HSET', KEYS[1], ARGV[3 + 2 * i], ARGV[4 + 2 * i]) end
for i = 3 + 2 * sets, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
redis.call('HINCRBY', KEYS[1], '${VERSION}', 1)
return 1
`;

/** How often a transaction is recomputed when other instances' changes keep coming first, before it gives up. */
const MAX_ATTEMPTS = 50;

function parse(text: string): StoredUser {
  const u = JSON.parse(text) as StoredUser;
  return { ...u, rights: normalizeRights(u.rights) };
}

/**
 * Users in Redis (PDFSERVICE_REDIS_URL), shared by every instance and the
 * users CLI that use the same Redis and prefix: one hash `<prefix>users`,
 * user name → the stored user as JSON (the scrypt hash, never a password),
 * with the table's version under the field ".version".
 *
 * Reads go to Redis every time, so a change made anywhere applies at once.
 * `transact` is optimistic: it reads the whole table with its version, runs
 * `change` on a copy, and one Lua script writes the differences only if the
 * version is still the same; otherwise it reads again and runs `change`
 * again. So two instances' changes at once never lose one, and rules that
 * look at several users (the last admin) hold. `change` must therefore
 * depend on the table only, as UserService's do.
 */
export class RedisUserStore implements UserStore {
  /** Transactions of this process one at a time: they would only make each other retry. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly redis: RedisConnection) {}

  private get key(): string {
    return this.redis.key('users');
  }

  async find(username: string): Promise<StoredUser | undefined> {
    if (username.startsWith('.')) return undefined;
    const text = await withRedis(() => this.redis.client.hget(this.key, username));
    return text === null ? undefined : parse(text);
  }

  async list(): Promise<StoredUser[]> {
    const { users } = await this.snapshot();
    return [...users.values()].sort((a, b) => a.username.localeCompare(b.username));
  }

  /**
   * Copies `users` (another store's: the data folder's users.json) into Redis
   * when Redis holds no user yet, in one transaction, so of instances starting
   * at once one imports and the others find users. Whether it imported.
   */
  importIfEmpty(users: StoredUser[]): Promise<boolean> {
    return this.transact((table) => {
      if (table.size > 0 || users.length === 0) return false;
      for (const u of users) table.set(u.username, { ...u, rights: [...u.rights] });
      return true;
    });
  }

  transact<T>(change: (users: Map<string, StoredUser>) => T): Promise<T> {
    const run = () => this.attempt(change);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async attempt<T>(change: (users: Map<string, StoredUser>) => T): Promise<T> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { version, users, texts } = await this.snapshot();
      const result = change(users);
      const sets: string[] = [];
      for (const [name, user] of users) {
        const text = JSON.stringify(user);
        if (texts.get(name) !== text) sets.push(name, text);
      }
      const deletes = [...texts.keys()].filter((name) => !users.has(name));
      if (sets.length === 0 && deletes.length === 0) return result;
      const applied = await withRedis(() => this.redis.client.eval(APPLY, 1, this.key, version, sets.length / 2, ...sets, ...deletes));
      if (Number(applied) === 1) return result;
      // Another instance changed users in between: a short random pause, so two that collide do not again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    }
    // Not a fault of the request or the service: a 503 the client retries, as for a full queue.
    throw new ServiceError('SERVICE_BUSY', 'Users were changed by other instances too often to apply this change; try again', undefined, { 'Retry-After': '1' });
  }

  private async snapshot(): Promise<{ version: string; users: Map<string, StoredUser>; texts: Map<string, string> }> {
    const all = await withRedis(() => this.redis.client.hgetall(this.key));
    const users = new Map<string, StoredUser>();
    const texts = new Map<string, string>();
    for (const [name, text] of Object.entries(all)) {
      if (name === VERSION) continue;
      users.set(name, parse(text));
      texts.set(name, JSON.stringify(users.get(name)));
    }
    return { version: all[VERSION] ?? '0', users, texts };
  }
}
