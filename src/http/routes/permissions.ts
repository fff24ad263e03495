import type { Api, AppDeps } from '../context.js';
import { sendModel } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams } from '../schemas/common.js';
import { PASSWORD_PERMISSIONS_XML, PERMISSIONS_XML, passwordPermissionsRequestSchema, passwordPermissionsSchema, permissionsSchema } from '../schemas/permissions.js';
import { requireXmlRoot } from '../xml.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;
const tags = ['permissions'];

/** The permissions resource: password security, usage rights, certification (docs/permissions.md). */
export function registerPermissionRoutes(api: Api, deps: AppDeps): void {
  const { permissions } = deps.operations;

  api.get('/documents/:filePath.pdf/permissions', {
    config: { model: true },
    schema: {
      summary: 'Get the security settings: password permissions, usage rights, certification',
      description: 'Any password that opens the document may read them (the user password included).',
      tags,
      params: filePathParams,
      headers,
      response: { 200: permissionsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model } = await permissions.get(documentPathParam(request), operationContext(request));
    return sendModel(request, reply, PERMISSIONS_XML, model);
  });

  api.get('/documents/:filePath.pdf/permissions/password-permissions', {
    config: { model: true },
    schema: {
      summary: 'Get the password security alone',
      tags,
      params: filePathParams,
      headers,
      response: { 200: passwordPermissionsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { model } = await permissions.get(documentPathParam(request), operationContext(request));
    return sendModel(request, reply, PASSWORD_PERMISSIONS_XML, model.passwordPermissions);
  });

  api.put('/documents/:filePath.pdf/permissions/password-permissions', {
    config: { model: true },
    schema: {
      summary: 'Encrypt or re-encrypt the document with passwords and permissions',
      description:
        'A protected document needs its permissions (owner) password in X-Service-DocumentPassword (403 DOCUMENT_PERMISSION_DENIED with the user ' +
        'password). AES-256 is written as revision 6. A document with signed signature fields is refused (409 DOCUMENT_SIGNED). ' +
        'Answers the password security as read back from the written file.',
      tags,
      params: filePathParams,
      headers,
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'PasswordPermissions',
      body: passwordPermissionsRequestSchema,
      response: { 200: passwordPermissionsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'PasswordPermissions');
    const { model, etag } = await permissions.setPasswordPermissions(documentPathParam(request), operationContext(request), request.body);
    reply.header('ETag', etag);
    return sendModel(request, reply, PASSWORD_PERMISSIONS_XML, model);
  });

  api.delete('/documents/:filePath.pdf/permissions/password-permissions', {
    schema: {
      summary: 'Remove the encryption',
      description: 'Needs the permissions (owner) password when one is set. 204 also when the document was not encrypted (nothing is written).',
      tags,
      params: filePathParams,
      headers,
      response: { 204: { description: 'Removed', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await permissions.removePasswordPermissions(documentPathParam(request), operationContext(request));
    return reply.code(204).send();
  });

  api.delete('/documents/:filePath.pdf/permissions/usage-rights', {
    schema: {
      summary: 'Remove the usage-rights signature (/Perms /UR3 and /UR)',
      description: 'A change of the document: with the user password it needs changeDocumentAllowed. 204 also when there were none (nothing is written).',
      tags,
      params: filePathParams,
      headers,
      response: { 204: { description: 'Removed', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await permissions.removeUsageRights(documentPathParam(request), operationContext(request));
    return reply.code(204).send();
  });
}
