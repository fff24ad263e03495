import { fork, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * A started program as process.ts and warm.ts use it: a Node ChildProcess (started directly) has this shape, and so
 * has a program started by the spawner. `pid` is the leader of the program's own process group.
 */
export interface ProgramProcess {
  readonly pid: number;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** null unless asked for (`stdin: 'pipe'`). */
  readonly stdin: Writable | null;
  once(event: 'exit' | 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
}

export interface ProgramSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: 'pipe' | 'ignore';
}

/**
 * How the supervisor starts programs: every program is the leader of a process group of its own (killGroup reaches
 * everything it starts), with `spec.env` as its whole environment and its stdout and stderr piped.
 */
export interface ProgramStarter {
  /** Settles once the program runs (its pid known); rejects when it cannot be started (as spawn's 'error'). */
  start(spec: ProgramSpec): Promise<ProgramProcess>;
  close(): void;
}

/** Starts programs from this process (PDFSERVICE_TOOL_SPAWNER=false): each start forks the whole service. */
export class DirectStarter implements ProgramStarter {
  start(spec: ProgramSpec): Promise<ProgramProcess> {
    const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: [spec.stdin, 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => {
        child.on('error', () => undefined); // a later error (a failed kill) is no run's outcome: its exit is
        resolve(child as ProgramProcess);
      });
      child.once('error', reject);
    });
  }

  close(): void {}
}

/** A start the spawner did not answer because it ended meanwhile (not a program that cannot start). */
export class SpawnerEndedError extends Error {}

/** How long the spawner may take to say a program was started (it answers in milliseconds): then it is replaced. */
const START_ANSWER_MS = 30_000;

const SPAWNER_MAIN = fileURLToPath(new URL('./spawner-process.js', import.meta.url));

type Message =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'failed'; id: number; message: string; code?: string }
  | { type: 'data'; id: number; stream: 'stdout' | 'stderr'; data: Uint8Array }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

/** A program the spawner started, seen from the service: its output arrives over the spawner's channel. */
class RemoteProcess extends EventEmitter implements ProgramProcess {
  pid = 0;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly stdin: Writable | null;
  exited = false;

  constructor(write: ((data: Buffer) => void) | undefined) {
    super();
    this.stdin = write
      ? new Writable({
          write(chunk: Buffer, _encoding, callback) {
            write(chunk);
            callback();
          },
        })
      : null;
  }

  /** What 'exit' and 'close' were emitted with: told to a listener that comes later. */
  private readonly ended: { exit?: [number | null, NodeJS.Signals | null]; close?: [number | null, NodeJS.Signals | null] } = {};

  /**
   * 'exit' and 'close' reach a listener added after them too: the messages that say a program was started, what it
   * wrote and that it exited can arrive in one read of the channel, before the caller that awaited the start has
   * added its listeners (a short program: `sh -c 'sleep 60 & echo started'`, whose left child the caller kills at 'exit').
   */
  override once(event: string | symbol, listener: (code: number | null, signal: NodeJS.Signals | null) => void): this {
    const happened = event === 'exit' || event === 'close' ? this.ended[event] : undefined;
    if (happened) {
      setImmediate(() => listener(...happened));
      return this;
    }
    return super.once(event, listener);
  }

  exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.ended.exit = [code, signal];
    this.emit('exit', code, signal);
  }

  close(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit(code, signal);
    this.stdout.end();
    this.stderr.end();
    // 'close' after the streams' last data, as a ChildProcess's.
    setImmediate(() => {
      this.ended.close = [code, signal];
      this.emit('close', code, signal);
    });
  }
}

interface Pending {
  /** The spawner that was asked: only its death ends this program. */
  child: ChildProcess;
  process: RemoteProcess;
  started?: { resolve: (p: ProgramProcess) => void; reject: (err: Error) => void; timer: NodeJS.Timeout };
}

/**
 * The spawner (spawner-process.ts), seen from the service: a long-lived child Node process that starts the programs,
 * so that the fork of each start copies its small address space instead of the service's (bench/results/
 * spawner-2026-11-30.md). Started by the supervisor before the engine's workers grow; replaced on the next start when
 * it has died, and the programs it was running then end as a crashed program does (exit with SIGKILL; their process
 * groups are killed). It ends with the service: close() at the stop, its channel closing when the service is killed.
 */
export class Spawner implements ProgramStarter {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  /** The spawner's pid (tests, the bench), starting it when it is not running. */
  get pid(): number {
    return this.ensure().pid!;
  }

