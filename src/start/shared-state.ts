import type { Config } from '../config.js';
import type { SessionStore } from '../auth/sessions.js';
import type { LoginThrottle } from '../auth/throttle.js';
import type { PendingSignInStore } from '../auth/oidc-pending.js';
import type { UserStore } from '../auth/users.js';
import type { TokenStore } from '../auth/tokens.js';
import type { OptimizeProfileStore } from '../operations/optimize/store.js';
import type { PipelineStore } from '../operations/pipelines/store.js';
import type { WatchStore } from '../operations/watched/store.js';
import { Sealer } from '../secrets.js';
// ioredis and the Redis stores are imported only when PDFSERVICE_REDIS_URL is set (see start/stores.ts).
import type { RedisConnection } from '../redis.js';
import type { Imported } from './redis-import.js';
import { loadSecretsKey, StartupError } from './startup.js';

export interface SharedState {
  redis?: RedisConnection;
  /** Seals secrets put in Redis; present when PDFSERVICE_SECRETS_KEY (or its file) is set. */
  sealer?: Sealer;
  sessionStore?: SessionStore;
  throttle?: LoginThrottle;
  /** Sign-ins through the OpenID Connect issuer under way (docs/oidc.md): begun on one instance, finished on any. */
  pendingSignIns?: PendingSignInStore;
  userStore?: UserStore;
  tokenStore?: (users: UserStore) => TokenStore;
  profiles?: OptimizeProfileStore;
  pipelines?: PipelineStore;
  /** Watched folders' bindings and runs (docs/watched-folders.md). */
  watched?: WatchStore;
  /** What was copied from the data folder into Redis at this start. */
  imported?: Imported;
}

/**
 * With PDFSERVICE_REDIS_URL, sessions, sign-ins through the OpenID Connect issuer under way, login throttling, users, API tokens,
 * optimize profiles and pipelines live in Redis so that every instance using it shares them
 * (the data folder's users, tokens and profiles are copied into a Redis that
 * has none); without it, sessions and throttling stay in memory and the rest in
 * the data folder, as the one embedded process always did. A Redis that cannot
 * be reached at start stops the start with one line.
 */
export async function openSharedState(config: Config, mode: 'service' | 'worker'): Promise<SharedState> {
  if (!config.redisUrl) return {};
  const [{ connectRedis }, { RedisProfileStore }, { RedisUserStore }, { RedisTokenStore }, { RedisSessionStore }, { RedisLoginThrottle }, { importLocalState }, { RedisPipelineStore }, { RedisWatchStore }, { RedisPendingSignIns }] = await Promise.all([
    import('../redis.js'),
    import('../operations/optimize/redis-store.js'),
    import('../auth/redis-users.js'),
    import('../auth/redis-tokens.js'),
    import('../auth/redis-sessions.js'),
    import('../auth/redis-throttle.js'),
    import('./redis-import.js'),
    import('../operations/pipelines/redis-store.js'),
    import('../operations/watched/redis-store.js'),
    import('../auth/redis-oidc-pending.js'),
  ]);
  let redis: RedisConnection;
  try {
    redis = await connectRedis({ url: config.redisUrl, prefix: config.redisPrefix, timeoutMs: config.redisTimeoutMs });
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  try {
    // Passthrough sessions carry DMS passwords: loadConfig made the key a requirement then; sealed with it in Redis.
    const sealer = config.secretsKey || config.secretsKeyFile ? new Sealer(await loadSecretsKey(config)) : undefined;
    // A worker serves no requests: it reads optimize profiles (OptimizeAction) and users' webhook secrets (a job it ends
    // delivers its webhook), never tokens or sessions, and its data folder is scratch space, not state to copy into Redis.
    if (mode === 'worker') return { redis, profiles: new RedisProfileStore(redis), userStore: new RedisUserStore(redis), ...(sealer ? { sealer } : {}) };
    const limits = { idleSeconds: config.sessionIdleSeconds, maxSeconds: config.sessionMaxSeconds };
    const userStore = new RedisUserStore(redis);
    const tokenStore = new RedisTokenStore(redis, userStore);
    const profiles = new RedisProfileStore(redis);
    const imported = await importLocalState(config.dataDir, { users: userStore, tokens: tokenStore, profiles });
    return {
      redis,
      userStore,
      tokenStore: () => tokenStore,
      profiles,
      pipelines: new RedisPipelineStore(redis),
      watched: new RedisWatchStore(redis),
      imported,
      ...(sealer ? { sealer } : {}),
      sessionStore: new RedisSessionStore(redis, limits, sealer),
      throttle: new RedisLoginThrottle(redis, { maxFailures: config.loginMaxFailures, windowSeconds: config.loginLockoutSeconds }),
      pendingSignIns: new RedisPendingSignIns(redis),
    };
  } catch (err) {
    await redis.close();
    throw err;
  }
}
