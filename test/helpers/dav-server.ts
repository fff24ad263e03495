import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chown, copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { basicAuth } from './server.js';
import { exited, freePort, waitForExit } from './processes.js';

/**
 * A real WebDAV server for the DMS tests: Apache httpd (Debian's apache2-bin) with mod_dav, mod_dav_fs and
 * mod_auth_basic, configured by test/dav/httpd.conf, on a free loopback port, with its own folder.
 * docs/dms.md "The test server" describes the layout and the rights.
 */

const HTTPD = '/usr/sbin/apache2';
const CONFIG = fileURLToPath(new URL('../../../test/dav/httpd.conf', import.meta.url));

/** The users of test/dav/httpd.conf: it names them in its rules. */
export const DAV_USERS = ['alice', 'bob', 'carol'] as const;
export type DavUser = (typeof DAV_USERS)[number];

export interface DavServer {
  /** `http://127.0.0.1:PORT/dav/` */
  url: string;
  /** `http://127.0.0.1:PORT` (https with the tls option) */
  origin: string;
  /** With the tls option: the server's self-signed certificate (PEM), the one CA a client must trust. */
  caFile: string | undefined;
  /** Each user's current password (setPassword changes it here too). */
  users: Record<DavUser, string>;
  /** Collection URLs, each with a trailing slash. */
  collections: { home(user: DavUser): string; shared: string; restricted: string; hidden: string };
  /** The run's folder: the configuration's DAV_TEST_ROOT (htpasswd, logs, lock database). */
  runDir: string;
  /** The folder served as /dav/ (inside runDir). */
  root: string;
  /** The httpd process now running (undefined between stop or kill and restart). */
  pid(): number | undefined;
  /** `Basic ...` for a user's current password. */
  auth(user: DavUser): string;
  /** Stops httpd (SIGTERM, SIGKILL after 5 s); the files stay for restart(). */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: nothing is cleaned up by httpd. */
  kill(): Promise<void>;
  /** Starts httpd again on the same port over the same files (stops it first if it runs). */
  restart(): Promise<void>;
  /** Changes a user's password in the htpasswd file; httpd reads the file on every request. */
  setPassword(user: DavUser, password: string): Promise<void>;
  /** httpd's error log so far, and what it printed itself. */
  errorLog(): Promise<string>;
  /** Stops httpd and removes the run's folder. */
  dispose(): Promise<void>;
}

export interface DavServerOptions {
  /** Passwords to use instead of random ones. */
  passwords?: Partial<Record<DavUser, string>>;
  /** Serve https with a self-signed certificate for 127.0.0.1 (its PEM file is `caFile`). */
  tls?: boolean;
  /**
   * More users (name → password), each with a home /dav/home/<name>/: the configuration's home rule takes the
   * owner from the URL, so any user in htpasswd owns the home named after them. (The shared, restricted and hidden
   * rules name alice and bob; an extra user only reads shared/.)
   */
  extraUsers?: Record<string, string>;
}

/**
 * htpasswd's {SHA} form (SHA-1, base64), which httpd's mod_authn_file accepts. Written here because the htpasswd
 * program is in apache2-utils, which apache2-bin does not bring; the passwords are random and the server only
 * listens on loopback, so the unsalted hash is no concern for tests (docs/dms.md asks bcrypt of a real server).
 */
function htpasswdLine(user: string, password: string): string {
  return `${user}:{SHA}${createHash('sha1').update(password, 'utf8').digest('base64')}`;
}

