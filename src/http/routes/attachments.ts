import type { FromSchema } from 'json-schema-to-ts';
import type { Readable } from 'node:stream';
import { MAX_ATTACHMENT_NAME, type AfRelationship, type NewDocumentAttachment } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { BINARY_UPLOAD_TYPES } from '../uploads.js';
import type { Api, AppDeps } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { contentDownload, sendDownload } from '../download.js';
import { parseJsonPart, readMultipart } from '../multipart.js';
import { negotiate } from '../negotiation.js';
import { filePart, multipartBody } from '../openapi.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { DOCUMENT_ATTACHMENT_XML, DOCUMENT_ATTACHMENTS_XML, documentAttachmentSchema, documentAttachmentsSchema, MEDIA_TYPE_PATTERN, newAttachmentProperties, newAttachmentSchema } from '../schemas/attachments.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { compileValidator } from '../../validation.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;
const tags = ['attachments'];
const namedParams = {
  type: 'object',
  properties: { ...filePathParams.properties, name: { type: 'string', minLength: 1, maxLength: MAX_ATTACHMENT_NAME, description: 'The attachment\'s name, percent-encoded', examples: ['invoice.xml'] } },
  required: ['filePath', 'name'],
} as const;
const { name: _name, ...putProperties } = newAttachmentProperties;
const putQuery = { type: 'object', properties: putProperties, additionalProperties: false } as const;
const downloadQuery = {
  type: 'object',
  properties: { attachment: { type: 'boolean', default: false, description: 'Content-Disposition: attachment (default inline)' } },
} as const;

type NewAttachment = FromSchema<typeof newAttachmentSchema, { keepDefaultedPropertiesOptional: true }>;
const validateNewAttachment = compileValidator<NewAttachment>(newAttachmentSchema, 'attachment');
const MEDIA_TYPE = new RegExp(MEDIA_TYPE_PATTERN);

function isStream(body: unknown): body is Readable {
  return typeof (body as Readable | null)?.pipe === 'function';
}

/** The engine's request from what the client said of the file; the media type falls back to `sent` (a part's or body's type) when it is a plain one. */
function newAttachment(name: string, said: Omit<NewAttachment, 'name'>, file: Uint8Array, sent: string | undefined): NewDocumentAttachment {
  return {
    name,
    file,
    fileName: said.fileName,
    mediaType: said.mediaType ?? (sent && sent !== 'application/octet-stream' && MEDIA_TYPE.test(sent) ? sent : 'application/octet-stream'),
    description: said.description,
    relationship: said.relationship as AfRelationship | undefined,
    created: said.creationDate,
    modified: said.modificationDate,
    replace: said.replace === true,
  };
}

