/**
 * The action registry: one line per action. Routes, validation and the OpenAPI
 * description are built from this list; nothing else names actions.
 */
import { ApplyRedactionsAction } from './ApplyRedactionsAction.js';
import { CopyAction } from './CopyAction.js';
import { FlattenAnnotationsAction, FlattenFieldsAction } from './FlattenActions.js';
import { PAGE_STRUCTURE_ACTIONS } from './PageStructureActions.js';
import { ImageStampAction } from './ImageStampAction.js';
import { LinearizeAction } from './LinearizeAction.js';
import { OCRAction } from './OCRAction.js';
import { OptimizeAction } from './OptimizeAction.js';
import { PDFAConvertAction } from './PDFAConvertAction.js';
import { SanitizeAction } from './SanitizeAction.js';
import { TextStampAction } from './TextStampAction.js';
import { PageNumbersAction } from './PageNumbersAction.js';
import { RemoveBlankPagesAction, RemovePagesByTextAction } from './RemovePagesActions.js';
import type { ActionDefinition, OutputParams } from './types.js';

// Each action has its own parameter and prepared types; the list holds them by their common shape.
type AnyAction = ActionDefinition<OutputParams, unknown>;

export const ACTIONS: readonly AnyAction[] = [
  CopyAction as AnyAction,
  ApplyRedactionsAction as AnyAction,
  FlattenFieldsAction as AnyAction,
  FlattenAnnotationsAction as AnyAction,
  ...(PAGE_STRUCTURE_ACTIONS as AnyAction[]),
  TextStampAction as AnyAction,
  ImageStampAction as AnyAction,
  PageNumbersAction as AnyAction,
  RemoveBlankPagesAction as AnyAction,
  RemovePagesByTextAction as AnyAction,
  OCRAction as AnyAction,
  PDFAConvertAction as AnyAction,
  LinearizeAction as AnyAction,
  OptimizeAction as AnyAction,
  SanitizeAction as AnyAction,
];
