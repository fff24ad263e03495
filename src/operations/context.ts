import type { Principal } from '../auth/types.js';
import type { StoreUser } from '../storage/store.js';

/** What an operation knows about the request that asked for it. */
export interface OperationContext {
  principal: Principal | null;
  /** X-Service-DocumentPassword, when given. */
  documentPassword?: string | undefined;
  /** If-Match of the request: the document must still have this ETag. */
  ifMatch?: string | undefined;
  /**
   * `?versionId=` of a read (docs/versions.md): every read of the document (stat, open, models) reads that kept
   * version instead of the current one; a write with it is refused (VERSION_READ_ONLY).
   */
  versionId?: string | undefined;
  /** The request's id (X-Request-Id), kept with the versions it writes. */
  requestId?: string | undefined;
  /** X-Service-Webhook-Url as sent (checked when a job is created: docs/webhooks.md), with a valid W3C traceparent of the request. */
  webhook?: { url: string; traceparent?: string } | undefined;
}

/**
 * The user the store acts as for an operation: the one place a principal
 * becomes a StoreUser. Every store call of the operations layer goes to
 * `stores.for(storeUserOf(ctx))`, so a store with its own users (a DMS)
 * decides what this user sees and changes. In passthrough mode the
 * principal carries the DMS credentials the user logged in with (in memory
 * only), and the store acts with them.
 */
export function storeUserOf(ctx: OperationContext): StoreUser | null {
  if (ctx.principal === null) return null;
  const { username, storeCredentials } = ctx.principal;
  return storeCredentials ? { name: username, credentials: storeCredentials } : { name: username };
}
