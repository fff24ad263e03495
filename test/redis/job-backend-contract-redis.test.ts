/**
 * The JobBackend contract against Redis with BullMQ (a real Redis, a fresh prefix per test): two backends on one
 * prefix stand for two processes; `a` runs shared jobs, `b` only queues them. Both with a secrets key, and once
 * without one (a job with a document password then stays on its process).
 */
import { randomBytes } from 'node:crypto';
import { RedisJobBackend } from '../../src/operations/jobs/redis-backend.js';
import { Sealer } from '../../src/secrets.js';
import { jobBackendContract } from '../helpers/job-backend-contract.js';
import { redisConnectionsForSuite, redisServerForSuite } from '../helpers/redis-server.js';

const redis = redisServerForSuite();
const { connect, freshPrefix } = redisConnectionsForSuite(redis, 'b');

for (const seals of [true, false]) {
  jobBackendContract(`RedisJobBackend (${seals ? 'with' : 'without'} a secrets key)`, async () => {
    const prefix = freshPrefix();
    const sealer = seals ? new Sealer(randomBytes(32)) : undefined;
    const options = { concurrency: 1, retentionMs: 60_000, heartbeatMs: 10_000, sealer };
    const a = new RedisJobBackend(await connect(prefix), { ...options, runJobs: true });
    const b = new RedisJobBackend(await connect(prefix), { ...options, runJobs: false });
    return {
      a,
      b,
      sharedQueue: true,
      seals,
      close: async () => {
        await a.close();
        await b.close();
      },
    };
  });
}
