import { ServiceError } from '../../../errors.js';
import { officeFamilyOf, officeFormatName, wordBinaryFib, type OfficeFamily, type OfficeFormat, type OfficeOptions } from './formats.js';
import { officeToPdf } from '../../../tools/libreoffice.js';
import type { ToolSupervisor } from '../../../tools/supervisor.js';
import { validatePdfa } from '../../../tools/verapdf.js';
import type { Engine } from '../../execution.js';

/**
 * An Office upload's conversion (docs/office.md): the detected format picks LibreOffice's import filter, so it never
 * picks another importer by content, and its application's PDF export; the upload's options become the export's
 * settings.
 */
const IMPORT_FILTERS: Readonly<Record<OfficeFormat, string>> = {
  doc: 'MS Word 97',
  docx: 'MS Word 2007 XML',
  docm: 'MS Word 2007 XML',
  odt: 'writer8',
  fodt: 'OpenDocument Text Flat XML',
  rtf: 'Rich Text Format',
  txt: 'Text (encoded):UTF8',
  xls: 'MS Excel 97',
  xlsx: 'Calc MS Excel 2007 XML',
  xlsm: 'Calc MS Excel 2007 XML',
  ods: 'calc8',
  fods: 'OpenDocument Spreadsheet Flat XML',
  // Comma-separated, double-quoted, UTF-8 (76), from line 1; cell text as written (docs/office.md#csv): special numbers
  // (dates, times) not detected (token 8 false, so 0:00:01 stays 0:00:01), formulas not evaluated (token 13 false).
  csv: 'Text - txt - csv (StarCalc):44,34,76,1,,,false,false,false,false,false,0,false',
  ppt: 'MS PowerPoint 97',
  pptx: 'Impress MS PowerPoint 2007 XML',
  pptm: 'Impress MS PowerPoint 2007 XML',
  odp: 'impress8',
  fodp: 'OpenDocument Presentation Flat XML',
};

const EXPORT_FILTERS = { text: 'writer_pdf_Export', spreadsheet: 'calc_pdf_Export', presentation: 'impress_pdf_Export' } as const;

/** LibreOffice's SelectPdfVersion per PDF/A part. */
const PDFA_VERSIONS = { pdfa1b: 1, pdfa2b: 2, pdfa3b: 3 } as const;

/** How the conversion waits for a LibreOffice instance (tools/libreoffice.ts OfficeConversion; docs/office.md, "The pool"). */
type PoolRun = { name?: string | undefined; background?: boolean | undefined; onQueued?: (() => void) | undefined; onConverting?: (() => void) | undefined };

/** Which formats each option applies to (the others answer 400: an option that cannot be honoured is not silently dropped). */
const OPTION_FAMILIES: Readonly<Record<keyof OfficeOptions, readonly OfficeFamily[]>> = {
  pageRange: ['text', 'spreadsheet', 'presentation'],
  pdfa: ['text', 'spreadsheet', 'presentation'],
  landscape: ['spreadsheet'],
  sheet: ['spreadsheet'],
  notesPages: ['presentation'],
  tagged: ['text', 'spreadsheet', 'presentation'],
};

/** 400 BAD_REQUEST naming the first option that does not apply to `format`. */
export function checkOfficeOptionsApply(format: OfficeFormat, options: OfficeOptions): void {
  const family = officeFamilyOf(format);
  for (const [name, value] of Object.entries(options) as [keyof OfficeOptions, unknown][]) {
    if (value === undefined || OPTION_FAMILIES[name].includes(family)) continue;
    const which = name === 'notesPages' ? 'presentations' : 'spreadsheets';
    throw new ServiceError('BAD_REQUEST', `The option ${name} applies to ${which} only; the upload is ${officeFormatName(format)}`);
  }
}

/**
 * The page range's own rule beyond its syntax (the route's schema): every part selects at least one page, numbered
 * from 1 (400 INVALID_PAGE_RANGE otherwise). Whether the document has those pages is known only after the conversion.
 */
export function checkOfficePageRange(range: string): void {
  for (const part of range.split(',')) {
    const [from, to] = part.split('-').map((n) => n.trim());
    const first = Number(from);
    if (!(first >= 1) || (to !== undefined && to !== '' && Number(to) < first)) {
      throw new ServiceError('INVALID_PAGE_RANGE', `The page range ${JSON.stringify(range)} has a part (${JSON.stringify(part.trim())}) that selects no page: pages are numbered from 1, a range runs from its lower to its higher page`);
    }
  }
}

