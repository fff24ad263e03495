/** MetadataModel (XML: <Metadata>) and the bodies of PATCH and PUT .../metadata (docs/metadata.md). */
import { CUSTOM_KEY_PATTERN, ISO_DATE_TIME_PATTERN, LANGUAGE_PATTERN, MAX_CUSTOM_KEYS, MAX_METADATA_TEXT } from '../../engine/models.js';
import { XML_TEXT_PATTERN } from './common.js';

const textField = (description: string) => ({ type: 'string', maxLength: MAX_METADATA_TEXT, pattern: XML_TEXT_PATTERN, description }) as const;
const dateField = (description: string) => ({ type: 'string', pattern: ISO_DATE_TIME_PATTERN, description: `${description}: ISO 8601 with a zone (seconds optional, a fraction dropped)`, examples: ['2026-11-30T15:00:00Z'] }) as const;

const fields = {
  title: textField('Info /Title; XMP dc:title'),
  author: textField('Info /Author; XMP dc:creator'),
  subject: textField('Info /Subject; XMP dc:description'),
  keywords: textField('Info /Keywords; XMP pdf:Keywords'),
  creator: textField('Info /Creator (the application that made the original); XMP xmp:CreatorTool'),
  producer: textField('Info /Producer (the application that made the PDF); XMP pdf:Producer'),
  creationDate: dateField('Info /CreationDate; XMP xmp:CreateDate'),
  modificationDate: dateField('Info /ModDate; XMP xmp:ModifyDate. A write sets it to its own time unless the body names it'),
  language: { type: 'string', maxLength: 64, pattern: LANGUAGE_PATTERN, description: 'The catalog\'s /Lang (BCP 47, e.g. de-CH); XMP dc:language', examples: ['en-GB'] },
} as const;

/** Both forms, so that a merge patch may say null. */
export const nullable = <T extends object>(schema: T) => ({ anyOf: [schema, { type: 'null' }] });

const customKeys = {
  type: 'object',
  maxProperties: MAX_CUSTOM_KEYS,
  propertyNames: { pattern: CUSTOM_KEY_PATTERN, maxLength: 127 },
} as const;

export const metadataSchema = {
  title: 'MetadataModel',
  type: 'object',
  description: 'Metadata (XML: <Metadata>, custom as <custom><entry><key>…</key><value>…</value></entry></custom>): the Info dictionary\'s fields, the XMP packet\'s where the Info dictionary has none.',
  properties: {
    ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { type: 'string', description: v.description }])),
    custom: { type: 'object', additionalProperties: { type: 'string' }, description: 'The Info dictionary\'s other text entries, by key' },
    hasXmp: { type: 'boolean', description: 'Whether the document has an XMP packet (GET .../metadata/xmp)' },
  },
  required: ['hasXmp'],
} as const;

export const metadataPatchSchema = {
  title: 'MetadataPatch',
  type: 'object',
  description: 'A JSON merge patch (RFC 7396) of the metadata: a field given replaces it, null removes it, an absent one stays. In custom, each key likewise; custom: null removes every custom key.',
  properties: {
    ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, nullable(v)])),
    custom: nullable({ ...customKeys, additionalProperties: nullable(textField('A custom Info entry\'s text; null removes it')), description: 'Custom Info keys (pdfx properties in XMP): names of letters, digits, _ . - (not a standard key)' }),
  },
  additionalProperties: false,
} as const;

export const metadataPutSchema = {
  title: 'MetadataRequest',
  type: 'object',
  description: 'The whole metadata: what the body does not give is removed (but modificationDate, set to the time of the write).',
  properties: {
    ...fields,
    custom: { ...customKeys, additionalProperties: textField('A custom Info entry\'s text'), description: 'Custom Info keys (pdfx properties in XMP)' },
  },
  additionalProperties: false,
} as const;

export const METADATA_XML = { root: 'Metadata', items: { custom: 'entry' } };
