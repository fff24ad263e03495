import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { codeBlocks, failures, readerEnv, runCommands, shellCommands } from '../helpers/doc-examples.js';
import { serverForSuite } from '../helpers/server.js';
import { tempFolders } from '../helpers/temp.js';

/**
 * The README's examples, run as a new user would: every command of every ```sh block between the
 * examples markers, in order, by bash in an empty folder, against a started service. Each must exit 0
 * (the examples use curl -f, so any 4xx or 5xx fails). They are also run by zsh, with the commands that
 * would reach the service or take long replaced by stubs, so that quoting zsh refuses (an unquoted `?`
 * in a URL: "no matches found") shows up.
 */
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const START = '<!-- examples:';
const END = '<!-- end of examples -->';

/** The commands of the README's example section, in order. */
function exampleCommands(readme: string): string[] {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  assert.ok(start >= 0 && end > start, 'the README marks its examples');
  return codeBlocks(readme.slice(start, end))
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => shellCommands(block.code));
}

const server = serverForSuite();
let commands: string[];
const emptyFolder = tempFolders('readme');
before(async () => {
  commands = exampleCommands(await readFile(README, 'utf8'));
});
const shellEnv = (home: string): Record<string, string> => readerEnv(server.api, home);

test('the README has examples for every part of the API, each with curl -f', () => {
  const curls = commands.filter((c) => /^curl /m.test(c));
  assert.ok(curls.length >= 50, `${curls.length} curl examples`);
  for (const c of curls) assert.match(c, /^curl -f/, `${c} fails on an error status`);
  for (const c of curls) assert.doesNotMatch(c, /(^|\s)\$PDF\S*[?*[]/, `${c}: a URL with ? * or [ is quoted`);
});

test('every README example runs with bash, in order, from a fresh start', { timeout: 600_000 }, async () => {
  const folder = await emptyFolder();
  const outcomes = runCommands('bash', commands, folder, shellEnv(folder));
  const failed = failures(outcomes);
  assert.deepEqual(failed, [], `${failed.length} of ${outcomes.length} examples failed`);
});

test('zsh accepts every README example', { timeout: 120_000 }, async (t) => {
  if (spawnSync('zsh', ['-c', 'true']).status !== 0) {
    t.skip('zsh is not installed (scripts/setup.sh test installs it)');
    return;
  }
  const folder = await emptyFolder();
  // The service, LibreOffice and key generation are not needed to see how zsh expands a command.
  const stubs = ['curl', 'soffice', 'openssl', 'qpdf', 'fix-qdf'].map((name) => `${name}() { return 0; }`).join('\n');
  await writeFile(path.join(folder, 'page.pdf'), ''); // what the stubbed fix-qdf would have written, for cp
  const outcomes = runCommands('zsh', commands, folder, shellEnv(folder), stubs);
  const refused = outcomes.filter((o) => o.status === -1 || /^zsh:/m.test(o.stderr));
  assert.deepEqual(refused.map((o) => `${o.command.split('\n')[0]}\n    ${o.stderr.trim()}`), []);
});
