import { createHash } from 'node:crypto';
import { withRedis, type RedisConnection } from '../redis.js';
import { keys, lockedOut, throttleLimits, type LoginThrottle, type ThrottleOptions } from './throttle.js';

/*
 * The counters are hashes { failures, windowStart, lockedUntil } (milliseconds
 * of Redis's clock, TIME, so instances whose clocks differ agree), each
 * expiring when its window and its lock have both passed. Each call is one
 * script, so attempts arriving at once on several instances are each counted.
 */

/** Redis's clock in milliseconds: every instance counts on the same one. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** The latest lock of the two counters still running, as `locked` (0: none). */
const LOCKED = `
local locked = 0
for i = 1, 2 do
  local l = redis.call('HGET', KEYS[i], 'lockedUntil')
  l = l and tonumber(l) or 0
  if l > now and l > locked then locked = l end
end
`;

/** Milliseconds the pair or the address stays locked; 0 when neither is. */
const CHECK = `${NOW}${LOCKED}
if locked > 0 then return locked - now end
return 0
`;

/** As CHECK, and when not locked, one more failure on both counters (ARGV: window ms, pair limit, address limit). */
const ATTEMPT = `${NOW}${LOCKED}
if locked > 0 then return locked - now end
local window = tonumber(ARGV[1])
for i = 1, 2 do
  local c = redis.call('HMGET', KEYS[i], 'failures', 'windowStart')
  local failures = c[1] and tonumber(c[1]) or 0
  local start = c[2] and tonumber(c[2]) or now
  if now - start >= window then
    failures = 0
    start = now
  end
  failures = failures + 1
  local lockedUntil = 0
  if failures >= tonumber(ARGV[i + 1]) then lockedUntil = now + window end
  redis.call('HSET', KEYS[i], 'failures', failures, 'windowStart', start, 'lockedUntil', lockedUntil)
  redis.call('PEXPIREAT', KEYS[i], math.max(start + window, lockedUntil))
end
return 0
`;

/** Clears the pair's counter and takes one failure back from the address's (ARGV: address limit). */
const SUCCEEDED = `
redis.call('DEL', KEYS[1])
local f = redis.call('HGET', KEYS[2], 'failures')
if not f then return 0 end
local failures = math.max(0, tonumber(f) - 1)
redis.call('HSET', KEYS[2], 'failures', failures)
if failures < tonumber(ARGV[1]) then redis.call('HSET', KEYS[2], 'lockedUntil', 0) end
return 0
`;

/** One failure taken back from each counter, unlocking one that falls under its limit (ARGV: pair limit, address limit). */
const WITHDRAWN = `
for i = 1, 2 do
  local f = redis.call('HGET', KEYS[i], 'failures')
  if f then
    local failures = math.max(0, tonumber(f) - 1)
    redis.call('HSET', KEYS[i], 'failures', failures)
    if failures < tonumber(ARGV[i]) then redis.call('HSET', KEYS[i], 'lockedUntil', 0) end
  end
end
return 0
`;

/**
 * LoginThrottle shared through Redis (PDFSERVICE_REDIS_URL): the same rules as
 * MemoryLoginThrottle (throttle.ts), counted across every instance, so
 * failures split over instances lock a name and address out on all of them.
 * Keys are `<prefix>login:<SHA-256 of the counter's name>`: a user name typed
 * wrong (a password in the name field) is not kept readable in Redis. Expiry
 * bounds their number, so there is no maxEntries.
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly limits: { pair: number; address: number };
  private readonly windowMs: number;

  constructor(
    private readonly redis: RedisConnection,
    options: Pick<ThrottleOptions, 'maxFailures' | 'maxAddressFailures' | 'windowSeconds'>,
  ) {
    this.limits = throttleLimits(options);
    this.windowMs = options.windowSeconds * 1000;
  }

  private keys(username: string, address: string): [string, string] {
    const [pair, addr] = keys(username, address);
    const hashed = (name: string) => this.redis.key('login', createHash('sha256').update(name).digest('base64url'));
    return [hashed(pair.key), hashed(addr.key)];
  }

  async check(username: string, address: string): Promise<void> {
    const ms = await withRedis(() => this.redis.client.eval(CHECK, 2, ...this.keys(username, address)));
    if (Number(ms) > 0) throw lockedOut(Number(ms));
  }

  async attempt(username: string, address: string): Promise<void> {
    const ms = await withRedis(() => this.redis.client.eval(ATTEMPT, 2, ...this.keys(username, address), this.windowMs, this.limits.pair, this.limits.address));
    if (Number(ms) > 0) throw lockedOut(Number(ms));
  }

  async succeeded(username: string, address: string): Promise<void> {
    await withRedis(() => this.redis.client.eval(SUCCEEDED, 2, ...this.keys(username, address), this.limits.address));
  }

  async withdrawn(username: string, address: string): Promise<void> {
    await withRedis(() => this.redis.client.eval(WITHDRAWN, 2, ...this.keys(username, address), this.limits.pair, this.limits.address));
  }
}
