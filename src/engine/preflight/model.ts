/**
 * The preflight vocabulary shared by both threads (no MuPDF): the report of a
 * PDF/X check, shaped like veraPDF's PDF/A report (tools/verapdf.ts) so that
 * the preflight-results route answers one model for every profile.
 */

/** Where a rule failed: the page (zero-based) and object where known, and a short path or explanation. */
export interface RuleLocation {
  pageIndex?: number;
  objectNumber?: number;
  context: string;
}

/** One rule that failed, with how often and the first few places (at most MAX_LOCATIONS). */
export interface FailedRule {
  /** The standard, e.g. 'ISO 15930-4:2003'. */
  specification: string;
  /** The clause of that standard, e.g. '6.2.1' (docs/pdfa.md says which are approximate). */
  clause: string;
  testNumber: number;
  description: string;
  /** How many times it failed. */
  failedChecks: number;
  locations: RuleLocation[];
}

export interface PdfxReport {
  profile: string;
  compliant: boolean;
  validator: { name: string; version: string };
  passedChecks: number;
  failedChecks: number;
  /** Failed rules only, in the order of the rule table. */
  rules: FailedRule[];
}

export const PDFX_PROFILES = ['pdfx1a2001', 'pdfx1a2003', 'pdfx32002', 'pdfx32003', 'pdfx4'] as const;
export type PdfxProfile = (typeof PDFX_PROFILES)[number];

export function isPdfxProfile(value: string): value is PdfxProfile {
  return (PDFX_PROFILES as readonly string[]).includes(value);
}

/** Locations kept per failed rule (the count says how many there were in all). */
export const MAX_LOCATIONS = 10;

/** The validator named in PDF/X reports. */
export const PDFX_VALIDATOR_NAME = 'pdfservice PDF/X rules';
