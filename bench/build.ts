/**
 * The build a benchmark measures: this checkout's, or another commit's (`--compare REF`, bench/compare-ref.ts) or this
 * checkout's with other settings (`--compare-env`). Every benchmark starts its service through `startServer` below
 * (and cluster's job workers through `startWorker`), which go to the build `withBuild` chose, so that run.ts can run a
 * benchmark module on each build in turn without the module knowing. Issue 38's rows take the builds themselves and
 * interleave them repetition by repetition.
 */
import { startWorker as startTestWorker, type WorkerProcess } from '../test/helpers/jobs.js';
import { startServer as startTestServer, type TestServer } from '../test/helpers/server.js';

export type ServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

export interface Build {
  name: string;
  startServer(options?: ServerOptions): Promise<TestServer>;
  /** A job worker process of this build (`npm run worker`), with its own data folder. */
  startWorker(env: Record<string, string>, dataDir: string): Promise<WorkerProcess>;
}

/** This checkout's build (dist/ beside this file). */
export const OURS: Build = { name: 'this checkout', startServer: startTestServer, startWorker: startTestWorker };

let current: Build = OURS;

/** Runs `fn` with its benchmarks' services started from `build`; one build at a time (run.ts runs modules in turn). */
export async function withBuild<T>(build: Build, fn: () => Promise<T>): Promise<T> {
  const before = current;
  current = build;
  try {
    return await fn();
  } finally {
    current = before;
  }
}

/** The service of the build being measured, started by the test helper (so every build is started, and read, alike). */
export function startServer(options?: ServerOptions): Promise<TestServer> {
  return current.startServer(options);
}

/** A job worker of the build being measured. */
export function startWorker(env: Record<string, string>, dataDir: string): Promise<WorkerProcess> {
  return current.startWorker(env, dataDir);
}
