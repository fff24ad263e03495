import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { DEFAULT_HASH_COST, hashPassword, isPasswordHash, verifyAgainstDummy, verifyPassword } from './passwords.js';
import { errno, writeStateFile } from '../state-file.js';
import { RIGHTS, type Right, type UserAdmin, type UserView } from './types.js';
import { newWebhookSecret } from '../webhook-signing.js';

/** A user as stored: never a plain password, only its scrypt hash. */
export interface StoredUser {
  username: string;
  passwordHash: string;
  rights: Right[];
  createdAt: string;
  updatedAt: string;
  /** The secret the user's webhooks are signed with (`whsec_…`, docs/webhooks.md), made at the first need. */
  webhookSecret?: string;
}

/**
 * Where users live. The embedded default is a JSON file; another backend
 * (a database, a directory) implements the same three calls. `transact` is the
 * only way to change users: it hands `change` a private copy of the table,
 * keyed by user name, and stores the copy only when `change` returns normally;
 * transactions never interleave, so rules that look at several users (the last
 * admin) hold.
 */
export interface UserStore {
  find(username: string): Promise<StoredUser | undefined>;
  list(): Promise<StoredUser[]>;
  transact<T>(change: (users: Map<string, StoredUser>) => T): Promise<T>;
}

// ---------------------------------------------------------------------------
// Rules for names, passwords and rights

export const USERNAME_PATTERN = '^[A-Za-z0-9_@-][A-Za-z0-9._@-]{0,63}$';
const USERNAME_RE = new RegExp(USERNAME_PATTERN);
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

export function validateUsername(username: unknown): string {
  if (typeof username !== 'string' || !USERNAME_RE.test(username)) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'A user name has 1 to 64 characters among A-Z a-z 0-9 . _ @ - and does not start with "."',
    );
  }
  return username;
}

