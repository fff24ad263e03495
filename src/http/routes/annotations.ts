import { ANNOTATION_SUBTYPES, type AnnotationSubtype, ATTACHMENT_ICONS, subtypeFromQuery } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { filePart, multipartBody } from '../openapi.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { ANNOTATION_XML, ANNOTATIONS_XML, annotationSchema, annotationsSchema, attachmentSchema } from '../schemas/annotations.js';

import type { FromSchema } from 'json-schema-to-ts';
import { compileValidator } from '../../validation.js';
import { parseContentDisposition } from '../content-disposition.js';
import { parseJsonPart, readMultipart } from '../multipart.js';
import { negotiate } from '../negotiation.js';
import { contentDisposition } from '../reply.js';
import { RenderedCache, sendVersionedModel } from '../rendered-cache.js';
import { FDF_TYPES, importAnnotationContent, importResultSchema, XFDF_TYPE } from './annotation-content.js';

/** When A3 was marked deprecated (the first release), as an RFC 9745 structured date. */
const DEPRECATED_SINCE = '@1795219200';

const params = filePathParams;
const namedParams = {
  type: 'object',
  properties: { ...params.properties, name: { type: 'string', description: 'The annotation name (its /NM, or the generated name), percent-encoded', examples: ['note-1'] } },
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

const nameParam = (request: { params: { name: string } }) => request.params.name;

const text = { type: 'string', maxLength: 65_535 } as const;
const newAttachmentAnnotationSchema = {
  title: 'NewFileAttachmentAnnotation',
  type: 'object',
  description: 'The `annotation` part of an A4 request',
  properties: {
    subtype: { type: 'string', description: 'FileAttachment (any case): the only subtype this operation creates' },
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'The /NM; generated ("attachment-N") when absent' },
    pageIndex: { type: 'integer', minimum: 0, default: 0 },
    rectangle: {
      type: 'object',
      description: 'PDF user space; default: a 20 x 20 pt icon in the upper left corner of the page as shown',
      properties: { x: { type: 'number' }, y: { type: 'number' }, width: { type: 'number', exclusiveMinimum: 0 }, height: { type: 'number', exclusiveMinimum: 0 } },
      required: ['x', 'y', 'width', 'height'],
      additionalProperties: false,
    },
    contents: text,
    author: text,
    subject: text,
    icon: { type: 'string', enum: [...ATTACHMENT_ICONS], default: 'PushPin' },
    color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' },
  },
  required: ['subtype'],
  additionalProperties: false,
} as const;
const validateNewAnnotation = compileValidator<FromSchema<typeof newAttachmentAnnotationSchema>>(newAttachmentAnnotationSchema, 'annotation');

const fileDispositionSchema = {
  type: 'object',
  properties: {
    fileName: { type: 'string', minLength: 1, maxLength: 255 },
    description: text,
    mediaType: { type: 'string', pattern: '^[\\w.+-]+/[\\w.+-]+$' },
    creationDate: { type: 'string' },
    modificationDate: { type: 'string' },
  },
  additionalProperties: false,
} as const;
type FileDisposition = FromSchema<typeof fileDispositionSchema>;
const validateFileDisposition = compileValidator<FileDisposition>(fileDispositionSchema, 'fileDisposition');

/** The `fileDisposition` part: a JSON object, or a Content-Disposition-style value. */
function fileDisposition(value: string | undefined): FileDisposition {
  if (value === undefined || value.trim() === '') return {};
  if (value.trim().startsWith('{')) {
    const d = validateFileDisposition(parseJsonPart(value, 'fileDisposition'));
    for (const key of ['creationDate', 'modificationDate'] as const) {
      if (d[key] !== undefined && Number.isNaN(Date.parse(d[key]))) throw new ServiceError('VALIDATION_FAILED', `fileDisposition.${key}: must be an ISO 8601 date`);
    }
    return d;
  }
  return parseContentDisposition(value);
}

