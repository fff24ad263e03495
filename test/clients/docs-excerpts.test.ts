import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { codeBlocks, documentationFiles, isShell, REPO } from '../helpers/doc-examples.js';
import { CLIENTS } from './fixtures.js';

/**
 * The client examples of the docs run: every ```typescript and ```python block of the README, docs/*.md and the
 * client packages' READMEs is an excerpt, verbatim (whole lines), of an example file of its client, and
 * test/clients/typescript.test.ts and python.test.ts run those files against the service. docs/clients.md says so.
 */
const LANGUAGES = {
  typescript: { folder: 'typescript/examples', extension: '.ts' },
  python: { folder: 'python/examples', extension: '.py' },
} as const;

function examples(language: keyof typeof LANGUAGES): Array<{ file: string; text: string }> {
  const folder = path.join(CLIENTS, LANGUAGES[language].folder);
  return readdirSync(folder)
    .filter((name) => name.endsWith(LANGUAGES[language].extension))
    .map((name) => ({ file: path.relative(REPO, path.join(folder, name)), text: readFileSync(path.join(folder, name), 'utf8') }));
}

test('every TypeScript and Python block of the docs is an excerpt of a client example that the tests run', () => {
  const pages = [...documentationFiles(), 'clients/typescript/README.md', 'clients/python/README.md'];
  const problems: string[] = [];
  const seen: Record<string, number> = {};
  for (const page of pages) {
    for (const block of codeBlocks(readFileSync(path.join(REPO, page), 'utf8'))) {
      const language = block.lang === 'py' ? 'python' : block.lang;
      if (language !== 'typescript' && language !== 'python') continue;
      seen[`${page} ${language}`] = (seen[`${page} ${language}`] ?? 0) + 1;
      // Whole lines: the block's text, between line ends of the file.
      const found = examples(language).some((example) => `\n${example.text}`.includes(`\n${block.code.replace(/\n+$/, '')}\n`));
      if (!found) problems.push(`${page}:${block.line}: a ${language} block that is not an excerpt of ${LANGUAGES[language].folder}/*${LANGUAGES[language].extension}`);
    }
  }
  assert.deepEqual(problems, []);
  // A tab for each client on every page whose shell examples call the API (the README, api.md, getting-started.md,
  // jobs.md, ocr.md, pages.md, pdfa.md, signing.md, stamps.md today): a page that gains such examples gains both.
  const callsApi = (page: string) => codeBlocks(readFileSync(path.join(REPO, page), 'utf8')).some((b) => isShell(b) && !b.notRun && /\$PDF\//.test(b.code));
  const missing = documentationFiles().filter(callsApi).flatMap((page) => ['typescript', 'python'].filter((l) => !seen[`${page} ${l}`]).map((l) => `${page}: no ${l} example`));
  assert.deepEqual(missing, []);
  assert.ok(documentationFiles().filter(callsApi).length >= 9);
});
