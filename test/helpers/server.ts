import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

export const ADMIN = { username: 'admin', password: 'admin-test-password-1' };
const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface TestServer {
  baseUrl: string;
  /** Absolute base of the API: `${baseUrl}/pdfservice/v1`. */
  api: string;
  dataDir: string;
  child: ChildProcess;
  /** stdout+stderr lines so far (JSON log lines and anything else). */
  output: string[];
  /** Authorization header value for the admin. */
  adminAuth: string;
  stop(): Promise<void>;
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/**
 * Starts the real service (dist/src/main.js) as a child process on an
 * ephemeral loopback port with its own data folder, and waits for it to listen.
 */
export async function startServer(options: { env?: Record<string, string>; dataDir?: string; openFileLimit?: number } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'pdfservice-test-')));
  // prlimit (util-linux) execs node with a lower open-file limit, soft and hard: same process, same pid.
  const [command, args] = options.openFileLimit
    ? ['prlimit', [`--nofile=${options.openFileLimit}:${options.openFileLimit}`, process.execPath, MAIN]]
    : [process.execPath, [MAIN]];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      PDFSERVICE_HOST: '127.0.0.1',
      PDFSERVICE_PORT: '0',
      PDFSERVICE_DATA_DIR: dataDir,
      PDFSERVICE_ADMIN_USER: ADMIN.username,
      PDFSERVICE_ADMIN_PASSWORD: ADMIN.password,
      PDFSERVICE_LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // A service that does not say it listens (e.g. PDFSERVICE_LOG_LEVEL above info) is stopped, or its pipes keep the test process alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output.join('\n')}`));
    }, 20_000);
    // A line may arrive in two chunks: keep each stream's unfinished line until its end comes.
    const partial = { stdout: '', stderr: '' };
    const onChunk = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const lines = (partial[stream] + chunk.toString('utf8')).split('\n');
      partial[stream] = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    };
    const onLine = (line: string) => {
      if (!line) return;
      output.push(line);
      if (output.length > 5000) output.splice(0, 1000);
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      } catch {
        /* not a log line */
      }
    };
    child.stdout!.on('data', onChunk('stdout'));
    child.stderr!.on('data', onChunk('stderr'));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('\n')}`));
    });
  });
  return {
    baseUrl,
    api: `${baseUrl}/pdfservice/v1`,
    dataDir,
    child,
    output,
    adminAuth: basicAuth(ADMIN.username, ADMIN.password),
    async stop() {
      // A process killed by a signal (a test's SIGKILL) has a signalCode and no exitCode: it is gone too.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server for the calling test file (or describe block): started before
 * its tests and stopped after them. The handle is filled in when the server
 * has started, so it may be captured by helpers defined at load time.
 */
export function serverForSuite(options: Parameters<typeof startServer>[0] = {}): TestServer {
  const handle = {} as TestServer;
  before(async () => {
    Object.assign(handle, await startServer(options));
  });
  after(async () => {
    await handle.stop();
  });
  return handle;
}
