import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../../errors.js';
import { errno, writeStateFile } from '../../state-file.js';
import type { StoreCredentials } from '../store.js';

/**
 * The DMS accounts service users act with in mapped mode
 * (PDFSERVICE_WEBDAV_AUTH=mapped), in `<dataDir>/state/dms-accounts.json`.
 *
 * Each account (the DMS user name and password) is sealed with AES-256-GCM
 * under the key from the configuration, a fresh 96-bit nonce per write, and
 * the service user's name as associated data: the file holds the service
 * users' names and ciphertext only, and an entry moved to another user does
 * not open. The file records an identifier of its key (an HMAC of a fixed
 * label), so a service started with another key stops at start-up with a
 * clear message instead of acting as nobody.
 *
 * The accounts are opened at start and kept in memory, as passthrough
 * sessions keep theirs. Changes are written atomically; another process's
 * change (the users CLI removing a user, or another instance on the same
 * data folder) is picked up within a second by a check of the file's
 * identity.
 */

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const RECHECK_MS = 1000;

interface SealedAccount {
  /** The service user the account belongs to. */
  user: string;
  /** base64: nonce, then ciphertext, then the GCM tag. */
  sealed: string;
  updatedAt: string;
}

interface AccountsFile {
  version: 1;
  keyId: string;
  accounts: SealedAccount[];
}

/** As the admin routes see an account (auth/types.ts's DmsAccountView, which storage does not import). */
interface DmsAccountView {
  username: string;
  updatedAt: Date;
}

interface OpenAccount {
  credentials: StoreCredentials;
  updatedAt: string;
  sealed: string;
}

const keyIdOf = (key: Buffer) => createHmac('sha256', key).update('pdfservice dms-accounts key id').digest('base64url').slice(0, 16);
const aad = (user: string) => Buffer.from(`pdfservice dms-account\0${user}`, 'utf8');

