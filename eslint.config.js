// ESLint (flat config): typescript-eslint's recommended rules, and the rules that keep the layers of
// docs/architecture.md ("Layers and lint"). `npm run lint` runs it with --max-warnings 0; so does .ci/run.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** The layers, lowest last; a layer may import the ones below it, never the ones above. */
const HTTP = 'src/http';
const OPERATIONS = 'src/operations';
const ENGINE = 'src/engine';
const STORAGE = 'src/storage';
const AUTH = 'src/auth';
const TOOLS = 'src/tools';
/** Composition roots: they wire the layers together and nothing imports them (the entries, start-up modules, command lines). */
const ROOTS = ['src/main.ts', 'src/worker.ts', 'src/start', 'src/cli'];
/**
 * Shared by every layer (error catalogue, configuration and its settings blocks, metrics, validation, atomic state
 * files, the Redis connection, secret sealing, requests to users' URLs, webhook signing, tracing); they import no layer.
 */
const SHARED = ['src/errors.ts', 'src/config.ts', 'src/config', 'src/metrics.ts', 'src/validation.ts', 'src/safe-xml.ts', 'src/state-file.ts', 'src/state-file-worker.ts', 'src/redis.ts', 'src/secrets.ts', 'src/scratch-file.ts', 'src/open-file.ts', 'src/outbound.ts', 'src/webhook-signing.ts', 'src/tracing.ts', 'src/tracing-sdk.ts'];
/** A file or a folder of the lists above, as a glob over the files it holds. */
const filesOf = (entry) => (entry.endsWith('.ts') ? entry : `${entry}/**/*.ts`);

/**
 * Worker code: the engine's worker entry and task table, and the feature folders' modules they run (MuPDF may
 * be imported here only). The folders also hold modules without MuPDF that the main thread loads as well
 * (ENGINE_SHARED): those are main-thread code, held to the same rule as the rest of src.
 */
const WORKER_FILES = ['src/engine/worker.ts', 'src/engine/tasks.ts', 'src/engine/*/**/*.ts'];
const ENGINE_SHARED = [
  'src/engine/*/model.ts', // each feature's vocabulary and types (annotation subtypes, page image formats, fonts, media types)
  'src/engine/syntax/**/*.ts', // the PDF syntax parsed in JavaScript (not MuPDF's objects), dates, numbers, XML
  'src/engine/core/pdf-source.ts', // how a task gets its document (a file descriptor or bytes)
  'src/engine/office/compound-file.ts', // the OLE2 reader: Office detection (operations/conversions/office) reads it too
  'src/engine/xfdf/fdf.ts', // the FDF parser and writer
  'src/engine/xfdf/field-data.ts', // field data files (XFDF, FDF, JSON) parsed and written
  'src/engine/xfdf/parse.ts', // the XFDF parser (fast-xml-parser), which field data reads with
  'src/engine/pages/range.ts', // page ranges ("1-3,7"): an export counts its pages before deciding on a job
];

/** A glob (`*` within a folder, `**` across folders) as a regular expression over a path relative to the repository. */
function globRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) {
      re += '(?:[^/]+/)*';
      i += 2;
    } else if (glob[i] === '*') re += '[^/]*';
    else re += glob[i].replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
const matchesAny = (globs, file) => globs.some((glob) => globRegExp(glob).test(file));
const sourceFiles = readdirSync(path.join(import.meta.dirname, 'src'), { recursive: true })
  .map((file) => path.posix.join('src', String(file).split(path.sep).join('/')))
  .filter((file) => file.endsWith('.ts'));
// Every source file is in a layer, a shared module or a composition root, so the zones below hold for all of them:
// a file outside them (a new module at the root of src/) would import anything unchecked. Lint stops here instead.
const unplaced = sourceFiles.filter((file) => !matchesAny([HTTP, OPERATIONS, ENGINE, STORAGE, AUTH, TOOLS, ...ROOTS, ...SHARED].map(filesOf), file));
if (unplaced.length > 0) {
  throw new Error(`eslint.config.js: ${unplaced.join(', ')} ${unplaced.length === 1 ? 'is' : 'are'} in no layer: move it into a layer's folder, or add it to SHARED or ROOTS (docs/architecture.md, "Layers and lint")`);
}
/** The worker modules that exist now, by path: main-thread code may import them for types only. */
const workerModules = sourceFiles.filter((file) => matchesAny(WORKER_FILES, file) && !matchesAny(ENGINE_SHARED, file));
const mainThreadFolders = [...new Set(sourceFiles.filter((file) => !workerModules.includes(file)).map((file) => path.posix.dirname(file)))];