  /** Starts the spawner now (the service's start-up, while it is small) rather than on the first program. */
  ready(): Promise<void> {
    const child = this.ensure();
    return new Promise((resolve, reject) => {
      if (child.pid !== undefined && child.connected) return resolve();
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
  }

  /**
   * Starts a program. A spawner that ended before it answered never started it: the start is asked once more of a new
   * spawner (one killed a moment ago may still look connected until its channel's end is read, and the start sent to
   * it is lost), so a dead spawner costs no run.
   */
  async start(spec: ProgramSpec): Promise<ProgramProcess> {
    try {
      return await this.startOnce(spec);
    } catch (err) {
      if (!(err instanceof SpawnerEndedError) || this.closed) throw err;
      return this.startOnce(spec);
    }
  }

  private startOnce(spec: ProgramSpec): Promise<ProgramProcess> {
    if (this.closed) return Promise.reject(new SpawnerEndedError('the spawner is closed'));
    const child = this.ensure();
    const id = this.nextId++;
    const program = new RemoteProcess(spec.stdin === 'pipe' ? (data) => this.send(child, { type: 'stdin', id, data }) : undefined);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // A spawner that does not answer is as good as dead: replaced, and its programs killed with it.
        child.kill('SIGKILL');
      }, START_ANSWER_MS);
      this.pending.set(id, { child, process: program, started: { resolve, reject, timer } });
      this.hold();
      this.send(child, { type: 'spawn', id, ...spec });
    });
  }

  /** Ends the spawner (the service's stop): its channel closes, and it kills what it still runs and exits. */
  close(): void {
    this.closed = true;
    const child = this.child;
    this.child = undefined;
    if (child?.connected) child.disconnect();
  }

  private ensure(): ChildProcess {
    if (this.child?.connected) return this.child;
    // Dead, its exit not seen yet (its channel closes first): what it ran ends now, and a new one is started.
    if (this.child) this.lost(this.child);
    // An empty environment (the service's variables, its secrets among them, are not needed there), and none of the
    // service's Node options (a test runner's --test; src/start/node-flags.ts's are for WebAssembly in worker threads,
    // which the spawner has not).
    const child = fork(SPAWNER_MAIN, [], { env: {}, execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    child.on('message', (message: Message) => this.receive(message));
    child.once('exit', () => this.lost(child));
    child.once('disconnect', () => this.lost(child));
    child.on('error', () => this.lost(child));
    // A spawner with nothing to do keeps no process alive (a test's supervisor that is never closed).
    this.release(child);
    return child;
  }

  private send(child: ChildProcess, message: object): void {
    if (!child.connected) return;
    child.send(message, (err) => {
      if (err) this.lost(child);
    });
  }

  private receive(message: Message): void {
    const entry = this.pending.get(message.id);
    if (!entry) return;
    const { process } = entry;
    switch (message.type) {
      case 'spawned':
        process.pid = message.pid;
        this.started(entry)?.resolve(process);
        break;
      case 'failed': {
        this.pending.delete(message.id);
        this.idle();
        const err: NodeJS.ErrnoException = new Error(message.message);
        if (message.code) err.code = message.code;
        this.started(entry)?.reject(err);
        break;
      }
      case 'data':
        process[message.stream].write(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
        break;
      case 'exit':
        process.exit(message.code, message.signal);
        break;
      case 'close':
        this.pending.delete(message.id);
        this.idle();
        process.close(message.code, message.signal);
        break;
    }
  }

  private started(entry: Pending): Pending['started'] {
    const started = entry.started;
    if (started) clearTimeout(started.timer);
    delete entry.started;
    return started;
  }

  /** The spawner died (or was closed): every program it ran ends as a killed program does, and the next start starts another. */
  private lost(child: ChildProcess): void {
    if (this.child === child) this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    const entries = [...this.pending].filter(([, entry]) => entry.child === child);
    for (const [id, entry] of entries) {
      this.pending.delete(id);
      const started = this.started(entry);
      if (started) {
        started.reject(new SpawnerEndedError('the spawner ended before the program was started'));
        continue;
      }
      // Sandboxed programs died with the spawner (bwrap --die-with-parent); the others are killed by process group.
      try {
        process.kill(-entry.process.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      entry.process.close(null, 'SIGKILL');
    }
    this.idle();
  }

  /** While programs run, the channel keeps the service's loop alive (their answers are awaited); idle, it does not. */
  private hold(): void {
    const child = this.child;
    if (!child) return;
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private idle(): void {
    if (this.pending.size === 0 && this.child) this.release(this.child);
  }

  private release(child: ChildProcess): void {
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}
