import type { EnginePool } from '../../engine/pool.js';
import { ServiceError } from '../../errors.js';
import { compileValidator } from '../../validation.js';
import { documentPathFromBody, type StoredPath } from '../../storage/paths.js';
import { conflictModeFor, matchesEtag, type ConflictMode, type DocumentStore, type Release } from '../../storage/store.js';
import type { OperationContext } from '../context.js';
import type { DocumentOperations } from '../documents.js';
import { documentModel, type DocumentModel } from '../models.js';
import { ACTIONS } from './index.js';
import type { ActionDefinition, ActionFile, OutputParams } from './types.js';

export type ActionTarget = 'document' | 'pages';

export type ActionResponse =
  | { kind: 'document'; status: 200 | 201; model: DocumentModel & { report?: unknown }; location?: StoredPath }
  | { kind: 'model'; status: 200; model: unknown; xmlRoot: string };


/**
 * Runs actions by the one rule set: validate the one-key body, read the source
 * once, check If-Match, run the handler, write the output to the source or to
 * savePath (namingMode decides clashes), atomically, under the target's lock.
 */
export class ActionRunner {
  private readonly validators = new Map<string, (value: unknown) => OutputParams>();

  constructor(
    private readonly store: DocumentStore,
    private readonly pool: EnginePool,
    private readonly documents: DocumentOperations,
  ) {
    for (const action of ACTIONS) this.validators.set(action.name, compileValidator<OutputParams>(action.schema, action.name));
  }

  actions(target: ActionTarget): ActionDefinition<never>[] {
    return ACTIONS.filter((a) => a.target === target);
  }

  /** Picks the action named by the body's one key and validates its parameters. */
  parse(body: unknown, target: ActionTarget): { action: ActionDefinition<OutputParams>; params: OutputParams } {
    const known = this.actions(target).map((a) => a.name);
    const listing = `Known actions here: ${known.join(', ')}`;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new ServiceError('INVALID_ACTION', `The body must be an object with exactly one key naming the action. ${listing}`, { actions: known });
    }
    const keys = Object.keys(body);
    if (keys.length !== 1) {
      throw new ServiceError('INVALID_ACTION', `The body has ${keys.length} keys; it must have exactly one, the action name. ${listing}`, { actions: known });
    }
    const name = keys[0]!;
    const action = this.actions(target).find((a) => a.name === name);
    if (!action) {
      // An action of the other target was posted to the wrong URL: say where it goes.
      const elsewhere = ACTIONS.find((a) => a.name === name);
      if (elsewhere) {
        const url = elsewhere.target === 'pages' ? 'the document\'s /pages URL (.../{filePath}.pdf/pages)' : 'the document URL (.../{filePath}.pdf)';
        throw new ServiceError('INVALID_ACTION', `${name} is a ${elsewhere.target === 'pages' ? 'page' : 'document'} action: POST it to ${url}. ${listing}`, { actions: known });
      }
      throw new ServiceError('INVALID_ACTION', `Unknown action "${name.slice(0, 100)}". ${listing}`, { actions: known });
    }
    let params = (body as Record<string, unknown>)[name];
    if (params === null || params === undefined || params === '') params = {};
    params = this.validators.get(name)!(params);
    return { action: action as ActionDefinition<OutputParams>, params: params as OutputParams };
  }

  async run(sourcePath: StoredPath, body: unknown, target: ActionTarget, files: ActionFile[], ctx: OperationContext): Promise<ActionResponse> {
    const { action, params } = this.parse(body, target);
    const output = params.savePath !== undefined ? documentPathFromBody(params.savePath, 'savePath') : sourcePath;
    const inPlace = output.equals(sourcePath);
    const conflict: ConflictMode = inPlace ? 'overwrite' : conflictModeFor(params.namingMode);
    const releases: Release[] = [];
    try {
      if (inPlace && action.writes) releases.push(await this.store.lock(sourcePath));
      const result = await this.documents.read(sourcePath, async (stored) => {
        if (ctx.ifMatch !== undefined && !matchesEtag(ctx.ifMatch, stored.etag)) throw new ServiceError('PRECONDITION_FAILED');
        const info = action.opensDocument ? await this.documents.inspect(stored, ctx.documentPassword) : undefined;
        return action.run({
          params,
          source: { path: sourcePath, stored, info: info! },
          files,
          ctx,
          pool: this.pool,
          store: this.store,
          documents: this.documents,
        });
      });
      if (result.kind === 'model') return { kind: 'model', status: 200, model: result.model, xmlRoot: result.xmlRoot };
      if (!inPlace) releases.push(await this.store.lock(output));
      const written = await this.documents.write(output, result.bytes, { conflict });
      const summary = await this.pool.run('validateUpload', { pdf: result.bytes }).catch(() => undefined);
      const model = { ...documentModel(written.path, written.stat, summary), ...(result.report !== undefined ? { report: result.report } : {}) };
      if (inPlace) return { kind: 'document', status: 200, model };
      return { kind: 'document', status: written.created ? 201 : 200, model, location: written.path };
    } finally {
      for (const release of releases.reverse()) release();
      await Promise.all(files.map((f) => f.content.discard()));
    }
  }
}
