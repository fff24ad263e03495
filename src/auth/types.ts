import type { OidcSignIn } from './oidc-signin.js';

/** Rights are the HTTP methods a user may use, plus `admin` (user management). */
export const RIGHTS = ['GET', 'POST', 'PUT', 'DELETE', 'admin'] as const;
export type Right = (typeof RIGHTS)[number];

/** Who is making a request. */
export interface Principal {
  username: string;
  rights: Right[];
  via: 'session' | 'basic' | 'token' | 'oidc';
  /**
   * A user of the OpenID Connect issuer (a bearer JWT, or a session its sign-in opened): no record in the service's
   * user store, the rights are the mapping's (docs/oidc.md). Watched folders record them at bind time.
   */
  oidc?: true;
  sessionId?: string;
  /** The API token's id, when the request came with `Authorization: Bearer`. */
  tokenId?: string;
  /**
   * The credentials the document store acts with for this user: the DMS
   * account the user logged in with (PDFSERVICE_WEBDAV_AUTH=passthrough).
   * Held in memory only: never logged, never written.
   */
  storeCredentials?: StoreCredentials;
}

export interface StoreCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * Users kept outside the service that vouch for a name and password: the
 * document-management server in passthrough mode. The service then acts as
 * the user at the DMS with the same credentials.
 */
export interface ExternalDirectory {
  /** true when it accepts the credentials, false when it refuses them; throws (503) when it cannot be asked. */
  verify(username: string, password: string): Promise<boolean>;
  /** The rights of a directory user who has no service user of the same name. */
  readonly rights: readonly string[];
}

/** A service user's mapped DMS account as an admin sees it: never the password. */
export interface DmsAccountView {
  /** The DMS user name the service user acts as. */
  username: string;
  updatedAt: Date;
}

/**
 * The DMS accounts service users act as (PDFSERVICE_WEBDAV_AUTH=mapped),
 * kept by the WebDAV store (storage/webdav/accounts.ts).
 */
export interface DmsAccountAdmin {
  /** 404 DMS_ACCOUNT_NOT_FOUND when the user has none. */
  get(user: string): DmsAccountView;
  /** Checks the account at the DMS first (422 DMS_ACCOUNT_REJECTED when it refuses it); `created` when the user had none. */
  set(user: string, account: StoreCredentials): Promise<{ view: DmsAccountView; created: boolean }>;
  /** 404 DMS_ACCOUNT_NOT_FOUND when the user has none. */
  remove(user: string): Promise<void>;
}

export interface SessionView {
  username: string;
  rights: Right[];
  createdAt: Date;
  /** When the session ends if unused: the earlier of the idle and the absolute limit. */
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export interface UserView {
  username: string;
  rights: Right[];
  createdAt: Date;
  updatedAt: Date;
}

export interface UserAdmin {
  list(): Promise<UserView[]>;
  get(username: string): Promise<UserView>;
  create(input: { username: string; password: string; rights: Right[] }): Promise<UserView>;
  update(username: string, changes: { password?: string; rights?: Right[] }): Promise<UserView>;
  remove(username: string): Promise<void>;
  /** The user's webhook signing secret (docs/webhooks.md), made when the user has none; `rotate`: a new one replaces it. */
  webhookSecret(username: string, options?: { rotate?: boolean }): Promise<string>;
  /** The user's webhook secret as it is now, without making one. */
  currentWebhookSecret(username: string): Promise<string | undefined>;
}

/** An API token as its owner sees it: never its secret, which is shown once, at creation. */
export interface TokenView {
  id: string;
  name: string;
  /** The rights the token is limited to, or null: all of its user's rights, whatever they are at each request. */
  rights: Right[] | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/** A user's own API tokens. */
export interface TokenAdmin {
  /** A new token for `owner`; `token` is the secret, shown only now. Rights must be a subset of `owner.rights`. */
  create(owner: Principal, input: { name: string; expiresAt?: Date; rights?: Right[] }): Promise<{ token: string; view: TokenView }>;
  list(username: string): Promise<TokenView[]>;
  /** One token of `username`; 404 TOKEN_NOT_FOUND for another user's or an unknown id. */
  get(username: string, id: string): Promise<TokenView>;
  revoke(username: string, id: string): Promise<void>;
}

/**
 * Authentication and users. Errors are ServiceErrors: INVALID_CREDENTIALS (401),
 * TOO_MANY_REQUESTS (429 with Retry-After), USER_NOT_FOUND, ALREADY_EXISTS, VALIDATION_FAILED.
 */
export interface Auth {
  login(username: string, password: string, clientAddress: string): Promise<{ sessionId: string; session: SessionView }>;
  /** A live session by its id (touching its idle timer), or null when unknown or expired. */
  resume(sessionId: string): Promise<{ principal: Principal; session: SessionView } | null>;
  /** HTTP Basic on any request. */
  basic(username: string, password: string, clientAddress: string): Promise<Principal>;
  /**
   * `Authorization: Bearer` with an API token (`pdfs_...`): 401 INVALID_CREDENTIALS when unknown or revoked,
   * TOKEN_EXPIRED when expired; with OpenID Connect configured, any other bearer token is a JWT access token of the
   * issuer (401 OIDC_TOKEN_INVALID / OIDC_TOKEN_EXPIRED, 503 OIDC_PROVIDER_UNAVAILABLE).
   */
  bearer(token: string): Promise<Principal>;
  /** The console's sign-in through the OpenID Connect issuer, when configured (PDFSERVICE_OIDC_CLIENT_ID). */
  readonly oidcSignIn: OidcSignIn | undefined;
  /** A session for the OpenID Connect user a sign-in admitted, with the rights the mapping gave it then. */
  openOidcSession(principal: Principal): Promise<{ sessionId: string; session: SessionView }>;
  readonly tokens: TokenAdmin;
  logout(sessionId: string): Promise<void>;
  readonly users: UserAdmin;
  close(): Promise<void>;
}
