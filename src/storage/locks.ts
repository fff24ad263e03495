import { KeyedLock } from './keyed-lock.js';
import type { Release } from './store.js';

// Apart from redis-lock.ts (RedisLocks), so that a store without Redis does not load ioredis at start.

/**
 * What a store locks documents (and its commits) with: mutual exclusion per
 * key, and a check a holder makes just before it commits a write.
 */
export interface LockProvider {
  /**
   * Whether these locks exclude holders in every instance (RedisLocks: all
   * instances of a service share its Redis) or only within this process
   * (LocalLocks). A store may rely on a check made under a shared lock
   * holding until its write, across instances (S3Store's create-if-absent).
   */
  readonly shared: boolean;
  /** Waits for the key's lock; the Release gives it back (calling it twice is harmless). */
  acquire(key: string): Promise<Release>;
  /**
   * Just before a commit of `key`: when this process holds the key's lock,
   * confirms it still does (its lease did not run out, nobody took it since)
   * and extends the lease; throws (the write must not be applied) when not.
   * Does nothing when this process does not hold the key.
   */
  verify(key: string): Promise<void>;
}

/** The in-process lock (one instance): nothing can take a key from its holder, so there is nothing to verify. */
export class LocalLocks implements LockProvider {
  readonly shared = false;
  private readonly locks = new KeyedLock();
  acquire(key: string): Promise<Release> {
    return this.locks.acquire(key);
  }
  async verify(): Promise<void> {}
}
