import type { FastifyReply } from 'fastify';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps, SchemaRequest } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { jobPlan, requestPreferences } from '../prefer.js';
import { answerWithJob } from './jobs.js';
import { jobAcceptedResponse, preferHeader } from '../schemas/jobs.js';
import { negotiate } from '../negotiation.js';
import { sendDownload } from '../download.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentModelSchema, documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { BINARY_UPLOAD_TYPES, UPLOAD_TYPES_TEXT } from '../uploads.js';
import { htmlOptionsOf, htmlOptionsQuery } from '../schemas/html.js';
import { officeOptionsOf, officeOptionsQuery } from '../schemas/office.js';
import { versionLinks } from './versions.js';
import type { Readable } from 'node:stream';

const DOCUMENT_XML = { root: 'Document' };
const GET_OFFERS = ['application/pdf', 'application/json', 'application/xml', 'text/xml'] as const;

function isStream(body: unknown): body is Readable {
  return typeof (body as Readable | null)?.pipe === 'function';
}

const uploadQuery = { type: 'object', properties: { ...officeOptionsQuery, ...htmlOptionsQuery } } as const;

const downloadQuery = {
  type: 'object',
  properties: { attachment: { type: 'boolean', default: false, description: 'Content-Disposition: attachment' } },
} as const;

export function registerDocumentRoutes(api: Api, deps: AppDeps): void {
  const { documents } = deps.operations;

  api.get('/documents/:filePath.pdf', {
    schema: {
      summary: 'Download a document, or read its DocumentModel',
      description:
        'With Accept application/pdf (or none, or */*) the PDF itself, with ETag, Last-Modified, Range and If-None-Match support. ' +
        'With Accept application/json, application/xml or text/xml the DocumentModel, which opens the document (encrypted documents need X-Service-DocumentPassword). ' +
        'With ?versionId= either of a kept version (docs/versions.md), with its own ETag. Link: the version history and the predecessor version (RFC 5829), when versions are kept.',
      tags: ['documents'],
      params: filePathParams,
      headers: { type: 'object', properties: documentPasswordHeader },
      querystring: downloadQuery,
      response: {
        200: { description: 'The PDF (application/pdf) or the DocumentModel', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: documentModelSchema } } },
        206: { description: 'Part of the PDF (Range)', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        304: { description: 'Not modified (If-None-Match)', type: 'null' },
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const chosen = negotiate(request.headers.accept, GET_OFFERS);
    if (!chosen) throw new ServiceError('NOT_ACCEPTABLE', `This resource is available as ${GET_OFFERS.join(', ')}`);
    reply.header('Vary', 'Accept');
    if (chosen !== 'application/pdf') {
      const model = await documents.reads.model(path, operationContext(request));
      reply.header('ETag', model.etag);
      await versionLinks(reply, path, operationContext(request), deps, model.etag);
      return sendModel(request, reply, DOCUMENT_XML, model);
    }
    return sendPdf(request, reply, path, deps);
  });

  api.put('/documents/:filePath.pdf', {
    config: { model: true, officeBody: true },
    schema: {
      summary: 'Upload a document (PDF, or an image or Office document converted to PDF)',
      description:
        'The body is the file. application/pdf is stored after checking that it opens (422 otherwise); image/jpeg, image/png, image/tiff ' +
        '(every frame) and image/gif become a PDF with one page per frame, sized from the image resolution (72 dpi when none); Office ' +
        'documents (Word, Excel, PowerPoint, OpenDocument and their flat XML forms, RTF, text and CSV, by their media types) are converted by ' +
        'LibreOffice, with the query options (pageRange, landscape, sheet, notesPages, pdfa) applied. The content must be the declared format (422 MALFORMED_DOCUMENT ' +
        'naming what it is; 422 OFFICE_DOCUMENT_ENCRYPTED for a password-protected file). 201 when created, 200 when replaced; If-Match makes the replacement conditional. ' +
        'An Office conversion runs as a background job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes any upload a job.',
      tags: ['documents'],
      params: filePathParams,
      querystring: uploadQuery,
      ...(deps.operations.jobs ? { headers: { type: 'object', properties: preferHeader } } : {}),
      consumes: BINARY_UPLOAD_TYPES,
      response: { 200: documentModelSchema, 201: documentModelSchema, ...(deps.operations.jobs ? jobAcceptedResponse : {}), ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!request.body) throw new ServiceError('MALFORMED_PDF', 'The body is empty');
    // JSON and XML bodies reach here parsed (their parsers serve the model routes): only the upload types are streams.
    if (!(BINARY_UPLOAD_TYPES as readonly string[]).includes(mediaType) || !isStream(request.body)) {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Cannot store ${mediaType}: send ${UPLOAD_TYPES_TEXT}`);
    }
    const options = officeOptionsOf(request.query);
    const prepared = await deps.operations.uploads.preparePut(path, request.body, mediaType, deps.config.maxUploadBytes, operationContext(request), options, htmlOptionsOf(request.query));
    const { jobs } = deps.operations;
    const plan = jobs ? jobPlan(requestPreferences(request.headers), jobs.longByNature(prepared)) : null;
    if (jobs && plan) return answerWithJob(request, reply, jobs, await jobs.submit(prepared), plan);
    const result = await deps.operations.uploads.executeUpload(prepared);
    reply.header('ETag', result.model.etag);
    await versionLinks(reply, path, operationContext(request), deps, result.model.etag);
    if (result.created) reply.header('Location', documentUrl(path));
    return sendModel(request, reply, DOCUMENT_XML, result.model, result.created ? 201 : 200);
  });

  api.delete('/documents/:filePath.pdf', {
    schema: {
      summary: 'Delete a document',
      description: 'Its kept versions go with it (docs/versions.md; a trash comes in a later release).',
      tags: ['documents'],
      params: filePathParams,
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await documents.remove(documentPathParam(request), operationContext(request));
    return reply.code(204).send();
  });
}

async function sendPdf(request: SchemaRequest<{ querystring: typeof downloadQuery }>, reply: FastifyReply, path: ReturnType<typeof documentPathParam>, deps: AppDeps) {
  const opened = await deps.operations.documents.openForDownload(path, operationContext(request));
  const { stat } = opened;
  try {
    await versionLinks(reply, path, operationContext(request), deps, stat.etag);
  } catch (err) {
    await opened.close();
    throw err;
  }
  return sendDownload(request, reply, { ...stat, stream: (range) => opened.stream(range), close: () => opened.close() }, {
    mediaType: 'application/pdf',
    fileName: path.name,
    disposition: request.query.attachment ? 'attachment' : 'inline',
    noun: 'document',
  });
}