function seal(key: Buffer, user: string, credentials: StoreCredentials): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad(user));
  const body = Buffer.concat([cipher.update(JSON.stringify({ username: credentials.username, password: credentials.password }), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/** The account in an entry; throws when the key or the user does not fit it (or it was changed). */
function open(key: Buffer, user: string, sealed: string): StoreCredentials {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < NONCE_BYTES + TAG_BYTES + 2) throw new Error('too short');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
  decipher.setAAD(aad(user));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  const text = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  const parsed = JSON.parse(text) as Partial<StoreCredentials>;
  if (typeof parsed.username !== 'string' || typeof parsed.password !== 'string') throw new Error('not an account');
  return { username: parsed.username, password: parsed.password };
}

function accountsFile(dataDir: string): string {
  return path.join(dataDir, 'state', 'dms-accounts.json');
}

export class DmsAccounts {
  private accounts = new Map<string, OpenAccount>();
  private identity = '';
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly file: string,
    private readonly key: Buffer,
    private readonly verify: (account: StoreCredentials) => Promise<boolean>,
  ) {}

  /**
   * Opens the file (none yet: no accounts) and every account in it; throws
   * naming the file and the setting when the key is not the file's or an
   * entry does not open, so the service does not start.
   */
  static async open(dataDir: string, key: Buffer, verify: (account: StoreCredentials) => Promise<boolean>): Promise<DmsAccounts> {
    const accounts = new DmsAccounts(accountsFile(dataDir), key, verify);
    await fs.mkdir(path.dirname(accounts.file), { recursive: true });
    await accounts.load();
    accounts.timer = setInterval(() => void accounts.recheck().catch(() => undefined), RECHECK_MS).unref();
    return accounts;
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** The account `user` acts as at the DMS, or undefined (the DMS then refuses them: 403 DMS_FORBIDDEN). */
  credentialsOf(user: string): StoreCredentials | undefined {
    return this.accounts.get(user)?.credentials;
  }

  get(user: string): DmsAccountView {
    const account = this.accounts.get(user);
    if (!account) throw new ServiceError('DMS_ACCOUNT_NOT_FOUND', `The user "${user}" has no DMS account`);
    return { username: account.credentials.username, updatedAt: new Date(account.updatedAt) };
  }

  async set(user: string, credentials: StoreCredentials): Promise<{ view: DmsAccountView; created: boolean }> {
    if (!(await this.verify(credentials))) {
      throw new ServiceError('DMS_ACCOUNT_REJECTED', `The document server refused the name and password given for "${credentials.username}"; nothing was changed`);
    }
    return this.change((accounts) => {
      const created = !accounts.has(user);
      const updatedAt = new Date().toISOString();
      accounts.set(user, { credentials, updatedAt, sealed: seal(this.key, user, credentials) });
      return { view: { username: credentials.username, updatedAt: new Date(updatedAt) }, created };
    });
  }

  async remove(user: string): Promise<void> {
    await this.change((accounts) => {
      if (!accounts.delete(user)) throw new ServiceError('DMS_ACCOUNT_NOT_FOUND', `The user "${user}" has no DMS account`);
    });
  }

  /** Removes a removed service user's account, if any: a user created later under the name must not inherit it. */
  async forget(user: string): Promise<void> {
    await this.change((accounts) => void accounts.delete(user));
  }

  /** Applies `edit` to a copy of the accounts as the file has them now, and writes it; one change at a time. */
  private change<T>(edit: (accounts: Map<string, OpenAccount>) => T): Promise<T> {
    const run = this.queue.then(async () => {
      await this.recheck();
      const next = new Map(this.accounts);
      const result = edit(next);
      const data: AccountsFile = {
        version: 1,
        keyId: keyIdOf(this.key),
        accounts: [...next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([user, a]) => ({ user, sealed: a.sealed, updatedAt: a.updatedAt })),
      };
      await writeStateFile(this.file, `${JSON.stringify(data, null, 2)}\n`);
      this.accounts = next;
      this.identity = await this.identityNow();
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async identityNow(): Promise<string> {
    try {
      const s = await fs.stat(this.file);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch (err) {
      if (errno(err) === 'ENOENT') return '';
      throw err;
    }
  }

  private async recheck(): Promise<void> {
    if ((await this.identityNow()) !== this.identity) await this.load();
  }

  private async load(): Promise<void> {
    const identity = await this.identityNow();
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
      this.accounts = new Map();
      this.identity = '';
      return;
    }
    const data = JSON.parse(text) as Partial<AccountsFile>;
    if (data.version !== 1 || typeof data.keyId !== 'string' || !Array.isArray(data.accounts)) throw new Error(`${this.file}: not a version 1 DMS accounts file`);
    if (data.keyId !== keyIdOf(this.key)) {
      throw new Error(`${this.file} was written with another key than PDFSERVICE_WEBDAV_ACCOUNTS_KEY gives (key id ${data.keyId}, the setting's ${keyIdOf(this.key)}): start with the key it was written with`);
    }
    const accounts = new Map<string, OpenAccount>();
    for (const entry of data.accounts) {
      const ok = entry && typeof entry.user === 'string' && typeof entry.sealed === 'string' && typeof entry.updatedAt === 'string';
      if (!ok) throw new Error(`${this.file}: an entry is malformed`);
      let credentials: StoreCredentials;
      try {
        credentials = open(this.key, entry.user, entry.sealed);
      } catch {
        throw new Error(`${this.file}: the account of "${entry.user}" does not open with the key (changed, or moved from another user)`);
      }
      accounts.set(entry.user, { credentials, updatedAt: entry.updatedAt, sealed: entry.sealed });
    }
    this.accounts = accounts;
    this.identity = identity;
  }
}

/**
 * For the users CLI: removes a user's entry without the key (an entry is
 * removed whole), so a user created later under the name does not act as
 * the removed user's DMS account.
 */
export async function forgetAccountInFile(dataDir: string, user: string): Promise<boolean> {
  const file = accountsFile(dataDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
  const data = JSON.parse(text) as AccountsFile;
  if (data.version !== 1 || !Array.isArray(data.accounts)) throw new Error(`${file}: not a version 1 DMS accounts file`);
  const kept = data.accounts.filter((a) => a.user !== user);
  if (kept.length === data.accounts.length) return false;
  await writeStateFile(file, `${JSON.stringify({ ...data, accounts: kept }, null, 2)}\n`);
  return true;
}