const zone = (target, from, message) => ({ target, from, message });
const layerZones = [
  zone(`${HTTP}/**`, ROOTS, 'Nothing imports a composition root (main.ts, worker.ts, start, cli).'),
  zone(`${OPERATIONS}/**`, [HTTP, ...ROOTS], 'operations must not import upward (http).'),
  zone(`${ENGINE}/**`, [HTTP, OPERATIONS, STORAGE, AUTH, TOOLS, ...ROOTS], 'engine is a bottom layer: it imports only shared modules.'),
  zone(`${STORAGE}/**`, [HTTP, OPERATIONS, ENGINE, AUTH, TOOLS, ...ROOTS], 'storage is a bottom layer: it imports only shared modules.'),
  zone(`${AUTH}/**`, [HTTP, OPERATIONS, ENGINE, STORAGE, TOOLS, ...ROOTS], 'auth is a bottom layer: it imports only shared modules.'),
  zone(`${TOOLS}/**`, [HTTP, OPERATIONS, ENGINE, STORAGE, AUTH, ...ROOTS], 'tools (external programs) is a bottom layer: it imports only shared modules.'),
  ...SHARED.map((entry) => zone(filesOf(entry), [HTTP, OPERATIONS, ENGINE, STORAGE, AUTH, TOOLS, ...ROOTS], 'Shared modules import no layer.')),
];

/**
 * Main-thread code must not load a module that loads MuPDF (it would block the event loop and double the
 * memory). Type-only imports are erased at compile time, so they are allowed; value imports of worker modules
 * are not. no-restricted-imports matches an import as written, so each folder of main-thread code gets the
 * worker modules as its own relative paths (`./tasks.js` in src/engine, `../../engine/forms/fields.js` in
 * src/http/routes). Outside the engine, engine types and values come from engine/models.ts (the pool from
 * pool.ts, errors from errors.ts), never from a feature folder, so the folders can change inside.
 */
function workerOnly(folder) {
  const message = `${WORKER_FILES.join(', ')} are worker code (except ${ENGINE_SHARED.join(', ')}): import their types only (import type), or run their work through the EnginePool.`;
  const relative = (file) => {
    const spec = path.posix.relative(folder, file).replace(/\.ts$/, '.js');
    return spec.startsWith('.') ? spec : `./${spec}`;
  };
  const outsideEngine = !`${folder}/`.startsWith(`${ENGINE}/`);
  const engineFromHere = relative(ENGINE).replace(/\.js$/, '');
  return {
    paths: [
      { name: 'mupdf', message: `MuPDF runs only in the engine's worker threads. ${message}` },
      // Outside the engine the pattern below refuses every feature folder (types too); an allowTypeImports path for
      // the same module would let its type imports through.
      ...(outsideEngine ? [] : workerModules.map((file) => ({ name: relative(file), allowTypeImports: true, message }))),
    ],
    patterns: outsideEngine
      ? [
          {
            regex: `^${engineFromHere.replace(/[.]/g, '\\.')}/(?!(models|pool|errors)\\.js$)`,
            message: 'Outside the engine, import engine types and values from engine/models.ts (the pool from engine/pool.ts, errors from engine/errors.ts), not from its feature folders.',
          },
        ]
      : [],
  };
}

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'scratch/**', 'bench/results/**', '.venv-ci/**', '.schemathesis/**', '.venv-clients/**', 'clients/*/dist/**', 'console/node_modules/**', 'console/dist/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc's noUnusedLocals/noUnusedParameters already refuse these; `_` marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // The service matches control characters on purpose (path rules, XML 1.0's forbidden characters, FDF, headers):
      // every regular expression the rule finds is such a check.
      'no-control-regex': 'off',
      // A variable assigned once but read before, by a callback made earlier (main.ts: the pool's logger), must stay `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Fastify's type augmentation (http/context.ts) declares an interface that only merges a supertype in.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // Tests read the service's JSON answers and assert their shape; `any` is the honest type of such an answer.
    files: ['test/**/*.ts', 'corpus/**/*.ts', 'robust/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The client packages (clients/, docs/clients.md) are published on their own: they import their own files and their
    // dependencies, never the service's source or tests (a relative path out of the package).
    files: ['clients/typescript/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./){2,}', message: 'A client package imports only its own files and its dependencies (not src/ or test/).' }] }],
    },
  },
  {
    // Plain Node scripts: the client's generator, the CI's ordered test runner, the tests' OpenID Connect provider.
    files: ['clients/typescript/scripts/*.mjs', 'scripts/*.mjs', 'test/oidc/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Scripts for `mutool run` (benchmark peers): MuPDF's own JavaScript environment, not Node.
    files: ['bench/mutool-*.js'],
    languageOptions: { sourceType: 'script', globals: { PDFDocument: 'readonly', scriptArgs: 'readonly', print: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads imported modules itself (for no-cycle): TypeScript files through typescript-eslint's parser,
      // and `./x.js` resolved to `./x.ts` as tsc does.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // Cycles of value imports (type-only imports are erased and cannot make a load-order cycle).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Main-thread code, folder by folder (the rule's paths are relative to the importing file).
  ...mainThreadFolders.map((folder) => ({
    files: [`${folder}/*.ts`],
    ignores: workerModules,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', workerOnly(folder)] },
  })),
);

