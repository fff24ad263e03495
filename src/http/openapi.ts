/**
 * The OpenAPI description, derived from the route schemas by @fastify/swagger.
 * The routes' schemas stay the one source of truth; the hooks here add what a
 * route schema cannot say to Fastify without changing what it validates:
 * operationIds, the bodies Fastify does not parse itself (uploads, multipart,
 * XFDF/FDF), problem documents, headers, XML variants, and `security: []` on
 * public routes. docs/api.md ("The OpenAPI description") has the conventions.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { ANNOTATION_SUBTYPES } from '../engine/models.js';
import { BODY_DOCUMENT_PATH_KEYS, PATH_SCHEMAS } from '../storage/paths.js';
import { BASE64 } from './request-context.js';
import { anyCasePattern } from './schemas/common.js';
import { singular } from './xml.js';

type Json = Record<string, unknown>;

const binary = { type: 'string', format: 'binary' } as const;
const problemContent = {
  'application/problem+json': { schema: { $ref: 'Problem#' } },
  'application/problem+xml': { schema: { $ref: 'Problem#' } },
};

/**
 * Part names a multipart body may not use: @fastify/multipart refuses a part
 * named after a member of Object.prototype (400 BAD_REQUEST) before the route
 * sees it, so the description says so. Other unknown parts are ignored.
 */
export const REFUSED_PART_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();
/**
 * The names above refused as a pattern with a negative lookahead rather than
 * `not: {enum}`: Schemathesis 4.32's coverage phase cannot judge a `not` over
 * a body holding binary parts (it stops with "Unsupported type: 'Binary'").
 */
const REFUSED_PART_NAME_PATTERN = `^(?!(?:${REFUSED_PART_NAMES.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$)`;

/** A multipart/form-data body for the description only (Fastify streams multipart; the route reads the parts). */
export function multipartBody(parts: Record<string, object>, required: readonly string[], oneOfRequired?: readonly string[]): Json {
  const schema = {
    type: 'object', properties: parts, required: [...required], propertyNames: { pattern: REFUSED_PART_NAME_PATTERN },
    // Parts that are other names of one another: exactly one of them is sent (both, or none, is refused).
    ...(oneOfRequired ? { oneOf: oneOfRequired.map((name) => ({ required: [name] })) } : {}),
  };
  return { 'multipart/form-data': { schema } };
}

/** A file part of a multipart body. */
export const filePart = (description: string) => ({ ...binary, description });

/**
 * operationIds: verb + resource, camelCase, stable across releases (generated
 * clients name their functions after them). A route added without an entry
 * makes the description fail to build (openapi.test.ts), rather than carry a
 * name derived from its path that a later entry would rename.
 */
