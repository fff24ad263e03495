import { readdir, readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { killGroup } from './process.js';
import { BWRAP, sandboxArgs } from './sandbox.js';
import type { ProgramProcess, ProgramStarter } from './spawner.js';

/** Why a warm process could not answer: it ended, was too slow, or its run was cancelled. */
export type WarmFailure = 'exited' | 'timeout' | 'cancelled';

export class WarmProcessError extends Error {
  constructor(
    readonly failure: WarmFailure,
    message: string,
  ) {
    super(message);
  }
}

const STDERR_KEEP = 4096;
/** Linux's page size for /proc/<pid>/statm (4 KiB on x86-64 and arm64 Debian). */
const PAGE_BYTES = 4096;
/** The least time between two measurements of a process's resident memory (memoryMb). */
const MEASURE_EVERY_MS = 1_000;
/** How long a killed process may take to be seen exiting before its run is failed anyway. */
const EXIT_GRACE_MS = 2_000;

/**
 * One long-lived program of a `pooled` tool (tool.ts): started once, in the
 * sandbox like a per-run tool, with `home` (a folder under the tool's scratch)
 * as its only writable folder, so that runs put their files there for it to
 * read. It talks in lines: a first line when ready, then one answer line per
 * request line. One request at a time (the supervisor hands a process to one
 * run). Any failure kills its whole process group: it is never reused after one.
 */
export class WarmProcess {
  uses = 0;
  private buffer = '';
  private stderrTail = '';
  private exited = false;
  /** Why the process is being killed (time-out, cancellation): the waiting run fails with it once the process has exited. */
  private failing: WarmProcessError | undefined;
  private waiter: { resolve: (line: string) => void; reject: (err: WarmProcessError) => void } | undefined;
  private markEnded!: () => void;
  /** The last resident-memory figure (MB) and the measurement under way (memoryMb). */
  private measured: number | undefined;
  private measuring: Promise<number> | undefined;
  private measuredAt = 0;
  /** Settles once the process has exited (and its group was killed): its home may then be removed or reused. */
  readonly ended = new Promise<void>((resolve) => {
    this.markEnded = resolve;
  });

  private constructor(
    private readonly stdin: Writable,
    readonly pgid: number,
    readonly home: string,
  ) {}

  /** Starts `argv` (argv[0] absolute) and waits for its first line (what it says when ready, returned). */
  static async start(options: {
    argv: string[];
    home: string;
    sandbox?: { readOnly: string[] } | undefined;
    env?: Readonly<Record<string, string>> | undefined;
    startTimeoutMs: number;
    track: (pgid: number, running: boolean) => void;
    /** Starts the program: the spawner (spawner.ts), or this process when it is turned off. */
    starter: ProgramStarter;
  }): Promise<{ process: WarmProcess; ready: string }> {
    const { argv, home, sandbox } = options;
    const [file, args] = sandbox ? [BWRAP, sandboxArgs(home, argv, sandbox.readOnly, options.env)] : [argv[0]!, argv.slice(1)];
    const env = sandbox ? {} : { HOME: home, TMPDIR: home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', ...options.env };
    const child: ProgramProcess = await options.starter.start({ file, args, cwd: home, env, stdin: 'pipe' });
    const pgid = child.pid;
    options.track(pgid, true);
    const warm = new WarmProcess(child.stdin!, pgid, home);
    child.stdout.on('data', (chunk: Buffer) => warm.onData(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      warm.stderrTail = (warm.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    // A closed pipe after the process died is reported through 'exit'; never as an unhandled error.
    child.stdin!.on('error', () => undefined);
    child.once('exit', () => {
      warm.exited = true;
      killGroup(pgid);
      options.track(pgid, false);
      warm.fail(warm.failing ?? new WarmProcessError('exited', `it ended unexpectedly${warm.stderrTail ? `: ${lastLine(warm.stderrTail)}` : ''}`));
      warm.markEnded();
    });
    const ready = await warm.nextLine(options.startTimeoutMs);
    warm.measureMemory();
    return { process: warm, ready };
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Sends one request line and answers the process's one answer line; kills it on time-out or cancellation. */
  async request(line: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    if (this.exited) throw new WarmProcessError('exited', 'it has ended');
    if (signal?.aborted) throw new WarmProcessError('cancelled', 'cancelled');
    const cancel = () => this.abandon(new WarmProcessError('cancelled', 'cancelled'));
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const answer = this.nextLine(timeoutMs);
      this.stdin.write(`${line}\n`);
      return await answer;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /**
   * The process's resident memory as last measured (MB), and a new measurement started in the background for the next
   * call; the first call waits for the measurement started when the process became ready. Reading a browser's
   * /proc/<pid>/smaps_rollup walks its page tables: about 120 ms for one browser's 9 processes on the loaded 2-core
   * machine (tens of GB of reserved address space), which a run's answer no longer waits for, nor the event loop
   * (fs/promises), and which is paid at most once a second. So a run is judged by the last figure, taken after an
   * earlier run (or at the start): the bound acts a run or a second late.
   */
  async memoryMb(): Promise<number> {
    const last = this.measured ?? (await this.measuring) ?? 0;
    this.measureMemory();
    return last;
  }

  /** Starts a measurement unless one is under way or the last is less than a second old. */
  private measureMemory(): void {
    if (this.measuring || this.exited || Date.now() - this.measuredAt < MEASURE_EVERY_MS) return;
    this.measuring = this.rssMb()
      .then((mb) => {
        this.measuredAt = Date.now();
        return (this.measured = mb);
      })
      .catch(() => this.measured ?? 0)
      .finally(() => (this.measuring = undefined));
  }

  /**
   * Resident memory (proportional set size) in MB of the process group (bwrap, the JVM, a helper) and of every process below it: a program may
   * start children in a group of their own (playwright starts Chromium detached, so the browser and its renderers are
   * outside the helper's group), and they count too. From /proc.
   */
  async rssMb(): Promise<number> {
    const processes: { pid: number; ppid: number; pgrp: number }[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
        // Fields after the command name (in parentheses, which may hold spaces): state, ppid, pgrp, ...
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        processes.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]) });
      } catch {
        /* gone meanwhile */
      }
    }
    const counted = new Set(processes.filter((p) => p.pgrp === this.pgid).map((p) => p.pid));
    for (let grew = true; grew; ) {
      grew = false;
      for (const p of processes) {
        if (!counted.has(p.pid) && counted.has(p.ppid)) {
          counted.add(p.pid);
          grew = true;
        }
      }
    }
    // Each process's proportional share (PSS): a browser's renderers share most of their pages with it, and a sum of
    // their RSS counted those pages once per process (about 1 GB for one browser that used 0.5). RSS where the
    // kernel has no smaps_rollup.
    let bytes = 0;
    for (const pid of counted) {
      try {
        const pss = /^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'));
        bytes += pss ? Number(pss[1]) * 1024 : Number((await readFile(`/proc/${pid}/statm`, 'utf8')).split(' ')[1] ?? 0) * PAGE_BYTES;
      } catch {
        /* gone meanwhile */
      }
    }
    return bytes / (1024 * 1024);
  }

  kill(): void {
    killGroup(this.pgid);
  }

  private nextLine(timeoutMs: number): Promise<string> {
    if (this.exited) return Promise.reject(new WarmProcessError('exited', `it has ended${this.stderrTail ? `: ${lastLine(this.stderrTail)}` : ''}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.abandon(new WarmProcessError('timeout', 'it did not answer in time')), timeoutMs);
      this.waiter = {
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.deliver();
    });
  }

  private onData(text: string): void {
    this.buffer += text;
    this.deliver();
  }

  private deliver(): void {
    const at = this.buffer.indexOf('\n');
    if (at < 0 || !this.waiter) return;
    const line = this.buffer.slice(0, at);
    this.buffer = this.buffer.slice(at + 1);
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter.resolve(line);
  }

  /**
   * Kills the process group and fails the waiting run with `err` once the
   * process has exited, so that a 504 or a cancellation is answered when the
   * process is gone, not while it is still dying (a killed child lives on
   * until Node reaps it); after EXIT_GRACE_MS anyway, should no exit be seen.
   */
  private abandon(err: WarmProcessError): void {
    if (this.exited) return this.fail(err);
    this.failing ??= err;
    this.kill();
    setTimeout(() => this.fail(err), EXIT_GRACE_MS).unref();
  }

  private fail(err: WarmProcessError): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(err);
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim().slice(0, 200) ?? '';
}
