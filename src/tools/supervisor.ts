import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { countProgramRestart, observePrograms, timeProgramRun, type ProgramPoolStats, type ProgramRestartReason } from '../metrics.js';
import { killGroup, runProgram, type ProgramResult } from './process.js';
import { BWRAP } from './sandbox.js';
import { DirectStarter, Spawner, SpawnerEndedError, type ProgramStarter } from './spawner.js';
import type { ToolDeclaration, ToolStatus } from './tool.js';
import { WarmProcess, WarmProcessError } from './warm.js';
import { failSpan, inSpan, startSpan, type Span } from '../tracing.js';

/** What a run's work gets: its scratch folder, and a way to start the tool's program in it. */
export interface ToolRun {
  /** Absolute; created for this run, removed after it whatever happens. */
  scratch: string;
  /**
   * Runs the program with `args` in the scratch folder (sandboxed when
   * declared). A time-out is 504 ENGINE_TIMEOUT; a sandbox that cannot be made
   * is 503 COMPONENT_MISSING; any other outcome (exit code, output) is the
   * caller's to judge.
   */
  exec(args: string[]): Promise<ProgramResult>;
  /**
   * A `pooled` tool's run: sends one line to the warm process this run holds
   * and answers its one answer line. Its time-out is 504 ENGINE_TIMEOUT, the
   * signal TASK_CANCELLED, and a process that dies meanwhile 422
   * PROCESSING_FAILED (it is replaced for the next run either way).
   */
  request(line: string): Promise<string>;
  /**
   * A `pooled` tool's run: the warm process answered, but says it is no longer
   * fit to serve (LibreOffice's helper after soffice died): it is replaced
   * instead of going back to the pool.
   */
  retire(): void;
}

/** How a run waits for a slot of its tool. */
export interface ToolRunOptions {
  /** Stops the run: while waiting for a slot, or by killing the running program's process group. */
  signal?: AbortSignal | undefined;
  /**
   * Wait in line whatever its length (a background job, bounded by the jobs'
   * own limits) instead of 503 SERVICE_BUSY past the tool's queueLimit.
   */
  background?: boolean | undefined;
  /** Told once when the run has to wait for a slot (a job's `queued` phase). */
  onQueued?: (() => void) | undefined;
}

interface Tool {
  declaration: ToolDeclaration;
  status: ToolStatus;
  /** The resolved program, when found. */
  program?: string;
  active: number;
  waiting: (() => void)[];
  /** A pooled tool's warm processes that no run holds now. */
  idle: WarmProcess[];
  /** Every warm process of a pooled tool (idle, held or being replaced), so that close() waits for all of them. */
  instances: Set<WarmProcess>;
  /** Replacements under way (the process killed, its home being removed). */
  retiring: Set<Promise<void>>;
  /** A moving average of a run's duration, for the Retry-After of a refused run. */
  averageRunMs: number;
  /** A per-run tool's programs running now (for the metrics). */
  perRun: number;
  /** When a pooled tool's process last failed to start (it is shown unavailable until one starts again). */
  startFailedAt?: number;
  /** Its version probe, started on first need (probe()); settles when the status is final. */
  probing?: Promise<void>;
  /** The probe has ended (or there was nothing to probe). */
  probed?: boolean;
}

/**
 * The label a tool's runs are counted under: a pool run by a helper program (LibreOffice's, run by Python) keeps its
 * command's name (soffice), as its per-run conversions had (docs/api.md's metrics); veraPDF's JVM is labelled by the
 * tool; a per-run tool by its command; a declaration's metricsLabel wins (Chromium's pool: `chromium`).
 */
function programLabel(tool: Tool): string {
  const { declaration } = tool;
  if (declaration.metricsLabel) return declaration.metricsLabel;
  return declaration.lifetime.kind === 'pooled' && !declaration.lifetime.program ? declaration.name : path.basename(declaration.command);
}

