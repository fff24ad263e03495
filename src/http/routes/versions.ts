import type { FastifyReply } from 'fastify';
import type { OperationContext } from '../../operations/context.js';
import type { StoredPath } from '../../storage/paths.js';
import type { Api, AppDeps } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { sendModel, sliceLinks } from '../reply.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentModelSchema, errorResponses, filePathParams } from '../schemas/common.js';
import { requireXmlRoot } from '../xml.js';

const tags = ['versions'];
const VERSIONS_XML = { root: 'Versions', flatten: 'versions', listFirst: true, items: { versions: 'version' } };
const VERSION_XML = { root: 'Version' };

export const VERSIONS_DEFAULT_LIMIT = 100;
export const VERSIONS_MAX_LIMIT = 1000;

const versionSchema = {
  title: 'VersionModel',
  type: 'object',
  description: 'One kept version of a document (docs/versions.md)',
  properties: {
    id: { type: 'string', description: 'Opaque and ordered: a later version sorts after an earlier one', examples: ['1795219200000000'] },
    etag: { type: 'string', description: 'Its strong ETag (the content hash), as the document had it' },
    size: { type: 'integer', minimum: 0 },
    created: { type: 'string', format: 'date-time', description: 'When the write that made it landed' },
    user: { type: ['string', 'null'], description: 'Who wrote it; null for the service\'s own work, or content found unrecorded (written while versions were off)' },
    operation: { type: 'string', description: 'What wrote it: "upload" (PUT, form upload, conversion), an action\'s name ("ApplyRedactionsAction"), an edit\'s engine task ("addAnnotation"), "restore", or "unrecorded"' },
    requestId: { type: ['string', 'null'], description: 'The X-Request-Id of the request that wrote it, when a request did' },
    jobId: { type: ['string', 'null'], description: 'The background job that wrote it, when a job did' },
    pageCount: { type: ['integer', 'null'], minimum: 0, description: 'Its page count when the write knew it' },
    label: { type: ['string', 'null'] },
    pinned: { type: 'boolean', description: 'Kept whatever the retention policy says (docs/versions.md, Retention)' },
    current: { type: 'boolean', description: 'Whether it is the document\'s current content' },
  },
  required: ['id', 'etag', 'size', 'created', 'user', 'operation', 'requestId', 'jobId', 'pageCount', 'label', 'pinned', 'current'],
} as const;

const versionsSchema = {
  title: 'VersionsModel',
  type: 'object',
  description:
    `VersionsModel (XML: <Versions> with one <version> per version listed, then the paging): newest first, at most limit from offset (default ${VERSIONS_DEFAULT_LIMIT}, ` +
    `at most ${VERSIONS_MAX_LIMIT}); the Link header has next and prev`,
  properties: {
    versions: { type: 'array', items: versionSchema },
    total: { type: 'integer', minimum: 0, description: 'Versions kept of the document' },
    offset: { type: 'integer', minimum: 0 },
    limit: { type: 'integer', minimum: 1 },
    current: { type: ['string', 'null'], description: 'The current version\'s id (null when no kept version is the current content)' },
    next: { type: 'string', description: 'URL of the next slice; absent on the last' },
    prev: { type: 'string', description: 'URL of the previous slice; absent on the first' },
  },
  required: ['versions', 'total', 'offset', 'limit', 'current'],
} as const;

const versionsQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: 999_999_999, default: 0, description: 'Index of the first version listed (0: the newest)' },
    limit: { type: 'integer', minimum: 1, maximum: VERSIONS_MAX_LIMIT, default: VERSIONS_DEFAULT_LIMIT, description: 'Most versions listed' },
  },
} as const;

const versionParams = {
  type: 'object',
  properties: { ...filePathParams.properties, versionId: { type: 'string', description: 'A version id from GET .../versions', examples: ['1795219200000000'] } },
  required: ['filePath', 'versionId'],
} as const;

