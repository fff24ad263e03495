import { ServiceError } from '../../errors.js';
import { compileValidator } from '../../validation.js';
import { documentPathFromBody, type StoredPath } from '../../storage/paths.js';
import { conflictModeFor, matchesEtag, type ConflictMode, type StagedUpload } from '../../storage/store.js';
import type { OperationContext } from '../context.js';
import { engineSource, type DocumentContent, type DocumentOperations } from '../documents.js';
import { requestExecution, throwIfStopped, type Engine, type ExecutionContext } from '../execution.js';
import type { ToolSupervisor } from '../../tools/supervisor.js';
import type { OptimizeProfileOperations } from '../optimize/profiles.js';
import type { PipelineStore } from '../pipelines/store.js';
import { documentModel, type DocumentModel } from '../models.js';
import { ACTIONS } from './index.js';
import { OUTPUT_PARAMS, type ActionDefinition, type ActionFile, type ActionOutput, type ExecuteInput, type OutputParams } from './types.js';
import type { TaskOutput } from '../../engine/models.js';

type UploadSummary = TaskOutput<'validateUpload'>;

export type ActionTarget = 'document' | 'pages';

export type ActionResponse =
  | { kind: 'document'; created: boolean; model: DocumentModel & { report?: unknown }; location?: StoredPath }
  | { kind: 'model'; model: unknown; xmlRoot: string }
  /**
   * A file made from the document (`source`, its model as read), not stored: the caller owns `content` from here
   * (it sends or keeps it, then discards staged content: discardFileContent).
   */
  | { kind: 'file'; content: Uint8Array | StagedUpload; name: string; mediaType: string; source: DocumentModel };

/** Discards an action's file content when it is staged (a Uint8Array needs nothing). */
export function discardFileContent(content: Uint8Array | StagedUpload): Promise<void> {
  return content instanceof Uint8Array ? Promise.resolve() : content.discard();
}


/**
 * An action whose every 4xx has been decided (ActionRunner.prepare): plain
 * data that names the action and holds its validated parameters and what its
 * prepare answered, so that it can run now or later (a background job) by
 * the same execute.
 */
export interface PreparedAction {
  readonly name: string;
  readonly target: ActionTarget;
  /** The action is long by nature (ActionDefinition.long). */
  readonly long: boolean;
  /** The source document's size in bytes, as prepare found it. */
  readonly sourceBytes: number;
  /** The source's ETag as prepare found it (checkAccess needs no stat of its own); absent for a job recovered from its record. */
  readonly sourceEtag?: string;
  readonly params: OutputParams;
  /** The action's prepare answer (undefined when it has no prepare step). */
  readonly prepared: unknown;
  readonly source: StoredPath;
  readonly output: StoredPath;
  readonly inPlace: boolean;
  readonly conflict: ConflictMode;
  readonly ctx: OperationContext;
  readonly files: ActionFile[];
}

export type AnyAction = ActionDefinition<OutputParams, unknown>;

/**
 * A step of a one-shot conversion (operations/oneshot.ts): an action prepared by the same validation and prepare as
 * a stored document's, without a stored document and without savePath: its output is the next step's input.
 */
export interface PreparedStep {
  readonly name: string;
  readonly long: boolean;
  readonly params: OutputParams;
  readonly prepared: unknown;
}

/** What a chain of steps left (ActionRunner.executeSteps). */
export interface StepsOutcome {
  /** The last step's output that changed the document; undefined when every step handed its input on unchanged. */
  content: StagedUpload | Uint8Array | undefined;
  /** That output's summary, when its step gave one (a staged output's). */
  summary?: TaskOutput<'validateUpload'>;
  /** Each step's outcome, in order: whether it changed the document, and its report. */
  steps: { changed: boolean; report?: unknown }[];
}

/** A step's source, as actions read a stored document's content (DocumentOperations.read): the open file when staged, else the bytes. */
export async function withSource<R>(content: StagedUpload | Uint8Array, work: (source: DocumentContent) => Promise<R>): Promise<R> {
  if (content instanceof Uint8Array) return work({ pdf: content, bytes: () => Promise.resolve(content) });
  const open = await content.open();
  try {
    return await work({ pdf: await engineSource(open), bytes: () => open.read() });
  } finally {
    await open.close();
  }
}

