import { officeFamilyOf, type OfficeFormat, type OfficeOptions } from '../engine/models.js';
import { officeToPdf } from '../tools/libreoffice.js';
import type { ToolSupervisor } from '../tools/supervisor.js';

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
  // Comma-separated, double-quoted, UTF-8 (76), from line 1.
  csv: 'Text - txt - csv (StarCalc):44,34,76,1',
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
type PoolRun = { background?: boolean | undefined; onQueued?: (() => void) | undefined; onConverting?: (() => void) | undefined };

export function convertOffice(tools: ToolSupervisor, request: { bytes: Uint8Array; format: OfficeFormat; options?: OfficeOptions; signal?: AbortSignal | undefined } & PoolRun): Promise<Buffer> {
  const { format, options = {} } = request;
  const filterData: Record<string, string | number | boolean> = {};
  if (options.pageRange !== undefined) filterData.PageRange = options.pageRange;
  if (options.pdfa !== undefined) filterData.SelectPdfVersion = PDFA_VERSIONS[options.pdfa];
  if (options.notesPages) filterData.ExportNotesPages = true;
  const sheets = options.landscape !== undefined || options.sheet !== undefined ? { ...(options.landscape !== undefined ? { landscape: options.landscape } : {}), ...(options.sheet !== undefined ? { only: options.sheet } : {}) } : undefined;
  return officeToPdf(tools, {
    bytes: request.bytes,
    extension: format,
    importFilter: IMPORT_FILTERS[format],
    exportFilter: EXPORT_FILTERS[officeFamilyOf(format)],
    filterData,
    ...(sheets ? { sheets } : {}),
    signal: request.signal,
    background: request.background,
    onQueued: request.onQueued,
    onConverting: request.onConverting,
  });
}
