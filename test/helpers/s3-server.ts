import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { exited, freePorts, waitForExit } from './processes.js';

/**
 * A real S3 server for the tests: OpenStack Swift 2.30 from Debian (python3-swift) with its S3 API middleware
 * (s3api) and tempauth, configured by the files in test/s3/, on free loopback ports, with its own folder.
 * docs/s3.md "The test server" describes it and what it does and does not support.
 */

const CONFIG_DIR = fileURLToPath(new URL('../../../test/s3/', import.meta.url));
// Debian's interpreter, whatever python3 comes first on PATH (a pyenv's has no swift module).
const PYTHON = '/usr/bin/python3';
const MEMCACHED = '/usr/bin/memcached';
/** 2^6 partitions per ring: one device needs no more, and a small ring is built in a moment. */
const PART_POWER = 6;
/**
 * The environment of every Python process of the server. EVENTLET_NO_GREENDNS: without eventlet's green DNS resolver,
 * whose import is half of a server's start (the servers use addresses only). SETUPTOOLS_USE_DISTUTILS=stdlib: eventlet
 * imports distutils, which setuptools otherwise replaces by its own copy, importing much of setuptools with it (about
 * 0.15 s of CPU a process; docs/s3.md "The test server").
 */
const PYTHON_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', EVENTLET_NO_GREENDNS: 'yes', SETUPTOOLS_USE_DISTUTILS: 'stdlib' };

const SERVERS = ['account', 'container', 'object', 'proxy'] as const;
type SwiftServer = (typeof SERVERS)[number];
type Process = SwiftServer | 'memcached';

/** Credentials of a tempauth user: the access key is `account:user`, the secret its password. */
export interface S3User {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface S3Server {
  /** `http://127.0.0.1:PORT`: the proxy, path-style (`/bucket/key`). */
  endpoint: string;
  /** The region SigV4 signs for (s3api's `location`); another is refused. */
  region: string;
  /** test:tester, the owner of the account the buckets are in. */
  accessKeyId: string;
  secretAccessKey: string;
  /** other:tester, the owner of another account: none of `buckets` is theirs (each account has its own names). */
  other: S3User;
  /** The buckets created before the start returned, in the first user's account. */
  buckets: string[];
  /** The run's folder: the rendered configuration, rings, and devices/d1 (the one device, Swift's files). */
  runDir: string;
  /** The pid of each process now running (undefined when stopped or killed). */
  pids(): Record<Process, number | undefined>;
  /**
   * An SDK client with the settings the S3 store uses (path-style, checksums only when required), signed as the
   * first user unless another is given; `config` overrides any setting (maxAttempts, say).
   */
  client(user?: S3User, config?: Partial<S3ClientConfig>): S3Client;
  /** Stops every process (SIGTERM, SIGKILL after 5 s); the files stay for restart(). */
  stop(): Promise<void>;
  /** SIGKILL of the proxy, as a crash: S3 clients can no longer connect; the storage servers keep running. */
  kill(): Promise<void>;
  /** Starts everything again on the same ports over the same files (stops what still runs first). */
  restart(): Promise<void>;
  /** The servers' log lines so far (Swift's syslog lines, each access, and what the processes printed). */
  log(): string;
  /** Stops everything and removes the run's folder (once; later calls do nothing). */
  dispose(): Promise<void>;
}

export interface S3ServerOptions {
  /** Buckets to create in the first user's account (default: one, `pdfservice-test`). */
  buckets?: string[];
  /** Secrets to use instead of random ones. */
  secrets?: { tester?: string; other?: string };
  /** S3 bucket versioning (Swift's object_versioning and symlink in the proxy's pipeline); default off, as most servers. */
  objectVersioning?: boolean;
}

/**
 * Who the servers run as: nobody when the tests run as root, else the test's user. setpriv switches before Swift
 * starts: were Swift to switch itself (its `user` setting, from root), the kernel would drop the parent-death signal.
 */
function serverIdentity(): { uid: number; gid: number; name: string } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g'), name: 'nobody' };
}

