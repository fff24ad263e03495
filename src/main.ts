import { writeSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig, type Config } from './config.js';
import { createAuth } from './auth/index.js';
import { EnginePool } from './engine/pool.js';
import { OfficeConverter } from './engine/office.js';
import { buildApp } from './http/app.js';
import { createOperations } from './operations/index.js';
import { FilesystemStore } from './storage/filesystem-store.js';
import { MeteredStore } from './storage/metered-store.js';

/** Builds the service's parts and starts listening. Returns a stop function. */
export async function start(config: Config): Promise<{ url: string; stop: () => Promise<void> }> {
  const files = new FilesystemStore(config.dataDir);
  await files.init();
  await files.recover();
  const store = new MeteredStore(files);
  const { auth, generatedAdminPassword } = await createAuth(config);
  let log: FastifyBaseLogger | undefined; // the app's logger, once the app exists
  const pool = new EnginePool({
    onInternalError: (message, context) => log?.error({ ...context, engineMessage: message }, 'engine failure'),
    size: config.workers,
    taskTimeoutMs: config.taskTimeoutMs,
    maxMemoryBytes: config.workerMaxMemoryMb * 1024 * 1024,
    queueLimit: config.queueLimit,
  });
  await pool.ready();
  // Under the data folder, so that a start after a crash finds and removes what a killed conversion left.
  const office = new OfficeConverter(config.taskTimeoutMs, path.join(config.dataDir, 'office-scratch'));
  await office.init();
  const operations = createOperations({ store, pool, office, textPrefetchMaxBytes: config.textPrefetchMaxBytes });
  const app = await buildApp({ config, store, pool, auth, operations });
  log = app.log;
  if (generatedAdminPassword) {
    // Printed once, on the console only, so the operator can log in the first time. Written
    // synchronously: stdout on a pipe is asynchronous and would come after the log lines.
    writeSync(1,
      `\nCreated the admin user "${config.adminUser}" with the generated password:\n\n    ${generatedAdminPassword}\n\n` +
        `Keep it now; it is not shown again (change it with PATCH /pdfservice/v1/users/${config.adminUser}).\n\n`,
    );
  }
  const url = await app.listen({ host: config.host, port: config.port });
  app.log.info({ url, workers: config.workers, dataDir: config.dataDir }, 'listening');
  return {
    url,
    stop: async () => {
      await app.close();
      await pool.close();
      await auth.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const service = await start(config);
  const shutdown = () => {
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
