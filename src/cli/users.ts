/**
 * User management without HTTP, for first set-up and recovery (a forgotten
 * admin password). It edits <dataDir>/state/users.json through the same
 * UserStore and rules as the server; a running server notices the change
 * within about a second.
 *
 *   node dist/src/cli/users.js add <name> --rights GET,POST,PUT,DELETE[,admin] [--password-env VAR]
 *   node dist/src/cli/users.js list [--json]
 *   node dist/src/cli/users.js remove <name>
 *   node dist/src/cli/users.js set-password <name> [--password-env VAR]
 *   node dist/src/cli/users.js set-rights <name> --rights GET,...
 *
 * With PDFSERVICE_REDIS_URL set (as for the server), it changes the users in
 * Redis instead, which every running instance sees at once; removing a user
 * there also ends their sessions and removes their API tokens.
 *
 * The user store must exist already (the service creates it at its first start):
 * a mistyped or missing PDFSERVICE_DATA_DIR is refused rather than answered from
 * a new empty store. `--create` asks for a new store when there is none.
 *
 * Passwords come from the environment variable named by --password-env, or from
 * standard input: typed twice without echo on a terminal, else the first line
 * of what is piped in. Never from the command line, where `ps` would show them.
 */
import { forgetAccountInFile } from '../storage/webdav/accounts.js';
import { loadConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import type { Right } from '../auth/types.js';
import { FileUserStore, UserService, type UserStore } from '../auth/users.js';
import { RedisUserStore } from '../auth/redis-users.js';
import { RedisTokenStore } from '../auth/redis-tokens.js';
import { RedisSessionStore } from '../auth/redis-sessions.js';
import { connectRedis, redactedRedisUrl, type RedisConnection } from '../redis.js';

const USAGE = `Usage: node dist/src/cli/users.js <command>

  add <name> --rights GET,POST,PUT,DELETE[,admin] [--password-env VAR]
  list [--json]
  remove <name>
  set-password <name> [--password-env VAR]
  set-rights <name> --rights GET,...

The password is read from the variable named by --password-env, else from
standard input. PDFSERVICE_DATA_DIR selects the data folder, as for the server;
its user store (state/users.json) must exist unless --create is given. With
PDFSERVICE_REDIS_URL set, the users are those in Redis (under
PDFSERVICE_REDIS_PREFIX), which must hold some unless --create is given.
`;

class UsageError extends Error {}
/** A refusal about the environment, not the command line: one line, no usage text. */
class SetupError extends Error {}

interface Args {
  command: string;
  name?: string;
  rights?: Right[];
  passwordEnv?: string;
  json: boolean;
  create: boolean;
}

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const args: Partial<Args> = { json: false, create: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--rights') args.rights = value().split(',').map((r) => r.trim()).filter(Boolean) as Right[];
    else if (arg === '--password-env') args.passwordEnv = value();
    else if (arg === '--json') args.json = true;
    else if (arg === '--create') args.create = true;
    else if (arg === '--help' || arg === '-h') positional.unshift('help');
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  const [command, name, ...extra] = positional;
  if (!command) throw new UsageError('no command given');
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  return { ...args, command, ...(name !== undefined ? { name } : {}) } as Args;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new UsageError(`${what} is missing`);
  return value;
}

/** Reads a line from a terminal without echoing it. */
function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPassword(args: Args): Promise<string> {
  if (args.passwordEnv) {
    const value = process.env[args.passwordEnv];
    if (value === undefined || value === '') throw new UsageError(`the environment variable ${args.passwordEnv} is not set`);
    return value;
  }
  if (process.stdin.isTTY) {
    const first = await readHidden('Password: ');
    const second = await readHidden('Password again: ');
    if (first !== second) throw new UsageError('the two passwords differ');
    return first;
  }
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  // The first line, without its line end: `echo secret | users.js ...` works as expected.
  return text.split(/\r?\n/)[0] ?? '';
}

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = loadConfig();
  let redis: RedisConnection | undefined;
  let store: UserStore;
  if (config.redisUrl) {
    try {
      redis = await connectRedis({ url: config.redisUrl, prefix: config.redisPrefix, timeoutMs: config.redisTimeoutMs });
    } catch (err) {
      throw new SetupError((err as Error).message);
    }
    store = new RedisUserStore(redis);
    if (!args.create && (await store.list()).length === 0) {
      await redis.close();
      throw new SetupError(
        `no users in Redis at ${redactedRedisUrl(config.redisUrl)} under the prefix ${JSON.stringify(config.redisPrefix)}: check PDFSERVICE_REDIS_URL and PDFSERVICE_REDIS_PREFIX, start the service once, or pass --create`,
      );
    }
  } else {
    if (!args.create && !(await FileUserStore.exists(config.dataDir))) {
      throw new SetupError(
        `no user store in ${config.dataDir} (state/users.json is missing): check PDFSERVICE_DATA_DIR, start the service there once, or pass --create`,
      );
    }
    store = await FileUserStore.open(config.dataDir);
  }
  try {
    return await command(args, config, store, redis);
  } finally {
    await redis?.close();
  }
}

async function command(args: Args, config: ReturnType<typeof loadConfig>, store: UserStore, redis: RedisConnection | undefined): Promise<number> {
  const users = new UserService(store, {}, config.passwordHashCost);
  // In Redis the servers' sessions and tokens are at hand: they end with the user now, not only at their next use.
  const endSessions = async (name: string) => {
    if (redis) await new RedisSessionStore(redis, { idleSeconds: config.sessionIdleSeconds, maxSeconds: config.sessionMaxSeconds }, undefined).deleteUser(name);
  };
  switch (args.command) {
    case 'add': {
      const name = need(args.name, 'the user name');
      const rights = need(args.rights, '--rights');
      const user = await users.create({ username: name, password: await readPassword(args), rights });
      process.stdout.write(`added ${user.username} (${user.rights.join(',')})\n`);
      return 0;
    }
    case 'list': {
      const list = await users.list();
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ users: list }, null, 2)}\n`);
      } else {
        for (const u of list) process.stdout.write(`${u.username}\t${u.rights.join(',')}\t${u.updatedAt.toISOString()}\n`);
      }
      return 0;
    }
    case 'remove': {
      const name = need(args.name, 'the user name');
      await users.remove(name);
      await endSessions(name);
      if (redis) await new RedisTokenStore(redis, store).removeUser(name);
      // A user created later under the name must not act as this user's mapped DMS account (docs/dms.md).
      const hadAccount = await forgetAccountInFile(config.dataDir, name);
      process.stdout.write(`removed ${name}${hadAccount ? ' and their DMS account' : ''}\n`);
      return 0;
    }
    case 'set-password': {
      const name = need(args.name, 'the user name');
      await users.get(name); // fail before asking for a password
      await users.update(name, { password: await readPassword(args) });
      await endSessions(name);
      process.stdout.write(`changed the password of ${name}; their sessions end\n`);
      return 0;
    }
    case 'set-rights': {
      const name = need(args.name, 'the user name');
      const user = await users.update(name, { rights: need(args.rights, '--rights') });
      process.stdout.write(`${user.username} now has ${user.rights.join(',')}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${args.command}`);
  }
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (err instanceof ServiceError) {
    process.stderr.write(`error: ${err.detail ?? err.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
