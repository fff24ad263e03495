import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** What the helpers that start servers for the tests (Redis, Swift, Apache, nginx, the service) share. */

/** `count` distinct loopback ports free a moment ago, all held open together so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Whether the child exited within `ms`. */
export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Whether a command name (descendants') is a Chromium process: `chromium`, or `chromium-headle` for the headless
 * shell the HTML pool drives by default (a command name is cut at 15 characters).
 */
export function isChromium(comm: string | undefined): boolean {
  return comm?.startsWith('chromium') ?? false;
}

/** Every process below `root` (children, grandchildren...) with its command name (Linux, from /proc). */
export function descendants(root: number): Map<number, string> {
  const parents = new Map<number, { ppid: number; comm: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so the fields after it are read from its last ')'.
      const close = stat.lastIndexOf(')');
      parents.set(Number(entry), { ppid: Number(stat.slice(close + 2).split(' ')[1]), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      /* gone meanwhile */
    }
  }
  const found = new Map<number, string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, { ppid, comm }] of parents) {
      if (!found.has(pid) && (ppid === root || found.has(ppid))) {
        found.set(pid, comm);
        grew = true;
      }
    }
  }
  return found;
}

/**
 * CPU time (s) a process has used, user + system, with its children that have ended and been waited for (cutime +
 * cstime: a service's qpdf or Ghostscript runs). Linux only, in 10 ms steps; 0 when the process is gone.
 */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The fields after the command's closing parenthesis: utime, stime, cutime and cstime are the 12th to the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
  } catch {
    return 0;
  }
}

/** CPU time (s) of a process and every process below it now running (cpuSeconds of each). */
export function treeCpuSeconds(root: number): number {
  return [root, ...descendants(root).keys()].reduce((sum, pid) => sum + cpuSeconds(pid), 0);
}
