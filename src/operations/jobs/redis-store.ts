import { withRedis, type RedisConnection } from '../../redis.js';
import type { JobRecord, JobState } from './model.js';
import { compareJobs, isJobId, matchesJobFilter, type JobFilter, type JobStore } from './store.js';

/** Replaces a job's record only if its stored state is one of ARGV[2..]: the step two processes may race for. */
const REPLACE_IF_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local state = cjson.decode(current).state
for i = 2, #ARGV do
  if ARGV[i] == state then
    redis.call('SET', KEYS[1], ARGV[1])
    return 1
  end
end
return 0`;

/**
 * Job records in Redis (PDFSERVICE_REDIS_URL), shared by every instance and
 * worker: one string per job (its JSON), a set of all job ids and a set per
 * owner, so any instance lists, shows and sweeps any job. A record and its
 * set memberships change in one MULTI, so a list never names a job whose
 * record was not written. Deleting is idempotent, so the retention sweep may
 * run on every instance at once. A Redis that cannot be reached is 503
 * REDIS_UNAVAILABLE (withRedis).
 */
export class RedisJobStore implements JobStore {
  constructor(private readonly redis: RedisConnection) {}

  private recordKey(id: string): string {
    return this.redis.key('job', id);
  }

  private allKey(): string {
    return this.redis.key('jobs', 'all');
  }

  /** Owner names may hold any character; JSON keeps null apart from the name "null". */
  private ownerKey(owner: string | null): string {
    return this.redis.key('jobs', 'owner', JSON.stringify(owner));
  }

  put(record: JobRecord): Promise<void> {
    if (!isJobId(record.id)) return Promise.reject(new Error(`Not a job id: ${JSON.stringify(record.id)}`));
    const json = JSON.stringify(record);
    return withRedis(async () => {
      const previous = await this.read(record.id);
      const tx = this.redis.client.multi().set(this.recordKey(record.id), json).sadd(this.allKey(), record.id).sadd(this.ownerKey(record.owner), record.id);
      // A replacement under another owner (never done by the service, allowed by the interface) leaves the old owner's set.
      if (previous && previous.owner !== record.owner) tx.srem(this.ownerKey(previous.owner), record.id);
      await tx.exec();
    });
  }

  get(id: string): Promise<JobRecord | null> {
    if (!isJobId(id)) return Promise.resolve(null);
    return withRedis(() => this.read(id));
  }

  list(filter?: JobFilter): Promise<JobRecord[]> {
    return withRedis(async () => {
      const ids = await this.redis.client.smembers(filter?.owner !== undefined ? this.ownerKey(filter.owner) : this.allKey());
      if (ids.length === 0) return [];
      const raw = await this.redis.client.mget(ids.map((id) => this.recordKey(id)));
      const records = raw.filter((json): json is string => json !== null).map((json) => JSON.parse(json) as JobRecord);
      return records.filter((record) => matchesJobFilter(record, filter)).sort(compareJobs);
    });
  }

  delete(id: string): Promise<void> {
    if (!isJobId(id)) return Promise.resolve();
    return withRedis(async () => {
      const previous = await this.read(id);
      const tx = this.redis.client.multi().del(this.recordKey(id)).srem(this.allKey(), id);
      if (previous) tx.srem(this.ownerKey(previous.owner), id);
      await tx.exec();
    });
  }

  /** One script, so the check and the write are one step for every process. The owner stays (the sets need no change). */
  replaceIf(record: JobRecord, from: readonly JobState[]): Promise<boolean> {
    if (!isJobId(record.id)) return Promise.resolve(false);
    return withRedis(async () => (await this.redis.client.eval(REPLACE_IF_SCRIPT, 1, this.recordKey(record.id), JSON.stringify(record), ...from)) === 1);
  }

  private async read(id: string): Promise<JobRecord | null> {
    const json = await this.redis.client.get(this.recordKey(id));
    return json === null ? null : (JSON.parse(json) as JobRecord);
  }
}
