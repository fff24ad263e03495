import type { Principal } from '../auth/types.js';
import type { StoreUser } from '../storage/store.js';

/** What an operation knows about the request that asked for it. */
export interface OperationContext {
  principal: Principal | null;
  /** X-Service-DocumentPassword, when given. */
  documentPassword?: string | undefined;
  /** If-Match of the request: the document must still have this ETag. */
  ifMatch?: string | undefined;
}

/**
 * The user the store acts as for an operation: the one place a principal
 * becomes a StoreUser. Every store call of the operations layer goes to
 * `stores.for(storeUserOf(ctx))`, so a store with its own users (a DMS)
 * decides what this user sees and changes. Principals carry no store
 * credentials yet, so the user is named only; when the auth layer keeps a
 * user's DMS credentials (issue 23's passthrough mode), they are added here.
 */
export function storeUserOf(ctx: OperationContext): StoreUser | null {
  return ctx.principal === null ? null : { name: ctx.principal.username };
}
