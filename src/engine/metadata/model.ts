/** The metadata resource's model and its rules (docs/metadata.md). No MuPDF: both threads load it. */
import { isoToPdfDate } from '../syntax/dates.js';

/** The document's metadata as the Info dictionary, the catalog's /Lang and the XMP packet carry it. */
export interface MetadataFields {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  /** ISO 8601. */
  creationDate?: string;
  /** ISO 8601. */
  modificationDate?: string;
  /** The catalog's /Lang (BCP 47), dc:language in XMP. */
  language?: string;
  /** The Info dictionary's other text entries, by key (pdfx properties in XMP). */
  custom?: Record<string, string>;
}

export interface MetadataModel extends MetadataFields {
  /** Whether the catalog has an XMP packet (/Metadata). */
  hasXmp: boolean;
}

/** A write: PATCH merges it (null removes a field, a custom key, or every custom key), PUT replaces everything with it. */
export type MetadataChange = { [K in Exclude<keyof MetadataFields, 'custom'>]?: string | null } & { custom?: Record<string, string | null> | null };

/** The fields of MetadataFields holding text, in the order of the model. */
export const TEXT_FIELDS = ['title', 'author', 'subject', 'keywords', 'creator', 'producer', 'creationDate', 'modificationDate', 'language'] as const;
export const DATE_FIELDS = ['creationDate', 'modificationDate'] as const;

/** Info keys of the text fields; a custom key may not be one of them (nor Trapped, a name the service leaves alone). */
export const INFO_KEYS = { title: 'Title', author: 'Author', subject: 'Subject', keywords: 'Keywords', creator: 'Creator', producer: 'Producer', creationDate: 'CreationDate', modificationDate: 'ModDate' } as const;
export const RESERVED_INFO_KEYS = [...Object.values(INFO_KEYS), 'Trapped'];

/** Longest text value, in characters (UTF-16 code units): PDF's text strings stay under its 32,767-byte guideline. */
export const MAX_METADATA_TEXT = 16_000;
/** Most custom keys a document may be given. */
export const MAX_CUSTOM_KEYS = 100;
/** A custom key: a PDF name that is also an XML name (it is the local name of its pdfx property), at most 127 characters. */
export const CUSTOM_KEY_PATTERN = `^(?!(?:${RESERVED_INFO_KEYS.join('|')})$)[A-Za-z_][A-Za-z0-9_.-]{0,126}$`;
/** A date as the API takes it: ISO 8601 date and time with seconds optional, a fraction allowed (dropped) and a zone required. */
export const ISO_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:\\d{2})$';
/** A language tag (BCP 47's shape). */
export const LANGUAGE_PATTERN = '^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$';

/**
 * A date of a request in the one form both the Info dictionary and XMP get: to the second, zone as given (Z kept),
 * fraction dropped; undefined when it names no real date (February 30, hour 24) or is not of the API's form.
 */
export function normalizeIsoDate(value: string): string | undefined {
  if (!new RegExp(ISO_DATE_TIME_PATTERN).test(value) || isoToPdfDate(value) === undefined) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(value)!;
  return `${m[1]}:${m[2] ?? '00'}${m[3]}`;
}

/** The change's dates normalized; the name of the first one that is no real date-time otherwise. */
export function normalizeChange(change: MetadataChange): MetadataChange | { invalidDate: string } {
  const out: MetadataChange = { ...change };
  for (const field of DATE_FIELDS) {
    const value = change[field];
    if (typeof value !== 'string') continue;
    const normalized = normalizeIsoDate(value);
    if (normalized === undefined) return { invalidDate: field };
    out[field] = normalized;
  }
  return out;
}

/**
 * What the document's metadata becomes: `current` with `change` merged (JSON merge patch: null removes) or, with
 * `replace`, `change` alone. The modification date is `now` unless the change names it (null removes it).
 */
export function mergeMetadata(current: MetadataFields, change: MetadataChange, replace: boolean, now: string): MetadataFields {
  const out: MetadataFields = {};
  for (const field of TEXT_FIELDS) {
    const value = field in change ? change[field] : replace ? undefined : current[field];
    if (typeof value === 'string') out[field] = value;
  }
  if (!('modificationDate' in change)) out.modificationDate = now;
  const custom: Record<string, string> = replace || change.custom === null ? {} : { ...(current.custom ?? {}) };
  for (const [key, value] of Object.entries(change.custom ?? {})) {
    if (value === null) delete custom[key];
    else custom[key] = value;
  }
  if (Object.keys(custom).length > 0) out.custom = custom;
  return out;
}
