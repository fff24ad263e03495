import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANNOTATION_SUBTYPES, subtypeFromQuery, type AnnotationSubtype } from '../../engine/annotation-model.js';
import { ServiceError } from '../../errors.js';
import type { AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses } from '../schemas/common.js';
import { ANNOTATION_XML, ANNOTATIONS_XML, annotationSchema, annotationsSchema } from '../schemas/annotations.js';

const params = {
  type: 'object',
  properties: { filePath: { type: 'string', description: 'Path of the document without ".pdf"' } },
  required: ['filePath'],
} as const;
const namedParams = {
  type: 'object',
  properties: { ...params.properties, name: { type: 'string', description: 'The annotation name (its /NM, or the generated name), percent-encoded' } },
  required: ['filePath', 'name'],
} as const;
const headers = { type: 'object', properties: documentPasswordHeader } as const;
const pageIndexQuery = { pageIndex: { type: 'integer', minimum: 0, description: 'Zero-based page index (400 PAGE_OUT_OF_RANGE past the last page)' } } as const;

function subtypeParam(value: string | undefined): AnnotationSubtype | undefined {
  if (value === undefined) return undefined;
  const subtype = subtypeFromQuery(value);
  if (!subtype) {
    throw new ServiceError('VALIDATION_FAILED', `subtype must be one of (any case): ${ANNOTATION_SUBTYPES.join(', ')}`, { subtypes: ANNOTATION_SUBTYPES });
  }
  return subtype;
}

const nameParam = (request: FastifyRequest) => (request.params as { name: string }).name;

export function registerAnnotationRoutes(api: FastifyInstance, deps: AppDeps): void {
  const { annotations } = deps.operations;

  api.get('/documents/:filePath.pdf/annotations', {
    config: { model: true },
    schema: {
      summary: 'List annotations (A2)',
      description: 'Every annotation of the document, Popup, Link and Widget included, in page order. Filters combine.',
      tags: ['annotations'],
      params,
      headers,
      querystring: {
        type: 'object',
        properties: { ...pageIndexQuery, subtype: { type: 'string', description: `One of ${ANNOTATION_SUBTYPES.join(', ')}; any case` } },
      },
      response: { 200: annotationsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const query = request.query as { pageIndex?: number; subtype?: string };
    const subtype = subtypeParam(query.subtype);
    const list = await annotations.list(documentPathParam(request), operationContext(request), { pageIndex: query.pageIndex, subtype });
    return sendModel(request, reply, ANNOTATIONS_XML, { annotations: list });
  });

  api.delete('/documents/:filePath.pdf/annotations', {
    config: { model: true },
    schema: {
      summary: 'Delete annotations (A1)',
      description:
        "Deletes the document's annotations, or one page's with ?pageIndex=. Form field widgets are kept (they belong to the form). " +
        'Popups go with their annotations, and replies with what they reply to. Answers the annotations that remain.',
      tags: ['annotations'],
      params,
      headers,
      querystring: { type: 'object', properties: pageIndexQuery },
      response: { 200: annotationsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { pageIndex } = request.query as { pageIndex?: number };
    const remaining = await annotations.deleteMany(documentPathParam(request), operationContext(request), pageIndex);
    return sendModel(request, reply, ANNOTATIONS_XML, { annotations: remaining });
  });

  api.get('/documents/:filePath.pdf/annotations/:name', {
    config: { model: true },
    schema: {
      summary: 'Get one annotation (A9)',
      tags: ['annotations'],
      params: namedParams,
      headers,
      response: { 200: annotationSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const annotation = await annotations.get(documentPathParam(request), operationContext(request), nameParam(request));
    return sendModel(request, reply, ANNOTATION_XML, annotation);
  });

  api.delete('/documents/:filePath.pdf/annotations/:name', {
    schema: {
      summary: 'Delete one annotation (A8)',
      description: 'Its popup and its replies (and theirs) are deleted with it, as Acrobat does.',
      tags: ['annotations'],
      params: namedParams,
      headers,
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await annotations.deleteOne(documentPathParam(request), operationContext(request), nameParam(request));
    return reply.code(204).send();
  });
}