const OPERATION_IDS: Record<string, string> = {
  'GET /health': 'getHealth',
  'POST /sessions': 'login',
  'GET /sessions/current': 'getCurrentSession',
  'DELETE /sessions/current': 'logout',
  'GET /sessions/oidc': 'getOidcSignIn',
  'GET /users': 'listUsers',
  'POST /users': 'createUser',
  'GET /users/:username': 'getUser',
  'PATCH /users/:username': 'updateUser',
  'DELETE /users/:username': 'deleteUser',
  'PUT /users/:username/dms-account': 'setUserDmsAccount',
  'GET /users/:username/dms-account': 'getUserDmsAccount',
  'DELETE /users/:username/dms-account': 'deleteUserDmsAccount',
  'GET /users/:username/webhook-secret': 'getUserWebhookSecret',
  'POST /users/:username/webhook-secret': 'rotateUserWebhookSecret',
  'POST /tokens': 'createToken',
  'GET /tokens': 'listTokens',
  'GET /tokens/:id': 'getToken',
  'DELETE /tokens/:id': 'revokeToken',
  'GET /metrics': 'getMetrics',
  'GET /documents': 'listRootFolder',
  'POST /documents': 'uploadToRootFolder',
  'GET /documents/:folderPath': 'listFolder',
  'PUT /documents/:folderPath': 'createFolder',
  'DELETE /documents/:folderPath': 'deleteFolder',
  'POST /documents/:folderPath': 'uploadToFolder',
  'GET /documents/:filePath.pdf': 'getDocument',
  'PUT /documents/:filePath.pdf': 'putDocument',
  'DELETE /documents/:filePath.pdf': 'deleteDocument',
  'POST /documents/:filePath.pdf': 'runDocumentAction',
  'POST /documents/:filePath.pdf/pages': 'runPageAction',
  'POST /convert': 'convertOneShot',
  'GET /documents/:filePath.pdf/pages': 'listPages',
  'GET /documents/:filePath.pdf/pages/:pageIndex/text': 'getPageText',
  'GET /documents/:filePath.pdf/pages/:pageIndex/image': 'getPageImage',
  'GET /documents/:filePath.pdf/versions': 'listVersions',
  'GET /documents/:filePath.pdf/versions/:versionId': 'getVersion',
  'PATCH /documents/:filePath.pdf/versions/:versionId': 'updateVersion',
  'DELETE /documents/:filePath.pdf/versions/:versionId': 'deleteVersion',
  'POST /documents/:filePath.pdf/versions/:versionId/restore': 'restoreVersion',
  'GET /trash': 'listTrash',
  'GET /trash/:id': 'getTrashEntry',
  'POST /trash/:id/restore': 'restoreTrashEntry',
  'DELETE /trash/:id': 'purgeTrashEntry',
  'GET /documents/:filePath.pdf/text': 'getDocumentText',
  'GET /documents/:filePath.pdf/export': 'exportDocument',
  'GET /documents/:filePath.pdf/annotations': 'listAnnotations',
  'DELETE /documents/:filePath.pdf/annotations': 'deleteAnnotations',
  'POST /documents/:filePath.pdf/annotations': 'addAnnotation',
  'GET /documents/:filePath.pdf/annotations/:name': 'getAnnotation',
  'DELETE /documents/:filePath.pdf/annotations/:name': 'deleteAnnotation',
  'GET /documents/:filePath.pdf/annotations/:name/attachment': 'getAnnotationAttachment',
  'GET /documents/:filePath.pdf/annotations/:name/attachment/content': 'getAnnotationAttachmentContent',
  'GET /documents/:filePath.pdf/annotations/content': 'exportAnnotations',
  'POST /documents/:filePath.pdf/annotations/content': 'importAnnotations',
  'POST /documents/:filePath.pdf/annotations/redaction': 'markRedactions',
  'GET /documents/:filePath.pdf/permissions': 'getPermissions',
  'GET /documents/:filePath.pdf/permissions/password-permissions': 'getPasswordPermissions',
  'PUT /documents/:filePath.pdf/permissions/password-permissions': 'setPasswordPermissions',
  'DELETE /documents/:filePath.pdf/permissions/password-permissions': 'removePasswordPermissions',
  'DELETE /documents/:filePath.pdf/permissions/usage-rights': 'removeUsageRights',
  'GET /documents/:filePath.pdf/outline': 'getOutline',
  'PUT /documents/:filePath.pdf/outline': 'replaceOutline',
  'POST /documents/:filePath.pdf/compare': 'compareDocument',
  'GET /documents/:filePath.pdf/attachments': 'listDocumentAttachments',
  'POST /documents/:filePath.pdf/attachments': 'addDocumentAttachment',
  'PUT /documents/:filePath.pdf/attachments/:name': 'putDocumentAttachment',
  'GET /documents/:filePath.pdf/attachments/:name': 'getDocumentAttachment',
  'DELETE /documents/:filePath.pdf/attachments/:name': 'deleteDocumentAttachment',
  'GET /documents/:filePath.pdf/metadata': 'getMetadata',
  'PATCH /documents/:filePath.pdf/metadata': 'patchMetadata',
  'PUT /documents/:filePath.pdf/metadata': 'putMetadata',
  'GET /documents/:filePath.pdf/metadata/xmp': 'getXmp',
  'PUT /documents/:filePath.pdf/metadata/xmp': 'putXmp',
  'GET /documents/:filePath.pdf/figures': 'listFigures',
  'PATCH /documents/:filePath.pdf/figures': 'patchFigures',
  'PATCH /documents/:filePath.pdf/figures/:index': 'patchFigure',
  'GET /documents/:filePath.pdf/fields': 'listFields',
  'DELETE /documents/:filePath.pdf/fields': 'resetFields',
  'POST /documents/:filePath.pdf/fields': 'importFieldsLegacy',
  'PUT /documents/:filePath.pdf/fields/:fieldName': 'setField',
  'GET /documents/:filePath.pdf/fields/content': 'exportFields',
  'POST /documents/:filePath.pdf/fields/content': 'importFields',
  'GET /documents/:filePath.pdf/fields/signature-fields': 'listSignatureFields',
  'GET /documents/:filePath.pdf/fields/signature-fields/:fieldName': 'getSignatureField',
  'PUT /documents/:filePath.pdf/fields/signature-fields/:fieldName': 'createSignatureField',
  'DELETE /documents/:filePath.pdf/fields/signature-fields/:fieldName': 'deleteSignatureField',
  'POST /documents/:filePath.pdf/fields/signature-fields/:fieldName/signature': 'signField',
  'GET /documents/:filePath.pdf/preflight-results': 'getPreflightResult',
  'GET /jobs': 'listJobs',
  'GET /jobs/:id': 'getJob',
  'DELETE /jobs/:id': 'cancelJob',
  'GET /jobs/:id/events': 'followJobEvents',
  'GET /jobs/:id/result': 'downloadJobResult',
  'GET /optimize-profiles': 'listOptimizeProfiles',
  'GET /optimize-profiles/:profileName': 'getOptimizeProfile',
  'PUT /optimize-profiles/:profileName': 'putOptimizeProfile',
  'DELETE /optimize-profiles/:profileName': 'deleteOptimizeProfile',
  'GET /pipelines': 'listPipelines',
  'GET /pipelines/:pipelineName': 'getPipeline',
  'PUT /pipelines/:pipelineName': 'putPipeline',
  'DELETE /pipelines/:pipelineName': 'deletePipeline',
  'GET /watched-folders': 'listWatchedFolders',
  'GET /watched-folders/:watchName': 'getWatchedFolder',
  'PUT /watched-folders/:watchName': 'putWatchedFolder',
  'DELETE /watched-folders/:watchName': 'deleteWatchedFolder',
};

