import { RIGHTS, type UserView } from '../../auth/types.js';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN } from '../../auth/users.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { requireXmlRoot } from '../xml.js';
import { errorResponses } from '../schemas/common.js';

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
  description: `The password, ${PASSWORD_MIN} to ${PASSWORD_MAX} characters; stored only as a scrypt hash`,
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
}
