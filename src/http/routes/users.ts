import { RIGHTS, type UserView } from '../../auth/types.js';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN } from '../../auth/users.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { requireXmlRoot } from '../xml.js';
import { errorResponses, XML_TEXT_PATTERN } from '../schemas/common.js';

const USER_XML = { root: 'User', items: { rights: 'right' } };
const BODY_TYPES = ['application/json', 'application/xml', 'text/xml'];
const USERS_XML = { root: 'Users', flatten: 'users', items: { users: 'User', rights: 'right' } };

const rightsSchema = {
  type: 'array',
  minItems: 1,
  items: { type: 'string', enum: [...RIGHTS] },
  description: 'HTTP methods the user may use (HEAD goes with GET), plus "admin" for user management. Duplicates are ignored.',
} as const;

const passwordSchema = {
  type: 'string',
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  pattern: XML_TEXT_PATTERN,
  description: `The password, ${PASSWORD_MIN} to ${PASSWORD_MAX} characters, no control characters but tab, LF and CR; stored only as a scrypt hash`,
} as const;

const userModelSchema = {
  title: 'UserModel',
  type: 'object',
  description: 'UserModel (XML: <User>, rights as <rights><right>…</right></rights>). Passwords are never returned.',
  properties: {
    username: { type: 'string', description: 'User name' },
    rights: { type: 'array', items: { type: 'string', enum: [...RIGHTS] }, description: 'The user\'s rights' },
    createdAt: { type: 'string', format: 'date-time', description: 'When the user was created' },
    updatedAt: { type: 'string', format: 'date-time', description: 'When the password or rights last changed' },
  },
  required: ['username', 'rights', 'createdAt', 'updatedAt'],
} as const;

const usersModelSchema = {
  title: 'UsersModel',
  type: 'object',
  description: 'UsersModel (XML: <Users> holding one <User> per user), sorted by name.',
  properties: { users: { type: 'array', items: userModelSchema, description: 'Every user' } },
  required: ['users'],
} as const;

const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string', description: 'User name' } },
  required: ['username'],
} as const;

const DMS_ACCOUNT_XML = { root: 'DmsAccount' };
const WEBHOOK_SECRET_XML = { root: 'WebhookSecret' };