function operationId(method: string, path: string): string {
  const id = OPERATION_IDS[`${method} ${path}`];
  if (!id) throw new Error(`openapi: ${method} ${path} has no operationId in OPERATION_IDS`);
  return id;
}

const JSON_OR_XML = new Set(['application/json', 'application/xml', 'text/xml']);

/** What the route's body is, per media type: its JSON/XML schema, and for the types Fastify streams, what the route reads. */
function requestContent(schema: Json): Json | undefined {
  const consumes = (schema.consumes as string[] | undefined) ?? (schema.body ? ['application/json'] : []);
  if (consumes.length === 0) return undefined;
  const documented = (schema.bodyContent as Json | undefined) ?? {};
  // XML bodies are the model under a root element the route names (Session, User, ...).
  const root = schema.xmlRoot as string | undefined;
  const content: Json = {};
  for (const type of consumes) {
    if (documented[type]) content[type] = documented[type];
    else if (type !== 'application/json' && JSON_OR_XML.has(type) && schema.body && root) content[type] = { schema: asXml(schema.body as Json, root) };
    else if (JSON_OR_XML.has(type) && schema.body) content[type] = { schema: schema.body };
    else if (type === 'application/vnd.adobe.xfdf') content[type] = { schema: { type: 'string', minLength: 1, description: 'An XFDF file' } };
    else content[type] = { schema: { ...binary, minLength: 1 } };
  }
  return content;
}

