import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { codeBlocks, documentationFiles, failures, isShell, readerEnv, REPO, runCommands, shellCommands, type CodeBlock } from '../helpers/doc-examples.js';
import { serverForSuite } from '../helpers/server.js';
import { tempFolders } from '../helpers/temp.js';

/**
 * Every shell example of docs/*.md (and of the README outside its examples section, which
 * test/api/readme.test.ts runs) runs as written: each page's ```sh and ```bash blocks, in order, by bash in
 * an empty folder of its own, against one started service, with only what a reader sets before the
 * page's set-up block (PDF, PDF_USER, PDF_PASSWORD). Every command must exit 0. A block that cannot run
 * here (a system service, root, a DMS, a foreground server) says why in a `<!-- example: not-run (reason) -->`
 * line before it. The conventions: docs/architecture.md, "Documentation".
 */

interface Page {
  file: string;
  run: CodeBlock[];
  notRun: CodeBlock[];
}

/** The README's own section of examples, which test/api/readme.test.ts runs. */
function outsideReadmeExamples(file: string, text: string): string {
  if (file !== 'README.md') return text;
  const start = text.indexOf('<!-- examples:');
  const end = text.indexOf('<!-- end of examples -->', start);
  assert.ok(start >= 0 && end > start, 'the README marks its examples');
  // Lines are kept (blanked) so that line numbers stay the file's.
  return text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, '') + text.slice(end);
}

function pages(): Page[] {
  return documentationFiles().map((file) => {
    const blocks = codeBlocks(outsideReadmeExamples(file, readFileSync(path.join(REPO, file), 'utf8'))).filter(isShell);
    return { file, run: blocks.filter((b) => !b.notRun), notRun: blocks.filter((b) => b.notRun) };
  });
}

/** A curl command that reports failure: -f (or --fail), or -w printing the status for the reader to see. */
const CHECKS_STATUS = /(^|\s)(-[a-zA-Z]*f[a-zA-Z]*|--fail(-with-body)?|-w\s+'[^']*%\{http_code\}[^']*')(\s|$)/;

test('every shell example in docs/ runs, or says why not; curl examples check the status', () => {
  const all = pages();
  const problems: string[] = [];
  for (const page of all) {
    for (const block of page.run) {
      for (const command of shellCommands(block.code)) {
        for (const curl of command.split(/\s*(?:&&|\|\||;|\||\$\()\s*/).filter((c) => /^curl\s/.test(c))) {
          if (!CHECKS_STATUS.test(curl)) problems.push(`${page.file}:${block.line}: ${curl.split('\n')[0]} (no -f: an error status would pass)`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
  const run = all.reduce((n, p) => n + p.run.length, 0);
  const notRun = all.flatMap((p) => p.notRun.map((b) => `${p.file}:${b.line}: ${b.notRun}`));
  assert.ok(run >= 10, `${run} example blocks run`);
  // Short and honest: a growing list means examples that nobody checks.
  assert.ok(notRun.length <= 20, `${notRun.length} blocks not run:\n${notRun.join('\n')}`);
});

test('docs/getting-started.md takes a new user to a signed PDF in ten commands, counted as typed (a variable on its own line too)', () => {
  const blocks = codeBlocks(readFileSync(path.join(REPO, 'docs', 'getting-started.md'), 'utf8')).filter(isShell);
  const commands = blocks.flatMap((block) => shellCommands(block.code));
  assert.ok(commands.length <= 10, `${commands.length} commands:\n${commands.join('\n')}`);
  assert.ok(blocks.filter((b) => b.notRun).length <= 1, 'only the install-and-start block is not run');
});

const server = serverForSuite();
const emptyFolder = tempFolders('docs-examples');

test('every page of docs/ runs its examples in order, from its set-up block, with bash', { timeout: 900_000 }, async (t) => {
  let commands = 0;
  let blocks = 0;
  const failed: string[] = [];
  for (const page of pages()) {
    if (page.run.length === 0) continue;
    const folder = await emptyFolder();
    const pageCommands = page.run.flatMap((block) => shellCommands(block.code));
    const outcomes = runCommands('bash', pageCommands, folder, readerEnv(server.api, folder));
    commands += outcomes.length;
    blocks += page.run.length;
    failed.push(...failures(outcomes).map((f) => `${page.file}: ${f}`));
  }
  const notRun = pages().flatMap((p) => p.notRun.map((b) => `${p.file}:${b.line}: ${b.notRun}`));
  t.diagnostic(`${blocks} blocks (${commands} commands) run; ${notRun.length} blocks not run:`);
  for (const line of notRun) t.diagnostic(line);
  assert.deepEqual(failed, [], `${failed.length} of ${commands} example commands failed`);
});
