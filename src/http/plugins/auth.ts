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

/**
 * Who makes the request: `Authorization: Bearer` with an API token or, with OpenID Connect, a JWT access token (unknown or
 * revoked: 401 INVALID_CREDENTIALS, expired: 401 TOKEN_EXPIRED; tokens are too
 * long to guess, so failures are not throttled), `Authorization: Basic` when
 * present (wrong credentials are 401 INVALID_CREDENTIALS and count as failed logins), otherwise the
 * SESSIONID cookie (unknown or expired: 401 AUTHENTICATION_REQUIRED, and the
 * stale cookie is cleared). Other Authorization schemes are ignored.
 */
export async function authenticate(request: FastifyRequest, auth: Auth): Promise<Principal> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (bearer) return auth.bearer(bearer[1]!);
  const credentials = basicCredentials(request);
  if (credentials) return withBasicChallenge(() => auth.basic(credentials.username, credentials.password, request.ip));
  const sessionId = request.cookies[SESSION_COOKIE];
  if (sessionId) {
    const resumed = await auth.resume(sessionId);
    if (resumed) return resumed.principal;
    throw new ServiceError('AUTHENTICATION_REQUIRED', 'The session has expired or ended; log in again', undefined, {
      'Set-Cookie': expiredSessionCookie(secureCookie(request, false)),
    });
  }
  throw new ServiceError('AUTHENTICATION_REQUIRED', 'Log in with POST /pdfservice/v1/sessions, or send Authorization: Basic or Bearer (an API token, or an OpenID Connect access token where the service accepts them)');
}

/** An onRequest hook that only authenticates (any right will do): for routes every logged-in user may use. */
export function authenticateOnly(auth: Auth) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.principal = await authenticate(request, auth);
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
export function registerAuthHook(app: FastifyInstance, auth: Auth): void {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    if (!request.is404 && request.routeOptions.url?.startsWith(DOCS_PREFIX)) return;
    const principal = await authenticate(request, auth);
    request.principal = principal;
    if (request.is404) return;
    const right = requiredRight(request);
    if (!principal.rights.includes(right)) throw lacksRight(principal, right);
  });
}
