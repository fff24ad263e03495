/** Rights are the HTTP methods a user may use, plus `admin` (user management). */
export const RIGHTS = ['GET', 'POST', 'PUT', 'DELETE', 'admin'] as const;
export type Right = (typeof RIGHTS)[number];

/** Who is making a request. */
export interface Principal {
  username: string;
  rights: Right[];
  via: 'session' | 'basic';
  sessionId?: string;
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
  logout(sessionId: string): Promise<void>;
  readonly users: UserAdmin;
  close(): Promise<void>;
}
