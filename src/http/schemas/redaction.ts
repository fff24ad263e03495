/** RedactionModel (XML: <Redaction>): the request's search and look, and in the response what was created. */
import { XML_TEXT_PATTERN } from './common.js';
const colour = { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' } as const;

export const redactionRequestSchema = {
  title: 'RedactionRequest',
  type: 'object',
  description: 'RedactionModel (XML: <Redaction>): what to search for and how the created Redact annotations look.',
  properties: {
    searchText: { type: 'string', minLength: 1, maxLength: 10000, pattern: XML_TEXT_PATTERN, description: 'The text to find (no control characters but tab, LF and CR). Whitespace in it matches any whitespace, line breaks included.' },
    caseSensitive: { type: 'boolean', default: false },
    wholeWord: { type: 'boolean', default: false, description: 'Only matches not preceded or followed by a letter, digit or underscore' },
    regex: { type: 'boolean', default: false, description: 'searchText is a JavaScript regular expression (Unicode mode); one that does not compile is 400 INVALID_SEARCH' },
    pageIndex: { type: 'integer', minimum: 0, description: 'Only this page (zero-based)' },
    includeAnnotations: { type: 'boolean', default: true, description: 'Also search the text annotations show (free text, stamps, form fields); applying removes such an annotation' },
    overlayText: { type: 'string', maxLength: 1000, description: 'Text painted over each box when applied (/OverlayText)' },
    overlayTextColor: { ...colour, default: '#FFFFFF' },
    fillColor: { ...colour, default: '#000000', description: 'The box colour once applied (/IC)' },
    outlineColor: { ...colour, default: '#FF0000', description: 'The outline shown before applying (/C)' },
    author: { type: 'string', maxLength: 1000 },
    contents: { type: 'string', maxLength: 100000 },
  },
  required: ['searchText'],
  additionalProperties: false,
} as const;

export const redactionResponseSchema = {
  title: 'RedactionModel',
  type: 'object',
  description: 'RedactionModel (XML: <Redaction>): the request echoed, the number of Redact annotations created, their names, and each match.',
  properties: {
    ...redactionRequestSchema.properties,
    count: { type: 'integer' },
    annotationNames: { type: 'array', items: { type: 'string' } },
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The created Redact annotation' },
          pageIndex: { type: 'integer' },
          text: { type: 'string', description: 'The matched text as extracted' },
          foundIn: { type: 'string', enum: ['content', 'annotation'] },
          annotation: { type: 'string', description: 'With foundIn "annotation": the annotation whose appearance shows the text' },
        },
      },
    },
  },
} as const;

export const REDACTION_XML = { root: 'Redaction', items: { annotationNames: 'name', matches: 'match' } };
