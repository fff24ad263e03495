import type { FromSchema } from 'json-schema-to-ts';
import { ServiceError } from '../../errors.js';
import { documentPathFromBody, type StoredPath } from '../../storage/paths.js';
import { NOT_BLANK } from '../../validation.js';
import type { OperationContext } from '../context.js';
import type { DocumentOperations } from '../documents.js';
import { inBatches } from '../in-batches.js';
import { engineAction } from './engine-action.js';
import { DOCUMENT_PATH_PARAM, OUTPUT_PARAM_SCHEMAS, type OutputParams, type PrepareInput } from './types.js';

/**
 * MergeDocumentsAction (issue 40, docs/merge-split.md): the document it is posted to, then `sources` in order, into a
 * new document at savePath. The engine's mergeDocuments task does the work with the page-insertion mechanism of
 * InsertUploadedPagesAction; this module decides the 4xx answers first (paths, missing sources, the limit, a signed
 * document at savePath) and reads the sources when the work runs.
 */

/** Documents after the one posted to: 1,000 in all. More is 400 before any work (the schema's maxItems). */
export const MAX_MERGE_SOURCES = 999;

const pageRange = (whose: string) =>
  ({ type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: `Pages of ${whose} to take, in this order (default: all); 1-based, as in a print dialog: "1-3,7,10-"; not empty.` }) as const;

const properties = {
  ...OUTPUT_PARAM_SCHEMAS,
  sources: {
    type: 'array',
    minItems: 1,
    maxItems: MAX_MERGE_SOURCES,
    description: `The documents that follow the one posted to, in order (1 to ${MAX_MERGE_SOURCES}): each a stored document, with its pages and password`,
    items: {
      type: 'object',
      properties: {
        filePath: DOCUMENT_PATH_PARAM,
        pageRange: pageRange('that document'),
        password: { type: 'string', maxLength: 1024, description: 'Its password, when it is encrypted' },
      },
      required: ['filePath'],
      additionalProperties: false,
    },
  },
  pageRange: pageRange('the document posted to (the first source)'),
  bookmarks: { type: 'boolean', default: true, description: 'A bookmark per source (its Title, else its file name) with its own bookmarks under it; false: the sources\' bookmarks one after another at the top level' },
  tableOfContents: { type: 'boolean', default: false, description: 'A table of contents in front: each source\'s title and start page, linked to it' },
} as const;

const schema = { type: 'object', properties, required: ['sources', 'savePath'], additionalProperties: false } as const;

type Params = FromSchema<typeof schema, { keepDefaultedPropertiesOptional: true }> & OutputParams;

/** What prepare answers: each source's size (the job decision counts them), and the path of the document posted to. */
interface Prepared {
  sizes: number[];
  first: string;
}

function sourcePaths(params: Params): StoredPath[] {
  return params.sources.map((s, i) => documentPathFromBody(s.filePath, `sources[${i}].filePath`));
}

/**
 * A document at savePath that would be written over must not be signed (409 DOCUMENT_SIGNED: the merge replaces it,
 * signatures and all). Read with the password the request has for it: the header's when it is the document posted
 * to, a source's own when it is one of them. One that cannot be read without a password it was not given cannot be
 * told signed: it is replaced, as any overwrite is.
 */
async function refuseSignedTarget(input: PrepareInput<Params>, sources: StoredPath[]): Promise<void> {
  const { paths, documents, ctx, params } = input;
  if (!paths || paths.conflict !== 'overwrite') return;
  const { output } = paths;
  if (!(await documents.exists(output, ctx))) return;
  const at = sources.findIndex((p) => p.equals(output));
  const password = output.equals(paths.source) ? ctx.documentPassword : at >= 0 ? params.sources[at]!.password : undefined;
  // Through the read models' cache: a document this service wrote (an earlier merge to the same savePath) is known
  // without an engine task.
  const info = await documents
    .read(output, { ...ctx, documentPassword: password }, (stored, engine) => documents.reads.inspect(stored, password, engine))
    .catch(() => undefined);
  if (info?.hasSignatures) {
    throw new ServiceError('DOCUMENT_SIGNED', `The document at savePath ${output.toString()} is signed: the merge would replace it and its signatures. Write the merge elsewhere, or clear its signatures first (DELETE .../fields/signature-fields/{name})`);
  }
}

async function readSources(params: Params, documents: DocumentOperations, ctx: OperationContext) {
  const paths = sourcePaths(params);
  // As bytes, as InsertUploadedPagesAction reads its other document: the task outlives each read, and they go to the worker moved, not copied.
  return inBatches(paths, async (path, i) => ({
    pdf: await documents.read(path, ctx, (stored) => stored.bytes()),
    path: path.toString(),
    ...(params.sources[i]!.pageRange !== undefined ? { pageRange: params.sources[i]!.pageRange } : {}),
    ...(params.sources[i]!.password !== undefined ? { password: params.sources[i]!.password } : {}),
  }));
}

export const MergeDocumentsAction = engineAction<Params, 'mergeDocuments', Prepared>({
  name: 'MergeDocumentsAction',
  target: 'document',
  need: 'assemble',
  summary:
    'Merges this document (first) and the documents of sources, in order, each with its pageRange, into a new document at savePath (required): ' +
    'a bookmark per source with its bookmarks under it, links and named destinations kept (clashing names get "_2", ...), form fields renamed ' +
    `on collision, optionally a table of contents in front. At most ${MAX_MERGE_SOURCES} sources. The answer's report gives each source's start page.`,
  schema,
  async prepare(input) {
    const paths = sourcePaths(input.params);
    // A missing source is 404 naming it (DocumentOperations.stat), before any work; stated a few at a time (in-batches.ts).
    const stats = await inBatches(paths, (path) => input.documents.stat(path, input.ctx));
    await refuseSignedTarget(input, paths);
    return { sizes: stats.map((s) => s.size), first: input.paths?.source.toString() ?? '' };
  },
  otherBytes: (prepared) => prepared.sizes.reduce((a, b) => a + b, 0),
  // The sources' passwords are never written into a job's record.
  withoutSecrets: (params) =>
    params.sources.some((s) => s.password !== undefined) ? { ...params, sources: params.sources.map(({ password: _password, ...rest }) => rest) } : undefined,
  task: 'mergeDocuments',
  input: async ({ params, prepared, execute: { documents, ctx } }) => {
    return {
      path: prepared.first,
      ...(params.pageRange !== undefined ? { pageRange: params.pageRange } : {}),
      sources: await readSources(params, documents, ctx),
      bookmarks: params.bookmarks ?? true,
      tableOfContents: params.tableOfContents ?? false,
    };
  },
  transfer: (input) => input.sources.map((s) => s.pdf),
});
