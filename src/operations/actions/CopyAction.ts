import type { ActionDefinition, OutputParams } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/**
 * CopyAction: writes the document's bytes unchanged to `savePath`. It does not
 * open the document, so an encrypted document is copied without its password
 * and stays encrypted.
 */
export const CopyAction: ActionDefinition<OutputParams> = {
  name: 'CopyAction',
  target: 'document',
  need: null,
  summary: 'Copies the document to savePath (required).',
  schema: {
    type: 'object',
    properties: OUTPUT_PARAM_SCHEMAS,
    required: ['savePath'],
    additionalProperties: false,
  },
  async execute({ source }) {
    return { kind: 'document', bytes: await source.bytes() };
  },
};
