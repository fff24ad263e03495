/**
 * The job model (issue 18): what a client sees of a piece of work that runs
 * in the background, and the record the job store keeps. Everything here is
 * plain JSON, so that a store on disk (the embedded default) or in Redis
 * holds it as it is, and a restarted service reads it back.
 */

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted';

/** States a job does not leave. */
export const FINISHED_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled', 'interrupted'];

export function isFinished(state: JobState): boolean {
  return FINISHED_STATES.includes(state);
}

export interface JobProgress {
  done: number;
  total?: number;
  /** What `done` and `total` count: pages, mostly. */
  unit: string;
  /** 0-100, never lower than an earlier report of the same job. */
  percent: number;
  /** A short text saying which phase the job is in ("search", "text", "converting"). */
  phase?: string;
  /**
   * A pipeline's job (PipelineAction, docs/pipelines.md): the step running (from 1), how many there are, and its
   * action; done, total and unit are then that step's own progress, and percent the whole pipeline's.
   */
  step?: { index: number; count: number; action: string };
}

/**
 * What went wrong, as the inline request's error had it (errors.ts): the route answers it as the problem document
 * with the code's HTTP status (errorStatus). Records carry no HTTP status (records written before did: readers ignore it).
 */
export interface JobError {
  code: string;
  title: string;
  detail?: string;
  /** The problem's extension members (a failed PDF/A conversion's report, say), as the inline answer has them. */
  extra?: Record<string, unknown>;
  /** The error was about a part of the URL path (a page index there): its code's path status applies (errors.ts, ErrorOrigin). */
  inPath?: true;
}

/**
 * A succeeded job's result: what happened, never an HTTP status (the route maps `created` to 201). Today a written
 * document (or the model an action answers), or with `file` a file that is not a PDF.
 */
export interface JobResult {
  /**
   * The written document's path ("/folder/name.pdf"), or the source's for an action that answers a model or a file;
   * absent for a file made from no stored document (a one-shot conversion).
   */
  path?: string;
  /** Whether the job created the document at `path` (else it replaced it, or wrote nothing). */
  created: boolean;
  /** The written document's DocumentModel, or the model the action answers. */
  document: unknown;
  /** The XML root of an action's own model (absent for a DocumentModel). */
  xmlRoot?: string;
  /**
   * The job produced a file that is not a stored document (an export, a compare, a one-shot conversion): the client
   * downloads it from the job, and it is kept as long as this record (result-files.ts); `path` and `document` then
   * name the document it was read from, unchanged (its DocumentModel: its ETag is the version read), and a one-shot
   * conversion, which reads none, has neither (docs/jobs.md, "Result files").
   */
  file?: JobResultFile;
}

/** The result of a job whose answer is a file, made from `source` (the document read, unchanged) or from no stored document. */
export const fileResult = (file: JobResultFile, source?: { path: string }): JobResult =>
  source ? { path: source.path, created: false, document: source, file } : { created: false, document: null, file };

/**
 * What a job runs, as data (no closures): the kind says which executor
 * reads it. `action`: a prepared action (operations/actions/runner.ts);
 * `upload`: a document upload that is checked or converted and stored
 * (operations/documents.ts).
 */
export type JobPayload = ActionPayload | UploadPayload | OneShotPayload | ComparePayload | ExportPayload;

interface PayloadCommon {
  conflict: 'fail' | 'overwrite' | 'unique';
  /** The request's If-Match, or "" without one. */
  etag: string;
  /**
   * Whether the job can run from this record alone. Document passwords and
   * uploaded files are held in memory only, never written to disk: a job that
   * needs them cannot run again after a restart.
   */
  resumable: boolean;
  /**
   * Across instances, the process holding a job on its own queue (JobBackend.holder): what that job needs is
   * on that instance only, so when the process stops saying it lives, the job is marked interrupted (interruptDead).
   */
  holder?: string;
  /**
   * The ETag of the version the job was about to write, recorded just before the write: when the job's process
   * stops after that, the document may hold the result or not, and the interrupted job says so (with this ETag).
   */
  writing?: string;
  /**
   * The job's one W3C `traceparent`: with tracing on, the span of the request that created the job
   * (docs/observability.md), whose child the job's span is on whichever process runs it (the shared queue's job names
   * this record); off, the request's own valid `traceparent`, if it had one. The webhook sends it on (docs/webhooks.md).
   */
  traceparent?: string;
}

