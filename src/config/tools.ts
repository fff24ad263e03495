import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { boolean, ConfigError, integer, integerOrZero, MiB, nonEmpty, type SettingsFeature } from './setting.js';

/**
 * Debian's headless shell (package chromium-headless-shell), the pool's browser: Chromium's rendering and printing
 * without the desktop browser around it, as playwright drives its own headless builds. A fresh context and its page
 * printed cost about 0.25 s of CPU in it against 1.1 to 1.2 s in the full browser's headless mode (1-page invoice,
 * load 15 to 20, the CPU of every browser process from /proc; the browser's start 0.23 s against 1.5 s; docs/html.md,
 * "Where the time goes"), and its PDFs are the same (text, fonts, tags, outline).
 */
export const HEADLESS_SHELL_PROGRAM = '/usr/lib/chromium/chromium-headless-shell';
/** The full browser (package chromium; /usr/bin/chromium is a shell script that execs this), when the shell is absent. */
export const FULL_CHROMIUM_PROGRAM = '/usr/lib/chromium/chromium';

/** The browser the pool drives by default: the headless shell where installed, else the full browser, else the shell (missing: 503 naming its package). */
export function defaultChromiumProgram(): string {
  if (existsSync(HEADLESS_SHELL_PROGRAM)) return HEADLESS_SHELL_PROGRAM;
  return existsSync(FULL_CHROMIUM_PROGRAM) ? FULL_CHROMIUM_PROGRAM : HEADLESS_SHELL_PROGRAM;
}

/** The external programs (tools/, started by src/start/tools.ts). */
export interface ToolSettings {
  verapdfDir: string;
  officeInstances: number;
  officeRestartAfter: number;
  officeMaxRssMb: number;
  officeTimeoutMs: number;
  officeQueue: number;
  officeProgram: string;
  officeMemoryMb: number;
  tesseractMemoryMb: number;
  ghostscriptMemoryMb: number;
  qpdfMemoryMb: number;
  verapdfHeapMb: number;
  toolSpawner: boolean;
  chromiumInstances: number;
  chromiumTimeoutMs: number;
  chromiumRestartAfter: number;
  chromiumMaxRssMb: number;
  chromiumPrewarm: boolean;
  chromiumProgram: string;
  urlAllowlist: string[];
  urlMaxBytes: number;
  urlTestHosts: Map<string, { address: string; exempt: boolean }>;
}

