// ESLint (flat config): typescript-eslint's recommended rules, and the rules that keep the layers of
// docs/architecture.md ("Layers and lint"). `npm run lint` runs it with --max-warnings 0; so does .ci/run.
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
/** Composition roots: they wire the layers together and nothing imports them. */
const ROOTS = ['src/main.ts', 'src/cli'];
/** Shared by every layer (error catalogue, configuration, metrics, validation); they import no layer. */
const SHARED = ['src/errors.ts', 'src/config.ts', 'src/metrics.ts', 'src/validation.ts'];

/** Worker code: the engine's worker entry and task table, and the engine's PDF modules they run. */
const WORKER_FILES = ['src/engine/worker.ts', 'src/engine/tasks.ts', 'src/engine/pdf/**/*.ts'];

const zone = (target, from, message) => ({ target, from, message });
const layerZones = [
  zone(`${HTTP}/**`, ROOTS, 'Nothing imports a composition root (main.ts, cli).'),
  zone(`${OPERATIONS}/**`, [HTTP, ...ROOTS], 'operations must not import upward (http).'),
  zone(`${ENGINE}/**`, [HTTP, OPERATIONS, STORAGE, AUTH, TOOLS, ...ROOTS], 'engine is a bottom layer: it imports only shared modules.'),
  zone(`${STORAGE}/**`, [HTTP, OPERATIONS, ENGINE, AUTH, TOOLS, ...ROOTS], 'storage is a bottom layer: it imports only shared modules.'),
  zone(`${AUTH}/**`, [HTTP, OPERATIONS, ENGINE, STORAGE, TOOLS, ...ROOTS], 'auth is a bottom layer: it imports only shared modules.'),
  zone(`${TOOLS}/**`, [HTTP, OPERATIONS, ENGINE, STORAGE, AUTH, ...ROOTS], 'tools (external programs) is a bottom layer: it imports only shared modules.'),
  ...SHARED.map((file) => zone(file, [HTTP, OPERATIONS, ENGINE, STORAGE, AUTH, TOOLS, ...ROOTS], 'Shared modules import no layer.')),
];

/**
 * Main-thread code must not load a module that loads MuPDF (it would block the event loop and double the
 * memory). Type-only imports are erased at compile time, so they are allowed; value imports of the worker's
 * modules are not. The patterns match the import as written: `./pdf/`, `../engine/pdf/` and so on.
 */
const workerOnly = (message) => ({
  paths: [{ name: 'mupdf', message: `MuPDF runs only in the engine's worker threads (${WORKER_FILES.join(', ')}). ${message}` }],
  patterns: [
    {
      regex: '^(\\./|(\\.\\./)+)(engine/)?pdf/',
      allowTypeImports: true,
      message: `src/engine/pdf runs in the worker: import its types only (import type), or run its work through the EnginePool. ${message}`,
    },
    {
      regex: '^(\\./|(\\.\\./)+engine/)(tasks|worker)\\.js$',
      allowTypeImports: true,
      message: `The task table and the worker entry load MuPDF: import their types only. ${message}`,
    },
  ],
});

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'scratch/**', 'bench/results/**', '.venv-ci/**', '.schemathesis/**'] },
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
      '@typescript-eslint/no-restricted-imports': ['error', workerOnly('')],
    },
  },
  {
    files: WORKER_FILES,
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);