/**
 * A body schema as its XML form is read (xml.ts): the root element `root`; an array whose name is a
 * plural ("rights") as a wrapper element holding one element per item ("right"), any other array
 * ("widget") as the element repeated.
 */
export function asXml(schema: Json, root?: string): Json {
  const out: Json = { ...schema };
  if (root) out.xml = { name: root };
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Json>).map(([key, property]) => {
      if (property.type === 'array' && property.items && typeof property.items === 'object') {
        const wrapped = key.endsWith('s');
        return [key, { ...property, xml: { wrapped }, items: { ...asXml(property.items as Json), xml: { name: wrapped ? singular(key) : key } } }];
      }
      return [key, asXml(property)];
    }));
  }
  return out;
}

/** Headers each kind of answer carries (RFC 9110 names). */
function responseHeaders(status: string, method: string, url: string): Json | undefined {
  const headers: Json = {};
  const onDocument = url.includes(':filePath.pdf');
  if (/^2/.test(status) && onDocument && method !== 'DELETE') headers.ETag = { type: 'string', description: 'Entity tag of the document version (or of this representation)' };
  if (status === '201') headers.Location = { type: 'string', description: 'URL of the created resource' };
  if (status === '429' || status === '503') headers['Retry-After'] = { type: 'integer', minimum: 0, description: 'Seconds to wait before trying again' };
  if (status === '401') headers['WWW-Authenticate'] = { type: 'string', description: 'The Basic challenge, on answers to an Authorization: Basic attempt' };
  return Object.keys(headers).length ? headers : undefined;
}

/** Binary answers that name a file. */
const contentDisposition = { type: 'string', description: 'inline or attachment, with filename and filename* (RFC 6266)' };

function responses(schema: Json, route: RouteOptions, method: string, url: string): Json {
  const given = (schema.response as Json | undefined) ?? {};
  const model = Boolean(route.config && (route.config as { model?: unknown }).model);
  const isPublic = isPublicRoute(route, schema);
  const out: Json = {};
  for (const [status, raw] of Object.entries(given)) {
    if (/^[45]xx$/i.test(status)) continue;
    let response = raw as Json;
    const content = response.content as Record<string, Json> | undefined;
    if (content && (model || Object.keys(content).length > 1) && content['application/json'] && !content['text/xml']) {
      // Models are served as JSON, application/xml or text/xml by the Accept header (also where they are one of several forms).
      const json = content['application/json'];
      response = { ...response, content: { ...content, 'application/xml': content['application/xml'] ?? json, 'text/xml': json } };
    } else if (!content && model && response.type !== 'null' && /^2/.test(status)) {
      response = { description: (response.description as string | undefined) ?? 'The model', content: { 'application/json': { schema: response }, 'application/xml': { schema: response }, 'text/xml': { schema: response } } };
    }
    const headers: Json = { ...(responseHeaders(status, method, url) ?? {}), ...((response.headers as Json | undefined) ?? {}) };
    if (content && Object.keys(content).some((t) => !JSON_OR_XML.has(t) && t !== 'text/plain' && t !== 'text/event-stream' && !t.startsWith('image/'))) headers['Content-Disposition'] = contentDisposition;
    out[status] = Object.keys(headers).length ? { ...response, headers } : response;
  }
  const problem = (description: string, status: string) => {
    const headers = responseHeaders(status, method, url);
    return { description, content: problemContent, ...(headers ? { headers } : {}) };
  };
  if (!isPublic || url === '/sessions') out['401'] = problem('Not logged in, or wrong credentials (docs/errors.md)', '401');
  out['429'] = problem('Too many failed logins for this user name or address (docs/api.md)', '429');
  out['4XX'] = problem('A problem document (RFC 9457); `code` names the error (docs/errors.md)', '4XX');
  out['503'] = problem('The service is busy', '503');
  out['5XX'] = problem('A problem document (RFC 9457)', '5XX');
  return out;
}

