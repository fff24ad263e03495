import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { readStateList, serialStateWriter } from '../state-file.js';
import { RIGHTS, type Principal, type Right, type TokenAdmin, type TokenView } from './types.js';
import { normalizeRights, type StoredUser, type UserStore } from './users.js';

/**
 * Where API tokens live, with the rules every store keeps: the file below,
 * or Redis (redis-tokens.ts) when instances share them.
 */
export interface TokenStore extends TokenAdmin {
  /** The user a presented token acts for, with its rights now; 401 when unknown, revoked or expired. */
  authenticate(presented: string): Promise<Principal>;
  /** Removes every token of a removed user. */
  removeUser(username: string): Promise<void>;
  /** Writes pending last-use times. */
  close(): Promise<void>;
}

/** A token as stored: the SHA-256 of its secret, never the secret. */
export interface StoredToken {
  id: string;
  hash: string;
  username: string;
  /** The owner's createdAt: a user removed and created again under the same name does not inherit tokens. */
  userCreatedAt: string;
  name: string;
  rights: Right[] | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

interface TokensFile {
  version: 1;
  tokens: StoredToken[];
}

/**
 * `pdfs_<id>_<secret>`: the id (8 random bytes, hex) finds the record, the
 * secret (32 random bytes, base64url) proves possession. 256 bits of secret
 * need no slow hash: the stored SHA-256 cannot be reversed, and it is compared
 * in constant time. The prefix lets secret scanners recognise leaked tokens.
 */
export const TOKEN_RE = /^pdfs_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
export const TOKEN_NAME_MAX = 100;
export const MAX_TOKENS_PER_USER = 100;
/** Last-use times are written at most this often: every request must not rewrite the file. */
export const LAST_USED_FLUSH_MS = 60_000;

export function hashOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function toView(t: StoredToken): TokenView {
  return {
    id: t.id,
    name: t.name,
    rights: t.rights ? [...t.rights] : null,
    createdAt: new Date(t.createdAt),
    expiresAt: t.expiresAt ? new Date(t.expiresAt) : null,
    lastUsedAt: t.lastUsedAt ? new Date(t.lastUsedAt) : null,
  };
}

export function notFound(id: string): ServiceError {
  return new ServiceError('TOKEN_NOT_FOUND', `You have no API token with id ${JSON.stringify(id)}`);
}

/** A 401 for a Bearer token; the challenge tells clients the token, not the request, is at fault (RFC 6750). */
/** Whether a bearer token is one of ours rather than for OpenID Connect: API tokens start with `pdfs_`, everything else is a JWT. */
export function isApiToken(token: string): boolean {
  return token.startsWith('pdfs_');
}

export function tokenRefused(code: 'INVALID_CREDENTIALS' | 'TOKEN_EXPIRED' | 'OIDC_TOKEN_INVALID' | 'OIDC_TOKEN_EXPIRED', detail: string): ServiceError {
  return new ServiceError(code, detail, undefined, { 'WWW-Authenticate': 'Bearer realm="pdfservice", error="invalid_token"' });
}

export function tooManyTokens(): ServiceError {
  return new ServiceError('BAD_REQUEST', `A user has at most ${MAX_TOKENS_PER_USER} API tokens; revoke one first`);
}

/**
 * Checks a request to create a token (the rules of every store) and makes its
 * record and secret; the store then keeps the record if the owner has room.
 */
export async function newToken(users: UserStore, owner: Principal, input: { name: string; expiresAt?: Date; rights?: Right[] }): Promise<{ record: StoredToken; token: string }> {
  if (owner.via === 'token') {
    // A leaked token must not be able to mint others that outlive its revocation.
    throw new ServiceError('FORBIDDEN', 'API tokens cannot create tokens: log in with your password (session or Basic)');
  }
  if (owner.via === 'oidc') {
    // The issuer decides how long its users may act; a token of ours would outlive that decision (docs/oidc.md).
    throw new ServiceError('FORBIDDEN', 'API tokens are for service users: an OpenID Connect user asks the issuer for a new access token instead');
  }
  const user = await users.find(owner.username);
  if (!user && owner.storeCredentials) {
    // A user of the DMS only (passthrough): a token would carry no DMS credentials, so it could reach no document
    // (docs/dms.md); 403 says so, where 401 made clients take their own login for wrong.
    throw new ServiceError('FORBIDDEN', `API tokens are for service users: ${JSON.stringify(owner.username)} signs in through the DMS, and a token cannot carry DMS credentials. Scripts send HTTP Basic with the DMS name and password instead, or an administrator creates a service user with a mapped DMS account (docs/dms.md)`);
  }
  if (!user) throw tokenRefused('INVALID_CREDENTIALS', 'The user no longer exists');
  const name = input.name.trim();
  if (name.length === 0 || name.length > TOKEN_NAME_MAX) throw new ServiceError('VALIDATION_FAILED', `A token name has 1 to ${TOKEN_NAME_MAX} characters`);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new ServiceError('VALIDATION_FAILED', 'expiresAt must lie in the future');
  const rights = input.rights === undefined ? null : normalizeRights(input.rights);
  const missing = (rights ?? []).filter((r) => !user.rights.includes(r));
  if (missing.length > 0) {
    throw new ServiceError('FORBIDDEN', `A token can only have rights its user has; you lack ${missing.join(', ')}`, { requiredRight: missing[0] });
  }
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const record: StoredToken = {
    id,
    hash: hashOf(secret).toString('base64url'),
    username: user.username,
    userCreatedAt: user.createdAt,
    name,
    rights,
    createdAt: new Date().toISOString(),
    expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
    lastUsedAt: null,
  };
  return { record, token: `pdfs_${id}_${secret}` };
}

/** The rights a token has now: its own (or all) that its user still has. */
function tokenRights(t: StoredToken, user: StoredUser): Right[] {
  return RIGHTS.filter((r) => user.rights.includes(r) && (t.rights === null || t.rights.includes(r)));
}

/**
 * What every store does with a token whose secret matched: refused once expired, refused (and its user's tokens
 * dropped) when its user was removed or made again under the name; else the principal it acts as, with the rights
 * it has now.
 */
export async function principalOfToken(t: StoredToken, users: UserStore, removeUser: (username: string) => Promise<void>, now: number): Promise<Principal> {
  if (t.expiresAt && Date.parse(t.expiresAt) <= now) {
    throw tokenRefused('TOKEN_EXPIRED', `The API token "${t.name}" expired at ${t.expiresAt}; create a new one`);
  }
  const user: StoredUser | undefined = await users.find(t.username);
  if (!user || user.createdAt !== t.userCreatedAt) {
    // Its user was removed (perhaps by the CLI, or as another instance went down before removing the tokens).
    await removeUser(t.username).catch(() => undefined);
    throw tokenRefused('INVALID_CREDENTIALS', 'The API token is unknown or has been revoked');
  }
  return { username: user.username, rights: tokenRights(t, user), via: 'token', tokenId: t.id };
}

/**
 * Last-use times are written at most once a minute, not at every request: `soon()` asks for a write within
 * LAST_USED_FLUSH_MS, `close()` writes what is pending now. One home for both token stores.
 */
export class LastUseWriter {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: () => Promise<void>,
    /** Where the times go, for the warning when a write fails. */
    private readonly where: string,
  ) {}

  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write().catch((err: unknown) => process.emitWarning(`pdfservice: could not record API token use in ${this.where} (${(err as Error).message})`));
    }, LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    await this.write().catch(() => undefined);
  }
}

