import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Auth, Principal, Right } from '../../auth/types.js';
import { ServiceError } from '../../errors.js';

export const SESSION_COOKIE = 'SESSIONID';
export const SESSION_COOKIE_PATH = '/pdfservice';

/**
 * The documentation page (@fastify/swagger-ui) registers its own routes, which
 * cannot carry `config.public`; it shows the same description that
 * /pdfservice/v1/openapi.json serves publicly, so it is public too.
 */
const DOCS_PREFIX = '/pdfservice/v1/docs';

/**
 * The challenge is sent only on 401s answering an `Authorization: Basic`
 * attempt: such a client speaks Basic already. Requests without credentials
 * (browsers with an expired cookie, scripts that forgot them) get no challenge,
 * so browsers never pop up a login dialog over the application's own login.
 */
const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="pdfservice", charset="UTF-8"' };

/** The right a request needs: `admin` where the route says so, else its method's (HEAD and OPTIONS read, PATCH writes). */
export function requiredRight(request: FastifyRequest): Right {
  if (request.routeOptions.config.right === 'admin') return 'admin';
  switch (request.method) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
      return 'GET';
    case 'POST':
      return 'POST';
    case 'PUT':
    case 'PATCH':
      return 'PUT';
    case 'DELETE':
      return 'DELETE';
    default:
      // A method no route here uses: only an admin gets past (they then see the honest 404/405).
      return 'admin';
  }
}

/** Name and password from an `Authorization: Basic` header; null when the header is another scheme or absent. */
export function basicCredentials(request: FastifyRequest): { username: string; password: string } | null {
  const header = request.headers.authorization;
  if (!header || !/^Basic(\s|$)/i.test(header)) return null;
  const token = header.slice('Basic'.length).trim();
  const decoded = /^[A-Za-z0-9+/]*={0,2}$/.test(token) ? Buffer.from(token, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new ServiceError('INVALID_CREDENTIALS', 'The Authorization header does not hold Basic credentials (base64 of name:password)', undefined, BASIC_CHALLENGE);
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Runs a check of Basic credentials; a 401 it ends in carries the Basic challenge. */
export async function withBasicChallenge<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'INVALID_CREDENTIALS') {
      throw new ServiceError(err.code, err.detail, err.extra, { ...err.headers, ...BASIC_CHALLENGE });
    }
    throw err;
  }
}

/**
 * Whether the session cookie is marked Secure: when PDFSERVICE_COOKIE_SECURE says so, and whenever the request came
 * over TLS, directly or through a proxy PDFSERVICE_TRUST_PROXY trusts (its X-Forwarded-Proto: https), so that a
 * deployment behind a TLS proxy gets Secure cookies without a setting of its own.
 */
export function secureCookie(request: FastifyRequest, configured: boolean): boolean {
  return configured || request.protocol === 'https';
}

/** A Set-Cookie value that makes the browser forget the session cookie. */
export function expiredSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=${SESSION_COOKIE_PATH}; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Methods that change nothing (RFC 9110 "safe"): the only ones a cross-site page may send with the session cookie. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery (docs/console.md, "Security"): a browser sends the session cookie with a request another
 * site's page makes, so a state-changing request that authenticates with the cookie must come from the service's own
 * origin or one PDFSERVICE_CORS_ORIGINS lists (those may send credentials). SameSite=Lax already keeps the cookie off
 * cross-site POST, PUT and DELETE in today's browsers; this check does not rely on it (older browsers, same-site
 * subdomains). Browsers send Origin on every such request, and Sec-Fetch-Site since 2020: a request with neither
 * comes from a script or a command line, which no page can make send the user's cookie, and passes.
 */
