/**
 * The action registry: one line per action. Routes, validation and the OpenAPI
 * description are built from this list; nothing else names actions.
 */
import { ApplyRedactionsAction } from './ApplyRedactionsAction.js';
import { CopyAction } from './CopyAction.js';
import { FlattenAnnotationsAction, FlattenFieldsAction } from './FlattenActions.js';
import { PAGE_STRUCTURE_ACTIONS } from './PageStructureActions.js';
import { ImageStampAction } from './ImageStampAction.js';
import { TextStampAction } from './TextStampAction.js';
import type { ActionDefinition } from './types.js';

export const ACTIONS: readonly ActionDefinition<never>[] = [
  CopyAction as ActionDefinition<never>,
  ApplyRedactionsAction as ActionDefinition<never>,
  FlattenFieldsAction as ActionDefinition<never>,
  FlattenAnnotationsAction as ActionDefinition<never>,
  ...(PAGE_STRUCTURE_ACTIONS as ActionDefinition<never>[]),
  TextStampAction as ActionDefinition<never>,
  ImageStampAction as ActionDefinition<never>,
];
