import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceError } from '../errors.js';
import { timeProgramRun } from '../metrics.js';
import { runSandboxed, sandboxAvailable } from './sandbox.js';
import { wordFormatOf, type WordFormat } from './word-format.js';

/**
 * Word to PDF through LibreOffice in a child process (never on the event loop),
 * inside the sandbox of sandbox.ts: a document cannot make LibreOffice fetch
 * anything (no network), read anything but itself (no data folder, no
 * canaries of the host), or see the service's environment. Each conversion gets
 * its own scratch folder and profile, because two soffice processes sharing a
 * profile block each other. Conversions run one at a time: each takes a core
 * and a few hundred MB.
 */
const SOFFICE = ['/usr/lib/libreoffice/program/soffice', '/usr/bin/soffice'].find((p) => existsSync(p));

/** The import filter per format, so LibreOffice never picks another importer by content. */
const FILTERS: Record<WordFormat, string> = { doc: 'MS Word 97', docx: 'MS Word 2007 XML' };

/**
 * The fresh profile's settings: block links to untrusted places, never run
 * macros, never update links (Writer 2 = never; Calc numbers it 1). Measured on
 * LibreOffice 7.4: without them a document's linked images are fetched.
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  ['org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  ['org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'],
  ['org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  ['org.openoffice.Office.Writer/Content/Update', 'Link', '2'],
  ['org.openoffice.Office.Calc/Content/Update', 'Link', '1'],
]
  .map(([group, name, value]) => `<item oor:path="/${group}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`)
  .join('\n')}
</oor:items>
`;

export class OfficeConverter {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly installed = SOFFICE !== undefined;

  /** `scratchRoot` holds one folder per running conversion; it belongs to the converter alone. */
  constructor(
    private readonly timeoutMs: number,
    private readonly scratchRoot: string,
  ) {}

  /** Removes what a previous process left (killed during a conversion). Call once at start. */
  async init(): Promise<void> {
    await rm(this.scratchRoot, { recursive: true, force: true });
    await mkdir(this.scratchRoot, { recursive: true });
  }

  get available(): boolean {
    return this.installed && sandboxAvailable();
  }

  toPdf(bytes: Buffer): Promise<Buffer> {
    let format: WordFormat;
    try {
      format = wordFormatOf(bytes);
    } catch (err) {
      return Promise.reject(err);
    }
    if (!this.installed) {
      return Promise.reject(new ServiceError('COMPONENT_MISSING', 'Word conversion needs LibreOffice (Debian package libreoffice-writer-nogui), which is not installed'));
    }
    if (!sandboxAvailable()) {
      return Promise.reject(new ServiceError('COMPONENT_MISSING', 'Word conversion needs bubblewrap (Debian package bubblewrap) to run LibreOffice without network and files, which is not installed'));
    }
    const run = this.queue.then(() =>
      timeProgramRun('soffice', () => convertInSandbox({ scratchRoot: this.scratchRoot, bytes, extension: format, filter: FILTERS[format], timeoutMs: this.timeoutMs })),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * One sandboxed LibreOffice run: `bytes` saved as `document.<extension>` in a
 * new scratch folder, converted to PDF with the given import filter (or
 * LibreOffice's own detection when none; engine tests use that for formats the
 * service does not accept), the scratch folder removed afterwards.
 */
export async function convertInSandbox(options: { scratchRoot: string; bytes: Buffer; extension: string; filter?: string; timeoutMs: number }): Promise<Buffer> {
  const dir = await mkdtemp(path.join(options.scratchRoot, 'convert-'));
  try {
    const input = path.join(dir, `document.${options.extension}`);
    await writeFile(input, options.bytes);
    await mkdir(path.join(dir, 'profile', 'user'), { recursive: true });
    await writeFile(path.join(dir, 'profile', 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const command = [SOFFICE ?? 'soffice', '--headless', '--norestore', '--nolockcheck', '--nodefault', `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
      ...(options.filter ? [`--infilter=${options.filter}`] : []), '--convert-to', 'pdf', '--outdir', path.join(dir, 'out'), input];
    let result: Awaited<ReturnType<typeof runSandboxed>>;
    try {
      result = await runSandboxed(dir, command, options.timeoutMs);
    } catch {
      throw new ServiceError('COMPONENT_MISSING', 'The LibreOffice sandbox (bubblewrap) could not be started');
    }
    if (result.timedOut) throw new ServiceError('ENGINE_TIMEOUT', 'The Word conversion took too long and was stopped');
    if (result.stderr.startsWith('bwrap:')) {
      // bwrap itself failed (e.g. namespaces not allowed here): never fall back to running unsandboxed.
      throw new ServiceError('COMPONENT_MISSING', 'The LibreOffice sandbox (bubblewrap) cannot create its namespaces on this machine');
    }
    try {
      return await readFile(path.join(dir, 'out', 'document.pdf'));
    } catch {
      throw new ServiceError('MALFORMED_DOCUMENT', 'LibreOffice could not convert this Word document');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
