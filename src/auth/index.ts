import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';
// The OpenID Connect verifier (and jose, about 0.1 s of CPU to load) only when an issuer is configured.
import type { OidcVerifier } from './oidc.js';
import { OidcSignIn } from './oidc-signin.js';
import type { PendingSignInStore } from './oidc-pending.js';
import { generatePassword } from './passwords.js';
import { expiresAt, MemorySessionStore, type SessionLimits, type SessionRecord, type SessionStore } from './sessions.js';
import { MemoryLoginThrottle, type LoginThrottle } from './throttle.js';
import { FileTokenStore, isApiToken, tokenRefused, type TokenStore } from './tokens.js';
import { RIGHTS, type Auth, type ExternalDirectory, type Principal, type Right, type SessionView, type StoreCredentials, type TokenAdmin, type UserAdmin } from './types.js';
import { FileUserStore, UserService, validatePassword, validateUsername, type StoredUser, type UserStore } from './users.js';

/**
 * Identifies the password a user has now without being usable as one. A session
 * remembers the stamp it was opened with: when the password changes (here or
 * through the CLI) the stamps differ and the session ends.
 */
function stampOf(user: StoredUser): string {
  const known = stamps.get(user);
  if (known?.hash === user.passwordHash) return known.stamp;
  const stamp = createHash('sha256').update(user.passwordHash).digest('base64url').slice(0, 22);
  stamps.set(user, { hash: user.passwordHash, stamp });
  return stamp;
}

/**
 * Stamps by user record, with the hash they were made of: every request with Basic credentials or a session compares
 * one, and a user store hands out the same record until it changes.
 */
const stamps = new WeakMap<StoredUser, { hash: string; stamp: string }>();

function invalidCredentials(): ServiceError {
  return new ServiceError('INVALID_CREDENTIALS', 'The user name or password is wrong');
}

/** Who a name and password turned out to be: a service user, or a user of the external directory (the DMS). */
interface Verified {
  username: string;
  /** The service user's password stamp, or DIRECTORY_STAMP for a directory login. */
  stamp: string;
  credentials?: StoreCredentials;
}

/**
 * The stamp of a session opened with directory credentials: the directory
 * checks the password on every request the store makes, so the session does
 * not follow the service user's password.
 */
const DIRECTORY_STAMP = 'directory';

/**
 * The stamp of a session opened through the OpenID Connect issuer (the console's sign-in): this prefix and the rights
 * the mapping gave at sign-in, comma-separated. Such a user has no password to follow; the session keeps those rights
 * until it ends (a changed mapping or changed claims apply at the next sign-in), and ends if a service user of the
 * same name appears.
 */
const OIDC_STAMP = 'oidc:';

const oidcRights = (stamp: string): Right[] => {
  const held = new Set(stamp.slice(OIDC_STAMP.length).split(','));
  return RIGHTS.filter((r) => held.has(r));
};

/**
 * HTTP Basic sends the password with every request; running scrypt (or asking
 * the DMS) each time would cost that per request. A successful check is
 * remembered for a minute under an HMAC of name and password (keyed with a
 * random per-process key, so the cache holds nothing reusable elsewhere),
 * tied to the user's current password stamp: a changed password or a removed
 * user misses. A directory login is remembered for the minute only.
 */
class VerifiedCredentials {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, { verified: Verified; until: number }>();
  private static readonly TTL_MS = 60_000;
  private static readonly MAX = 1000;

  id(username: string, password: string): string {
    return createHmac('sha256', this.key).update(username).update('\0').update(password).digest('base64url');
  }

  get(username: string, password: string, current: StoredUser | undefined): Verified | undefined {
    const id = this.id(username, password);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const stampHolds = entry.verified.stamp === DIRECTORY_STAMP || (current !== undefined && entry.verified.stamp === stampOf(current));
    if (entry.until > Date.now() && stampHolds) return entry.verified;
    this.entries.delete(id);
    return undefined;
  }

  add(username: string, password: string, verified: Verified): void {
    this.entries.set(this.id(username, password), { verified, until: Date.now() + VerifiedCredentials.TTL_MS });
    while (this.entries.size > VerifiedCredentials.MAX) this.entries.delete(this.entries.keys().next().value!);
  }
}

