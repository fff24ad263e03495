import type { FastifyReply } from 'fastify';
import { ServiceError } from '../../errors.js';
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
    summary: 'Upload a PDF, image or Office document into a folder by form',
    description:
      'multipart/form-data with the file in a part named `file`; it is stored under its own file name (an image or Office document becomes "<name>.pdf"). ' +
      'An Office document is recognised by its part type, its name (.docx, .xlsx, .odp, .csv...) or its content, converted by LibreOffice with the query options ' +
      '(pageRange, landscape, sheet, notesPages, pdfa; docs/office.md). ' +
      'namingMode decides what happens when the name exists. 201 with Location and the DocumentModel. An Office conversion runs as a background ' +
      'job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes any upload a job.',
    ...(deps.operations.jobs ? { headers: { type: 'object', properties: preferHeader } } : {}),
    tags: ['folders'],
    ...(withParams ? { params: folderPathParams } : {}),
    consumes: ['multipart/form-data'],
    bodyContent: multipartBody(
      {
        file: filePart('The PDF, image, Office document or HTML page, with its file name'),
        asset: { type: 'array', items: filePart('A file of the bundle, with its file name'), description: 'Files an HTML page refers to by their file names (style sheets, images, fonts; header.html and footer.html are the header and footer templates): with them the upload is a bundle (docs/api.md, "Bundles"; docs/html.md)' },
      },
      ['file'],
    ),
    querystring: uploadQuery,
    response: { 201: documentModelSchema, ...(deps.operations.jobs ? jobAcceptedResponse : {}), ...errorResponses },
  });
  const upload = async (request: SchemaRequest<{ querystring: typeof uploadQuery }>, reply: FastifyReply) => {
    const folder = folderPathParam(request);
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
  api.post('/documents', { config: { model: true }, schema: uploadSchema(false) }, upload);
  api.post('/documents/:folderPath', { config: { model: true }, schema: uploadSchema(true) }, upload);
}
