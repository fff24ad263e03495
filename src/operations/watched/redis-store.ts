import { withRedis, type RedisConnection } from '../../redis.js';
import { arrivalKey, bindingKey, type WatchBinding, type WatchRun, type WatchStore } from './store.js';

/**
 * Sets the field when it still holds the expected value ('' for none); the new value '' deletes it, and with a
 * second key given, that key too (a binding's runs go with it). 1 done, 0 changed meanwhile.
 */
const SET_IF = `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  if KEYS[2] then redis.call('DEL', KEYS[2]) end
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
return 1
`;

/** A run is set only while its binding exists (KEYS[2] the bindings hash, ARGV[4] its field), else as SET_IF. */
const SET_RUN_IF = `
if redis.call('HEXISTS', KEYS[2], ARGV[4]) == 0 then return 0 end
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/**
 * Bindings and runs in Redis, shared by every instance: one hash `<prefix>watched-folders` (field [owner, name]),
 * and one hash per binding `<prefix>watched-runs:[owner,name]` (field [document, ETag]). The claim of an arrival is
 * the run's creation by compare-and-set from nothing, in one script: of two instances claiming it, one wins.
 */
export class RedisWatchStore implements WatchStore {
  constructor(private readonly redis: RedisConnection) {}

  private get key(): string {
    return this.redis.key('watched-folders');
  }

  private runsKey(owner: string, name: string): string {
    return this.redis.key(`watched-runs:${bindingKey(owner, name)}`);
  }

  async get(owner: string, name: string): Promise<WatchBinding | null> {
    const text = await withRedis(() => this.redis.client.hget(this.key, bindingKey(owner, name)));
    return text === null ? null : (JSON.parse(text) as WatchBinding);
  }

  async list(): Promise<WatchBinding[]> {
    const all = await withRedis(() => this.redis.client.hgetall(this.key));
    return Object.values(all).map((text) => JSON.parse(text) as WatchBinding);
  }

  async replace(owner: string, name: string, expected: WatchBinding | null, next: WatchBinding | null): Promise<boolean> {
    const current = await withRedis(() => this.redis.client.hget(this.key, bindingKey(owner, name)));
    // Compared as records (the JSON read may order members otherwise than the one made here).
    if (JSON.stringify(current === null ? null : JSON.parse(current)) !== JSON.stringify(expected)) return false;
    const set = await withRedis(() => this.redis.client.eval(SET_IF, 2, this.key, this.runsKey(owner, name), bindingKey(owner, name), current ?? '', next ? JSON.stringify(next) : ''));
    return Number(set) === 1;
  }

  async runs(owner: string, name: string): Promise<WatchRun[]> {
    const all = await withRedis(() => this.redis.client.hgetall(this.runsKey(owner, name)));
    return Object.values(all).map((text) => JSON.parse(text) as WatchRun);
  }

  async replaceRun(owner: string, name: string, expected: WatchRun | null, next: WatchRun): Promise<boolean> {
    const field = arrivalKey(next.document, next.etag);
    const runs = this.runsKey(owner, name);
    const current = await withRedis(() => this.redis.client.hget(runs, field));
    if (JSON.stringify(current === null ? null : JSON.parse(current)) !== JSON.stringify(expected)) return false;
    const set = await withRedis(() => this.redis.client.eval(SET_RUN_IF, 2, runs, this.key, field, current ?? '', JSON.stringify(next), bindingKey(owner, name)));
    return Number(set) === 1;
  }

  async dropRuns(owner: string, name: string, drop: WatchRun[]): Promise<void> {
    if (drop.length === 0) return;
    await withRedis(() => this.redis.client.hdel(this.runsKey(owner, name), ...drop.map((r) => arrivalKey(r.document, r.etag))));
  }
}
