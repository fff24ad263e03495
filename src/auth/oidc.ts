import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { AuthSettings, OidcRightsMapping } from '../config/auth.js';
import { issuerUrl } from '../config/auth.js';
import { ServiceError } from '../errors.js';
import { tokenRefused } from './tokens.js';
import { RIGHTS, type Principal, type Right } from './types.js';

/**
 * Accepts JWT access tokens of one OpenID Connect issuer (docs/oidc.md). The token is checked by `jose` (panva, MIT):
 * signature with a key of the issuer's JWKS, `iss`, `aud`, `exp` and `nbf` with a small clock skew, and only the
 * asymmetric algorithms below, so `alg: none` and HS256 "signed" with the public key are refused before any key is
 * looked up. The key set is found through discovery and cached by jose's remote key set: fetched again when older
 * than the maximum age, and at once for a token whose `kid` it lacks (a rotated key), at most once a cooldown.
 */

/** Asymmetric JWS algorithms: with these the issuer's published keys can only verify, never sign. */
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** How long one fetch of the discovery document or the key set may take. */
const FETCH_TIMEOUT_MS = 5000;
/** Seconds a client is told to wait when the issuer cannot be reached. */
const RETRY_AFTER_SECONDS = 10;
/** A user name longer than this is no name (service user names are shorter still). */
const USERNAME_MAX = 256;

export type OidcSettings = Pick<AuthSettings, 'oidcUsernameClaim' | 'oidcRightsClaim' | 'oidcRights' | 'oidcClockSkewSeconds' | 'oidcJwksCooldownSeconds' | 'oidcJwksMaxAgeSeconds'> & {
  oidcIssuer: string;
  oidcAudience: string;
};

/** 401 with the RFC 6750 challenge of every refused bearer token. */
export function refused(detail: string, code: 'OIDC_TOKEN_INVALID' | 'OIDC_TOKEN_EXPIRED' = 'OIDC_TOKEN_INVALID'): ServiceError {
  return tokenRefused(code, detail);
}

