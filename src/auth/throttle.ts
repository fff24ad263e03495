import { ServiceError } from '../errors.js';

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

export interface ThrottleOptions {
  /** Failures for one user name from one client address before that pair is locked. */
  maxFailures: number;
  windowSeconds: number;
  /** Failures from one client address, whatever the names, before the address is locked; by default ADDRESS_FACTOR × maxFailures. */
  maxAddressFailures?: number;
  /** Most pairs and addresses tracked at once; past it the least recently failed is forgotten. */
  maxEntries?: number;
  now?: () => number;
}

/** An address may fail this many times more than one name from it, so a user who mistypes on several accounts is not locked at once. */
export const ADDRESS_FACTOR = 5;

/**
 * Login throttling as auth uses it (the rules below). Async so that a shared
 * implementation (RedisLoginThrottle, PDFSERVICE_REDIS_URL) counts across
 * instances; MemoryLoginThrottle does its counting before its first await, so
 * attempts made at once are counted at once all the same.
 */
export interface LoginThrottle {
  /** Rejects with 429 TOO_MANY_REQUESTS (with Retry-After) while the pair or the address is locked. */
  check(username: string, address: string): Promise<void>;
  /** Counts an attempt as a failure before its password is checked (429 while locked); `succeeded` takes it back. */
  attempt(username: string, address: string): Promise<void>;
  /** The attempt was right: the pair's counter is cleared, the address's attempt taken back. */
  succeeded(username: string, address: string): Promise<void>;
  /** The attempt checked nothing (the DMS that checks the password could not be reached): taken back from both counters. */
  withdrawn(username: string, address: string): Promise<void>;
}

/** The limits of the options: per pair, and per address (ADDRESS_FACTOR times as many unless given). */
export function throttleLimits(options: Pick<ThrottleOptions, 'maxFailures' | 'maxAddressFailures'>): { pair: number; address: number } {
  return { pair: options.maxFailures, address: options.maxAddressFailures ?? options.maxFailures * ADDRESS_FACTOR };
}

/** 429 for a lock that lasts `ms` more. */
export function lockedOut(ms: number): ServiceError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ServiceError('TOO_MANY_REQUESTS', `Too many failed logins; try again in ${seconds} s`, { retryAfter: seconds }, { 'Retry-After': String(seconds) });
}

/**
 * Failed logins, counted per user name AND client address together, and per
 * client address alone with a higher limit. Past a limit within
 * `windowSeconds`, attempts for that name from that address (or any attempt
 * from that address) are refused with 429 for `windowSeconds`, whatever
 * password they carry, so guessing cannot continue and a correct guess cannot
 * be told apart during the lock.
 *
 * There is deliberately no counter per name alone: it let anyone lock a user
 * out, Basic scripts included, by failing on purpose from anywhere (bug 17).
 * The price is that guessing one name from many addresses is limited per
 * address only. A successful login clears its pair's counter; of the address's
 * it only takes back its own attempt (one good account must not reset guessing
 * at others). Unknown names are counted like known ones, so a 429 reveals nothing.
 *
 * This one counts in the process's memory (the embedded default).
 */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly counters = new Map<string, Counter>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly limits: { pair: number; address: number };

  constructor(private readonly options: ThrottleOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    this.limits = throttleLimits(options);
  }

  async check(username: string, address: string): Promise<void> {
    this.checkNow(username, address);
  }

  private checkNow(username: string, address: string): void {
    const now = this.now();
    let until = 0;
    for (const { key } of keys(username, address)) {
      const c = this.counters.get(key);
      if (c && c.lockedUntil > now) until = Math.max(until, c.lockedUntil);
    }
    if (until > 0) throw lockedOut(until - now);
  }

  /**
   * Registers a login attempt before its password is checked: 429 while locked,
   * otherwise the attempt counts as a failure right away. Counting up front
   * matters: attempts sent in parallel would all pass a check made before any
   * of them failed. `succeeded` takes the count back.
   */
  async attempt(username: string, address: string): Promise<void> {
    this.checkNow(username, address);
    const now = this.now();
    const windowMs = this.options.windowSeconds * 1000;
    for (const { key, kind } of keys(username, address)) {
      let c = this.counters.get(key);
      if (!c || now - c.windowStart >= windowMs) c = { failures: 0, windowStart: now, lockedUntil: 0 };
      c.failures += 1;
      if (c.failures >= this.limits[kind]) c.lockedUntil = now + windowMs;
      // Re-inserting moves the key to the end, so the Map's first key is the least recently failed.
      this.counters.delete(key);
      this.counters.set(key, c);
    }
    while (this.counters.size > this.maxEntries) this.counters.delete(this.counters.keys().next().value!);
  }

  async succeeded(username: string, address: string): Promise<void> {
    const [pair, addr] = keys(username, address);
    this.counters.delete(pair.key);
    const c = this.counters.get(addr.key);
    if (!c) return;
    c.failures = Math.max(0, c.failures - 1);
    if (c.failures < this.limits.address) c.lockedUntil = 0;
  }

  async withdrawn(username: string, address: string): Promise<void> {
    for (const { key, kind } of keys(username, address)) {
      const c = this.counters.get(key);
      if (!c) continue;
      c.failures = Math.max(0, c.failures - 1);
      if (c.failures < this.limits[kind]) c.lockedUntil = 0;
    }
  }
}

/** The counters one attempt counts on: the pair's, then the address's. */
export function keys(username: string, address: string): [{ key: string; kind: 'pair' }, { key: string; kind: 'address' }] {
  // JSON keeps the two parts apart whatever characters they hold.
  return [{ key: `pair:${JSON.stringify([username, address])}`, kind: 'pair' }, { key: `addr:${address}`, kind: 'address' }];
}
