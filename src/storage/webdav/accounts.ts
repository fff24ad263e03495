import fs from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../../errors.js';
import type { Sealer } from '../../secrets.js';
import { errno, writeStateFile } from '../../state-file.js';
import type { StoreCredentials } from '../store.js';

/**
 * The DMS accounts service users act with in mapped mode
 * (PDFSERVICE_WEBDAV_AUTH=mapped), in `<dataDir>/state/dms-accounts.json`.
 *
 * Each account (the DMS user name and password) is sealed (secrets.ts,
 * PDFSERVICE_SECRETS_KEY) with the service user's name as context: the file
 * holds the service users' names and ciphertext only, and an entry moved to
 * another user does not open. The file records its key's identifier, so a
 * service started with another key stops at start-up with a clear message
 * instead of acting as nobody.
 *
 * The accounts are opened at start and kept in memory, as passthrough
 * sessions keep theirs. Changes are written atomically; another process's
 * change (the users CLI removing a user, or another instance on the same
 * data folder) is picked up within a second by a check of the file's
 * identity.
 */

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

/** Each account is sealed with its service user's name as context: an entry moved to another user does not open. */
const contextOf = (user: string) => `pdfservice dms-account\0${user}`;

function sealAccount(sealer: Sealer, user: string, credentials: StoreCredentials): string {
  return sealer.seal(contextOf(user), JSON.stringify({ username: credentials.username, password: credentials.password }));
}

function openAccount(sealer: Sealer, user: string, sealed: string): StoreCredentials {
  const parsed = JSON.parse(sealer.open(contextOf(user), sealed)) as Partial<StoreCredentials>;
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
    private readonly sealer: Sealer,
    private readonly verify: (account: StoreCredentials) => Promise<boolean>,
  ) {}

  /**
   * Opens the file (none yet: no accounts) and every account in it; throws
   * naming the file and the setting when the key is not the file's or an
   * entry does not open, so the service does not start.
   */
  static async open(dataDir: string, sealer: Sealer, verify: (account: StoreCredentials) => Promise<boolean>): Promise<DmsAccounts> {
    const accounts = new DmsAccounts(accountsFile(dataDir), sealer, verify);
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

  /** Every mapped account (the retention sweep acts as each in turn: src/storage/webdav/sweep.ts). */
  all(): StoreCredentials[] {
    return [...this.accounts.values()].map((a) => a.credentials);
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
      accounts.set(user, { credentials, updatedAt, sealed: sealAccount(this.sealer, user, credentials) });
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
        keyId: this.sealer.keyId,
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
    if (data.keyId !== this.sealer.keyId) {
      throw new Error(`${this.file} was written with another key than PDFSERVICE_SECRETS_KEY gives (key id ${data.keyId}, the setting's ${this.sealer.keyId}): start with the key it was written with`);
    }
    const accounts = new Map<string, OpenAccount>();
    for (const entry of data.accounts) {
      const ok = entry && typeof entry.user === 'string' && typeof entry.sealed === 'string' && typeof entry.updatedAt === 'string';
      if (!ok) throw new Error(`${this.file}: an entry is malformed`);
      let credentials: StoreCredentials;
      try {
        credentials = openAccount(this.sealer, entry.user, entry.sealed);
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
