import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import { NUMBER_POSITIONS, unknownPlaceholders } from '../../engine/models.js';
import { NOT_BLANK } from '../../validation.js';
import { engineAction } from './engine-action.js';
import { executeSet, prepareSet, SET_DOCUMENTS_SCHEMA, type SetPrepared } from './page-number-set.js';
import { OUTPUT_PARAM_SCHEMAS, OUTPUT_PARAMS, type ActionDefinition } from './types.js';
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
    documents: SET_DOCUMENTS_SCHEMA,
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

const single = engineAction<Params, 'pageNumbers', Prepared>({
  name: 'PageNumbersAction',
  target: 'pages',
  need: 'edit',
  summary:
    'Numbers the pages (all, or pageRange) from startNumber: format ("Page {n} of {total}") between prefix and suffix, {n} zero-padded to digits (Bates numbers), ' +
    'at a corner or the middle of the top or bottom edge of the page as shown, margin points in, upright however the page is turned. Fonts as TextStampAction. ' +
    'With documents, a set numbered as one sequence (Bates numbers across documents), each in place, all or nothing. ' +
    'The report gives the pages numbered, the first and last labels and the last number (with documents: each document\'s too). See docs/page-numbers.md.',
  schema,
  // documents names stored documents: a one-shot step, which stores nothing, has none.
  outputParams: [...OUTPUT_PARAMS, 'documents'],
  async prepare(input) {
    const { params } = input;
    checkFont(params);
    // prefix and suffix are taken as they are: Bates prefixes hold no placeholders.
    const unknown = [...new Set(unknownPlaceholders(params.format))];
    if (unknown.length) {
      throw new ServiceError('VALIDATION_FAILED', `PageNumbersAction: unknown placeholder ${unknown.slice(0, 5).map((p) => JSON.stringify(p.slice(0, 50))).join(', ')}; the format takes {n} and {total}`);
    }
    const transparency = transparencyOf(params, 'PageNumbersAction');
    return { transparency, ...(params.documents ? { set: await prepareSet(input) } : {}) };
  },
  otherBytes: (prepared) => prepared.set?.sizes.reduce((a, b) => a + b, 0) ?? 0,
  // The set's passwords are never written into a job's record.
  withoutSecrets: (params) =>
    params.documents?.some((d) => d.password !== undefined) ? { ...params, documents: params.documents.map(({ password: _password, ...rest }) => rest) } : undefined,
  task: 'pageNumbers',
  input: ({ own: { opacity: _opacity, documents: _documents, ...request }, prepared }) => ({ request: { ...request, transparency: prepared.transparency } }),
});

/** What prepare answers: the transparency decided, and for a set each other document's size. */
interface Prepared {
  transparency: number;
  set?: SetPrepared;
}

/**
 * PageNumbersAction: page numbers or Bates numbers on every page or a range,
 * drawn as the text stamp draws text (real text, the same fonts and
 * fallback), with a text of their own per page (docs/page-numbers.md); with
 * `documents`, over a set of documents as one sequence (page-number-set.ts).
 */
export const PageNumbersAction: ActionDefinition<Params, Prepared> = {
  ...single,
  writesOthers: (params) => params.documents !== undefined,
  execute(input) {
    if (!input.params.documents) return single.execute(input);
    const { savePath: _savePath, namingMode: _namingMode, opacity: _opacity, documents: _documents, startNumber: _start, pageRange: _range, ...request } = input.params;
    return executeSet(input, { ...request, transparency: input.prepared.transparency });
  },
};
