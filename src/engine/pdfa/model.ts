/**
 * PDF/A conversion types the engine and the operations share (no MuPDF
 * import). A finding has the shape of a validator's failed rule
 * (src/tools/verapdf.ts FailedRule), so that what the service refuses before
 * converting and what veraPDF reports after read the same in a report.
 */
export interface PdfaLocation {
  pageIndex?: number;
  objectNumber?: number;
  context: string;
}

export interface PdfaFinding {
  specification: string;
  clause: string;
  testNumber: number;
  description: string;
  failedChecks: number;
  locations: PdfaLocation[];
}

export type PdfaPart = 1 | 2 | 3;

/** What the conversion options ask for when a document has what the part forbids (docs/pdfa.md, options). */
export interface PdfaPrepareOptions {
  part: PdfaPart;
  /** 0 delete annotations the part does not allow (3D, Sound, Movie, Screen, RichMedia, unknown types), 1 fail. */
  unsupportedAnnots: 0 | 1;
  /** 0 delete embedded files (parts 1 and 2), 1 fail; part 3 keeps them. */
  embeddedFiles: 0 | 1;
  /** 1 fail on transparency in PDF/A-1, 2 make it opaque. */
  transparency: 1 | 2;
}

/** The specification each part is judged against, as veraPDF names it. */
export const SPECIFICATION: Record<PdfaPart, string> = {
  1: 'ISO 19005-1:2005',
  2: 'ISO 19005-2:2011',
  3: 'ISO 19005-3:2012',
};