class DefaultAuth implements Auth {
  private readonly cache = new VerifiedCredentials();
  /** Checks of Basic credentials under way, by the cache's id of the credentials. */
  private readonly verifying = new Map<string, Promise<Verified>>();
  /**
   * Basic credentials refused lately, by the cache's id, with the user's password stamp then: the same wrong password
   * again is the same failed attempt, not another (a client's many connections, arriving over longer than one check
   * on a loaded machine, had counted one each and locked the user out). A guess of another password is checked and
   * counted; a password changed since (another stamp) is checked again.
   */
  private readonly refused = new Map<string, { until: number; stamp: string; error: ServiceError }>();
  private static readonly REFUSED_TTL_MS = 10_000;
  private static readonly REFUSED_MAX = 1000;

  constructor(
    private readonly service: UserService,
    private readonly sessions: SessionStore,
    private readonly throttle: LoginThrottle,
    private readonly limits: SessionLimits,
    private readonly tokenStore: TokenStore,
    private readonly directory: ExternalDirectory | undefined,
    private readonly oidc: OidcVerifier | undefined,
    readonly oidcSignIn: OidcSignIn | undefined,
  ) {}

  get users(): UserAdmin {
    return this.service;
  }

  get tokens(): TokenAdmin {
    return this.tokenStore;
  }

  async bearer(token: string): Promise<Principal> {
    if (!this.oidc || isApiToken(token)) return this.tokenStore.authenticate(token);
    return this.admitOidc(await this.oidc.authenticate(token));
  }

  /** A name the issuer gives must not make its holder a service user's double (their jobs, their pipelines). */
  async admitOidc(principal: Principal): Promise<Principal> {
    if (await this.service.store.find(principal.username)) {
      throw tokenRefused('OIDC_TOKEN_INVALID', `The token names the user ${JSON.stringify(principal.username)}, which is a service user's name; OpenID Connect users must have names of their own (docs/oidc.md)`);
    }
    return principal;
  }

  async openOidcSession(principal: Principal) {
    const { id, session } = await this.sessions.create(principal.username, `${OIDC_STAMP}${principal.rights.join(',')}`);
    return { sessionId: id, session: this.view(principal.username, [...principal.rights], session) };
  }

  /** The rights of a user now: the service user's, or for a directory user without one, the directory's. */
  private rightsOf(local: StoredUser | undefined, verified: { stamp: string }): Right[] {
    if (local) return [...local.rights];
    return verified.stamp === DIRECTORY_STAMP ? ([...(this.directory?.rights ?? [])] as Right[]) : [];
  }

  private view(username: string, rights: Right[], session: SessionRecord): SessionView {
    return {
      username,
      rights,
      createdAt: new Date(session.createdAt),
      expiresAt: new Date(expiresAt(session, this.limits)),
      absoluteExpiresAt: new Date(session.absoluteExpiresAt),
    };
  }

  /**
   * Checks a name and password with throttling: 429 while locked, 401 when
   * wrong. With a directory (the DMS in passthrough mode) the directory is
   * asked first, and its users act at the DMS with these credentials; a
   * service user whose password the directory refuses (an admin with no DMS
   * account) logs in with the service's password, as without a directory.
   */
  private async check(username: string, password: string, clientAddress: string): Promise<Verified> {
    await this.throttle.attempt(username, clientAddress);
    let unreachable: unknown;
    if (this.directory) {
      let accepted = false;
      try {
        accepted = await this.directory.verify(username, password);
      } catch (err) {
        unreachable = err; // a service user may still log in; anyone else hears that the DMS is down
      }
      if (accepted) {
        await this.throttle.succeeded(username, clientAddress);
        return { username, stamp: DIRECTORY_STAMP, credentials: { username, password } };
      }
    }
    const user = await this.service.verify(username, password);
    if (!user) {
      if (unreachable === undefined) throw invalidCredentials();
      // Nothing was checked for a name the service does not know (only the DMS could): the attempt does not count, or
      // users would be locked out for the DMS's outage. A service user's wrong password was checked, and counts.
      if (!(await this.service.store.find(username))) await this.throttle.withdrawn(username, clientAddress);
      throw unreachable;
    }
    await this.throttle.succeeded(username, clientAddress);
    return { username: user.username, stamp: stampOf(user) };
  }

  async login(username: string, password: string, clientAddress: string) {
    const verified = await this.check(username, password, clientAddress);
    const { id, session } = await this.sessions.create(verified.username, verified.stamp, verified.credentials);
    const local = await this.service.store.find(verified.username);
    return { sessionId: id, session: this.view(verified.username, this.rightsOf(local, verified), session) };
  }

