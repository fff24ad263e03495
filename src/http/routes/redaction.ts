import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { REDACTION_XML, redactionRequestSchema, redactionResponseSchema } from '../schemas/redaction.js';
import { requireXmlRoot } from '../xml.js';

/** A7: Redact annotations from a search term. Applying them is ApplyRedactionsAction. */
export function registerRedactionRoutes(api: Api, deps: AppDeps): void {
  api.post('/documents/:filePath.pdf/annotations/redaction', {
    config: { model: true },
    schema: {
      summary: 'Create Redact annotations for every match of a search term (A7)',
      description:
        'Searches the page content (and, unless includeAnnotations is false, the text annotations show) and creates one Redact annotation per ' +
        'match, with one quad per line a match spans. No cap on the number of matches. Nothing is removed until ApplyRedactionsAction runs. ' +
        'The answer echoes the request and lists the created annotations; with no match the document is not written and count is 0.',
      tags: ['annotations'],
      params: filePathParams,
      headers: { type: 'object', properties: documentPasswordHeader },
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'Redaction',
      body: redactionRequestSchema,
      response: { 200: redactionResponseSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'Redaction');
    const body = request.body;
    if (!body.searchText.trim()) throw new ServiceError('INVALID_SEARCH', 'searchText must contain more than whitespace');
    const matches = await deps.operations.annotations.createRedactions(documentPathParam(request), operationContext(request), body);
    return sendModel(request, reply, REDACTION_XML, {
      ...body,
      count: matches.length,
      annotationNames: matches.map((m) => m.name),
      matches,
    });
  });
}
