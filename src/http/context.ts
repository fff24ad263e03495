import type { Config } from '../config.js';
import type { Auth, Principal } from '../auth/types.js';
import type { Operations } from '../operations/index.js';

/** What routes are given, built once in main.ts: routes reach documents only through the operations layer. */
export interface AppDeps {
  config: Config;
  auth: Auth;
  operations: Operations;
}

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
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Root element name of an XML body (the model or action name). */
    xmlRoot: string | null;
  }
  interface FastifyContextConfig extends RouteOptions {}
}
