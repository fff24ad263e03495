import { readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { secretsKey, type Config } from '../config.js';

/** Start-up failures an operator can fix, said in one line instead of a stack trace (main.ts, runMain). */
export class StartupError extends Error {}

/**
 * The process's logger, once there is one (the app's, or the job worker's): parts built before it exists (the
 * engine pool, the job store, the DMS accounts) log through this.
 */
export interface LogRef {
  current?: FastifyBaseLogger;
}

/** The key that seals secrets at rest (secrets.ts): the setting, or the file it names. */
export async function loadSecretsKey(config: Config): Promise<Buffer> {
  if (config.secretsKey) return config.secretsKey;
  const file = config.secretsKeyFile!;
  try {
    return secretsKey(await readFile(file, 'utf8'));
  } catch (err) {
    throw new StartupError(`PDFSERVICE_SECRETS_KEY_FILE: ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}
