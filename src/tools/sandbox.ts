import { existsSync, lstatSync, readlinkSync } from 'node:fs';

/**
 * The bubblewrap sandbox a tool may declare (tool.ts `sandbox`; the supervisor
 * runs the tool's processes in it): no network (its own empty
 * network namespace), its own process namespace that dies with the service
 * (--die-with-parent: bwrap's parent is the spawner (spawner.ts), which exits
 * when the service's channel closes, a kill -9 of the service too; bwrap dies
 * with it, and the namespace's processes with it), an empty environment, and a filesystem that holds only
 * the system files below, read-only, and the run's scratch folder. The data
 * folder, /root, /home, the host's /tmp and /etc/passwd are not in it.
 */
export const BWRAP = '/usr/bin/bwrap';

/** What every program needs (its files and the loader's cache); a tool declares what else it reads. Missing ones are skipped. */
const BASE_READ_ONLY = ['/usr', '/etc/ld.so.cache'];

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
 * can run `env`, `ls` or a network probe exactly as a tool runs.
 */
export function sandboxArgs(scratch: string, command: string[], readOnly: string[] = [], env: Readonly<Record<string, string>> = {}): string[] {
  return [
    '--unshare-all', // network, processes, IPC, host name (and the user namespace where allowed)
    '--die-with-parent',
    ...BASE_READ_ONLY.flatMap((p) => ['--ro-bind-try', p, p]),
    ...topLevelArgs(),
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp', // for programs that ignore TMPDIR; never the host's /tmp
    // A tool's own folders after the /tmp mount, which would hide one installed under /tmp (a clone there).
    ...readOnly.filter((p) => !BASE_READ_ONLY.includes(p)).flatMap((p) => ['--ro-bind-try', p, p]),
    '--bind', scratch, scratch,
    '--chdir', scratch,
    '--clearenv',
    '--setenv', 'HOME', scratch,
    '--setenv', 'TMPDIR', scratch,
    '--setenv', 'PATH', '/usr/bin:/bin',
    '--setenv', 'LANG', 'C.UTF-8',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    '--',
    ...command,
  ];
}
