import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import { NUMBER_POSITIONS, unknownPlaceholders } from '../../engine/models.js';
import { NOT_BLANK } from '../../validation.js';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';
import { checkFont, STAMP_PARAM_SCHEMAS, TEXT_PARAM_SCHEMAS, transparencyOf } from './stamp-params.js';

const LABEL_PART = { type: 'string', maxLength: 1000 } as const;

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    format: { ...LABEL_PART, minLength: 1, default: '{n}', description: 'The text of each number: {n} is the page\'s number, {total} the last number given ("Page {n} of {total}"); \\n starts a new line' },
    prefix: { ...LABEL_PART, default: '', description: 'Text before the format (Bates: "ACME-")' },
    suffix: { ...LABEL_PART, default: '', description: 'Text after the format' },
    digits: { type: 'integer', minimum: 1, maximum: 20, default: 1, description: '{n} is zero-padded to this many digits (Bates: 6 gives 000001)' },
    startNumber: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999, default: 1, description: 'The number of the first numbered page' },
    position: { type: 'string', enum: [...NUMBER_POSITIONS], default: 'bottom-center', description: 'Where on the page as shown (crop box, /Rotate applied) the number goes' },
    margin: { type: 'number', minimum: 0, maximum: 10_000, default: 36, description: 'Points between the edge of the page as shown and the number' },
    pageRange: { type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: 'The pages numbered, 1-based, as in a print dialog: "2-" skips a cover (default, when absent: every page; empty is 400). Numbered in document order.' },
    ...TEXT_PARAM_SCHEMAS,
    transparency: STAMP_PARAM_SCHEMAS.transparency,
    opacity: STAMP_PARAM_SCHEMAS.opacity,
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/**
 * PageNumbersAction: page numbers or Bates numbers on every page or a range,
 * drawn as the text stamp draws text (real text, the same fonts and
 * fallback), with a text of their own per page (docs/page-numbers.md).
 */
export const PageNumbersAction = engineAction<Params, 'pageNumbers', number>({
  name: 'PageNumbersAction',
  target: 'pages',
  need: 'edit',
  summary:
    'Numbers the pages (all, or pageRange) from startNumber: format ("Page {n} of {total}") between prefix and suffix, {n} zero-padded to digits (Bates numbers), ' +
    'at a corner or the middle of the top or bottom edge of the page as shown, margin points in, upright however the page is turned. Fonts as TextStampAction. ' +
    'The report gives the pages numbered, the first and last labels and the last number (the next document of a set starts after it). See docs/page-numbers.md.',
  schema,
  async prepare({ params }) {
    checkFont(params);
    // prefix and suffix are taken as they are: Bates prefixes hold no placeholders.
    const unknown = [...new Set(unknownPlaceholders(params.format))];
    if (unknown.length) {
      throw new ServiceError('VALIDATION_FAILED', `PageNumbersAction: unknown placeholder ${unknown.slice(0, 5).map((p) => JSON.stringify(p.slice(0, 50))).join(', ')}; the format takes {n} and {total}`);
    }
    return transparencyOf(params, 'PageNumbersAction');
  },
  task: 'pageNumbers',
  input: ({ own: { opacity: _opacity, ...request }, prepared: transparency }) => ({ request: { ...request, transparency } }),
});
