/**
 * compose.yaml (docs/container.md, "Compose"): valid against the Compose schema (docker-compose config, which needs no
 * daemon), with the deployment of docs/deployment.md in it, and refusing to start without its secrets. Its images
 * other than pdfservice's cannot be pulled on this machine, so it is checked, not run.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** The example settings file, as a user copies it to .env. */
function exampleEnv(): Record<string, string> {
  const text = readFileSync(`${ROOT}deploy/compose/example.env`, 'utf8');
  return Object.fromEntries(text.split('\n').filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/** docker-compose with only the given variables (none from this process's environment that compose.yaml names). */
function compose(args: string[], env: Record<string, string>) {
  return run('docker-compose', ['--file', 'compose.yaml', '--project-directory', ROOT, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
}

test('compose.yaml is valid and has Redis, S3, two instances behind nginx and the workers, sharing one set of settings', async () => {
  const env = exampleEnv();
  await compose(['config', '--quiet'], env);
  const services = (await compose(['config', '--services'], env)).stdout.trim().split('\n').sort();
  assert.deepEqual(services, ['api1', 'api2', 'nginx', 'redis', 's3', 's3-bucket', 'worker']);
  const config = (await compose(['config'], env)).stdout;
  // The instances and the workers: one image, the same Redis, store and secrets key; the workers run jobs only.
  for (const setting of [`PDFSERVICE_REDIS_URL: redis://:${env.REDIS_PASSWORD}@redis:6379/0`, 'PDFSERVICE_STORE: s3', `PDFSERVICE_SECRETS_KEY: '${env.SECRETS_KEY}'`]) {
    assert.equal(config.split(setting).length - 1, 3, `${setting} in api1, api2 and worker`);
  }
  assert.match(config, /command:\n\s+- node\n\s+- dist\/src\/worker\.js/);
  assert.equal(config.split('- unmask=/proc/*').length - 1, 3, 'the LibreOffice sandbox needs /proc unmasked in every pdfservice container');
});

test('compose.yaml refuses to start without its secrets', async () => {
  const env = exampleEnv();
  delete env.REDIS_PASSWORD;
  await assert.rejects(compose(['config', '--quiet'], env), (err: { stderr: string }) => /set REDIS_PASSWORD in \.env/.test(err.stderr));
});
