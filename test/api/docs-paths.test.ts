import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { documentationFiles, REPO } from '../helpers/doc-examples.js';

/**
 * Every source path the README and docs/*.md name exists in the repository: paths from a top-level folder
 * (`src/...`, `test/...`, `scripts/...`, `deploy/...`; `dist/x.js` is `x.ts`; `/opt/pdfservice/...` is the
 * checkout of docs/deployment.md), file names in backticks relative to `src/` or one of its layers (as
 * docs/architecture.md writes them: `operations/documents.ts`), and relative Markdown links. No server; run it
 * alone after moving files: node --test dist/test/api/docs-paths.test.js
 */

const TOP = '(?:src|test|scripts|bench|deploy|robust|corpus|java|docs|assets|dist|clients|\\.ci)';
/** A path from a top-level folder, anywhere in the text (prose, code, links), not inside another path or URL. */
const ROOTED = new RegExp(`(?<![\\w./$~@:-])(?:/opt/pdfservice/)?${TOP}/[^\\s\`'"()\\[\\],;|]*`, 'g');
/** A backticked relative file name with a source extension. */
const TICKED = /`([\w.@-]+(?:\/[\w.@-]+)+\.(?:ts|mts|js|sh|py|java|conf|service|ps|toml))`/g;
/** Where backticked short paths are written from. */
const BASES = ['', 'src', 'src/engine', 'src/operations', 'src/http', 'src/storage', 'src/tools', 'test'];
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;

/** The repository file a named path stands for: the source of a built file, the checkout's own path. */
function sourceOf(named: string): string {
  let p = named.replace(/^\/opt\/pdfservice\//, '').replace(/#.*$/, '').replace(/[.:]+$/, '');
  if (p.startsWith('dist/')) p = p.slice('dist/'.length).replace(/\.js$/, '.ts');
  // A pattern (deploy/systemd/*.service, src/engine/<feature>/, {a,b}) names its folder.
  const wild = p.search(/[*<{]/);
  if (wild >= 0) p = p.slice(0, p.lastIndexOf('/', wild) + 1);
  return p;
}

/**
 * A folder listing in a code block (a first line `src/engine/`, then a line per entry, indented two spaces: `core/`,
 * `pool.ts`): each entry exists, and each subfolder of the folder is listed.
 */
function listingProblems(file: string, lines: string[]): string[] {
  const problems: string[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim().startsWith('```')) continue;
    inBlock = !inBlock;
    const folder = inBlock ? new RegExp(`^(${TOP}/(?:[\\w.-]+/)*)$`).exec(lines[i + 1]?.trim() ?? '')?.[1] : undefined;
    if (!folder || !existsSync(path.join(REPO, folder))) continue; // a missing folder is reported as a path
    const listed = new Set<string>();
    for (let j = i + 2; j < lines.length && !lines[j]!.trim().startsWith('```'); j++) {
      const entry = /^ {2}([\w.-]+\/?)(\s|$)/.exec(lines[j]!)?.[1];
      if (!entry) continue;
      listed.add(entry.replace(/\/$/, ''));
      if (!existsSync(path.join(REPO, folder, entry))) problems.push(`${file}:${j + 1}: ${folder}${entry} (listed, missing)`);
    }
    for (const entry of readdirSync(path.join(REPO, folder), { withFileTypes: true })) {
      if (entry.isDirectory() && !listed.has(entry.name)) problems.push(`${file}:${i + 2}: ${folder}${entry.name}/ (not listed)`);
    }
  }
  return problems;
}

function missingPaths(file: string, text: string): string[] {
  const missing: string[] = listingProblems(file, text.split('\n'));
  text.split('\n').forEach((line, n) => {
    const where = `${file}:${n + 1}`;
    for (const [named] of line.matchAll(ROOTED)) {
      const source = sourceOf(named);
      if (source.startsWith('dist/')) continue; // the build folder itself
      if (!existsSync(path.join(REPO, source))) missing.push(`${where}: ${named}`);
    }
    for (const [, named] of line.matchAll(TICKED)) {
      if (!BASES.some((base) => existsSync(path.join(REPO, base, sourceOf(named!))))) missing.push(`${where}: \`${named}\``);
    }
    for (const [, target] of line.matchAll(LINK)) {
      if (/^[a-z]+:/i.test(target!)) continue; // a URL
      if (!existsSync(path.join(REPO, path.dirname(file), decodeURI(target!)))) missing.push(`${where}: link ${target}`);
    }
  });
  return missing;
}

test('every source path named in the README and docs/ exists', () => {
  const missing = documentationFiles().flatMap((file) => missingPaths(file, readFileSync(path.join(REPO, file), 'utf8')));
  assert.deepEqual(missing, [], 'paths that moved or never existed: fix the doc');
});

test('the check sees the kinds of path the docs write', () => {
  const seen = missingPaths('docs/x.md', [
    'in `src/nowhere.ts` and [a link](gone.md#x), `operations/gone.ts`, dist/test/helpers/gone.js,',
    'cp /opt/pdfservice/deploy/gone/*.conf /etc; fine: `src/errors.ts`, `engine/tasks.ts`, [api](api.md),',
    'dist/test/helpers/server.js, deploy/systemd/*.service, `src/engine/<feature>/`, https://example.com/src/x.ts',
    '```',
    'deploy/',
    '  nginx/       the proxy',
    '  docker/      gone',
    '  compose/     here',
    '```',
  ].join('\n'));
  assert.deepEqual(seen, [
    'docs/x.md:7: deploy/docker/ (listed, missing)',
    'docs/x.md:5: deploy/systemd/ (not listed)',
    'docs/x.md:1: src/nowhere.ts',
    'docs/x.md:1: dist/test/helpers/gone.js',
    'docs/x.md:1: `src/nowhere.ts`',
    'docs/x.md:1: `operations/gone.ts`',
    'docs/x.md:1: link gone.md',
    'docs/x.md:2: /opt/pdfservice/deploy/gone/*.conf',
  ]);
});