export const TOOLS: SettingsFeature<ToolSettings> = {
  settings: {
    verapdfDir: {
      env: 'PDFSERVICE_VERAPDF_DIR',
      doc: 'Folder of the veraPDF helper (`verapdf-helper.jar` and `lib/`) that `bash scripts/setup.sh` builds with Maven; without it (or without Java) PDF/A and PDF/UA preflight answers 503 (docs/pdfa.md)',
      shown: '`.tools/verapdf` of the installation',
      default: () => fileURLToPath(new URL('../../../.tools/verapdf', import.meta.url)),
      parse: (raw) => path.resolve(nonEmpty(raw)),
    },
    officeInstances: {
      env: 'PDFSERVICE_OFFICE_INSTANCES',
      doc: 'Warm LibreOffice instances converting Office uploads at once, each with its own profile, in the sandbox (docs/office.md, "The pool")',
      shown: 'the number of cores',
      default: () => Math.max(1, os.availableParallelism()),
      parse: integer(1, 64),
    },
    officeRestartAfter: { env: 'PDFSERVICE_OFFICE_RESTART_AFTER', doc: 'An instance is replaced after this many conversions', default: 200, parse: integer(1, 1_000_000) },
    officeMaxRssMb: {
      env: 'PDFSERVICE_OFFICE_MAX_RSS_MB',
      doc: 'An instance whose processes use more resident memory than this after a conversion is replaced',
      default: 1024,
      parse: integer(64, 65_536),
    },
    officeTimeoutMs: {
      env: 'PDFSERVICE_OFFICE_TIMEOUT_MS',
      doc: 'Longest one Office conversion may take; then its instance is killed and replaced (504 `ENGINE_TIMEOUT`)',
      shown: '`0` (`PDFSERVICE_TASK_TIMEOUT_MS`)',
      default: 0,
      parse: integerOrZero(100, 86_400_000),
    },
    officeQueue: {
      env: 'PDFSERVICE_OFFICE_QUEUE',
      doc: 'Conversions that may wait for an instance; one more is refused with 503 and `Retry-After`. Background jobs (every Office upload today) wait whatever: the job limits bound them',
      shown: '`0` (4 x instances)',
      default: 0,
      parse: integer(0, 100_000),
    },
    officeProgram: {
      env: 'PDFSERVICE_OFFICE_PROGRAM',
      doc: "LibreOffice's `soffice`, a path or a name looked up on `PATH`; it must be the full build (Debian `libreoffice-core`): a `-nogui` build, or one whose instance cannot start, makes LibreOffice unavailable in `/health` and Office uploads 503 `COMPONENT_MISSING` (docs/office.md#components)",
      shown: '`soffice` (on `PATH`)',
      default: 'soffice',
      parse: (raw) => (nonEmpty(raw).includes('/') ? path.resolve(raw.trim()) : raw.trim()),
    },
    officeMemoryMb: {
      env: 'PDFSERVICE_OFFICE_MEMORY_MB',
      doc: 'Address space (RLIMIT_AS, set by `prlimit`) each process of a LibreOffice instance may use; a conversion that reaches it is 422 `CONVERSION_FAILED` naming the limit and its instance is replaced (docs/office.md#memory). `0`: no limit',
      default: 3072,
      parse: integerOrZero(256, 1_048_576),
    },
    tesseractMemoryMb: { env: 'PDFSERVICE_TESSERACT_MEMORY_MB', doc: 'The same for each Tesseract process. `0`: no limit', default: 2048, parse: integerOrZero(64, 1_048_576) },
    ghostscriptMemoryMb: { env: 'PDFSERVICE_GHOSTSCRIPT_MEMORY_MB', doc: 'The same for each Ghostscript process. `0`: no limit', default: 4096, parse: integerOrZero(64, 1_048_576) },
    qpdfMemoryMb: { env: 'PDFSERVICE_QPDF_MEMORY_MB', doc: 'The same for each qpdf process. `0`: no limit', default: 4096, parse: integerOrZero(64, 1_048_576) },
    verapdfHeapMb: { env: 'PDFSERVICE_VERAPDF_HEAP_MB', doc: "veraPDF's JVM heap (`-Xmx`): a JVM is bounded by its heap rather than an address-space limit", default: 768, parse: integer(64, 1_048_576) },
    chromiumInstances: {
      env: 'PDFSERVICE_CHROMIUM_INSTANCES',
      doc: 'Warm Chromium browsers converting HTML uploads at once, each one page at a time in a fresh context, in the sandbox (docs/html.md, "The pool")',
      shown: 'the number of cores',
      default: () => Math.max(1, os.availableParallelism()),
      parse: integer(1, 64),
    },
    chromiumTimeoutMs: {
      env: 'PDFSERVICE_CHROMIUM_TIMEOUT_MS',
      doc: 'Longest one HTML conversion may take (loading, waiting, printing); past it the answer is 422 `HTML_CONVERSION_FAILED` and the browser is replaced',
      default: 30_000,
      parse: integer(1_000, 3_600_000),
    },
    chromiumRestartAfter: { env: 'PDFSERVICE_CHROMIUM_RESTART_AFTER', doc: 'A browser is replaced after this many conversions', default: 500, parse: integer(1, 1_000_000) },
    chromiumMaxRssMb: {
      env: 'PDFSERVICE_CHROMIUM_MAX_RSS_MB',
      doc: "A browser whose processes (the helper's and the browser's) use more resident memory than this after a conversion is replaced",
      default: 1024,
      parse: integer(64, 65_536),
    },
    chromiumPrewarm: {
      env: 'PDFSERVICE_CHROMIUM_PREWARM',
      doc: "`true`: the pool's browsers are started as the service starts listening (when Chromium is installed), so the first HTML conversion finds them warm (each holds about 250 MB, PSS, idle); `false`: each is started by the first conversion that needs it (docs/html.md, \"The pool\")",
      default: true,
      parse: boolean,
    },
    chromiumProgram: {
      env: 'PDFSERVICE_CHROMIUM_PROGRAM',
      doc: "The Chromium binary playwright-core drives: Debian's headless shell (package `chromium-headless-shell`), about a fifth of the full browser's CPU a conversion; without it the full browser (package `chromium`; `/usr/bin/chromium` is a wrapper script). Missing, HTML uploads answer 503 `COMPONENT_MISSING` (docs/html.md, \"Where the time goes\")",
      shown: '`/usr/lib/chromium/chromium-headless-shell`, else `/usr/lib/chromium/chromium` if only that is installed',
      default: defaultChromiumProgram,
      parse: (raw) => (nonEmpty(raw).includes('/') ? path.resolve(raw.trim()) : raw.trim()),
    },
    urlAllowlist: {
      env: 'PDFSERVICE_URL_ALLOWLIST',
      doc: 'Origins (`scheme://host[:port]`, comma-separated) web pages by URL may be fetched from, their sub-resources and redirects included; each request is fetched by the service, never the browser, and only from public addresses. Empty: web pages by URL are off (403 `URL_FETCH_DISABLED`; docs/html.md, "Web pages by URL")',
      shown: 'empty (off)',
      default: () => [],
      parse: originList,
    },
    urlMaxBytes: {
      env: 'PDFSERVICE_URL_MAX_BYTES',
      doc: 'Bytes one web page by URL may fetch in all, its document and every sub-resource; each response is bounded by what is left (the document past it is 422 `URL_FETCH_FAILED`, a sub-resource is left out)',
      default: 50 * MiB,
      parse: integer(65_536, 4_294_967_296),
    },
    urlTestHosts: {
      env: 'PDFSERVICE_URL_TEST_HOSTS',
      doc: 'For tests only, refused at start unless `NODE_ENV=test`: `name=address` pairs (comma-separated) that web pages by URL resolve without DNS, each address checked as a resolved one is; `name=address!` exempts that one address from the check, and only a loopback address can be exempted (docs/html.md, "Testing")',
      shown: 'none',
      default: () => new Map(),
      parse: testHosts,
    },
    toolSpawner: {
      env: 'PDFSERVICE_TOOL_SPAWNER',
      doc: '`true`: external programs are started by a small helper process started with the service (docs/architecture.md, "The spawner"), so that starting one does not stop the event loop for a fork of the whole service (9 to 17 ms a program at 1.4 GB). Off by default until it shows an end-to-end gain: on the loaded 2-core machine a job\'s 202 was not faster with it (bench/results/spawner-2026-11-30.md)',
      default: false,
      parse: boolean,
    },
  },
};

