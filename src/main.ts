import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, webhookPolicy, webPolicy, type Config } from './config.js';
import { UserService } from './auth/users.js';
import type { UserAdmin } from './auth/types.js';
import { jobView } from './http/routes/jobs.js';
import type { WebhookSecrets } from './operations/jobs/webhooks.js';
import { createOperations } from './operations/index.js';
import type { AnyAction } from './operations/actions/runner.js';
import { FileProfileStore } from './operations/optimize/file-store.js';
import { FilePipelineStore } from './operations/pipelines/store.js';
import { FileWatchStore } from './operations/watched/store.js';
import { meteredStores } from './storage/metered-store.js';
import { startEngine } from './start/engine.js';
import { startJobWorker } from './start/job-worker.js';
import { openJobs } from './start/jobs.js';
import { openAuth, startService } from './start/service.js';
import { openSharedState } from './start/shared-state.js';
import { StartupError, type LogRef } from './start/startup.js';
import { openDocumentStores } from './start/stores.js';
import { startTools } from './start/tools.js';
import { startTracing, stopTracing } from './tracing.js';

/**
 * Builds the service's parts and starts listening. Returns a stop function.
 * As a worker (`npm run worker`, src/worker.ts) it builds the same engine
 * pool, stores and jobs but no HTTP: it only runs jobs from the shared queue.
 * Each part is a module of src/start/ (docs/architecture.md, "Start-up").
 */
/** What a test's in-process service may add (production starts with none): actions outside the registry, as the engine pool's extraTasks. */
export interface StartOptions {
  extraActions?: readonly AnyAction[];
}

export async function start(config: Config, mode: 'service' | 'worker' = 'service', options: StartOptions = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  const log: LogRef = {}; // the app's logger (or the worker's), once it exists
  const shared = await openSharedState(config, mode);
  const documentStore = await openDocumentStores(config, shared.redis).catch(async (err: unknown) => {
    await shared.redis?.close();
    throw err;
  });
  // A worker serves no requests: it needs no users, and must not create the admin user in its data folder.
  const auth = mode === 'service' ? await openAuth(config, shared, documentStore, log) : undefined;
  const { tools, prepared } = startTools(config); // programs found while the engine starts; versions probed on first need
  const pool = startEngine(config, log); // ready before the service listens or the worker takes jobs (start/engine.ts)
  await prepared;
  const jobs = await openJobs(config, shared, documentStore, mode, log);
  // Webhooks are signed with their owner's secret: a worker (no users of its own) reads it from the users in Redis.
  const secrets = webhookSecrets(auth?.auth.users ?? (shared.userStore ? new UserService(shared.userStore) : undefined));
  const operations = createOperations({
    stores: meteredStores(documentStore.stores),
    pool,
    tools,
    profiles: shared.profiles ?? (await FileProfileStore.open(config.dataDir)),
    // A worker runs pipelines' jobs from what their prepare kept, and reads no pipeline.
    pipelines: shared.pipelines ?? (mode === 'worker' ? undefined : await FilePipelineStore.open(config.dataDir)),
    // A worker watches nothing: arrivals are seen by the instance that writes them (its jobs' writes are announced there too).
    ...(mode === 'service' ? { watched: { store: shared.watched ?? (await FileWatchStore.open(config.dataDir)), settings: { attempts: config.watchAttempts, retryMs: config.watchRetryMs } } } : {}),
    textPrefetchMaxBytes: config.textPrefetchMaxBytes,
    jobs,
    web: webPolicy(config),
    webhooks: { policy: webhookPolicy(config), view: jobView, ...(secrets ? { secrets } : {}) },
    ...(options.extraActions ? { extraActions: options.extraActions } : {}),
  });
  const parts = { shared, documentStore, tools, pool, operations, jobs, log };
  if (!auth) return startJobWorker(config, parts);
  return startService(config, { ...parts, auth });
}

/** The users' webhook secrets as jobs use them: made at a job's submission, read at its delivery. */
function webhookSecrets(users: Pick<UserAdmin, 'webhookSecret' | 'currentWebhookSecret'> | undefined): WebhookSecrets | undefined {
  if (!users) return undefined;
  return { ensure: (username) => users.webhookSecret(username), current: (username) => users.currentWebhookSecret(username) };
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
    // Before anything that makes spans; the SDK is loaded only when the OTEL_* variables ask for traces.
    await startTracing();
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
    // The spans still buffered are sent before the process ends.
    service.stop().then(stopTracing).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await runMain('service');
