import { randomBytes } from 'node:crypto';
import type { RedisServer } from './redis-server.js';
import type { S3Server } from './s3-server.js';
import { ADMIN } from './server.js';

/**
 * The settings every process of a test cluster shares (docs/deployment.md): one Redis under its own prefix, one S3
 * bucket prefix, one secrets key (so document passwords go on the shared queue sealed), the same first admin, and
 * X-Forwarded-* trusted from the balancer. Used by the cluster tests and bench/cluster.ts.
 */
export function clusterEnv(redis: RedisServer, s3: S3Server, options: { redisPrefix: string; s3Prefix: string; s3TimeoutMs: number }): Record<string, string> {
  return {
    PDFSERVICE_REDIS_URL: redis.url,
    PDFSERVICE_REDIS_PREFIX: options.redisPrefix,
    PDFSERVICE_SECRETS_KEY: randomBytes(32).toString('hex'),
    PDFSERVICE_STORE: 's3',
    PDFSERVICE_S3_ENDPOINT: s3.endpoint,
    PDFSERVICE_S3_REGION: s3.region,
    PDFSERVICE_S3_BUCKET: s3.buckets[0]!,
    PDFSERVICE_S3_PREFIX: options.s3Prefix,
    PDFSERVICE_S3_ACCESS_KEY_ID: s3.accessKeyId,
    PDFSERVICE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    PDFSERVICE_S3_TIMEOUT_MS: String(options.s3TimeoutMs),
    PDFSERVICE_TRUST_PROXY: 'true',
    PDFSERVICE_ADMIN_USER: ADMIN.username,
    PDFSERVICE_ADMIN_PASSWORD: ADMIN.password,
  };
}