/** Resolves when something accepts a connection on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Replaces each ${NAME} of a test/s3 template; a name left over outside comments is a mistake in the template. */
function render(template: string, values: Record<string, string>, file: string): string {
  const text = template.replace(/\$\{([A-Z0-9_]+)\}/g, (whole, name: string) => values[name] ?? whole);
  const left = text.split('\n').find((line) => !line.trimStart().startsWith('#') && /\$\{[A-Z0-9_]+\}/.test(line));
  if (left !== undefined) throw new Error(`test/s3/${file}: no value for ${left.trim()}`);
  return text;
}

async function chownTree(target: string, uid: number, gid: number): Promise<void> {
  await chown(target, uid, gid);
  for (const entry of await readdir(target, { withFileTypes: true })) {
    const child = path.join(target, entry.name);
    if (entry.isDirectory()) await chownTree(child, uid, gid);
    else await chown(child, uid, gid);
  }
}

/**
 * Where run folders go: the first of these whose filesystem takes user xattrs (Swift keeps an object's metadata
 * there); swift-run.py's rings command checks, as the server's user. /dev/shm (tmpfs) first: a throwaway server
 * needs no durability, and there its writes wait for no disk (Swift syncs every object and its folder; a PutObject,
 * CopyObject or DeleteObject took 1.2 to 3 times as long on ext4: docs/s3.md "The test server"). tmpfs has user
 * xattrs only from Linux 6.6 on; then the system's temporary folder and /var/tmp (on Debian usually the root
 * filesystem, ext4: xattrs work).
 */
const RUN_BASES = [...new Set(['/dev/shm', tmpdir(), '/var/tmp'])];

