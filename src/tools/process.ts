import { BWRAP, sandboxArgs } from './sandbox.js';
import type { ProgramProcess, ProgramStarter } from './spawner.js';

export interface ProgramResult {
  /** The exit code; null when killed by a signal. */
  code: number | null;
  timedOut: boolean;
  /** Stopped by the caller's signal. */
  cancelled: boolean;
  /** The first few KB of each stream. */
  stdout: string;
  stderr: string;
}

const KEEP = 8192;

/**
 * Runs `argv` (argv[0] an absolute path) with `scratch` as its working folder,
 * HOME and TMPDIR and an environment of its own (the service's variables, its
 * admin password among them, never reach a tool), in bubblewrap when `sandbox`
 * is given. The process is the leader of a process group of its own, so that
 * one kill after `timeoutMs` (or when `signal` fires) reaches everything it started.
 * Rejects only when the program (or bwrap) cannot be started (or the spawner
 * ended before it did).
 */
export async function runProgram(options: {
  argv: string[];
  scratch: string;
  timeoutMs: number;
  /** Starts the program: the spawner (spawner.ts), or this process when it is turned off. */
  starter: ProgramStarter;
  sandbox?: { readOnly: string[] };
  /** Variables the tool's declaration sets (OMP_THREAD_LIMIT for tesseract), besides HOME, TMPDIR, PATH and LANG. */
  env?: Readonly<Record<string, string>> | undefined;
  /** Called with the process group's id while it runs, and with it again once it is gone. */
  track?: (pgid: number, running: boolean) => void;
  /** Kills the process group when it fires (a cancelled job, a client that went away). */
  signal?: AbortSignal | undefined;
}): Promise<ProgramResult> {
  const { argv, scratch, sandbox } = options;
  const [file, args] = sandbox ? [BWRAP, sandboxArgs(scratch, argv, sandbox.readOnly, options.env)] : [argv[0]!, argv.slice(1)];
  const env = sandbox ? {} : { HOME: scratch, TMPDIR: scratch, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', ...options.env };
  // The time limit counts from the request to start it: a start that hangs is a run that takes too long.
  const startedAt = Date.now();
  const child: ProgramProcess = await options.starter.start({ file, args, cwd: scratch, env, stdin: 'ignore' });
  return new Promise((resolve) => {
    const output = { stdout: '', stderr: '' };
    let timedOut = false;
    let cancelled = false;
    const pgid = child.pid;
    options.track?.(pgid, true);
    const cancel = () => {
      cancelled = true;
      killGroup(pgid);
    };
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener('abort', cancel, { once: true });
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].on('data', (chunk: Buffer) => {
        if (output[stream].length < KEEP) output[stream] += chunk.toString('utf8');
      });
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pgid);
    }, Math.max(0, options.timeoutMs - (Date.now() - startedAt)));
    // Nothing of a run outlives it: children the program left behind (holding its output open) end with it.
    child.once('exit', () => killGroup(pgid));
    child.once('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', cancel);
      options.track?.(pgid, false);
      resolve({ code, timedOut, cancelled, ...output });
    });
  });
}

/** SIGKILL to the whole process group: the program and everything it started. */
export function killGroup(pgid: number | undefined): void {
  try {
    if (pgid) process.kill(-pgid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
