import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import { documentPathFromBody } from '../../storage/paths.js';
import { noneMatch } from '../conditional.js';
import type { Api, AppDeps } from '../context.js';
import { negotiate } from '../negotiation.js';
import { contentDisposition, sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { COMPARE_XML, compareReportSchema, compareRequestSchema } from '../schemas/compare.js';
import { COMPARE_DEFAULT_DPI, COMPARE_DEFAULT_THRESHOLD } from '../../engine/models.js';
import { requireJsonBody } from './metadata.js';
import { jobPlan, requestPreferences } from '../prefer.js';
import { jobAcceptedResponse, preferHeader } from '../schemas/jobs.js';
import { renderXml } from '../xml.js';
import { answerWithJob } from './jobs.js';

const OFFERS = ['application/json', 'application/xml', 'text/xml', 'application/pdf'] as const;

/** Compare (issue 40, docs/compare.md): the document against another stored document or a kept version. A read. */
export function registerCompareRoutes(api: Api, deps: AppDeps): void {
  const { compare, jobs, pages } = deps.operations;

  api.post('/documents/:filePath.pdf/compare', {
    schema: {
      summary: 'Compare the document with another document or a kept version',
      description:
        'The document (or versionId, one of its kept versions) against `with` (the base): pages paired by content, so a moved page is reported as moved and ' +
        'inserted and deleted pages as such; a word-level text diff and a pixel diff (regions as boxes) of each pair that differs. Accept application/json ' +
        '(or XML) answers the CompareReport; Accept application/pdf the document with inserted words highlighted, changed regions framed and summary pages ' +
        'in front. Neither document is changed. The ETag names both versions and the options: If-None-Match answers 304. Prefer: respond-async (or ' +
        'either document larger than PDFSERVICE_JOB_ASYNC_BYTES) runs it as a background job whose result file is the answer as negotiated (202 and the Job).',
      tags: ['compare'],
      params: filePathParams,
      headers: { type: 'object', properties: { ...documentPasswordHeader, ...(jobs ? preferHeader : {}) } },
      consumes: ['application/json'],
      body: compareRequestSchema,
      response: {
        200: {
          description: 'The CompareReport, or the PDF with the changes highlighted',
          content: { 'application/json': { schema: compareReportSchema }, 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
        },
        ...(jobs ? jobAcceptedResponse : {}),
        ...notModifiedResponse,
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    requireJsonBody(request, ['application/json']);
    const chosen = negotiate(request.headers.accept, OFFERS);
    if (!chosen) throw new ServiceError('NOT_ACCEPTABLE', `This resource is available as ${OFFERS.join(', ')}`);
    reply.header('Vary', 'Accept');
    const body = request.body as FromSchema<typeof compareRequestSchema>;
    const path = documentPathParam(request);
    const ctx = { ...operationContext(request), ...(body.versionId !== undefined ? { versionId: body.versionId } : {}) };
    const w = body.with;
    // Checked here, not by an anyOf of required lists in the schema: that would type `with` as Any in the Python client.
    if (w.filePath === undefined && w.versionId === undefined) throw new ServiceError('VALIDATION_FAILED', 'body/with: give filePath, versionId or both');
    const other = { path: w.filePath === undefined ? path : documentPathFromBody(w.filePath, 'with.filePath'), versionId: w.versionId, password: w.password };
    const options = { text: body.text ?? true, visual: body.visual ?? true, dpi: body.dpi ?? COMPARE_DEFAULT_DPI, threshold: body.threshold ?? COMPARE_DEFAULT_THRESHOLD };
    const pdf = chosen === 'application/pdf';
    const form = pdf ? 'pdf' : 'model';
    if (request.headers['if-none-match']) {
      const tag = await compare.etag(path, ctx, other, options, form);
      if (noneMatch(request.headers['if-none-match'], tag)) return reply.header('ETag', tag).code(304).send();
    }
    const name = path.toString().split('/').pop()!.replace(/\.pdf$/i, '');
    // As every long request (docs/jobs.md): a job when asked for, or when either document is over the size rule.
    const plan = jobs ? jobPlan(requestPreferences(request.raw.headers), jobs.longByNature({ bytes: await compare.size(path, ctx, other) })) : null;
    if (jobs && plan) {
      jobs.checkRoom(ctx);
      // Every 4xx the inline request would answer before its work is answered here, and no job is made.
      const prepared = await compare.prepare(path, ctx, other, options, pdf);
      const job = await jobs.submitCompare(prepared, chosen, async (exec) => {
        const { report, pdf: bytes } = await compare.compare(path, ctx, other, options, pdf, exec);
        // The result names the document compared (the job's `base` names the other), as an action's file result does.
        const source = await pages.viewable(path, ctx);
        if (bytes) return { content: bytes, name: `${name}-compare.pdf`, source };
        const text = chosen === 'application/json' ? JSON.stringify(report) : renderXml(COMPARE_XML, report);
        return { content: Buffer.from(text, 'utf8'), name: `${name}-compare.${chosen === 'application/json' ? 'json' : 'xml'}`, source };
      });
      return answerWithJob(request, reply, jobs, job, plan);
    }
    const { report, pdf: bytes, tag } = await compare.compare(path, ctx, other, options, pdf);
    reply.header('ETag', tag);
    if (!bytes) return sendModel(request, reply, COMPARE_XML, report);
    return reply
      .type('application/pdf')
      .header('Content-Disposition', contentDisposition('attachment', `${name}-compare.pdf`))
      .header('Content-Length', bytes.length)
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  });
}