export async function startS3Server(options: S3ServerOptions = {}): Promise<S3Server> {
  const identity = serverIdentity();
  const user = identity?.name ?? userInfo().username;
  const tester: S3User = { accessKeyId: 'test:tester', secretAccessKey: options.secrets?.tester ?? randomBytes(15).toString('base64url') };
  const other: S3User = { accessKeyId: 'other:tester', secretAccessKey: options.secrets?.other ?? randomBytes(15).toString('base64url') };
  const buckets = options.buckets ?? ['pdfservice-test'];
  const region = 'us-east-1';

  // Swift logs to syslog; its UDP form, sent here, keeps the lines with the run instead of in the system's log.
  const lines: string[] = [];
  const logSocket = dgram.createSocket('udp4');
  logSocket.on('message', (message) => lines.push(message.toString('utf8').replace(/^<\d+>/, '').trimEnd()));
  await new Promise<void>((resolve, reject) => {
    logSocket.once('error', reject);
    logSocket.bind(0, '127.0.0.1', resolve);
  });
  const logPort = logSocket.address().port;
  const log = () => lines.join('\n');

  const children = new Map<Process, ChildProcess>();
  const clients: S3Client[] = [];
  let runDir = '';
  let ports = {} as Record<Process, number>;

  /** Runs swift-run.py (as the server's user); resolves with its exit code and output. */
  const python = (args: string[]) => new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const drop = identity ? [`--reuid=${identity.uid}`, `--regid=${identity.gid}`, '--clear-groups'] : [];
    const proc = spawn('setpriv', [...drop, '--pdeathsig=KILL', '--', PYTHON, '-I', path.join(runDir, 'swift-run.py'), ...args], {
      env: PYTHON_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    proc.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    proc.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    proc.once('error', reject);
    proc.once('close', (code) => resolve({ code, output: Buffer.concat(output).toString('utf8') }));
  });

  /**
   * A run folder with the configuration for `ports` and the rings: in the first base folder whose filesystem takes
   * user xattrs. The servers' files (devices/d1) are kept by restart(), which reuses folder and ports.
   */
  const prepare = async (): Promise<void> => {
    const failures: string[] = [];
    for (const base of RUN_BASES) {
      try {
        runDir = await mkdtemp(path.join(base, 'pdfservice-s3-'));
      } catch (err) {
        // A system without /dev/shm, or one we may not write in: the next base.
        failures.push(`${base} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
        runDir = '';
        continue;
      }
      const values: Record<string, string> = {
        S3_TEST_ROOT: runDir, S3_TEST_USER: user, LOG_PORT: String(logPort),
        PROXY_PORT: String(ports.proxy), ACCOUNT_PORT: String(ports.account), CONTAINER_PORT: String(ports.container),
        OBJECT_PORT: String(ports.object), MEMCACHE_PORT: String(ports.memcached),
        SECRET_TESTER: tester.secretAccessKey, SECRET_OTHER: other.secretAccessKey,
        SYMLINK: options.objectVersioning ? ' symlink' : '', OBJECT_VERSIONING: String(options.objectVersioning === true),
      };
      // The servers read copies in the run's folder, which they own: as nobody they may not enter the checkout.
      for (const file of ['swift.conf', ...SERVERS.map((server) => `${server}-server.conf`), 'swift-run.py']) {
        const template = await readFile(path.join(CONFIG_DIR, file), 'utf8');
        await writeFile(path.join(runDir, file), file.endsWith('.conf') ? render(template, values, file) : template);
      }
      await mkdir(path.join(runDir, 'devices', 'd1'), { recursive: true });
      await mkdir(path.join(runDir, 'cache'));
      if (identity) await chownTree(runDir, identity.uid, identity.gid);
      const rings = await python(['rings', runDir, String(PART_POWER), String(ports.account), String(ports.container), String(ports.object)]);
      if (rings.code === 0) return;
      await rm(runDir, { recursive: true, force: true });
      if (rings.code !== 3) throw new Error(`building the rings failed (${rings.code}):\n${rings.output}`);
      failures.push(base);
    }
    throw new Error(`no folder for the S3 test server takes user xattrs (Swift needs them): tried ${failures.join(', ')}`);
  };

  const spawnProcess = (name: Process): ChildProcess => {
    // setpriv: the parent-death signal makes each server die with the test process however that ends; as root it
    // also drops to nobody. Each is one process (workers = 0; memcached has threads only), so its pid is all of it.
    const drop = identity ? [`--reuid=${identity.uid}`, `--regid=${identity.gid}`, '--clear-groups'] : [];
    const command = name === 'memcached'
      ? [MEMCACHED, '-l', '127.0.0.1', '-p', String(ports.memcached), '-U', '0', '-m', '16', '-c', '256']
      : [PYTHON, '-I', path.join(runDir, 'swift-run.py'), 'serve', runDir, path.join(runDir, `${name}-server.conf`), `${name}-server`];
    const proc = spawn('setpriv', [...drop, '--pdeathsig=KILL', '--', ...command], {
      env: PYTHON_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').trimEnd().split('\n')) lines.push(`${name}: ${line}`);
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    children.set(name, proc);
    return proc;
  };

  const stopProcess = async (proc: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> => {
    if (!proc || exited(proc)) return;
    proc.kill(signal);
    if (!(await waitForExit(proc, 5000))) {
      proc.kill('SIGKILL');
      await waitForExit(proc, 5000);
    }
  };

  const stop = async (): Promise<void> => {
    // The proxy first, so no request reaches a storage server that is going away.
    await stopProcess(children.get('proxy'), 'SIGTERM');
    await Promise.all([...children.entries()].filter(([name]) => name !== 'proxy').map(([, proc]) => stopProcess(proc, 'SIGTERM')));
  };

  /** Starts the five processes and returns when each port accepts connections and the proxy answers. */
  const launch = async (): Promise<void> => {
    const started = (['memcached', ...SERVERS] as const).map((name) => [name, spawnProcess(name)] as const);
    // Swift starts four Python servers: on a loaded 2-core machine that took over 20 s (a helper saw it); a start that succeeds
    // earlier returns at once.
    const deadline = Date.now() + 60_000;
    const pending = new Set<Process>(started.map(([name]) => name));
    while (pending.size > 0) {
      for (const [name, proc] of started) {
        if (exited(proc)) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          await stop();
          throw new Error(`${name} exited (${proc.exitCode ?? proc.signalCode}):\n${log()}`);
        }
        if (pending.has(name) && (await accepts(ports[name]))) pending.delete(name);
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`the S3 test server did not start within 60 s (waiting for ${[...pending].join(', ')}):\n${log()}`);
      }
      if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Swift may bind before it has loaded its pipeline (the connection then waits): one request shows it serves.
    const reply = await fetch(`http://127.0.0.1:${ports.proxy}/healthcheck`);
    if (reply.status !== 200) throw new Error(`the proxy's healthcheck answered ${reply.status}:\n${log()}`);
  };

  const endpoint = () => `http://127.0.0.1:${ports.proxy}`;
  const client = (who: S3User = tester, config: Partial<S3ClientConfig> = {}): S3Client => {
    const made = new S3Client({
      endpoint: endpoint(),
      region,
      credentials: { accessKeyId: who.accessKeyId, secretAccessKey: who.secretAccessKey },
      // Path-style (/bucket/key): virtual-host style needs a DNS name per bucket, which a loopback server has not.
      forcePathStyle: true,
      // The SDK's default since 2025 adds CRC32 checksums (trailers, aws-chunked bodies) to every upload, which
      // non-AWS servers do not all understand (issue 24 measured it): send and check them only where S3 requires.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...config,
    });
    clients.push(made);
    return made;
  };

  // The ports were free a moment ago; another process may take one before its server binds it: try others.
  for (let attempt = 1; ; attempt++) {
    const [proxy, account, container, object, memcached] = await freePorts(5);
    ports = { proxy: proxy!, account: account!, container: container!, object: object!, memcached: memcached! };
    try {
      await prepare();
      await launch();
      break;
    } catch (err) {
      await stop();
      if (runDir) await rm(runDir, { recursive: true, force: true });
      const inUse = /Address already in use|Could not bind|failed to listen/i.test(String(err));
      if (!inUse || attempt === 3) {
        logSocket.close();
        throw err;
      }
    }
  }

  let disposed = false;
  const dispose = async (): Promise<void> => {
    // Idempotent: a test may dispose of the suite's server to check what is left, and the suite's after() again.
    if (disposed) return;
    disposed = true;
    for (const made of clients.splice(0)) made.destroy();
    await stop();
    logSocket.close();
    await rm(runDir, { recursive: true, force: true });
  };

  try {
    const admin = client();
    for (const bucket of buckets) await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    const lines = log();
    await dispose();
    throw new Error(`creating the test buckets failed: ${String(err)}\n${lines}`, { cause: err });
  }

  return {
    endpoint: endpoint(),
    region,
    accessKeyId: tester.accessKeyId,
    secretAccessKey: tester.secretAccessKey,
    other,
    buckets,
    runDir,
    pids: () => Object.fromEntries((['memcached', ...SERVERS] as const).map((name) => {
      const proc = children.get(name);
      return [name, proc && !exited(proc) ? proc.pid : undefined];
    })) as Record<Process, number | undefined>,
    client,
    stop,
    async kill() {
      const proxy = children.get('proxy');
      if (!proxy || exited(proxy)) return;
      proxy.kill('SIGKILL');
      await waitForExit(proxy, 5000);
    },
    async restart() {
      await stop();
      await launch();
    },
    log,
    dispose,
  };
}

/**
 * One S3 server for the calling test file (or describe block): started before its tests, stopped and its folder
 * removed after them. The handle is filled in when the server has started.
 */
export function s3ServerForSuite(options: S3ServerOptions = {}): S3Server {
  const handle = {} as S3Server;
  before(async () => {
    Object.assign(handle, await startS3Server(options));
  });
  after(async () => {
    await handle.dispose?.();
  });
  return handle;
}
