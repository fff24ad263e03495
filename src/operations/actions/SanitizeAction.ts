import type { FromSchema } from 'json-schema-to-ts';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS, OUTPUT_PARAMS } from './types.js';

/** Annotation subtypes `annotationSubtypes` may name: every standard one but Widget (form fields have their own routes). */
const SUBTYPES = [
  'Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly', 'StrikeOut', 'Stamp', 'Caret', 'Ink',
  'Popup', 'FileAttachment', 'Sound', 'Movie', 'Screen', 'PrinterMark', 'TrapNet', 'Watermark', '3D', 'Redact', 'RichMedia', 'Projection',
] as const;

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    javascript: { type: 'boolean', default: true, description: 'Remove JavaScript: document, page, annotation and field actions (/OpenAction, /AA, /A), the JavaScript name tree, chained actions' },
    embeddedFiles: { type: 'boolean', default: true, description: 'Remove embedded files: the EmbeddedFiles name tree, /AF, the files of file specifications (/EF, /RF), file attachment annotations' },
    outsideLinks: { type: 'boolean', default: true, description: 'Remove actions that reach outside the document: URI, Launch, GoToR, GoToE, ImportData, SubmitForm (links left with no action go); internal links are kept' },
    formActions: { type: 'boolean', default: true, description: 'Remove form submit and reset actions (SubmitForm, ResetForm)' },
    metadata: { type: 'boolean', default: false, description: 'Remove metadata: the document information dictionary, the XMP packet and every object\'s /Metadata, /PieceInfo' },
    hiddenContent: { type: 'boolean', default: false, description: 'Remove the content of layers (optional content groups) hidden in the default configuration: their marked content in pages and form XObjects, and their annotations' },
    annotationSubtypes: { type: 'array', items: { type: 'string', enum: [...SUBTYPES] }, maxItems: SUBTYPES.length, uniqueItems: true, default: [], description: 'Remove the annotations of these subtypes (with their popups)' },
    keepVersions: {
      type: 'boolean',
      default: false,
      description: 'Keep the earlier versions of the document, which still hold what was removed (default: they are removed, and versionsPurged says how many; docs/versions.md)',
    },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/**
 * SanitizeAction: removes active content (JavaScript, outside links, form submit actions), embedded files, metadata
 * and chosen annotations, then re-reads the written bytes and fails closed with 422 SANITIZE_INCOMPLETE when anything
 * named remains (docs/sanitize.md).
 */
export const SanitizeAction = engineAction<Params, 'sanitize'>({
  name: 'SanitizeAction',
  target: 'document',
  need: 'edit',
  // Earlier versions still hold the scripts, files and metadata removed: the write removes them (unless keepVersions).
  removesContent: true,
  outputParams: [...OUTPUT_PARAMS, 'keepVersions'],
  summary:
    'Removes JavaScript, embedded files, actions that reach outside the document, form submit and reset actions, metadata and hidden layers (both off by default) and annotations of chosen ' +
    'subtypes; rewrites the file in full, re-reads it and verifies that none of it remains (422 SANITIZE_INCOMPLETE otherwise, nothing written). ' +
    'The report counts what was removed of each kind. See docs/sanitize.md.',
  schema,
  task: 'sanitize',
  input: ({ own: { keepVersions: _keepVersions, ...request } }) => ({ request: { ...request, annotationSubtypes: request.annotationSubtypes ? [...request.annotationSubtypes] : undefined } }),
});
