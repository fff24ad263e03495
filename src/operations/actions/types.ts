import type { JSONSchemaType } from 'ajv';
import type { EnginePool } from '../../engine/pool.js';
import type { StoredPath } from '../../storage/paths.js';
import type { DocumentStore, StagedUpload } from '../../storage/store.js';
import type { OperationContext } from '../context.js';
import type { DocumentOperations, OpenedDocument } from '../documents.js';

/** A file sent with a multipart action request (every part except the action JSON). */
export interface ActionFile {
  field: string;
  fileName: string | undefined;
  mediaType: string;
  content: StagedUpload;
}

/** Fields every writing action accepts: where the result goes and what happens on a name clash. */
export interface OutputParams {
  savePath?: string;
  namingMode?: 0 | 1 | 2;
}

export interface ActionInput<P> {
  params: P;
  /** The source document, read once and opened with the request's password. */
  source: OpenedDocument;
  files: ActionFile[];
  ctx: OperationContext;
  pool: EnginePool;
  store: DocumentStore;
  documents: DocumentOperations;
}

/** An action either produces new document bytes (written by the runner) or answers a model. */
export type ActionOutput = { kind: 'document'; bytes: Uint8Array; report?: unknown } | { kind: 'model'; model: unknown; xmlRoot: string };

/**
 * One action: its name (the body's one key), where it is posted, its parameter
 * schema (validation and OpenAPI), and its handler. The runner owns reading,
 * locking, If-Match and writing; a handler only turns a document into output.
 */
export interface ActionDefinition<P extends OutputParams = OutputParams> {
  name: string;
  target: 'document' | 'pages';
  summary: string;
  schema: JSONSchemaType<P> | Record<string, unknown>;
  /** Whether the action needs the source opened by the engine (false: bytes are enough). */
  opensDocument: boolean;
  /** Whether the action's result may replace the source when savePath is absent. */
  writes: boolean;
  run(input: ActionInput<P>): Promise<ActionOutput>;
}

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

export type { StoredPath };
