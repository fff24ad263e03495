import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ADMIN, serverForSuite } from '../helpers/server.js';
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

/** The commands of the README's example section: comment and blank lines dropped, continuations and here-documents kept whole. */
function exampleCommands(readme: string): string[] {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  assert.ok(start >= 0 && end > start, 'the README marks its examples');
  const blocks = [...readme.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const commands: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let command = lines[i]!;
      if (command.trim() === '' || command.trim().startsWith('#')) continue;
      while (command.endsWith('\\') && i + 1 < lines.length) command += `\n${lines[++i]}`;
      const heredoc = /<<-?\s*'?(\w+)'?/.exec(command);
      if (heredoc) {
        while (i + 1 < lines.length && lines[i + 1] !== heredoc[1]) command += `\n${lines[++i]}`;
        command += `\n${lines[++i] ?? ''}`;
      }
      commands.push(command);
    }
  }
  return commands;
}

interface Outcome {
  command: string;
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the commands in one shell, in order, each one's output and status kept apart. */
function runAll(shell: 'bash' | 'zsh', commands: string[], cwd: string, env: Record<string, string>, prelude = ''): Outcome[] {
  const script = [prelude];
  // A group per command: its here-document stays inside, its redirections stay its own. zsh gets a
  // subshell each, as its expansion errors end the shell: one refused command must not hide the rest.
  const [open, close] = shell === 'zsh' ? ['(', ')'] : ['{', '}'];
  commands.forEach((command, n) => {
    script.push(`${open}\n${command}\n${close} >${n}.out 2>${n}.err; echo "${n} $?" >>statuses`);
  });
  const result = spawnSync(shell, ['-c', script.join('\n')], { cwd, env, encoding: 'utf8', timeout: 600_000 });
  assert.equal(result.error, undefined, String(result.error));
  const statuses = new Map(
    spawnSync('cat', ['statuses'], { cwd, encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).map((l) => l.split(' ').map(Number) as [number, number]),
  );
  return commands.map((command, n) => ({
    command,
    status: statuses.get(n) ?? -1, // -1: the shell stopped before this command
    stdout: spawnSync('cat', [`${n}.out`], { cwd, encoding: 'utf8' }).stdout ?? '',
    stderr: (spawnSync('cat', [`${n}.err`], { cwd, encoding: 'utf8' }).stdout ?? '') + (n === 0 ? result.stderr : ''),
  }));
}

const server = serverForSuite();
let commands: string[];
const emptyFolder = tempFolders('readme');
before(async () => {
  commands = exampleCommands(await readFile(README, 'utf8'));
});
const shellEnv = (home: string): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home, // LibreOffice keeps its profile there
  LANG: 'C.UTF-8',
  PDF: server.api,
  PDF_USER: ADMIN.username,
  PDF_PASSWORD: ADMIN.password,
});

test('the README has examples for every part of the API, each with curl -f', () => {
  const curls = commands.filter((c) => /^curl /m.test(c));
  assert.ok(curls.length >= 50, `${curls.length} curl examples`);
  for (const c of curls) assert.match(c, /^curl -f/, `${c} fails on an error status`);
  for (const c of curls) assert.doesNotMatch(c, /(^|\s)\$PDF\S*[?*[]/, `${c}: a URL with ? * or [ is quoted`);
});

test('every README example runs with bash, in order, from a fresh start', { timeout: 600_000 }, async () => {
  const folder = await emptyFolder();
  const outcomes = runAll('bash', commands, folder, shellEnv(folder));
  const failed = outcomes.filter((o) => o.status !== 0);
  assert.deepEqual(
    failed.map((o) => `${o.command.split('\n')[0]}\n    exit ${o.status}: ${o.stderr.trim()}`),
    [],
    `${failed.length} of ${outcomes.length} examples failed`,
  );
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
  const outcomes = runAll('zsh', commands, folder, shellEnv(folder), stubs);
  const refused = outcomes.filter((o) => o.status === -1 || /^zsh:/m.test(o.stderr));
  assert.deepEqual(refused.map((o) => `${o.command.split('\n')[0]}\n    ${o.stderr.trim()}`), []);
});
