import { tracingSummary } from '../tracing.js';
import { writeSync } from 'node:fs';
import type { Config } from '../config.js';
import { createAuth } from '../auth/index.js';
import type { Auth, Right } from '../auth/types.js';
import type { EnginePool } from '../engine/pool.js';
import { API_PREFIX, buildApp } from '../http/app.js';
import { compileEverySerializer } from '../http/serialization.js';
import type { Operations } from '../operations/index.js';
import { CHROMIUM } from '../tools/chromium.js';
import type { ToolSupervisor } from '../tools/index.js';
import { compileValidators } from '../validation.js';
import { keepJobRecords, type JobSetup } from './jobs.js';
import { keepRetention } from './retention.js';
import { warnMissingNodeFlags } from './node-flags.js';
import type { SharedState } from './shared-state.js';
import type { DocumentStoreSetup } from './stores.js';
import { StartupError, type LogRef } from './startup.js';

function listenError(err: unknown, config: Config): Error {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new StartupError(`cannot listen on ${where}: the port is in use (set PDFSERVICE_PORT or PDFSERVICE_HOST)`);
  if (code === 'EACCES') return new StartupError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges; set PDFSERVICE_PORT)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartupError(`cannot listen on ${where}: no such local address (set PDFSERVICE_HOST)`);
  return err as Error;
}

/** Users, sessions and logins: in Redis when shared state is there, else in memory and the data folder; the DMS's users with a DMS store. */
export async function openAuth(config: Config, shared: SharedState, documentStore: DocumentStoreSetup, log: LogRef): Promise<{ auth: Auth; generatedAdminPassword?: string }> {
  const { dmsAccounts, directory } = documentStore;
  return createAuth(config, {
    ...(shared.sessionStore ? { sessionStore: shared.sessionStore } : {}),
    ...(shared.throttle ? { throttle: shared.throttle } : {}),
    ...(shared.pendingSignIns ? { pendingSignIns: shared.pendingSignIns } : {}),
    ...(shared.userStore ? { userStore: shared.userStore } : {}),
    ...(shared.tokenStore ? { tokenStore: shared.tokenStore } : {}),
    ...(directory ? { directory } : {}),
    // A user created later under a removed user's name must not act as the removed user's DMS account.
    // Awaited before DELETE /users/{name} answers (a user created again at once had still found the account).
    ...(dmsAccounts ? { onUserRemoved: (username: string) => dmsAccounts.forget(username).catch((err: unknown) => log.current?.error({ err, username }, 'could not remove the DMS account of a removed user')) } : {}),
  });
}

/** The HTTP service over the parts start() built: the app, its job records' care, listening, and the lines an operator reads. */
export async function startService(
  config: Config,
  parts: {
    shared: SharedState;
    documentStore: DocumentStoreSetup;
    auth: { auth: Auth; generatedAdminPassword?: string };
    tools: ToolSupervisor;
    pool: EnginePool;
    operations: Operations;
    jobs: JobSetup;
    log: LogRef;
  },
): Promise<{ url: string; stop: () => Promise<void> }> {
  const { shared, documentStore, tools, pool, operations, log } = parts;
  const { auth, generatedAdminPassword } = parts.auth;
  // The app is built on this thread while the engine's workers load MuPDF on theirs (start/engine.ts): a start takes the
  // longer of the two rather than their sum. Jobs start once the engine is ready, as before.
  const [app] = await Promise.all([
    buildApp({ config, auth, operations, ...(documentStore.dmsAccounts ? { dmsAccounts: documentStore.dmsAccounts } : {}) }),
    pool.ready().then(() => operations.jobs?.start()),
  ]);
  log.current = app.log;
  warnMissingNodeFlags(app.log);
  if (shared.imported && shared.imported.users + shared.imported.tokens + shared.imported.profiles > 0) {
    app.log.info({ ...shared.imported, dataDir: config.dataDir }, 'copied the data folder\'s users, API tokens and optimize profiles into Redis, which had none');
  }
  await keepJobRecords(operations, log);
  // Watched folders' runs go as their binders with the rights those have now; what was missed while down is picked up.
  // Those of the OpenID Connect issuer with the rights recorded at bind time, as far as the mapping still gives them.
  const mappable = [...new Set([...config.oidcRights.values()].flat())] as Right[];
  operations.watched.attach(
    {
      rightsOf: (username) => auth.users.get(username).then((user) => user.rights, () => undefined),
      oidc: () => (config.oidcIssuer !== undefined && config.oidcAudience !== undefined ? { issuer: config.oidcIssuer, rights: mappable } : undefined),
    },
    (err, what) => app.log.error({ err }, `watched folders: ${what} failed`),
  );
  const scan = await operations.watched.start();
  // Once the scan's claims are in: a restart shows what it picked up (and a test need not guess when it is done).
  if (scan.bindings > 0) void scan.claimed.then((claimed) => app.log.info({ bindings: scan.bindings, missedArrivals: claimed }, 'watched folders: start-up scan done'));
  const stopRetention = await keepRetention(config, shared, documentStore, log);
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
  if (config.engineWarmUp > 0) {
    // The service's warm-up, as the engine's: every route's request validators and response serializers generated now
    // (made when first used, they cost the first request of each route 60-90 ms of the event loop's CPU, issue 38).
    // After listen (a port in use fails the start at once, as before) and before the listening line: a connection
    // made meanwhile waits for the loop. Without warm-up (the test suites) they stay lazy.
    compileValidators();
    compileEverySerializer();
  }
  // A missing program is logged now; a found one's version (or its failing probe) once probed, on first need.
  tools.onChecked((tool) => {
    if (tool.available) app.log.info({ tool: tool.name, version: tool.version }, 'external tool available');
    else app.log.warn({ tool: tool.name, debianPackage: tool.debianPackage, reason: tool.reason }, 'external tool missing: the features that need it answer 503');
  });
  // The HTML pool's browsers, when asked for, started now: the first conversion then finds them warm (docs/html.md).
  if (config.chromiumPrewarm) void tools.prewarm(CHROMIUM);
  const api = `${url}${API_PREFIX}`;
  const docs = `${api}/docs`;
  // The one line an operator reads; the JSON line after it is for log collectors (and the tests).
  writeSync(1, `pdfservice listening on ${api} (docs: ${docs})\n`);
  app.log.info({ url, api, docs, workers: config.workers, dataDir: config.dataDir, sessions: config.redisUrl ? `redis ${(await import('../redis.js')).redactedRedisUrl(config.redisUrl)}` : 'memory', tracing: tracingSummary() ?? 'off' }, 'listening');
  return {
    url,
    stop: async () => {
      await app.close();
      operations.watched.close();
      await stopRetention?.();
      await operations.jobs?.close();
      await tools.close();
      await pool.close();
      await auth.close();
      await shared.redis?.close();
      await documentStore.close();
    },
  };
}