export function refuseCrossSite(request: FastifyRequest, trustedOrigins: readonly string[]): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  const own = `${request.protocol}://${request.host}`;
  if (origin !== undefined) {
    if (origin === own || trustedOrigins.includes(origin)) return;
    throw new ServiceError('CROSS_SITE_REQUEST', `A ${request.method} with the session cookie from the page of origin ${JSON.stringify(origin)}, which is neither this service (${own}) nor listed in PDFSERVICE_CORS_ORIGINS`);
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ServiceError('CROSS_SITE_REQUEST', `A ${request.method} with the session cookie from a ${site} page (Sec-Fetch-Site) without an Origin header`);
  }
}

/**
 * Who makes the request: `Authorization: Bearer` with an API token or, with OpenID Connect, a JWT access token (unknown or
 * revoked: 401 INVALID_CREDENTIALS, expired: 401 TOKEN_EXPIRED; tokens are too
 * long to guess, so failures are not throttled), `Authorization: Basic` when
 * present (wrong credentials are 401 INVALID_CREDENTIALS and count as failed logins), otherwise the
 * SESSIONID cookie (unknown or expired: 401 AUTHENTICATION_REQUIRED, and the
 * stale cookie is cleared; a state-changing request with it from another site: 403 CROSS_SITE_REQUEST, refuseCrossSite).
 * Other Authorization schemes are ignored.
 */
export async function authenticate(request: FastifyRequest, auth: Auth, trustedOrigins: readonly string[]): Promise<Principal> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (bearer) return auth.bearer(bearer[1]!);
  const credentials = basicCredentials(request);
  if (credentials) return withBasicChallenge(() => auth.basic(credentials.username, credentials.password, request.ip));
  const sessionId = request.cookies[SESSION_COOKIE];
  if (sessionId) {
    refuseCrossSite(request, trustedOrigins);
    const resumed = await auth.resume(sessionId);
    if (resumed) return resumed.principal;
    throw new ServiceError('AUTHENTICATION_REQUIRED', 'The session has expired or ended; log in again', undefined, {
      'Set-Cookie': expiredSessionCookie(secureCookie(request, false)),
    });
  }
  throw new ServiceError('AUTHENTICATION_REQUIRED', 'Log in with POST /pdfservice/v1/sessions, or send Authorization: Basic or Bearer (an API token, or an OpenID Connect access token where the service accepts them)');
}

/** An onRequest hook that only authenticates (any right will do): for routes every logged-in user may use. */
export function authenticateOnly(auth: Auth, trustedOrigins: readonly string[]) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.principal = await authenticate(request, auth, trustedOrigins);
  };
}

/**
 * 403 naming who lacks the right: the user, or the API token the request came with (a token has the rights it was
 * given that its user still has, so the user may well have the right the token lacks).
 */
export function lacksRight(principal: Principal, right: Right): ServiceError {
  const who = principal.via === 'token'
    ? `the API token this request came with (id ${principal.tokenId ?? 'unknown'}, of user ${JSON.stringify(principal.username)}) does not have: a token has the rights it was given that its user still has`
    : principal.via === 'oidc'
      ? `the OpenID Connect user ${JSON.stringify(principal.username)} does not have: PDFSERVICE_OIDC_RIGHTS gives it no such right for the values of its rights claim`
      : `user ${JSON.stringify(principal.username)} does not have`;
  return new ServiceError('FORBIDDEN', `This request needs the ${right} right, which ${who}`, { requiredRight: right });
}

/**
 * Authenticates every request except routes marked `config.public`, then checks
 * the right the route needs (403 FORBIDDEN naming it). Requests that match no
 * route are authenticated too, so anonymous clients learn nothing about what
 * exists; they get their honest 404 once logged in, without a rights check.
 */
export function registerAuthHook(app: FastifyInstance, auth: Auth, trustedOrigins: readonly string[]): void {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    if (!request.is404 && request.routeOptions.url?.startsWith(DOCS_PREFIX)) return;
    const principal = await authenticate(request, auth, trustedOrigins);
    request.principal = principal;
    if (request.is404) return;
    const right = requiredRight(request);
    if (!principal.rights.includes(right)) throw lacksRight(principal, right);
  });
}