export interface ActionPayload extends PayloadCommon {
  kind: 'action';
  /** The action's name, validated parameters and prepare's answer. */
  action: string;
  target: 'document' | 'pages';
  params: Record<string, unknown>;
  prepared: unknown;
  /** Document paths, as "folder/name.pdf". */
  source: string;
  output: string;
}

export interface UploadPayload extends PayloadCommon {
  kind: 'upload';
  /** Where the upload is stored, as "folder/name.pdf". */
  output: string;
  /** The media type it is converted from (application/pdf: checked, not converted). */
  mediaType: string;
  /** The upload's size in bytes. */
  bytes: number;
}

/**
 * A one-shot conversion (operations/oneshot.ts): files converted and run through steps, the result kept as the job's
 * result file; nothing is written to the store (`conflict` and `etag` do not apply). Never resumable: its files are
 * staged on this instance only.
 */
export interface OneShotPayload extends PayloadCommon {
  kind: 'oneshot';
  /** The media type converted from. */
  mediaType: string;
  /** The steps' action names, in order. */
  steps: string[];
  /** The input's size in bytes. */
  bytes: number;
}

/**
 * A compare (operations/compare.ts, docs/compare.md): a read of two documents whose answer (the report, as JSON or
 * XML, or the highlight PDF, as negotiated at submission) is kept as the job's result file; nothing is written to the
 * store (`conflict` and `etag` do not apply). Never resumable: the passwords and the answer's rendering are held by
 * the instance that took it, so it stays on that instance's queue, as a one-shot does.
 */
export interface ComparePayload extends PayloadCommon {
  kind: 'compare';
  /** The base, as "folder/name.pdf" (the record's `document` is the other one), and the versions compared. */
  base: string;
  versionId?: string;
  baseVersionId?: string;
  options: { text: boolean; visual: boolean; dpi: number; threshold: number };
  /** The result's media type (application/json, application/xml, text/xml or application/pdf). */
  mediaType: string;
  /** The larger document's size in bytes (the size rule of long work). */
  bytes: number;
}

/**
 * An export (docs/export.md): a read of one document whose answer (JSON, Markdown, HTML, XLSX or CSV) is kept as the
 * job's result file; nothing is written to the store (`conflict` and `etag` do not apply). Never resumable: the
 * document password and the answer's writing are held by the instance that took it, as a compare's are.
 */
export interface ExportPayload extends PayloadCommon {
  kind: 'export';
  format: string;
  pageRange?: string;
  table?: number;
  versionId?: string;
  /** The result's media type. */
  mediaType: string;
  /** The pages exported (the page rule of long work, EXPORT_ASYNC_PAGES). */
  pages: number;
}

/** A job's result file, as its record describes it (the content is in JobResultFiles, under the job's id). */
export interface JobResultFile {
  /** The name the client saves it under (Content-Disposition), such as "report.docx". */
  name: string;
  mediaType: string;
  size: number;
  /** The content's strong ETag, computed as documents' are (storage/store.ts etagOf). */
  etag: string;
}

export interface JobRecord {
  id: string;
  /** The action's name, or "upload" for a stored or converted upload. */
  action: string;
  /** The document the job works on, as "folder/name.pdf". */
  document: string;
  /** A compare's base, as "folder/name.pdf" (the same as `document` for two versions of one document). */
  base?: string;
  owner: string | null;
  state: JobState;
  progress: JobProgress;
  created: string;
  started?: string;
  finished?: string;
  /** Why a job is interrupted or failed in a way the error does not say. */
  reason?: string;
  result?: JobResult;
  error?: JobError;
  /** The URL the job's end is POSTed to (docs/webhooks.md), and how that went. */
  webhook?: JobWebhook;
  payload: JobPayload;
}

/** A job's webhook: where its end is sent, and the delivery log (kept with the record, in its store). */
export interface JobWebhook {
  url: string;
  /** `pending` until an attempt is answered 2xx (`delivered`) or the last attempt failed (`failed`). */
  state: 'pending' | 'delivered' | 'failed';
  deliveries: WebhookDelivery[];
}

/** One attempt to deliver a webhook. */
export interface WebhookDelivery {
  /** 1 for the first. */
  attempt: number;
  /** When it was sent, ISO 8601. */
  at: string;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why it failed without an answer (refused, unreachable, timed out). */
  error?: string;
}