/**
 * Runs actions by the one rule set, in two steps. prepare: validate the
 * one-key body, resolve the output path, check that the source exists and
 * matches If-Match, that a savePath taken under namingMode 0 is refused, and
 * the action's own checks (its files, the documents it names). execute: read
 * the source once, run the action's engine work, write the output to the
 * source or to savePath atomically (DocumentOperations.transform). Passwords
 * and permissions are checked by the engine as it opens the document, the
 * first thing execute does, before anything is written.
 */
export class ActionRunner {
  private readonly validators = new Map<string, (value: unknown) => OutputParams>();
  /** The registry (index.ts), and the test-only actions a test's service was started with. */
  private readonly registry: readonly AnyAction[];

  constructor(
    private readonly documents: DocumentOperations,
    private readonly tools: ToolSupervisor,
    /** Optimize profiles, which OptimizeAction resolves its profileName in. */
    private readonly optimizeProfiles?: OptimizeProfileOperations,
    /** Actions for tests only (as the engine pool's extraTasks): the production registry holds none of them. */
    extraActions: readonly AnyAction[] = [],
    /** Stored pipelines, which PipelineAction resolves its name in. */
    private readonly pipelines?: PipelineStore,
  ) {
    this.registry = [...(ACTIONS as readonly AnyAction[]), ...extraActions];
    for (const action of this.registry) this.validators.set(action.name, compileValidator<OutputParams>(action.schema, action.name));
  }

  /** The actions posted to `target`; `any`: every action (the steps of a one-shot). */
  actions(target: ActionTarget | 'any'): AnyAction[] {
    return this.registry.filter((a) => target === 'any' || a.target === target);
  }

  /**
   * The actions a one-shot step may name, each with its body schema as a step takes it: without its outputParams;
   * an action that requires one (CopyAction, ExtractPagesAction: savePath) is none. The OpenAPI description of
   * POST /convert is made from these.
   */
  stepActions(): { action: AnyAction; schema: Record<string, unknown> }[] {
    return this.registry.flatMap((action) => {
      const output = outputParamsOf(action);
      if (action.notAStep !== undefined) return [];
      const { properties = {}, ...rest } = action.schema as { properties?: Record<string, unknown>; required?: readonly string[] };
      if ((rest.required ?? []).some((key) => output.includes(key))) return [];
      const kept = Object.fromEntries(Object.entries(properties).filter(([key]) => !output.includes(key)));
      return [{ action, schema: { ...rest, properties: kept } }];
    });
  }

