import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { exited, freePort, waitForExit } from './processes.js';
import { connectRedis, type RedisConnection } from '../../src/redis.js';

/**
 * A real Redis for the tests (Debian's redis-server, 7.0): on a free loopback port, with its own folder, no
 * persistence unless asked, and never the system's service. Configured by command-line arguments (a handful).
 */

const REDIS = '/usr/bin/redis-server';

export interface RedisServer {
  /** `redis://127.0.0.1:PORT` (with `:password@` when the password option is given). */
  url: string;
  port: number;
  /** The run's folder: Redis's working folder (its dump or append-only files, when persistence is asked). */
  runDir: string;
  /** The redis-server process now running (undefined between stop or kill and restart). */
  pid(): number | undefined;
  /** Stops Redis (SIGTERM, SIGKILL after 5 s). Without persistence its data is gone. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  /** Starts Redis again on the same port and folder (stops it first if it runs). */
  restart(): Promise<void>;
  /** What redis-server printed (its log goes to stdout). */
  log(): string;
  /** Stops Redis and removes the run's folder. */
  dispose(): Promise<void>;
}

export interface RedisServerOptions {
  /** requirepass: clients must AUTH with it (the URL carries it). */
  password?: string;
  /** Keep data across restart(): an append-only file in the run's folder, fsynced on every write. */
  persistent?: boolean;
}

/** Whether something on the port answers PING like Redis (+PONG, or -NOAUTH when it wants a password). */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG') || answer.startsWith('-NOAUTH'));
    });
  });
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const runDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;
  const output: string[] = [];

  const launch = async (): Promise<void> => {
    const args = [
      '--port', String(port),
      '--bind', '127.0.0.1',
      '--protected-mode', 'yes',
      '--dir', runDir,
      '--daemonize', 'no',
      '--logfile', '',
      // No snapshot and no append-only file unless asked: a test's Redis starts empty every time.
      '--save', '',
      '--appendonly', options.persistent ? 'yes' : 'no',
      ...(options.persistent ? ['--appendfsync', 'always'] : []),
      ...(options.password ? ['--requirepass', options.password] : []),
    ];
    // setpriv: the parent-death signal makes redis-server die with the test process however that ends.
    const proc = spawn('setpriv', ['--pdeathsig=KILL', '--', REDIS, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const closed = new Promise((resolve) => proc.once('close', resolve));
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (exited(proc)) {
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
        throw new Error(`redis-server exited (${proc.exitCode ?? proc.signalCode}):\n${output.join('')}`);
      }
      if (await pings(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    proc.kill('SIGKILL');
    await waitForExit(proc, 5000);
    throw new Error(`redis-server did not answer within 10 s:\n${output.join('')}`);
  };

  const stop = async (): Promise<void> => {
    if (!child || exited(child)) return;
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5000);
    }
  };

  // The port was free a moment ago; another process may take it before Redis binds it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (err) {
      if (!/Address already in use/.test(String(err)) || attempt === 3) {
        await rm(runDir, { recursive: true, force: true });
        throw err;
      }
      port = await freePort();
    }
  }

  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    runDir,
    pid: () => (child && !exited(child) ? child.pid : undefined),
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
    log: () => output.join(''),
    async dispose() {
      await stop();
      await rm(runDir, { recursive: true, force: true });
    },
  };
}

/**
 * One Redis for the calling test file (or describe block): started before its tests, stopped and its folder
 * removed after them. The handle is filled in when Redis has started.
 */
export function redisServerForSuite(options: RedisServerOptions = {}): RedisServer {
  const handle = {} as RedisServer;
  before(async () => {
    Object.assign(handle, await startRedisServer(options));
  });
  after(async () => {
    await handle.dispose?.();
  });
  return handle;
}

/**
 * Connections to `redis` for the calling suite, all closed after it: `connect(prefix)` opens one as the service
 * would (connectRedis), `freshPrefix()` gives a prefix no other test of the run uses, so tests share one Redis.
 */
export function redisConnectionsForSuite(redis: RedisServer, letter = 't'): { connect(prefix: string, url?: string): Promise<RedisConnection>; freshPrefix(): string } {
  const connections: RedisConnection[] = [];
  after(async () => {
    for (const c of connections) await c.close();
  });
  return {
    async connect(prefix, url = redis.url) {
      const connection = await connectRedis({ url, prefix, timeoutMs: 2000 });
      connections.push(connection);
      return connection;
    },
    freshPrefix: () => `${letter}${randomBytes(4).toString('hex')}:`,
  };
}
