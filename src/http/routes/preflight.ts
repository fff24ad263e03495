import { PreflightOperations } from '../../operations/PreflightOperations.js';
import type { Api, AppDeps } from '../context.js';
import { RenderedCache, sendVersionedModel } from '../rendered-cache.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { PREFLIGHT_RESULT_XML, preflightResultSchema } from '../schemas/preflight.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;

/** Preflight results (docs/pdfa.md, "Preflight"): the route only reads the request; PreflightOperations decides the rest. */
export function registerPreflightRoutes(api: Api, deps: AppDeps): void {
  const { preflight } = deps.operations;
  const rendered = new RenderedCache(4 * 1024 * 1024);
  const profiles = PreflightOperations.profiles();

  api.get('/documents/:filePath.pdf/preflight-results', {
    config: { model: true },
    schema: {
      summary: 'Check the document against a PDF/A, PDF/UA or PDF/X profile',
      description:
        `\`profile\` is one of ${profiles.join(', ')} (400 VALIDATION_FAILED listing them for another). PDF/A and accessibility profiles ` +
        '(pdfua1, pdfua2, wtpdf1a) are validated by veraPDF ' +
        '(503 COMPONENT_MISSING without Java or the veraPDF helper). The result names every failed rule with its clause, test number, ' +
        'how often it failed and the first places. An encrypted document needs its password (403 without), and is reported as failing ' +
        "PDF/A's ban on encryption with the rest of its content checked; a file the validator cannot read is a non-compliant result saying why. " +
        'Accessibility profiles add `accessibility`: for pdfua1 the failures grouped by Matterhorn Protocol checkpoint, and for all three ' +
        'the failure conditions only a person can check (docs/accessibility.md). Cached per document version, password and profile. See docs/pdfa.md.',
      tags: ['preflight'],
      params: filePathParams,
      headers,
      querystring: {
        type: 'object',
        // The registry's profiles as an enum: clients and the OpenAPI text see them, and another value is 400 listing them.
        properties: { profile: { type: 'string', enum: profiles, description: `The profile: ${profiles.join(', ')}`, examples: ['pdfa2b'] } },
        required: ['profile'],
      },
      response: { 200: preflightResultSchema, ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const result = await preflight.check(documentPathParam(request), operationContext(request), request.query.profile);
    // The body depends on the version, the profile and the path it names (the same content stored under two names has one ETag);
    // the operation has checked the password before (never part of an ETag).
    const variant = `preflight|${result.profile}|${result.document}`;
    return sendVersionedModel(request, reply, rendered, PREFLIGHT_RESULT_XML, { etag: result.etag, variant }, () => result);
  });
}
