import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredPath } from '../../storage/paths.js';
import { ServiceError } from '../../errors.js';
import { folderPathFromBody } from '../../storage/paths.js';
import { compileValidator } from '../../validation.js';
import type { Api, AppDeps, SchemaRequest } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { jobPlan, requestPreferences } from '../prefer.js';
import { answerWithJob } from './jobs.js';
import { jobAcceptedResponse, preferHeader } from '../schemas/jobs.js';
import { readMultipart } from '../multipart.js';
import { filePart, multipartBody } from '../openapi.js';
import { sendModel } from '../reply.js';
import { folderPathParam, operationContext } from '../request-context.js';
import { documentModelSchema, errorResponses, folderModelSchema, folderPathParams, namingModeQuery } from '../schemas/common.js';
import { htmlOptionsOf, htmlOptionsQuery } from '../schemas/html.js';
import { officeOptionsOf, officeOptionsQuery } from '../schemas/office.js';

const FOLDER_XML = { root: 'Folder', items: { entries: 'entry' } };

/** A folder's action body: MoveAction, the one action on a folder (docs/move.md). */
const folderActionBody = {
  type: 'object',
  required: ['MoveAction'],
  additionalProperties: false,
  properties: {
    MoveAction: {
      type: 'object',
      required: ['savePath'],
      additionalProperties: false,
      description: 'Moves (renames) the folder, with everything in it and the versions of its documents, to savePath; needs the rights PUT and DELETE',
      properties: { savePath: { type: 'string', minLength: 1, description: 'The folder\'s new path ("archive/2026"); it must not exist (409 ALREADY_EXISTS) nor be inside the folder (400 MOVE_INTO_ITSELF). Folders above it are created.' } },
    },
  },
} as const;
/** A body that names a folder action (its one known key), JSON or XML. */
function isFolderAction(request: FastifyRequest): boolean {
  if (request.xmlRoot) return request.xmlRoot === 'MoveAction';
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'MoveAction');
}
const validateFolderAction = compileValidator<{ MoveAction: { savePath: string } }>(folderActionBody, 'folder action');