/**
 * Converts; a tagged conversion (the default) is then finished as an HTML upload's (the finishTaggedPdf task: title,
 * XMP, /DisplayDocTitle, PDF/UA identification only where it holds; docs/accessibility.md), its title the Office
 * file's own, else the stored document's name. Then, when PDF/A was asked for, veraPDF checks the result against that
 * flavour: only a compliant PDF is returned (422 PDFA_CONVERSION_FAILED with veraPDF's report otherwise, as
 * PDFAConvertAction answers).
 */
export async function convertOffice(tools: ToolSupervisor, engine: Engine, request: { bytes: Uint8Array; format: OfficeFormat; options?: OfficeOptions; signal?: AbortSignal | undefined } & PoolRun): Promise<Uint8Array> {
  const { options = {} } = request;
  checkOfficeOptionsApply(request.format, options);
  let pdf: Uint8Array;
  try {
    pdf = await libreOfficeToPdf(tools, request, options);
  } catch (err) {
    // The supervisor names the tool's purpose; LibreOffice converts every Office format, so the format is named here.
    if (err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT') {
      throw new ServiceError(err.code, `The conversion of ${officeFormatName(request.format)} took too long and was stopped`, err.extra, err.headers);
    }
    // LibreOffice writes no PDF when the range selects none of the document's pages: say so.
    if (options.pageRange !== undefined && err instanceof ServiceError && err.status === 422) {
      throw new ServiceError(err.code, `${err.detail ?? err.message}; the page range ${JSON.stringify(options.pageRange)} may select no page of the document`, err.extra);
    }
    throw err;
  }
  if (options.tagged ?? true) pdf = (await engine.run('finishTaggedPdf', { pdf, metadata: { fallbackTitle: request.name } })).bytes;
  if (options.pdfa === undefined) return pdf;
  const report = await validatePdfa(tools, { pdf, profile: options.pdfa, signal: request.signal });
  if (!report.compliant) {
    const rules = report.rules.length;
    throw new ServiceError('PDFA_CONVERSION_FAILED', `LibreOffice's output is not ${options.pdfa}: ${rules} rule${rules === 1 ? '' : 's'} failed (see report); nothing was written`, { report });
  }
  return pdf;
}

function libreOfficeToPdf(tools: ToolSupervisor, request: { bytes: Uint8Array; format: OfficeFormat; signal?: AbortSignal | undefined } & PoolRun, options: OfficeOptions): Promise<Buffer> {
  const { bytes, format } = request;
  const filterData: Record<string, string | number | boolean> = {};
  if (options.pageRange !== undefined) filterData.PageRange = options.pageRange;
  if (options.pdfa !== undefined) filterData.SelectPdfVersion = PDFA_VERSIONS[options.pdfa];
  if (options.notesPages) filterData.ExportNotesPages = true;
  // Tagged by default (docs/accessibility.md): LibreOffice's structure tree, with its PDF/UA checks (alt text, title,
  // language from the document) applied to the export. With pdfa both hold: PDF/A-1b, 2b or 3b with tags.
  if (options.tagged ?? true) {
    filterData.UseTaggedPDF = true;
    filterData.PDFUACompliance = true;
  }
  const sheets = options.landscape !== undefined || options.sheet !== undefined ? { ...(options.landscape !== undefined ? { landscape: options.landscape } : {}), ...(options.sheet !== undefined ? { only: options.sheet } : {}) } : undefined;
  return officeToPdf(tools, {
    bytes,
    extension: format,
    name: request.name,
    importFilter: format === 'doc' ? docImportFilter(bytes) : IMPORT_FILTERS[format],
    exportFilter: EXPORT_FILTERS[officeFamilyOf(format)],
    filterData,
    ...(sheets ? { sheets } : {}),
    signal: request.signal,
    background: request.background,
    onQueued: request.onQueued,
    onConverting: request.onConverting,
  });
}

/** A .doc's import filter by its FIB's version: Word 6 and Word 95 files do not load with "MS Word 97" (wordBinaryFib). */
function docImportFilter(bytes: Uint8Array): string {
  const fib = wordBinaryFib(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (fib === undefined || fib >= 0xc1) return IMPORT_FILTERS.doc;
  return fib >= 0x68 ? 'MS Word 95' : 'MS WinWord 6.0';
}
