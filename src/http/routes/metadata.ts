import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MetadataChange, MetadataModel } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { acceptableModelFormat, contentDisposition, sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { METADATA_XML, metadataPatchSchema, metadataPutSchema, metadataSchema } from '../schemas/metadata.js';

/** The media type of XMP packets (RFC 3870; the XMP specification names it for packets outside a file). */
export const XMP_BODY_TYPE = 'application/rdf+xml';

const headers = { type: 'object', properties: documentPasswordHeader } as const;

const XMP_EXAMPLE =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Quarterly report</rdf:li></rdf:Alt></dc:title></rdf:Description>' +
  '</rdf:RDF></x:xmpmeta>';
const tags = ['metadata'];

/** The model as sent: in XML the custom keys become entries (a key need not be an element name another tool reads back). */
function sendMetadata(request: FastifyRequest, reply: FastifyReply, model: MetadataModel): FastifyReply {
  if (acceptableModelFormat(request).format !== 'xml' || !model.custom) return sendModel(request, reply, METADATA_XML, model);
  const custom = Object.entries(model.custom).map(([key, value]) => ({ key, value }));
  return sendModel(request, reply, METADATA_XML, { ...model, custom });
}

/** PATCH and PUT take JSON only (a merge patch is JSON's): an XML body, which the app's parser reads too, is 415. */
export function requireJsonBody(request: FastifyRequest, accepted: string[]): void {
  if (request.xmlRoot === null) return;
  throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `This request takes ${accepted.join(', ')}`, { accepted }, { Accept: accepted.join(', ') });
}

const writeDescription =
  'The Info dictionary, the catalog\'s /Lang and the XMP packet are written together: each XMP property changed or removed as its field is ' +
  '(dc:title, dc:creator, dc:description, pdf:Keywords, xmp:CreatorTool, pdf:Producer, xmp:CreateDate, xmp:ModifyDate, dc:language; pdfx for custom keys; ' +
  'xmp:MetadataDate set), everything else in the packet (PDF/A identification, other schemas) kept; a packet is created when there is none. ' +
  'Non-ASCII text is written as PDF text strings (UTF-16BE where PDFDocEncoding cannot hold it) and as UTF-8 in XMP. Needs "change the document" ' +
  'with the user password. A signed document gets the change appended (its signatures stay valid). Answers the metadata as read back.';

/** The metadata resource: the Info dictionary and XMP, kept in sync (docs/metadata.md). */
export function registerMetadataRoutes(api: Api, deps: AppDeps): void {
  const { metadata } = deps.operations;

  api.get('/documents/:filePath.pdf/metadata', {
    config: { model: true },
    schema: {
      summary: 'Get the document metadata (Info dictionary, language, XMP)',
      description: 'Title, author, subject, keywords, creator, producer, dates (ISO 8601), language (/Lang), custom Info keys, and whether an XMP packet is present. A field the Info dictionary lacks is read from the XMP packet.',
      tags,
      params: filePathParams,
      headers,
      response: { 200: metadataSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model, etag } = await metadata.get(documentPathParam(request), operationContext(request));
    reply.header('ETag', etag);
    return sendMetadata(request, reply, model);
  });

  api.patch('/documents/:filePath.pdf/metadata', {
    config: { model: true },
    schema: {
      summary: 'Change some metadata fields (JSON merge patch)',
      description: `A field given replaces it, null removes it. ${writeDescription}`,
      tags,
      params: filePathParams,
      headers,
      consumes: ['application/merge-patch+json', 'application/json'],
      bodyContent: { 'application/merge-patch+json': { schema: metadataPatchSchema }, 'application/json': { schema: metadataPatchSchema } },
      body: metadataPatchSchema,
      response: { 200: metadataSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireJsonBody(request, ['application/merge-patch+json', 'application/json']);
    const { model, etag } = await metadata.write(documentPathParam(request), operationContext(request), request.body as MetadataChange, false);
    reply.header('ETag', etag);
    return sendMetadata(request, reply, model);
  });

  api.put('/documents/:filePath.pdf/metadata', {
    config: { model: true },
    schema: {
      summary: 'Replace all metadata',
      description: `What the body does not give is removed (modificationDate aside, which becomes the time of the write). ${writeDescription}`,
      tags,
      params: filePathParams,
      headers,
      consumes: ['application/json'],
      body: metadataPutSchema,
      response: { 200: metadataSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireJsonBody(request, ['application/json']);
    const { model, etag } = await metadata.write(documentPathParam(request), operationContext(request), request.body as MetadataChange, true);
    reply.header('ETag', etag);
    return sendMetadata(request, reply, model);
  });

  api.get('/documents/:filePath.pdf/metadata/xmp', {
    schema: {
      summary: 'Get the XMP packet',
      description: 'The catalog\'s /Metadata stream as stored (decoded from its filters). 404 XMP_NOT_FOUND when the document has none.',
      tags,
      params: filePathParams,
      headers,
      response: { 200: { description: 'The XMP packet', content: { [XMP_BODY_TYPE]: { schema: { type: 'string' } } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const { xmp, etag } = await metadata.getXmp(path, operationContext(request));
    return reply.header('ETag', etag).header('Content-Disposition', contentDisposition('inline', path.name.replace(/\.pdf$/i, '.xmp'))).type(`${XMP_BODY_TYPE}; charset=utf-8`).send(Buffer.from(xmp.buffer, xmp.byteOffset, xmp.byteLength));
  });

  api.put('/documents/:filePath.pdf/metadata/xmp', {
    config: { model: true, xmpBody: true },
    schema: {
      summary: 'Replace the XMP packet',
      description:
        'The body (application/rdf+xml, UTF-8) is stored as the document\'s XMP packet, and the Info dictionary and /Lang are made to say what it says ' +
        '(its pdfx properties become the custom keys). It must be well-formed XML without DOCTYPE whose root is x:xmpmeta holding rdf:RDF, or rdf:RDF ' +
        '(400 MALFORMED_XMP). Answers the metadata as read back.',
      tags,
      params: filePathParams,
      headers,
      consumes: [XMP_BODY_TYPE],
      bodyContent: { [XMP_BODY_TYPE]: { schema: { type: 'string', minLength: 1, description: 'An XMP packet', examples: [XMP_EXAMPLE] } } },
      response: { 200: metadataSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const body = request.body;
    // A JSON or XML body is parsed by its own parser before the route sees it: what is not a packet is refused here.
    if (!(body instanceof Uint8Array)) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `An XMP packet is sent as ${XMP_BODY_TYPE}`, { accepted: [XMP_BODY_TYPE] }, { Accept: XMP_BODY_TYPE });
    const xmp = body;
    const { model, etag } = await metadata.writeXmp(documentPathParam(request), operationContext(request), xmp);
    reply.header('ETag', etag);
    return sendMetadata(request, reply, model);
  });
}
