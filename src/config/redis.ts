import { ConfigError, integer, type SettingsFeature } from './setting.js';

/** Redis, through which instances share state, locks and jobs (src/start/shared-state.ts). */
export interface RedisSettings {
  /** Sessions and login throttling shared through Redis when set (src/redis.ts); in memory when not. */
  redisUrl: string | undefined;
  redisPrefix: string;
  redisTimeoutMs: number;
  /** With Redis: a document lock's lease, and the longest wait for one (src/storage/redis-lock.ts). */
  lockLeaseMs: number;
  lockWaitMs: number;
}

/** A redis:// or rediss:// URL (user, password and database may be in it). */
const redisUrl = (raw: string): string => {
  const parsed = URL.parse(raw.trim());
  if (!parsed || !['redis:', 'rediss:'].includes(parsed.protocol) || !parsed.hostname) throw new ConfigError('must be a redis:// or rediss:// URL such as redis://:password@redis.example.com:6379/0');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw new ConfigError('names its database by number after the host (redis://host:6379/0)');
  return raw.trim();
};

/** A key prefix: printable, no spaces, so keys stay readable in redis-cli. */
const redisPrefix = (raw: string): string => {
  if (!/^[\x21-\x7e]{1,64}$/.test(raw)) throw new ConfigError('must be 1 to 64 printable characters without spaces');
  return raw;
};

export const REDIS: SettingsFeature<RedisSettings> = {
  settings: {
    redisUrl: {
      env: 'PDFSERVICE_REDIS_URL',
      doc: "A Redis (`redis://` or `rediss://` for TLS; password and database number in the URL, `redis://:password@host:6379/0`) through which several service instances share sessions, login throttling, document locks, users, API tokens, optimize profiles and background jobs ([docs/deployment.md](docs/deployment.md#redis); Redis must then persist its data); checked at start. Unset: sessions and throttling in memory, the rest in the data folder, one process. With `PDFSERVICE_WEBDAV_AUTH=passthrough` it needs `PDFSERVICE_SECRETS_KEY`, which seals the users' DMS passwords in Redis",
      default: undefined,
      parse: redisUrl,
    },
    redisPrefix: { env: 'PDFSERVICE_REDIS_PREFIX', doc: 'Every Redis key the service uses starts with this, so several services can share one Redis', default: 'pdfservice:', parse: redisPrefix },
    redisTimeoutMs: {
      env: 'PDFSERVICE_REDIS_TIMEOUT_MS',
      doc: 'Longest wait for a connection to Redis or an answer from it; past it the request is 503 `REDIS_UNAVAILABLE` with `Retry-After`',
      default: 2000,
      parse: integer(100, 60_000),
    },
    lockLeaseMs: {
      env: 'PDFSERVICE_LOCK_LEASE_MS',
      doc: "With Redis: how long a document lock lasts unless its instance renews it (every third of it while held); a crashed instance's locks are free after it ([docs/deployment.md](docs/deployment.md#document-locks))",
      default: 30_000,
      parse: integer(1000, 600_000),
    },
    lockWaitMs: {
      env: 'PDFSERVICE_LOCK_WAIT_MS',
      doc: 'With Redis: the longest a write waits for a document another request is changing; past it the request is 503 `DOCUMENT_LOCKED` with `Retry-After`',
      default: 60_000,
      parse: integer(100, 3_600_000),
    },
  },
};
