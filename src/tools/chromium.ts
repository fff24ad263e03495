import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { realpathSync } from 'node:fs';
import { defaultChromiumProgram } from '../config/tools.js';
import { ServiceError } from '../errors.js';
import type { FetchAsk, FetchReply, HelperAnswer, HelperRequest, PageSettings } from './chromium/helper.js';
import { askHelper } from './helper-request.js';
import { resolveProgram, type ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * Chromium, for HTML uploads (docs/html.md): a pool of warm browsers, each driven by a small Node program
 * (chromium/helper.ts, with playwright-core over its pipe transport) that the supervisor runs as a `pooled` tool, so
 * the pool's rules are the supervisor's: one conversion per browser at a time (each in a fresh context), a browser
 * replaced after N conversions, when its processes' resident memory passes a bound, when it dies or overruns; the
 * whole process group is killed. The helper and the browser run in the bubblewrap sandbox: no network namespace,
 * only the system's files read-only and the run's folder.
 */
export const CHROMIUM = 'chromium';

const HELPER = fileURLToPath(new URL('./chromium/helper.js', import.meta.url));
/** A first start of a browser on a loaded machine: seconds. */
const START_TIMEOUT_MS = 60_000;
/** The helper answers a page that overruns itself; the supervisor's kill (504) is for a helper that cannot. */
const KILL_GRACE_MS = 15_000;

/** The pool's settings (PDFSERVICE_CHROMIUM_*, config/tools.ts). */
export interface ChromiumPoolSettings {
  /** Warm browsers, each converting one page at a time. Default: the cores. */
  instances?: number;
  /** Longest one conversion may take (load, waits, printing). */
  timeoutMs: number;
  restartAfterUses?: number;
  maxRssMb?: number;
  queueLimit?: number;
  /** The browser binary: a path, or a name looked up on PATH. */
  program?: string;
}

/** playwright-core's package folder (its real path: the sandbox binds it as it is on disk). */
function playwrightCoreDir(): string | undefined {
  try {
    return path.dirname(realpathSync(createRequire(import.meta.url).resolve('playwright-core/package.json')));
  } catch {
    return undefined;
  }
}

export function chromiumTool(settings: ChromiumPoolSettings): ToolDeclaration {
  const instances = settings.instances ?? availableParallelism();
  const chosen = settings.program ?? defaultChromiumProgram();
  const program = resolveProgram(chosen) ?? chosen;
  // The package that installs it: Debian's headless shell is a package of its own.
  const debianPackage = path.basename(program) === 'chromium-headless-shell' ? 'chromium-headless-shell' : 'chromium';
  const playwright = playwrightCoreDir();
  const node = realpathSync(process.execPath);
  const nodeDir = path.dirname(node);
  const programDir = path.dirname(program);
  return {
    name: CHROMIUM,
    command: program,
    debianPackage,
    metricsLabel: CHROMIUM,
    purpose: 'HTML conversion',
    versionProbe: { args: ['--version'], pattern: /Chromium\s+(\S+)/ },
    concurrency: instances,
    queueLimit: settings.queueLimit ?? 4 * instances,
    timeoutMs: settings.timeoutMs + KILL_GRACE_MS,
    lifetime: { kind: 'pooled', program: node, args: [HELPER], restartAfterUses: settings.restartAfterUses ?? 500, restartAboveRssMb: settings.maxRssMb ?? 1024, startTimeoutMs: START_TIMEOUT_MS },
    scratch: 'chromium-scratch',
    env: { CHROMIUM_PROGRAM: program, PLAYWRIGHT_CORE: playwright ? path.join(playwright, 'index.mjs') : '' },
    // No address-space limit (memoryLimitMb): V8 and the browser's allocator reserve tens of GB they never use; the
    // pool's resident-memory bound replaces a browser that grows.
    sandbox: {
      readOnly: ['/etc/fonts', '/var/cache/fontconfig', path.dirname(HELPER), ...(nodeDir.startsWith('/usr/') ? [] : [nodeDir]), ...(playwright ? [playwright] : []), ...(programDir.startsWith('/usr/') ? [] : [programDir])],
    },
    requires: [
      { path: program, reason: `Chromium (${program}, Debian package ${debianPackage}), which is not installed there` },
      { path: HELPER, reason: `the Chromium helper ${HELPER}, which is missing from the installation` },
      { path: playwright ?? '', reason: 'playwright-core (an npm dependency of the service), which is not installed' },
    ],
  };
}

/** One page to print: its files in the run's folder are written here. */
export interface ChromiumConversion extends PageSettings {
  /** The main page's file name (its URL path is `/<name>`). */
  main: { name: string; bytes: Uint8Array; type?: string | undefined };
  /** The bundle's other files by name, each with the media type it is served with. */
  assets: readonly { name: string; type: string; bytes: Uint8Array }[];
  /**
   * A web page by URL: its address (the main file is its body), and how the page's other requests are fetched, each
   * body written to `file` (a file of the run's folder); null when the request is refused or fails.
   */
  web?: { page: string; fetch: (url: string, file: string) => Promise<FetchReply['fetched']> } | undefined;
  signal?: AbortSignal | undefined;
  background?: boolean | undefined;
  onQueued?: (() => void) | undefined;
  onConverting?: (() => void) | undefined;
}

/**
 * One page printed by a warm browser: the files written to the run's folder (named by index, never by the client's
 * names), served to the page only at the URL paths of their names. A page that overruns, cannot load or print is 422
 * HTML_CONVERSION_FAILED (after an overrun the browser is replaced: a script may still be running); a browser that
 * dies meanwhile too (and is replaced); options Chromium refuses are 400.
 */
export function htmlToPdf(tools: ToolSupervisor, conversion: ChromiumConversion): Promise<Buffer> {
  const declared = tools.declaration(CHROMIUM);
  const timeoutMs = (declared?.timeoutMs ?? KILL_GRACE_MS + 30_000) - KILL_GRACE_MS;
  if ((conversion.waitDelayMs ?? 0) >= timeoutMs) return Promise.reject(new ServiceError('BAD_REQUEST', `waitDelay must be shorter than the conversion time limit (${timeoutMs} ms)`));
  return tools.run(
    CHROMIUM,
    async ({ scratch, request, retire }) => {
      conversion.onConverting?.();
      const files: HelperRequest['files'] = {};
      const all = [{ ...conversion.main, type: conversion.main.type ?? 'text/html; charset=utf-8' }, ...conversion.assets];
      await Promise.all(
        all.map(async (file, index) => {
          const onDisk = path.join(scratch, `file-${index}`);
          await writeFile(onDisk, file.bytes);
          files[`/${file.name}`] = { file: onDisk, type: file.type };
        }),
      );
      const output = path.join(scratch, 'output.pdf');
      const { main: _main, assets: _assets, web, signal: _signal, background: _background, onQueued: _onQueued, onConverting: _onConverting, ...options } = conversion;
      const ask: HelperRequest = { ...options, timeoutMs, files, main: `/${conversion.main.name}`, output, page: web?.page };
      const failure = { code: 'HTML_CONVERSION_FAILED', ended: 'The browser ended while converting the page', garbled: 'The browser helper answered something unexpected' } as const;
      let answer = await askHelper<HelperAnswer | FetchAsk>({ request, retire }, ask, failure);
      // A web page's requests, one at a time, until the helper's answer (a bundle's page asks for none).
      for (let fetches = 0; 'fetch' in answer; fetches++) {
        const fetched = web ? await web.fetch(answer.fetch.url, path.join(scratch, `fetched-${fetches}`)) : null;
        answer = await askHelper<HelperAnswer | FetchAsk>({ request, retire }, { fetched } satisfies FetchReply, failure);
      }
      if (answer.ok) return readFile(output);
      if (answer.kind === 'timeout' || answer.kind === 'browser') retire();
      // Chromium caps a range at the last printed page (`2-9` of 3 pages prints 2-3) and refuses one that keeps none.
      if (answer.kind === 'options' && /exceeds page count/i.test(answer.error)) {
        throw new ServiceError('INVALID_PAGE_RANGE', `The page range "${String(conversion.pdf.pageRanges)}" selects no page: the printed page has fewer pages than its first`);
      }
      if (answer.kind === 'options') throw new ServiceError('BAD_REQUEST', `Chromium refused the options: ${answer.error}`);
      if (answer.kind === 'timeout') throw new ServiceError('HTML_CONVERSION_FAILED', `The page was not converted within ${Math.round(timeoutMs / 1000)} s: ${answer.error} (a script that never ends, or a page too large to print)`);
      throw new ServiceError('HTML_CONVERSION_FAILED', `The page could not be converted: ${answer.error}`);
    },
    { signal: conversion.signal, background: conversion.background, onQueued: conversion.onQueued },
  );
}
