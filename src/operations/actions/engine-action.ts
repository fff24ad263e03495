import type { Need, TaskInput, TaskName, TaskOutput } from '../../engine/models.js';
import type { RunOptions } from '../../engine/pool.js';
import type { ActionDefinition, ActionOutput, ExecuteInput, OutputParams, PrepareInput } from './types.js';

/**
 * The engine tasks an action can be: they take the document (and its password) and answer its new bytes, or none
 * when nothing changed, with the summary of the version they answer for (engine/core/document-task.ts, withSummary).
 */
export type WritingTask = {
  [K in TaskName]: TaskInput<K> extends { pdf: unknown; password?: unknown } ? (TaskOutput<K> extends { bytes?: Uint8Array; summary?: unknown } ? K : never) : never;
}[TaskName];

/** What a writing task answers, as the factory reads it. */
interface WritingResult {
  bytes?: Uint8Array;
  report?: unknown;
  summary?: TaskOutput<'validateUpload'>;
}

/** The parameters every writing action has, which its engine task does not take. */
type OwnParams<P> = Omit<P, 'savePath' | 'namingMode'>;

/** One engine-backed action: what an ActionDefinition says, plus the task it runs and that task's input. */
export interface EngineActionDeclaration<P extends OutputParams, X, K extends WritingTask> {
  name: string;
  target: 'document' | 'pages';
  need: Need;
  summary: string;
  schema: Readonly<Record<string, unknown>>;
  long?: boolean;
  /** As ActionDefinition.removesContent and .outputParams. */
  removesContent?: boolean;
  outputParams?: readonly string[];
  prepare?(input: PrepareInput<P>): Promise<X>;
  otherBytes?(prepared: X): number;
  withoutSecrets?(params: P): P | undefined;
  /** The engine task that does the work and saves. */
  task: K;
  /** The task's input besides the document and its password; `own`: the parameters other than savePath and namingMode. */
  input(args: { params: P; own: OwnParams<P>; prepared: X; execute: ExecuteInput<P, X> }): Omit<TaskInput<K>, 'pdf' | 'password'> | Promise<Omit<TaskInput<K>, 'pdf' | 'password'>>;
  /** Buffers of the input moved into the worker rather than copied (an uploaded image, say). */
  transfer?(input: Omit<TaskInput<K>, 'pdf' | 'password'>): RunOptions['transfer'];
}

/**
 * An engine-backed action as one declaration: its execute step runs `task` on the source with the request's
 * document password and answers the task's bytes, report and summary (so the runner does not open the written
 * version again), or `unchanged` when the task answered no bytes: nothing is written in place, and a savePath
 * receives the document as it is (docs/api.md, "Actions that change nothing").
 */
export function engineAction<P extends OutputParams, K extends WritingTask, X = undefined>(declaration: EngineActionDeclaration<P, X, K>): ActionDefinition<P, X> {
  const { task, input, transfer, ...definition } = declaration;
  return {
    ...definition,
    async execute(execute) {
      const { params, prepared, source, engine, ctx } = execute;
      const { savePath: _savePath, namingMode: _namingMode, ...own } = params;
      const fields = await input({ params, own, prepared, execute });
      const options = transfer ? { transfer: transfer(fields) } : {};
      const result = (await engine.run(task, { ...fields, pdf: source.pdf, password: ctx.documentPassword } as TaskInput<K>, options)) as WritingResult;
      const report = result.report !== undefined ? { report: result.report } : {};
      const summary = result.summary ? { summary: result.summary } : {};
      const output: ActionOutput = result.bytes ? { kind: 'document', bytes: result.bytes, ...report, ...summary } : { kind: 'unchanged', ...report, ...summary };
      return output;
    },
  };
}