function unavailable(what: string, cause: unknown): ServiceError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ServiceError('OIDC_PROVIDER_UNAVAILABLE', `The OpenID Connect issuer's ${what} could not be fetched (${why}); OpenID Connect tokens cannot be checked until it can`, undefined, {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}

/** A failure to reach the issuer, as opposed to a token the issuer's keys refuse. */
class Unreachable extends Error {}

/** Errors of the key lookup that are the token's fault: no key for its `kid`/`alg`, or a header no key fits. */
function tokenFault(err: unknown): boolean {
  return err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys || err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported || err instanceof errors.JWSInvalid;
}

/** The value at a dotted path of claims (`realm_access.roles`); a claim whose own name has the dots wins. */
function claimAt(payload: JWTPayload, path: string): unknown {
  if (Object.prototype.hasOwnProperty.call(payload, path)) return payload[path];
  let value: unknown = payload;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The rights a token's claim values give: the union of the mapping's entries for them, and of `*`. */
export function mappedRights(mapping: OidcRightsMapping, claim: unknown): Right[] {
  const values = typeof claim === 'string' ? claim.split(/\s+/) : Array.isArray(claim) ? claim.filter((v): v is string => typeof v === 'string') : [];
  const rights = new Set<Right>((mapping.get('*') ?? []) as Right[]);
  for (const value of values) for (const right of mapping.get(value) ?? []) rights.add(right as Right);
  return RIGHTS.filter((r) => rights.has(r));
}

/** The endpoints of the authorization-code flow, from the discovery document (console sign-in, oidc-signin.ts). */
export interface OidcEndpoints {
  authorization: string;
  token: string;
}

export class OidcVerifier {
  private keys: JWTVerifyGetKey | undefined;
  private endpointsFound: OidcEndpoints | undefined;
  private discovering: Promise<JWTVerifyGetKey> | undefined;
  /** When discovery last failed: it is not tried again within the cooldown, so a dead issuer costs one fetch a cooldown. */
  private failed: { at: number; error: ServiceError } | undefined;

  /** Refuses a mapping that names a right the service does not have (a typo would silently give nothing). */
  constructor(private readonly settings: OidcSettings) {
    for (const [value, rights] of settings.oidcRights) {
      const unknown = rights.filter((r) => !(RIGHTS as readonly string[]).includes(r));
      if (unknown.length > 0) throw new Error(`Invalid configuration: PDFSERVICE_OIDC_RIGHTS gives "${value}" "${unknown.join(',')}", which is not one of ${RIGHTS.join(', ')}`);
    }
  }

  /** The user a JWT access token names, with the rights the mapping gives; 401 for a bad token, 503 when the issuer is unreachable. */
  async authenticate(token: string): Promise<Principal> {
    const getKey = await this.keySet();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer: this.settings.oidcIssuer,
        audience: this.settings.oidcAudience,
        algorithms: ASYMMETRIC_ALGORITHMS,
        clockTolerance: this.settings.oidcClockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw this.explain(err);
    }
    const username = claimAt(payload, this.settings.oidcUsernameClaim);
    if (typeof username !== 'string' || username.length === 0 || username.length > USERNAME_MAX || /[\p{Cc}]/u.test(username)) {
      throw refused(`The token has no usable "${this.settings.oidcUsernameClaim}" claim (PDFSERVICE_OIDC_USERNAME_CLAIM) naming its user`);
    }
    const rights = mappedRights(this.settings.oidcRights, claimAt(payload, this.settings.oidcRightsClaim));
    return { username, rights, via: 'oidc', oidc: true };
  }

  /**
   * The claims of an ID token the console's sign-in received (OpenID Connect Core 3.1.3.7): signed by the issuer's
   * keys with an asymmetric algorithm, `iss` the issuer, `aud` the client, not expired, and its `nonce` the one the
   * sign-in sent (a token of another sign-in, replayed here, has another).
   */
  async verifyIdToken(token: string, clientId: string, nonce: string): Promise<JWTPayload> {
    const getKey = await this.keySet();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer: this.settings.oidcIssuer,
        audience: clientId,
        algorithms: ASYMMETRIC_ALGORITHMS,
        clockTolerance: this.settings.oidcClockSkewSeconds,
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (err) {
      throw this.explain(err);
    }
    if (payload.nonce !== nonce) throw refused('The ID token\'s nonce is not the one this sign-in sent');
    return payload;
  }

  /** The authorization and token endpoints; 503 while the discovery document cannot be fetched. */
  async endpoints(): Promise<OidcEndpoints> {
    await this.keySet();
    if (!this.endpointsFound) throw unavailable('discovery document', new Error('it names no authorization_endpoint or token_endpoint'));
    return this.endpointsFound;
  }

  /** A ServiceError for what jose refused: 401 naming the check that failed, or 503 when the keys could not be fetched. */
  private explain(err: unknown): ServiceError {
    if (err instanceof Unreachable) return unavailable('key set (jwks_uri)', err.cause);
    if (err instanceof errors.JWTExpired) return refused('The token has expired (exp)', 'OIDC_TOKEN_EXPIRED');
    if (err instanceof errors.JWTClaimValidationFailed) {
      const reasons: Record<string, string> = {
        nbf: 'The token is not valid yet (nbf)',
        iss: 'The token was not issued by PDFSERVICE_OIDC_ISSUER (iss)',
        aud: 'The token is not meant for this service (aud is not PDFSERVICE_OIDC_AUDIENCE)',
        exp: 'The token has no expiry (exp)',
      };
      return refused(reasons[err.claim] ?? `The token's "${err.claim}" claim is not acceptable: ${err.reason}`);
    }
    if (err instanceof errors.JOSEAlgNotAllowed) return refused(`The token is not signed with an asymmetric algorithm (${ASYMMETRIC_ALGORITHMS.join(', ')})`);
    if (err instanceof errors.JWKSNoMatchingKey) return refused('No key of the issuer\'s key set matches the token\'s kid and alg');
    if (err instanceof errors.JWSSignatureVerificationFailed) return refused('The token\'s signature is not valid');
    if (err instanceof errors.JOSEError) return refused(`The token is not a valid signed JWT: ${err.message}`);
    return refused('The token is not a valid signed JWT');
  }

  /** The issuer's key set, found through discovery once (RFC 8414 / OpenID Connect Discovery 1.0). */
  private async keySet(): Promise<JWTVerifyGetKey> {
    if (this.keys) return this.keys;
    if (this.failed && Date.now() < this.failed.at + this.settings.oidcJwksCooldownSeconds * 1000) throw this.failed.error;
    this.discovering ??= this.discover().finally(() => (this.discovering = undefined));
    return this.discovering;
  }

  private async discover(): Promise<JWTVerifyGetKey> {
    const issuer = this.settings.oidcIssuer;
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let jwksUri: string;
    try {
      const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown; authorization_endpoint?: unknown; token_endpoint?: unknown };
      // The discovery document must name the issuer configured, or it describes another issuer (OIDC Discovery 4.3).
      if (document.issuer !== issuer) throw new Error(`${url} names the issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(issuer)}`);
      if (typeof document.jwks_uri !== 'string') throw new Error(`${url} has no jwks_uri`);
      jwksUri = issuerUrl(document.jwks_uri);
      // Issuers for bearer tokens only (client_credentials) may lack an authorization endpoint; sign-in then answers 503.
      if (typeof document.authorization_endpoint === 'string' && typeof document.token_endpoint === 'string') {
        // The browser goes to the first (any URL of the issuer's); the service sends the client secret to the second: https, as jwks_uri.
        new URL(document.authorization_endpoint);
        this.endpointsFound = { authorization: document.authorization_endpoint, token: issuerUrl(document.token_endpoint) };
      }
    } catch (err) {
      const error = unavailable('discovery document', err);
      this.failed = { at: Date.now(), error };
      throw error;
    }
    const remote = createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: FETCH_TIMEOUT_MS,
      cooldownDuration: this.settings.oidcJwksCooldownSeconds * 1000,
      cacheMaxAge: this.settings.oidcJwksMaxAgeSeconds * 1000,
    });
    this.keys = async (header, token) => {
      try {
        return await remote(header, token);
      } catch (err) {
        if (tokenFault(err)) throw err;
        throw new Unreachable('key set', { cause: err });
      }
    };
    this.failed = undefined;
    return this.keys;
  }
}
