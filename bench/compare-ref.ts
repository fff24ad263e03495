/**
 * `npm run bench -- --compare REF`: another commit built beside this checkout, so that its service runs in the same
 * bench run as ours (issue 38: the way a performance claim is checked). A detached git worktree in a temporary folder;
 * its node_modules a symlink to ours when its package-lock.json is the same (else `npm ci`), .tools likewise; then
 * its own tsc. The worktree is removed when the run ends.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker as startOurWorker } from '../test/helpers/jobs.js';
import { startServer as startOurServer } from '../test/helpers/server.js';
import { withServiceWarmUp, type Build, type ServerOptions } from './build.js';

/** The repository this bench was compiled from (dist/bench/ is two levels down). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * `shareModules`: link our node_modules even when REF's package-lock.json differs (`--compare-share-modules`, when the
 * difference is known not to matter to the service, such as a newer @types/node), instead of `npm ci`.
 */
export async function buildRef(ref: string, shareModules = false): Promise<{ build: Build; remove: () => void }> {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pdfservice-bench-ref-')), 'checkout');
  git('worktree', 'add', '--detach', dir, sha);
  const remove = () => {
    try {
      git('worktree', 'remove', '--force', dir);
      rmSync(path.dirname(dir), { recursive: true, force: true });
    } catch (error) {
      console.error(`could not remove the worktree ${dir}:`, error);
    }
  };
  try {
    const sameLock = readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8') === readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
    if (sameLock || shareModules) symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    if (existsSync(path.join(ROOT, '.tools'))) symlinkSync(realpathSync(path.join(ROOT, '.tools')), path.join(dir, '.tools'));
    console.log(`--compare: building ${ref} (${sha.slice(0, 12)}) in ${dir}${sameLock ? ', node_modules shared' : shareModules ? ', node_modules shared although package-lock.json differs' : ', npm ci'}`);
    try {
      execFileSync(process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'inherit' });
    } catch (error) {
      // tsc writes its output despite type errors; a build that runs is enough to measure it.
      if (!existsSync(path.join(dir, 'dist', 'src', 'main.js'))) throw error;
      console.error(`--compare: tsc reported errors in ${ref}; measuring the output it wrote`);
    }
    // The other build's service, started by this checkout's test helper, so that both sides are started and their output
    // read alike (an older helper parsed every log line in the bench process); the idle keep-alive is the helper's.
    const main = path.join(dir, 'dist', 'src', 'main.js');
    const worker = path.join(dir, 'dist', 'src', 'worker.js');
    // With REF's own Node.js options (its src/start/node-flags.ts), not ours: a change of them is a change to compare.
    const flagsModule = path.join(dir, 'dist', 'src', 'start', 'node-flags.js');
    const nodeFlags = existsSync(flagsModule) ? ((await import(flagsModule)) as { NODE_FLAGS: readonly string[] }).NODE_FLAGS : [];
    const build: Build = {
      name: `${ref} (${sha.slice(0, 8)})`,
      startServer: (options: ServerOptions = {}) => startOurServer({ nodeFlags, ...options, env: withServiceWarmUp(options.env), main }),
      startWorker: (env, dataDir) => startOurWorker(withServiceWarmUp(env), dataDir, worker, nodeFlags),
    };
    return { build, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
