import type { Api, AppDeps } from '../context.js';
import { sendModel, sliceLinks } from '../reply.js';
import { operationContext } from '../request-context.js';
import { documentModelSchema, errorResponses, folderModelSchema } from '../schemas/common.js';
import { requireXmlRoot } from '../xml.js';

const tags = ['trash'];
const TRASH_XML = { root: 'Trash', flatten: 'entries', listFirst: true, items: { entries: 'entry' } };
const ENTRY_XML = { root: 'TrashEntry' };

export const TRASH_DEFAULT_LIMIT = 100;
export const TRASH_MAX_LIMIT = 1000;

const entrySchema = {
  title: 'TrashEntryModel',
  type: 'object',
  description: 'A deleted document or folder kept in the trash, with its versions (docs/versions.md, "Trash")',
  properties: {
    id: { type: 'string', description: 'Opaque and ordered: a later deletion sorts after an earlier one', examples: ['1796003868432001-9f2c41ab'] },
    kind: { type: 'string', enum: ['document', 'folder'] },
    path: { type: 'string', description: 'Where it was when deleted, from the root ("/a/b.pdf"): where a restore puts it back by default' },
    deleted: { type: 'string', format: 'date-time' },
    deletedBy: { type: ['string', 'null'], description: 'The user that deleted it (whose trash it is in)' },
    size: { type: 'integer', minimum: 0, description: 'Bytes of the documents it holds (their current content)' },
    documentCount: { type: 'integer', minimum: 0 },
    versionCount: { type: 'integer', minimum: 0, description: 'Versions kept with its documents, restored with them' },
  },
  required: ['id', 'kind', 'path', 'deleted', 'deletedBy', 'size', 'documentCount', 'versionCount'],
} as const;

const trashSchema = {
  title: 'TrashModel',
  type: 'object',
  description:
    `TrashModel (XML: <Trash> with one <entry> per entry listed, then the paging): newest first, at most limit from offset (default ${TRASH_DEFAULT_LIMIT}, ` +
    `at most ${TRASH_MAX_LIMIT}); the Link header has next and prev`,
  properties: {
    entries: { type: 'array', items: entrySchema },
    total: { type: 'integer', minimum: 0, description: 'Entries of this owner' },
    offset: { type: 'integer', minimum: 0 },
    limit: { type: 'integer', minimum: 1 },
    owner: { type: 'string', description: 'Whose entries: a user name, or "*" for everyone\'s' },
    next: { type: 'string', description: 'URL of the next slice; absent on the last' },
    prev: { type: 'string', description: 'URL of the previous slice; absent on the first' },
  },
  required: ['entries', 'total', 'offset', 'limit', 'owner'],
} as const;

const trashQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: 999_999_999, default: 0, description: 'Index of the first entry listed (0: the newest)' },
    limit: { type: 'integer', minimum: 1, maximum: TRASH_MAX_LIMIT, default: TRASH_DEFAULT_LIMIT, description: 'Most entries listed' },
    owner: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Admins only (403 for others, but for their own name): the entries another user deleted, or "*" for everyone\'s. Default: the caller\'s own',
    },
  },
} as const;

const entryParams = {
  type: 'object',
  properties: { id: { type: 'string', description: 'A trash entry id from GET /trash', examples: ['1796003868432001-9f2c41ab'] } },
  required: ['id'],
} as const;

const restoreSchema = {
  title: 'TrashRestore',
  // null: no body at all, for a restore at the original path
  type: ['object', 'null'],
  description: 'Where to restore an entry; empty (or no body): its original path',
  properties: {
    savePath: { type: 'string', minLength: 1, maxLength: 1024, description: 'Another path: a document path ("a/b.pdf") for a document entry, a folder path for a folder entry' },
  },
  additionalProperties: false,
} as const;

/** The trash (docs/versions.md, "Trash"): what DELETE of a document or folder moved there, per user. */
export function registerTrashRoutes(api: Api, deps: AppDeps): void {
  const { trash } = deps.operations;

  api.get('/trash', {
    config: { model: true },
    schema: {
      summary: 'List the documents and folders you deleted, newest first',
      description:
        `A DELETE of a document or folder moves it, with its versions, here. ${TRASH_DEFAULT_LIMIT} at a time by default (?offset=, ?limit= up to ` +
        `${TRASH_MAX_LIMIT}), with next/prev in the body and the Link header. Admins list another user's with ?owner=name, everyone's with ?owner=*. ` +
        '501 TRASH_NOT_KEPT when the service keeps no trash (PDFSERVICE_TRASH off).',
      tags,
      querystring: trashQuery,
      response: { 200: trashSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { offset, limit, owner } = request.query;
    const model = await trash.list(operationContext(request), owner, { offset, limit });
    const { links } = sliceLinks(request, reply, offset, limit, model.total, { owner });
    return sendModel(request, reply, TRASH_XML, { ...model, ...links });
  });

  api.get('/trash/:id', {
    config: { model: true },
    schema: {
      summary: 'Get one trash entry',
      description: 'Your own entries (any for an admin); another user\'s is 404 TRASH_ENTRY_NOT_FOUND.',
      tags,
      params: entryParams,
      response: { 200: entrySchema, ...errorResponses },
    },
  }, async (request, reply) => {
    return sendModel(request, reply, ENTRY_XML, await trash.get(request.params.id, operationContext(request)));
  });

  api.post('/trash/:id/restore', {
    config: { model: true },
    schema: {
      summary: 'Restore a trash entry, with its versions',
      description:
        'Puts the document or folder back at its original path, or at savePath; 409 TRASH_PATH_TAKEN when a document or folder is there now. ' +
        'Needs the POST right and the PUT right (it writes the destination). Answers the restored document\'s DocumentModel, or the restored ' +
        'folder\'s listing. Another user\'s entry is 404 TRASH_ENTRY_NOT_FOUND (admins may restore any).',
      tags,
      params: entryParams,
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'TrashRestore',
      bodyRequired: false,
      body: restoreSchema,
      response: { 200: { anyOf: [documentModelSchema, folderModelSchema] }, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'TrashRestore');
    const restored = await trash.restore(request.params.id, operationContext(request), request.body?.savePath ?? undefined);
    if (restored.kind === 'document') {
      reply.header('ETag', restored.model.etag);
      return sendModel(request, reply, { root: 'Document' }, restored.model);
    }
    return sendModel(request, reply, { root: 'Folder', items: { entries: 'entry' } }, restored.model);
  });

  api.delete('/trash/:id', {
    schema: {
      summary: 'Purge a trash entry for good',
      description: 'Needs the DELETE right. Another user\'s entry is 404 TRASH_ENTRY_NOT_FOUND (admins may purge any).',
      tags,
      params: entryParams,
      response: { 204: { description: 'Purged', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await trash.purge(request.params.id, operationContext(request));
    return reply.code(204).send();
  });
}
