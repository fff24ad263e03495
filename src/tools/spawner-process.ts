/**
 * The spawner (spawner.ts): a small Node process, started by the service while it is small, that starts the external
 * programs on the service's behalf. Starting a program forks the process that starts it, and a fork copies the page
 * tables of the whole process on the caller's thread; here that is this process's few tens of MB instead of the
 * service's hundreds, and the service's event loop only sends a message. No MuPDF, no Fastify: Node's own modules only.
 *
 * Messages (IPC, advanced serialization, so that Buffers go as they are):
 *   in:  spawn {id, file, args, cwd, env, stdin}; stdin {id, data}; kill {id, signal}
 *   out: spawned {id, pid}; failed {id, message, code}; data {id, stream, data}; exit {id, code, signal}; close {id, code, signal}
 * A program's output is forwarded chunk by chunk, one chunk of each stream in flight at a time (the stream is paused
 * until the service's side has taken the message), so a program writing faster than the service reads waits for it
 * instead of filling this process's memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface SpawnRequest {
  type: 'spawn';
  id: number;
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: 'pipe' | 'ignore';
}
type Request = SpawnRequest | { type: 'stdin'; id: number; data: Buffer } | { type: 'kill'; id: number; signal: NodeJS.Signals };

const children = new Map<number, ChildProcess>();

/** A message to the service; one that cannot be written (the service is gone, its channel closing) ends this process as its disconnect does. */
function send(message: object, done?: () => void): void {
  if (!process.connected) return;
  process.send!(message, undefined, undefined, (err: Error | null) => {
    if (err) end();
    else done?.();
  });
}

/** SIGKILL to a program's process group (every program is started as the leader of its own). */
function killGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

function start(request: SpawnRequest): void {
  const { id } = request;
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: [request.stdin, 'pipe', 'pipe'] });
  } catch (err) {
    return send({ type: 'failed', id, message: (err as Error).message, code: (err as NodeJS.ErrnoException).code });
  }
  children.set(id, child);
  child.once('spawn', () => send({ type: 'spawned', id, pid: child.pid }));
  child.once('error', (err: NodeJS.ErrnoException) => {
    // An error before 'spawn' is a program that could not be started; after it (a failed kill), nothing to tell.
    if (child.pid === undefined) {
      children.delete(id);
      send({ type: 'failed', id, message: err.message, code: err.code });
    }
  });
  for (const stream of ['stdout', 'stderr'] as const) {
    const readable = child[stream]!;
    readable.on('data', (data: Buffer) => {
      readable.pause();
      send({ type: 'data', id, stream, data }, () => readable.resume());
    });
  }
  child.stdin?.on('error', () => undefined); // a program that ended before reading: its exit says so
  child.once('exit', (code, signal) => send({ type: 'exit', id, code, signal }));
  child.once('close', (code, signal) => {
    children.delete(id);
    send({ type: 'close', id, code, signal });
  });
}

process.on('message', (request: Request) => {
  if (request.type === 'spawn') return start(request);
  const child = children.get(request.id);
  if (request.type === 'stdin') child?.stdin?.write(request.data);
  else if (request.type === 'kill') {
    try {
      child?.kill(request.signal);
    } catch {
      /* gone */
    }
  }
});

// The service ended (or closed the channel at its stop): nothing started here outlives it. Sandboxed programs would
// end anyway (bwrap --die-with-parent, this process being their parent); the others are killed by process group.
function end(): void {
  for (const child of children.values()) killGroup(child.pid);
  process.exit(0);
}
process.on('disconnect', end);