const webhookSecretSchema = {
  title: 'WebhookSecretModel',
  type: 'object',
  description: 'WebhookSecretModel (XML: <WebhookSecret>): the secret the user\'s webhooks are signed with (docs/webhooks.md)',
  properties: { secret: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$', description: 'whsec_ and the key in base64, as Standard Webhooks libraries take it' } },
  required: ['secret'],
} as const;

const dmsAccountModelSchema = {
  title: 'DmsAccountModel',
  type: 'object',
  description: 'DmsAccountModel (XML: <DmsAccount>): the DMS account a service user acts as. The password is never returned.',
  properties: {
    username: { type: 'string', description: 'The DMS user name' },
    updatedAt: { type: 'string', format: 'date-time', description: 'When the account was last set' },
  },
  required: ['username', 'updatedAt'],
} as const;

/** The service's users may act as a DMS account only when the WebDAV store maps them (docs/dms.md). */
function mappedAccounts(deps: AppDeps) {
  if (!deps.dmsAccounts) {
    throw new ServiceError('DMS_ACCOUNTS_NOT_USED', 'DMS accounts are mapped only with PDFSERVICE_STORE=webdav and PDFSERVICE_WEBDAV_AUTH=mapped');
  }
  return deps.dmsAccounts;
}

function locationOf(username: string): string {
  return `/pdfservice/v1/users/${encodeURIComponent(username)}`;
}

/**
 * User management, for users with the admin right. Besides the rules the user
 * service keeps for everyone (the last admin stays), an admin cannot delete
 * their own user or take away their own admin right over HTTP, so nobody locks
 * themself out by a slip; another admin or the CLI can.
 */
export function registerUserRoutes(api: Api, deps: AppDeps): void {
  const users = deps.auth.users;
  const admin = { config: { right: 'admin' as const, model: true } };

  api.get('/users', {
    ...admin,
    schema: { summary: 'List users', tags: ['users'], response: { 200: usersModelSchema, ...errorResponses } },
  }, async (request, reply) => {
    return sendModel(request, reply, USERS_XML, { users: await users.list() });
  });

  api.post('/users', {
    ...admin,
    schema: {
      summary: 'Create a user',
      description: '201 with Location and the UserModel; 409 ALREADY_EXISTS when the name is taken. Body as JSON or XML <User>.',
      tags: ['users'],
      consumes: BODY_TYPES,
      xmlRoot: 'User',
      body: {
        type: 'object',
        properties: {
          username: {
            type: 'string',
            pattern: USERNAME_PATTERN,
            description: '1 to 64 characters among A-Z a-z 0-9 . _ @ -, not starting with "."; case-sensitive',
          },
          password: passwordSchema,
          rights: rightsSchema,
        },
        required: ['username', 'password', 'rights'],
        additionalProperties: false,
      },
      response: { 201: userModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'User');
    const user = await users.create(request.body);
    reply.header('Location', locationOf(user.username));
    return sendModel(request, reply, USER_XML, user, 201);
  });

  api.get('/users/:username', {
    ...admin,
    schema: { summary: 'Get a user', tags: ['users'], params: usernameParams, response: { 200: userModelSchema, ...errorResponses } },
  }, async (request, reply) => {
    const { username } = request.params;
    return sendModel(request, reply, USER_XML, await users.get(username));
  });

  api.patch('/users/:username', {
    ...admin,
    schema: {
      summary: 'Change a user\'s password or rights',
      description:
        'Either or both. A new password ends the user\'s sessions; new rights apply from their next request. ' +
        'You cannot remove your own admin right, and the last admin keeps it (400 BAD_REQUEST).',
      tags: ['users'],
      params: usernameParams,
      consumes: BODY_TYPES,
      xmlRoot: 'User',
      body: {
        type: 'object',
        properties: { password: passwordSchema, rights: rightsSchema },
        minProperties: 1,
        additionalProperties: false,
      },
      response: { 200: userModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'User');
    const { username } = request.params;
    const changes = request.body;
    if (username === request.principal!.username && changes.rights && !changes.rights.includes('admin')) {
      throw new ServiceError('BAD_REQUEST', 'You cannot remove your own admin right; another admin can');
    }
    const user: UserView = await users.update(username, changes);
    return sendModel(request, reply, USER_XML, user);
  });

  api.delete('/users/:username', {
    config: { right: 'admin' },
    schema: {
      summary: 'Delete a user',
      description: 'Ends the user\'s sessions at once. You cannot delete yourself, and the last admin stays (400 BAD_REQUEST).',
      tags: ['users'],
      params: usernameParams,
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const { username } = request.params;
    if (username === request.principal!.username) {
      throw new ServiceError('BAD_REQUEST', 'You cannot delete your own user; another admin can');
    }
    await users.remove(username);
    return reply.code(204).send();
  });

  api.put('/users/:username/dms-account', {
    ...admin,
    schema: {
      summary: 'Map a user to a DMS account',
      description:
        'With PDFSERVICE_WEBDAV_AUTH=mapped: the user acts at the document server as this account (sessions, HTTP Basic and API tokens alike). ' +
        'The DMS is asked first: 422 DMS_ACCOUNT_REJECTED when it refuses the name and password, 503 DMS_UNAVAILABLE when it cannot be reached. ' +
        'Stored encrypted (AES-256-GCM, PDFSERVICE_SECRETS_KEY); applies from the user\'s next request. 201 for a new mapping, 200 for a replaced one. ' +
        'Body as JSON or XML <DmsAccount>. 409 DMS_ACCOUNTS_NOT_USED in other modes.',
      tags: ['users'],
      params: usernameParams,
      consumes: BODY_TYPES,
      xmlRoot: 'DmsAccount',
      body: {
        type: 'object',
        properties: {
          // Basic authentication separates name and password with the first colon, so a name cannot hold one.
          username: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^:\\x00-\\x1f\\x7f]+$', description: 'The DMS user name (no colon, no control characters)' },
          password: { type: 'string', minLength: 1, maxLength: 1024, pattern: XML_TEXT_PATTERN, description: 'The DMS password (no control characters but tab, LF and CR); stored encrypted, never returned or logged' },
        },
        required: ['username', 'password'],
        additionalProperties: false,
      },
      response: { 200: dmsAccountModelSchema, 201: dmsAccountModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'DmsAccount');
    const accounts = mappedAccounts(deps);
    const { username } = request.params;
    await users.get(username); // 404 USER_NOT_FOUND before the DMS is asked
    const { view, created } = await accounts.set(username, request.body);
    return sendModel(request, reply, DMS_ACCOUNT_XML, view, created ? 201 : 200);
  });

  api.get('/users/:username/dms-account', {
    ...admin,
    schema: {
      summary: 'Get the DMS account a user is mapped to',
      description: 'The DMS user name, never the password. 404 DMS_ACCOUNT_NOT_FOUND when the user has none (their document requests are then 403 DMS_FORBIDDEN).',
      tags: ['users'],
      params: usernameParams,
      response: { 200: dmsAccountModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const accounts = mappedAccounts(deps);
    const { username } = request.params;
    await users.get(username);
    return sendModel(request, reply, DMS_ACCOUNT_XML, accounts.get(username));
  });

  api.delete('/users/:username/dms-account', {
    config: { right: 'admin' },
    schema: {
      summary: 'Remove a user\'s DMS account',
      description: 'From the user\'s next request the DMS refuses their document requests (403 DMS_FORBIDDEN). 404 DMS_ACCOUNT_NOT_FOUND when there is none.',
      tags: ['users'],
      params: usernameParams,
      response: { 204: { description: 'Removed', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const accounts = mappedAccounts(deps);
    const { username } = request.params;
    await users.get(username);
    await accounts.remove(username);
    return reply.code(204).send();
  });

  // A user's own webhook secret (docs/webhooks.md): the user reads and rotates it; an admin those of every user.
  const ownOrAdmin = (request: { principal: { username: string; rights: string[] } | null }, username: string) => {
    const principal = request.principal!;
    if (principal.username !== username && !principal.rights.includes('admin')) throw new ServiceError('FORBIDDEN', 'Only the user and admins see or rotate a user\'s webhook secret');
  };
  for (const [method, rotate, summary, description] of [
    ['GET', false, 'Get a user\'s webhook secret', 'The secret the user\'s webhooks are signed with (Standard Webhooks, whsec_…), made at the first need.'],
    ['POST', true, 'Rotate a user\'s webhook secret', 'A new secret replaces the old one at once: every later attempt of the user\'s webhooks, retries of earlier ones included, is signed with it. No body.'],
  ] as const) {
    api.route({
      method,
      url: '/users/:username/webhook-secret',
      config: { model: true },
      schema: {
        summary,
        description: `${description} The user or an admin; 403 FORBIDDEN for another user's.`,
        tags: ['users'],
        params: usernameParams,
        response: { 200: webhookSecretSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const { username } = request.params;
        ownOrAdmin(request, username);
        return sendModel(request, reply, WEBHOOK_SECRET_XML, { secret: await users.webhookSecret(username, { rotate }) });
      },
    });
  }
}
