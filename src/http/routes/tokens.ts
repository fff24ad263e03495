import { TOKEN_NAME_MAX } from '../../auth/tokens.js';
import { RIGHTS, type TokenView } from '../../auth/types.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { authenticateOnly } from '../plugins/auth.js';
import { sendModel } from '../reply.js';
import { requireXmlRoot } from '../xml.js';
import { errorResponses, XML_TEXT_PATTERN } from '../schemas/common.js';

const TOKEN_XML = { root: 'Token', items: { rights: 'right' } };
const TOKENS_XML = { root: 'Tokens', flatten: 'tokens', items: { tokens: 'Token', rights: 'right' } };
const BODY_TYPES = ['application/json', 'application/xml', 'text/xml'];
/** Longest lifetime a client may ask for with expiresInSeconds: ten years. */
const MAX_LIFETIME_SECONDS = 10 * 366 * 86400;

const tokenProperties = {
  id: { type: 'string', description: 'The token\'s id: the 16 hex digits after "pdfs_" in the token itself; not a secret' },
  name: { type: 'string', description: 'What the token is for, as given at creation' },
  rights: {
    type: ['array', 'null'],
    items: { type: 'string', enum: [...RIGHTS] },
    description: 'The rights the token is limited to; null: all of its user\'s rights. Either way only rights the user still has apply',
  },
  createdAt: { type: 'string', format: 'date-time', description: 'When the token was created' },
  expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'When the token stops working (401 TOKEN_EXPIRED); null: never' },
  lastUsedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the token was last used (recorded within a minute); null: never used' },
} as const;

const tokenModelSchema = {
  type: 'object',
  description: 'TokenModel (XML: <Token>): an API token without its secret.',
  properties: tokenProperties,
  required: ['id', 'name', 'rights', 'createdAt', 'expiresAt', 'lastUsedAt'],
} as const;

const createdTokenSchema = {
  type: 'object',
  description: 'The TokenModel and, once only, the secret token to send as Authorization: Bearer <token>.',
  properties: {
    token: { type: 'string', description: 'The API token (pdfs_…). It is shown only in this answer; the service keeps only a hash of it' },
    ...tokenProperties,
  },
  required: ['token', 'id', 'name', 'rights', 'createdAt', 'expiresAt', 'lastUsedAt'],
} as const;

const tokensModelSchema = {
  type: 'object',
  description: 'TokensModel (XML: <Tokens> holding one <Token> each): the caller\'s API tokens, oldest first.',
  properties: { tokens: { type: 'array', items: tokenModelSchema, description: 'The caller\'s tokens' } },
  required: ['tokens'],
} as const;

const idParams = {
  type: 'object',
  properties: { id: { type: 'string', description: 'The token\'s id (from the list, or the 16 hex digits after "pdfs_")' } },
  required: ['id'],
} as const;

function locationOf(id: string): string {
  return `/pdfservice/v1/tokens/${encodeURIComponent(id)}`;
}

/** When a new token expires: an instant, a lifetime, or never; not both. */
function expiryOf(body: { expiresAt?: string; expiresInSeconds?: number }): Date | undefined {
  if (body.expiresAt !== undefined && body.expiresInSeconds !== undefined) {
    throw new ServiceError('VALIDATION_FAILED', 'Give expiresAt or expiresInSeconds, not both');
  }
  if (body.expiresInSeconds !== undefined) return new Date(Date.now() + body.expiresInSeconds * 1000);
  if (body.expiresAt === undefined) return undefined;
  const at = new Date(body.expiresAt);
  if (Number.isNaN(at.getTime())) throw new ServiceError('VALIDATION_FAILED', 'expiresAt must be a date-time such as 2030-01-31T00:00:00Z');
  return at;
}

/**
 * API tokens for scripts: each user manages their own (any logged-in user,
 * whatever their rights, like logging out). Routes are `public` to the global
 * hook and authenticate themselves, accepting any user.
 */
export function registerTokenRoutes(api: Api, deps: AppDeps): void {
  const tokens = deps.auth.tokens;
  const anyUser = { config: { public: true, model: true }, onRequest: authenticateOnly(deps.auth, deps.config.corsOrigins) };

  api.post('/tokens', {
    ...anyUser,
    schema: {
      summary: 'Create an API token',
      description:
        '201 with Location and the new token\'s secret, shown this once: send it as Authorization: Bearer <token>. It acts as you, ' +
        'with your rights or the subset named in "rights" (a right you lack is 403), intersected with your rights at each request. ' +
        'API tokens cannot create tokens (403): log in with your password. At most 100 tokens per user. Body as JSON or XML <Token>.',
      tags: ['tokens'],
      consumes: BODY_TYPES,
      xmlRoot: TOKEN_XML.root,
      body: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: TOKEN_NAME_MAX, pattern: XML_TEXT_PATTERN, description: 'What the token is for (e.g. "nightly backup"; no control characters but tab, LF and CR)' },
          expiresAt: { type: 'string', format: 'date-time', description: 'When the token stops working; leave out (and expiresInSeconds) for a token that does not expire' },
          expiresInSeconds: { type: 'integer', minimum: 1, maximum: MAX_LIFETIME_SECONDS, description: 'Lifetime from now, instead of expiresAt' },
          rights: {
            type: 'array',
            minItems: 1,
            items: { type: 'string', enum: [...RIGHTS] },
            description: 'Limit the token to these of your rights; leave out for all of your rights, whatever they are at each request',
          },
        },
        required: ['name'],
        // expiresAt or expiresInSeconds, not both: said in the schema so that clients and the description know it too.
        not: { type: 'object', properties: { expiresAt: {}, expiresInSeconds: {} }, required: ['expiresAt', 'expiresInSeconds'] },
        additionalProperties: false,
      },
      response: { 201: createdTokenSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'Token');
    const body = request.body;
    const expiresAt = expiryOf(body);
    const { token, view } = await tokens.create(request.principal!, {
      name: body.name,
      ...(expiresAt ? { expiresAt } : {}),
      ...(body.rights ? { rights: body.rights } : {}),
    });
    reply.header('Location', locationOf(view.id)).header('Cache-Control', 'no-store');
    return sendModel(request, reply, TOKEN_XML, { token, ...view }, 201);
  });

  api.get('/tokens', {
    ...anyUser,
    schema: {
      summary: 'List your API tokens',
      description: 'Your own tokens, without their secrets, oldest first.',
      tags: ['tokens'],
      response: { 200: tokensModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const list: TokenView[] = await tokens.list(request.principal!.username);
    return sendModel(request, reply, TOKENS_XML, { tokens: list });
  });

  api.get('/tokens/:id', {
    ...anyUser,
    schema: {
      summary: 'Get one of your API tokens',
      description: 'Without its secret. Another user\'s token is 404 TOKEN_NOT_FOUND.',
      tags: ['tokens'],
      params: idParams,
      response: { 200: tokenModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    return sendModel(request, reply, TOKEN_XML, await tokens.get(request.principal!.username, id));
  });

  api.delete('/tokens/:id', {
    ...anyUser,
    config: { public: true },
    schema: {
      summary: 'Revoke one of your API tokens',
      description: '204; the token stops working at once. Another user\'s token is 404 TOKEN_NOT_FOUND. A token may revoke itself.',
      tags: ['tokens'],
      params: idParams,
      response: { 204: { description: 'Revoked', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    await tokens.revoke(request.principal!.username, id);
    return reply.code(204).send();
  });
}
