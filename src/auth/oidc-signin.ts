import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { OidcVerifier } from './oidc.js';
import { MemoryPendingSignIns, type PendingSignIn, type PendingSignInStore } from './oidc-pending.js';
import type { Principal } from './types.js';

/**
 * The console's sign-in through the OpenID Connect issuer (docs/oidc.md, "Console sign-in"): the service is a
 * confidential client of the authorization-code flow with PKCE (RFC 7636, S256). The browser only carries the
 * redirects: state, nonce and code verifier stay on the server (this process's memory, or Redis shared by the
 * instances: oidc-pending.ts), the code is exchanged here with the client secret,
 * and the tokens never reach the page. What the issuer answers is checked as a bearer token is (OidcVerifier), so the
 * user name, the rights mapping and the refusals are the same.
 */

export interface OidcSignInSettings {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string;
  resource: string | undefined;
  displayName: string;
}

/** How long a person may take at the issuer's pages (login, consent) before the sign-in must begin again. */
export const SIGNIN_SECONDS = 600;
/** How long the token request may take. */
const TOKEN_TIMEOUT_MS = 10_000;

const random = () => randomBytes(32).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest();

function stateInvalid(detail: string): ServiceError {
  return new ServiceError('OIDC_SIGNIN_STATE_INVALID', `${detail}; begin the sign-in again from the console`);
}

function failed(detail: string): ServiceError {
  return new ServiceError('OIDC_SIGNIN_FAILED', detail);
}

export class OidcSignIn {
  constructor(
    readonly settings: OidcSignInSettings,
    private readonly issuer: string,
    private readonly verifier: OidcVerifier,
    /** The OpenID Connect user a bearer token would be (the service-user name check included). */
    private readonly admit: (principal: Principal) => Promise<Principal>,
    /** Where sign-ins wait between the start and the callback: memory, or Redis with several instances. */
    private readonly pending: PendingSignInStore = new MemoryPendingSignIns(),
  ) {}

  /** A new sign-in: where to send the browser, and the binding value for its cookie. 503 while the issuer is unreachable. */
  async begin(): Promise<{ location: string; binding: string }> {
    const endpoints = await this.verifier.endpoints();
    const state = random();
    const binding = random();
    const pending: PendingSignIn = { nonce: random(), codeVerifier: random(), binding: sha256(binding).toString('base64url'), expiresAt: Date.now() + SIGNIN_SECONDS * 1000 };
    await this.pending.put(state, pending);
    const url = new URL(endpoints.authorization);
    const scopes = new Set(['openid', ...this.settings.scopes.split(/\s+/).filter(Boolean)]);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', this.settings.redirectUri);
    url.searchParams.set('scope', [...scopes].join(' '));
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', pending.nonce);
    url.searchParams.set('code_challenge', createHash('sha256').update(pending.codeVerifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
    if (this.settings.resource !== undefined) url.searchParams.set('resource', this.settings.resource);
    return { location: url.toString(), binding };
  }

  /**
   * The issuer's answer at the callback (its query) in the browser holding `binding`: the OpenID Connect user it signs
   * in. 400 OIDC_SIGNIN_STATE_INVALID for a state unknown, used, expired or of another browser; 401 OIDC_SIGNIN_FAILED
   * for an error of the issuer, a code it refuses or tokens that are not acceptable; 503 when it cannot be reached.
   */
  async finish(query: { code?: string; state?: string; error?: string; error_description?: string; iss?: string }, binding: string | undefined): Promise<Principal> {
    const state = query.state;
    if (!state) throw stateInvalid('The callback has no state');
    // Used once: a replayed callback finds nothing, whatever happens next.
    const pending = await this.pending.take(state);
    if (!pending) throw stateInvalid('The state is not one of a sign-in under way (used already, forged, expired, or begun before a restart)');
    if (pending.expiresAt <= Date.now()) throw stateInvalid(`The sign-in took longer than ${SIGNIN_SECONDS} s`);
    // Without this, a page could send a victim's browser to the callback with the page's own code and state (login CSRF).
    if (!binding || !timingSafeEqual(sha256(binding), Buffer.from(pending.binding, 'base64url'))) throw stateInvalid('The sign-in was begun in another browser (its cookie is missing or differs)');
    // RFC 9207: an issuer that names itself in the answer must be ours (an answer of another issuer, mixed up, is not).
    if (query.iss !== undefined && query.iss !== this.issuer) throw failed(`The answer comes from the issuer ${JSON.stringify(query.iss)}, not PDFSERVICE_OIDC_ISSUER`);
    if (query.error) {
      const description = query.error_description ? `: ${query.error_description}` : '';
      throw failed(`The issuer ended the sign-in with "${query.error}"${description}`);
    }
    if (!query.code) throw failed('The issuer\'s answer has neither a code nor an error');
    const tokens = await this.exchange(query.code, pending.codeVerifier);
    let principal: Principal;
    try {
      const id = await this.verifier.verifyIdToken(tokens.idToken, this.settings.clientId, pending.nonce);
      principal = await this.verifier.authenticate(tokens.accessToken);
      // Both tokens must be of the same person; the access token alone names the user and carries the rights claim.
      // jose: loaded with the verifier (oidc.ts), which only a configured issuer imports.
      const { decodeJwt } = await import('jose');
      if (decodeJwt(tokens.accessToken).sub !== id.sub) throw failed('The ID token and the access token name different subjects (sub)');
      return await this.admit(principal);
    } catch (err) {
      if (err instanceof ServiceError && (err.code === 'OIDC_TOKEN_INVALID' || err.code === 'OIDC_TOKEN_EXPIRED')) throw failed(`The issuer's tokens are not acceptable: ${err.detail}`);
      throw err;
    }
  }

  /** The code for tokens at the token endpoint (client_secret_basic, RFC 6749 2.3.1; the PKCE verifier). */
  private async exchange(code: string, codeVerifier: string): Promise<{ idToken: string; accessToken: string }> {
    const { token } = await this.verifier.endpoints();
    const credentials = `${encodeURIComponent(this.settings.clientId)}:${encodeURIComponent(this.settings.clientSecret)}`;
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.settings.redirectUri, code_verifier: codeVerifier });
    if (this.settings.resource !== undefined) body.set('resource', this.settings.resource);
    let response: Response;
    let answer: Record<string, unknown>;
    try {
      response = await fetch(token, {
        method: 'POST',
        redirect: 'error',
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
        body,
      });
      answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    } catch (err) {
      throw new ServiceError('OIDC_PROVIDER_UNAVAILABLE', `The OpenID Connect issuer's token endpoint could not be reached (${err instanceof Error ? err.message : String(err)}); try signing in again later`, undefined, { 'Retry-After': '10' });
    }
    if (response.status >= 500) throw new ServiceError('OIDC_PROVIDER_UNAVAILABLE', `The OpenID Connect issuer's token endpoint answered ${response.status}; try signing in again later`, undefined, { 'Retry-After': '10' });
    if (!response.ok) {
      const why = typeof answer.error === 'string' ? `"${answer.error}"${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}` : `status ${response.status}`;
      throw failed(`The issuer refused the code (${why}); a code is good once and for a short time`);
    }
    if (typeof answer.id_token !== 'string' || typeof answer.access_token !== 'string') throw failed('The issuer\'s token response lacks the id_token or the access_token');
    return { idToken: answer.id_token, accessToken: answer.access_token };
  }
}
