import { withRedis, type RedisConnection } from '../redis.js';
import { MAX_PENDING_SIGNINS, pendingKey, type PendingSignIn, type PendingSignInStore } from './oidc-pending.js';

/**
 * Pending sign-ins through the OpenID Connect issuer in Redis (PDFSERVICE_REDIS_URL), shared by every instance on the
 * same Redis and prefix, so a sign-in begun on one instance finishes on any: `<prefix>oidc-signin:<sha256(state)>`
 * holds it with a TTL that ends it when it expires, and GETDEL takes it, so of two callbacks with one state (a replay,
 * even at the same moment on two instances) one gets it. `<prefix>oidc-signins`, a sorted set by expiry, bounds how
 * many are pending as the memory store does (anyone may begin one): past MAX_PENDING_SIGNINS the oldest go.
 *
 * The code verifier is kept in plaintext, as the memory store keeps it: alone it is useless (a code is also needed,
 * which only the person's browser carries, and the client secret, which never leaves the instances' settings).
 */
export class RedisPendingSignIns implements PendingSignInStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = Date.now,
  ) {}

  private recordKey(hash: string): string {
    return this.redis.key('oidc-signin', hash);
  }

  private get indexKey(): string {
    return this.redis.key('oidc-signins');
  }

  async put(state: string, pending: PendingSignIn): Promise<void> {
    const hash = pendingKey(state);
    const now = this.now();
    await withRedis(async () => {
      const results = await this.redis.client
        .multi()
        .set(this.recordKey(hash), JSON.stringify(pending), 'PX', Math.max(1, pending.expiresAt - now))
        // Entries of sign-ins past their end are surely gone: they do not count.
        .zremrangebyscore(this.indexKey, '-inf', now)
        .zadd(this.indexKey, pending.expiresAt, hash)
        .pexpire(this.indexKey, Math.max(1, pending.expiresAt - now))
        .zcard(this.indexKey)
        .exec();
      const count = Number(results?.[4]?.[1] ?? 0);
      if (count > MAX_PENDING_SIGNINS) {
        // ZPOPMIN takes each of the oldest once, even when two instances trim at the same moment.
        const popped = await this.redis.client.zpopmin(this.indexKey, count - MAX_PENDING_SIGNINS);
        const hashes = popped.filter((_, i) => i % 2 === 0);
        if (hashes.length > 0) await this.redis.client.del(...hashes.map((h) => this.recordKey(h)));
      }
    });
  }

  async take(state: string): Promise<PendingSignIn | null> {
    const hash = pendingKey(state);
    return withRedis(async () => {
      const results = await this.redis.client.multi().getdel(this.recordKey(hash)).zrem(this.indexKey, hash).exec();
      const text = results?.[0]?.[1];
      return typeof text === 'string' ? (JSON.parse(text) as PendingSignIn) : null;
    });
  }
}