/**
 * API tokens in `<dataDir>/state/tokens.json` (mode 0600), kept in memory and
 * written atomically on every change, one write at a time. Only this process
 * writes the file (the users CLI does not touch tokens): a token whose user the
 * CLI removed is refused and dropped at its next use, and at the next start.
 */
export class FileTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredToken>();
  private readonly write: (text: () => string) => Promise<void>;
  private readonly lastUse: LastUseWriter;

  private constructor(
    private readonly file: string,
    private readonly users: UserStore,
  ) {
    this.write = serialStateWriter(file);
    this.lastUse = new LastUseWriter(() => this.save(), file);
  }

  static async open(dataDir: string, users: UserStore): Promise<FileTokenStore> {
    const store = new FileTokenStore(path.join(dataDir, 'state', 'tokens.json'), users);
    for (const t of (await readStateList<TokensFile['tokens'][number]>(store.file, 'tokens', 'tokens')) ?? []) store.tokens.set(t.id, t);
    // Tokens of users removed while the service was stopped (by the CLI) go now.
    let stale = false;
    for (const t of [...store.tokens.values()]) {
      const user = await users.find(t.username);
      if (!user || user.createdAt !== t.userCreatedAt) stale = store.tokens.delete(t.id);
    }
    if (stale) await store.save();
    return store;
  }

  async create(owner: Principal, input: { name: string; expiresAt?: Date; rights?: Right[] }): Promise<{ token: string; view: TokenView }> {
    let made = await newToken(this.users, owner, input);
    if (this.ownedBy(made.record.username).length >= MAX_TOKENS_PER_USER) throw tooManyTokens();
    // 64 random bits: a clash is all but impossible, but the id must find one record.
    while (this.tokens.has(made.record.id)) made = await newToken(this.users, owner, input);
    const { record, token } = made;
    this.tokens.set(record.id, record);
    try {
      await this.save();
    } catch (err) {
      this.tokens.delete(record.id);
      throw err;
    }
    return { token, view: toView(record) };
  }

  async list(username: string): Promise<TokenView[]> {
    return this.ownedBy(username).map(toView);
  }

  async get(username: string, id: string): Promise<TokenView> {
    const t = this.tokens.get(id);
    if (!t || t.username !== username) throw notFound(id);
    return toView(t);
  }

  async revoke(username: string, id: string): Promise<void> {
    const t = this.tokens.get(id);
    if (!t || t.username !== username) throw notFound(id);
    this.tokens.delete(id);
    await this.save();
  }

  async removeUser(username: string): Promise<void> {
    const owned = this.ownedBy(username);
    if (owned.length === 0) return;
    for (const t of owned) this.tokens.delete(t.id);
    await this.save();
  }

  /**
   * The user a presented token acts for, and the rights it has now: the
   * token's rights (or all) intersected with the user's current rights, so a
   * right taken from the user is gone from their tokens at once.
   */
  async authenticate(presented: string): Promise<Principal> {
    const match = TOKEN_RE.exec(presented);
    const t = match ? this.tokens.get(match[1]!) : undefined;
    const stored = t ? Buffer.from(t.hash, 'base64url') : undefined;
    if (!t || !stored || !timingSafeEqual(stored, hashOf(match![2]!))) {
      throw tokenRefused('INVALID_CREDENTIALS', 'The API token is unknown or has been revoked');
    }
    const now = Date.now();
    const principal = await principalOfToken(t, this.users, (username) => this.removeUser(username), now);
    t.lastUsedAt = new Date(now).toISOString();
    this.lastUse.soon();
    return principal;
  }

  /** Writes pending last-use times. */
  close(): Promise<void> {
    return this.lastUse.close();
  }

  private ownedBy(username: string): StoredToken[] {
    return [...this.tokens.values()].filter((t) => t.username === username).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Writes the whole table as it is when the write starts; writes never interleave. */
  private save(): Promise<void> {
    return this.write(() => `${JSON.stringify({ version: 1, tokens: [...this.tokens.values()] } satisfies TokensFile, null, 2)}\n`);
  }
}
