import Fastify, { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';
import { runAsRequest } from '../operations/execution.js';
import type { AppDeps, RouteSchemaTypes } from './context.js';
import { packDocumentUrl } from './document-urls.js';
import { handleError, sendProblem, sentPath } from './errors.js';
import { MULTIPART_LIMITS } from './multipart.js';
import { clientErrorHandler, commonHeaders, frameworkErrors, methodNotAllowedRoutes, refuseContentEncoding, refuseUnknownMethod } from './protocol.js';
import { fastifyValidatorCompiler } from '../validation.js';
import { lazySerializers } from './serialization.js';
import { acceptableModelFormat } from './reply.js';
import { DOCUMENT_PASSWORD_HEADERS, documentPassword } from './request-context.js';
import { parseXmlBody } from './xml.js';
import { dropIgnoredQueryParameters, refuseVersionWrites, strictQuerystring, versionIdQuery } from './query.js';
import { registerAuthHook } from './plugins/auth.js';
import { registerCors } from './cors.js';
import { registerConsole } from './console.js';
import { redactQuerySecrets } from './log-redaction.js';
import { RequestLog } from './request-log.js';
import { inRequestSpan, registerRequestTracing } from './request-tracing.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerUserRoutes } from './routes/users.js';
import { registerTokenRoutes } from './routes/tokens.js';
import { registerMetricsRoute, registerRequestMetrics } from './routes/metrics.js';
import { registerFolderRoutes } from './routes/folders.js';
import { registerDocumentRoutes } from './routes/documents.js';
import { registerActionRoutes } from './routes/actions.js';
import { registerConvertRoutes } from './routes/convert.js';
import { registerAnnotationRoutes } from './routes/annotations.js';
import { registerAnnotationContentRoutes } from './routes/annotation-content.js';
import { registerPermissionRoutes } from './routes/permissions.js';
import { registerOutlineRoutes } from './routes/outline.js';
import { registerCompareRoutes } from './routes/compare.js';
import { registerAttachmentRoutes } from './routes/attachments.js';
import { registerMetadataRoutes, XMP_BODY_TYPE } from './routes/metadata.js';
import { registerRedactionRoutes } from './routes/redaction.js';
import { registerJobRoutes } from './routes/jobs.js';
import { registerFieldRoutes } from './routes/fields.js';
import { registerFigureRoutes } from './routes/figures.js';
import { registerPageRoutes } from './routes/pages.js';
import { registerExportRoutes } from './routes/export.js';
import { registerTrashRoutes } from './routes/trash.js';
import { registerVersionRoutes } from './routes/versions.js';
import { registerPreflightRoutes } from './routes/preflight.js';
import { registerSignatureRoutes } from './routes/signatures.js';
import { registerOptimizeProfileRoutes } from './routes/optimize-profiles.js';
import { registerPipelineRoutes } from './routes/pipelines.js';
import { registerWatchedFolderRoutes } from './routes/watched-folders.js';
import { BINARY_UPLOAD_TYPES, OFFICE_UPLOAD_TYPES, XFDF_BODY_TYPES } from './uploads.js';
import { registerConnectionLimits, serverTimeouts } from './connection-limits.js';
import { problemSchema } from './schemas/common.js';
import { outlineItemRequestSchema } from './schemas/outline.js';
import { swaggerOptions } from './openapi.js';

export const API_PREFIX = '/pdfservice/v1';

/** Longest time the rest of a refused request's body is read and discarded before the connection is closed. */
const DRAIN_LIMIT_MS = 30_000;

/**
 * Reads and discards what is left of a refused request's body, for at most `limitMs`: DRAIN_LIMIT_MS after a
 * logged-in request, PDFSERVICE_PUBLIC_BODY_TIMEOUT_MS after one nobody logged in for (a 401 to an anonymous
 * upload), so that an anonymous client sending a slow body holds its connection no longer than a login's body may
 * take, rather than 30 s.
 */
function drainUnreadBody(raw: IncomingMessage, limitMs: number): void {
  if (raw.complete || raw.destroyed) return;
  const timer = setTimeout(() => raw.socket?.destroy(), limitMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  raw.once('end', done);
  raw.once('close', done);
  raw.unpipe();
  raw.resume();
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Secrets live in headers, and the request as logged (requestForLog) carries none: no header is ever logged.
      // (pino's `redact` of req.headers.* was kept as well until issue 38: it matched nothing after that serializer,
      // and its redactor parsed its paths and cloned the request's object on each line, about 3.5 KB of garbage a request.)
      serializers: { req: requestForLog, err: errorForLog },
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // One line per request at info (request-log.ts).
    logController: new RequestLog(),
    // Response serializers compiled on first use (src/http/serialization.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    bodyLimit: config.maxBodyBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    rewriteUrl: (req) => packDocumentUrl(req.url ?? '/'),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
    frameworkErrors,
    clientErrorHandler,
    ...serverTimeouts(config),
  });
  // One Ajv set-up (src/validation.ts): text values coerced, JSON bodies exact.
  app.setValidatorCompiler(fastifyValidatorCompiler);
  const addMethodNotAllowedRoutes = methodNotAllowedRoutes(app);

  // First of the hooks (when tracing is on): a request refused by any later one has its span too.
  registerRequestTracing(app);
  registerConnectionLimits(app, config);
  app.decorateRequest('principal', null);
  app.decorateRequest('xmlRoot', null);
  app.addHook('onRequest', syncHook((request, reply) => {
    commonHeaders(request, reply);
    refuseUnknownMethod(request);
  }));
  // A malformed password header is refused on every route, not only where a document turns out to be encrypted.
  app.addHook('preValidation', syncHook((request) => {
    if (DOCUMENT_PASSWORD_HEADERS.some((name) => request.headers[name] !== undefined)) documentPassword(request);
  }));
  app.addHook('preParsing', (request, _reply, payload, done) => {
    refuseContentEncoding(request);
    done(null, payload);
  });
  // An answer sent before the request body was read to its end (a refusal: too large, a broken multipart
  // part): the rest of the body is read and discarded, as nginx's lingering close does. Node leaves a body
  // that a reader started and abandoned unread, so the next request on a keep-alive connection would never
  // be parsed and the client would wait forever; closing at once instead resets a connection the client is
  // still writing to, and the client then never sees the answer. Past DRAIN_LIMIT_MS the connection is closed.
  // Fastify marks answers to a body it refused while reading Connection: close; the drain makes that unnecessary.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) reply.removeHeader('connection');
    done(null, payload);
  });
  app.addHook('onResponse', syncHook((request) => drainUnreadBody(request.raw, request.principal === null ? Math.min(DRAIN_LIMIT_MS, config.publicBodyTimeoutMs) : DRAIN_LIMIT_MS)));
  app.setErrorHandler((err, request, reply) => handleError(err, request, reply));
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, new ServiceError('NOT_FOUND', `No resource at ${sentPath(request)}`)));

  app.addSchema(problemSchema);
  // Shared for its $ref to itself (the outline's items), and so one OpenAPI component.
  app.addSchema(outlineItemRequestSchema);
  registerBodyParsers(app, deps);
  await app.register(cookie);
  await app.register(multipart, {
    limits: {
      fileSize: config.maxUploadBytes,
      files: MULTIPART_LIMITS.files,
      fields: MULTIPART_LIMITS.parts,
      parts: MULTIPART_LIMITS.parts,
      fieldSize: config.maxBodyBytes,
      headerPairs: 200,
    },
  });

  await app.register(swagger, swaggerOptions(API_PREFIX));
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, uiConfig: { deepLinking: true } });

  // Models are refused before any work when the client accepts none of their types.
  app.addHook('preHandler', syncHook((request) => {
    if (request.routeOptions.config.model) acceptableModelFormat(request);
  }));

  // Before authentication: preflights carry no credentials, and error answers must be readable by the page.
  registerCors(app, config.corsOrigins);
  registerRequestMetrics(app, deps);
  registerAuthHook(app, deps.auth, config.corsOrigins);
  // Every handler runs as its user, so that the engine pool counts the tasks it starts against that user's limit,
  // and with a signal that fires when the client goes away before its answer, so that the engine stops those tasks.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: unknown, request, reply) {
      const owner = request.principal?.username;
      const gone = new AbortController();
      // The response closes before it has ended only when the connection is lost (a sent answer ends first).
      reply.raw.once('close', () => {
        if (!reply.raw.writableEnded) gone.abort();
      });
      return inRequestSpan(request, () => runAsRequest(owner, gone.signal, () => handler.call(this as never, request, reply)));
    };
  });
  // The web console's files and the redirect from / to it (console.ts; docs/console.md).
  registerConsole(app);
  await app.register(async (plain) => {
    // Every route of the API refuses query parameters it does not know (query.ts); registered before the routes.
    plain.addHook('onRoute', strictQuerystring);
    plain.addHook('onRoute', versionIdQuery);
    plain.addHook('preValidation', syncHook((request) => {
      dropIgnoredQueryParameters(request);
      refuseVersionWrites(request);
    }));
    const api = plain.withTypeProvider<RouteSchemaTypes>();
    registerHealthRoutes(api, deps);
    registerMetricsRoute(api, deps);
    registerSessionRoutes(api, deps);
    registerUserRoutes(api, deps);
    registerTokenRoutes(api, deps);
    registerFolderRoutes(api, deps);
    registerDocumentRoutes(api, deps);
    registerActionRoutes(api, deps);
    registerConvertRoutes(api, deps);
    registerJobRoutes(api, deps);
    registerAnnotationContentRoutes(api, deps);
    registerRedactionRoutes(api, deps);
    registerPermissionRoutes(api, deps);
    registerOutlineRoutes(api, deps);
    registerCompareRoutes(api, deps);
    registerAttachmentRoutes(api, deps);
    registerMetadataRoutes(api, deps);
    registerAnnotationRoutes(api, deps);
    registerFieldRoutes(api, deps);
    registerFigureRoutes(api, deps);
    registerPageRoutes(api, deps);
    registerExportRoutes(api, deps);
    registerVersionRoutes(api, deps);
    registerTrashRoutes(api, deps);
    registerSignatureRoutes(api, deps);
    registerPreflightRoutes(api, deps);
    registerOptimizeProfileRoutes(api, deps);
    registerPipelineRoutes(api, deps);
    registerWatchedFolderRoutes(api, deps);
    api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  }, { prefix: API_PREFIX });
  addMethodNotAllowedRoutes();
  return app;
}

