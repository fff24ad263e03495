import { hostname } from 'node:os';
import { writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { secretsKey, jobConcurrency, loadConfig, officePool, toolMemory, userTaskLimit, type Config } from './config.js';
import { createAuth } from './auth/index.js';
import { EnginePool } from './engine/pool.js';
import { API_PREFIX, buildApp } from './http/app.js';
import { createOperations } from './operations/index.js';
import { FileJobStore } from './operations/jobs/file-store.js';
import { FileProfileStore } from './operations/optimize/file-store.js';
import { FilesystemStore } from './storage/filesystem-store.js';
import { meteredStores } from './storage/metered-store.js';
import { sharedStores, type DocumentStores } from './storage/store.js';
import { DavClient } from './storage/webdav/client.js';
import { WebDavBackend } from './storage/webdav/store.js';
import { DmsAccounts } from './storage/webdav/accounts.js';
import { Sealer } from './secrets.js';
import type { ExternalDirectory } from './auth/types.js';
import type { SessionStore } from './auth/sessions.js';
import type { LoginThrottle } from './auth/throttle.js';
import type { OptimizeProfileStore } from './operations/optimize/store.js';
import type { UserStore } from './auth/users.js';
import type { TokenStore } from './auth/tokens.js';
import type { Imported } from './redis-import.js';
// The Redis and S3 modules (ioredis, BullMQ, the AWS SDK) are imported where their settings are used, not here: loading
// them costs about 0.6 s of CPU, which every start without them (each test's service, among others) would pay for nothing.
import type { RedisConnection } from './redis.js';
import { declaredTools, ToolSupervisor } from './tools/index.js';
import { pino } from 'pino';

/** Start-up failures an operator can fix, said in one line instead of a stack trace. */
class StartupError extends Error {}

function listenError(err: unknown, config: Config): Error {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new StartupError(`cannot listen on ${where}: the port is in use (set PDFSERVICE_PORT or PDFSERVICE_HOST)`);
  if (code === 'EACCES') return new StartupError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges; set PDFSERVICE_PORT)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartupError(`cannot listen on ${where}: no such local address (set PDFSERVICE_HOST)`);
  return err as Error;
}

