import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorStatus, isErrorCode, ServiceError, type ErrorCode } from '../../errors.js';
import type { JobOperationsApi } from '../../operations/jobs/api.js';
import type { JobError, JobRecord, JobResult } from '../../operations/jobs/model.js';
import type { Api, AppDeps } from '../context.js';
import { DOCUMENTS_PREFIX } from '../document-urls.js';
import { sendModel } from '../reply.js';
import { modelFormat } from '../negotiation.js';
import { checkAcceptable, sendDownload } from '../download.js';
import { operationContext } from '../request-context.js';
import { errorResponses } from '../schemas/common.js';
import { jobIdParams, jobListQuery, jobModelSchema } from '../schemas/jobs.js';

const JOB_XML = { root: 'Job' };
const JOBS_XML = { root: 'Jobs', flatten: 'jobs', items: { jobs: 'Job' } };
/**
 * One event of the stream, as OpenAPI 3.1 describes a text/event-stream (the schema is per event; `data` is the
 * job as GET /jobs/{id} answers it, in JSON).
 */
const jobEventSchema = {
  type: 'object',
  required: ['id', 'event', 'data'],
  properties: {
    id: { type: 'string', pattern: '^[0-9]+$', description: 'Rises by one per event of the job; send it back as Last-Event-ID to resume' },
    event: { type: 'string', enum: ['state', 'progress', 'end'] },
    data: { type: 'string', contentMediaType: 'application/json', contentSchema: jobModelSchema },
  },
} as const;

/** A comment line this often keeps proxies from closing a quiet events stream. */
const HEARTBEAT_MS = 15_000;

export function jobUrl(id: string): string {
  return `/pdfservice/v1/jobs/${encodeURIComponent(id)}`;
}

/** Where a job's result file is downloaded. */
function jobResultUrl(id: string): string {
  return `${jobUrl(id)}/result`;
}

/**
 * Sends the caller's job's result file: its media type and name from the record, its ETag, conditional GET and
 * ranges as for a document (sendDownload); 404 JOB_NOT_FOUND or JOB_RESULT_NOT_FOUND otherwise.
 */
async function sendJobResult(request: FastifyRequest, reply: FastifyReply, jobs: JobOperationsApi, id: string, disposition: 'inline' | 'attachment'): Promise<FastifyReply> {
  const { file, content } = await jobs.openResult(id, operationContext(request));
  try {
    checkAcceptable(request, file.mediaType);
  } catch (err) {
    await content.close();
    throw err;
  }
  return sendDownload(request, reply, { ...content, etag: file.etag }, { mediaType: file.mediaType, fileName: file.name, disposition });
}

/**
 * The job as clients see it: the payload is the service's own (parameters and prepare's answer), not part of the
 * model; the result and the error carry the HTTP status the inline request would have answered, mapped here from
 * what the record says happened.
 */
export function jobView(record: Omit<JobRecord, 'webhook'> & Partial<Pick<JobRecord, 'webhook'>>): Omit<JobRecord, 'payload' | 'result' | 'error' | 'webhook'> & { result?: unknown; error?: unknown; webhook?: unknown } {
  const { payload: _payload, result, error, webhook, ...view } = record;
  return {
    ...view,
    // The traceparent is the service's to send on, not part of the model.
    ...(webhook ? { webhook: { url: webhook.url, state: webhook.state, deliveries: webhook.deliveries } } : {}),
    ...(result ? { result: resultView(record.id, result) } : {}),
    // The error is the problem the inline request would have answered: its extension members (a failed PDF/A
    // conversion's report) sit beside code and detail there, so here too.
    ...(error ? { error: { ...error.extra, status: problemStatus(error), code: error.code, title: error.title, ...(error.detail !== undefined ? { detail: error.detail } : {}) } } : {}),
  };
}

/** A result as clients see it: the written document (path, url, model), or a file that is not a stored document (fileResult: the file alone). */
function resultView(id: string, result: JobResult): Record<string, unknown> {
  const file = result.file ? { file: { ...result.file, url: jobResultUrl(id) } } : {};
  if (!result.path) return { status: resultStatus(result), ...file };
  return { path: result.path, status: resultStatus(result), document: result.document, url: resultUrl(result.path), ...file };
}

/** 201 for a job that created its document, else 200 (records written before `created` existed carry their status). */
function resultStatus(result: JobResult): number {
  return (result.created ?? (result as { status?: number }).status === 201) ? 201 : 200;
}

/** The status of the error's code, as the inline request answered it. */
function problemStatus(error: JobError): number {
  if (isErrorCode(error.code)) return errorStatus(error.code, error.inPath ? { inPath: true } : {});
  return (error as { status?: number }).status ?? 500;
}

