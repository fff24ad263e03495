import { withRedis, type RedisConnection } from '../../redis.js';
import { byOwnerAndName, recordKey, type PipelineRecord, type PipelineStore } from './store.js';

/**
 * Sets (or removes) the record when it is still the one the change was made from: compare-and-set.
 * KEYS: the hash. ARGV: field, the record read ('' for none), the new record ('' to delete). 1 done, 0 changed meanwhile.
 */
const SET_IF = `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
`;

/**
 * Pipelines in Redis (PDFSERVICE_REDIS_URL), shared by every instance: one hash `<prefix>pipelines`, field [owner,
 * name] as JSON, value the record as JSON. Every read goes to Redis, so a pipeline saved on one instance runs on the
 * others at once. A change is read, made and set by compare-and-set, tried again when another instance changed the
 * record in between.
 */
export class RedisPipelineStore implements PipelineStore {
  constructor(private readonly redis: RedisConnection) {}

  private get key(): string {
    return this.redis.key('pipelines');
  }

  async get(owner: string, name: string): Promise<PipelineRecord | null> {
    const text = await withRedis(() => this.redis.client.hget(this.key, recordKey(owner, name)));
    return text === null ? null : (JSON.parse(text) as PipelineRecord);
  }

  async list(): Promise<PipelineRecord[]> {
    const all = await withRedis(() => this.redis.client.hgetall(this.key));
    return Object.values(all).map((text) => JSON.parse(text) as PipelineRecord).sort(byOwnerAndName);
  }

  async update(owner: string, name: string, change: (current: PipelineRecord | null) => PipelineRecord | null): Promise<PipelineRecord | null> {
    const field = recordKey(owner, name);
    for (;;) {
      const previous = await withRedis(() => this.redis.client.hget(this.key, field));
      const next = change(previous === null ? null : (JSON.parse(previous) as PipelineRecord));
      const set = Number(await withRedis(() => this.redis.client.eval(SET_IF, 1, this.key, field, previous ?? '', next ? JSON.stringify(next) : '')));
      if (set === 1) return next;
      // Another instance changed this pipeline in between: read it again.
    }
  }
}
