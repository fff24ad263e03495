import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../errors.js';
import type { ActionFile } from '../../operations/actions/types.js';
import { discardFileContent, type ActionResponse, type ActionTarget } from '../../operations/actions/runner.js';
import { contentDownload, sendDownload } from '../download.js';
import type { Api, AppDeps } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { parseJsonPart, readMultipart } from '../multipart.js';
import { jobPlan, requestPreferences } from '../prefer.js';
import { sendModel } from '../reply.js';
import { jobAcceptedResponse, preferHeader } from '../schemas/jobs.js';
import { answerWithJob } from './jobs.js';
import { handlerValidatesBody } from '../../validation.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { filePart, multipartBody } from '../openapi.js';
import { documentModelSchema, documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';

/** Names of the multipart part that carries the action JSON. */
const ACTION_PARTS = ['pageAction', 'action'] as const;

/**
 * The action body as the runner wants it: the parsed JSON object, an XML body
 * re-rooted under its root element (the action name), or the JSON part of a
 * multipart request with its other parts as files.
 */
async function actionBody(request: FastifyRequest, deps: AppDeps): Promise<{ body: unknown; files: ActionFile[] }> {
  if (request.isMultipart()) {
    const { fields, files } = await readMultipart(request, deps.operations.documents, {
      fileLimit: deps.config.maxUploadBytes,
      textLimit: deps.config.maxBodyBytes,
      textFields: ACTION_PARTS,
    });
    const given = ACTION_PARTS.filter((p) => fields.has(p));
    if (given.length !== 1) {
      await Promise.all(files.map((f) => f.content.discard()));
      // Both parts would leave one of two actions unread (and unchecked): refused rather than picking one.
      throw new ServiceError('MALFORMED_MULTIPART', given.length === 0
        ? 'The action JSON must be sent in a part named "pageAction" (or "action")'
        : 'The action JSON was sent in both a "pageAction" and an "action" part: send it in one of the two');
    }
    const part = given[0]!;
    try {
      return { body: parseJsonPart(fields.get(part)!, part), files };
    } catch (err) {
      await Promise.all(files.map((f) => f.content.discard()));
      throw err;
    }
  }
  const body = request.xmlRoot ? { [request.xmlRoot]: request.body } : request.body;
  return { body, files: [] };
}

export function registerActionRoutes(api: Api, deps: AppDeps): void {
  const { actions, jobs } = deps.operations;

  const register = (url: string, target: ActionTarget) => {
    const definitions = actions.actions(target);
    const body = {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      properties: Object.fromEntries(definitions.map((d) => [d.name, { ...d.schema, description: d.summary }])),
    } as const;
    // Actions that answer a model of their own (SplitDocumentAction) name it beside the DocumentModel.
    const models = definitions.flatMap((d) => (d.modelSchema ? [d.modelSchema] : []));
    const answer = models.length ? { anyOf: [documentModelSchema, ...models] } : documentModelSchema;
    api.post(url, {
      config: { model: true },
      schema: {
        summary: target === 'document' ? 'Run a document action' : 'Run a page action',
        description:
          'The body is an object with exactly one key, the action name, whose value holds its parameters; or multipart/form-data with that JSON ' +
          'in a part named "pageAction" and files in other parts. As XML, the root element is the action name. Writing actions replace the ' +
          'document unless savePath is given; namingMode decides clashes at savePath. Known actions: ' + definitions.map((d) => d.name).join(', ') + '.',
        tags: ['actions'],
        params: filePathParams,
        headers: { type: 'object', properties: { ...documentPasswordHeader, ...(jobs ? preferHeader : {}) } },
        body,
        consumes: ['application/json', 'application/xml', 'multipart/form-data'],
        bodyContent: {
          // The XML form is described in words: its root element is the action's name, which no one schema can say.
          'application/xml': { schema: { type: 'string', minLength: 1, description: 'The action as XML: the root element is the action name, its children the parameters' } },
          ...multipartBody({
            pageAction: { ...body, description: 'The action, as in a JSON body' },
            action: { ...body, description: 'Another name for the pageAction part: send one of the two (both is 400 MALFORMED_MULTIPART)' },
            file: filePart('A file the action uses (an image to stamp, pages to insert); other file parts are read the same way'),
          }, [], ACTION_PARTS),
        },
        response: { 200: answer, 201: documentModelSchema, ...(jobs ? jobAcceptedResponse : {}), ...errorResponses },
      },
      // The runner validates the body itself (it also reads XML and multipart bodies); Fastify checks the path and headers.
      validatorCompiler: handlerValidatesBody,
    }, async (request, reply) => {
      const path = documentPathParam(request);
      const { body, files } = await actionBody(request, deps);
      // prepare answers every 4xx at once (and discards the files then); from here the prepared action owns them.
      const prepared = await actions.prepare(path, body, target, files, operationContext(request));
      const plan = jobs ? jobPlan(requestPreferences(request.raw.headers), jobs.longByNature(prepared)) : null;
      if (jobs && plan) return answerWithJob(request, reply, jobs, await jobs.submit(prepared), plan);
      const result = await actions.execute(prepared);
      if (result.kind === 'model') return sendModel(request, reply, { root: result.xmlRoot }, result.model);
      if (result.kind === 'file') return sendActionFile(request, reply, result);
      reply.header('ETag', result.model.etag);
      if (result.location) reply.header('Location', documentUrl(result.location));
      return sendModel(request, reply, { root: 'Document' }, result.model, result.created ? 201 : 200);
    });
  };
  register('/documents/:filePath.pdf', 'document');
  register('/documents/:filePath.pdf/pages', 'pages');
}

/**
 * An action's file answer (an export, not stored): the file itself, as a download of its own content (ETag of its
 * bytes, its name); staged content is discarded once the answer is sent or refused.
 */
async function sendActionFile(request: FastifyRequest, reply: FastifyReply, result: Extract<ActionResponse, { kind: 'file' }>): Promise<FastifyReply> {
  const discard = () => void discardFileContent(result.content).catch(() => {});
  try {
    // No 406 here: Accept was checked for the route's models before the work, and the file is what the work made.
    const content = await contentDownload(result.content);
    reply.raw.once('close', discard);
    return await sendDownload(request, reply, content, { mediaType: result.mediaType, fileName: result.name, disposition: 'attachment' });
  } catch (err) {
    discard();
    throw err;
  }
}
