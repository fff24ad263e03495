import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN } from './server.js';

/**
 * The shell examples of the README and docs/*.md, and the one way they are cut into commands and run
 * (test/api/readme.test.ts and test/api/docs-examples.test.ts). The conventions are in docs/architecture.md
 * ("Documentation").
 */

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The Markdown files whose examples and source paths are checked: the README and every page of docs/. */
export function documentationFiles(): string[] {
  const docs = readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word: sh, bash, json, ... ('' when none). */
  lang: string;
  /** The block's text, without the fence's indentation (blocks inside list items are indented). */
  code: string;
  /** The reason given by `<!-- example: not-run (reason) -->` on the line before the fence (blank lines between allowed). */
  notRun?: string;
}

const NOT_RUN = /^\s*<!--\s*example:\s*not-run\s*\((.+)\)\s*-->\s*$/;
/** A marker that does not parse as NOT_RUN is a mistake, not prose. */
const ANY_MARKER = /<!--\s*example:/;

/** Every fenced code block of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence!); j++) {
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!.trimStart());
    }
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const marker = k >= 0 ? lines[k]! : '';
    if (ANY_MARKER.test(marker)) assert.match(marker, NOT_RUN, `line ${k + 1}: an example marker reads <!-- example: not-run (reason) -->`);
    const notRun = NOT_RUN.exec(marker)?.[1];
    blocks.push({ line: i + 1, lang: lang ?? '', code: body.join('\n'), ...(notRun ? { notRun } : {}) });
    i = j;
  }
  return blocks;
}

/** Blocks that are shell examples. */
export const isShell = (block: CodeBlock): boolean => block.lang === 'sh' || block.lang === 'bash';

/**
 * Whether `bash -n` parses the text, remembered per text: the docs' pages are cut into commands several times a run
 * (docs-examples reads them three times), and a bash started per command line was most of the cutting's time.
 */
const parses = new Map<string, boolean>();
function bashParses(command: string): boolean {
  let ok = parses.get(command);
  if (ok === undefined) parses.set(command, (ok = spawnSync('bash', ['-n', '-c', command]).status === 0));
  return ok;
}

/** The commands of a shell block: comment and blank lines dropped, continuations, here-documents and `if`/`for` bodies kept whole. */
export function shellCommands(code: string): string[] {
  const lines = code.split('\n');
  const commands: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let command = lines[i]!;
    if (command.trim() === '' || command.trim().startsWith('#')) continue;
    while (command.endsWith('\\') && i + 1 < lines.length) command += `\n${lines[++i]}`;
    const heredoc = /<<-?\s*'?(\w+)'?/.exec(command);
    if (heredoc) {
      while (i + 1 < lines.length && lines[i + 1] !== heredoc[1]) command += `\n${lines[++i]}`;
      command += `\n${lines[++i] ?? ''}`;
    }
    // A multi-line string or compound command goes on until bash can parse it whole.
    while (i + 1 < lines.length && !bashParses(command)) command += `\n${lines[++i]}`;
    commands.push(command);
  }
  return commands;
}

/**
 * The environment examples run in: what a reader sets before them, as the README's "Using it" says (the API base,
 * a user and its password), and nothing else of the test's.
 */
export function readerEnv(api: string, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home, // LibreOffice keeps its profile there
    LANG: 'C.UTF-8',
    PDF: api,
    PDF_USER: ADMIN.username,
    PDF_PASSWORD: ADMIN.password,
  };
}

export interface Outcome {
  command: string;
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the commands in one shell, in order, each one's output and status kept apart. */
export function runCommands(shell: 'bash' | 'zsh', commands: string[], cwd: string, env: Record<string, string>, prelude = ''): Outcome[] {
  const script = [prelude];
  // A group per command: its here-document stays inside, its redirections stay its own. zsh gets a
  // subshell each, as its expansion errors end the shell: one refused command must not hide the rest.
  const [open, close] = shell === 'zsh' ? ['(', ')'] : ['{', '}'];
  commands.forEach((command, n) => {
    script.push(`${open}\n${command}\n${close} >${n}.out 2>${n}.err; echo "${n} $?" >>statuses`);
  });
  const result = spawnSync(shell, ['-c', script.join('\n')], { cwd, env, encoding: 'utf8', timeout: 600_000 });
  assert.equal(result.error, undefined, String(result.error));
  // A file the shell did not get to write reads as empty.
  const read = (name: string): string => {
    try {
      return readFileSync(path.join(cwd, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw err;
    }
  };
  const statuses = new Map(read('statuses').trim().split('\n').filter(Boolean).map((l) => l.split(' ').map(Number) as [number, number]));
  return commands.map((command, n) => ({
    command,
    status: statuses.get(n) ?? -1, // -1: the shell stopped before this command
    stdout: read(`${n}.out`),
    stderr: read(`${n}.err`) + (n === 0 ? result.stderr : ''),
  }));
}

/** What failed, one entry per command, for an assertion message. */
export function failures(outcomes: Outcome[]): string[] {
  return outcomes.filter((o) => o.status !== 0).map((o) => `${o.command.split('\n')[0]}\n    exit ${o.status}: ${o.stderr.trim()}`);
}