/** Who httpd runs as: nobody when the tests run as root (it writes the served files), else the test's own user. */
function serverIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startDavServer(options: DavServerOptions = {}): Promise<DavServer> {
  const identity = serverIdentity();
  const runDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-dav-'));
  const root = path.join(runDir, 'data');
  const extraUsers = options.extraUsers ?? {};
  const collections = [...[...DAV_USERS, ...Object.keys(extraUsers)].map((user) => `home/${user}`), 'shared', 'restricted', 'hidden'];
  for (const dir of ['run', 'lock', 'empty', ...collections.map((c) => path.join('data', c))]) {
    await mkdir(path.join(runDir, dir), { recursive: true });
  }
  // Never starting with '-': litmus took a password passed as an argument ('-E...') for an option (1 run in 64 failed).
  const users = Object.fromEntries(DAV_USERS.map((user) => [user, options.passwords?.[user] ?? `pw${randomBytes(12).toString('base64url')}`])) as Record<DavUser, string>;
  const htpasswd = path.join(runDir, 'htpasswd');
  const writeUsers = async () => {
    // Written beside and renamed over, so httpd never reads half a file.
    const next = `${htpasswd}.next`;
    const lines = [...DAV_USERS.map((user) => htpasswdLine(user, users[user])), ...Object.entries(extraUsers).map(([user, password]) => htpasswdLine(user, password))];
    await writeFile(next, lines.join('\n') + '\n', { mode: 0o644 });
    await rename(next, htpasswd);
  };
  await writeUsers();
  if (identity) {
    // mkdtemp's folder is 0700: httpd, as nobody, needs to own the tree it writes and the lock database.
    for (const dir of ['', 'run', 'lock', 'empty', 'data', 'data/home', ...collections.map((c) => path.join('data', c))]) {
      await chown(path.join(runDir, dir), identity.uid, identity.gid);
    }
  }

  let port = await freePort();
  let child: ChildProcess | undefined;
  const output: string[] = [];
  // httpd reads its configuration as nobody, who may not enter the checkout (a clone in a 0700 folder): it reads a
  // copy in the run's folder, which it owns.
  const config = path.join(runDir, 'httpd.conf');
  await copyFile(CONFIG, config);
  if (identity) await chown(config, identity.uid, identity.gid);
  const origin = () => `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const caFile = options.tls ? path.join(runDir, 'tls', 'cert.pem') : undefined;
  if (caFile) {
    const dir = path.dirname(caFile);
    await mkdir(dir);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', caFile], { stdio: 'ignore' });
    if (identity) for (const file of ['', 'key.pem', 'cert.pem']) await chown(path.join(dir, file), identity.uid, identity.gid);
  }
  // The readiness probe trusts the server's own certificate (and nothing else).
  const probe = caFile ? new Agent({ connect: { ca: await readFile(caFile) } }) : undefined;

  const launch = async (): Promise<void> => {
    // A pid file left by a crash names a dead process, or by now another one, which httpd would take for itself running.
    await rm(path.join(runDir, 'httpd.pid'), { force: true });
    // setpriv: the parent-death signal makes httpd die with the test process however that ends; as root it also
    // drops to nobody. -X: one process, in the foreground, so that this pid is the whole server.
    const drop = identity ? [`--reuid=${identity.uid}`, `--regid=${identity.gid}`, '--clear-groups'] : [];
    const proc = spawn('setpriv', [...drop, '--pdeathsig=KILL', '--', HTTPD, '-X', ...(caFile ? ['-D', 'DAV_TLS'] : []), '-f', config], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DAV_TEST_ROOT: runDir, DAV_TEST_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const closed = new Promise((resolve) => proc.once('close', resolve));
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    // Generous: a loaded machine has been seen to take seconds; a healthy start answers at once.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (exited(proc)) {
        // What it printed arrives with its pipes' end, which may come after its exit.
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
        throw new Error(`httpd exited (${proc.exitCode ?? proc.signalCode}):\n${await errorLog()}`);
      }
      try {
        // Any answer means it listens (401: no credentials given).
        const reply = await request(`${origin()}/dav/`, { method: 'OPTIONS', signal: AbortSignal.timeout(1000), ...(probe ? { dispatcher: probe } : {}) });
        await reply.body.dump();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    proc.kill('SIGKILL');
    throw new Error(`httpd did not answer within 30 s:\n${await errorLog()}`);
  };

  const errorLog = async (): Promise<string> => {
    const log = await readFile(path.join(runDir, 'error.log'), 'utf8').catch(() => '');
    return log + output.join('');
  };

  const stop = async (): Promise<void> => {
    if (!child || exited(child)) return;
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5000);
    }
  };

  // The port was free a moment ago; another process may take it before httpd binds it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (err) {
      const inUse = /Address already in use/.test(String(err));
      if (!inUse || attempt === 3) {
        await rm(runDir, { recursive: true, force: true });
        throw err;
      }
      port = await freePort();
    }
  }

  const base = `${origin()}/dav/`;
  return {
    url: base,
    origin: origin(),
    caFile,
    users,
    collections: { home: (user) => `${base}home/${user}/`, shared: `${base}shared/`, restricted: `${base}restricted/`, hidden: `${base}hidden/` },
    runDir,
    root,
    pid: () => (child && !exited(child) ? child.pid : undefined),
    auth: (user) => basicAuth(user, users[user]),
    stop,
    async kill() {
      if (!child || exited(child)) return;
      child.kill('SIGKILL');
      await waitForExit(child, 5000);
    },
    async restart() {
      await stop();
      await launch();
    },
    async setPassword(user, password) {
      users[user] = password;
      await writeUsers();
    },
    errorLog,
    async dispose() {
      await stop();
      await probe?.close();
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

/**
 * One WebDAV server for the calling test file (or describe block): started before its tests, stopped and its
 * folder removed after them. The handle is filled in when the server has started.
 */
export function davServerForSuite(options: DavServerOptions = {}): DavServer {
  const handle = {} as DavServer;
  before(async () => {
    Object.assign(handle, await startDavServer(options));
  });
  after(async () => {
    await handle.dispose?.();
  });
  return handle;
}
