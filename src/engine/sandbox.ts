import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';

/**
 * Runs an external program in a bubblewrap sandbox: no network (its own empty
 * network namespace), its own process namespace that dies with the service
 * (--die-with-parent: a kill -9 of the service kills bwrap, and the namespace's
 * processes with it), an empty environment, and a filesystem that holds only
 * the system files below, read-only, and the run's scratch folder. The data
 * folder, /root, /home, the host's /tmp and /etc/passwd are not in it.
 */
export const BWRAP = '/usr/bin/bwrap';

/** What LibreOffice needs to start and find fonts; missing ones are skipped. */
const READ_ONLY = ['/usr', '/etc/fonts', '/etc/libreoffice', '/etc/ld.so.cache', '/var/lib/libreoffice', '/var/cache/fontconfig'];

/** /bin, /lib... are symbolic links into /usr on merged-/usr systems (Debian 12); elsewhere bind them. */
function topLevelArgs(): string[] {
  const args: string[] = [];
  for (const name of ['/bin', '/sbin', '/lib', '/lib64', '/lib32']) {
    if (!existsSync(name)) continue;
    if (lstatSync(name).isSymbolicLink()) args.push('--symlink', readlinkSync(name), name);
    else args.push('--ro-bind', name, name);
  }
  return args;
}

export function sandboxAvailable(): boolean {
  return existsSync(BWRAP);
}

/**
 * bwrap's arguments to run `command` with `scratch` (an absolute path) as its
 * only writable folder, its working directory and HOME. Exported so that tests
 * can run `env`, `ls` or a network probe exactly as a conversion runs.
 */
export function sandboxArgs(scratch: string, command: string[]): string[] {
  return [
    '--unshare-all', // network, processes, IPC, host name (and the user namespace where allowed)
    '--die-with-parent',
    ...READ_ONLY.flatMap((p) => ['--ro-bind-try', p, p]),
    ...topLevelArgs(),
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp', // for programs that ignore TMPDIR; never the host's /tmp
    '--bind', scratch, scratch,
    '--chdir', scratch,
    '--clearenv',
    '--setenv', 'HOME', scratch,
    '--setenv', 'TMPDIR', scratch,
    '--setenv', 'PATH', '/usr/bin:/bin',
    '--setenv', 'LANG', 'C.UTF-8',
    '--',
    ...command,
  ];
}

/**
 * Runs `command` in the sandbox in its own process group; after `timeoutMs`
 * the whole group is killed. Resolves with the exit code (null when killed by
 * a signal), whether it timed out, and the first few KB of stderr.
 */
export function runSandboxed(scratch: string, command: string[], timeoutMs: number): Promise<{ code: number | null; timedOut: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    // detached: a process group of its own, so one kill reaches bwrap and everything it started.
    const child = spawn(BWRAP, sandboxArgs(scratch, command), { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let stderr = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      // Nothing of the run outlives bwrap: its process namespace ends with it.
      resolve({ code, timedOut, stderr });
    });
  });
}