/**
 * A hook that does its work at once (it throws to refuse the request): Fastify goes on to the next hook in the same
 * turn, where an async hook costs a promise and a turn of the microtask queue on every request (issue 38: a warm read
 * passes about fifteen hooks; bench/results/annlist-2026-11-30.md). Fastify's hook runner turns what it throws into
 * the request's error, as it does a rejected promise.
 */
export function syncHook(check: (request: FastifyRequest, reply: FastifyReply) => void) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    check(request, reply);
    done();
  };
}

/**
 * PDFSERVICE_TRUST_PROXY as Fastify takes it. A hop count becomes a function: Fastify's own number option trusts no
 * proxy at all (it cannot check the nearest peer), and `true` there would trust every entry, the client's own
 * left-most one included.
 */
function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/**
 * The request as logged: pino's usual fields, with the URL as the client sent it rather than as routing packed it
 * (document-urls.ts), its secret-looking query values hidden (log-redaction.ts).
 */
function requestForLog(req: { method: string; url: string; originalUrl?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return { method: req.method, url: redactQuerySecrets(req.originalUrl ?? req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/** pino's error serializer, with URLs in the message and stack (a framework error may quote the request's) redacted alike. */
function errorForLog(err: Error) {
  const logged = pino.stdSerializers.err(err);
  if (typeof logged.message === 'string') logged.message = redactQuerySecrets(logged.message);
  if (typeof logged.stack === 'string') logged.stack = redactQuerySecrets(logged.stack);
  return logged;
}

function registerBodyParsers(app: FastifyInstance, deps: AppDeps): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // JSON merge patches (RFC 7396: PATCH .../metadata) are JSON bodies.
  app.addContentTypeParser(['application/json', 'application/merge-patch+json'], { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    // An empty body is an absent one (a login with Basic credentials, a trash restore without savePath); whitespace
    // alone is no JSON text (RFC 8259: a value is required), 400 as any malformed body (Schemathesis sent "\r").
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ServiceError('MALFORMED_JSON', 'The JSON body is not well-formed'), undefined);
    }
  });
  app.addContentTypeParser(['application/xml', 'text/xml'], { parseAs: 'string' }, (req, body, done) => {
    try {
      const { root, value } = parseXmlBody(String(body));
      req.xmlRoot = root;
      done(null, value);
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // An XMP packet (PUT .../metadata/xmp) arrives whole, within the body limit, and is parsed by an engine worker.
  app.addContentTypeParser(XMP_BODY_TYPE, { parseAs: 'buffer' }, (req, body, done) => {
    if (!req.routeOptions.config.xmpBody) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(XMP_BODY_TYPE), undefined);
    done(null, body);
  });
  // Documents, files, and XFDF and FDF bodies (annotations and form field data) arrive as streams: the
  // operation stages them on disk with its own size limit, and the engine reads them from there. XFDF and
  // FDF may embed files, so they have a limit of their own rather than the model limit.
  const streamed = (limit: number, what: string) => (req: FastifyRequest, payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return done(new ServiceError('PAYLOAD_TOO_LARGE', `${what} are limited to ${limit} bytes`), undefined);
    done(null, payload);
  };
  app.addContentTypeParser(XFDF_BODY_TYPES, streamed(deps.config.maxXfdfBytes, 'XFDF and FDF bodies'));
  const uploads = streamed(deps.config.maxUploadBytes, 'Uploads');
  app.addContentTypeParser(BINARY_UPLOAD_TYPES, (req, payload, done) => {
    // Office types (text/plain and text/csv among them) are bodies of a document PUT only: to any other route they
    // are 415, as a type without a parser is, rather than a stream a JSON route would misread.
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (OFFICE_UPLOAD_TYPES.includes(type) && !req.routeOptions.config.officeBody) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type), undefined);
    uploads(req, payload, done);
  });
}
