import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import type { Engine, ExecutionContext } from '../execution.js';
import { readPipeline, stepProblem } from '../pipelines/pipelines.js';
import type { PreparedStep } from './runner.js';
import type { ActionDefinition } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/** How a pipeline is named where it is run: by this action, and by a watched folder's binding (http/schemas/watched-folders.ts). */
export const PIPELINE_REF_SCHEMAS = {
  name: { type: 'string', minLength: 1, description: 'The pipeline to run (GET /pipelines lists those the caller sees)' },
  owner: { type: 'string', minLength: 1, description: 'Whose pipeline: absent, the caller\'s own; another user\'s when it is shared (or the caller is an admin)' },
  version: { type: 'integer', minimum: 1, description: 'The pipeline version to run; absent: the newest' },
} as const;

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    ...PIPELINE_REF_SCHEMAS,
  },
  required: ['name'],
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/** What prepare resolved: which version of which pipeline, and its steps prepared by their own actions (plain data: a job keeps it). */
interface Prepared {
  pipeline: { name: string; owner: string; version: number };
  steps: PreparedStep[];
}

/** What the answer's report says of each step. */
interface StepReport {
  step: number;
  action: string;
  /** Whether the step changed the document (false: it found nothing to do, and the next step had its input). */
  changed: boolean;
  report?: unknown;
}

/**
 * PipelineAction (docs/pipelines.md): runs a stored pipeline's steps on the document, each on the previous one's
 * output, and writes the last output once, as one new version, through the runner like every action: all steps or
 * none, the stored document unchanged when a step fails (the steps' intermediate bytes are never stored; staged ones
 * are discarded). Steps are chained by the runner's executeSteps, as a one-shot's are, so each behaves as its
 * action does. A job's progress names the step (step i of n, its action) beside the step's own progress.
 */
export const PipelineAction: ActionDefinition<Params, Prepared> = {
  name: 'PipelineAction',
  target: 'document',
  // Each step's engine work opens the document with its own need; this checks the password before a job is accepted.
  need: 'view',
  notAStep: 'a pipeline runs no other pipeline (a step naming one would let pipelines call each other for ever)',
  summary:
    'Runs a stored pipeline (name; owner for one shared by another user; version, else the newest) on the document: its steps one after the other, ' +
    'the document written once at the end as one new version (or at savePath). All steps or none: a step that fails leaves the document as it was, ' +
    'and the problem (PIPELINE_STEP_FAILED) names the step and carries its own problem. A job when a step is long by nature. See docs/pipelines.md.',
  schema,
  async prepare({ params, ctx, pipelines, runner }) {
    if (!pipelines || !runner) throw new Error('PipelineAction needs the pipelines and the action runner');
    const pipeline = await readPipeline(pipelines, ctx, params.name, params.owner, params.version);
    const steps: PreparedStep[] = [];
    // Prepared again now (an optimize profile a step names may have gone since the pipeline was saved): every 4xx before any work.
    for (const [index, body] of pipeline.steps.entries()) {
      try {
        steps.push(await runner.prepareStep(structuredClone(body), [], ctx));
      } catch (err) {
        if (err instanceof ServiceError) throw stepProblem('PIPELINE_STEP_INVALID', index, Object.keys(body)[0], err);
        throw err;
      }
    }
    return { pipeline: { name: pipeline.name, owner: pipeline.owner, version: pipeline.version }, steps };
  },
  isLong: (prepared) => prepared.steps.some((step) => step.long),
  async execute({ prepared, source, ctx, engine, exec, runner }) {
    const count = prepared.steps.length;
    const outcome = await runner.executeSteps(prepared.steps, { files: [], first: source, ctx, engine, exec }, {
      // Each step's progress is reported as that step's (step i of n, its action), its engine tasks' too.
      each: (index, step) => {
        const at = { index: index + 1, count, action: step.name };
        const stepExec: ExecutionContext = { ...exec, progress: exec.progress && ((p) => exec.progress!({ ...p, step: at })) };
        stepExec.progress?.({ done: 0, step: at });
        const stepEngine: Engine = { run: (task, input, options = {}) => engine.run(task, input, { ...options, onProgress: options.onProgress ?? stepExec.progress }) };
        return { engine: stepEngine, exec: stepExec };
      },
      failed: (index, step, err) => failedStep(index, step.name, err),
    });
    const reports: StepReport[] = outcome.steps.map((s, index) => ({ step: index + 1, action: prepared.steps[index]!.name, changed: s.changed, ...(s.report !== undefined ? { report: s.report } : {}) }));
    const report = { pipeline: prepared.pipeline, steps: reports };
    // The last staged output is the runner's to write (and discard when it is not written).
    if (outcome.content === undefined) return { kind: 'unchanged', report };
    // A staged output comes with its summary (ActionOutput); bytes without one are read by the runner.
    return { kind: 'document', bytes: outcome.content, report, ...(outcome.summary ? { summary: outcome.summary } : {}) };
  },
};

/**
 * A step's failure as the pipeline's: 422 PIPELINE_STEP_FAILED naming the step, with the step's own problem. A stop
 * (TASK_CANCELLED) and the service's own troubles (5xx: busy, a timeout, an internal error) keep their code, so that a
 * client retries or reports them as it would for the action alone; they name the step too.
 */
function failedStep(index: number, action: string, err: unknown): unknown {
  if (!(err instanceof ServiceError)) return err;
  if (err.code === 'TASK_CANCELLED' || err.status >= 500) {
    return new ServiceError(err.code, `Step ${index + 1} (${action}): ${err.detail ?? err.message}`, { ...(err.extra ?? {}), step: index + 1, action }, err.headers);
  }
  return stepProblem('PIPELINE_STEP_FAILED', index, action, err);
}
