/**
 * The engine as operations and routes see it: the types of task inputs and
 * results, and the vocabulary (annotation subtypes, page image formats, fonts,
 * media types) that requests are checked against. Code outside the engine
 * imports engine types from here (and the pool from pool.ts, errors from
 * errors.ts), never from a feature folder, so the folders can change inside.
 *
 * Main-thread code loads this module: its values come only from the features'
 * model.ts files and syntax/, which load no MuPDF; everything re-exported from
 * worker modules is a type (`export type`, erased at compile time).
 */

// Vocabulary and models shared by both threads (no MuPDF).
export {
  ANNOTATION_FLAGS,
  ANNOTATION_SUBTYPES,
  ATTACHMENT_ICONS,
  subtypeFromQuery,
  type AnnotationFlag,
  type AnnotationModel,
  type AnnotationsModel,
  type AnnotationSubtype,
  type AttachmentModel,
  type Point,
  type Rectangle,
} from './annotations/model.js';
export {
  DEFAULT_DPI,
  IMAGE_FORMATS,
  MAX_DPI,
  MAX_PIXELS,
  MAX_SIDE,
  MIN_DPI,
  TEXT_DETAILS,
  type ImageFormat,
  type PageModel,
  type PageTextModel,
  type TextDetail,
  type TextUnit,
} from './pages/model.js';
export { lineAngle, readingTurn, type OcrLine, type OcrWord, type PixelBox, type QuarterTurn } from './ocr/model.js';
export { chooseFont, FONT_NAMES, FONT_STYLES, type FontChoice, type FontFamily, type FontStyle } from './drawing/model.js';
export {
  DECLARED_STAMP_IMAGE_TYPES,
  IMAGE_MEDIA_TYPES,
  isDeclaredImageType,
  isImageMediaType,
  isStampImageType,
  sniffImageType,
  STAMP_IMAGE_TYPES,
  type DeclaredImageType,
  type ImageMediaType,
  type StampImageType,
} from './images/model.js';
export { CompoundFile, compoundFileStream } from './office/compound-file.js';
export {
  isPdfxProfile,
  PDFX_PROFILES,
  PDFX_VALIDATOR_NAME,
  type FailedRule,
  type PdfxProfile,
  type PdfxReport,
  type RuleLocation,
} from './preflight/model.js';
export {
  BUILT_IN_PROFILES,
  canonicalSettings,
  COLOR_SPACES,
  COMPRESSIONS,
  DOWNSAMPLINGS,
  isBuiltInProfile,
  OPTIMIZE_SETTINGS_SCHEMA,
  type OptimizeSettings,
} from './optimize/model.js';
export {
  FIT_TYPES,
  MAX_OUTLINE_DEPTH,
  MAX_OUTLINE_ITEMS,
  MAX_OUTLINE_TITLE,
  type FitType,
  type OutlineColor,
  type OutlineDestination,
  type OutlineItem,
  type OutlineItemInput,
  type OutlineModel,
} from './outline/model.js';
export {
  CUSTOM_KEY_PATTERN,
  ISO_DATE_TIME_PATTERN,
  LANGUAGE_PATTERN,
  MAX_CUSTOM_KEYS,
  MAX_METADATA_TEXT,
  normalizeChange,
  type MetadataChange,
  type MetadataModel,
} from './metadata/model.js';
export { MAX_FIGURE_CHANGES, MAX_FIGURE_TEXT, type FigureChange, type FigureModel, type FiguresModel } from './pdfua/model.js';
export { NUMBER_POSITIONS, unknownPlaceholders, type NumberPosition } from './numbers/model.js';
export { BLANK_DEFAULTS } from './blank/model.js';
export { NOT_XML } from './syntax/xml-writer.js';
export type { PdfSource } from './core/pdf-source.js';
export type { FieldDataFormat } from './xfdf/field-data.js';

// Task inputs and results (types only: these modules run in the worker).
export type { TaskInput, TaskName, TaskOutput } from './tasks.js';
export type { TaskProgress } from './task-context.js';
export type { DocumentInfo } from './core/inspect.js';
export type { AnnotationList, DeleteSelection } from './annotations/list-delete.js';
export type { NewFileAttachment } from './annotations/attachments.js';
export type { FlattenAnnotationsOptions } from './annotations/flatten.js';
export type { FlattenFieldsOptions } from './forms/flatten.js';
export type { FieldsImport } from './forms/exchange.js';
export type { TagReport, FigureNeed } from './pdfua/tag.js';
export type { FieldModel, FieldsModel } from './forms/fields.js';
export type { RedactionMatch, RedactionRequest } from './redaction/mark.js';
export type { ApplyRedactionsRequest } from './redaction/apply.js';
export type { PageOperation } from './pages/assembly.js';
export type { LayoutOperation } from './layout/layout.js';
export type { SplitBy, SplitPartResult, SplitResult } from './split/model.js';
export { MAX_SPLIT_PARTS } from './split/model.js';
export type { SignatureFieldModel, SignatureFieldsModel } from './signing/verify.js';
export type { NewWidget } from './signing/fields.js';
export type { SignRequest } from './signing/sign.js';
export type { PasswordSecurity } from './core/encryption.js';
export type { PasswordPermissionsRequest, PermissionsModel } from './security/permissions.js';
export type { Need } from './core/access.js';
export type { OcrLayer } from './ocr/layer.js';
export type { PdfaFinding, PdfaLocation, PdfaPart } from './pdfa/model.js';
export type { PageCharacters, PageTextLoss } from './pdfa/text.js';
export {
  AF_RELATIONSHIPS,
  FACTURX_FILE_NAME,
  FACTURX_PROFILES,
  MAX_ATTACHMENT_DESCRIPTION,
  MAX_ATTACHMENT_NAME,
  MAX_ATTACHMENTS,
  type AfRelationship,
  type DocumentAttachment,
  type DocumentAttachmentList,
  type FacturxProfile,
  type NewDocumentAttachment,
} from './attachments/model.js';

// Compare (docs/compare.md).
export * from './compare/model.js';
// Export (docs/export.md).
export * from './export/model.js';
export { parsePageRange } from './pages/range.js';
