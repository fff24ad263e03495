import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceError } from '../errors.js';
import type { ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * LibreOffice, for Word uploads (docs/office.md): one soffice per conversion,
 * in the bubblewrap sandbox, so a document cannot make it fetch anything (no
 * network), read anything but itself (no data folder, no canaries of the
 * host), or see the service's environment. Each conversion gets its own scratch
 * folder and profile, because two soffice processes sharing a profile block
 * each other; one at a time, as each takes a core and a few hundred MB.
 */
export const LIBREOFFICE = 'libreoffice';

export function libreOffice(timeoutMs: number): ToolDeclaration {
  return {
    name: LIBREOFFICE,
    command: 'soffice',
    debianPackage: 'libreoffice-writer-nogui',
    purpose: 'Word conversion',
    versionProbe: { args: ['--version'], pattern: /^LibreOffice\s+(\S+)/ },
    concurrency: 1,
    timeoutMs,
    lifetime: { kind: 'per-run' },
    scratch: 'office-scratch',
    // What it needs to start and find fonts, besides /usr.
    sandbox: { readOnly: ['/etc/fonts', '/etc/libreoffice', '/var/lib/libreoffice', '/var/cache/fontconfig'] },
  };
}

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

/** One conversion, in LibreOffice's terms (operations/office.ts maps a format and the upload's options to them). */
export interface OfficeConversion {
  bytes: Uint8Array;
  /** The input's file extension in the scratch folder (`document.<extension>`). */
  extension: string;
  /** LibreOffice's import filter, with its options after a colon, so it never picks another importer by content. */
  importFilter: string;
  /** The PDF export filter of the application that opens it: writer_pdf_Export, calc_pdf_Export or impress_pdf_Export. */
  exportFilter: string;
  /** The export filter's FilterData (PageRange, SelectPdfVersion, ExportNotesPages...). */
  filterData?: Readonly<Record<string, string | number | boolean>>;
  /** Spreadsheets: every sheet printed landscape; only one sheet (1-based). */
  sheets?: { landscape?: boolean; only?: number };
  signal?: AbortSignal | undefined;
}

/**
 * One LibreOffice conversion: `bytes` saved as `document.<extension>` in the
 * run's scratch folder, converted to PDF with the given import filter.
 */
export function officeToPdf(tools: ToolSupervisor, conversion: OfficeConversion): Promise<Buffer> {
  const { bytes, extension, signal } = conversion;
  return tools.run(LIBREOFFICE, async ({ scratch, exec }) => {
    const input = path.join(scratch, `document.${extension}`);
    await writeFile(input, bytes);
    await mkdir(path.join(scratch, 'profile', 'user'), { recursive: true });
    await writeFile(path.join(scratch, 'profile', 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const data = Object.entries(conversion.filterData ?? {}).map(([key, value]) => [key, { type: typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'boolean' : 'long', value }]);
    const target = `pdf:${conversion.exportFilter}${data.length ? `:${JSON.stringify(Object.fromEntries(data))}` : ''}`;
    await exec(['--headless', '--norestore', '--nolockcheck', '--nodefault', `-env:UserInstallation=${pathToFileURL(path.join(scratch, 'profile')).href}`,
      `--infilter=${conversion.importFilter}`, '--convert-to', target, '--outdir', path.join(scratch, 'out'), input]);
    try {
      return await readFile(path.join(scratch, 'out', 'document.pdf'));
    } catch {
      throw new ServiceError('MALFORMED_DOCUMENT', 'LibreOffice could not convert this document');
    }
  }, signal);
}