export function registerFolderRoutes(api: Api, deps: AppDeps): void {
  const { folders, documents } = deps.operations;

  const listQuery = {
    type: 'object',
    properties: { details: { type: 'boolean', default: false, description: 'Add page count and encryption of each document' } },
  } as const;
  const listSchema = (withParams: boolean) => ({
    summary: withParams ? 'List a folder' : 'List the root folder',
    tags: ['folders'],
    ...(withParams ? { params: folderPathParams } : {}),
    querystring: listQuery,
    response: { 200: folderModelSchema, ...errorResponses },
  });
  const list = async (request: SchemaRequest<{ querystring: typeof listQuery }>, reply: FastifyReply) => {
    const { details } = request.query;
    const model = await folders.list(folderPathParam(request), operationContext(request), details === true);
    return sendModel(request, reply, FOLDER_XML, model);
  };
  api.get('/documents', { config: { model: true }, schema: listSchema(false) }, list);
  api.get('/documents/:folderPath', { config: { model: true }, schema: listSchema(true) }, list);

  api.put('/documents/:folderPath', {
    config: { model: true },
    schema: {
      summary: 'Create a folder and its parents',
      description: '201 when created, 200 when it existed. Folder names may not end in ".pdf".',
      tags: ['folders'],
      params: folderPathParams,
      response: { 200: folderModelSchema, 201: folderModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = folderPathParam(request);
    const ctx = operationContext(request);
    const { created } = await folders.make(path, ctx);
    if (created) reply.header('Location', documentUrl(path));
    return sendModel(request, reply, FOLDER_XML, await folders.list(path, ctx, false), created ? 201 : 200);
  });

  api.delete('/documents/:folderPath', {
    schema: {
      summary: 'Delete a folder',
      description: 'An empty folder is deleted; a folder with entries needs ?recursive=true (409 FOLDER_NOT_EMPTY otherwise).',
      tags: ['folders'],
      params: folderPathParams,
      querystring: { type: 'object', properties: { recursive: { type: 'boolean', default: false } } },
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { recursive } = request.query;
    await folders.remove(folderPathParam(request), operationContext(request), recursive === true);
    return reply.code(204).send();
  });

  const uploadQuery = { type: 'object', properties: { ...namingModeQuery, ...officeOptionsQuery, ...htmlOptionsQuery } } as const;
  const uploadSchema = (withParams: boolean) => ({
    summary: withParams ? 'Upload a PDF, image or Office document into a folder by form, or move the folder' : 'Upload a PDF, image or Office document into the root folder by form',
    description:
      'multipart/form-data with the file in a part named `file`; it is stored under its own file name (an image or Office document becomes "<name>.pdf"). ' +
      (withParams ? 'A JSON (or XML) body instead is an action on the folder: {"MoveAction": {"savePath": "new/path"}} moves it with everything in it (201 with Location and the FolderModel at its new path; docs/move.md). ' : '') +
      'An Office document is recognised by its part type, its name (.docx, .xlsx, .odp, .csv...) or its content, converted by LibreOffice with the query options ' +
      '(pageRange, landscape, sheet, notesPages, pdfa; docs/office.md). ' +
      'namingMode decides what happens when the name exists. 201 with Location and the DocumentModel. An Office conversion runs as a background ' +
      'job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes any upload a job.',
    ...(deps.operations.jobs ? { headers: { type: 'object', properties: preferHeader } } : {}),
    tags: ['folders'],
    ...(withParams ? { params: folderPathParams } : {}),
    consumes: withParams ? ['multipart/form-data', 'application/json', 'application/xml'] : ['multipart/form-data'],
    bodyContent: {
      ...(withParams ? {
        'application/json': { schema: folderActionBody },
        'application/xml': { schema: { type: 'string', minLength: 1, description: 'The action as XML: <MoveAction><savePath>new/path</savePath></MoveAction>' } },
      } : {}),
      ...multipartBody(
      {
        file: filePart('The PDF, image, Office document or HTML page, with its file name'),
        asset: { type: 'array', items: filePart('A file of the bundle, with its file name'), description: 'Files an HTML page refers to by their file names (style sheets, images, fonts; header.html and footer.html are the header and footer templates): with them the upload is a bundle (docs/api.md, "Bundles"; docs/html.md)' },
      },
      ['file'],
    ),
    },
    querystring: uploadQuery,
    response: { 201: withParams ? { anyOf: [documentModelSchema, folderModelSchema] } : documentModelSchema, ...(deps.operations.jobs ? jobAcceptedResponse : {}), ...errorResponses },
  });
  const upload = async (request: SchemaRequest<{ querystring: typeof uploadQuery }>, reply: FastifyReply) => {
    const folder = folderPathParam(request);
    // A JSON or XML body is an action on the folder (MoveAction), as a document's; multipart is an upload.
    // Any other body is the upload's 415 (UNSUPPORTED_MEDIA_TYPE), as before folders had an action.
    if (!request.isMultipart() && isFolderAction(request)) return moveFolder(request, reply, folder);
    const { namingMode } = request.query;
    const options = officeOptionsOf(request.query);
    const ctx = operationContext(request);
    if (!(await folders.exists(folder, ctx))) throw new ServiceError('FOLDER_NOT_FOUND', `No folder at /${folder.toString()}`);
    const { files } = await readMultipart(request, documents, { fileLimit: deps.config.maxUploadBytes, textLimit: deps.config.maxBodyBytes, textFields: [] });
    const prepared = await deps.operations.uploads.prepareFormUpload(folder, files, namingMode, ctx, options, htmlOptionsOf(request.query));
    const { jobs } = deps.operations;
    const plan = jobs ? jobPlan(requestPreferences(request.headers), jobs.longByNature(prepared)) : null;
    if (jobs && plan) return answerWithJob(request, reply, jobs, await jobs.submit(prepared), plan);
    const result = await deps.operations.uploads.executeUpload(prepared);
    reply.header('Location', documentUrl(result.path));
    reply.header('ETag', result.model.etag);
    return sendModel(request, reply, { root: 'Document' }, result.model, 201);
  };
  const moveFolder = async (request: FastifyRequest, reply: FastifyReply, folder: StoredPath) => {
    const body = validateFolderAction(request.xmlRoot ? { [request.xmlRoot]: request.body } : request.body);
    const ctx = operationContext(request);
    const target = folderPathFromBody(body.MoveAction.savePath, 'savePath');
    await folders.move(folder, target, ctx);
    reply.header('Location', documentUrl(target));
    return sendModel(request, reply, FOLDER_XML, await folders.list(target, ctx, false), 201);
  };
  api.post('/documents', { config: { model: true }, schema: uploadSchema(false) }, upload);
  api.post('/documents/:folderPath', { config: { model: true }, schema: uploadSchema(true) }, upload);
}