export function registerAnnotationRoutes(api: Api, deps: AppDeps): void {
  const { annotations } = deps.operations;
  const rendered = new RenderedCache(64 * 1024 * 1024);

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
      response: { 200: annotationsSchema, ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const query = request.query;
    const subtype = subtypeParam(query.subtype);
    const ctx = operationContext(request);
    const { annotations: list, etag } = await annotations.list(documentPathParam(request), ctx, { pageIndex: query.pageIndex, subtype });
    // Access (password included) was checked by the listing above. The password stays out of the
    // variant: the content does not depend on it, and an ETag must not carry anything derived from it.
    const variant = `${query.pageIndex ?? ''}|${subtype ?? ''}`;
    return sendVersionedModel(request, reply, rendered, ANNOTATIONS_XML, { etag, variant }, () => ({ annotations: list }));
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
    const { pageIndex } = request.query;
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

  api.post('/documents/:filePath.pdf/annotations', {
    config: { model: true },
    schema: {
      summary: 'Add a file-attachment annotation (A4); deprecated: import XFDF/FDF (A3)',
      description:
        'multipart/form-data with parts `annotation` (JSON; `subtype` FileAttachment required), `file` (the file) and `fileDisposition` ' +
        '(a Content-Disposition-style value such as `attachment; filename="report.csv"`, or JSON with fileName, description, mediaType, ' +
        'creationDate, modificationDate). The file is embedded with its size, dates, MD5 checksum and media type. 201 with Location. ' +
        'With an XFDF or FDF body instead (A3, deprecated, to be removed in a future version): the same as POST .../annotations/content, ' +
        'answered with a Deprecation header and a Link to that successor.',
      tags: ['annotations'],
      params,
      headers,
      consumes: ['multipart/form-data', 'application/vnd.adobe.xfdf', 'application/vnd.fdf'],
      bodyContent: multipartBody({
        annotation: newAttachmentAnnotationSchema,
        file: filePart('The file to embed'),
        fileDisposition: { type: 'string', description: 'attachment; filename="report.csv", or JSON with fileName, description, mediaType, creationDate, modificationDate' },
      }, ['annotation', 'file']),
      response: { 201: annotationSchema, 200: importResultSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) {
      // A3, the older form of A5: the same import, marked deprecated (RFC 9745) with its successor linked (RFC 8288).
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type === XFDF_TYPE || FDF_TYPES.includes(type)) {
        const successor = documentUrl(documentPathParam(request), 'annotations', 'content');
        reply.header('Deprecation', DEPRECATED_SINCE).header('Link', `<${successor}>; rel="successor-version"`);
        return importAnnotationContent(request, reply, deps);
      }
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'POST .../annotations takes multipart/form-data (a file attachment) or, deprecated, an XFDF or FDF body');
    }
    const path = documentPathParam(request);
    const { fields, files } = await readMultipart(request, deps.operations.documents, {
      fileLimit: deps.config.maxUploadBytes,
      textLimit: deps.config.maxBodyBytes,
      textFields: ['annotation', 'fileDisposition'],
    });
    try {
      const annotationPart = fields.get('annotation');
      if (annotationPart === undefined) throw new ServiceError('MALFORMED_MULTIPART', 'The request needs a part named "annotation" (JSON)');
      const annotation = validateNewAnnotation(parseJsonPart(annotationPart, 'annotation'));
      if (annotation.subtype.toLowerCase() !== 'fileattachment') {
        throw new ServiceError('UNSUPPORTED_SUBTYPE', `Only FileAttachment annotations can be added this way, not ${JSON.stringify(annotation.subtype)}`);
      }
      const file = files.find((f) => f.field === 'file');
      if (!file) throw new ServiceError('MALFORMED_MULTIPART', 'The request needs a part named "file" holding the file to attach');
      const disposition = fileDisposition(fields.get('fileDisposition'));
      const { subtype: _subtype, ...placement } = annotation;
      const added = await annotations.addFileAttachment(path, operationContext(request), {
        file: await file.content.read(),
        fileName: disposition.fileName ?? file.fileName ?? 'attachment',
        mediaType: disposition.mediaType ?? file.mediaType,
        description: disposition.description,
        created: disposition.creationDate,
        modified: disposition.modificationDate,
        annotation: placement,
      });
      reply.header('Location', documentUrl(path, 'annotations', added.name));
      return sendModel(request, reply, ANNOTATION_XML, added, 201);
    } finally {
      await Promise.all(files.map((f) => f.content.discard()));
    }
  });

  api.get('/documents/:filePath.pdf/annotations/:name/attachment', {
    config: { model: true },
    schema: {
      summary: 'Get the attachment of a FileAttachment annotation (A10)',
      description: '409 NOT_A_FILE_ATTACHMENT for other annotations; 404 ATTACHMENT_NOT_FOUND for a FileAttachment that embeds no file.',
      tags: ['annotations'],
      params: namedParams,
      headers,
      response: { 200: attachmentSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { attachment } = await annotations.attachment(documentPathParam(request), operationContext(request), nameParam(request), false);
    return sendModel(request, reply, { root: 'Attachment' }, attachment);
  });

  api.get('/documents/:filePath.pdf/annotations/:name/attachment/content', {
    schema: {
      summary: 'Download the attachment content (A11)',
      description:
        'The file with its media type. An Accept header that admits neither that type nor a wildcard is 406. ?attachment=true adds ' +
        'Content-Disposition: attachment with an RFC 6266 file name. Served sandboxed (CSP sandbox, nosniff): an attached HTML file cannot run as the service.',
      tags: ['annotations'],
      params: namedParams,
      headers,
      querystring: { type: 'object', properties: { attachment: { type: 'boolean', default: false } } },
      // The attachment's own media type (its /Subtype, application/octet-stream without one): any type, as sent.
      response: { 200: { description: "The file, with the attachment's own media type (its /Subtype), application/octet-stream when it declares none", content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { attachment, content } = await annotations.attachment(documentPathParam(request), operationContext(request), nameParam(request), true);
    if (request.headers.accept && !negotiate(request.headers.accept, [attachment.mediaType])) {
      throw new ServiceError('NOT_ACCEPTABLE', `The attachment is ${attachment.mediaType}`);
    }
    const { attachment: asDownload } = request.query;
    return reply
      .type(attachment.mediaType)
      .header('Content-Disposition', contentDisposition(asDownload ? 'attachment' : 'inline', attachment.fileName))
      .header('Content-Security-Policy', "sandbox; default-src 'none'")
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Length', content!.length)
      .send(Buffer.from(content!.buffer, content!.byteOffset, content!.length));
  });
}
