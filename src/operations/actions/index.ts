/**
 * The action registry: one line per action. Routes, validation and the OpenAPI
 * description are built from this list; nothing else names actions.
 */
import { ApplyRedactionsAction } from './ApplyRedactionsAction.js';
import { CopyAction } from './CopyAction.js';
import { FacturXAction } from './FacturXAction.js';
import { FlattenAnnotationsAction, FlattenFieldsAction } from './FlattenActions.js';
import { PAGE_STRUCTURE_ACTIONS } from './PageStructureActions.js';
import { PAGE_LAYOUT_ACTIONS } from './PageLayoutActions.js';
import { ImageStampAction } from './ImageStampAction.js';
import { LinearizeAction } from './LinearizeAction.js';
import { MergeDocumentsAction } from './MergeDocumentsAction.js';
import { MoveAction } from './MoveAction.js';
import { OCRAction } from './OCRAction.js';
import { OptimizeAction } from './OptimizeAction.js';
import { PipelineAction } from './PipelineAction.js';
import { PDFAConvertAction } from './PDFAConvertAction.js';
import { PDFUAConvertAction } from './PDFUAConvertAction.js';
import { SanitizeAction } from './SanitizeAction.js';
import { TextStampAction } from './TextStampAction.js';
import { SplitDocumentAction } from './SplitDocumentAction.js';
import { PageNumbersAction } from './PageNumbersAction.js';
import { RemoveBlankPagesAction, RemovePagesByTextAction } from './RemovePagesActions.js';
import type { ActionDefinition, OutputParams } from './types.js';

// Each action has its own parameter and prepared types; the list holds them by their common shape.
type AnyAction = ActionDefinition<OutputParams, unknown>;

export const ACTIONS: readonly AnyAction[] = [
  CopyAction as AnyAction,
  MoveAction as AnyAction,
  ApplyRedactionsAction as AnyAction,
  FlattenFieldsAction as AnyAction,
  FlattenAnnotationsAction as AnyAction,
  ...(PAGE_STRUCTURE_ACTIONS as AnyAction[]),
  ...(PAGE_LAYOUT_ACTIONS as AnyAction[]),
  SplitDocumentAction as AnyAction,
  TextStampAction as AnyAction,
  ImageStampAction as AnyAction,
  PageNumbersAction as AnyAction,
  RemoveBlankPagesAction as AnyAction,
  RemovePagesByTextAction as AnyAction,
  OCRAction as AnyAction,
  PDFAConvertAction as AnyAction,
  PDFUAConvertAction as AnyAction,
  FacturXAction as AnyAction,
  LinearizeAction as AnyAction,
  OptimizeAction as AnyAction,
  PipelineAction as AnyAction,
  MergeDocumentsAction as AnyAction,
  SanitizeAction as AnyAction,
];