/** The URL of a job's written document, from its model path ("/folder/name.pdf"). */
function resultUrl(path: string): string {
  return DOCUMENTS_PREFIX + path.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * Answers a request that became a job (jobPlan): after waiting up to
 * `plan.waitMs` for it, as the inline request would have been answered when
 * it has finished, else 202 Accepted with Location, Preference-Applied and
 * the job.
 */
export async function answerWithJob(request: FastifyRequest, reply: FastifyReply, jobs: JobOperationsApi, submitted: JobRecord, plan: { waitMs: number; applied?: string }): Promise<FastifyReply> {
  let job = submitted;
  if (plan.waitMs > 0) {
    job = await jobs.waitFor(job.id, plan.waitMs);
    // A job that produced a file answers it, as the inline request would have.
    if (job.state === 'succeeded' && job.result?.file) return sendJobResult(request, reply, jobs, job.id, 'attachment');
    if (sendJobOutcome(request, reply, job)) return reply;
  }
  reply.header('Location', jobUrl(job.id));
  if (plan.applied) reply.header('Preference-Applied', plan.applied);
  // An Accept naming only the result's type (a compare's application/pdf) admits no model: the job, not the
  // resource asked for, is answered as JSON rather than refusing a job already queued.
  if (!modelFormat(request.headers.accept)) return reply.code(202).header('Vary', 'Accept').type('application/json; charset=utf-8').send(jobView(job));
  return sendModel(request, reply, JOB_XML, jobView(job), 202);
}

/**
 * Answers a finished job as the inline request would have been answered (its
 * status and document model, or its problem); false while it has not finished.
 */
export function sendJobOutcome(request: FastifyRequest, reply: FastifyReply, job: JobRecord): boolean {
  if (job.state === 'succeeded' && job.result) {
    const document = job.result.document as { etag?: unknown };
    if (typeof document.etag === 'string') reply.header('ETag', document.etag);
    const status = resultStatus(job.result);
    if (status === 201) reply.header('Location', resultUrl(job.result.path!));
    sendModel(request, reply, { root: job.result.xmlRoot ?? 'Document' }, job.result.document, status);
    return true;
  }
  if ((job.state === 'failed' || job.state === 'cancelled') && job.error) {
    throw new ServiceError(job.error.code as ErrorCode, job.error.detail, job.error.extra, undefined, job.error.inPath ? { inPath: true } : {});
  }
  return false;
}

export function registerJobRoutes(api: Api, deps: AppDeps): void {
  const { jobs } = deps.operations;
  if (!jobs) return;

  api.get('/jobs', {
    config: { model: true },
    schema: {
      summary: 'List background jobs',
      description: "The caller's jobs, newest first (admins: everyone's, or one user's with ?owner=), optionally in one state.",
      tags: ['jobs'],
      querystring: jobListQuery,
      response: { 200: { type: 'object', properties: { jobs: { type: 'array', items: jobModelSchema } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner, state } = request.query;
    const list = await jobs.list(operationContext(request), { ...(owner ? { owner } : {}), ...(state ? { state } : {}) });
    return sendModel(request, reply, JOBS_XML, { jobs: list.map(jobView) });
  });

  api.get('/jobs/:id', {
    config: { model: true },
    schema: {
      summary: 'Get a background job',
      description: "Its state, progress and result or error. Another user's job is 404 JOB_NOT_FOUND.",
      tags: ['jobs'],
      params: jobIdParams,
      response: { 200: jobModelSchema, ...errorResponses },
    },
  }, async (request, reply) => sendModel(request, reply, JOB_XML, jobView(await jobs.get(request.params.id, operationContext(request)))));

  api.delete('/jobs/:id', {
    config: { model: true },
    schema: {
      summary: 'Cancel a background job',
      description: 'A queued or running job stops and writes nothing; the answer is the job. A job that has ended is 409 JOB_FINISHED.',
      tags: ['jobs'],
      params: jobIdParams,
      response: { 200: jobModelSchema, ...errorResponses },
    },
  }, async (request, reply) => sendModel(request, reply, JOB_XML, jobView(await jobs.cancel(request.params.id, operationContext(request)))));

  api.get('/jobs/:id/result', {
    schema: {
      summary: "Download a background job's result file",
      description:
        'A succeeded job that produced a file which is not a stored document (an export: its `result.file` says so) answers it here, with the ' +
        'media type and name its record gives (Content-Disposition: attachment, or inline with ?attachment=false), ETag, If-None-Match (304) and ' +
        'Range support, as long as the job is kept (PDFSERVICE_JOB_RETENTION_SECONDS). A job without one (running, failed, or one that wrote a ' +
        'document) is 404 JOB_RESULT_NOT_FOUND; another user\'s job is 404 JOB_NOT_FOUND.',
      tags: ['jobs'],
      params: jobIdParams,
      querystring: { type: 'object', properties: { attachment: { type: 'boolean', default: true, description: 'Content-Disposition: attachment (default) or inline' } } },
      response: {
        200: { description: 'The result file, in the media type of its record', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        206: { description: 'Part of the result file (Range)', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        304: { description: 'Not modified (If-None-Match)', type: 'null' },
        ...errorResponses,
      },
    },
  }, async (request, reply) => sendJobResult(request, reply, jobs, request.params.id, request.query.attachment === false ? 'inline' : 'attachment'));

  api.get('/jobs/:id/events', {
    schema: {
      summary: "Follow a background job's events",
      description: 'Server-Sent Events: `id: <seq>`, `event: state|progress|end`, `data: <job JSON>`; Last-Event-ID resumes; `: heartbeat` every 15 s; the stream ends after the end event.',
      tags: ['jobs'],
      params: jobIdParams,
      headers: { type: 'object', properties: { 'last-event-id': { type: 'string' } } },
      response: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: jobEventSchema } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const ctx = operationContext(request);
    // 404 for an unknown or another user's job before the stream starts.
    await jobs.get(request.params.id, ctx);
    const last = Number(request.headers['last-event-id']);
    const afterSeq = Number.isSafeInteger(last) && last >= 0 ? last : 0;
    const stop = new AbortController();
    const stream = new PassThrough();
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const close = () => {
      clearInterval(heartbeat);
      stop.abort();
    };
    request.raw.once('close', close);
    void (async () => {
      try {
        for await (const event of jobs.events(request.params.id, ctx, afterSeq, stop.signal)) {
          stream.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(jobView(event.job))}\n\n`);
          if (event.type === 'end') break;
        }
      } catch (err) {
        request.log.warn({ err }, 'job events stream failed');
      } finally {
        close();
        stream.end();
      }
    })();
    return reply
      .type('text/event-stream; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('X-Accel-Buffering', 'no')
      .send(stream);
  });
}