/** The key that seals secrets at rest (secrets.ts): the setting, or the file it names. */
async function loadSecretsKey(config: Config): Promise<Buffer> {
  if (config.secretsKey) return config.secretsKey;
  const file = config.secretsKeyFile!;
  try {
    return secretsKey(await readFile(file, 'utf8'));
  } catch (err) {
    throw new StartupError(`PDFSERVICE_SECRETS_KEY_FILE: ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

interface DocumentStoreSetup {
  stores: DocumentStores;
  /** Passthrough: the DMS vouches for its users' logins. */
  directory?: ExternalDirectory;
  /** Mapped: the DMS account each service user acts as. */
  dmsAccounts?: DmsAccounts;
  close(): Promise<void>;
}

/**
 * Where documents live (PDFSERVICE_STORE). The filesystem store has no users
 * of its own: every user gets the one store. The WebDAV store acts as each
 * user at the DMS: with the credentials they logged in with, which the DMS
 * also vouches for (passthrough), or with the DMS account an admin mapped to
 * them (mapped).
 */
async function openDocumentStores(config: Config, redis: RedisConnection | undefined): Promise<DocumentStoreSetup> {
  // With Redis, the filesystem and S3 stores lock documents (and S3 commits) through it, so that several instances
  // on one data folder or bucket prefix never write one document at once (docs/deployment.md, "Document locks").
  const RedisLocks = redis ? (await import('./storage/redis-lock.js')).RedisLocks : undefined;
  const redisLocks = (namespace: string) => (redis && RedisLocks ? new RedisLocks(redis, { namespace, leaseMs: config.lockLeaseMs, waitMs: config.lockWaitMs }) : undefined);
  if (config.store === 'webdav') {
    const read = (file: string | undefined) => (file ? readFile(file) : Promise.resolve(undefined));
    const tls = { ca: await read(config.webdavCaFile), cert: await read(config.webdavCertFile), key: await read(config.webdavKeyFile), rejectUnauthorized: !config.webdavInsecureTls };
    const client = new DavClient({ url: config.webdavUrl!, timeoutMs: config.webdavTimeoutMs, tls });
    const verify = (account: { username: string; password: string }) => client.accepts(account);
    let dmsAccounts: DmsAccounts | undefined;
    if (config.webdavAuth === 'mapped') {
      try {
        dmsAccounts = await DmsAccounts.open(config.dataDir, new Sealer(await loadSecretsKey(config)), verify);
      } catch (err) {
        throw err instanceof StartupError ? err : new StartupError((err as Error).message);
      }
    }
    const backend = new WebDavBackend(client, config.dataDir, dmsAccounts);
    await backend.init();
    // The service has no DMS account of its own to sweep the DMS with: temporary uploads an interrupted write
    // left there are removed when a user's listing meets them (docs/dms.md); the local leftovers go now.
    await backend.clearLocal();
    const close = async () => {
      dmsAccounts?.close();
      await client.close();
    };
    if (dmsAccounts) return { stores: backend, dmsAccounts, close };
    const directory: ExternalDirectory = { rights: config.webdavUserRights, verify: (username, password) => verify({ username, password }) };
    return { stores: backend, directory, close };
  }
  if (config.store === 's3') {
    const { createS3Client } = await import('./storage/s3/client.js');
    const { S3Store } = await import('./storage/s3/store.js');
    const { RedisVersionBook } = await import('./storage/version-book.js');
    const client = createS3Client({
      endpoint: config.s3Endpoint,
      region: config.s3Region,
      accessKeyId: config.s3AccessKeyId,
      secretAccessKey: config.s3SecretAccessKey,
      forcePathStyle: config.s3ForcePathStyle,
      timeoutMs: config.s3TimeoutMs,
    });
    // With Redis every instance takes the shared commit lock for every write, so the version book it keeps there is
    // current: stat and reads of a kept version ask S3 nothing (docs/s3.md, "Version book"). Without Redis, none.
    const store = new S3Store({
      client,
      bucket: config.s3Bucket!,
      prefix: config.s3Prefix,
      dataDir: config.dataDir,
      documentLocks: redisLocks(`s3:${config.s3Bucket!}`),
      commitLock: redisLocks(`s3-commit:${config.s3Bucket!}`),
      versionBook: redis ? new RedisVersionBook(redis, config.s3Bucket!) : undefined,
    });
    await store.init();
    try {
      // Local leftovers go; unfinished uploads only when old (another instance's may be running: S3Store.recover).
      await store.recover();
    } catch (err) {
      client.destroy();
      throw new StartupError(`The S3 store cannot be used: ${(err as Error).message}`);
    }
    // S3 has no users of its own: the service signs every request with its key, and its rights decide.
    return { stores: sharedStores(store), close: async () => client.destroy() };
  }
  const files = new FilesystemStore(config.dataDir, { locks: redisLocks('fs') });
  await files.init();
  await files.recover();
  return { stores: sharedStores(files), close: async () => {} };
}

interface SharedState {
  redis?: RedisConnection;
  /** Seals secrets put in Redis; present when PDFSERVICE_SECRETS_KEY (or its file) is set. */
  sealer?: Sealer;
  sessionStore?: SessionStore;
  throttle?: LoginThrottle;
  userStore?: UserStore;
  tokenStore?: (users: UserStore) => TokenStore;
  profiles?: OptimizeProfileStore;
  /** What was copied from the data folder into Redis at this start. */
  imported?: Imported;
}

/**
 * With PDFSERVICE_REDIS_URL, sessions, login throttling, users, API tokens and
 * optimize profiles live in Redis so that every instance using it shares them
 * (the data folder's users, tokens and profiles are copied into a Redis that
 * has none); without it, sessions and throttling stay in memory and the rest in
 * the data folder, as the one embedded process always did. A Redis that cannot
 * be reached at start stops the start with one line.
 */
async function openSharedState(config: Config, mode: 'service' | 'worker'): Promise<SharedState> {
  if (!config.redisUrl) return {};
  const { connectRedis } = await import('./redis.js');
  const { RedisProfileStore } = await import('./operations/optimize/redis-store.js');
  let redis: RedisConnection;
  try {
    redis = await connectRedis({ url: config.redisUrl, prefix: config.redisPrefix, timeoutMs: config.redisTimeoutMs });
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  try {
    // Passthrough sessions carry DMS passwords: loadConfig made the key a requirement then; sealed with it in Redis.
    const sealer = config.secretsKey || config.secretsKeyFile ? new Sealer(await loadSecretsKey(config)) : undefined;
    // A worker serves no requests: it reads optimize profiles (OptimizeAction), never users, tokens or sessions, and
    // its data folder is scratch space, not state to copy into Redis.
    if (mode === 'worker') return { redis, profiles: new RedisProfileStore(redis), ...(sealer ? { sealer } : {}) };
    const [{ RedisUserStore }, { RedisTokenStore }, { RedisSessionStore }, { RedisLoginThrottle }, { importLocalState }] = await Promise.all([
      import('./auth/redis-users.js'),
      import('./auth/redis-tokens.js'),
      import('./auth/redis-sessions.js'),
      import('./auth/redis-throttle.js'),
      import('./redis-import.js'),
    ]);
    const limits = { idleSeconds: config.sessionIdleSeconds, maxSeconds: config.sessionMaxSeconds };
    const userStore = new RedisUserStore(redis);
    const tokenStore = new RedisTokenStore(redis, userStore);
    const profiles = new RedisProfileStore(redis);
    const imported = await importLocalState(config.dataDir, { users: userStore, tokens: tokenStore, profiles });
    return {
      redis,
      userStore,
      tokenStore: () => tokenStore,
      profiles,
      imported,
      ...(sealer ? { sealer } : {}),
      sessionStore: new RedisSessionStore(redis, limits, sealer),
      throttle: new RedisLoginThrottle(redis, { maxFailures: config.loginMaxFailures, windowSeconds: config.loginLockoutSeconds }),
    };
  } catch (err) {
    await redis.close();
    throw err;
  }
}

/**
 * Builds the service's parts and starts listening. Returns a stop function.
 * As a worker (`npm run worker`, src/worker.ts) it builds the same engine
 * pool, stores and jobs but no HTTP: it only runs jobs from the shared queue.
 */
export async function start(config: Config, mode: 'service' | 'worker' = 'service'): Promise<{ url: string; stop: () => Promise<void> }> {
  const shared = await openSharedState(config, mode);
  // Redis's URL without its credentials, for the log.
  const redisShown = config.redisUrl ? (await import('./redis.js')).redactedRedisUrl(config.redisUrl) : undefined;
  const documentStore = await openDocumentStores(config, shared.redis).catch(async (err: unknown) => {
    await shared.redis?.close();
    throw err;
  });
  const stores = meteredStores(documentStore.stores);
  const { dmsAccounts, directory } = documentStore;
  // A worker serves no requests: it needs no users, and must not create the admin user in its data folder.
  const { auth, generatedAdminPassword } = mode === 'worker' ? { auth: undefined, generatedAdminPassword: undefined } : await createAuth(config, {
    ...(shared.sessionStore ? { sessionStore: shared.sessionStore } : {}),
    ...(shared.throttle ? { throttle: shared.throttle } : {}),
    ...(shared.userStore ? { userStore: shared.userStore } : {}),
    ...(shared.tokenStore ? { tokenStore: shared.tokenStore } : {}),
    ...(directory ? { directory } : {}),
    // A user created later under a removed user's name must not act as the removed user's DMS account.
    ...(dmsAccounts ? { onUserRemoved: (username: string) => void dmsAccounts.forget(username).catch((err: unknown) => log?.error({ err, username }, 'could not remove the DMS account of a removed user')) } : {}),
  });
  let log: FastifyBaseLogger | undefined; // the app's logger, once the app exists
  // Scratch folders under the data folder, so that a start after a crash finds and removes what a killed run left.
  const tools = new ToolSupervisor(declaredTools({ timeoutMs: config.taskTimeoutMs, verapdfDir: config.verapdfDir, office: officePool(config), memory: toolMemory(config) }), config.dataDir);
  const toolsChecked = tools.init(); // version probes run while the engine starts
  const pool = new EnginePool({
    onInternalError: (message, context) => log?.error({ ...context, engineMessage: message }, 'engine failure'),
    size: config.workers,
    taskTimeoutMs: config.taskTimeoutMs,
    jobTaskTimeoutMs: config.jobTaskTimeoutMs,
    maxMemoryBytes: config.workerMaxMemoryMb * 1024 * 1024,
    queueLimit: config.queueLimit,
    ownerTaskLimit: userTaskLimit(config),
  });
  await pool.ready();
  const toolStatuses = await toolsChecked;
  // With Redis, job records, events and the queue are shared by every instance and worker (docs/jobs.md).
  const jobStore = shared.redis ? new (await import('./operations/jobs/redis-store.js')).RedisJobStore(shared.redis) : new FileJobStore(config.dataDir, { onSkip: (file, err) => log?.warn({ file, err }, 'a damaged job record was skipped') });
  const cluster = shared.redis
    ? new (await import('./operations/jobs/cluster.js')).RedisJobCluster(shared.redis, { runJobs: mode === 'worker' || config.runJobs, concurrency: jobConcurrency(config), retentionMs: config.jobRetentionSeconds * 1000, sealer: shared.sealer })
    : undefined;
  const operations = createOperations({
    stores,
    pool,
    tools,
    profiles: shared.profiles ?? (await FileProfileStore.open(config.dataDir)),
    textPrefetchMaxBytes: config.textPrefetchMaxBytes,
    jobs: {
      store: jobStore,
      limits: {
        queueLimit: config.jobQueueLimit,
        concurrency: jobConcurrency(config),
        perUser: config.userJobLimit,
        retentionMs: config.jobRetentionSeconds * 1000,
        asyncBytes: config.jobAsyncBytes,
      },
      ...(cluster ? { cluster } : {}),
    },
  });
  if (mode === 'worker') {
    // No HTTP, so no app logger: the worker's own, in the same JSON lines, for what goes wrong outside a job's record
    // (engine failures, record sweeps).
    log = pino({ level: config.logLevel, base: { pid: process.pid, hostname: hostname(), role: 'worker' } });
  }
  if (cluster) await cluster.start(operations.jobs!);
  if (mode === 'worker') {
    writeSync(1, `pdfservice worker running jobs from ${redisShown} (pid ${process.pid})\n`);
    log?.info({ redis: redisShown, concurrency: jobConcurrency(config), workers: config.workers }, 'worker running jobs');
    return {
      url: '',
      stop: async () => {
        await cluster?.close();
        await tools.close();
        await pool.close();
        await shared.redis?.close();
        await documentStore.close();
      },
    };
  }
  const app = await buildApp({ config, auth: auth!, operations, ...(dmsAccounts ? { dmsAccounts } : {}) });
  log = app.log;
  if (shared.imported && shared.imported.users + shared.imported.tokens + shared.imported.profiles > 0) {
    app.log.info({ ...shared.imported, dataDir: config.dataDir }, 'copied the data folder\'s users, API tokens and optimize profiles into Redis, which had none');
  }
  // Jobs left by the last run: queued ones that can run again are queued again, the others are marked interrupted.
  await operations.jobs?.recover();
  // Finished jobs' records are deleted after the retention time (PDFSERVICE_JOB_RETENTION_SECONDS), checked hourly.
  const sweepJobs = () => void operations.jobs?.sweep().catch((err: unknown) => log?.warn({ err }, 'job record sweep failed'));
  sweepJobs();
  setInterval(sweepJobs, 3_600_000).unref();
  if (generatedAdminPassword) {
    // Printed once, on the console only, so the operator can log in the first time. Written
    // synchronously: stdout on a pipe is asynchronous and would come after the log lines.
    writeSync(1,
      `\nCreated the admin user "${config.adminUser}" with the generated password:\n\n    ${generatedAdminPassword}\n\n` +
        `Keep it now; it is not shown again (change it with PATCH /pdfservice/v1/users/${config.adminUser}).\n\n`,
    );
  }
  let url: string;
  try {
    url = await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await pool.close();
    throw listenError(err, config);
  }
  for (const tool of toolStatuses) {
    if (tool.available) app.log.info({ tool: tool.name, version: tool.version }, 'external tool available');
    else app.log.warn({ tool: tool.name, debianPackage: tool.debianPackage, reason: tool.reason }, 'external tool missing: the features that need it answer 501');
  }
  const api = `${url}${API_PREFIX}`;
  const docs = `${api}/docs`;
  // The one line an operator reads; the JSON line after it is for log collectors (and the tests).
  writeSync(1, `pdfservice listening on ${api} (docs: ${docs})\n`);
  app.log.info({ url, api, docs, workers: config.workers, dataDir: config.dataDir, sessions: redisShown ? `redis ${redisShown}` : 'memory' }, 'listening');
  return {
    url,
    stop: async () => {
      await app.close();
      await cluster?.close();
      await tools.close();
      await pool.close();
      await auth!.close();
      await shared.redis?.close();
      await documentStore.close();
    },
  };
}

/** Runs the service (or a worker) as the process's main: configuration and start errors as one line, stop on SIGTERM/SIGINT. */
export async function runMain(mode: 'service' | 'worker'): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  if (mode === 'worker' && !config.redisUrl) {
    process.stderr.write('pdfservice worker: PDFSERVICE_REDIS_URL is not set: a worker runs jobs from the queue that instances share through Redis\n');
    process.exit(2);
  }
  let service: Awaited<ReturnType<typeof start>>;
  try {
    service = await start(config, mode);
  } catch (err) {
    // Configuration the operator must fix (a bad admin password, a busy port) is one line; anything else
    // is a fault of ours and keeps its stack.
    const known =
      err instanceof StartupError ||
      (err instanceof Error && err.message.startsWith('Invalid configuration')) ||
      typeof (err as NodeJS.ErrnoException).path === 'string'; // the data folder: EACCES, EROFS, ENOSPC...
    process.stderr.write(`pdfservice: ${known ? (err as Error).message : ((err as Error).stack ?? String(err))}\n`);
    process.exit(known ? 2 : 1);
  }
  const shutdown = () => {
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await runMain('service');
