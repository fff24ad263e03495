import { boolean, ConfigError, integer, nonEmpty, type SettingsFeature } from './setting.js';

/** Users, sessions and logins (auth/, built by src/start/service.ts). */
export interface AuthSettings {
  adminUser: string;
  adminPassword: string | undefined;
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
  cookieSecure: boolean;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  passwordHashCost: number;
  oidcIssuer: string | undefined;
  oidcAudience: string | undefined;
  oidcUsernameClaim: string;
  oidcRightsClaim: string;
  oidcRights: OidcRightsMapping;
  oidcClockSkewSeconds: number;
  oidcJwksCooldownSeconds: number;
  oidcJwksMaxAgeSeconds: number;
  oidcClientId: string | undefined;
  oidcClientSecret: string | undefined;
  oidcRedirectUri: string | undefined;
  oidcScopes: string;
  oidcResource: string | undefined;
  oidcDisplayName: string | undefined;
}

/**
 * PDFSERVICE_OIDC_RIGHTS: the rights each value of the rights claim gives (`*`: every valid token). The names are
 * checked against the service's rights by auth/oidc.ts at start (config imports no layer), as WebDAV's user rights are.
 */
export type OidcRightsMapping = ReadonlyMap<string, readonly string[]>;

/**
 * The issuer exactly as it appears in tokens' `iss` (compared byte for byte, so it is not normalised): https, or http
 * only on a loopback address (a provider on the same machine, as in the tests), since keys fetched over plain HTTP
 * from elsewhere could be swapped on the way.
 */
export const issuerUrl = (raw: string): string => {
  const value = raw.trim();
  const parsed = URL.parse(value);
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw new ConfigError('must be an https URL');
  if (parsed.username || parsed.password || parsed.search || parsed.hash) throw new ConfigError('must be a URL without credentials, query or fragment');
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i.test(parsed.hostname);
  if (parsed.protocol === 'http:' && !loopback) throw new ConfigError('must be an https URL (http only on a loopback address)');
  return value;
};

/** `value=RIGHT,RIGHT;value=RIGHT`: see docs/oidc.md. */
export const rightsMapping = (raw: string): OidcRightsMapping => {
  const mapping = new Map<string, string[]>();
  for (const entry of raw.split(';').map((e) => e.trim()).filter(Boolean)) {
    const eq = entry.lastIndexOf('=');
    const value = eq > 0 ? entry.slice(0, eq).trim() : '';
    if (!value) throw new ConfigError(`has "${entry}", which is not value=RIGHT,RIGHT`);
    const rights = entry.slice(eq + 1).split(',').map((r) => r.trim()).filter(Boolean);
    if (rights.length === 0) throw new ConfigError(`gives "${value}" no right`);
    mapping.set(value, [...new Set([...(mapping.get(value) ?? []), ...rights])]);
  }
  return mapping;
};

/** The console's callback: an absolute http(s) URL ending in the callback route, as registered at the issuer. */
const redirectUri = (raw: string): string => {
  const value = raw.trim();
  const parsed = URL.parse(value);
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.search || parsed.hash) throw new ConfigError('must be an http(s) URL without query or fragment');
  if (!parsed.pathname.endsWith('/pdfservice/v1/sessions/oidc/callback')) throw new ConfigError('must end in /pdfservice/v1/sessions/oidc/callback (the service\'s address as browsers reach it, then that path)');
  return value;
};

/** A claim name, or a dotted path into nested claims (`realm_access.roles`). */
const claimPath = (raw: string): string => {
  const value = raw.trim();
  if (!/^[^.\s]+(\.[^.\s]+)*$/.test(value)) throw new ConfigError('must be a claim name or a dotted path of claim names');
  return value;
};

