import type { Principal } from '../auth/types.js';

/** What an operation knows about the request that asked for it. */
export interface OperationContext {
  principal: Principal | null;
  /** X-Service-DocumentPassword, when given. */
  documentPassword?: string | undefined;
  /** If-Match of the request: the document must still have this ETag. */
  ifMatch?: string | undefined;
}
