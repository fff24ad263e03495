/**
 * What an engine task is given besides its input, and the progress it
 * reports. Shared by the worker (which makes the context) and the pool (which
 * carries the reports to the caller); it loads no MuPDF, so the main thread
 * may import it.
 */

/** How far a task has got: `done` of `total` units (pages, mostly), and optionally which stage it is in. */
export interface TaskProgress {
  done: number;
  total?: number;
  /** What done and total count; pages when absent. Conversions count their phases ("steps"). */
  unit?: string;
  stage?: string;
  /** Which step of a pipeline reports (PipelineAction): the step's number from 1, how many there are, its action. */
  step?: { index: number; count: number; action: string };
}

/**
 * Tasks run synchronously inside their worker, so an abort cannot reach them
 * mid-task: the pool stops an aborted task by terminating its worker. The
 * context therefore carries progress only.
 */
export interface TaskContext {
  /** Reports progress; cheap to call per page (the worker sends at most about ten reports a second). */
  progress(p: TaskProgress): void;
}
