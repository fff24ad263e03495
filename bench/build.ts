/**
 * The build a benchmark measures: this checkout's, or another commit's (`--compare REF`, bench/compare-ref.ts) or this
 * checkout's with other settings (`--compare-env`). Every benchmark starts its service through `startServer` below
 * (and cluster's job workers through `startWorker`), which go to the build of the lane the module runs in, so that
 * run.ts can run a benchmark module on each build without the module knowing. Issue 38's rows take the builds
 * themselves and interleave them repetition by repetition.
 *
 * Lockstep (`inLockstep`): a module run on both builds at once, taking turns at every measurement (`timed` in lib.ts
 * calls `measured`): one instance runs, the other waits, and the turn passes after each timed step in the order
 * A, B, B, A, so that the repetitions of the two builds alternate as if the module looped over both.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { startWorker as startTestWorker, type WorkerProcess } from '../test/helpers/jobs.js';
import { startServer as startTestServer, type TestServer } from '../test/helpers/server.js';
import { ENGINE } from '../src/config/engine.js';
import { TOOLS } from '../src/config/tools.js';

export type ServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

export interface Build {
  name: string;
  startServer(options?: ServerOptions): Promise<TestServer>;
  /** A job worker process of this build (`npm run worker`), with its own data folder. */
  startWorker(env: Record<string, string>, dataDir: string): Promise<WorkerProcess>;
}

/**
 * A benchmark's service (and job worker) runs with the engine's warm-up as deployed (engine/core/warmup.ts): the test
 * helpers turn it off to spare the suites, and a bench measures the service as it runs. A benchmark's own setting wins.
 */
export function withServiceWarmUp(env: Record<string, string> = {}): Record<string, string> {
  return { PDFSERVICE_ENGINE_WARMUP: String(ENGINE.settings.engineWarmUp.default), PDFSERVICE_CHROMIUM_PREWARM: String(TOOLS.settings.chromiumPrewarm.default), ...env };
}

/** This checkout's build (dist/ beside this file). */
export const OURS: Build = {
  name: 'this checkout',
  startServer: (options = {}) => startTestServer({ ...options, env: withServiceWarmUp(options.env) }),
  startWorker: (env, dataDir) => startTestWorker(withServiceWarmUp(env), dataDir),
};

/** Two module instances (0 and 1) taking turns; a side holds the turn from one measurement to the end of its next. */
class Turns {
  private readonly order: number[];
  private handed = 0;
  private holder: number;
  private readonly waiting: (() => void)[][] = [[], []];
  private readonly finished = new Set<number>();
  private readonly inFlight = [0, 0];

  constructor(first: number) {
    this.holder = first;
    this.order = [first, 1 - first, 1 - first, first];
  }

  async wait(side: number): Promise<void> {
    while (this.holder !== side) await new Promise<void>((resolve) => this.waiting[side]!.push(resolve));
  }

  private handTo(side: number): void {
    this.holder = side;
    for (const resolve of this.waiting[side]!.splice(0)) resolve();
  }

  async begin(side: number): Promise<void> {
    await this.wait(side);
    this.inFlight[side]!++;
  }

  /** After a measurement: when none of this side's is still running, the turn goes on (A, B, B, A...). */
  async end(side: number): Promise<void> {
    if (--this.inFlight[side]! > 0 || this.holder !== side) return;
    const next = this.order[++this.handed % 4]!;
    this.handTo(this.finished.has(next) ? side : next);
    await this.wait(side);
  }

  finish(side: number): void {
    this.finished.add(side);
    if (this.holder === side && !this.finished.has(1 - side)) this.handTo(1 - side);
  }
}

interface Lane {
  build: Build;
  turns?: Turns;
  side: number;
}

const lanes = new AsyncLocalStorage<Lane>();

/** Runs `fn` with its benchmarks' services started from `build`. */
export function withBuild<T>(build: Build, fn: () => Promise<T>): Promise<T> {
  return lanes.run({ build, side: 0 }, fn);
}

/**
 * Runs `fn` once per build at the same time, in turns (one runs while the other waits, the turn passing at each
 * measurement: `first`, the other, the other, `first`...); resolves each one's result in the order of `builds`.
 * A side that throws leaves the turn to the other.
 */
export function inLockstep<T>(builds: [Build, Build], first: 0 | 1, fn: (build: Build) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  const turns = new Turns(first);
  return Promise.allSettled(
    builds.map((build, side) =>
      lanes.run({ build, turns, side }, async () => {
        await turns.wait(side);
        try {
          return await fn(build);
        } finally {
          turns.finish(side);
        }
      }),
    ),
  );
}

/** `timed` measures through this: in lockstep, it waits for its side's turn and passes it on when done. */
export async function measured<T>(fn: () => Promise<T>): Promise<T> {
  const lane = lanes.getStore();
  if (!lane?.turns) return fn();
  await lane.turns.begin(lane.side);
  try {
    return await fn();
  } finally {
    await lane.turns.end(lane.side);
  }
}

/** The service of the build being measured, started by the test helper (so every build is started, and read, alike). */
export function startServer(options?: ServerOptions): Promise<TestServer> {
  return (lanes.getStore()?.build ?? OURS).startServer(options);
}

const shared = new Map<Build, Map<string, Promise<TestServer>>>();
/** The shared services started so far, for a stop that cannot wait (killSharedServers). */
const sharedRunning = new Set<TestServer>();

/**
 * A service of the build being measured with these settings, started once and shared by every benchmark that asks
 * for the same ones (issue 38, the bench's time: a start took 1 to 2 s idle and 9 to 17 s at load 18 on 2 cores, and
 * a full run started about 30). Its `stop` does nothing: `stopSharedServers` stops them all at the end of the run.
 * For benchmarks that measure requests on a warm service and keep their documents at paths of their own; a
 * benchmark that measures the process (memory, starts, clusters) or sets up users or stores starts its own.
 */
export async function sharedServer(env: Record<string, string> = {}): Promise<TestServer> {
  const build = lanes.getStore()?.build ?? OURS;
  const servers = shared.get(build) ?? new Map<string, Promise<TestServer>>();
  shared.set(build, servers);
  const key = JSON.stringify(Object.entries(env).sort());
  if (!servers.has(key)) servers.set(key, build.startServer({ env }));
  const server = await servers.get(key)!;
  sharedRunning.add(server);
  return { ...server, stop: () => Promise.resolve() };
}

/** Signals the shared services to end, at once (a run stopped by a signal cannot wait for their stop). */
export function killSharedServers(): void {
  for (const server of sharedRunning) server.child.kill();
}

/** Stops the services `sharedServer` started (the run's end; before REF's worktree is removed). */
export async function stopSharedServers(): Promise<void> {
  const all = [...shared.values()].flatMap((servers) => [...servers.values()]);
  shared.clear();
  sharedRunning.clear();
  await Promise.allSettled(all.map(async (server) => (await server).stop()));
}

/** A job worker of the build being measured. */
export function startWorker(env: Record<string, string>, dataDir: string): Promise<WorkerProcess> {
  return (lanes.getStore()?.build ?? OURS).startWorker(env, dataDir);
}