/** A version probe that takes longer leaves the version unknown; start-up does not wait for it longer. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * A pooled tool whose process could not start is unavailable (503 COMPONENT_MISSING, and so in /health) for this long;
 * then the next run tries again, so that a repaired installation serves without a restart.
 */
const START_RETRY_MS = 30_000;

/** A tool that cannot be used, and why (shown in /health). */
function markMissing(status: ToolStatus, reason: string): void {
  Object.assign(status, { available: false, version: null, reason });
}

/** util-linux's prlimit (Essential in Debian): sets a tool's memory limit, then runs it (tool.ts `memoryLimitMb`). */
const PRLIMIT = '/usr/bin/prlimit';

/** `argv` run under the tool's memory limit, when it has one. */
function limited(declaration: ToolDeclaration, argv: string[]): string[] {
  const mb = declaration.memoryLimitMb ?? 0;
  return mb > 0 ? [PRLIMIT, `--as=${mb * 1024 * 1024}`, '--', ...argv] : argv;
}

/** The Debian package of bubblewrap, named when a sandboxed tool cannot run. */
const BWRAP_PACKAGE = 'bubblewrap';

/**
 * The one place external programs are run: every tool's availability (found
 * at start) and version (probed on first need: /health, or the tool's first run), its concurrency limit, time limit (the whole
 * process group is killed), scratch folders (always removed; emptied at
 * start, after a crash) and sandbox, and the metrics of every run.
 */
export class ToolSupervisor {
  private readonly tools = new Map<string, Tool>();
  private readonly running = new Set<number>();
  /** Told each tool's final status once (the start-up log); see onChecked(). */
  private listener?: (status: ToolStatus) => void;

  /** How programs are started: from this process, or by the spawner (spawner.ts) when it is on. */
  private readonly starter: ProgramStarter;

  /**
   * `scratchRoot` holds each tool's scratch folder (`declaration.scratch`); it belongs to the supervisor alone.
   * `spawner: true` starts programs through the spawner (PDFSERVICE_TOOL_SPAWNER, off by default); otherwise from this process.
   */
  constructor(
    declarations: ToolDeclaration[],
    private readonly scratchRoot: string,
    options: { spawner?: boolean } = {},
  ) {
    this.starter = options.spawner === true ? new Spawner() : new DirectStarter();
    for (const declaration of declarations) {
      if (this.tools.has(declaration.name)) throw new Error(`${declaration.name} is declared twice`);
      const status: ToolStatus = { name: declaration.name, debianPackage: declaration.debianPackage, available: false, version: null, reason: 'not checked yet' };
      this.tools.set(declaration.name, { declaration, status, active: 0, waiting: [], idle: [], instances: new Set(), retiring: new Set(), averageRunMs: 0, perRun: 0 });
    }
    observePrograms(() => this.poolStats());
  }

  /** Each tool's slots, runs under way and waiting, and processes alive now (the metrics read it when scraped). */
  poolStats(): ProgramPoolStats[] {
    return [...this.tools.values()].map((tool) => ({
      program: programLabel(tool),
      slots: tool.declaration.concurrency,
      active: tool.active,
      waiting: tool.waiting.length,
      processes: tool.declaration.lifetime.kind === 'pooled' ? tool.instances.size : tool.perRun,
    }));
  }

  /**
   * Empties every scratch folder (what runs killed with the service left),
   * finds each program and runs its version probe, all tools at once. Call
   * once at start, before any run (or prepare(), which leaves the probes for later).
   */
  async init(): Promise<ToolStatus[]> {
    await this.prepare();
    return this.checked();
  }

  /**
   * init() without the version probes: empties every scratch folder and finds
   * each program and what it needs (files only, no process). The probes run
   * on first need: veraPDF's starts a JVM (about 0.4 s of CPU), which the
   * service paid at every start (docs/testing.md, "Service start").
   */
  async prepare(): Promise<void> {
    // The spawner now, while the process is small (its own start forks this process once); a supervisor without tools needs none.
    const spawner = this.tools.size > 0 && this.starter instanceof Spawner ? this.starter.ready().catch(() => undefined) : undefined;
    await Promise.all([...[...this.tools.values()].map((tool) => this.locate(tool)), spawner]);
  }

