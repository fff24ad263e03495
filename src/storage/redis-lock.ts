import { createHash, randomBytes } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { withRedis, type RedisConnection } from '../redis.js';
import { KeyedLock } from './keyed-lock.js';
import type { LockProvider } from './locks.js';
import type { Release } from './store.js';

export interface RedisLockOptions {
  /** Keeps the locks of different uses apart (document locks, S3 commit locks). */
  namespace: string;
  /** How long a lock lives without renewal: a crashed holder's lock is free after it (PDFSERVICE_LOCK_LEASE_MS). */
  leaseMs: number;
  /** Longest wait for a lock, queued in this process and in Redis together (PDFSERVICE_LOCK_WAIT_MS); then 503 DOCUMENT_LOCKED. */
  waitMs: number;
  /** How often a held lock's lease is renewed; default a third of the lease. Tests make it huge to play a paused holder. */
  renewMs?: number | undefined;
}

/*
 * Per key (hashed, in a Redis Cluster hash tag so one script reaches them all):
 *   L        string  "<acquisition id>:<token>", expiring after the lease: the lock itself
 *   L:meta   hash    next (the fencing counter), committed (the highest token that committed), ticket (the queue's counter)
 *   L:queue  zset    waiting acquisitions by ticket: the lock goes to the first, so one instance's
 *                    waiters cannot keep taking it while another's wait (no starvation)
 *   L:alive  zset    waiting acquisitions by the time they stop counting unless they ask again (a
 *                    crashed waiter leaves the queue by itself)
 * Times are Redis's clock (TIME), so instances whose clocks differ agree.
 */

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** ARGV: acquisition id, lease ms, waiter ttl ms, meta ttl ms. {1, token} when taken; {0, holder's ms left} when not (queued). */
const ACQUIRE = `${NOW}
local gone = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)
for _, w in ipairs(gone) do
  redis.call('ZREM', KEYS[3], w)
  redis.call('ZREM', KEYS[4], w)
end
local holder = redis.call('GET', KEYS[1])
if not holder then
  local first = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
  if not first or first == ARGV[1] then
    local token = redis.call('HINCRBY', KEYS[2], 'next', 1)
    redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
    redis.call('ZREM', KEYS[3], ARGV[1])
    redis.call('ZREM', KEYS[4], ARGV[1])
    redis.call('PEXPIRE', KEYS[2], ARGV[4])
    return {1, token}
  end
end
if not redis.call('ZSCORE', KEYS[3], ARGV[1]) then
  redis.call('ZADD', KEYS[3], redis.call('HINCRBY', KEYS[2], 'ticket', 1), ARGV[1])
end
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[3]), ARGV[1])
for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
local left = 0
if holder then left = redis.call('PTTL', KEYS[1]) end
return {0, left}
`;

/** ARGV: the lock's value, lease ms, meta ttl ms. 1 when still ours (extended), 0 when lost. */
const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
`;

/**
 * ARGV: the lock's value, its token, lease ms, meta ttl ms. 1 when the lock is still ours and no
 * later token has committed: this token is recorded as committed and the lease extended; 0 otherwise.
 */
const VERIFY = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local committed = tonumber(redis.call('HGET', KEYS[2], 'committed') or '0')
if committed > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], 'committed', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
`;

/** Compare and delete: never another holder's lock. ARGV: the lock's value. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** KEYS: queue, alive; ARGV: acquisition id. A waiter that gave up leaves the queue. */
const LEAVE = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
`;

/** A waiter that has not asked for this long leaves the queue (its process died); well above the longest poll interval. */
const WAITER_TTL_MS = 2000;
/** Poll intervals while waiting: from the first to the last, doubling. */
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

interface Holding {
  keys: [string, string];
  value: string;
  token: number;
  lost: boolean;
  timer: NodeJS.Timeout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfter(ms: number): Record<string, string> {
  return { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) };
}

/**
 * Locks per key shared through Redis by every instance using it: a lease
 * renewed while held (a crashed instance's locks run out by themselves), a
 * fencing token per acquisition, and a verify() before each commit that
 * refuses the write of a holder that lost its lock (a pause past the lease:
 * another holder may have written since). Waiters in this process queue here
 * first (one Redis poller per key and process); across processes they queue
 * in Redis in arrival order.
 */
export class RedisLocks implements LockProvider {
  readonly shared = true;
  private readonly local = new KeyedLock();
  private readonly held = new Map<string, Holding>();
  private readonly renewMs: number;
  /** The fencing counter and committed token outlive any lock by far, so tokens keep rising. */
  private readonly metaTtlMs: number;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisLockOptions,
  ) {
    this.renewMs = options.renewMs ?? Math.max(1, Math.floor(options.leaseMs / 3));
    this.metaTtlMs = Math.max(3_600_000, options.leaseMs * 10);
  }

  /** The key's Redis keys: the lock, its meta hash, its queue, its waiters' deadlines. */
  private keysOf(key: string): [string, string, string, string] {
    const id = createHash('sha256').update(`${this.options.namespace}\0${key}`).digest('base64url');
    const lock = this.redis.key('lock', this.options.namespace, `{${id}}`);
    return [lock, `${lock}:meta`, `${lock}:queue`, `${lock}:alive`];
  }

  /** The fencing token this process holds the key with (undefined when it does not): for tests and logs. */
  tokenOf(key: string): number | undefined {
    return this.held.get(key)?.token;
  }

  async acquire(key: string): Promise<Release> {
    const deadline = Date.now() + this.options.waitMs;
    const releaseLocal = await this.waitLocally(key, deadline);
    let holding: Holding;
    try {
      holding = await this.acquireShared(key, deadline);
    } catch (err) {
      releaseLocal();
      throw err;
    }
    this.held.set(key, holding);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(holding.timer);
      if (this.held.get(key) === holding) this.held.delete(key);
      // The next waiter here starts once Redis has the lock free, else it would only queue behind it.
      void withRedis(() => this.redis.client.eval(RELEASE, 1, holding.keys[0], holding.value))
        .catch(() => {}) // unreachable: the lease frees it
        .finally(releaseLocal);
    };
  }

  /** The in-process queue, bounded by the deadline (a slot granted after it is passed on at once). */
  private async waitLocally(key: string, deadline: number): Promise<Release> {
    const pending = this.local.acquire(key);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
    });
    const first = await Promise.race([pending, timedOut]);
    clearTimeout(timer);
    if (first === 'timeout') {
      void pending.then((release) => release());
      throw this.locked(this.options.leaseMs);
    }
    return first;
  }

  private locked(ms: number): ServiceError {
    return new ServiceError('DOCUMENT_LOCKED', 'Another request (on this or another instance) is changing the document; try again later', undefined, retryAfter(ms));
  }

  private async acquireShared(key: string, deadline: number): Promise<Holding> {
    const keys = this.keysOf(key);
    const id = randomBytes(12).toString('base64url');
    const { leaseMs } = this.options;
    let poll = FIRST_POLL_MS;
    let left: number;
    try {
      for (;;) {
        const [taken, n] = (await withRedis(() => this.redis.client.eval(ACQUIRE, 4, ...keys, id, leaseMs, WAITER_TTL_MS, this.metaTtlMs))) as [number, number];
        if (taken === 1) {
          const holding: Holding = { keys: [keys[0], keys[1]], value: `${id}:${n}`, token: Number(n), lost: false, timer: undefined as unknown as NodeJS.Timeout };
          holding.timer = setInterval(() => void this.renew(holding), this.renewMs);
          holding.timer.unref();
          return holding;
        }
        left = Number(n);
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        await sleep(Math.min(poll, remaining));
        poll = Math.min(poll * 2, MAX_POLL_MS);
      }
    } catch (err) {
      await this.leave(keys, id);
      throw err;
    }
    await this.leave(keys, id);
    throw this.locked(left || leaseMs);
  }

  private async leave(keys: string[], id: string): Promise<void> {
    await this.redis.client.eval(LEAVE, 2, keys[2]!, keys[3]!, id).catch(() => {}); // else it leaves by WAITER_TTL_MS
  }

  private async renew(holding: Holding): Promise<void> {
    if (holding.lost) return;
    try {
      const ours = await this.redis.client.eval(RENEW, 2, ...holding.keys, holding.value, this.options.leaseMs, this.metaTtlMs);
      if (Number(ours) !== 1) {
        holding.lost = true;
        clearInterval(holding.timer);
      }
    } catch {
      // Redis unreachable for now: the next renewal tries again; if the lease runs out meanwhile, verify() says so.
    }
  }

  async verify(key: string): Promise<void> {
    const holding = this.held.get(key);
    if (!holding) return;
    if (!holding.lost) {
      const ours = await withRedis(() => this.redis.client.eval(VERIFY, 2, ...holding.keys, holding.value, holding.token, this.options.leaseMs, this.metaTtlMs));
      if (Number(ours) === 1) return;
      holding.lost = true;
      clearInterval(holding.timer);
    }
    throw new ServiceError('LOCK_LOST', 'The document lock ran out before the change was written (the instance paused past PDFSERVICE_LOCK_LEASE_MS); nothing was written, try again', undefined, retryAfter(1000));
  }
}
