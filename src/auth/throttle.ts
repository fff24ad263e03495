import { ServiceError } from '../errors.js';

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

export interface ThrottleOptions {
  maxFailures: number;
  windowSeconds: number;
  /** Most names and addresses tracked at once; past it the least recently failed is forgotten. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Failed logins, counted per user name and per client address. After
 * `maxFailures` failures within `windowSeconds`, attempts for that name or from
 * that address are refused with 429 for `windowSeconds`, whatever password
 * they carry, so guessing cannot continue and a correct guess cannot be told
 * apart during the lock. A successful login clears the name's counter; of the
 * address's it only takes back its own attempt (one good account must not
 * reset guessing at others).
 *
 * Counting by name means anyone can lock a user out for a while by failing on
 * purpose; sessions already open keep working. That is the usual trade-off.
 * Unknown names are counted like known ones, so a 429 reveals nothing.
 */
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: ThrottleOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Throws 429 TOO_MANY_REQUESTS (with Retry-After) while the name or the address is locked. */
  check(username: string, address: string): void {
    const now = this.now();
    let until = 0;
    for (const key of keys(username, address)) {
      const c = this.counters.get(key);
      if (c && c.lockedUntil > now) until = Math.max(until, c.lockedUntil);
    }
    if (until > 0) {
      const seconds = Math.max(1, Math.ceil((until - now) / 1000));
      throw new ServiceError('TOO_MANY_REQUESTS', `Too many failed logins; try again in ${seconds} s`, { retryAfter: seconds }, { 'Retry-After': String(seconds) });
    }
  }

  /**
   * Registers a login attempt before its password is checked: 429 while locked,
   * otherwise the attempt counts as a failure right away. Counting up front
   * matters: attempts sent in parallel would all pass a check made before any
   * of them failed. `succeeded` takes the count back.
   */
  attempt(username: string, address: string): void {
    this.check(username, address);
    const now = this.now();
    const windowMs = this.options.windowSeconds * 1000;
    for (const key of keys(username, address)) {
      let c = this.counters.get(key);
      if (!c || now - c.windowStart >= windowMs) c = { failures: 0, windowStart: now, lockedUntil: 0 };
      c.failures += 1;
      if (c.failures >= this.options.maxFailures) c.lockedUntil = now + windowMs;
      // Re-inserting moves the key to the end, so the Map's first key is the least recently failed.
      this.counters.delete(key);
      this.counters.set(key, c);
    }
    while (this.counters.size > this.maxEntries) this.counters.delete(this.counters.keys().next().value!);
  }

  /** The attempt was right: the name's counter is cleared, the address's attempt taken back. */
  succeeded(username: string, address: string): void {
    this.counters.delete(`user:${username}`);
    const c = this.counters.get(`addr:${address}`);
    if (!c) return;
    c.failures = Math.max(0, c.failures - 1);
    if (c.failures < this.options.maxFailures) c.lockedUntil = 0;
  }
}

function keys(username: string, address: string): [string, string] {
  return [`user:${username}`, `addr:${address}`];
}