  /** The spawner's pid, when programs are started by one (tests check the programs' parent). */
  spawnerPid(): number | undefined {
    return this.starter instanceof Spawner ? this.starter.pid : undefined;
  }

  /** Every tool's status once its probe has run (started now when not yet); a probe runs once. */
  async checked(): Promise<ToolStatus[]> {
    await Promise.all([...this.tools.values()].map((tool) => this.probe(tool)));
    return this.statuses();
  }

  /** Calls `listener` with each tool's final status: now for those already known, later as their probes end. */
  onChecked(listener: (status: ToolStatus) => void): void {
    this.listener = listener;
    for (const tool of this.tools.values()) {
      if (tool.probed) listener({ ...tool.status });
      else if (!tool.program) void this.probe(tool); // nothing to run: final now
    }
  }

  /** A tool's declaration (its limits), for a module that tells its program its own deadline. */
  declaration(name: string): ToolDeclaration | undefined {
    return this.tools.get(name)?.declaration;
  }

  statuses(): ToolStatus[] {
    return [...this.tools.values()].map((tool) => ({ ...tool.status }));
  }

  /**
   * Runs `work` as one use of the tool: waits for a free slot, creates a
   * scratch folder, removes it afterwards, and counts the run (metrics
   * `pdfservice_program_runs_total` and `…_duration_seconds`, by program).
   * A tool that is not available is 503 COMPONENT_MISSING naming its package.
   * `signal` stops the run: while waiting for a slot, or by killing the
   * running program's process group; either way TASK_CANCELLED. A run that
   * would wait beyond the tool's queueLimit is 503 SERVICE_BUSY with
   * Retry-After, unless `background`.
   */
  async run<T>(name: string, work: (run: ToolRun) => Promise<T>, signalOrOptions?: AbortSignal | ToolRunOptions): Promise<T> {
    const options: ToolRunOptions = signalOrOptions instanceof AbortSignal ? { signal: signalOrOptions } : (signalOrOptions ?? {});
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`No tool named ${name} is declared`);
    // Awaited only once: a probed tool's run reaches its slot (and its line) synchronously, as before.
    if (!tool.probed) await this.probe(tool);
    const retryStart = tool.startFailedAt !== undefined && Date.now() - tool.startFailedAt >= START_RETRY_MS;
    if (!tool.program || (!tool.status.available && !retryStart)) throw new ServiceError('COMPONENT_MISSING', `${tool.declaration.purpose} needs ${tool.status.reason ?? name}`);
    // A span for the run (docs/observability.md): its wait for a slot, and each program it starts as a child (exec).
    const label = programLabel(tool);
    return inSpan(`program ${label}`, { 'pdfservice.program': label, 'pdfservice.program.pooled': tool.declaration.lifetime.kind === 'pooled' }, (span) => this.runInSlot(tool, work, options, span));
  }

  /** run() once the tool is known to be available: waits for a slot, then runs `work` in a scratch folder or a warm process. */
  private async runInSlot<T>(tool: Tool, work: (run: ToolRun) => Promise<T>, options: ToolRunOptions, span: Span | undefined): Promise<T> {
    const { signal } = options;
    const name = tool.declaration.name;
    const waitFrom = span ? performance.now() : 0;
    await this.acquire(tool, options);
    span?.setAttribute('pdfservice.program.wait_ms', Math.round((performance.now() - waitFrom) * 10) / 10);
    const started = Date.now();
    try {
      if (signal?.aborted) throw cancelledRun();
      // The label names the program doing the work (programLabel).
      if (tool.declaration.lifetime.kind === 'pooled') return await timeProgramRun(programLabel(tool), () => this.runPooled(tool, work, signal));
      return await timeProgramRun(programLabel(tool), async () => {
        const scratch = await mkdtemp(path.join(this.scratchOf(tool), 'run-'));
        try {
          return await work({
            scratch,
            exec: (args) => this.exec(tool, scratch, args, tool.declaration.timeoutMs, signal),
            request: () => Promise.reject(new Error(`${name} is not a pooled tool`)),
            retire: () => undefined,
          });
        } finally {
          await rm(scratch, { recursive: true, force: true });
        }
      });
    } finally {
      // Weighted towards recent runs: a warm pool's runs are short, its first (the start) long.
      tool.averageRunMs = tool.averageRunMs === 0 ? Date.now() - started : 0.8 * tool.averageRunMs + 0.2 * (Date.now() - started);
      this.release(tool);
    }
  }

  /**
   * Starts every warm process of a pooled tool now rather than at its first runs (PDFSERVICE_CHROMIUM_PREWARM): each
   * holds a slot while it starts, so a run arriving meanwhile waits for one to be ready instead of starting another.
   * A tool that is missing or whose process cannot start is left to its first run, which says why.
   */
  async prewarm(name: string): Promise<void> {
    const tool = this.tools.get(name);
    if (tool?.declaration.lifetime.kind !== 'pooled') return;
    if (!tool.probed) await this.probe(tool);
    if (!tool.program || !tool.status.available) return;
    const missing = tool.declaration.concurrency - tool.instances.size;
    await Promise.all(
      Array.from({ length: Math.max(0, missing) }, async () => {
        await this.acquire(tool, { background: true });
        try {
          tool.idle.push(await this.startWarm(tool));
        } catch {
          /* the first run tries again and answers why it cannot */
        } finally {
          this.release(tool);
        }
      }),
    );
  }

  /**
   * Kills every running process group, warm ones included (at shutdown;
   * sandboxed ones would die with the service anyway), at once; the promise
   * settles when the warm processes have exited and their homes are removed.
   */
  async close(): Promise<void> {
    for (const tool of this.tools.values()) tool.idle.length = 0;
    for (const pgid of this.running) killGroup(pgid);
    await Promise.all([...this.tools.values()].flatMap((tool) => [...[...tool.instances].map((warm) => this.retire(tool, warm)), ...tool.retiring]));
    this.starter.close();
  }

  /**
   * One run of a pooled tool: a warm process (an idle one, or one started
   * now), the run's scratch folder in that process's home (its own folder in
   * the tool's scratch folder, the only folder a sandboxed one can see, so no
   * process sees another's runs), and afterwards the process back in the pool
   * unless it is worn out (uses, resident memory), broken or retired by the
   * run. An idle process that turns out to have died (killed from outside,
   * between runs) is replaced once, within the run, by one in the same home.
   */
  private async runPooled<T>(tool: Tool, work: (run: ToolRun) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const { declaration } = tool;
    if (declaration.lifetime.kind !== 'pooled') throw new Error('not pooled');
    const lifetime = declaration.lifetime;
    let warm = tool.idle.pop();
    while (warm && !warm.alive) {
      countProgramRestart(programLabel(tool), 'exited');
      void this.retire(tool, warm);
      warm = tool.idle.pop();
    }
    const reused = warm !== undefined;
    warm ??= await this.startWarm(tool);
    warm.uses++; // runs, not request lines
    let broken = false;
    let retired = false;
    let asked = false;
    const scratch = await mkdtemp(path.join(warm.home, 'run-'));
    // Only the first request of a run may meet a process that died while idle; a fresh one is asked once more.
    const ask = async (line: string, mayRetry: boolean): Promise<string> => {
      try {
        return await warm!.request(line, declaration.timeoutMs, signal);
      } catch (err) {
        if (mayRetry && err instanceof WarmProcessError && err.failure === 'exited') {
          const dead = warm!;
          countProgramRestart(programLabel(tool), 'exited');
          dead.kill();
          await dead.ended;
          tool.instances.delete(dead);
          // The same home: the run's files are there already.
          warm = await this.startWarm(tool, dead.home);
          warm.uses++;
          return ask(line, false);
        }
        broken = true;
        throw warmError(declaration, err);
      }
    };
    try {
      return await work({
        scratch,
        exec: () => Promise.reject(new Error(`${declaration.name} is a pooled tool: use request()`)),
        request: (line) => {
          const first = !asked;
          asked = true;
          return ask(line, first && reused);
        },
        retire: () => {
          retired = true;
        },
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
      const reason: ProgramRestartReason | undefined = broken ? 'failed' : retired ? 'unfit' : !warm.alive ? 'exited'
        : warm.uses >= lifetime.restartAfterUses ? 'uses' : (await warm.memoryMb()) > lifetime.restartAboveRssMb ? 'memory' : undefined;
      if (reason === undefined) tool.idle.push(warm);
      else countProgramRestart(programLabel(tool), reason);
      // A broken process is gone before its run answers (the next run finds a clean slate); a worn-out one goes meanwhile.
      if (broken || retired) await this.retire(tool, warm);
      else if (reason !== undefined) void this.retire(tool, warm);
    }
  }

  /** Kills a warm process and removes its home once it has exited. */
  private retire(tool: Tool, warm: WarmProcess): Promise<void> {
    tool.instances.delete(warm);
    warm.kill();
    const retiring = warm.ended.then(() => rm(warm.home, { recursive: true, force: true })).finally(() => tool.retiring.delete(retiring));
    tool.retiring.add(retiring);
    return retiring;
  }

  /** Starts a warm process in `home`, or in a new folder of the tool's scratch folder. */
  private async startWarm(tool: Tool, home?: string): Promise<WarmProcess> {
    const { declaration } = tool;
    if (declaration.lifetime.kind !== 'pooled') throw new Error('not pooled');
    const own = home ?? (await mkdtemp(path.join(this.scratchOf(tool), 'instance-')));
    try {
      const { process } = await WarmProcess.start({
        argv: limited(declaration, [declaration.lifetime.program ?? tool.program!, ...declaration.lifetime.args]),
        home: own,
        sandbox: declaration.sandbox,
        env: declaration.env,
        startTimeoutMs: declaration.lifetime.startTimeoutMs,
        track: (pgid, running) => (running ? this.running.add(pgid) : this.running.delete(pgid)),
        starter: this.starter,
      });
      tool.instances.add(process);
      if (tool.startFailedAt !== undefined) {
        delete tool.startFailedAt;
        tool.status.available = true;
        delete tool.status.reason;
      }
      return process;
    } catch (err) {
      if (home === undefined) await rm(own, { recursive: true, force: true });
      if (err instanceof WarmProcessError && err.failure === 'timeout') throw new ServiceError('ENGINE_TIMEOUT', `${declaration.name} did not start in time`);
      // The spawner died while starting it: this run fails, but the installation is not at fault (not marked unavailable).
      if (err instanceof SpawnerEndedError) throw new ServiceError('COMPONENT_MISSING', `${declaration.purpose}: ${declaration.name} could not be started`);
      // A program that passed its start-up check but cannot start its instance (a broken or swapped installation) is the
      // server's fault, not the document's: unavailable, and said so in /health, until an instance starts again.
      const reason = `${declaration.name} (Debian package ${declaration.debianPackage}), whose instance could not be started${err instanceof Error ? ` (${err.message})` : ''}`;
      tool.startFailedAt = Date.now();
      Object.assign(tool.status, { available: false, reason });
      throw new ServiceError('COMPONENT_MISSING', `${declaration.purpose} needs ${reason}`);
    }
  }

  private scratchOf(tool: Tool): string {
    return path.join(this.scratchRoot, tool.declaration.scratch);
  }

  private async exec(tool: Tool, scratch: string, args: string[], timeoutMs = tool.declaration.timeoutMs, signal?: AbortSignal, versionProbe = false): Promise<ProgramResult> {
    const { declaration } = tool;
    let result: ProgramResult;
    tool.perRun++;
    // One span for each program started, a child of its run's (or of the request whose first run probes the tool).
    const span = startSpan(`exec ${path.basename(declaration.command)}`, { 'pdfservice.program': path.basename(declaration.command), 'pdfservice.program.sandboxed': declaration.sandbox !== undefined, ...(versionProbe ? { 'pdfservice.program.version_probe': true } : {}) });
    try {
      result = await runProgram({
        argv: limited(declaration, [tool.program!, ...args]),
        scratch,
        timeoutMs,
        ...(declaration.sandbox ? { sandbox: declaration.sandbox } : {}),
        env: declaration.env,
        track: (pgid, running) => (running ? this.running.add(pgid) : this.running.delete(pgid)),
        starter: this.starter,
        signal,
      });
    } catch {
      const error = new ServiceError('COMPONENT_MISSING', declaration.sandbox ? `The sandbox (bubblewrap) for ${declaration.name} could not be started` : `${declaration.name} could not be started`);
      failSpan(span, error);
      span?.end();
      throw error;
    } finally {
      tool.perRun--;
    }
    if (span) endExecSpan(span, result);
    if (result.cancelled) throw cancelledRun();
    if (result.timedOut) throw new ServiceError('ENGINE_TIMEOUT', `The ${declaration.purpose} took too long and was stopped`);
    if (declaration.sandbox && result.stderr.startsWith('bwrap:')) {
      // bwrap itself failed (e.g. namespaces not allowed here): never fall back to running unsandboxed.
      throw new ServiceError('COMPONENT_MISSING', `The sandbox (bubblewrap) for ${declaration.name} cannot create its namespaces on this machine`);
    }
    return result;
  }

  /** The tool's probe (started now unless it has been), and the listener told once it ends. */
  private probe(tool: Tool): Promise<void> {
    tool.probing ??= this.check(tool).then(() => {
      tool.probed = true;
      this.listener?.({ ...tool.status });
    });
    return tool.probing;
  }

  /** Finds the tool's program and what it needs; sets `program` when all is there (then only the probe is left). */
  private async locate(tool: Tool): Promise<void> {
    const { declaration, status } = tool;
    const scratch = this.scratchOf(tool);
    await rm(scratch, { recursive: true, force: true });
    await mkdir(scratch, { recursive: true });
    const program = await findProgram(declaration.command);
    const missing = (reason: string) => markMissing(status, reason);
    if (!program) return void missing(`${declaration.name} (program ${declaration.command}, Debian package ${declaration.debianPackage}), which is not installed`);
    const absent = declaration.requires?.find((file) => !existsSync(file.path));
    if (absent) return void missing(absent.reason);
    if ((declaration.memoryLimitMb ?? 0) > 0 && !existsSync(PRLIMIT)) return void missing(`prlimit (Debian package util-linux) to bound the memory of ${declaration.name}, which is not installed`);
    if (declaration.sandbox && !existsSync(BWRAP)) {
      return void missing(`bubblewrap (Debian package ${declaration.sandbox.package ?? BWRAP_PACKAGE}) to run ${declaration.name} without network and files, which is not installed`);
    }
    tool.program = program;
  }

  /** Runs the version probe of a tool that locate() found (in its sandbox when it has one). */
  private async check(tool: Tool): Promise<void> {
    const { declaration, status } = tool;
    if (!tool.program) return;
    const missing = (reason: string) => markMissing(status, reason);
    const probe = await mkdtemp(path.join(this.scratchOf(tool), 'probe-'));
    try {
      const result = await this.exec(tool, probe, declaration.versionProbe.args, Math.min(declaration.timeoutMs, PROBE_TIMEOUT_MS), undefined, true);
      if (result.code !== 0) return void missing(`${declaration.name} (Debian package ${declaration.debianPackage}), which does not run here (${firstLine(result.stderr) || `exit code ${result.code}`})`);
      Object.assign(status, { available: true, version: versionOf(result.stdout, declaration.versionProbe.pattern) });
      delete status.reason;
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT') {
        Object.assign(status, { available: true, version: null });
        delete status.reason;
      } else missing(err instanceof ServiceError ? (err.detail ?? err.message) : String(err));
    } finally {
      await rm(probe, { recursive: true, force: true });
    }
  }

  private async acquire(tool: Tool, { signal, background, onQueued }: ToolRunOptions): Promise<void> {
    if (signal?.aborted) throw cancelledRun();
    if (tool.active < tool.declaration.concurrency) {
      tool.active++;
      return;
    }
    const { queueLimit, concurrency, purpose } = tool.declaration;
    if (!background && queueLimit !== undefined && tool.waiting.length >= queueLimit) {
      // Roughly when a slot frees for this run: the line ahead of it, shared by the slots, at the recent pace.
      const seconds = Math.max(1, Math.ceil((tool.averageRunMs * (tool.waiting.length + 1)) / concurrency / 1000));
      throw new ServiceError('SERVICE_BUSY', `Too many ${purpose.toLowerCase()}s are waiting; try again in ${seconds} s`, { retryAfter: seconds }, { 'Retry-After': String(seconds) });
    }
    onQueued?.();
    // The slot is handed over by release(), so `active` stays counted; a waiter stopped meanwhile leaves the line.
    await new Promise<void>((resolve, reject) => {
      const waiter = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const at = tool.waiting.indexOf(waiter);
        if (at >= 0) tool.waiting.splice(at, 1);
        reject(cancelledRun());
      };
      tool.waiting.push(waiter);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private release(tool: Tool): void {
    const next = tool.waiting.shift();
    if (next) next();
    else tool.active--;
  }
}

/**
 * Ends a program's span with how it ended: its exit code, or what stopped it (`timeout`: killed at the tool's time
 * limit; `cancelled`: its request or job was; `signal`: killed from elsewhere, e.g. past its memory limit).
 */
function endExecSpan(span: Span, result: ProgramResult): void {
  if (result.code !== null) span.setAttribute('process.exit.code', result.code);
  const killed = result.timedOut ? 'timeout' : result.cancelled ? 'cancelled' : result.code === null ? 'signal' : undefined;
  if (killed) {
    span.setAttribute('pdfservice.program.killed', killed);
    failSpan(span, result.timedOut ? new ServiceError('ENGINE_TIMEOUT') : result.cancelled ? cancelledRun() : new ServiceError('PROCESSING_FAILED'));
  }
  span.end();
}

/** What a failed request to a warm process means to the caller. */
function warmError(declaration: ToolDeclaration, err: unknown): unknown {
  if (!(err instanceof WarmProcessError)) return err;
  if (err.failure === 'cancelled') return cancelledRun();
  if (err.failure === 'timeout') return new ServiceError('ENGINE_TIMEOUT', `The ${declaration.purpose} took too long and was stopped`);
  return new ServiceError('PROCESSING_FAILED', `${declaration.name} ended while working on this document (${err.message})`);
}

function cancelledRun(): ServiceError {
  return new ServiceError('TASK_CANCELLED', 'The work was cancelled before it finished');
}

/** An absolute path as it is (when executable), or the first executable of that name on PATH; resolved to its real file. */
async function findProgram(command: string): Promise<string | undefined> {
  return resolveProgram(command);
}

/** findProgram, synchronously: for a declaration that needs its program's real folder (LibreOffice's). */
export function resolveProgram(command: string): string | undefined {
  const candidates = path.isAbsolute(command) ? [command] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      /* not here */
    }
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim().slice(0, 200) ?? '';
}

function versionOf(stdout: string, pattern: RegExp | undefined): string | null {
  const lines = stdout.split('\n').map((line) => line.trim()).filter(Boolean);
  if (!pattern) return lines[0]?.slice(0, 200) ?? null;
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match) return (match[1] ?? match[0]).slice(0, 200);
  }
  return null;
}
