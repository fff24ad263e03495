import type { FromSchema } from 'json-schema-to-ts';
import type { StoredPath } from '../../storage/paths.js';
import type { StagedUpload } from '../../storage/store.js';
import type { Need, TaskOutput } from '../../engine/models.js';
import type { OperationContext } from '../context.js';
import type { DocumentContent, DocumentOperations } from '../documents.js';
import type { Engine, ExecutionContext } from '../execution.js';
import type { ToolSupervisor } from '../../tools/supervisor.js';
import type { OptimizeProfileOperations } from '../optimize/profiles.js';
import type { PipelineStore } from '../pipelines/store.js';
import type { ActionRunner } from './runner.js';

/** What of the action runner an action that runs other actions (PipelineAction) is given: a step's prepare and execute, and the chain of steps. */
export type StepRunner = Pick<ActionRunner, 'prepareStep' | 'executeStep' | 'executeSteps'>;

/** A file sent with a multipart action request (every part except the action JSON). */
export interface ActionFile {
  field: string;
  fileName: string | undefined;
  mediaType: string;
  content: StagedUpload;
}

/** What an action's prepare step is given: everything of the request, nothing read from the document yet. */
export interface PrepareInput<P> {
  params: P;
  files: ActionFile[];
  ctx: OperationContext;
  documents: DocumentOperations;
  /** External programs (tesseract's languages, say). */
  tools: ToolSupervisor;
  /** Optimize profiles (OptimizeAction's profileName); absent where the runner was made without them. */
  optimizeProfiles?: OptimizeProfileOperations | undefined;
  /** Stored pipelines (PipelineAction's name); absent where the runner was made without them. */
  pipelines?: PipelineStore | undefined;
  /** The runner itself, for an action whose steps are other actions (PipelineAction). */
  runner?: StepRunner | undefined;
  /** The document the action is posted to and where its output goes (absent for a one-shot step, which stores nothing). */
  paths?: { source: StoredPath; output: StoredPath; conflict: 'fail' | 'overwrite' | 'unique' } | undefined;
}

/** What an action's execute step is given: its parameters, what prepare decided, and the source read once. */
export interface ExecuteInput<P, X> {
  params: P;
  /** What prepare answered: plain data (no closures, no open handles), so that a job can keep it. */
  prepared: X;
  files: ActionFile[];
  /** The source document's content: one stored version, read under the lock of the output, or a one-shot step's input. */
  source: DocumentContent;
  /** The source document's path; absent for a one-shot step's input, which is stored nowhere. */
  sourcePath?: StoredPath | undefined;
  ctx: OperationContext;
  /** The engine under the execution's signal and progress. */
  engine: Engine;
  /** The execution itself: its signal for external programs, and progress the action reports itself (pages done of several steps). */
  exec: ExecutionContext;
  documents: DocumentOperations;
  tools: ToolSupervisor;
  /** The runner itself, for an action whose steps are other actions (PipelineAction). */
  runner: StepRunner;
}

/** An action either produces new document bytes (written by the runner) or answers a model. */
export type ActionOutput =
  /**
   * New bytes. `summary`: the written file's page count and encryption when the engine task that wrote it already
   * knows them, which spares the runner opening the output again (70 to 110 ms on the optimized 200-page bench document).
   * A large output may come staged in the store (DocumentOperations.stage) instead of as bytes, so that it is never
   * held in memory (PDFAConvertAction); it then comes with its summary, and the runner discards it when nothing is
   * written.
   */
  | {
      kind: 'document';
      bytes: Uint8Array | StagedUpload;
      report?: unknown;
      summary?: TaskOutput<'validateUpload'>;
      /**
       * The action also wrote other documents (PageNumbersAction's set): called when these bytes are not written after
       * all (a 412 on the target, a stop, a failed write), to put those documents back as they were.
       */
      undo?: () => Promise<void>;
    }
  | { kind: 'model'; model: unknown; xmlRoot: string }
  /**
   * A file that is not a stored document (an export: Markdown, DOCX): nothing is written to the store. Inline, the
   * answer is the file; as a job, it is kept as the job's result file (operations/jobs/result-files.ts) for the client
   * to download (GET /jobs/{id}/result). Staged content (DocumentOperations.stage) is discarded once answered or kept.
   */
  | { kind: 'file'; content: Uint8Array | StagedUpload; name: string; mediaType: string }
  /**
   * The action found nothing to change: nothing is written in place, and the answer is the source's DocumentModel (its
   * ETag unchanged) with the report. A savePath gets the document as it is (201 when new), as the client named a result
   * there; `savePath: 'nothing'` writes none there either (OptimizeAction, whose report says changed false).
   * `summary`: the source's, when the engine task read it.
   */
  | { kind: 'unchanged'; report?: unknown; summary?: TaskOutput<'validateUpload'> | undefined; savePath?: 'copy' | 'nothing' };

/**
 * One action: its name (the body's one key), where it is posted, its parameter
 * schema (validation and OpenAPI), and its two steps. `prepare` decides the
 * action's own 4xx answers (files present and of the right type, other
 * documents it names exist) before any work and before the document is read,
 * and answers plain data for execute; `execute` does the engine work and
 * answers the output. The runner owns
 * validation, locking, If-Match and writing (DocumentOperations.transform).
 */
