import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps, SchemaRequest } from '../context.js';
import { negotiate } from '../negotiation.js';
import { contentDisposition, sendModel, warningHeaders } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { annotationSchema } from '../schemas/annotations.js';

export const XFDF_TYPE = 'application/vnd.adobe.xfdf';
export const FDF_TYPES = ['application/vnd.fdf', 'application/fdf'];
const EXPORT_TYPES = [XFDF_TYPE, 'application/vnd.fdf'] as const;

const params = filePathParams;
const headers = { type: 'object', properties: documentPasswordHeader } as const;

/** The answer of an import: the document's annotations now, and what the import did. */
export const importResultSchema = {
  title: 'AnnotationImportResult',
  type: 'object',
  description: 'AnnotationsModel after the import (XML: <Annotations>), with the names created and updated and any warnings (elements not imported, links that could not be made)',
  properties: {
    annotations: { type: 'array', items: annotationSchema },
    created: { type: 'array', items: { type: 'string' } },
    updated: { type: 'array', items: { type: 'string' } },
    warnings: { type: 'array', items: { type: 'string' } },
  },
  required: ['annotations', 'created', 'updated', 'warnings'],
} as const;
const IMPORT_XML = { root: 'Annotations', flatten: 'annotations', items: { annotations: 'Annotation', inkList: 'stroke', flags: 'flag', lineEndings: 'lineEnding', created: 'name', updated: 'name', warnings: 'warning' } };

/** The format of an import body by its media type (XFDF when none is given). */
export function importFormat(request: FastifyRequest): 'xfdf' | 'fdf' {
  const type = (request.headers['content-type'] ?? XFDF_TYPE).split(';')[0]!.trim().toLowerCase();
  if (type === XFDF_TYPE) return 'xfdf';
  if (FDF_TYPES.includes(type)) return 'fdf';
  throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Annotation imports take ${XFDF_TYPE} or application/vnd.fdf`);
}

/** A5 and A3 share this: import the body, answer the annotations. */
export async function importAnnotationContent(request: SchemaRequest<{ params: typeof params }>, reply: FastifyReply, deps: AppDeps): Promise<FastifyReply> {
  const format = importFormat(request);
  const result = await deps.operations.annotations.importContent(documentPathParam(request), operationContext(request), format, request.body, deps.config.maxXfdfBytes);
  return sendModel(request, reply, IMPORT_XML, result);
}

export function registerAnnotationContentRoutes(api: Api, deps: AppDeps): void {
  const { annotations } = deps.operations;

  api.get('/documents/:filePath.pdf/annotations/content', {
    schema: {
      summary: 'Export annotations as XFDF or FDF (A6)',
      description:
        'Accept application/vnd.adobe.xfdf (the default) or application/vnd.fdf. ?attachment=true delivers it as a download named after the document. ' +
        'Subtypes XFDF has no element for (Widget, Movie, Screen, PrinterMark, TrapNet, Watermark, 3D, Projection, RichMedia) are left out. ' +
        "In XFDF, stamps carry their appearance streams in <appearance> (Acrobat's base64 XML encoding of /AP).",
      tags: ['annotations'],
      params,
      headers,
      querystring: { type: 'object', properties: { attachment: { type: 'boolean', default: false } } },
      response: { 200: { description: 'The XFDF or FDF file', content: { [XFDF_TYPE]: { schema: { type: 'string' } }, 'application/vnd.fdf': { schema: { type: 'string', format: 'binary' } } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const type = negotiate(request.headers.accept, EXPORT_TYPES);
    if (!type) throw new ServiceError('NOT_ACCEPTABLE', `Annotations export as ${EXPORT_TYPES.join(' or ')}`);
    const format = type === XFDF_TYPE ? 'xfdf' : 'fdf';
    const path = documentPathParam(request);
    const { content, warnings } = await annotations.exportContent(path, operationContext(request), format);
    warningHeaders(reply, warnings);
    const { attachment } = request.query;
    if (attachment) reply.header('Content-Disposition', contentDisposition('attachment', path.name.replace(/\.pdf$/i, `.${format}`)));
    return reply.header('Vary', 'Accept').type(format === 'xfdf' ? `${XFDF_TYPE}; charset=utf-8` : type).send(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
  });

  api.post('/documents/:filePath.pdf/annotations/content', {
    config: { model: true },
    schema: {
      summary: 'Import annotations from XFDF or FDF (A5)',
      description:
        'The body is an XFDF (Content-Type application/vnd.adobe.xfdf, the default) or FDF (application/vnd.fdf) file. The document keeps its annotations; ' +
        'new ones are added and those whose name matches are updated in place. Popups and replies are linked by name whatever their order. ' +
        'An XFDF <appearance> becomes the annotation\'s appearance as it is; annotations without one get one drawn. ' +
        'Elements that cannot be imported are reported in warnings; an <appearance> that cannot be decoded is 400 MALFORMED_XFDF.',
      tags: ['annotations'],
      params,
      headers,
      consumes: [XFDF_TYPE, 'application/vnd.fdf'],
      response: { 200: importResultSchema, ...errorResponses },
    },
  }, async (request, reply) => importAnnotationContent(request, reply, deps));
}
