import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { Config } from '../config.js';
import type { Auth, DmsAccountAdmin, Principal } from '../auth/types.js';
import type { Operations } from '../operations/index.js';

/** What routes are given, built once in main.ts: routes reach documents only through the operations layer. */
export interface AppDeps {
  config: Config;
  auth: Auth;
  operations: Operations;
  /** The DMS accounts users act as, when the WebDAV store maps them (PDFSERVICE_WEBDAV_AUTH=mapped). */
  dmsAccounts?: DmsAccountAdmin;
}

/**
 * Request types from route schemas: body, query, params and headers are what
 * the schema validated (json-schema-to-ts's FromSchema, as
 * @fastify/type-provider-json-schema-to-ts derives it). Replies stay untyped:
 * response schemas only describe the OpenAPI output, and handlers send models
 * already rendered as JSON or XML, streams and bytes.
 */
export interface RouteSchemaTypes extends FastifyTypeProvider {
  validator: Validated<this['schema']>;
  serializer: unknown;
}

type Validated<S> = (JsonSchemaToTsProvider & { schema: S })['validator'];

/** The instance routes register on, typed by RouteSchemaTypes. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, RouteSchemaTypes>;

/** A request typed by a route schema, for handlers written apart from their route (shared by two routes). */
export type SchemaRequest<S extends FastifySchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, RawRequestDefaultExpression, S, RouteSchemaTypes>;

/** Per-route options read by the hooks in app.ts. */
export interface RouteOptions {
  /** Reachable without a session (health, login, API description). */
  public?: boolean;
  /** The right needed; by default the request method's (HEAD needs GET). */
  right?: 'admin';
  /** The route answers a model: refuse unacceptable Accept headers before any work (406). `text`: also as text/plain. */
  model?: boolean | 'text';
  /** Set on the 405 routes protocol.ts adds: the methods the URL supports. */
  allow?: string;
  /** The route takes an Office document as its body (PUT of a document): elsewhere the Office types are 415. */
  officeBody?: boolean;
  /** The route takes an XMP packet (application/rdf+xml) as its body (PUT .../metadata/xmp): elsewhere that type is 415. */
  xmpBody?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Root element name of an XML body (the model or action name). */
    xmlRoot: string | null;
  }
  interface FastifyContextConfig extends RouteOptions {}
}
