import type { OfficeOptions } from '../../operations/conversions/office/formats.js';
import { checkOfficePageRange } from '../../operations/conversions/office/convert.js';

/** An Office upload's options as query parameters (docs/office.md#options); PUT and form uploads share them. */
export const officeOptionsQuery = {
  pageRange: {
    type: 'string',
    maxLength: 200,
    // LibreOffice's PageRange: pages and ranges, 1-based, comma-separated; "N-" runs to the last page.
    pattern: '^\\s*\\d+\\s*(-\\s*\\d*\\s*)?(,\\s*\\d+\\s*(-\\s*\\d*\\s*)?)*$',
    description: 'Office uploads: the pages of the converted document to keep, 1-based ("1-3,5", "2-"); every page when absent. 400 when malformed or a part selects no page',
    examples: ['1-3,5'],
  },
  landscape: { type: 'boolean', description: 'Spreadsheets: print every sheet (or the one asked for) in landscape orientation' },
  sheet: { type: 'integer', minimum: 1, maximum: 10000, description: 'Spreadsheets: convert only this sheet (1-based); every sheet when absent' },
  notesPages: { type: 'boolean', description: 'Presentations: export the notes pages after the slides' },
  pdfa: { type: 'string', enum: ['pdfa1b', 'pdfa2b', 'pdfa3b'], description: 'Office, HTML and Markdown uploads: write PDF/A of this flavour; veraPDF must find it compliant before it is stored (422 PDFA_CONVERSION_FAILED otherwise)' },
  tagged: { type: 'boolean', description: 'Office, image, HTML and Markdown uploads: write a tagged (accessible) PDF (default true; docs/accessibility.md)' },
} as const;

/** The options present in a validated query; 400 INVALID_PAGE_RANGE for a range part that selects no page. */
export function officeOptionsOf(query: OfficeOptions): OfficeOptions {
  const options: OfficeOptions = {};
  if (query.pageRange !== undefined) {
    checkOfficePageRange(query.pageRange);
    options.pageRange = query.pageRange.replace(/\s+/g, '');
  }
  if (query.landscape !== undefined) options.landscape = query.landscape;
  if (query.sheet !== undefined) options.sheet = query.sheet;
  if (query.notesPages !== undefined) options.notesPages = query.notesPages;
  if (query.pdfa !== undefined) options.pdfa = query.pdfa;
  if (query.tagged !== undefined) options.tagged = query.tagged;
  return options;
}
