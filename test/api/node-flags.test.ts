import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../src/start/node-flags.js';
import { startServer } from '../helpers/server.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(REPO + file, 'utf8');

test('every way of starting the service passes its Node.js options (src/start/node-flags.ts): scripts, container, systemd units', () => {
  assert.ok(NODE_FLAGS.includes('--no-memory-protection-keys'));
  const env = /^PDFSERVICE_NODE_FLAGS="([^"]*)"/m.exec(read('scripts/env.sh'));
  assert.equal(env?.[1], NODE_FLAGS.join(' '), 'scripts/env.sh holds the same list');
  assert.match(read('scripts/run.sh'), /exec node \$PDFSERVICE_NODE_FLAGS dist\/src\/main\.js/);
  // The tests run through scripts/run-tests-in-order.mjs, which passes its own Node.js options to every test file.
  assert.match(read('scripts/run.sh'), /exec node \$PDFSERVICE_NODE_FLAGS scripts\/run-tests-in-order\.mjs /);
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  for (const name of ['start', 'worker', 'bench', 'test:corpus', 'test:robust']) assert.match(scripts[name]!, /node \$PDFSERVICE_NODE_FLAGS /, `npm run ${name}`);
  const started = [
    ['Containerfile', /^CMD \[(.*)\]$/m],
    ['deploy/systemd/pdfservice@.service', /^ExecStart=(.*)$/m],
    ['deploy/systemd/pdfservice-worker@.service', /^ExecStart=(.*)$/m],
  ] as const;
  for (const [file, line] of started) {
    const command = line.exec(read(file))?.[1];
    assert.ok(command, file);
    for (const flag of NODE_FLAGS) assert.ok(command.includes(flag), `${file}: ${command}`);
  }
});

test('the service started with its options says nothing of them; started without, it warns in its log naming what is missing', async () => {
  const server = await startServer();
  try {
    const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    for (const flag of NODE_FLAGS) assert.ok(cmdline.includes(flag), cmdline.join(' '));
    assert.ok(!server.output.some((line) => line.includes('started without the Node.js options')), server.output.join('\n'));
  } finally {
    await server.stop();
  }
  const bare = await startServer({ nodeFlags: [] });
  try {
    const warning = bare.output.map((line) => (line.startsWith('{') ? (JSON.parse(line) as { msg?: string; missing?: string[]; level?: number }) : {})).find((entry) => entry.msg?.startsWith('started without the Node.js options'));
    assert.ok(warning, bare.output.join('\n'));
    assert.equal(warning.level, 40);
    assert.deepEqual(warning.missing, [...NODE_FLAGS]);
  } finally {
    await bare.stop();
  }
});
