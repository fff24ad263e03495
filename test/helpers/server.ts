import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../src/start/node-flags.js';
import { startDavServer, type DavServer } from './dav-server.js';
import { waitForExit } from './processes.js';

export const ADMIN = { username: 'admin', password: 'admin-test-password-1' };
const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface TestServer {
  baseUrl: string;
  /** Absolute base of the API: `${baseUrl}/pdfservice/v1`. */
  api: string;
  dataDir: string;
  /**
   * The folder on disk that holds the stored documents: the data folder's documents/ with the local store, the
   * admin's home on the DMS's disk with PDFSERVICE_TEST_STORE=webdav.
   */
  documentsDir: string;
  /** The WebDAV test server the service stores into (PDFSERVICE_TEST_STORE=webdav only). */
  dav?: DavServer;
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

/** PDFSERVICE_TEST_STORE=webdav runs the service over the WebDAV test server (docs/dms.md "The test server"). */
export const TEST_STORE = process.env.PDFSERVICE_TEST_STORE === 'webdav' ? 'webdav' : 'fs';

/**
 * Starts the real service (dist/src/main.js) as a child process on an
 * ephemeral loopback port with its own data folder, and waits for it to listen.
 * With PDFSERVICE_TEST_STORE=webdav it first starts the Apache WebDAV test
 * server with the admin as a DMS user too (same password, so a passthrough
 * login carries both the service rights and the DMS credentials), and stores
 * into the admin's home there. `sameStoreAs`: a second service over another's data folder and store (its WebDAV test
 * server too, which stays the other's to stop), as a restart or another instance would see them.
 */
export async function startServer(options: { env?: Record<string, string>; dataDir?: string; sameStoreAs?: TestServer; openFileLimit?: number; nodeFlags?: readonly string[]; main?: string } = {}): Promise<TestServer> {
  const shared = options.sameStoreAs;
  const dataDir = options.dataDir ?? shared?.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'pdfservice-test-')));
  let dav: DavServer | undefined = shared?.dav;
  const ownsDav = dav === undefined;
  let storeEnv: Record<string, string> = {};
  if (TEST_STORE === 'webdav') {
    dav ??= await startDavServer({ extraUsers: { [ADMIN.username]: ADMIN.password } });
    storeEnv = { PDFSERVICE_STORE: 'webdav', PDFSERVICE_WEBDAV_URL: `${dav.url}home/${ADMIN.username}/`, PDFSERVICE_WEBDAV_AUTH: 'passthrough' };
  }
  const documentsDir = dav ? path.join(dav.root, 'home', ADMIN.username) : path.join(dataDir, 'documents');
  // Started as production starts it: with the service's Node.js options (src/start/node-flags.ts), unless a test says otherwise.
  // `main`: another build's dist/src/main.js (the bench's --compare), started by this helper like ours.
  const node = [process.execPath, ...(options.nodeFlags ?? NODE_FLAGS), options.main ?? MAIN];
  // prlimit (util-linux) execs node with a lower open-file limit, soft and hard: same process, same pid.
  const [command, args] = options.openFileLimit ? ['prlimit', [`--nofile=${options.openFileLimit}:${options.openFileLimit}`, ...node]] : [node[0]!, node.slice(1)];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      PDFSERVICE_HOST: '127.0.0.1',
      PDFSERVICE_PORT: '0',
      PDFSERVICE_DATA_DIR: dataDir,
      PDFSERVICE_ADMIN_USER: ADMIN.username,
      PDFSERVICE_ADMIN_PASSWORD: ADMIN.password,
      PDFSERVICE_LOG_LEVEL: 'info',
      // Longer than a test process can be busy between two requests (a synchronous PDFBox or qpdf run takes over 10 s
      // on a loaded machine): with the default 10 s the service closed the idle connection meanwhile, and the test's next
      // request on it failed with "fetch failed" (other side closed). A test of the idle limit sets its own.
      PDFSERVICE_KEEP_ALIVE_TIMEOUT_MS: '600000',
      // scrypt at N = 2^10 instead of 2^15: a password hash or check costs about 2 ms of CPU instead of about 100, and the suites pay
      // it at every start (the admin) and every first Basic request of a user (docs/testing.md). users.test.ts checks the
      // default cost.
      PDFSERVICE_PASSWORD_HASH_COST: '10',
      // No engine warm-up (engine/core/warmup.ts): it costs each start about half a second of CPU, and the suites start the
      // service some two hundred times. test/api/engine-warmup.test.ts starts it with two rounds and checks the default.
      PDFSERVICE_ENGINE_WARMUP: '0',
      // No browsers started with the service (on by default where Chromium is installed): each costs a start about
      // 0.75 s of CPU and 250 MB. The HTML tests start them with their first conversion; html-pool.test.ts sets it.
      PDFSERVICE_CHROMIUM_PREWARM: 'false',
      ...storeEnv,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const listening = new Promise<string>((resolve, reject) => {
    // A service that does not say it listens (e.g. PDFSERVICE_LOG_LEVEL above info) is stopped, or its pipes keep the test process alive.
    // 60 s, not less: on a 2-core machine busy with other builds, dms-suites' starts (httpd, then the service) went past 20 s.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 60 s:\n${output.join('\n')}`));
    }, 60_000);
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
      // Only the start line is looked for: parsing every line (one or two per request) made a load generator in the
      // same process (a bench) slower against the service than against a peer that logs nothing.
      if (!line.includes('"listening"')) return;
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
  // A service that does not start leaves no handle to stop: its DMS goes with it.
  const baseUrl = await listening.catch(async (err: unknown) => {
    if (ownsDav) await dav?.dispose();
    throw err;
  });
  return {
    baseUrl,
    api: `${baseUrl}/pdfservice/v1`,
    dataDir,
    documentsDir,
    ...(dav ? { dav } : {}),
    child,
    output,
    adminAuth: basicAuth(ADMIN.username, ADMIN.password),
    async stop() {
      // A process killed by a signal (a test's SIGKILL) has a signalCode and no exitCode: it is gone too.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // waitForExit clears its timer: a bare race with a 5 s timer kept every test file's process alive 5 s after its
        // last test (about 7 minutes of the tests stage's 26).
        // Waited for too: kill() only sends the signal, and a process still writing in its data folder made the rm below fail (ENOTEMPTY).
        if (!(await waitForExit(child, 5000))) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      if (!options.dataDir && !shared) await rm(dataDir, { recursive: true, force: true });
      if (ownsDav) await dav?.dispose();
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
