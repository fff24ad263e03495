import { createHash } from 'node:crypto';
import { ERROR_CATALOG, ServiceError } from '../../errors.js';
import { checkName, type StoredPath } from '../../storage/paths.js';
import { matchesEtag } from '../../storage/store.js';
import type { ActionRunner, PreparedAction } from '../actions/runner.js';
import type { OperationContext } from '../context.js';
import { MAX_STEPS } from '../oneshot.js';
import type { PipelineRecord, PipelineStore, PipelineVersion } from './store.js';

/** Versions kept of one pipeline: a PUT past this drops the oldest (docs/pipelines.md, "Versions"). */
export const MAX_VERSIONS = 100;
/** Pipelines one user may own. */
export const MAX_PIPELINES_PER_USER = 1000;
/** Characters of a description. */
export const MAX_DESCRIPTION = 1000;

/** What the resource answers for one version of a pipeline. */
export interface PipelineView {
  name: string;
  owner: string;
  version: number;
  /** The newest version's number (the same as `version` unless an older one was asked for). */
  latestVersion: number;
  etag: string;
  description?: string;
  shared: boolean;
  steps: Record<string, unknown>[];
  created: string;
  createdBy: string;
}

/** A pipeline as a client asks to save it (the route's schema has checked its shape). */
export interface PipelineBody {
  steps: unknown[];
  description?: string;
  shared?: boolean;
}

/** The strong ETag of one version: its owner, name, number and save time, hashed (a pipeline deleted and made again differs). */
export function pipelineEtag(record: Pick<PipelineRecord, 'owner' | 'name'>, version: PipelineVersion): string {
  const hash = createHash('sha256').update(JSON.stringify([record.owner, record.name, version.version, version.created])).digest('hex');
  return `"p${hash.slice(0, 32)}"`;
}

function userOf(ctx: OperationContext): string {
  if (!ctx.principal) throw new ServiceError('AUTHENTICATION_REQUIRED');
  return ctx.principal.username;
}

function isAdmin(ctx: OperationContext): boolean {
  return ctx.principal?.rights.includes('admin') === true;
}

function latestOf(record: PipelineRecord): PipelineVersion {
  return record.versions[record.versions.length - 1]!;
}

/** Whether the caller may see (and run) the record: their own, a shared one, or any for an admin. */
function visible(record: PipelineRecord, ctx: OperationContext): boolean {
  return record.owner === userOf(ctx) || latestOf(record).shared || isAdmin(ctx);
}

function notFound(name: string, owner: string, ctx: OperationContext): ServiceError {
  const whose = owner === userOf(ctx) ? '' : ` shared by ${JSON.stringify(owner)}`;
  return new ServiceError('PIPELINE_NOT_FOUND', `There is no pipeline named ${JSON.stringify(name)}${whose}`);
}

function viewOf(record: PipelineRecord, version: PipelineVersion): PipelineView {
  return {
    name: record.name,
    owner: record.owner,
    version: version.version,
    latestVersion: latestOf(record).version,
    etag: pipelineEtag(record, version),
    ...(version.description !== undefined ? { description: version.description } : {}),
    shared: version.shared,
    steps: structuredClone(version.steps),
    created: version.created,
    createdBy: version.createdBy,
  };
}

/**
 * The pipeline `name` of `owner` (the caller when absent) as the caller may read it: the newest version, or `version`.
 * 404 PIPELINE_NOT_FOUND when there is none, when the caller may not see it (so a private pipeline's existence is not
 * told), or when that version is not kept. PipelineAction resolves the pipeline it runs here.
 */
export async function readPipeline(store: PipelineStore, ctx: OperationContext, name: string, owner?: string, version?: number): Promise<PipelineView> {
  checkName(name, 'pipeline name');
  const whose = owner ?? userOf(ctx);
  const record = await store.get(whose, name);
  if (!record || !visible(record, ctx)) throw notFound(name, whose, ctx);
  const chosen = version === undefined ? latestOf(record) : record.versions.find((v) => v.version === version);
  if (!chosen) {
    const kept = record.versions.map((v) => v.version);
    throw new ServiceError('PIPELINE_NOT_FOUND', `Pipeline ${JSON.stringify(name)} has no version ${version} (kept: ${kept[0]} to ${kept[kept.length - 1]})`);
  }
  return viewOf(record, chosen);
}

/**
 * Stored pipelines (docs/pipelines.md): named lists of action steps, kept per user and versioned. A step is
 * validated when saved by the action runner's own parsing and the action's own prepare (ActionRunner.prepareStep,
 * as a one-shot's steps are), so the rules live once, in the actions. Running is PipelineAction, an action like the
 * others (operations/actions/PipelineAction.ts); `prepareRun` is the one entry point for running a pipeline on a stored
 * document from elsewhere in the service (a watched folder).
 */
export class PipelineOperations {
  constructor(
    private readonly store: PipelineStore,
    private readonly actions: ActionRunner,
  ) {}

  get(ctx: OperationContext, name: string, owner?: string, version?: number): Promise<PipelineView> {
    return readPipeline(this.store, ctx, name, owner, version);
  }

  /** The newest version of every pipeline the caller sees: their own and those shared with them (an admin: `owner`'s, any). */
  async list(ctx: OperationContext, owner?: string): Promise<PipelineView[]> {
    const me = userOf(ctx);
    const records = (await this.store.list()).filter((r) => visible(r, ctx) && (owner === undefined ? r.owner === me || latestOf(r).shared : r.owner === owner));
    return records.map((r) => viewOf(r, latestOf(r)));
  }