const versionChangeSchema = {
  title: 'VersionChange',
  type: 'object',
  description: 'What PATCH changes of a version: its label (null removes it) and pin; what is absent stays',
  properties: {
    label: { type: ['string', 'null'], maxLength: 1000 },
    pinned: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

/**
 * RFC 5829 links of a document's answers, when its store keeps versions: the version history, the predecessor
 * version (the one before what the answer is of: `etag`, the current content's, or the kept version read), and for a
 * kept version the document's current content (latest-version). A predecessor that cannot be found (the caller may
 * not list versions, the store failed) leaves that link out rather than failing the answer.
 */
export async function versionLinks(reply: FastifyReply, path: StoredPath, ctx: OperationContext, deps: AppDeps, etag: string): Promise<void> {
  if (!deps.operations.documents.keepsVersions(ctx)) return;
  const links = [`<${documentUrl(path, 'versions')}>; rel="version-history"`];
  const of = ctx.versionId !== undefined ? { versionId: ctx.versionId } : { etag };
  const predecessor = await deps.operations.versions.predecessor(path, ctx, of).catch(() => null);
  if (predecessor !== null) links.push(`<${documentUrl(path)}?versionId=${predecessor}>; rel="predecessor-version"`);
  if (ctx.versionId !== undefined) links.push(`<${documentUrl(path)}>; rel="latest-version"`);
  reply.header('Link', links.join(', '));
}

/** The versions of a document (docs/versions.md): list, one version, label and pin, delete, restore. */
export function registerVersionRoutes(api: Api, deps: AppDeps): void {
  const { versions } = deps.operations;

  api.get('/documents/:filePath.pdf/versions', {
    config: { model: true },
    schema: {
      summary: 'List the kept versions of a document, newest first',
      description:
        `Every write of the document made one (uploads, actions, edits of annotations, fields and pages, imports, restores, jobs); the current content is ` +
        `the newest, marked current. ${VERSIONS_DEFAULT_LIMIT} at a time by default (?offset=, ?limit= up to ${VERSIONS_MAX_LIMIT}), with next/prev ` +
        'in the body and the Link header. Read a version with ?versionId= on the document and its read-only sub-resources. 501 VERSIONS_NOT_KEPT ' +
        'when the service keeps no versions (PDFSERVICE_VERSIONS off).',
      tags,
      params: filePathParams,
      querystring: versionsQuery,
      response: { 200: versionsSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { offset, limit } = request.query;
    const model = await versions.list(documentPathParam(request), operationContext(request), { offset, limit });
    const { links } = sliceLinks(request, reply, offset, limit, model.total);
    return sendModel(request, reply, VERSIONS_XML, { ...model, ...links });
  });

  api.get('/documents/:filePath.pdf/versions/:versionId', {
    config: { model: true },
    schema: {
      summary: 'Get one version\'s record',
      description: 'Its bytes: GET the document with ?versionId=.',
      tags,
      params: versionParams,
      response: { 200: versionSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const model = await versions.get(documentPathParam(request), request.params.versionId, operationContext(request));
    return sendModel(request, reply, VERSION_XML, model);
  });

  api.patch('/documents/:filePath.pdf/versions/:versionId', {
    config: { model: true },
    schema: {
      summary: 'Set a version\'s label or pin',
      description: 'Needs the PUT right, as a change of the document does. A pinned version is kept whatever the retention policy says (thinning, count, age, per-user cap).',
      tags,
      params: versionParams,
      consumes: ['application/json', 'application/xml'],
      xmlRoot: 'Version',
      body: versionChangeSchema,
      response: { 200: versionSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    requireXmlRoot(request, 'Version');
    const { label, pinned } = request.body;
    const model = await versions.update(documentPathParam(request), request.params.versionId, operationContext(request), { label, pinned });
    return sendModel(request, reply, VERSION_XML, model);
  });

  api.delete('/documents/:filePath.pdf/versions/:versionId', {
    schema: {
      summary: 'Delete a version',
      description: 'Needs the DELETE right. The current version cannot be deleted (409 VERSION_IS_CURRENT): delete the document, or write it first.',
      tags,
      params: versionParams,
      response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    await versions.remove(documentPathParam(request), request.params.versionId, operationContext(request));
    return reply.code(204).send();
  });

  api.post('/documents/:filePath.pdf/versions/:versionId/restore', {
    config: { model: true },
    schema: {
      summary: 'Restore a version: its bytes become the current content, as a new version',
      description:
        'A write like any other (history is never rewritten): it takes the document\'s lock, honours If-Match on the current version (412 ' +
        'PRECONDITION_FAILED), and makes a new version with operation "restore". Needs the POST right, as actions do. Answers the DocumentModel and its ETag.',
      tags,
      params: versionParams,
      response: { 200: documentModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const ctx = operationContext(request);
    const { model } = await versions.restore(path, request.params.versionId, ctx);
    reply.header('ETag', model.etag);
    await versionLinks(reply, path, ctx, deps, model.etag);
    return sendModel(request, reply, { root: 'Document' }, model);
  });
}
