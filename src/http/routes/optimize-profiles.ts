import type { FastifyRequest } from 'fastify';
import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { requireXmlRoot } from '../xml.js';
import { errorResponses } from '../schemas/common.js';
import { PROFILE_XML, PROFILES_XML, profileModelSchema, profileNameParams, profileRequestSchema, profilesModelSchema } from '../schemas/optimize-profiles.js';

const BODY_TYPES = ['application/json', 'application/xml', 'text/xml'];
const RIGHTS_NOTE = 'Profiles are shared by all users; the request needs its method\'s right (GET, PUT, DELETE), as for documents.';

const HANDLERS = ['colorImageHandler', 'grayImageHandler', 'bwImageHandler'] as const;

/**
 * In XML an image handler with every field left to its default is an empty element, which the XML reader
 * gives as "" (it cannot tell an empty object from an empty string): read it as the empty object it is.
 */
async function emptyXmlHandlers(request: FastifyRequest): Promise<void> {
  if (request.xmlRoot === null || typeof request.body !== 'object' || request.body === null) return;
  const body = request.body as Record<string, unknown>;
  for (const handler of HANDLERS) if (body[handler] === '') body[handler] = {};
}

function locationOf(name: string): string {
  return `/pdfservice/v1/optimize-profiles/${encodeURIComponent(name)}`;
}

/** The optimize profiles resource (docs/optimize.md): what OptimizeAction's profileName names. */
export function registerOptimizeProfileRoutes(api: Api, deps: AppDeps): void {
  const profiles = deps.operations.optimizeProfiles;
  const model = { config: { model: true } };

  api.get('/optimize-profiles', {
    ...model,
    schema: {
      summary: 'List optimize profiles',
      description: `The built-in profiles (screen, ebook, printer, prepress, lossless), then the user-defined ones by name. ${RIGHTS_NOTE}`,
      tags: ['optimize'],
      response: { 200: profilesModelSchema, ...errorResponses },
    },
  }, async (request, reply) => sendModel(request, reply, PROFILES_XML, { profiles: await profiles.list() }));

  api.get('/optimize-profiles/:profileName', {
    ...model,
    schema: {
      summary: 'Get an optimize profile',
      description: `404 PROFILE_NOT_FOUND when there is none of that name. ${RIGHTS_NOTE}`,
      tags: ['optimize'],
      params: profileNameParams,
      response: { 200: profileModelSchema, ...errorResponses },
    },
  }, async (request, reply) => sendModel(request, reply, PROFILE_XML, await profiles.get(request.params.profileName)));

  api.put('/optimize-profiles/:profileName', {
    ...model,
    preValidation: emptyXmlHandlers,
    schema: {
      summary: 'Create or replace an optimize profile',
      description:
        '201 with Location when created, 200 when replaced; the answer is the profile with every default filled in. Built-in profiles cannot be ' +
        `replaced (409 PROFILE_READ_ONLY). Body as JSON or XML <OptimizeProfile>. ${RIGHTS_NOTE}`,
      tags: ['optimize'],
      params: profileNameParams,
      consumes: BODY_TYPES,
      xmlRoot: PROFILE_XML.root,
      body: profileRequestSchema,
      response: { 200: profileModelSchema, 201: profileModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, PROFILE_XML.root);
    const { profile, created } = await profiles.put(request.params.profileName, request.body);
    if (created) reply.header('Location', locationOf(profile.name));
    return sendModel(request, reply, PROFILE_XML, profile, created ? 201 : 200);
  });

  api.delete('/optimize-profiles/:profileName', {
    schema: {
      summary: 'Delete an optimize profile',
      description: `204; 404 PROFILE_NOT_FOUND when there is none; built-in profiles cannot be deleted (409 PROFILE_READ_ONLY). ${RIGHTS_NOTE}`,
      tags: ['optimize'],
      params: profileNameParams,
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await profiles.delete(request.params.profileName);
    return reply.code(204).send();
  });
}
