import type { FastifyReply, FastifyRequest } from 'fastify';
import { noneMatch } from '../conditional.js';
import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { requireXmlRoot } from '../xml.js';
import { compileValidator, handlerValidatesBody, markTextSourced } from '../../validation.js';
import { stepProblem, type PipelineBody, type PipelineView } from '../../operations/pipelines/pipelines.js';
import { ServiceError } from '../../errors.js';
import { operationContext } from '../request-context.js';
import { actionStepSchema, errorResponses } from '../schemas/common.js';
import { ownerQuery, PIPELINE_XML, pipelineBodyShape, pipelineModelSchema, pipelineNameParams, pipelineRequestSchema, PIPELINES_XML, pipelinesModelSchema } from '../schemas/pipelines.js';

const BODY_TYPES = ['application/json', 'application/xml', 'text/xml'];
const RIGHTS_NOTE =
  'A pipeline belongs to the user who saved it; others see it only when an admin shared it. The request needs its method\'s right (GET, PUT, DELETE). ' +
  'See docs/pipelines.md.';

/** The body's shape, checked here: the route's schema describes every action a step may be, which only the actions check (ActionRunner). */
const validBody = compileValidator<PipelineBody>(pipelineBodyShape, 'body');

function locationOf(view: PipelineView, owner: string | undefined): string {
  return `/pdfservice/v1/pipelines/${encodeURIComponent(view.name)}${owner !== undefined ? `?owner=${encodeURIComponent(owner)}` : ''}`;
}

function send(request: FastifyRequest, reply: FastifyReply, view: PipelineView, status = 200): FastifyReply {
  reply.header('ETag', view.etag);
  return sendModel(request, reply, PIPELINE_XML, view, status);
}

/**
 * The pipelines resource (docs/pipelines.md): named, versioned lists of action steps, kept per user. Running one is
 * an action on a document, PipelineAction (routes/actions.ts), so that it is a job, honours Prefer and If-Match and
 * writes as every action does.
 */
export function registerPipelineRoutes(api: Api, deps: AppDeps): void {
  const { pipelines, actions } = deps.operations;
  const model = { config: { model: true } };
  const step = actionStepSchema(actions.stepActions());

  api.get('/pipelines', {
    ...model,
    schema: {
      summary: 'List pipelines',
      description: `The newest version of the caller's pipelines and of those shared with every user, by owner and name; ?owner= lists one user's (shared ones, or all of them for an admin). ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      querystring: { type: 'object', properties: ownerQuery, additionalProperties: false },
      response: { 200: pipelinesModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner } = request.query as { owner?: string };
    return sendModel(request, reply, PIPELINES_XML, { pipelines: await pipelines.list(operationContext(request), owner) });
  });

  api.get('/pipelines/:pipelineName', {
    ...model,
    schema: {
      summary: 'Get a pipeline',
      description: `The newest version, or ?version=N; ETag names the version (If-None-Match: 304). 404 PIPELINE_NOT_FOUND when there is none the caller may see. ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      params: pipelineNameParams,
      querystring: { type: 'object', properties: { ...ownerQuery, version: { type: 'integer', minimum: 1, description: 'An older version (they are kept: docs/pipelines.md)' } }, additionalProperties: false },
      response: { 200: pipelineModelSchema, 304: { description: 'Not modified', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner, version } = request.query as { owner?: string; version?: number };
    const view = await pipelines.get(operationContext(request), request.params.pipelineName, owner, version);
    if (noneMatch(request.headers['if-none-match'], view.etag)) return reply.code(304).header('ETag', view.etag).send();
    return send(request, reply, view);
  });

  api.put('/pipelines/:pipelineName', {
    ...model,
    schema: {
      summary: 'Save a pipeline (a new version)',
      description:
        'Every PUT saves a new version: 201 with Location for the first, 200 after; the answer is the version as stored (every step\'s defaults filled ' +
        'in) with its ETag. Each step is checked by its action: 400 PIPELINE_STEP_INVALID names the first refused step and carries the action\'s own ' +
        'problem. If-Match must name the newest version (412 otherwise), If-None-Match: * that there is none. shared: true needs the admin right. ' +
        `Body as JSON or XML <Pipeline>. ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      params: pipelineNameParams,
      querystring: { type: 'object', properties: ownerQuery, additionalProperties: false },
      consumes: BODY_TYPES,
      xmlRoot: PIPELINE_XML.root,
      body: pipelineRequestSchema(step),
      response: { 200: pipelineModelSchema, 201: pipelineModelSchema, ...errorResponses },
    },
    validatorCompiler: handlerValidatesBody,
  }, async (request, reply) => {
    requireXmlRoot(request, PIPELINE_XML.root);
    const body = validBody(request.body);
    // An XML body's values are text: each step's parameters are then converted to their action's types, as an action posted as XML is.
    if (request.xmlRoot !== null) for (const item of body.steps) for (const params of Object.values(item as object)) markTextSourced(params);
    // A JSON step's parameters are an object, as the API description says ({} for none); the runner's leniency for
    // an empty XML element ('') is not JSON's null.
    else for (const [index, item] of body.steps.entries()) {
      const [name, params] = Object.entries(item as object)[0] ?? [];
      if (name !== undefined && params === null) throw stepProblem('PIPELINE_STEP_INVALID', index, name, new ServiceError('VALIDATION_FAILED', `${name}'s parameters must be an object ({} for none), not null`));
    }
    const { owner } = request.query as { owner?: string };
    const { view, created } = await pipelines.put(operationContext(request), request.params.pipelineName, body, request.headers['if-none-match'], owner);
    if (created) reply.header('Location', locationOf(view, owner));
    return send(request, reply, view, created ? 201 : 200);
  });

  api.delete('/pipelines/:pipelineName', {
    schema: {
      summary: 'Delete a pipeline',
      description: `204: the pipeline and every version of it are gone. If-Match must name the newest version (412 otherwise). Its owner or an admin. ${RIGHTS_NOTE}`,
      tags: ['pipelines'],
      params: pipelineNameParams,
      querystring: { type: 'object', properties: ownerQuery, additionalProperties: false },
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner } = request.query as { owner?: string };
    await pipelines.delete(operationContext(request), request.params.pipelineName, owner);
    return reply.code(204).send();
  });
}
