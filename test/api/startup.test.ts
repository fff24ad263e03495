import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileEverySerializer } from '../../src/http/serialization.js';
import { compileEveryValidator } from '../../src/validation.js';
import { startServer } from '../helpers/server.js';
import { tempFolders } from '../helpers/temp.js';
import { startWithTestActions } from '../helpers/test-actions.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli/users.js', import.meta.url));

const tempFolder = tempFolders('startup');

function run(file: string, args: string[], env: Record<string, string>, input = '') {
  return spawnSync(process.execPath, [file, ...args], { env: { ...process.env, ...env }, input, encoding: 'utf8', timeout: 30_000 });
}

/** One line on stderr, no stack trace. */
function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
}

test('a port in use stops the start with one line naming the address', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = String((blocker.address() as { port: number }).port);
  try {
    const result = run(MAIN, [], {
      PDFSERVICE_DATA_DIR: await tempFolder(),
      PDFSERVICE_HOST: '127.0.0.1',
      PDFSERVICE_PORT: port,
      PDFSERVICE_ADMIN_PASSWORD: 'long-enough-password',
      PDFSERVICE_WORKERS: '1',
    });
    assert.notEqual(result.status, 0);
    assertOneLine(result.stderr, new RegExp(`127\\.0\\.0\\.1:${port}.*in use.*PDFSERVICE_PORT`));
  } finally {
    blocker.close();
  }
});

test('an admin password that is too short stops the start with one line stating the rule', async () => {
  const result = run(MAIN, [], { PDFSERVICE_DATA_DIR: await tempFolder(), PDFSERVICE_PORT: '0', PDFSERVICE_ADMIN_PASSWORD: 'short', PDFSERVICE_WORKERS: '1' });
  assert.notEqual(result.status, 0);
  assertOneLine(result.stderr, /PDFSERVICE_ADMIN_PASSWORD.*8 to 1024 characters/);
});

test('the listening line names the API base and the docs page; the JSON log line carries them too', async () => {
  const server = await startServer({ env: { PDFSERVICE_WORKERS: '1' } });
  try {
    const api = `${server.baseUrl}/pdfservice/v1`;
    assert.ok(server.output.includes(`pdfservice listening on ${api} (docs: ${api}/docs)`), server.output.join('\n'));
    const entry = server.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((e) => e.msg === 'listening');
    assert.equal(entry.url, server.baseUrl);
    assert.equal(entry.api, api);
    assert.equal(entry.docs, `${api}/docs`);
    const docs = await fetch(`${api}/docs`);
    assert.equal(docs.status, 200, 'the docs URL printed answers');
  } finally {
    await server.stop();
  }
});

test('npm run users refuses a data folder without a user store, unless --create is given', async () => {
  const parent = await tempFolder();
  const missing = path.join(parent, 'no-such-folder');
  for (const dataDir of [missing, parent]) {
    const result = run(CLI, ['list'], { PDFSERVICE_DATA_DIR: dataDir });
    assert.equal(result.status, 1, result.stdout);
    assertOneLine(result.stderr, new RegExp(`no user store in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*--create`));
    assert.equal(result.stdout, '');
  }
  assert.deepEqual(await readdir(parent), [], 'nothing was created');

  const added = run(CLI, ['add', 'ops', '--rights', 'GET', '--create'], { PDFSERVICE_DATA_DIR: missing }, 'ops-password-1\n');
  assert.equal(added.status, 0, added.stderr);
  const listed = run(CLI, ['list'], { PDFSERVICE_DATA_DIR: missing });
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, /^ops\tGET\t/);
});

// The service compiles a schema's validators and serializers when a request first needs them (src/validation.ts,
// src/http/serialization.ts): a schema Ajv or fast-json-stringify refuses would only show at that request. Every
// route's and action's validators, both forms, and every response serializer compile here.
test('every validator and response serializer of the routes and actions compiles', async () => {
  const service = await startWithTestActions({}, { dataDir: await tempFolder() });
  try {
    // The routes' querystring, params, headers and body schemas and the actions': well over a hundred.
    assert.ok(compileEveryValidator() > 100);
    assert.ok(compileEverySerializer() > 50);
  } finally {
    await service.stop();
  }
});