  /** Picks the action named by the body's one key and validates its parameters. */
  parse(body: unknown, target: ActionTarget | 'any'): { action: AnyAction; params: OutputParams } {
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
      const elsewhere = this.registry.find((a) => a.name === name);
      if (elsewhere) {
        const url = elsewhere.target === 'pages' ? 'the document\'s /pages URL (.../{filePath}.pdf/pages)' : 'the document URL (.../{filePath}.pdf)';
        throw new ServiceError('INVALID_ACTION', `${name} is a ${elsewhere.target === 'pages' ? 'page' : 'document'} action: POST it to ${url}. ${listing}`, { actions: known });
      }
      throw new ServiceError('INVALID_ACTION', `Unknown action "${name.slice(0, 100)}". ${listing}`, { actions: known });
    }
    let params = (body as Record<string, unknown>)[name];
    if (params === null || params === undefined || params === '') params = {};
    return { action, params: this.validators.get(name)!(params) };
  }

  /**
   * Decides every answer that needs no engine work (see the class comment).
   * On success the prepared action owns `files` (execute discards them); on
   * failure they are discarded here.
   */
  async prepare(sourcePath: StoredPath, body: unknown, target: ActionTarget, files: ActionFile[], ctx: OperationContext): Promise<PreparedAction> {
    try {
      const { action, params } = this.parse(body, target);
      const output = params.savePath !== undefined ? documentPathFromBody(params.savePath, 'savePath') : sourcePath;
      const inPlace = output.equals(sourcePath);
      const conflict: ConflictMode = inPlace ? 'overwrite' : conflictModeFor(params.namingMode);
      // A move is refused for its rights and its store before anything is read (403, 501), and onto itself (400).
      if (action.moves) this.documents.movingStore(ctx);
      if (action.moves && inPlace) throw new ServiceError('MOVE_INTO_ITSELF', 'savePath is the document\'s own path');
      const stat = await this.documents.stat(sourcePath, ctx);
      if (ctx.ifMatch !== undefined && !matchesEtag(ctx.ifMatch, stat.etag)) throw new ServiceError('PRECONDITION_FAILED');
      if (conflict === 'fail' && (await this.documents.exists(output, ctx))) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${output.toString()}`);
      const paths = { source: sourcePath, output, conflict };
      const prepared = action.prepare ? await action.prepare({ params, files, ctx, documents: this.documents, tools: this.tools, optimizeProfiles: this.optimizeProfiles, pipelines: this.pipelines, runner: this, paths }) : undefined;
      // A move reads no bytes: never a job for the document's size.
      const sourceBytes = action.moves ? 0 : stat.size + (action.otherBytes?.(prepared) ?? 0);
      return { name: action.name, target: action.target, long: action.long === true || action.isLong?.(prepared) === true, sourceBytes, sourceEtag: stat.etag, params, prepared, source: sourcePath, output, inPlace, conflict, ctx, files };
    } catch (err) {
      await discardAll(files);
      throw err;
    }
  }

  /**
   * A one-shot step (operations/oneshot.ts): the action's body validated as for a stored document, then its own
   * prepare; savePath and namingMode are refused (400 INVALID_ACTION), as the step writes nothing: its output goes to
   * the next step, the last one's to the client. The files stay the caller's (they serve every step).
   */
  async prepareStep(body: unknown, files: ActionFile[], ctx: OperationContext): Promise<PreparedStep> {
    // The keys as given, read before validation, which fills in namingMode's default in place.
    const given = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.values(body)[0] : undefined;
    const keys = given !== null && typeof given === 'object' ? Object.keys(given) : [];
    const { action, params } = this.parse(body, 'any');
    if (action.notAStep !== undefined) throw new ServiceError('INVALID_ACTION', `${action.name} cannot be a step: ${action.notAStep}`);
    const output = outputParamsOf(action).filter((key) => keys.includes(key));
    if (output.length > 0) {
      throw new ServiceError('INVALID_ACTION', `${action.name} in a one-shot conversion takes no ${output.join(' or ')}: nothing is stored, the result is the answer`);
    }
    const prepared = action.prepare ? await action.prepare({ params, files, ctx, documents: this.documents, tools: this.tools, optimizeProfiles: this.optimizeProfiles, pipelines: this.pipelines, runner: this }) : undefined;
    return { name: action.name, long: action.long === true || action.isLong?.(prepared) === true, params, prepared };
  }

  /** A prepared step as a body again (a stored pipeline's step): its action's key over its validated parameters, without outputParams. */
  stepBody(step: PreparedStep): Record<string, unknown> {
    const output = outputParamsOf(this.named(step.name));
    return { [step.name]: Object.fromEntries(Object.entries(step.params).filter(([key]) => !output.includes(key))) };
  }

  /**
   * A prepared step's work on `source` (the previous step's output, held open by the caller): the action's execute,
   * as execute below runs it, with nothing written. Its output is new bytes (or content staged in the store, which the
   * caller then owns), or `unchanged`.
   */
  async executeStep(step: PreparedStep, files: ActionFile[], source: DocumentContent, ctx: OperationContext, engine: Engine, exec: ExecutionContext): Promise<Exclude<ActionOutput, { kind: 'model' } | { kind: 'file' }>> {
    const output = await this.invoke(this.named(step.name), { params: step.params, prepared: step.prepared, files, source, ctx, engine, exec });
    // No action answers a model today; one that did would have nothing to hand on.
    if (output.kind === 'model') throw new ServiceError('INVALID_ACTION', `${step.name} answers a model, not a document: it cannot be a step of a one-shot conversion`);
    if (output.kind === 'file') {
      // A file that is not a PDF (an export) cannot feed the next step; no production action answers one yet.
      if (!(output.content instanceof Uint8Array)) await output.content.discard().catch(() => undefined);
      throw new ServiceError('INVALID_ACTION', `${step.name} answers a file that is not a PDF: it cannot be a step of a one-shot conversion`);
    }
    return output;
  }

  /**
   * Runs prepared steps one after the other, each on the previous one's output (the first on `first`): the one chain
   * of one-shot conversions (oneshot.ts) and pipelines (PipelineAction). Stops between steps when asked; a step that
   * leaves its input unchanged hands it on. Staged outputs of the steps are discarded, all of them when a step fails,
   * all but the last otherwise (the caller's to keep or discard); `first` stays the caller's. `each` gives a step its
   * own engine and execution context (a pipeline's progress names the step) and `failed` turns a step's failure into
   * the caller's error.
   */
  async executeSteps(
    steps: readonly PreparedStep[],
    run: { files: ActionFile[]; first: DocumentContent | StagedUpload | Uint8Array; ctx: OperationContext; engine: Engine; exec: ExecutionContext },
    hooks: { each?: (index: number, step: PreparedStep) => { engine: Engine; exec: ExecutionContext }; failed?: (index: number, step: PreparedStep, err: unknown) => unknown } = {},
  ): Promise<StepsOutcome> {
    const outcomes: StepsOutcome['steps'] = [];
    // The newest output (undefined: `first`), its summary, and every staged output to discard but the last.
    let current: StagedUpload | Uint8Array | undefined;
    let summary: TaskOutput<'validateUpload'> | undefined;
    const staged: StagedUpload[] = [];
    try {
      for (const [index, step] of steps.entries()) {
        throwIfStopped(run.exec);
        const { engine, exec } = hooks.each?.(index, step) ?? run;
        const execute = (source: DocumentContent) => this.executeStep(step, run.files, source, run.ctx, engine, exec);
        const input = current ?? run.first;
        let output;
        try {
          output = 'pdf' in input ? await execute(input) : await withSource(input, execute);
        } catch (err) {
          throw hooks.failed ? hooks.failed(index, step, err) : err;
        }
        if (output.kind === 'unchanged') {
          outcomes.push({ changed: false, ...(output.report !== undefined ? { report: output.report } : {}) });
          continue;
        }
        if (!(output.bytes instanceof Uint8Array)) staged.push(output.bytes);
        current = output.bytes;
        summary = output.summary;
        outcomes.push({ changed: true, ...(output.report !== undefined ? { report: output.report } : {}) });
      }
      throwIfStopped(run.exec);
    } catch (err) {
      await Promise.all(staged.map((content) => content.discard().catch(() => undefined)));
      throw err;
    }
    await Promise.all(staged.filter((content) => content !== current).map((content) => content.discard().catch(() => undefined)));
    return { content: current, ...(summary ? { summary } : {}), steps: outcomes };
  }

  /**
   * A prepared action's parameters as a job's record may keep them (ActionDefinition.withoutSecrets), and whether
   * secrets were left out: the job then runs from memory only (JobManager.submitAction).
   */
  recordParams(prepared: PreparedAction): { params: OutputParams; secret: boolean } {
    const kept = this.named(prepared.name).withoutSecrets?.(prepared.params);
    return kept ? { params: kept, secret: true } : { params: prepared.params, secret: false };
  }

  private named(name: string): AnyAction {
    const action = this.registry.find((a) => a.name === name);
    if (!action) throw new Error(`No action named ${name}`);
    return action;
  }

  /** The one call of an action's execute, for stored documents and one-shot steps alike. */
  private invoke(action: AnyAction, input: Omit<ExecuteInput<OutputParams, unknown>, 'documents' | 'tools' | 'runner'>): Promise<ActionOutput> {
    return action.execute({ ...input, documents: this.documents, tools: this.tools, runner: this });
  }

  /**
   * For a background job, before it is accepted: whether the request's
   * password opens the source and allows what the action needs, so that a
   * wrong password is the request's 403 rather than a failed job. An
   * inline request leaves this to the engine's open at the start of execute
   * (the same check, without opening the document twice).
   */
  async checkAccess(prepared: PreparedAction): Promise<void> {
    const action = this.registry.find((a) => a.name === prepared.name);
    if (!action?.need) return;
    await this.documents.reads.checkAccess(prepared.source, prepared.ctx, action.need, undefined, prepared.sourceEtag);
  }

  /**
   * The work and the write of a prepared action, under `exec` (its signal
   * stops the engine tasks and nothing is written). The source is read again
   * under the lock, so If-Match is checked against what is actually changed.
   */
  async execute(prepared: PreparedAction, exec?: ExecutionContext, lock: 'work' | 'write' = 'work'): Promise<ActionResponse> {
    // An output the action staged in the store: discarded when it is not written (a stop, 412, 409).
    let staged: StagedUpload | undefined;
    // Other documents the action wrote, put back when its own output is not written (ActionOutput's undo).
    let undo: (() => Promise<void>) | undefined;
    try {
      const { ctx, inPlace, params, files } = prepared;
      const action = this.named(prepared.name);
      if (action.moves) return await this.move(prepared);
      const execution = exec ?? requestExecution();
      const { result, written, stat } = await this.documents.transform<{ output: ActionOutput; summary?: UploadSummary | undefined }>({
        operation: action.name,
        purgeEarlierVersions: action.removesContent === true && (params as { keepVersions?: boolean }).keepVersions !== true,
        source: prepared.source,
        target: prepared.output,
        conflict: prepared.conflict,
        ctx,
        exec: execution,
        lock: action.writesOthers?.(params) ? 'write' : lock,
        work: async (stored, engine) => {
          const output = await this.invoke(action, { params, prepared: prepared.prepared, files, source: stored!, sourcePath: prepared.source, ctx, engine, exec: execution });
          if (output.kind === 'model') return { result: { output } };
          if (output.kind === 'file') {
            // Nothing is written; the content is the caller's once execute answers (discarded here if it fails first).
            if (!(output.content instanceof Uint8Array)) staged = output.content;
            return { result: { output } };
          }
          if (output.kind === 'unchanged') {
            const summary = output.summary ?? (await this.documents.reads.readerSummary(stored!, engine));
            // In place nothing is written; a savePath the client named gets the document as it is.
            if (inPlace || output.savePath === 'nothing') return { result: { output, summary } };
            return { content: await stored!.bytes(), result: { output, summary } };
          }
          if (!(output.bytes instanceof Uint8Array)) staged = output.bytes;
          undo = output.undo;
          // Only for an action whose output no engine task summarised (CopyAction): read while the written bytes are
          // at hand (staged content comes with its summary).
          const summary = output.summary ?? (output.bytes instanceof Uint8Array ? await engine.run('validateUpload', { pdf: output.bytes }).catch(() => undefined) : undefined);
          return { content: output.bytes, pageCount: summary?.pageCount, result: { output, summary } };
        },
      });
      // Written (or nothing to write): the other documents stay as the action left them.
      undo = undefined;
      const { output } = result;
      // The version written, or the source when the action changed nothing.
      const version = written?.stat ?? stat;
      const summary = version ? this.documents.reads.noteWritten(version.etag, result.summary) : undefined;
      if (output.kind === 'model') return { kind: 'model', model: output.model, xmlRoot: output.xmlRoot };
      if (output.kind === 'file') {
        const answer: ActionResponse = { kind: 'file', content: output.content, name: output.name, mediaType: output.mediaType, source: documentModel(prepared.source, stat!, summary) };
        staged = undefined;
        return answer;
      }
      if (output.kind === 'unchanged' && !written) {
        const model = { ...documentModel(prepared.source, stat!, summary), ...(output.report !== undefined ? { report: output.report } : {}) };
        return { kind: 'document', created: false, model };
      }
      const model = {
        ...documentModel(written!.path, written!.stat, summary),
        ...(output.report !== undefined ? { report: output.report } : {}),
        ...(written!.purgedVersions !== undefined ? { versionsPurged: written!.purgedVersions } : {}),
      };
      if (inPlace) return { kind: 'document', created: false, model };
      return { kind: 'document', created: written!.created, model, location: written!.path };
    } catch (err) {
      await staged?.discard().catch(() => undefined);
      await undo?.();
      throw err;
    } finally {
      await discardAll(prepared.files);
    }
  }

  /** A moving action's run (ActionDefinition.moves): the document and its versions to the output path; its model there. */
  private async move(prepared: PreparedAction): Promise<ActionResponse> {
    const written = await this.documents.move(prepared.source, prepared.output, prepared.conflict, prepared.ctx);
    const model = await this.documents.reads.model(written.path, prepared.ctx).catch(() => documentModel(written.path, written.stat));
    return { kind: 'document', created: written.created, model, location: written.path };
  }

  /** Prepares and executes an action inline, as one request. */
  async run(sourcePath: StoredPath, body: unknown, target: ActionTarget, files: ActionFile[], ctx: OperationContext): Promise<ActionResponse> {
    return this.execute(await this.prepare(sourcePath, body, target, files, ctx));
  }
}

/** The parameters of `action` that only say where a stored document's result goes (ActionDefinition.outputParams). */
function outputParamsOf(action: AnyAction): readonly string[] {
  return action.outputParams ?? OUTPUT_PARAMS;
}

function discardAll(files: ActionFile[]): Promise<unknown> {
  return Promise.all(files.map((f) => f.content.discard()));
}
