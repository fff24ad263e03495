import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { requireXmlRoot } from '../xml.js';
import type { WatchBody } from '../../operations/watched/watched.js';
import { operationContext } from '../request-context.js';
import { errorResponses } from '../schemas/common.js';
import { WATCH_XML, WATCHES_XML, watchesModelSchema, watchModelSchema, watchNameParams, watchOwnerQuery, watchRequestSchema } from '../schemas/watched-folders.js';

const BODY_TYPES = ['application/json', 'application/xml', 'text/xml'];
const RIGHTS_NOTE =
  'A watched folder belongs to the user who bound it, and its runs go as that user (GET, POST and PUT are needed at bind and at each run); ' +
  'an admin reads and deletes others\' with ?owner=. See docs/watched-folders.md.';

/**
 * Watched folders (docs/watched-folders.md): a folder bound to a pipeline, each document arriving in it run once. The
 * binding is a resource of its own, beside pipelines; its runs are jobs (GET /jobs) and are listed on its GET.
 */
export function registerWatchedFolderRoutes(api: Api, deps: AppDeps): void {
  const { watched } = deps.operations;
  const model = { config: { model: true } };

  api.get('/watched-folders', {
    ...model,
    schema: {
      summary: 'List watched folders',
      description: `The caller's watched folders by name (an admin: ?owner='s), each with its newest runs. ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      querystring: { type: 'object', properties: watchOwnerQuery, additionalProperties: false },
      response: { 200: watchesModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner } = request.query as { owner?: string };
    return sendModel(request, reply, WATCHES_XML, { watchedFolders: await watched.list(operationContext(request), owner) });
  });

  api.get('/watched-folders/:watchName', {
    ...model,
    schema: {
      summary: 'Get a watched folder and its recent runs',
      description: `The binding and its newest runs, newest first (document, version, job, state, times, output, the last problem). 404 WATCHED_FOLDER_NOT_FOUND. ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      params: watchNameParams,
      querystring: { type: 'object', properties: watchOwnerQuery, additionalProperties: false },
      response: { 200: watchModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner } = request.query as { owner?: string };
    return sendModel(request, reply, WATCH_XML, await watched.get(operationContext(request), request.params.watchName, owner));
  });

  api.put('/watched-folders/:watchName', {
    ...model,
    schema: {
      summary: 'Bind a folder to a pipeline',
      description:
        '201 with Location when made, 200 when bound again (its runs kept). From then on every document arriving in the folder (any upload or ' +
        'conversion, a copy, a restore from the trash) runs the pipeline once as a job, as the caller. 404 PIPELINE_NOT_FOUND, 404 FOLDER_NOT_FOUND; ' +
        `400 WATCH_CYCLE when outputs would arrive again for ever. Body as JSON or XML <WatchedFolder>. ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      params: watchNameParams,
      consumes: BODY_TYPES,
      xmlRoot: WATCH_XML.root,
      body: watchRequestSchema,
      response: { 200: watchModelSchema, 201: watchModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, WATCH_XML.root);
    const { view, created } = await watched.put(operationContext(request), request.params.watchName, request.body as WatchBody);
    if (created) reply.header('Location', `/pdfservice/v1/watched-folders/${encodeURIComponent(view.name)}`);
    return sendModel(request, reply, WATCH_XML, view, created ? 201 : 200);
  });

  api.delete('/watched-folders/:watchName', {
    schema: {
      summary: 'Unbind a watched folder',
      description: `204: nothing arriving runs any more; its runs' records go with it (their jobs stay in GET /jobs). ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      params: watchNameParams,
      querystring: { type: 'object', properties: watchOwnerQuery, additionalProperties: false },
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner } = request.query as { owner?: string };
    await watched.delete(operationContext(request), request.params.watchName, owner);
    return reply.code(204).send();
  });
}