/** Document attachments: the embedded files of the EmbeddedFiles name tree (docs/attachments.md). */
export function registerAttachmentRoutes(api: Api, deps: AppDeps): void {
  const { attachments } = deps.operations;

  api.get('/documents/:filePath.pdf/attachments', {
    config: { model: true },
    schema: {
      summary: 'List the document\'s attachments (embedded files)',
      description:
        'The embedded files of the catalog\'s EmbeddedFiles name tree (not FileAttachment annotations: .../annotations), each with its name, file name, ' +
        'description, media type, size, dates, MD5 checksum and AFRelationship. A damaged tree is read as far as it is sound, with warnings.',
      tags,
      params: filePathParams,
      headers,
      response: { 200: documentAttachmentsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model, etag } = await attachments.list(documentPathParam(request), operationContext(request));
    reply.header('ETag', etag);
    return sendModel(request, reply, DOCUMENT_ATTACHMENTS_XML, model);
  });

  api.post('/documents/:filePath.pdf/attachments', {
    config: { model: true },
    schema: {
      summary: 'Add an attachment (multipart upload)',
      description:
        'multipart/form-data with the file in part `file` and, optionally, JSON in part `attachment` (name, fileName, description, mediaType, relationship, ' +
        'creationDate, modificationDate, replace). The name defaults to the file part\'s file name. A name in use is 409 ATTACHMENT_EXISTS unless replace is true; ' +
        'a file larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. The file gets its size, dates, MD5, media type and AFRelationship (Unspecified by default), ' +
        'the tree stays sorted, and the catalog\'s /AF lists it. 201 with Location (200 when it replaced one); the ETag is the document\'s new one.',
      tags,
      params: filePathParams,
      headers,
      consumes: ['multipart/form-data'],
      bodyContent: multipartBody({ file: filePart('The file to attach'), attachment: newAttachmentSchema }, ['file']),
      response: { 200: documentAttachmentSchema, 201: documentAttachmentSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const { fields, files } = await readMultipart(request, deps.operations.documents, {
      fileLimit: deps.config.maxUploadBytes,
      textLimit: deps.config.maxBodyBytes,
      textFields: ['attachment'],
    });
    try {
      const part = fields.get('attachment');
      const said: NewAttachment = part === undefined ? {} : validateNewAttachment(parseJsonPart(part, 'attachment'));
      const file = files.find((f) => f.field === 'file');
      if (!file || files.length !== 1) throw new ServiceError('MALFORMED_MULTIPART', 'The request needs the file in one part named "file" (and, optionally, JSON in a part named "attachment")');
      const name = said.name ?? file.fileName ?? 'attachment';
      if (name.length > MAX_ATTACHMENT_NAME) throw new ServiceError('VALIDATION_FAILED', `The attachment's name is longer than ${MAX_ATTACHMENT_NAME} characters`);
      const bytes = new Uint8Array(await file.content.read());
      const added = await attachments.add(path, operationContext(request), newAttachment(name, said, bytes, file.mediaType));
      reply.header('ETag', added.etag).header('Location', documentUrl(path, 'attachments', name));
      return sendModel(request, reply, DOCUMENT_ATTACHMENT_XML, added.attachment, added.replaced ? 200 : 201);
    } finally {
      await Promise.all(files.map((f) => f.content.discard()));
    }
  });

  api.put('/documents/:filePath.pdf/attachments/:name', {
    config: { model: true },
    schema: {
      summary: 'Add an attachment (raw body)',
      description:
        'The body is the file (application/octet-stream, or application/pdf or an image type for such a file); the query says what the multipart form\'s ' +
        '`attachment` part would. A name in use is 409 ATTACHMENT_EXISTS unless replace=true; a body larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. ' +
        '201 with Location (200 when it replaced one).',
      tags,
      params: namedParams,
      querystring: putQuery,
      headers,
      consumes: BINARY_UPLOAD_TYPES,
      // A zero-byte file is a legal attachment, so this body, unlike a document's, may be empty.
      bodyContent: Object.fromEntries(BINARY_UPLOAD_TYPES.map((type) => [type, { schema: filePart('The file (may be empty)') }])),
      response: { 200: documentAttachmentSchema, 201: documentAttachmentSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(BINARY_UPLOAD_TYPES as readonly string[]).includes(mediaType) || !isStream(request.body)) {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as application/octet-stream (its media type in ?mediaType=), or use the multipart form (POST .../attachments)');
    }
    const ctx = operationContext(request);
    const staged = await deps.operations.documents.stage(request.body, deps.config.maxUploadBytes, ctx);
    try {
      const bytes = new Uint8Array(await staged.read());
      const added = await attachments.add(path, ctx, newAttachment(request.params.name, request.query, bytes, mediaType));
      reply.header('ETag', added.etag).header('Location', documentUrl(path, 'attachments', request.params.name));
      return sendModel(request, reply, DOCUMENT_ATTACHMENT_XML, added.attachment, added.replaced ? 200 : 201);
    } finally {
      await staged.discard();
    }
  });

  api.get('/documents/:filePath.pdf/attachments/:name', {
    schema: {
      summary: 'Download an attachment',
      description:
        'The file with its own media type and Content-Disposition (inline; ?attachment=true: attachment) with its file name. ETag (the file\'s), ' +
        'If-None-Match (304) and Range (206) as for documents. An Accept header that admits neither its type nor a wildcard is 406. ' +
        'Served sandboxed (CSP sandbox, nosniff): an attached HTML file cannot run as the service.',
      tags,
      params: namedParams,
      headers,
      querystring: downloadQuery,
      response: { 200: { description: 'The file, with its own media type (application/octet-stream when it declares none)', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { attachment, content } = await attachments.read(documentPathParam(request), operationContext(request), request.params.name);
    if (request.headers.accept && !negotiate(request.headers.accept, [attachment.mediaType])) {
      throw new ServiceError('NOT_ACCEPTABLE', `The attachment is ${attachment.mediaType}`);
    }
    reply.header('Content-Security-Policy', "sandbox; default-src 'none'").header('X-Content-Type-Options', 'nosniff');
    return sendDownload(request, reply, await contentDownload(content), {
      mediaType: attachment.mediaType,
      fileName: attachment.fileName,
      disposition: request.query.attachment ? 'attachment' : 'inline',
      noun: 'attachment',
    });
  });

  api.delete('/documents/:filePath.pdf/attachments/:name', {
    schema: {
      summary: 'Delete an attachment',
      description:
        'Removes it from the EmbeddedFiles tree and the catalog\'s /AF; the document is rewritten without its bytes (a signed document gets the change ' +
        'appended, so its signatures stay valid and its earlier revision still holds the file; a certified one is 409 DOCUMENT_CERTIFIED). 204; the ETag is the document\'s new one.',
      tags,
      params: namedParams,
      headers,
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { etag } = await attachments.remove(documentPathParam(request), operationContext(request), request.params.name);
    return reply.header('ETag', etag).code(204).send();
  });
}