function isPublicRoute(route: RouteOptions, schema: Json): boolean {
  // Routes that authenticate with their own hook (who am I, log out) are public to the global hook only.
  return Boolean((route.config as { public?: boolean } | undefined)?.public) && !route.onRequest && !schema.security;
}

/** Path parameters as clients send them, decoded: the path rules as patterns, pageIndex as the integer it is. */
function pathParams(params: Json | undefined): Json | undefined {
  if (!params) return undefined;
  const properties = { ...(params.properties as Record<string, Json>) };
  if (properties.filePath) properties.filePath = { ...properties.filePath, ...PATH_SCHEMAS.documentWithoutSuffix };
  if (properties.folderPath) properties.folderPath = { ...properties.folderPath, ...PATH_SCHEMAS.folder };
  if (properties.profileName) properties.profileName = { ...properties.profileName, ...PATH_SCHEMAS.name };
  if (properties.pipelineName) properties.pipelineName = { ...properties.pipelineName, ...PATH_SCHEMAS.name };
  if (properties.watchName) properties.watchName = { ...properties.watchName, ...PATH_SCHEMAS.name };
  // The route takes any text so that a non-number is 404 PAGE_OUT_OF_RANGE; the URL names a page by its number.
  if (properties.pageIndex) properties.pageIndex = { type: 'integer', minimum: 0, description: properties.pageIndex.description, examples: [0] };
  return { ...params, properties };
}

/**
 * The subtype filter as a pattern: the route checks it itself, so that a bad value is answered with
 * the list of subtypes (a schema pattern would pre-empt that with the pattern).
 */
function queryParams(query: Json | undefined): Json | undefined {
  const properties = query?.properties as Record<string, Json> | undefined;
  if (!properties?.subtype) return query;
  return { ...query, properties: { ...properties, subtype: { ...properties.subtype, pattern: anyCasePattern(ANNOTATION_SUBTYPES) } } };
}

/** Request headers the route reads besides those its schema lists. */
function requestHeaders(schema: Json, method: string, url: string): Json | undefined {
  const given = schema.headers as Json | undefined;
  const properties: Json = { ...((given?.properties as Json | undefined) ?? {}) };
  // The route checks the encoding itself, to name the header in its answer; the description says it as a pattern.
  const base64 = properties['x-service-documentpassword-base64'] as Json | undefined;
  if (base64) properties['x-service-documentpassword-base64'] = { ...base64, pattern: BASE64.source };
  const response = (schema.response as Json | undefined) ?? {};
  if (url.includes(':filePath.pdf') && method !== 'GET') properties['if-match'] = { type: 'string', description: 'Change only if the document still has this ETag (412 otherwise)' };
  if ('304' in response) properties['if-none-match'] = { type: 'string', description: 'The ETag held: 304 when it is still current' };
  if ('206' in response) {
    // Any value: one that is not a single byte range is ignored (RFC 9110), and the whole document is sent.
    properties.range = { type: 'string', description: 'One byte range (RFC 9110), e.g. bytes=0-1023' };
    properties['if-range'] = { type: 'string', description: 'Range applies only if the document still has this ETag' };
  }
  return Object.keys(properties).length ? { ...(given ?? { type: 'object' }), properties } : undefined;
}