  /**
   * Saves a new version (the first one creates the pipeline). Each step is checked as the action checks its body;
   * the first refused is 400 PIPELINE_STEP_INVALID naming its number and action, with the action's own problem.
   * `shared` needs the admin right; If-Match (ctx.ifMatch) must name the newest version, `If-None-Match: *` that
   * there is none. An admin may save into another user's pipelines (`owner`).
   */
  async put(ctx: OperationContext, name: string, body: PipelineBody, ifNoneMatch?: string, owner?: string): Promise<{ view: PipelineView; created: boolean }> {
    checkName(name, 'pipeline name');
    const me = userOf(ctx);
    const whose = owner ?? me;
    if (whose !== me && !isAdmin(ctx)) throw new ServiceError('FORBIDDEN', 'Only an admin may save another user\'s pipelines');
    if (body.shared === true && !isAdmin(ctx)) throw new ServiceError('FORBIDDEN', 'Only an admin may share a pipeline with every user (docs/pipelines.md, "Rights")');
    if (body.steps.length > MAX_STEPS) throw new ServiceError('BAD_REQUEST', `A pipeline has at most ${MAX_STEPS} steps; this one has ${body.steps.length}`);
    const steps = await this.validSteps(body.steps, ctx);
    // Counted before the write: two instances creating at once may pass the limit by one each (docs/pipelines.md).
    const owned = (await this.store.list()).filter((r) => r.owner === whose);
    let created = false;
    const record = await this.store.update(whose, name, (current) => {
      if (!current && owned.length >= MAX_PIPELINES_PER_USER) {
        throw new ServiceError('BAD_REQUEST', `A user keeps at most ${MAX_PIPELINES_PER_USER} pipelines; ${JSON.stringify(whose)} has ${owned.length}: delete one first`);
      }
      const latest = current ? latestOf(current) : undefined;
      if (ctx.ifMatch !== undefined && !matchesEtag(ctx.ifMatch, latest && current ? pipelineEtag(current, latest) : undefined)) throw new ServiceError('PRECONDITION_FAILED');
      if (ifNoneMatch?.trim() === '*' && current) throw new ServiceError('PRECONDITION_FAILED', `Pipeline ${JSON.stringify(name)} exists already`);
      created = current === null;
      const version: PipelineVersion = {
        version: (latest?.version ?? 0) + 1,
        steps,
        ...(body.description !== undefined ? { description: body.description } : {}),
        shared: body.shared === true,
        created: new Date().toISOString(),
        createdBy: me,
      };
      return { owner: whose, name, versions: [...(current?.versions ?? []), version].slice(-MAX_VERSIONS) };
    });
    return { view: viewOf(record!, latestOf(record!)), created };
  }

  /** Deletes the pipeline with every version (the owner, or an admin); If-Match must name the newest version. */
  async delete(ctx: OperationContext, name: string, owner?: string): Promise<void> {
    checkName(name, 'pipeline name');
    const me = userOf(ctx);
    const whose = owner ?? me;
    await this.store.update(whose, name, (current) => {
      if (!current || !visible(current, ctx)) throw notFound(name, whose, ctx);
      if (whose !== me && !isAdmin(ctx)) throw new ServiceError('FORBIDDEN', 'Only its owner or an admin may delete a pipeline');
      if (ctx.ifMatch !== undefined && !matchesEtag(ctx.ifMatch, pipelineEtag(current, latestOf(current)))) throw new ServiceError('PRECONDITION_FAILED');
      return null;
    });
  }

  /**
   * The pipeline prepared as PipelineAction on a stored document, as `POST /documents/{path}.pdf` with
   * `{"PipelineAction": ...}` prepares it (every 4xx decided now): the one entry point for running a pipeline from
   * elsewhere in the service. A watched folder submits it as a job (watched/watched.ts). All steps or none: one new
   * version at the end.
   */
  prepareRun(document: StoredPath, pipeline: { name: string; owner?: string; version?: number; savePath?: string; namingMode?: 0 | 1 | 2 }, ctx: OperationContext): Promise<PreparedAction> {
    return this.actions.prepare(document, { PipelineAction: { ...pipeline } }, 'document', [], ctx);
  }

  /** Each step checked by the runner, as stored: the action's key and its validated parameters, defaults filled in. */
  private async validSteps(steps: unknown[], ctx: OperationContext): Promise<Record<string, unknown>[]> {
    const valid: Record<string, unknown>[] = [];
    for (const [index, step] of steps.entries()) {
      const named = step !== null && typeof step === 'object' && !Array.isArray(step) ? Object.keys(step)[0] : undefined;
      try {
        // The body itself (validation fills in defaults in place): an XML body's steps keep their mark as text (routes/pipelines.ts).
        valid.push(this.actions.stepBody(await this.actions.prepareStep(step, [], ctx)));
      } catch (err) {
        if (err instanceof ServiceError) throw stepProblem('PIPELINE_STEP_INVALID', index, named, err);
        throw err;
      }
    }
    return valid;
  }
}

/** The failed or refused step's own problem, as a problem document's members (errors.ts). */
export function stepProblem(code: 'PIPELINE_STEP_INVALID' | 'PIPELINE_STEP_FAILED', index: number, action: string | undefined, err: ServiceError): ServiceError {
  const step = index + 1;
  const what = action === undefined ? `Step ${step}` : `Step ${step} (${action.slice(0, 100)})`;
  // The step's own problem document, as its action alone would have answered it (http/errors.ts problemFor).
  const problem = { type: `urn:pdfservice:error:${err.code}`, title: ERROR_CATALOG[err.code].title, status: err.status, code: err.code, ...(err.detail ? { detail: err.detail } : {}), ...(err.extra ?? {}) };
  return new ServiceError(code, `${what}: ${err.detail ?? err.message}`, { step, ...(action !== undefined ? { action: action.slice(0, 100) } : {}), problem });
}
