import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { serverForSuite } from '../helpers/server.js';
import { CLIENTS } from './fixtures.js';

/**
 * The client packages' generated code is committed (docs/clients.md, "Generated code"), so it must be what the
 * generators write from the description the service serves now: a route or schema changed without
 * `bash scripts/generate-clients.sh` fails here, naming the command.
 */
const run = promisify(execFile);
const server = serverForSuite();
const REGENERATE = 'run `bash scripts/generate-clients.sh` (after the build) and commit what it changes';

test('clients/openapi.json is the description the service serves', async () => {
  const served = (await (await fetch(`${server.api}/openapi.json`)).json()) as unknown;
  const committed = await readFile(path.join(CLIENTS, 'openapi.json'), 'utf8');
  assert.ok(`${JSON.stringify(served, null, 2)}\n` === committed, `clients/openapi.json is stale: ${REGENERATE}`);
});

test('the TypeScript client is what openapi-typescript writes from clients/openapi.json', async () => {
  const { generate } = (await import(pathToFileURL(path.join(CLIENTS, 'typescript', 'scripts', 'generate.mjs')).href)) as { generate: (d: unknown) => Promise<string> };
  const description = JSON.parse(await readFile(path.join(CLIENTS, 'openapi.json'), 'utf8')) as unknown;
  const committed = await readFile(path.join(CLIENTS, 'typescript', 'src', 'generated', 'api.ts'), 'utf8');
  assert.ok((await generate(description)) === committed, `clients/typescript/src/generated/api.ts is stale: ${REGENERATE}`);
});

test('the Python client is what openapi-python-client writes from clients/openapi.json', { timeout: 180_000 }, async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'pdfservice-pygen-'));
  try {
    const out = path.join(work, 'generated');
    await run('bash', [path.join(CLIENTS, 'python', 'generate.sh'), path.join(CLIENTS, 'openapi.json'), out]);
    const diff = await run('diff', ['-r', '-q', '-x', '__pycache__', out, path.join(CLIENTS, 'python', 'src', 'pdfservice_client', 'generated')]).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    assert.equal(diff, '', `clients/python/src/pdfservice_client/generated is stale: ${REGENERATE}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