  async resume(sessionId: string) {
    const session = await this.sessions.touch(sessionId);
    if (!session) return null;
    // Rights are read from the user on every request, so changed rights apply at once.
    const user = await this.service.store.find(session.username);
    if (session.stamp.startsWith(OIDC_STAMP)) {
      // A service user of this name created since: the session is not theirs.
      if (user) {
        await this.sessions.delete(sessionId);
        return null;
      }
      const rights = oidcRights(session.stamp);
      const principal: Principal = { username: session.username, rights, via: 'session', sessionId, oidc: true };
      return { principal, session: this.view(session.username, rights, session) };
    }
    const directoryLogin = session.stamp === DIRECTORY_STAMP && session.credentials !== undefined;
    if (!directoryLogin && (!user || stampOf(user) !== session.stamp)) {
      await this.sessions.delete(sessionId);
      return null;
    }
    const rights = this.rightsOf(user, session);
    const principal: Principal = { username: session.username, rights, via: 'session', sessionId, ...(session.credentials ? { storeCredentials: session.credentials } : {}) };
    return { principal, session: this.view(session.username, rights, session) };
  }

  async basic(username: string, password: string, clientAddress: string): Promise<Principal> {
    await this.throttle.check(username, clientAddress);
    const known = await this.service.store.find(username);
    const verified = this.cache.get(username, password, known) ?? (await this.verifyOnce(username, password, clientAddress, known));
    return { username: verified.username, rights: this.rightsOf(known, verified), via: 'basic', ...(verified.credentials ? { storeCredentials: verified.credentials } : {}) };
  }

  /**
   * One check for the same credentials however many requests bring them at
   * once. A client with many connections (or all of them when the cached
   * check expires) would otherwise count as that many failed attempts until
   * the first check ends, and lock its own user out with 429.
   */
  private verifyOnce(username: string, password: string, clientAddress: string, known: StoredUser | undefined): Promise<Verified> {
    const id = this.cache.id(username, password);
    const running = this.verifying.get(id);
    if (running) return running;
    const stamp = known ? stampOf(known) : '';
    const refused = this.refused.get(id);
    if (refused && refused.until > Date.now() && refused.stamp === stamp) return Promise.reject(new ServiceError(refused.error.code, refused.error.detail));
    this.refused.delete(id);
    const check = this.check(username, password, clientAddress)
      .then(
        (verified) => {
          this.cache.add(username, password, verified);
          return verified;
        },
        (err: unknown) => {
          if (err instanceof ServiceError && err.code === 'INVALID_CREDENTIALS') {
            this.refused.set(id, { until: Date.now() + DefaultAuth.REFUSED_TTL_MS, stamp, error: err });
            while (this.refused.size > DefaultAuth.REFUSED_MAX) this.refused.delete(this.refused.keys().next().value!);
          }
          throw err;
        },
      )
      .finally(() => this.verifying.delete(id));
    this.verifying.set(id, check);
    return check;
  }

