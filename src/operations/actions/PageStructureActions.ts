import type { PageOperation } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { documentPathFromBody } from '../../storage/paths.js';
import type { StoredPath } from '../../storage/paths.js';
import type { OperationContext } from '../context.js';
import type { DocumentOperations } from '../documents.js';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { ActionDefinition, ActionFile, OutputParams, PrepareInput } from './types.js';
import { engineAction } from './engine-action.js';
import { DOCUMENT_PATH_PARAM, OUTPUT_PARAM_SCHEMAS } from './types.js';
import { NOT_BLANK } from '../../validation.js';

/**
 * The page-structure actions (POST .../pages): each turns its parameters into
 * one PageOperation for the engine's editPages task. docs/pages-edit.md
 * describes them.
 */

// NOT_BLANK: an empty range is 400 when the action is prepared (the engine refuses it too), never "every page".
const pageRange = (description: string) => ({ type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: `${description} 1-based, as in a print dialog: "1-3,7,10-"; not empty.` }) as const;
const insertAt = { type: 'integer', minimum: 0, description: 'Zero-based position the new pages take (0: before the first page); absent: at the end' } as const;
const appendPassword = { type: 'string', maxLength: 1024, description: 'Password of the document whose pages are inserted, when it is encrypted' } as const;

/** An action's parameters as its schema describes them: the output fields and its own. */
type PageParams<Props, Required extends readonly string[]> =
  FromSchema<{ type: 'object'; properties: typeof OUTPUT_PARAM_SCHEMAS & Props; required: Required; additionalProperties: false }> & OutputParams;

/**
 * A page action: `check` (its prepare step) decides its own 4xx answers;
 * `operation` makes the PageOperation when the work runs (reading another
 * document or an attached file only then).
 */
function pageAction<const Props extends Record<string, JSONSchema>, const Required extends readonly (Extract<keyof Props, string> | 'savePath')[], Params extends OutputParams = PageParams<Props, Required>>(
  name: string,
  summary: string,
  properties: Props,
  required: Required,
  operation: (input: { params: Params; files: ActionFile[]; documents: DocumentOperations; ctx: OperationContext }) => Promise<PageOperation>,
  check?: (input: PrepareInput<Params>) => Promise<void>,
): ActionDefinition<Params> {
  return engineAction<Params, 'editPages'>({
    name,
    target: 'pages',
    need: 'assemble',
    summary,
    schema: { type: 'object', properties: { ...OUTPUT_PARAM_SCHEMAS, ...properties }, required, additionalProperties: false },
    ...(check ? { prepare: async (input: PrepareInput<Params>) => void (await check(input)) } : {}),
    task: 'editPages',
    input: async ({ params, execute: { files, documents, ctx } }) => ({ operation: await operation({ params, files, documents, ctx }) }),
  });
}

export const DeletePagesAction = pageAction(
  'DeletePagesAction',
  'Deletes the pages of pageRange (not all of them). Outline items, named destinations and links that pointed at them are removed, and so are their form fields.',
  { pageRange: pageRange('The pages to delete,') },
  ['pageRange'],
  async ({ params }) => ({ kind: 'delete', pageRange: params.pageRange }),
);

export const RotatePagesAction = pageAction(
  'RotatePagesAction',
  'Turns the pages of pageRange (default: all) clockwise by rotation degrees, a multiple of 90 (negative turns counter-clockwise); /Rotate is set, the content is not rewritten.',
  { pageRange: pageRange('The pages to turn (default: every page),'), rotation: { type: 'integer', multipleOf: 90, description: 'Degrees clockwise, a multiple of 90' } },
  ['rotation'],
  async ({ params }) => ({ kind: 'rotate', pageRange: params.pageRange, rotation: params.rotation }),
);

export const MovePagesAction = pageAction(
  'MovePagesAction',
  'Moves the pages of pageRange, in the order the range lists them, so that the first of them ends up at zero-based position toIndex of the result.',
  { pageRange: pageRange('The pages to move,'), toIndex: { type: 'integer', minimum: 0, description: 'Zero-based position of the first moved page in the resulting document' } },
  ['pageRange', 'toIndex'],
  async ({ params }) => ({ kind: 'move', pageRange: params.pageRange, toIndex: params.toIndex }),
);

