const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;

/** The job model as clients see it (the record without its internal payload): docs/jobs.md. */
export const jobModelSchema = {
  title: 'Job',
  type: 'object',
  description: 'A background job (docs/jobs.md)',
  required: ['id', 'action', 'document', 'owner', 'state', 'progress', 'created'],
  properties: {
    id: { type: 'string' },
    action: { type: 'string', description: "The action's name" },
    document: { type: 'string', description: 'The document it works on, as folder/name.pdf' },
    base: { type: 'string', description: "A compare's base, as folder/name.pdf (the document itself when two of its versions are compared)" },
    owner: { type: ['string', 'null'] },
    state: { type: 'string', enum: JOB_STATES },
    progress: {
      type: 'object',
      required: ['done', 'unit', 'percent'],
      properties: {
        done: { type: 'integer', minimum: 0 },
        total: { type: 'integer', minimum: 0 },
        unit: { type: 'string' },
        percent: { type: 'integer', minimum: 0, maximum: 100, description: 'Never lower than an earlier report' },
        phase: { type: 'string' },
        step: {
          type: 'object',
          description: 'A pipeline\'s job (docs/pipelines.md): the step running, from 1, of count, and its action; done, total and unit are that step\'s own progress, percent the whole pipeline\'s',
          required: ['index', 'count', 'action'],
          properties: { index: { type: 'integer', minimum: 1 }, count: { type: 'integer', minimum: 1 }, action: { type: 'string' } },
        },
      },
    },
    created: { type: 'string', format: 'date-time' },
    started: { type: 'string', format: 'date-time' },
    finished: { type: 'string', format: 'date-time' },
    position: { type: 'integer', minimum: -1, description: "A queued job's place in the queue (0: next)" },
    reason: { type: 'string', description: 'Why the job was interrupted' },
    result: {
      type: 'object',
      description: 'A succeeded job: the written document and the status the inline request would have answered, or the file it produced (an export, a compare: with the document it was read from; a one-shot conversion: no path, no document)',
      properties: {
        path: { type: 'string' },
        url: { type: 'string', description: "The written document's URL" },
        status: { type: 'integer' },
        document: { type: 'object', additionalProperties: true, description: 'The written document\'s DocumentModel (or the model the action answers)' },
        file: {
          type: 'object',
          description: 'The job produced a file that is not a stored document (an export, a compare, a one-shot conversion): download it from `url` (GET /jobs/{id}/result) while the job is kept. `path`, `url` and `document` then name the document it was read from, unchanged (`document.etag`: the version read; a compare\'s other document is the job\'s `base`); a one-shot conversion has neither',
          required: ['name', 'mediaType', 'size', 'etag', 'url'],
          properties: {
            name: { type: 'string', description: 'The name it downloads under (Content-Disposition)' },
            mediaType: { type: 'string' },
            size: { type: 'integer' },
            etag: { type: 'string', description: 'Its strong ETag, as the download answers it' },
            url: { type: 'string', description: 'Where to download it: /pdfservice/v1/jobs/{id}/result' },
          },
        },
      },
    },
    webhook: {
      type: 'object',
      description: 'The URL the job\'s end is POSTed to (X-Service-Webhook-Url, docs/webhooks.md) and the delivery log; not in the webhook\'s own body',
      required: ['url', 'state', 'deliveries'],
      properties: {
        url: { type: 'string' },
        state: { type: 'string', enum: ['pending', 'delivered', 'failed'], description: 'pending until an attempt is answered 2xx (delivered) or the last attempt failed (failed)' },
        deliveries: {
          type: 'array',
          description: 'Each attempt, oldest first',
          items: {
            type: 'object',
            required: ['attempt', 'at'],
            properties: {
              attempt: { type: 'integer', minimum: 1 },
              at: { type: 'string', format: 'date-time' },
              status: { type: 'integer', description: 'The receiver\'s HTTP status, when it answered (2xx: delivered; a redirect is not followed)' },
              error: { type: 'string', description: 'Why the attempt had no answer (refused, unreachable, timed out)' },
            },
          },
        },
      },
    },
    error: {
      type: 'object',
      description: 'A failed or cancelled job: the problem the inline request would have answered (docs/errors.md)',
      required: ['status', 'code', 'title'],
      properties: { status: { type: 'integer' }, code: { type: 'string' }, title: { type: 'string' }, detail: { type: 'string' } },
      // The problem's extension members, as the inline answer has them (PDFA_CONVERSION_FAILED's report, say).
      additionalProperties: true,
    },
  },
} as const;

export const jobListSchema = { type: 'array', items: jobModelSchema } as const;

export const jobIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const jobListQuery = {
  type: 'object',
  properties: {
    owner: { type: 'string', minLength: 1, description: "Admins only: that user's jobs (others see only their own)" },
    state: { type: 'string', enum: JOB_STATES, description: 'Only jobs in this state' },
  },
} as const;

export const preferHeader = {
  prefer: {
    type: 'string',
    description: 'RFC 7240: respond-async runs the action as a background job: 202 Accepted, Location and the Job (see GET /jobs/{id}); wait=N waits up to N seconds for it first (docs/jobs.md)',
  },
  'x-service-webhook-url': {
    type: 'string',
    minLength: 1,
    maxLength: 2048,
    description: 'An http(s) URL the job\'s end is POSTed to, signed (Standard Webhooks): the request runs as a background job, as with Prefer: respond-async. It must be on PDFSERVICE_WEBHOOK_ALLOWLIST, else 400 WEBHOOK_URL_REFUSED (docs/webhooks.md)',
  },
} as const;

/** The 202 of a request that became a background job (docs/jobs.md), for the routes that can answer it. */
export const jobAcceptedResponse = {
  202: {
    ...jobModelSchema,
    description: 'Accepted: the work runs as a background job (Prefer: respond-async, or work that is long by nature); Location names the job',
  },
} as const;
