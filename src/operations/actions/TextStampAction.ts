import type { FromSchema } from 'json-schema-to-ts';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';
import { checkFont, STAMP_PARAM_SCHEMAS, TEXT_PARAM_SCHEMAS, transparencyOf } from './stamp-params.js';

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    text: { type: 'string', minLength: 1, maxLength: 10_000, description: 'The text; \\n starts a new line' },
    ...STAMP_PARAM_SCHEMAS,
    ...TEXT_PARAM_SCHEMAS,
  },
  required: ['text', 'x', 'y'],
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/**
 * TextStampAction: draws text on one page or every page, as real text (it
 * can be searched and extracted). Characters the chosen font lacks are drawn
 * with the shipped fonts (docs/stamps.md).
 */
export const TextStampAction = engineAction<Params, 'textStamp', ReturnType<typeof transparencyOf>>({
  name: 'TextStampAction',
  target: 'pages',
  need: 'edit',
  summary:
    'Stamps text on a page (pageIndex) or on every page: the first line\'s baseline starts at (x, y) in the page\'s default user space, turned rotation degrees ' +
    'counter-clockwise about that point; lines are split at \\n. Characters the font lacks are drawn with the shipped DejaVu fonts or the CJK font. See docs/stamps.md.',
  schema,
  async prepare({ params }) {
    checkFont(params);
    return transparencyOf(params, 'TextStampAction');
  },
  task: 'textStamp',
  input: ({ own: { opacity: _opacity, ...request }, prepared: transparency }) => ({ request: { ...request, transparency } }),
});