export function validatePassword(password: unknown): string {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new ServiceError('VALIDATION_FAILED', `A password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
  return password;
}

/** A non-empty subset of RIGHTS, duplicates removed, in RIGHTS order. */
export function normalizeRights(rights: unknown): Right[] {
  const list = Array.isArray(rights) ? rights : [];
  const unknown = list.filter((r) => !(RIGHTS as readonly unknown[]).includes(r));
  if (list.length === 0 || unknown.length > 0) {
    throw new ServiceError('VALIDATION_FAILED', `Rights are a non-empty list of ${RIGHTS.join(', ')}`);
  }
  return RIGHTS.filter((r) => list.includes(r));
}

// ---------------------------------------------------------------------------
// The embedded store: <dataDir>/state/users.json

interface UsersFile {
  version: 1;
  users: StoredUser[];
}

interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** How often, at most, a read looks whether another process (the CLI) changed the file. */
const RECHECK_MS = 1000;

function parseUsersFile(text: string, file: string): Map<string, StoredUser> {
  const data = JSON.parse(text) as Partial<UsersFile>;
  if (data.version !== 1 || !Array.isArray(data.users)) throw new Error(`${file}: not a version 1 users file`);
  const users = new Map<string, StoredUser>();
  for (const u of data.users) {
    const ok =
      u && typeof u === 'object' &&
      typeof u.username === 'string' && USERNAME_RE.test(u.username) &&
      typeof u.passwordHash === 'string' && isPasswordHash(u.passwordHash) &&
      Array.isArray(u.rights) && typeof u.createdAt === 'string' && typeof u.updatedAt === 'string';
    if (!ok) throw new Error(`${file}: an entry is malformed`);
    users.set(u.username, { ...u, rights: normalizeRights(u.rights) });
  }
  return users;
}

/**
 * Users in one JSON file (mode 0600). It is loaded once and kept in memory;
 * every change is written atomically (a temporary file in the same folder,
 * fsync, rename, fsync of the folder), one write at a time.
 *
 * The command-line tool edits the same file while the server runs. So that the
 * server picks such changes up without a restart, reads look at most once a
 * second whether the file's identity (inode, size, mtime) differs from what this
 * process last read or wrote, and re-read it if so; a transaction always looks
 * first. Two processes changing users at the very same moment can still lose
 * one change (there is no lock across processes); the CLI is meant for set-up
 * and recovery, not for heavy concurrent use.
 */
export class FileUserStore implements UserStore {
  readonly file: string;
  private users = new Map<string, StoredUser>();
  private seen: FileIdentity | null = null;
  private lastCheck = 0;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(dataDir: string) {
    this.file = path.join(dataDir, 'state', 'users.json');
  }

  /** Whether `dataDir` holds a user store (the service made one there at its first start). */
  static async exists(dataDir: string): Promise<boolean> {
    return fs.stat(new FileUserStore(dataDir).file).then((s) => s.isFile(), () => false);
  }

  static async open(dataDir: string): Promise<FileUserStore> {
    const store = new FileUserStore(dataDir);
    await fs.mkdir(path.dirname(store.file), { recursive: true, mode: 0o700 });
    // A broken file at start is an error the operator must see; it is never silently replaced.
    await store.reload();
    return store;
  }

  async find(username: string): Promise<StoredUser | undefined> {
    await this.recheck(false);
    return this.users.get(username);
  }

  async list(): Promise<StoredUser[]> {
    await this.recheck(false);
    return [...this.users.values()].sort((a, b) => a.username.localeCompare(b.username));
  }

  transact<T>(change: (users: Map<string, StoredUser>) => T): Promise<T> {
    const run = async (): Promise<T> => {
      await this.recheck(true);
      const copy = new Map([...this.users].map(([k, v]) => [k, { ...v, rights: [...v.rights] }]));
      const result = change(copy);
      await this.write(copy);
      this.users = copy;
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async identity(): Promise<FileIdentity | null> {
    try {
      const st = await fs.stat(this.file);
      return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      if (errno(err) === 'ENOENT') return null;
      throw err;
    }
  }

  private async reload(): Promise<void> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.file, 'r');
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
      this.users = new Map();
      this.seen = null;
      return;
    }
    try {
      // Identity and content from the same open file, so a rename in between cannot pair them wrongly.
      const st = await handle.stat();
      const text = await handle.readFile('utf8');
      this.users = parseUsersFile(text, this.file);
      this.seen = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    } finally {
      await handle.close();
    }
  }

  /** Re-reads the file when another process replaced it. A file that became unreadable keeps the users last read. */
  private async recheck(force: boolean): Promise<void> {
    const now = Date.now();
    if (!force && now - this.lastCheck < RECHECK_MS) return;
    this.lastCheck = now;
    try {
      const current = await this.identity();
      const same =
        current === this.seen ||
        (current !== null && this.seen !== null && current.ino === this.seen.ino && current.size === this.seen.size && current.mtimeMs === this.seen.mtimeMs);
      if (!same) await this.reload();
    } catch (err) {
      process.emitWarning(`pdfservice: ${this.file} could not be re-read; keeping the users last read (${(err as Error).message})`);
    }
  }

  private async write(users: Map<string, StoredUser>): Promise<void> {
    const body: UsersFile = { version: 1, users: [...users.values()] };
    await writeStateFile(this.file, `${JSON.stringify(body, null, 2)}\n`);
    this.seen = await this.identity();
  }
}

// ---------------------------------------------------------------------------
// The user rules on top of a store: used by the HTTP API and the CLI alike

export function toView(user: StoredUser): UserView {
  return { username: user.username, rights: [...user.rights], createdAt: new Date(user.createdAt), updatedAt: new Date(user.updatedAt) };
}

function admins(users: Map<string, StoredUser>): number {
  let n = 0;
  for (const u of users.values()) if (u.rights.includes('admin')) n++;
  return n;
}

function lastAdminError(): ServiceError {
  return new ServiceError('BAD_REQUEST', 'This is the last user with the admin right: give another user admin first');
}

export interface UserEvents {
  /** After a user was removed or their password changed: their sessions must end. */
  onCredentialsRevoked?(username: string): void;
  /**
   * After a user was removed: their API tokens go too, and what else was theirs (a mapped DMS account); awaited before
   * the removal answers, so a user created again under the name right after inherits none of it.
   */
  onUserRemoved?(username: string): void | Promise<void>;
}

/** Users with validation, hashing and the last-admin rule. Passwords are hashed here and never kept. */
export class UserService implements UserAdmin {
  constructor(
    readonly store: UserStore,
    private readonly events: UserEvents = {},
    /** log2 of scrypt's N for new and changed passwords (PDFSERVICE_PASSWORD_HASH_COST). */
    private readonly hashCost = DEFAULT_HASH_COST,
  ) {}

  async list(): Promise<UserView[]> {
    return (await this.store.list()).map(toView);
  }

  async get(username: string): Promise<UserView> {
    const user = await this.store.find(username);
    if (!user) throw new ServiceError('USER_NOT_FOUND', `No user named ${JSON.stringify(username)}`);
    return toView(user);
  }

  async create(input: { username: string; password: string; rights: Right[] }): Promise<UserView> {
    const username = validateUsername(input.username);
    const password = validatePassword(input.password);
    const rights = normalizeRights(input.rights);
    const passwordHash = await hashPassword(password, this.hashCost);
    return this.store.transact((users) => {
      if (users.has(username)) throw new ServiceError('ALREADY_EXISTS', `A user named ${JSON.stringify(username)} exists`);
      const now = new Date().toISOString();
      const user: StoredUser = { username, passwordHash, rights, createdAt: now, updatedAt: now };
      users.set(username, user);
      return toView(user);
    });
  }

  /**
   * Creates the first user, with the rules of create, only when there is no
   * user at all, in one transaction: of instances starting at once on a
   * shared store, one creates the admin. Whether it did.
   */
  async createFirst(input: { username: string; password: string; rights: Right[] }): Promise<boolean> {
    const username = validateUsername(input.username);
    const rights = normalizeRights(input.rights);
    const passwordHash = await hashPassword(validatePassword(input.password), this.hashCost);
    return this.store.transact((users) => {
      if (users.size > 0) return false;
      const now = new Date().toISOString();
      users.set(username, { username, passwordHash, rights, createdAt: now, updatedAt: now });
      return true;
    });
  }

  async update(username: string, changes: { password?: string; rights?: Right[] }): Promise<UserView> {
    const rights = changes.rights === undefined ? undefined : normalizeRights(changes.rights);
    const passwordHash = changes.password === undefined ? undefined : await hashPassword(validatePassword(changes.password), this.hashCost);
    const view = await this.store.transact((users) => {
      const user = users.get(username);
      if (!user) throw new ServiceError('USER_NOT_FOUND', `No user named ${JSON.stringify(username)}`);
      if (rights) {
        if (user.rights.includes('admin') && !rights.includes('admin') && admins(users) === 1) throw lastAdminError();
        user.rights = rights;
      }
      if (passwordHash) user.passwordHash = passwordHash;
      user.updatedAt = new Date().toISOString();
      return toView(user);
    });
    if (passwordHash) this.events.onCredentialsRevoked?.(username);
    return view;
  }

  async remove(username: string): Promise<void> {
    await this.store.transact((users) => {
      const user = users.get(username);
      if (!user) throw new ServiceError('USER_NOT_FOUND', `No user named ${JSON.stringify(username)}`);
      if (user.rights.includes('admin') && admins(users) === 1) throw lastAdminError();
      users.delete(username);
    });
    this.events.onCredentialsRevoked?.(username);
    await this.events.onUserRemoved?.(username);
  }

  /** The user's webhook signing secret, made when the user has none; `rotate`: a new one replaces it (404 USER_NOT_FOUND). */
  async webhookSecret(username: string, options: { rotate?: boolean } = {}): Promise<string> {
    const known = options.rotate ? undefined : (await this.store.find(username))?.webhookSecret;
    if (known !== undefined) return known;
    return this.store.transact((users) => {
      const user = users.get(username);
      if (!user) throw new ServiceError('USER_NOT_FOUND', `No user named ${JSON.stringify(username)}`);
      // Two first needs at once: the one made first stays.
      if (options.rotate || user.webhookSecret === undefined) user.webhookSecret = newWebhookSecret();
      return user.webhookSecret;
    });
  }

  /** The user's webhook secret as it is now, without making one. */
  async currentWebhookSecret(username: string): Promise<string | undefined> {
    return (await this.store.find(username))?.webhookSecret;
  }

  /**
   * The stored user when `password` is theirs, else null. Unknown names are
   * checked against a dummy hash, so both cases take the same time.
   */
  async verify(username: string, password: string): Promise<StoredUser | null> {
    // Over-long input cannot be a valid password; refuse it without hashing megabytes.
    if (password.length > PASSWORD_MAX) return null;
    const user = await this.store.find(username);
    if (!user) return verifyAgainstDummy(password, this.hashCost).then(() => null);
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }
}
