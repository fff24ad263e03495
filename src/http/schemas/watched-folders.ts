import { PIPELINE_REF_SCHEMAS } from '../../operations/actions/PipelineAction.js';
import { LISTED_RUNS } from '../../operations/watched/watched.js';

/** A pipeline named by a binding: as PipelineAction names one. */
const pipelineRef = {
  type: 'object',
  properties: PIPELINE_REF_SCHEMAS,
  required: ['name'],
  additionalProperties: false,
} as const;

export const watchRequestSchema = {
  title: 'WatchedFolderRequest',
  type: 'object',
  description:
    'WatchedFolder (XML: <WatchedFolder>) to bind: every document arriving in `folder` runs `pipeline` as the binder, its output written to ' +
    '`target` under the same name (absent: in place, as a new version). See docs/watched-folders.md.',
  properties: {
    folder: { type: 'string', minLength: 1, description: 'The watched folder, as savePath names one ("inbox", "scans/2026"); only documents directly in it arrive' },
    pipeline: pipelineRef,
    target: { type: 'string', minLength: 1, description: 'The folder outputs go to (made when missing); absent: in place. A target from which watched folders lead back here is 400 WATCH_CYCLE' },
  },
  required: ['folder', 'pipeline'],
  additionalProperties: false,
} as const;

const runSchema = {
  type: 'object',
  description: 'One arrival\'s run',
  properties: {
    document: { type: 'string', description: 'The document that arrived' },
    etag: { type: 'string', description: 'The version that arrived' },
    state: { type: 'string', enum: ['queued', 'retrying', 'succeeded', 'failed'], description: 'queued: its job waits or runs; retrying: an attempt failed, the next waits for nextAttempt; succeeded; failed: every attempt failed (or the document changed meanwhile), left alone' },
    attempts: { type: 'integer', minimum: 0 },
    jobId: { type: 'string', description: 'The last attempt\'s job (GET /jobs/{id})' },
    jobIds: { type: 'array', items: { type: 'string' }, description: 'Every attempt\'s job, oldest first' },
    started: { type: 'string', format: 'date-time', description: 'When the arrival was claimed' },
    ended: { type: 'string', format: 'date-time', description: 'When the last attempt ended' },
    nextAttempt: { type: 'string', format: 'date-time' },
    output: { type: 'string', description: 'The document written (absent when the pipeline changed nothing)' },
    error: { type: 'object', additionalProperties: true, description: 'The last attempt\'s problem document' },
  },
  required: ['document', 'etag', 'state', 'attempts', 'jobIds', 'started'],
} as const;

export const watchModelSchema = {
  title: 'WatchedFolderModel',
  type: 'object',
  description: `WatchedFolderModel (XML: <WatchedFolder>): a binding with its newest ${LISTED_RUNS} runs, newest first.`,
  properties: {
    name: { type: 'string' },
    owner: { type: 'string', description: 'The binder: runs go as this user' },
    folder: { type: 'string' },
    pipeline: { ...pipelineRef, additionalProperties: true },
    target: { type: 'string', description: 'Where outputs go; absent when inPlace' },
    inPlace: { type: 'boolean', description: 'Outputs are new versions of the documents that arrived' },
    created: { type: 'string', format: 'date-time' },
    runCount: { type: 'integer', minimum: 0, description: 'Runs kept (at most 1,000); `runs` lists the newest of them' },
    runs: { type: 'array', items: runSchema },
  },
  required: ['name', 'owner', 'folder', 'pipeline', 'inPlace', 'created', 'runCount', 'runs'],
} as const;

export const watchesModelSchema = {
  title: 'WatchedFoldersModel',
  type: 'object',
  description: 'WatchedFoldersModel (XML: <WatchedFolders> holding one <WatchedFolder> each): the caller\'s bindings by name.',
  properties: { watchedFolders: { type: 'array', items: watchModelSchema } },
  required: ['watchedFolders'],
} as const;

export const watchNameParams = {
  type: 'object',
  properties: {
    watchName: {
      type: 'string',
      description: 'The watched folder\'s name: one path segment (no "/", "\\", ":" or control characters, not starting with "." nor ending with "." or a space, at most 255 bytes); case-sensitive',
    },
  },
  required: ['watchName'],
} as const;

export const watchOwnerQuery = {
  owner: { type: 'string', minLength: 1, description: 'Whose binding (admins only; others see their own)' },
} as const;

export const WATCH_XML = { root: 'WatchedFolder' };
export const WATCHES_XML = { root: 'WatchedFolders', flatten: 'watchedFolders', items: { watchedFolders: 'WatchedFolder' } };