/** Each external program's memory bound as tools/index.ts takes it (docs/office.md#memory). */
export function toolMemory(config: Pick<ToolSettings, 'officeMemoryMb' | 'tesseractMemoryMb' | 'ghostscriptMemoryMb' | 'qpdfMemoryMb' | 'verapdfHeapMb'>) {
  return { office: config.officeMemoryMb, tesseract: config.tesseractMemoryMb, ghostscript: config.ghostscriptMemoryMb, qpdf: config.qpdfMemoryMb, verapdfHeap: config.verapdfHeapMb };
}

/** The LibreOffice pool's settings as tools/libreoffice.ts takes them: the 0 defaults resolved. */
export function officePool(config: Pick<ToolSettings, 'officeInstances' | 'officeRestartAfter' | 'officeMaxRssMb' | 'officeTimeoutMs' | 'officeQueue' | 'officeProgram'> & { taskTimeoutMs: number }) {
  return {
    program: config.officeProgram,
    timeoutMs: config.officeTimeoutMs > 0 ? config.officeTimeoutMs : config.taskTimeoutMs,
    instances: config.officeInstances,
    restartAfterUses: config.officeRestartAfter,
    maxRssMb: config.officeMaxRssMb,
    queueLimit: config.officeQueue > 0 ? config.officeQueue : 4 * config.officeInstances,
  };
}

/** The Chromium pool's settings as tools/chromium.ts takes them. */
export function chromiumPool(config: Pick<ToolSettings, 'chromiumInstances' | 'chromiumTimeoutMs' | 'chromiumRestartAfter' | 'chromiumMaxRssMb' | 'chromiumProgram'>) {
  return { instances: config.chromiumInstances, timeoutMs: config.chromiumTimeoutMs, restartAfterUses: config.chromiumRestartAfter, maxRssMb: config.chromiumMaxRssMb, program: config.chromiumProgram };
}

/** PDFSERVICE_URL_ALLOWLIST: origins, each an http(s) URL with no path, query or credentials, kept as URL.origin writes it. */
function originList(raw: string): string[] {
  return raw.split(',').map((item) => item.trim()).filter((item) => item !== '').map((item) => {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new ConfigError(`has "${item}", which is no origin (scheme://host[:port])`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
      throw new ConfigError(`has "${item}", which is no http or https origin (scheme://host[:port], no path)`);
    }
    return url.origin;
  });
}

/**
 * PDFSERVICE_URL_TEST_HOSTS (tests only): `name=address` or `name=address!`. Refused unless NODE_ENV=test, so that a
 * production service can never be told to resolve a name its own way or to connect to loopback; `!` exempts the
 * address from the private-address check only when it is loopback.
 */
function testHosts(raw: string): Map<string, { address: string; exempt: boolean }> {
  if (process.env.NODE_ENV !== 'test') throw new ConfigError('is for tests only and is refused unless NODE_ENV=test');
  const hosts = new Map<string, { address: string; exempt: boolean }>();
  for (const item of raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')) {
    const match = /^([a-z0-9.-]+)=([0-9a-f.:]+)(!?)$/i.exec(item);
    if (!match || isIP(match[2]!) === 0) throw new ConfigError(`has "${item}", which is not name=address or name=address!`);
    const exempt = match[3] === '!';
    if (exempt && !(match[2]!.startsWith('127.') || match[2] === '::1')) throw new ConfigError(`exempts ${match[2]}: only a loopback address can be exempted`);
    hosts.set(match[1]!.toLowerCase(), { address: match[2]!, exempt });
  }
  return hosts;
}

/** What web pages by URL may fetch, as operations/conversions/html/web.ts takes it. */
export function webPolicy(config: Pick<ToolSettings, 'urlAllowlist' | 'urlMaxBytes' | 'urlTestHosts'>) {
  return { allowlist: config.urlAllowlist, maxBytes: config.urlMaxBytes, ...(config.urlTestHosts.size > 0 ? { testHosts: config.urlTestHosts } : {}) };
}
