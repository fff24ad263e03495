import type { FastifyReply } from 'fastify';
import type { OneShotOutput } from '../../operations/oneshot.js';
import { MAX_STEPS } from '../../operations/oneshot.js';
import type { Api, AppDeps } from '../context.js';
import { parseJsonPart, readMultipart } from '../multipart.js';
import { filePart, multipartBody } from '../openapi.js';
import { jobPlan, requestPreferences } from '../prefer.js';
import { contentDisposition } from '../reply.js';
import { operationContext } from '../request-context.js';
import { jobAcceptedResponse, preferHeader } from '../schemas/jobs.js';
import { actionStepSchema, documentPasswordHeader, errorResponses } from '../schemas/common.js';
import { officeOptionsOf, officeOptionsQuery } from '../schemas/office.js';
import { answerWithJob, sendJobOutcome } from './jobs.js';

/** The multipart part that carries the steps (docs/api.md, "One-shot conversions"). */
const STEPS_PART = 'steps';

/**
 * POST /convert: a one-shot conversion (docs/api.md, "One-shot conversions"). The multipart body's `file` (and a
 * bundle's `asset` parts) is converted by the converter its media type picks, then run through the actions of the
 * `steps` part (a JSON array of the bodies POST /documents/{filePath}.pdf takes, without savePath), and the result is
 * the answer's body. Nothing is stored. Prefer: respond-async (or an input larger than PDFSERVICE_JOB_ASYNC_BYTES)
 * makes it a job whose result is a file.
 */
export function registerConvertRoutes(api: Api, deps: AppDeps): void {
  const { actions, jobs, oneshot } = deps.operations;
  const step = actionStepSchema(actions.stepActions());

  api.post('/convert', {
    schema: {
      summary: 'Convert files in one request, nothing stored',
      description:
        'multipart/form-data: the file to convert in the part "file" (its media type, or its name for application/octet-stream, picks the converter: ' +
        'a PDF as it is, images, Office documents), a bundle\'s other files in parts named "asset", and in the part "steps" a JSON array of actions run ' +
        `in order on the result (each as POST /documents/{filePath}.pdf takes it, without savePath or namingMode; at most ${MAX_STEPS}); ` +
        'other file parts are the actions\' files (an image to stamp). The answer is the result (application/pdf). Nothing is written to the ' +
        'document store; the staged files are removed afterwards. Prefer: respond-async (or an input larger than PDFSERVICE_JOB_ASYNC_BYTES) ' +
        'runs it as a background job whose result is a file (202 and the Job). Needs the POST right.',
      tags: ['conversions'],
      querystring: { type: 'object', properties: officeOptionsQuery },
      headers: { type: 'object', properties: { ...documentPasswordHeader, ...(jobs ? preferHeader : {}) } },
      consumes: ['multipart/form-data'],
      bodyContent: multipartBody({
        file: filePart('The file to convert (PDF, JPEG, PNG, TIFF, GIF, or an Office document)'),
        steps: { type: 'array', maxItems: MAX_STEPS, items: step, description: 'The actions to run on the converted PDF, in order; none: the conversion alone' },
      }, ['file']),
      response: {
        200: { description: 'The result', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        ...(jobs ? jobAcceptedResponse : {}),
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const ctx = operationContext(request);
    const { fields, files } = await readMultipart(request, deps.operations.documents, {
      fileLimit: deps.config.maxUploadBytes,
      textLimit: deps.config.maxBodyBytes,
      textFields: [STEPS_PART],
    });
    let steps: unknown = [];
    let options;
    try {
      if (fields.has(STEPS_PART)) steps = parseJsonPart(fields.get(STEPS_PART)!, STEPS_PART);
      options = officeOptionsOf(request.query);
    } catch (err) {
      await Promise.all(files.map((f) => f.content.discard()));
      throw err;
    }
    // prepare answers every 4xx at once (and discards the files then); from here the prepared one-shot owns them.
    const prepared = await oneshot.prepare(files, steps, ctx, options);
    const plan = jobs ? jobPlan(requestPreferences(request.raw.headers), jobs.longByNature(prepared)) : null;
    if (jobs && plan) {
      let job = await jobs.submitOneShot(prepared, oneshot);
      if (plan.waitMs > 0) {
        job = await jobs.waitFor(job.id, plan.waitMs);
        // Ended in time: answered as the inline request would have been (the file, or its problem document).
        if (job.state === 'succeeded' && job.result?.file) return sendOutput(reply, await oneshot.resultOf(job.id, job.result.file));
        if (job.state !== 'succeeded') sendJobOutcome(request, reply, job);
      }
      return answerWithJob(request, reply, jobs, job, { waitMs: 0, ...(plan.applied ? { applied: plan.applied } : {}) });
    }
    return sendOutput(reply, await oneshot.execute(prepared));
  });
}

async function sendOutput(reply: FastifyReply, output: OneShotOutput): Promise<FastifyReply> {
  let stream;
  try {
    stream = await output.stream();
  } catch (err) {
    await output.discard();
    throw err;
  }
  // A client gone before or while the body is sent: the stream is destroyed, which removes the staged result (an
  // unread stream would otherwise never close).
  const gone = () => {
    if (!stream.destroyed) stream.destroy();
  };
  if (reply.raw.destroyed || reply.raw.writableEnded) gone();
  else reply.raw.once('close', gone);
  return reply
    .type(output.mediaType)
    .header('Content-Length', output.size)
    .header('Content-Disposition', contentDisposition('attachment', output.name))
    .header('Cache-Control', 'no-store')
    .send(stream);
}
