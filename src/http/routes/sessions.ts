import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNIN_SECONDS } from '../../auth/oidc-signin.js';
import { RIGHTS, type Principal, type SessionView } from '../../auth/types.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import {
  authenticateOnly,
  basicCredentials,
  refuseCrossSite,
  expiredSessionCookie,
  secureCookie,
  SESSION_COOKIE,
  SESSION_COOKIE_PATH,
  withBasicChallenge,
} from '../plugins/auth.js';
import { sendModel } from '../reply.js';
import { errorResponses } from '../schemas/common.js';
import { requireXmlRoot } from '../xml.js';

const SESSION_XML = { root: 'Session', items: { rights: 'right' } };
const CURRENT = '/pdfservice/v1/sessions/current';
const BODY_TYPES = ['application/json', 'application/xml', 'text/xml'];
/** Ties a sign-in through the issuer to the browser that began it (oidc-signin.ts); only the sign-in routes see it. */
const SIGNIN_COOKIE = 'PDFSERVICE_OIDC_SIGNIN';
const SIGNIN_PATH = '/pdfservice/v1/sessions/oidc';
/** Where a browser signed in through the issuer lands: the console, which then reads /sessions/current. */
const CONSOLE = '/pdfservice/v1/console/';

const oidcSignInSchema = {
  title: 'OidcSignInModel',
  type: 'object',
  description: 'Whether the console can sign in through the OpenID Connect issuer, and how.',
  properties: {
    enabled: { type: 'boolean', description: 'true when PDFSERVICE_OIDC_CLIENT_ID (with the issuer) is set' },
    name: { type: 'string', description: 'The issuer\'s name for the button "Sign in with <name>" (PDFSERVICE_OIDC_DISPLAY_NAME)' },
    start: { type: 'string', description: 'Where the browser goes to begin the sign-in (a navigation, not a fetch)' },
  },
  required: ['enabled'],
} as const;

const redirectSchema = { description: 'A redirect (Location)', type: 'null' } as const;

const sessionModelSchema = {
  title: 'SessionModel',
  type: 'object',
  description: 'SessionModel (XML: <Session>, rights as <rights><right>…</right></rights>): who is logged in, and until when.',
  properties: {
    username: { type: 'string', description: 'The logged-in user' },
    rights: { type: 'array', items: { type: 'string', enum: [...RIGHTS] }, description: 'The user\'s rights as of now' },
    via: { type: 'string', enum: ['session', 'basic', 'token', 'oidc'], description: '"session" for the SESSIONID cookie, "basic" for Authorization: Basic, "token" for Authorization: Bearer with an API token (rights: those the token has now), "oidc" for Authorization: Bearer with an OpenID Connect access token (rights: those PDFSERVICE_OIDC_RIGHTS maps its claim to)' },
    createdAt: { type: 'string', format: 'date-time', description: 'Login time (sessions only)' },
    expiresAt: { type: 'string', format: 'date-time', description: 'When the session ends if unused: the earlier of the idle and the absolute limit (sessions only)' },
    absoluteExpiresAt: { type: 'string', format: 'date-time', description: 'When the session ends however it is used (sessions only)' },
  },
  required: ['username', 'rights', 'via'],
} as const;

const credentialsSchema = {
  title: 'Credentials',
  // null: no body at all, for a login with Authorization: Basic
  type: ['object', 'null'],
  description:
    'Credentials as JSON {"username","password"} or XML <Session><username/><password/></Session>. ' +
    'Leave the body out to log in with Authorization: Basic instead.',
  properties: {
    username: { type: 'string', maxLength: 64, description: 'User name' },
    password: { type: 'string', maxLength: 1024, description: 'Password' },
  },
  required: ['username', 'password'],
  additionalProperties: false,
} as const;

/** The SessionModel, properties in the schema's order so JSON and XML read alike. */
function sessionModel(view: SessionView | Pick<SessionView, 'username' | 'rights'>, via: Principal['via']) {
  const times = 'createdAt' in view ? { createdAt: view.createdAt, expiresAt: view.expiresAt, absoluteExpiresAt: view.absoluteExpiresAt } : {};
  return { username: view.username, rights: view.rights, via, ...times };
}

