import { ServiceError } from '../errors.js';
import { withRedis, type RedisConnection } from '../redis.js';
import { RedisLocks } from '../storage/redis-lock.js';
import type { HeldSweep, SweepLease } from './retention.js';

/**
 * The sweep's lease across instances sharing one Redis (docs/versions.md, "Retention"): the same Redis lock as the
 * documents' (redis-lock.ts: a lease renewed while held, free by itself after PDFSERVICE_LOCK_LEASE_MS when its holder
 * dies), taken without waiting, and the last sweep's time beside it. An instance whose tick finds the lock held, or
 * the last sweep (by any instance) less than an interval ago, does nothing: one sweep per interval, whoever runs it.
 */
export class RedisSweepLease implements SweepLease {
  private readonly locks: RedisLocks;
  private readonly lastKey: string;

  /**
   * `name`: what the lease is for; `retention` is the sweep's. Other periodic work of one instance at a time takes a
   * lease of its own name (a watched folder's poll of a DMS: WatchedFolderOperations), a lock and a time of its own.
   */
  constructor(private readonly redis: RedisConnection, leaseMs: number, private readonly name = 'retention') {
    this.locks = new RedisLocks(redis, { namespace: 'sweep', leaseMs, waitMs: 0 });
    this.lastKey = name === 'retention' ? redis.key('sweep', 'last') : redis.key('sweep', 'last', name);
  }

  async take(now: Date, intervalMs: number): Promise<HeldSweep | null> {
    let release: () => void;
    try {
      release = await this.locks.acquire(this.name);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'DOCUMENT_LOCKED') return null;
      throw err;
    }
    try {
      const last = Number(await withRedis(() => this.redis.client.get(this.lastKey)));
      if (last > 0 && now.getTime() - last < intervalMs) {
        release();
        return null;
      }
    } catch (err) {
      release();
      throw err;
    }
    return {
      done: async (at) => {
        await withRedis(() => this.redis.client.set(this.lastKey, String(at.getTime())));
      },
      release,
    };
  }
}