/** The options of @fastify/swagger for routes registered under `prefix`. */
export function swaggerOptions(prefix: string): SwaggerOptions {
  // @fastify/swagger marks every described body required; routes whose body may be left out say `bodyRequired: false`.
  const optionalBodies = new Set<string>();
  return {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'pdfservice',
      version: '1',
      description:
        'Stores PDF documents on the server and works on them. Errors are RFC 9457 problem documents (application/problem+json, ' +
        'or application/problem+xml when the client prefers XML); docs/errors.md lists every code.',
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
    },
    // Relative: the description is served by the service it describes, at whatever address clients reach it.
    servers: [{ url: '/', description: 'This service' }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'SESSIONID' },
        basic: { type: 'http', scheme: 'basic' },
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token from POST /pdfservice/v1/tokens' },
      },
    },
    security: [{ session: [] }, { basic: [] }, { bearer: [] }],
  },
  // Shared schemas keep their own name in components ("Problem"), not "def-0".
  refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  transform: ({ schema, url, route }) => {
    if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
    const s = schema as unknown as Json;
    const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
    const local = url.startsWith(prefix) ? url.slice(prefix.length) : url;
    const out: Json = { ...s };
    out.operationId = s.operationId ?? operationId(method, local);
    if (isPublicRoute(route, s)) out.security = [];
    const content = requestContent(s);
    if (content) out.body = { content };
    if (s.bodyRequired === false) optionalBodies.add(out.operationId as string);
    for (const key of ['bodyContent', 'bodyRequired', 'xmlRoot', 'consumes']) delete out[key];
    const query = queryParams(s.querystring as Json | undefined);
    if (query) out.querystring = query;
    const params = pathParams(s.params as Json | undefined);
    if (params) out.params = params;
    const headers = requestHeaders(s, method, local);
    if (headers) out.headers = headers;
    out.response = responses(s, route, method, local);
    return { schema: out as typeof schema, url };
  },
  transformObject: (documentObject) => {
    const spec = (documentObject as { openapiObject: Json }).openapiObject;
    for (const methods of Object.values(spec.paths as Record<string, Record<string, Json>>)) {
      for (const operation of Object.values(methods)) {
        if (optionalBodies.has(operation.operationId as string)) (operation.requestBody as Json).required = false;
      }
    }
    return hoistModels(spec) as typeof spec;
  },
  };
}

/**
 * Model schemas carry a `title` (DocumentModel, AnnotationModel, ...); each becomes a
 * named component that every use refers to, so generated clients get named types.
 */
function hoistModels(spec: Json): Json {
  const components = (spec.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = (components.schemas ??= {});
  const seen = new Map<string, string>();
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Json;
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) out[k] = k === 'examples' || k === 'example' ? v : walk(v, false);
    // Paths in bodies (savePath, a merge's sources, ...: BODY_DOCUMENT_PATH_KEYS) are checked by the one path-safety
    // function, which answers INVALID_PATH with the reason; a schema pattern would pre-empt that, so the rules appear
    // here, in the description only. A trash restore's savePath is the one that may name a folder too (a folder entry's
    // destination).
    if (out.properties && typeof out.properties === 'object') {
      const props = out.properties as Record<string, Json>;
      for (const key of BODY_DOCUMENT_PATH_KEYS.filter((k) => k in props)) {
        const { description } = props[key]!;
        props[key] = key === 'savePath' && obj.title === 'TrashRestore'
          ? { type: 'string', description, anyOf: [PATH_SCHEMAS.document, PATH_SCHEMAS.folderInBody] }
          : { ...props[key], ...PATH_SCHEMAS.document };
      }
    }
    const title = obj.title;
    if (!top && typeof title === 'string' && /^[A-Z][A-Za-z]+$/.test(title) && obj.type === 'object') {
      const text = JSON.stringify(out);
      const known = seen.get(title);
      if (known === undefined) {
        seen.set(title, text);
        schemas[title] = out;
      }
      // The same name for a different shape would be a bug in the schemas: keep that one inline rather than lie.
      if (known === undefined || known === text) return { $ref: `#/components/schemas/${title}` };
    }
    return out;
  };
  // The shared schemas added to Fastify (Problem, OutlineItemRequest) are components already: their models are named too.
  const shared = Object.keys(schemas);
  spec.paths = walk(spec.paths, true);
  for (const name of shared) schemas[name] = walk(schemas[name], true);
  spec.components = components;
  return spec;
}
