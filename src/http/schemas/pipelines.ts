import { MAX_STEPS } from '../../operations/oneshot.js';
import { MAX_DESCRIPTION } from '../../operations/pipelines/pipelines.js';

/** The shape of a pipeline's body that the route checks itself; each step is then checked by its action (PipelineOperations.put). */
export const pipelineBodyShape = {
  type: 'object',
  properties: {
    steps: { type: 'array', minItems: 1, maxItems: MAX_STEPS, items: { type: 'object', minProperties: 1, maxProperties: 1 } },
    description: { type: 'string', maxLength: MAX_DESCRIPTION },
    shared: { type: 'boolean' },
  },
  required: ['steps'],
  additionalProperties: false,
} as const;

/** The pipeline request body for the API description, with every action a step may name (`step`: ActionRunner.stepActions). */
export function pipelineRequestSchema(step: Record<string, unknown>) {
  return {
    title: 'PipelineRequest',
    type: 'object',
    description:
      'Pipeline (XML: <Pipeline>, the steps as <steps><step><ActionName>…</ActionName></step></steps>) to save as a new version. Each step is an ' +
      'action as POST /documents/{filePath}.pdf takes it, without savePath and namingMode; it is checked by that action when saved.',
    properties: {
      steps: { type: 'array', minItems: 1, maxItems: MAX_STEPS, items: step as Record<string, unknown>, description: `The actions, run in order (at most ${MAX_STEPS})` },
      description: { type: 'string', maxLength: MAX_DESCRIPTION },
      shared: { type: 'boolean', description: 'Shared with every user (admins only); absent: false' },
    },
    required: ['steps'],
    additionalProperties: false,
  } as const;
}

export const pipelineModelSchema = {
  title: 'PipelineModel',
  type: 'object',
  description: 'PipelineModel (XML: <Pipeline>): one version of a pipeline, its steps as stored (every default filled in).',
  properties: {
    name: { type: 'string' },
    owner: { type: 'string', description: 'The user it belongs to' },
    version: { type: 'integer', minimum: 1, description: 'This version\'s number (1 for the first PUT, one more for each PUT after it)' },
    latestVersion: { type: 'integer', minimum: 1, description: 'The newest version\'s number' },
    etag: { type: 'string', description: 'This version\'s ETag (If-Match on PUT and DELETE names the newest)' },
    description: { type: 'string' },
    shared: { type: 'boolean', description: 'Shared with every user (set by an admin)' },
    steps: { type: 'array', items: { type: 'object', additionalProperties: true } },
    created: { type: 'string', format: 'date-time', description: 'When this version was saved' },
    createdBy: { type: 'string', description: 'Who saved this version (the owner, or an admin)' },
  },
  required: ['name', 'owner', 'version', 'latestVersion', 'etag', 'shared', 'steps', 'created', 'createdBy'],
} as const;

export const pipelinesModelSchema = {
  title: 'PipelinesModel',
  type: 'object',
  description: 'PipelinesModel (XML: <Pipelines> holding one <Pipeline> each): the newest version of each pipeline listed, by owner and name.',
  properties: { pipelines: { type: 'array', items: pipelineModelSchema } },
  required: ['pipelines'],
} as const;

export const pipelineNameParams = {
  type: 'object',
  properties: {
    pipelineName: {
      type: 'string',
      description: 'The pipeline name: one path segment (no "/", "\\", ":" or control characters, not starting with "." nor ending with "." or a space, at most 255 bytes); case-sensitive',
    },
  },
  required: ['pipelineName'],
} as const;

export const ownerQuery = {
  owner: { type: 'string', minLength: 1, description: 'Whose pipeline: absent, the caller\'s; another user\'s that is shared (or any, for an admin)' },
} as const;

export const PIPELINE_XML = { root: 'Pipeline' };
export const PIPELINES_XML = { root: 'Pipelines', flatten: 'pipelines', items: { pipelines: 'Pipeline' } };