export const AUTH: SettingsFeature<AuthSettings> = {
  settings: {
    adminUser: { env: 'PDFSERVICE_ADMIN_USER', doc: 'Name of the admin created at the first start', default: 'admin', parse: nonEmpty },
    adminPassword: {
      env: 'PDFSERVICE_ADMIN_PASSWORD',
      doc: 'Password of that admin (used only when no user exists yet)',
      shown: 'generated',
      default: undefined,
      parse: nonEmpty,
    },
    sessionIdleSeconds: { env: 'PDFSERVICE_SESSION_IDLE_SECONDS', doc: 'A session unused this long expires', default: 30 * 60, parse: integer(1, 31 * 86400) },
    sessionMaxSeconds: { env: 'PDFSERVICE_SESSION_MAX_SECONDS', doc: 'A session expires this long after login, whatever its use', default: 12 * 3600, parse: integer(1, 366 * 86400) },
    cookieSecure: { env: 'PDFSERVICE_COOKIE_SECURE', doc: 'Mark the session cookie `Secure` always (set it when the service is reached over TLS). It is also `Secure` whenever a request came over TLS: directly, or through a trusted proxy saying `X-Forwarded-Proto: https`', default: false, parse: boolean },
    loginMaxFailures: { env: 'PDFSERVICE_LOGIN_MAX_FAILURES', doc: 'Failed logins for one user name from one client address before 429; one address may fail 5 times as often over all names (see docs/api.md)', default: 5, parse: integer(1, 1000) },
    loginLockoutSeconds: { env: 'PDFSERVICE_LOGIN_LOCKOUT_SECONDS', doc: 'How long that 429 lasts', default: 60, parse: integer(1, 86400) },
    passwordHashCost: {
      env: 'PDFSERVICE_PASSWORD_HASH_COST',
      doc: "scrypt's cost for new and changed passwords, as log2 of N (r 8, p 1): 15 is 32 MiB and about 0.1 s of CPU a hash, paid at each login and at the first Basic request of a minute. Each stored hash keeps the cost it was made with. Below 15 only for tests (the test suites use 10: a hash or a check then takes about 2 ms of CPU instead of about 100)",
      default: 15,
      parse: integer(10, 20),
    },
    oidcIssuer: {
      env: 'PDFSERVICE_OIDC_ISSUER',
      doc: 'An OpenID Connect issuer whose JWT access tokens the service accepts as `Authorization: Bearer` ([docs/oidc.md](docs/oidc.md)), exactly as the tokens\' `iss` says it; its keys come from the `jwks_uri` of `<issuer>/.well-known/openid-configuration`. https (http only on a loopback address). Unset: no OpenID Connect',
      default: undefined,
      parse: issuerUrl,
    },
    oidcAudience: { env: 'PDFSERVICE_OIDC_AUDIENCE', doc: 'The audience (`aud`) a token must name to be accepted here; required with `PDFSERVICE_OIDC_ISSUER`', default: undefined, parse: nonEmpty },
    oidcUsernameClaim: { env: 'PDFSERVICE_OIDC_USERNAME_CLAIM', doc: 'The claim whose value is the user name of an OpenID Connect user (a dotted path reaches nested claims). `sub` is the identifier the issuer guarantees stable and unique; `preferred_username` is readable but may change', default: 'sub', parse: claimPath },
    oidcRightsClaim: { env: 'PDFSERVICE_OIDC_RIGHTS_CLAIM', doc: 'The claim whose values `PDFSERVICE_OIDC_RIGHTS` maps to rights: an array of strings, or one string of space-separated values (as `scope`); a dotted path reaches nested claims (`realm_access.roles`)', default: 'groups', parse: claimPath },
    oidcRights: {
      env: 'PDFSERVICE_OIDC_RIGHTS',
      doc: 'Which rights each value of the rights claim gives: `value=RIGHT,RIGHT;value=RIGHT`, rights from GET, POST, PUT, DELETE, admin; a token gets the union over its values; `*=...` gives rights to every valid token. Unset: OpenID Connect users have no rights (every request 403)',
      shown: 'empty',
      default: () => new Map(),
      parse: rightsMapping,
    },
    oidcClockSkewSeconds: { env: 'PDFSERVICE_OIDC_CLOCK_SKEW_SECONDS', doc: 'How far the issuer\'s clock may be from ours when `exp`, `nbf` and `iat` are checked', default: 30, parse: integer(0, 300) },
    oidcJwksCooldownSeconds: { env: 'PDFSERVICE_OIDC_JWKS_COOLDOWN_SECONDS', doc: 'A token signed with a key the cached key set lacks fetches the set again, at most once in this many seconds (a rotated key is found at once; tokens with made-up key ids cannot make the service hammer the issuer)', default: 30, parse: integer(0, 3600) },
    oidcJwksMaxAgeSeconds: { env: 'PDFSERVICE_OIDC_JWKS_MAX_AGE_SECONDS', doc: 'The issuer\'s key set is fetched again when older than this (so a key the issuer withdrew stops being accepted); while the issuer cannot be reached after that, OpenID Connect requests get 503', default: 600, parse: integer(10, 86400) },
    oidcClientId: {
      env: 'PDFSERVICE_OIDC_CLIENT_ID',
      doc: 'The console signs in through the issuer ([docs/oidc.md](docs/oidc.md#console-sign-in)) as this OAuth2 client: a confidential client of the authorization-code flow with PKCE, registered at the issuer with `PDFSERVICE_OIDC_REDIRECT_URI`. Unset: the console signs in with passwords only',
      default: undefined,
      parse: nonEmpty,
    },
    oidcClientSecret: { env: 'PDFSERVICE_OIDC_CLIENT_SECRET', doc: 'That client\'s secret (sent to the token endpoint with HTTP Basic, `client_secret_basic`); required with `PDFSERVICE_OIDC_CLIENT_ID`', default: undefined, parse: nonEmpty },
    oidcRedirectUri: { env: 'PDFSERVICE_OIDC_REDIRECT_URI', doc: 'Where the issuer sends the browser back: the service\'s address as browsers reach it followed by `/pdfservice/v1/sessions/oidc/callback`, exactly as registered at the issuer; required with `PDFSERVICE_OIDC_CLIENT_ID`', default: undefined, parse: redirectUri },
    oidcScopes: { env: 'PDFSERVICE_OIDC_SCOPES', doc: 'The scopes the console\'s sign-in asks for, space-separated; `openid` is always added. Ask for those the rights mapping reads when the rights claim is `scope`', default: 'openid', parse: nonEmpty },
    oidcResource: { env: 'PDFSERVICE_OIDC_RESOURCE', doc: 'A resource indicator (RFC 8707) the sign-in names, for issuers that choose the access token\'s audience by it (oidc-provider); unset for those that do not (Keycloak)', default: undefined, parse: nonEmpty },
    oidcDisplayName: { env: 'PDFSERVICE_OIDC_DISPLAY_NAME', doc: 'The issuer\'s name on the console\'s button "Sign in with …"', shown: 'the issuer\'s host name', default: undefined, parse: nonEmpty },
  },
  check(config) {
    if (config.oidcIssuer !== undefined && config.oidcAudience === undefined) return ['PDFSERVICE_OIDC_AUDIENCE must be set with PDFSERVICE_OIDC_ISSUER: a token issued for another service must not be accepted here'];
    if (config.oidcClientId !== undefined) {
      if (config.oidcIssuer === undefined) return ['PDFSERVICE_OIDC_CLIENT_ID needs PDFSERVICE_OIDC_ISSUER (the issuer the console signs in through)'];
      if (config.oidcClientSecret === undefined) return ['PDFSERVICE_OIDC_CLIENT_SECRET must be set with PDFSERVICE_OIDC_CLIENT_ID'];
      if (config.oidcRedirectUri === undefined) return ['PDFSERVICE_OIDC_REDIRECT_URI must be set with PDFSERVICE_OIDC_CLIENT_ID'];
    }
    return [];
  },
};