export function registerSessionRoutes(api: Api, deps: AppDeps): void {
  const { auth, config } = deps;
  /**
   * "Who am I" and logging out need no particular right, which `config.right`
   * cannot say: these routes are `public` to the global hook and authenticate
   * with their own onRequest hook instead, which accepts any logged-in user.
   */
  /** The SESSIONID cookie of a new session, password login or sign-in through the issuer alike. */
  const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, sessionId: string) => {
    reply.setCookie(SESSION_COOKIE, sessionId, { path: SESSION_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie(request, config.cookieSecure), maxAge: config.sessionMaxSeconds });
  };
  const anyUser = { config: { public: true, model: true }, onRequest: authenticateOnly(auth, config.corsOrigins) };

  api.post('/sessions', {
    config: { public: true, model: true },
    schema: {
      summary: 'Log in',
      description:
        'Checks the credentials and opens a session: 201, the SESSIONID cookie (HttpOnly, SameSite=Lax, Path=/pdfservice, ' +
        'Secure when configured or when the request came over TLS (directly or through a trusted proxy), Max-Age = the absolute session lifetime), Location of the current session, and the SessionModel. ' +
        'Wrong credentials are 401 INVALID_CREDENTIALS; after repeated failures for a user name or from an address, 429 with Retry-After. ' +
        'A login from a page of another site (its Origin neither this service nor in PDFSERVICE_CORS_ORIGINS) is 403 CROSS_SITE_REQUEST: ' +
        'no page may sign a visitor in under an account of its choosing. A state-changing request with the cookie is held to the same rule.',
      tags: ['sessions'],
      // No prior authentication, or Basic instead of a body.
      security: [{}, { basic: [] }],
      consumes: BODY_TYPES,
      xmlRoot: 'Session',
      bodyRequired: false,
      body: credentialsSchema,
      response: { 201: sessionModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    refuseCrossSite(request, config.corsOrigins);
    requireXmlRoot(request, 'Session');
    // bodyRequired: false, so the body may be absent (Basic credentials instead).
    const body: typeof request.body | undefined = request.body;
    const basic = body ? null : basicCredentials(request);
    const credentials = body ?? basic;
    if (!credentials) {
      throw new ServiceError('VALIDATION_FAILED', 'Send {"username","password"} as JSON or XML, or log in with Authorization: Basic');
    }
    const login = () => auth.login(credentials.username, credentials.password, request.ip);
    // A failed Basic login is challenged like Basic anywhere else; a failed form login is not (no browser dialog).
    const { sessionId, session } = await (basic ? withBasicChallenge(login) : login());
    setSessionCookie(request, reply, sessionId);
    reply.header('Location', CURRENT).header('Cache-Control', 'no-store');
    return sendModel(request, reply, SESSION_XML, sessionModel(session, 'session'), 201);
  });

  api.get('/sessions/oidc', {
    config: { public: true },
    schema: {
      summary: 'Sign-in through the OpenID Connect issuer: is it offered',
      description: 'Public: the console asks it to show "Sign in with <name>". {"enabled": false} when the service has no such sign-in.',
      tags: ['sessions'],
      security: [{}],
      response: { 200: oidcSignInSchema, ...errorResponses },
    },
  }, async (_request, reply) => {
    const signIn = auth.oidcSignIn;
    reply.header('Cache-Control', 'no-store');
    return signIn ? { enabled: true, name: signIn.settings.displayName, start: `${SIGNIN_PATH}/start` } : { enabled: false };
  });

  const signInOf = () => {
    if (!auth.oidcSignIn) throw new ServiceError('OIDC_SIGNIN_NOT_CONFIGURED', 'Set PDFSERVICE_OIDC_CLIENT_ID, PDFSERVICE_OIDC_CLIENT_SECRET and PDFSERVICE_OIDC_REDIRECT_URI with PDFSERVICE_OIDC_ISSUER (docs/oidc.md)');
    return auth.oidcSignIn;
  };

  api.get('/sessions/oidc/start', {
    config: { public: true },
    schema: {
      // A browser's navigation (a redirect, no model), not an API call: left out of the description, as the console's pages.
      hide: true,
      summary: 'Begin signing in through the OpenID Connect issuer',
      description:
        'For a browser (a navigation): 303 to the issuer\'s authorization endpoint (authorization-code flow, PKCE S256, a state and a nonce the service keeps), ' +
        'with a cookie that ties the sign-in to this browser. The issuer sends the browser back to /sessions/oidc/callback. ' +
        '503 OIDC_PROVIDER_UNAVAILABLE when the issuer\'s discovery document cannot be fetched; 404 OIDC_SIGNIN_NOT_CONFIGURED without the settings.',
      tags: ['sessions'],
      security: [{}],
      response: { 303: redirectSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const { location, binding } = await signInOf().begin();
    reply.setCookie(SIGNIN_COOKIE, binding, { path: SIGNIN_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie(request, config.cookieSecure), maxAge: SIGNIN_SECONDS });
    return reply.code(303).header('Location', location).header('Cache-Control', 'no-store').send();
  });

  api.get('/sessions/oidc/callback', {
    config: { public: true },
    schema: {
      // A browser's navigation (a redirect, no model), not an API call: left out of the description, as the console's pages.
      hide: true,
      summary: 'Finish signing in through the OpenID Connect issuer',
      description:
        'Where the issuer sends the browser back (PDFSERVICE_OIDC_REDIRECT_URI). The state must be one this browser began here and not used yet; the service exchanges the code at the token endpoint ' +
        '(with the client secret and the PKCE verifier), checks the ID token (nonce) and the access token as a bearer token is checked, and opens a session for the user with the mapped rights: ' +
        '303 to the console with the SESSIONID cookie. 400 OIDC_SIGNIN_STATE_INVALID (state unknown, used, expired or of another browser), 401 OIDC_SIGNIN_FAILED (the issuer answered an error, refused the code, or its tokens are not acceptable), ' +
        '503 OIDC_PROVIDER_UNAVAILABLE (the issuer cannot be reached).',
      tags: ['sessions'],
      security: [{}],
      querystring: {
        type: 'object',
        properties: {
          code: { type: 'string', maxLength: 4096 },
          state: { type: 'string', maxLength: 256 },
          error: { type: 'string', maxLength: 256 },
          error_description: { type: 'string', maxLength: 1024 },
          iss: { type: 'string', maxLength: 2048, description: 'The issuer (RFC 9207), when it says so: must be PDFSERVICE_OIDC_ISSUER' },
        },
      },
      response: { 303: redirectSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const signIn = signInOf();
    const secure = secureCookie(request, config.cookieSecure);
    // The binding cookie is spent whatever happens: a sign-in that failed begins again with a new one.
    reply.clearCookie(SIGNIN_COOKIE, { path: SIGNIN_PATH, httpOnly: true, sameSite: 'lax', secure });
    const principal = await signIn.finish(request.query, request.cookies[SIGNIN_COOKIE]);
    const { sessionId } = await auth.openOidcSession(principal);
    setSessionCookie(request, reply, sessionId);
    request.log.info({ username: principal.username, rights: principal.rights }, 'signed in through the OpenID Connect issuer');
    return reply.code(303).header('Location', CONSOLE).header('Cache-Control', 'no-store').send();
  });

  api.get('/sessions/current', {
    ...anyUser,
    schema: {
      summary: 'Who is logged in',
      description:
        'The current session. With Authorization: Basic or Bearer there is no session: the answer names the user and rights with via "basic", "token" or "oidc" and no times.',
      tags: ['sessions'],
      response: { 200: sessionModelSchema, ...errorResponses },
    },
  }, async (request, reply) => {
    const principal = request.principal!;
    reply.header('Cache-Control', 'no-store');
    if (principal.via !== 'session') {
      return sendModel(request, reply, SESSION_XML, sessionModel(principal, principal.via));
    }
    // The hook has just resumed this session; read its times (it can only have expired in between).
    const resumed = await auth.resume(principal.sessionId!);
    if (!resumed) throw new ServiceError('AUTHENTICATION_REQUIRED', 'The session has expired or ended; log in again');
    return sendModel(request, reply, SESSION_XML, sessionModel(resumed.session, 'session'));
  });

  api.delete('/sessions/current', {
    ...anyUser,
    config: { public: true },
    schema: {
      summary: 'Log out',
      description:
        'Ends the current session and clears the SESSIONID cookie: 204. Any logged-in user may log out. ' +
        'With Authorization: Basic, a SESSIONID cookie sent along is ended too.',
      tags: ['sessions'],
      response: { 204: { description: 'Logged out', type: 'null' }, ...errorResponses },
    },
  }, async (request, reply) => {
    const sessionId = request.principal!.sessionId ?? request.cookies[SESSION_COOKIE];
    if (sessionId) await auth.logout(sessionId);
    return reply.code(204).header('Set-Cookie', expiredSessionCookie(secureCookie(request, config.cookieSecure))).send();
  });
}