  async logout(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  async close(): Promise<void> {
    await this.sessions.close();
    await this.tokenStore.close();
  }
}

/** Turns a rule violation in the settings into a start-up error naming the variable. */
function startupCheck(variable: string, check: () => unknown): void {
  try {
    check();
  } catch (err) {
    throw new Error(`Invalid configuration: ${variable}: ${err instanceof ServiceError ? err.detail : 'invalid'}`, { cause: err });
  }
}

/**
 * Builds authentication from the configuration: users from
 * `<dataDir>/state/users.json`, API tokens from `<dataDir>/state/tokens.json`,
 * sessions and login throttling in memory, unless `parts` brings shared ones
 * (Redis, main.ts).
 *
 * On the very first start (no users yet; for a shared store, the first of the
 * instances starting at once) the admin `config.adminUser` is created
 * with every right and `config.adminPassword`, or a generated password that is
 * returned once for main.ts to print. Once users exist, PDFSERVICE_ADMIN_PASSWORD
 * is NOT applied again: changing the environment must not silently reset a
 * password someone changed on purpose. Change passwords with
 * `PATCH /pdfservice/v1/users/{username}` or `node dist/src/cli/users.js set-password`.
 *
 * `parts` lets another user or session backend be plugged in, a
 * directory (the DMS in passthrough mode) vouch for its own users, and the
 * store forget what it keeps for a removed user (a mapped DMS account).
 */
export async function createAuth(
  config: Config,
  parts: {
    userStore?: UserStore;
    /** Makes the token store over the user store (Redis, main.ts); the file store by default. */
    tokenStore?: (users: UserStore) => TokenStore;
    sessionStore?: SessionStore;
    throttle?: LoginThrottle;
    /** Sign-ins through the OpenID Connect issuer between start and callback (Redis, so any instance finishes them). */
    pendingSignIns?: PendingSignInStore;
    directory?: ExternalDirectory;
    onUserRemoved?: (username: string) => void | Promise<void>;
  } = {},
): Promise<{ auth: Auth; generatedAdminPassword?: string }> {
  const limits: SessionLimits = { idleSeconds: config.sessionIdleSeconds, maxSeconds: config.sessionMaxSeconds };
  const userStore = parts.userStore ?? (await FileUserStore.open(config.dataDir));
  const sessions = parts.sessionStore ?? new MemorySessionStore(limits);
  // A removed user's sessions end at once; a changed password ends them too (also checked per request by stamp).
  const tokens = parts.tokenStore ? parts.tokenStore(userStore) : await FileTokenStore.open(config.dataDir, userStore);
  const service = new UserService(userStore, {
    // A shared store may fail (Redis down): the sessions are refused anyway at their next use, by the password
    // stamp (resume) or the user's absence, so the change stands and nothing is left unhandled.
    onCredentialsRevoked: (username) => void sessions.deleteUser(username).catch(() => {}),
    // A password change keeps API tokens (they do not carry the password); removing the user ends them.
    onUserRemoved: async (username) => {
      // A shared store may fail (Redis down): a token whose user is gone is refused and removed at its next use.
      await Promise.all([tokens.removeUser(username).catch(() => {}), parts.onUserRemoved?.(username)]);
    },
  }, config.passwordHashCost);
  const throttle = parts.throttle ?? new MemoryLoginThrottle({ maxFailures: config.loginMaxFailures, windowSeconds: config.loginLockoutSeconds });

  let generatedAdminPassword: string | undefined;
  if ((await userStore.list()).length === 0) {
    const password = config.adminPassword ?? (generatedAdminPassword = generatePassword());
    startupCheck('PDFSERVICE_ADMIN_USER', () => validateUsername(config.adminUser));
    startupCheck('PDFSERVICE_ADMIN_PASSWORD', () => validatePassword(password));
    // Only when there are still no users: of instances starting at once on a shared store, one creates the admin.
    const created = await service.createFirst({ username: config.adminUser, password, rights: [...RIGHTS] });
    if (!created) generatedAdminPassword = undefined;
  }
  if (parts.directory) {
    for (const right of parts.directory.rights) {
      if (!(RIGHTS as readonly string[]).includes(right)) throw new Error(`Invalid configuration: PDFSERVICE_WEBDAV_USER_RIGHTS has "${right}", which is not one of ${RIGHTS.join(', ')}`);
    }
  }
  const oidc = config.oidcIssuer !== undefined && config.oidcAudience !== undefined ? new (await import('./oidc.js')).OidcVerifier({ ...config, oidcIssuer: config.oidcIssuer, oidcAudience: config.oidcAudience }) : undefined;
  // The sign-in admits its user as a bearer token's is admitted; the class needs the auth it belongs to, hence the late binding.
  let admit: (principal: Principal) => Promise<Principal> = () => Promise.reject(new Error('not ready'));
  const signIn = oidc && config.oidcClientId !== undefined && config.oidcClientSecret !== undefined && config.oidcRedirectUri !== undefined
    ? new OidcSignIn({
      clientId: config.oidcClientId,
      clientSecret: config.oidcClientSecret,
      redirectUri: config.oidcRedirectUri,
      scopes: config.oidcScopes,
      resource: config.oidcResource,
      displayName: config.oidcDisplayName ?? new URL(config.oidcIssuer!).hostname,
    }, config.oidcIssuer!, oidc, (principal) => admit(principal), parts.pendingSignIns)
    : undefined;
  const auth = new DefaultAuth(service, sessions, throttle, limits, tokens, parts.directory, oidc, signIn);
  admit = (principal) => auth.admitOidc(principal);
  return { auth, ...(generatedAdminPassword ? { generatedAdminPassword } : {}) };
}
