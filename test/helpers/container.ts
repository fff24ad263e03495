import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './processes.js';
import { ADMIN, basicAuth } from './server.js';

/**
 * The container image in tests (test/container/, docs/container.md): built (or found, by the hash of the files it is
 * built from) by scripts/container.sh, and run with podman through the same script, which applies this machine's
 * settings. The service inside is reached on a loopback port published by podman.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** podman with the machine's settings (bash scripts/container.sh podman ...); rejects with podman's stderr. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run('bash', ['scripts/container.sh', 'podman', ...args], { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** The image's name; a first build takes many minutes (Debian packages, npm, Maven), a build found takes a second. */
export async function buildImage(): Promise<string> {
  const { stdout } = await run('bash', ['scripts/container.sh', 'build'], { cwd: ROOT, timeout: 90 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim().split('\n').at(-1)!;
}

/** A running container of the image: what test/helpers/http.ts `call` needs (api, adminAuth), and its names. */
export interface Container {
  name: string;
  port: number;
  baseUrl: string;
  api: string;
  adminAuth: string;
}

/** A name for the run's containers and volumes, so that leftovers of a killed run are recognisable (pdfservice-test-*). */
export function testName(what: string): string {
  return `pdfservice-test-${what}-${randomBytes(4).toString('hex')}`;
}

/**
 * Starts the image with `volume` as its data folder and waits until /health answers (the first start of a data
 * folder also creates the admin user and checks every tool). LibreOffice's sandbox needs /proc unmasked
 * (docs/container.md, "Run").
 */
export async function startContainer(image: string, volume: string, env: Record<string, string> = {}): Promise<Container> {
  const name = testName('service');
  const port = await freePort();
  const settings = { PDFSERVICE_ADMIN_USER: ADMIN.username, PDFSERVICE_ADMIN_PASSWORD: ADMIN.password, PDFSERVICE_KEEP_ALIVE_TIMEOUT_MS: '600000', ...env };
  await podman([
    'run', '--detach', '--name', name,
    '--security-opt', 'unmask=/proc/*',
    '--publish', `127.0.0.1:${port}:8080`,
    '--volume', `${volume}:/var/lib/pdfservice`,
    ...Object.entries(settings).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    image,
  ]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const container: Container = { name, port, baseUrl, api: `${baseUrl}/pdfservice/v1`, adminAuth: basicAuth(ADMIN.username, ADMIN.password) };
  const deadline = Date.now() + 300_000;
  for (;;) {
    if ((await podman(['inspect', '--format', '{{.State.Running}}', name])) !== 'true') {
      throw new Error(`the container stopped before it answered /health:\n${await podman(['logs', name]).catch(String)}`);
    }
    const ok = await fetch(`${container.api}/health`).then((r) => r.ok, () => false);
    if (ok) return container;
    if (Date.now() > deadline) throw new Error(`no answer from /health in 300 s:\n${await podman(['logs', name]).catch(String)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The container's exit status, once it has exited (podman wait). */
export async function exitStatus(name: string, timeoutMs = 120_000): Promise<number> {
  return Number(await podman(['wait', name], timeoutMs));
}

/** Removes containers and volumes, whatever state they are in. */
export async function removeAll(containers: string[], volumes: string[]): Promise<void> {
  for (const name of containers) await podman(['rm', '--force', '--time', '5', name]).catch(() => undefined);
  for (const volume of volumes) await podman(['volume', 'rm', '--force', volume]).catch(() => undefined);
}