export interface ActionDefinition<P extends OutputParams = OutputParams, X = undefined> {
  name: string;
  target: 'document' | 'pages';
  summary: string;
  /**
   * Long by nature (OCR, PDF/A conversion, optimisation): run as a background
   * job unless the client asks to wait (docs/jobs.md). Any action on a
   * document larger than PDFSERVICE_JOB_ASYNC_BYTES is treated so too.
   */
  long?: boolean;
  /** Long by what prepare found (PipelineAction: a step long by nature), beside `long`. */
  isLong?(prepared: X): boolean;
  /**
   * Why the action cannot be a step of a one-shot or a pipeline (PipelineAction); absent: it can, unless it requires
   * one of its outputParams.
   */
  notAStep?: string;
  /**
   * The permission its engine work opens the document with (null: it does not
   * open it). The engine checks it again as it works; this copy lets a job
   * check the password before it is accepted (ActionRunner.checkAccess).
   */
  need: Need | null;
  /**
   * The action moves the stored document to savePath instead of writing new bytes (MoveAction): the runner moves it
   * (DocumentOperations.move, with its versions) and never calls execute; it is never a job (no bytes to work on).
   */
  moves?: boolean;
  /**
   * The action removes content that must not be recoverable (ApplyRedactionsAction): its write removes every earlier
   * version of the document it writes, unless the request's `keepVersions` is true (docs/versions.md, "Redaction").
   */
  removesContent?: boolean;
  /** Its JSON schema; P is derived from it (FromSchema) where the engine request type allows. */
  schema: Readonly<Record<string, unknown>>;
  /**
   * Its parameters that only say where a stored document's result goes: a one-shot step (operations/oneshot.ts),
   * which stores nothing, refuses them, its schema has none of them, and an action that requires one cannot be a step
   * (ActionRunner.prepareStep, stepActions). Absent: OUTPUT_PARAMS, which every writing action takes.
   */
  outputParams?: readonly string[];
  /**
   * The schema of the model the action answers instead of a DocumentModel (SplitDocumentAction's list of the documents
   * it wrote): the route's OpenAPI answer names it beside DocumentModel.
   */
  modelSchema?: Readonly<Record<string, unknown>>;
  prepare?(input: PrepareInput<P>): Promise<X>;
  /**
   * The action writes other documents under their own locks (PageNumbersAction's set): the runner then holds the
   * target's lock only while writing it (lock `write`, the version read required), so that no request holds two
   * documents' locks at once: two sets naming each other's documents would otherwise wait for each other for ever.
   */
  writesOthers?(params: P): boolean;
  /**
   * Bytes of other stored documents the action reads, from what prepare answered (MergeDocumentsAction's sources):
   * added to the source's size where the size decides whether the work runs as a job (PDFSERVICE_JOB_ASYNC_BYTES).
   */
  otherBytes?(prepared: X): number;
  /**
   * Its parameters without the secrets they hold (passwords of other documents: MergeDocumentsAction's sources), for
   * a job's record, which is written to disk or Redis; undefined when they hold none. A job whose parameters held
   * some runs from memory only, as one with a document password: on the instance that took it, and not after a restart.
   */
  withoutSecrets?(params: P): P | undefined;
  execute(input: ExecuteInput<P, X>): Promise<ActionOutput>;
}

/**
 * A stored document's path in an action's body (MergeDocumentsAction's sources, InsertUploadedPagesAction's
 * appendFilePath, PageNumbersAction's documents): checked by the one path-safety function (documentPathFromBody), so a
 * bad one is 400 INVALID_PATH naming the field, as a bad savePath is; the OpenAPI description gives it the document
 * path rules (PATH_SCHEMAS.document, http/openapi.ts) by its key (BODY_DOCUMENT_PATH_KEYS, storage/paths.ts).
 */
export const DOCUMENT_PATH_PARAM = { type: 'string', minLength: 1, description: 'Path of a document on the server ("folder/name.pdf")' } as const;

/** JSON schema fragments every writing action shares. */
export const OUTPUT_PARAM_SCHEMAS = {
  savePath: {
    type: 'string',
    minLength: 1,
    description: 'Path of the output document ("folder/name.pdf"); absent: the original is replaced. Folders are created.',
  },
  namingMode: {
    type: 'integer',
    enum: [0, 1, 2],
    default: 0,
    description: 'When savePath exists: 0 fail with 409 (default), 1 overwrite, 2 append a random number to the name.',
  },
} as const;

/** The parameters of OUTPUT_PARAM_SCHEMAS: an action's outputParams unless it declares others. */
export const OUTPUT_PARAMS: readonly string[] = Object.keys(OUTPUT_PARAM_SCHEMAS);

/**
 * Fields every writing action accepts: where the result goes and what happens on a name clash.
 * namingMode stays optional here, as a caller may build these; validation fills in its default.
 */
export type OutputParams = FromSchema<{ type: 'object'; properties: typeof OUTPUT_PARAM_SCHEMAS; additionalProperties: false }, { keepDefaultedPropertiesOptional: true }>;

export type { StoredPath };
