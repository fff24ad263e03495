import type { FromSchema } from 'json-schema-to-ts';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS, OUTPUT_PARAMS } from './types.js';

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    pageIndex: { type: 'integer', minimum: 0, description: 'Only this page\'s Redact annotations' },
    names: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 100000, description: 'Only these Redact annotations (404 for an unknown name, 400 for one that is not Redact)' },
    images: { type: 'string', enum: ['pixels', 'remove', 'none'], default: 'pixels', description: 'Images under a box: clear the covered pixels (default), remove the whole image, or keep images' },
    lineArt: { type: 'string', enum: ['covered', 'touched', 'none'], default: 'covered', description: 'Vector art: remove what a box covers entirely (default), what it touches, or nothing' },
    scrubElsewhere: { type: 'boolean', default: false, description: 'Also remove the redacted text from document information, XMP metadata, bookmarks, annotation texts, form field values and embedded file names' },
    keepVersions: {
      type: 'boolean',
      default: false,
      description: 'Keep the earlier versions of the document, which still hold the redacted text (default: they are removed, and versionsPurged says how many; docs/versions.md)',
    },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/**
 * ApplyRedactionsAction: applies the document's Redact annotations (all, one
 * page's, or the named ones). The engine verifies every page and fails
 * closed with 422 REDACTION_INCOMPLETE, so a document is only written when
 * no redacted text remains in it.
 */
export const ApplyRedactionsAction = engineAction<Params, 'applyRedactions'>({
  name: 'ApplyRedactionsAction',
  target: 'document',
  need: 'edit',
  // Earlier versions still hold the redacted text: the write removes them (unless keepVersions).
  removesContent: true,
  // keepVersions says what the write keeps: a one-shot step, which writes nothing, refuses it as it refuses savePath.
  outputParams: [...OUTPUT_PARAMS, 'keepVersions'],
  summary:
    'Applies Redact annotations: removes the text under them from the content streams, clears covered image pixels, removes covered vector art, ' +
    'paints the fill and overlay text and removes the annotations; then verifies that no redacted text remains (422 REDACTION_INCOMPLETE otherwise, ' +
    'nothing written). The response\'s report lists what was applied and where the redacted text still occurs outside page content.',
  schema,
  task: 'applyRedactions',
  input: ({ own: { keepVersions: _keepVersions, ...request } }) => ({ request }),
});
