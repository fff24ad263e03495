import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../errors.js';
import { askHelper } from './helper-request.js';
import { resolveProgram, type ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * LibreOffice, for Office uploads (docs/office.md): a pool of warm instances,
 * each a Python helper (scripts/office/uno-helper.py, Debian's python3-uno)
 * that starts soffice with a fresh hardened profile in its own home, drives it
 * over a UNO pipe and converts one document per request line. Every instance
 * runs in the bubblewrap sandbox, so a document cannot make it fetch anything
 * (no network), read anything but its run's files (no data folder, no
 * canaries of the host), or see the service's environment.
 */
export const LIBREOFFICE = 'libreoffice';

/** The helper and the profile settings it copies (registrymodifications.xcu), read-only in the sandbox. */
export const OFFICE_HELPER_DIR = fileURLToPath(new URL('../../../scripts/office', import.meta.url));
/** Debian's python3-uno: the helper imports it (and starts soffice, PDFSERVICE_OFFICE_PROGRAM). */
/**
 * A library only LibreOffice's full build has beside soffice (Debian libreoffice-core; libreoffice-core-nogui has no
 * VCL plug-in): a warm instance of the -nogui build aborts on some documents (docs/office.md, "Why the full
 * LibreOffice packages"), which would fail them as if they were broken. Checked at start.
 */
const FULL_BUILD_LIBRARY = 'libvclplug_genlo.so';
const PYTHON = '/usr/bin/python3';
const UNO_MODULE = '/usr/lib/python3/dist-packages/uno.py';
/** A first start makes a fresh profile: seconds, more on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

/** The pool's settings (PDFSERVICE_OFFICE_*, config.ts); any left out takes the default below. */
export interface OfficePoolSettings {
  /** Warm instances, each converting one document at a time. Default: the cores. */
  instances?: number;
  /** An instance is replaced after this many conversions. */
  restartAfterUses?: number;
  /** An instance whose processes' resident memory passes this is replaced after its conversion. */
  maxRssMb?: number;
  /** Conversions that may wait for an instance; one more is 503 (background jobs wait whatever). Default: 4 x instances. */
  queueLimit?: number;
  /** LibreOffice's soffice (PDFSERVICE_OFFICE_PROGRAM): a path, or a name looked up on PATH. Default: `soffice` on PATH. */
  program?: string;
}

export function libreOffice(timeoutMs: number, settings: OfficePoolSettings = {}): ToolDeclaration {
  const instances = settings.instances ?? availableParallelism();
  // A name is looked up on PATH (as `soffice` always was); the real file's folder is where the full build's library is.
  const soffice = resolveProgram(settings.program ?? 'soffice') ?? settings.program ?? 'soffice';
  const programDir = path.dirname(soffice);
  return {
    name: LIBREOFFICE,
    // Probed for its version at start; the warm processes are the helper, which starts it.
    command: soffice,
    debianPackage: 'libreoffice-writer',
    purpose: 'Word conversion',
    versionProbe: { args: ['--version'], pattern: /^LibreOffice\s+(\S+)/ },
    concurrency: instances,
    queueLimit: settings.queueLimit ?? 4 * instances,
    timeoutMs,
    lifetime: {
      kind: 'pooled',
      program: PYTHON,
      args: [path.join(OFFICE_HELPER_DIR, 'uno-helper.py')],
      restartAfterUses: settings.restartAfterUses ?? 200,
      restartAboveRssMb: settings.maxRssMb ?? 1024,
      startTimeoutMs: Math.max(START_TIMEOUT_MS, Math.min(timeoutMs, 5 * START_TIMEOUT_MS)),
    },
    scratch: 'office-scratch',
    // The helper starts this soffice (a name without PDFSERVICE_: none of the service's variables reach a tool).
    env: { SOFFICE_PROGRAM: soffice },
    // What it needs to start and find fonts, besides /usr (LibreOffice, Python and python3-uno live there); the helper's
    // folder; the program's own folder when it is not under /usr.
    sandbox: { readOnly: ['/etc/fonts', '/etc/libreoffice', '/var/lib/libreoffice', '/var/cache/fontconfig', OFFICE_HELPER_DIR, ...(programDir.startsWith('/usr/') ? [] : [programDir])] },
    requires: [
      { path: soffice, reason: `LibreOffice (${soffice}, Debian package libreoffice-writer), which is not installed there` },
      {
        path: path.join(programDir, FULL_BUILD_LIBRARY),
        reason: `LibreOffice's full build (Debian packages libreoffice-writer, libreoffice-calc, libreoffice-impress): ${soffice} is not one (no ${FULL_BUILD_LIBRARY} beside it; Debian's -nogui build, libreoffice-core-nogui, which the pool cannot use, may have replaced it)`,
      },
      { path: UNO_MODULE, reason: "LibreOffice's Python bridge (Debian package python3-uno), which is not installed" },
      { path: PYTHON, reason: 'Python 3 (Debian package python3), which is not installed' },
      { path: path.join(OFFICE_HELPER_DIR, 'uno-helper.py'), reason: `the LibreOffice helper ${path.join(OFFICE_HELPER_DIR, 'uno-helper.py')}, which is missing from the installation` },
    ],
  };
}

/** One conversion, in LibreOffice's terms (operations/conversions/office/convert.ts maps a format and the upload's options to them). */
export interface OfficeConversion {
  bytes: Uint8Array;
  /** The input's file extension in the scratch folder (`<name>.<extension>`). */
  extension: string;
  /**
   * The file's name without extension, as the user knows it (the stored PDF's name): LibreOffice prints it where a
   * document shows its own name (a CSV sheet's name, in Calc's default page header). "document" when absent.
   */
  name?: string | undefined;
  /** LibreOffice's import filter, with its options after a colon, so it never picks another importer by content. */
  importFilter: string;
  /** The PDF export filter of the application that opens it: writer_pdf_Export, calc_pdf_Export or impress_pdf_Export. */
  exportFilter: string;
  /** The export filter's FilterData (PageRange, SelectPdfVersion, ExportNotesPages...). */
  filterData?: Readonly<Record<string, string | number | boolean>>;
  /** Spreadsheets: every sheet printed landscape; only one sheet (1-based). */
  sheets?: { landscape?: boolean; only?: number };
  /** The document's password, when LibreOffice is to open an encrypted file. */
  password?: string | undefined;
  signal?: AbortSignal | undefined;
  /** A background job's conversion: it waits for an instance whatever the line (the jobs' limits bound it) instead of 503. */
  background?: boolean | undefined;
  /** Told when the conversion has to wait for an instance (the job's `queued` phase) ... */
  onQueued?: (() => void) | undefined;
  /** ... and when it has one (`converting`). */
  onConverting?: (() => void) | undefined;
}

/** A name of the storage (validated: no slash, NUL or control character) as a file name of the scratch folder; at most 200 bytes. */
function inputStem(name: string | undefined): string {
  let stem = '';
  for (const char of name ?? '') {
    if (Buffer.byteLength(stem + char) > 200) break;
    stem += char;
  }
  stem = stem.trim();
  return stem === '' || stem === '.' || stem === '..' || /[/\\\x00-\x1f]/.test(stem) ? 'document' : stem;
}

/** The helper's answer line (scripts/office/uno-helper.py). */
interface HelperAnswer {
  ok: boolean;
  error?: string;
  /** load/convert: the document; sheet: the sheet option; instance: soffice ended; memory: it reached its memory limit (the helper exits after either). */
  kind?: 'load' | 'convert' | 'sheet' | 'instance' | 'memory';
}

/**
 * One LibreOffice conversion on a warm instance: `bytes` saved as
 * `document.<extension>` in the run's scratch folder (in the instance's home),
 * loaded hidden with the given import filter, macros never run and links never
 * updated, exported with the export filter and its FilterData. A document
 * LibreOffice cannot load or convert is 422 MALFORMED_DOCUMENT with its reason;
 * an instance that crashes or is killed meanwhile 422 CONVERSION_FAILED (and is
 * replaced); one over the time limit 504 ENGINE_TIMEOUT (killed, replaced).
 */
export function officeToPdf(tools: ToolSupervisor, conversion: OfficeConversion): Promise<Buffer> {
  const { bytes, extension, signal } = conversion;
  return tools.run(
    LIBREOFFICE,
    async ({ scratch, request, retire }) => {
      conversion.onConverting?.();
      const input = path.join(scratch, `${inputStem(conversion.name)}.${extension}`);
      // Never the input's name: the input has an Office extension, the output is the only .pdf.
      const output = path.join(scratch, 'converted.pdf');
      await writeFile(input, bytes);
      // The helper itself ending is, to the client, the instance ending.
      const answer = await askHelper<HelperAnswer>(
        { request, retire },
        {
          input,
          output,
          importFilter: conversion.importFilter,
          exportFilter: conversion.exportFilter,
          filterData: conversion.filterData ?? {},
          sheets: conversion.sheets ?? null,
          ...(conversion.password !== undefined ? { password: conversion.password } : {}),
        },
        { code: 'CONVERSION_FAILED', ended: 'LibreOffice ended while converting the document', garbled: 'The LibreOffice instance answered something unexpected' },
      );
      if (answer.ok) return readFile(output);
      const reason = answer.error ?? 'LibreOffice could not convert this document';
      if (answer.kind === 'instance' || answer.kind === 'memory') {
        retire();
        throw new ServiceError('CONVERSION_FAILED', reason);
      }
      if (answer.kind === 'sheet') throw new ServiceError('BAD_REQUEST', reason);
      throw new ServiceError('MALFORMED_DOCUMENT', reason);
    },
    { signal, background: conversion.background, onQueued: conversion.onQueued },
  );
}
