import { createHash } from 'node:crypto';

/**
 * Sign-ins through the OpenID Connect issuer begun and not finished (docs/oidc.md, "Console sign-in"): what the start
 * made (nonce, PKCE code verifier, the hash of the browser's binding cookie), found again at the callback by its state,
 * once. In this process's memory by default; in Redis with PDFSERVICE_REDIS_URL (redis-oidc-pending.ts), so the
 * callback may reach another instance than the start. The sign-in itself (oidc-signin.ts) is the same over both.
 */
export interface PendingSignIn {
  nonce: string;
  codeVerifier: string;
  /** SHA-256 of the browser binding cookie, base64url: the state is only good in the browser that began the sign-in. */
  binding: string;
  /** Epoch ms after which the sign-in must begin again. */
  expiresAt: number;
}

export interface PendingSignInStore {
  /** Keeps a sign-in under its state until `pending.expiresAt`; past `MAX_PENDING_SIGNINS` the oldest are forgotten. */
  put(state: string, pending: PendingSignIn): Promise<void>;
  /** The sign-in of this state, forgotten at once (a state is good once, also when two instances are asked together); null when unknown or gone. */
  take(state: string): Promise<PendingSignIn | null>;
}

/** Sign-ins under way at most; past it the oldest are forgotten (anyone may begin one, so the table is bounded). */
export const MAX_PENDING_SIGNINS = 10_000;

/** What a store keys a sign-in by: the SHA-256 of its state, so the store holds no state a browser could bring. */
export function pendingKey(state: string): string {
  return createHash('sha256').update(state).digest('base64url');
}

/** The embedded store: a Map in order of creation, so of expiry (every sign-in has the same lifetime). */
export class MemoryPendingSignIns implements PendingSignInStore {
  private readonly pending = new Map<string, PendingSignIn>();

  constructor(private readonly now: () => number = Date.now) {}

  async put(state: string, pending: PendingSignIn): Promise<void> {
    const now = this.now();
    for (const [key, old] of this.pending) {
      if (old.expiresAt > now) break;
      this.pending.delete(key);
    }
    this.pending.set(pendingKey(state), pending);
    while (this.pending.size > MAX_PENDING_SIGNINS) this.pending.delete(this.pending.keys().next().value!);
  }

  async take(state: string): Promise<PendingSignIn | null> {
    const key = pendingKey(state);
    const pending = this.pending.get(key);
    this.pending.delete(key);
    return pending ?? null;
  }
}
