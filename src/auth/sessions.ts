import { createHash, randomBytes } from 'node:crypto';
import type { StoreCredentials } from './types.js';

/** A live session. `stamp` identifies the password the user logged in with (see index.ts). */
export interface SessionRecord {
  username: string;
  stamp: string;
  /**
   * The DMS credentials of a passthrough login, gone with the session: in this process's memory only, or with
   * Redis sealed with the secrets key (redis-sessions.ts), never in plaintext outside the process.
   */
  credentials?: StoreCredentials | undefined;
  createdAt: number;
  lastUsedAt: number;
  absoluteExpiresAt: number;
}

/**
 * Where sessions live. Ids are handed to clients only: a store keeps what it
 * needs to find them again (the embedded one, a hash of the id).
 */
export interface SessionStore {
  /** A new session and its id (32 random bytes, base64url). */
  create(username: string, stamp: string, credentials?: StoreCredentials): Promise<{ id: string; session: SessionRecord }>;
  /** The live session with this id, its idle timer restarted; null when unknown or expired. */
  touch(id: string): Promise<SessionRecord | null>;
  delete(id: string): Promise<void>;
  /** Ends every session of a user (removed, or their password changed). */
  deleteUser(username: string): Promise<void>;
  close(): Promise<void>;
}

export interface SessionLimits {
  idleSeconds: number;
  maxSeconds: number;
}

/** When a session ends if unused from now on: the earlier of the idle and the absolute limit. */
export function expiresAt(session: Pick<SessionRecord, 'lastUsedAt' | 'absoluteExpiresAt'>, limits: SessionLimits): number {
  return Math.min(session.lastUsedAt + limits.idleSeconds * 1000, session.absoluteExpiresAt);
}

/** A user logging in again and again without logging out keeps at most this many sessions; the oldest end first. */
export const MAX_SESSIONS_PER_USER = 1000;

/** What a store keys a session by: the SHA-256 of its id, so the store holds nothing a client could present. */
export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/**
 * Sessions in this process's memory, the embedded default. They do not survive
 * a restart (everyone logs in again) and are not shared between processes;
 * RedisSessionStore (PDFSERVICE_REDIS_URL) is the shared one for several instances.
 *
 * Sessions are kept under the SHA-256 of their id, so the table itself holds
 * nothing a client could present. Expired sessions are refused when used and
 * swept periodically so that abandoned ones do not pile up.
 */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  /** Keys of each user's sessions, oldest first. */
  private readonly byUser = new Map<string, Set<string>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {
    const every = Math.min(60_000, Math.max(1000, limits.idleSeconds * 1000));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref(); // never keeps the process alive
  }

  async create(username: string, stamp: string, credentials?: StoreCredentials): Promise<{ id: string; session: SessionRecord }> {
    const id = randomBytes(32).toString('base64url');
    const key = sessionKey(id);
    const now = this.now();
    const session: SessionRecord = { username, stamp, ...(credentials ? { credentials } : {}), createdAt: now, lastUsedAt: now, absoluteExpiresAt: now + this.limits.maxSeconds * 1000 };
    this.sessions.set(key, session);
    let keys = this.byUser.get(username);
    if (!keys) this.byUser.set(username, (keys = new Set()));
    keys.add(key);
    if (keys.size > MAX_SESSIONS_PER_USER) this.drop(keys.values().next().value!);
    return { id, session: { ...session } };
  }

  async touch(id: string): Promise<SessionRecord | null> {
    const key = sessionKey(id);
    const session = this.sessions.get(key);
    if (!session) return null;
    const now = this.now();
    if (now >= expiresAt(session, this.limits)) {
      this.drop(key);
      return null;
    }
    session.lastUsedAt = now;
    return { ...session };
  }

  async delete(id: string): Promise<void> {
    this.drop(sessionKey(id));
  }

  async deleteUser(username: string): Promise<void> {
    for (const key of this.byUser.get(username) ?? []) this.sessions.delete(key);
    this.byUser.delete(username);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sessions.clear();
    this.byUser.clear();
  }

  private drop(key: string): void {
    const session = this.sessions.get(key);
    if (!session) return;
    this.sessions.delete(key);
    const keys = this.byUser.get(session.username);
    keys?.delete(key);
    if (keys?.size === 0) this.byUser.delete(session.username);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, session] of this.sessions) {
      if (now >= expiresAt(session, this.limits)) this.drop(key);
    }
  }
}
