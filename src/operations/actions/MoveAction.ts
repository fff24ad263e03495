import type { ActionDefinition, OutputParams } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/**
 * MoveAction: moves (or renames) the document to `savePath` with its kept versions (docs/move.md). No bytes are read
 * or written: the store renames (DocumentStore.moveDocument), so the runner calls DocumentOperations.move instead of
 * this action's execute (`moves`), and an encrypted document moves without its password.
 */
export const MoveAction: ActionDefinition<OutputParams> = {
  name: 'MoveAction',
  target: 'document',
  need: null,
  moves: true,
  notAStep: 'it moves a stored document, and a one-shot conversion or a pipeline stores none',
  summary: 'Moves (renames) the document to savePath (required), with its versions; needs the rights PUT and DELETE.',
  schema: {
    type: 'object',
    properties: OUTPUT_PARAM_SCHEMAS,
    required: ['savePath'],
    additionalProperties: false,
  },
  execute() {
    // The runner moves the document itself (ActionDefinition.moves): never called.
    return Promise.reject(new Error('MoveAction is run by ActionRunner.move'));
  },
};
