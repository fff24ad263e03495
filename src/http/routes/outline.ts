import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { OUTLINE_XML, outlineRequestSchema, outlineSchema } from '../schemas/outline.js';
import { requireXmlRoot } from '../xml.js';
import { checkOutlineSize, outlineInput } from '../../operations/outline.js';
import type { OutlineItemInput } from '../../engine/models.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;
const tags = ['outline'];

/** The outline resource: the bookmarks as a tree, read and replaced (docs/outline.md). */
export function registerOutlineRoutes(api: Api, deps: AppDeps): void {
  const { outline } = deps.operations;

  api.get('/documents/:filePath.pdf/outline', {
    config: { model: true },
    schema: {
      summary: 'Get the outline (bookmarks) as a tree',
      description:
        'Each item: title, destination (page and view; named destinations resolved) or URI, open state, colour, bold and italic, children. ' +
        'A damaged or hostile outline (cycles, a /Count that lies, destinations naming no page, too deep) is answered with what is sound and warnings.',
      tags,
      params: filePathParams,
      headers,
      response: { 200: outlineSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model } = await outline.get(documentPathParam(request), operationContext(request));
    return sendModel(request, reply, OUTLINE_XML, model);
  });

  api.put('/documents/:filePath.pdf/outline', {
    config: { model: true },
    schema: {
      summary: 'Replace the whole outline',
      description:
        'An empty items list removes it. Page indexes must be in the document (400 PAGE_OUT_OF_RANGE). With the user password the permissions ' +
        'must allow assembly. A signed document gets the change appended (its signatures stay valid); a certified one is refused (409 DOCUMENT_CERTIFIED). ' +
        'Answers the outline as read back from the written document.',
      tags,
      params: filePathParams,
      headers,
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'Outline',
      body: outlineRequestSchema,
      response: { 200: outlineSchema, ...errorResponses },
    },
    // Before the schema step: the sizes it cannot check, and an XML body's empty lists.
    preValidation: async (request) => checkOutlineSize(request.body, request.xmlRoot !== null),
  }, async (request, reply) => {
    requireXmlRoot(request, 'Outline');
    const items = outlineInput((request.body as { items: OutlineItemInput[] }).items);
    const { model, etag } = await outline.replace(documentPathParam(request), operationContext(request), items);
    reply.header('ETag', etag);
    return sendModel(request, reply, OUTLINE_XML, model);
  });
}