export const ExtractPagesAction = pageAction(
  'ExtractPagesAction',
  'Writes a new document (savePath, required) with the pages of pageRange in that order, with their annotations and form fields; the source is unchanged.',
  { pageRange: pageRange('The pages to extract,') },
  ['pageRange', 'savePath'],
  async ({ params }) => ({ kind: 'extract', pageRange: params.pageRange }),
);

export const NewPageAction = pageAction(
  'NewPageAction',
  'Inserts a blank page of width x height points (default: the size of the page before it, or of the first page when inserted first) at pageIndex (default: at the end).',
  {
    pageIndex: insertAt,
    width: { type: 'number', minimum: 3, maximum: 14400, description: 'Points (1/72 inch); ISO 32000 allows 3 to 14,400' },
    height: { type: 'number', minimum: 3, maximum: 14400, description: 'Points (1/72 inch); ISO 32000 allows 3 to 14,400' },
  },
  [],
  async ({ params }) => ({ kind: 'newPage', pageIndex: params.pageIndex, width: params.width, height: params.height }),
);

export const InsertUploadedPagesAction = pageAction(
  'InsertUploadedPagesAction',
  'Inserts pages of another document stored on the server (appendFilePath) at pageIndex (default: at the end), with their annotations, links between them and form fields (clashing field names get "_2", "_3", ...).',
  {
    appendFilePath: DOCUMENT_PATH_PARAM,
    appendPassword,
    pageRange: pageRange('The pages of that document to insert (default: all),'),
    pageIndex: insertAt,
  },
  ['appendFilePath'],
  async ({ params, documents, ctx }) => {
    // As bytes: the operation outlives this read, so the other document's file cannot stay open for it.
    const bytes = await documents.read(appendPath(params), ctx, (stored) => stored.bytes());
    return { kind: 'insert', source: bytes, sourcePassword: params.appendPassword, pageRange: params.pageRange, pageIndex: params.pageIndex };
  },
  async ({ params, documents, ctx }) => {
    await documents.stat(appendPath(params), ctx);
  },
);

export const InsertAttachedPagesAction = pageAction(
  'InsertAttachedPagesAction',
  'Inserts pages of the PDF sent in another part of the multipart request at pageIndex (default: at the end), as InsertUploadedPagesAction does.',
  { appendPassword, pageRange: pageRange('The pages of the attached PDF to insert (default: all),'), pageIndex: insertAt },
  [],
  async ({ params, files }) =>
    ({ kind: 'insert', source: await attachedPdf(files).content.read(), sourcePassword: params.appendPassword, pageRange: params.pageRange, pageIndex: params.pageIndex }),
  async ({ files }) => {
    attachedPdf(files);
  },
);

/** The other document InsertUploadedPagesAction names. */
function appendPath(params: { appendFilePath: string }): StoredPath {
  return documentPathFromBody(params.appendFilePath, 'appendFilePath');
}

/** The PDF sent beside InsertAttachedPagesAction: exactly one non-empty file part, of PDF type. */
function attachedPdf(files: ActionFile[]): ActionFile {
  const pdfs = files.filter((f) => f.content.size > 0);
  if (pdfs.length !== 1) throw new ServiceError('MALFORMED_MULTIPART', `InsertAttachedPagesAction needs exactly one file part with the PDF beside the "pageAction" part; found ${pdfs.length}`);
  const file = pdfs[0]!;
  if (file.mediaType !== 'application/pdf' && file.mediaType !== 'application/octet-stream') {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `The attached file must be application/pdf, not ${file.mediaType}`);
  }
  return file;
}

export const PAGE_STRUCTURE_ACTIONS = [NewPageAction, InsertUploadedPagesAction, InsertAttachedPagesAction, DeletePagesAction, RotatePagesAction, MovePagesAction, ExtractPagesAction];
