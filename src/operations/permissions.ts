import type { PasswordPermissionsRequest, PasswordSecurity, PermissionsModel } from '../engine/models.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations } from './documents.js';
import { ReadModelCache } from './read-model-cache.js';

/** The permissions resource: reading a document's security (cached by ETag and password), and changing it under the document's lock. */
export class PermissionOperations {
  /** Looked up by get() after its stat as the requesting user (ReadModelCache says why that suffices). */
  private readonly models = new ReadModelCache<PermissionsModel>(200);

  constructor(private readonly documents: DocumentOperations) {}

  get(path: StoredPath, ctx: OperationContext): Promise<{ model: PermissionsModel; etag: string }> {
    return this.documents.reads.get(path, ctx, {
      cache: this.models,
      compute: (stored, engine) => engine.run('readPermissions', { pdf: stored.pdf, password: ctx.documentPassword }, { transfer: [stored.pdf] }),
    });
  }

  /** Encrypts or re-encrypts; answers the new password security as read back from the written file. */
  async setPasswordPermissions(path: StoredPath, ctx: OperationContext, request: PasswordPermissionsRequest): Promise<{ model: PasswordSecurity; etag: string }> {
    const { result, stat } = await this.documents.update(path, ctx, 'setPasswordPermissions', async (stored, engine) => {
      const { bytes, passwordPermissions } = await engine.run('setPasswordPermissions', { pdf: stored.pdf, password: ctx.documentPassword, request });
      return { bytes, result: passwordPermissions };
    });
    return { model: result, etag: stat.etag };
  }

  /** Removes the encryption; nothing is written when there was none. */
  async removePasswordPermissions(path: StoredPath, ctx: OperationContext): Promise<void> {
    await this.documents.update(path, ctx, 'removePasswordPermissions', async (stored, engine) => {
      const { bytes } = await engine.run('removePasswordPermissions', { pdf: stored.pdf, password: ctx.documentPassword });
      return { ...(bytes ? { bytes } : {}), result: undefined };
    });
  }

  /** Removes the usage-rights signature; nothing is written when there was none. */
  async removeUsageRights(path: StoredPath, ctx: OperationContext): Promise<void> {
    await this.documents.update(path, ctx, 'removeUsageRights', async (stored, engine) => {
      const { bytes } = await engine.run('removeUsageRights', { pdf: stored.pdf, password: ctx.documentPassword });
      return { ...(bytes ? { bytes } : {}), result: undefined };
    });
  }
}
