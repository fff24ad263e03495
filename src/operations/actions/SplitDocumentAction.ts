import { availableParallelism } from 'node:os';
import { BLANK_DEFAULTS, MAX_SPLIT_PARTS, type SplitBy, type SplitPartResult, type SplitResult, type TaskProgress } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import { documentPathFromBody, folderPathFromBody, type StoredPath } from '../../storage/paths.js';
import { conflictModeFor, type WriteResult } from '../../storage/store.js';
import { throwIfStopped, type Engine, type ExecutionContext } from '../execution.js';
import type { DocumentContent } from '../documents.js';
import { SPLIT_MAX_BYTES } from '../pages.js';
import { NOT_BLANK } from '../../validation.js';
import type { ActionDefinition, OutputParams } from './types.js';

/**
 * SplitDocumentAction (POST .../pages, docs/merge-split.md "Split"): the document cut into several new documents
 * written into a folder under a naming pattern, each made by ExtractPagesAction's extraction (engine/split), in a share
 * of the parts for each engine worker (makeParts). The source is not changed. Every name is decided, and checked against namingMode, before any part
 * is written: a split refused for a name writes nothing.
 */

const MODES = ['ranges', 'everyPages', 'maxBytes', 'bookmarks', 'blankPages'] as const;

/** Parts written at once (execute): each write waits mostly on fsyncs, run on libuv's four threads. */
const WRITES_AT_ONCE = 4;

export const DEFAULT_SPLIT_PATTERN = '{name}-{n}.pdf';

export interface SplitParams extends OutputParams {
  folder: string;
  pattern?: string;
  ranges?: string[];
  everyPages?: number;
  maxBytes?: number;
  bookmarks?: boolean;
  blankPages?: boolean;
  inkThreshold?: number;
}

const schema = {
  type: 'object',
  properties: {
    folder: { type: 'string', minLength: 1, maxLength: 1024, description: 'Folder the parts are written into ("reports/2026/parts"); created when missing.' },
    pattern: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      default: DEFAULT_SPLIT_PATTERN,
      description: 'Name of each part, ending in ".pdf": {name} the source\'s name without ".pdf", {n} the part\'s number from 1 ({n:3}: zero-padded to 3 digits), {first} and {last} its first and last page (1-based), {title} the bookmark it starts at (bookmarks; made safe as a name).',
    },
    namingMode: {
      type: 'integer',
      enum: [0, 1, 2],
      default: 0,
      description: 'When a part\'s name exists: 0 the split is refused with 409 and nothing is written (default), 1 overwrite, 2 append a random number to the name.',
    },
    ranges: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_SPLIT_PARTS,
      items: { type: 'string', maxLength: 10000, pattern: NOT_BLANK },
      description: 'One part per page range, in this order (1-based, as in a print dialog: "1-3,7,10-"); ranges may overlap.',
    },
    everyPages: { type: 'integer', minimum: 1, description: 'Parts of this many pages (the last one may be shorter).' },
    maxBytes: { type: 'integer', minimum: 1024, description: 'Parts of consecutive pages of at most this many bytes each; a page larger alone is a part of its own (marked oversized).' },
    bookmarks: { type: 'boolean', enum: [true], description: 'A part starts at each top-level bookmark\'s page (pages before the first one are a part of their own).' },
    blankPages: { type: 'boolean', enum: [true], description: 'Blank pages separate the parts and are left out of them.' },
    inkThreshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: `With blankPages: a page whose share of pixels that are not white is below this is blank (default ${BLANK_DEFAULTS.threshold}), measured as RemoveBlankPagesAction measures it.`,
    },
  },
  required: ['folder'],
  additionalProperties: false,
} as const;

/** A part as the answer lists it. */
export interface SplitDocumentModel {
  path: string;
  name: string;
  /** Its pages in the source, 1-based, as a page range ("4-6"). */
  pages: string;
  pageCount: number;
  size: number;
  etag: string;
  created: boolean;
  title?: string;
  oversized?: boolean;
}

export interface SplitModel {
  source: string;
  /** Pages of the source. */
  pageCount: number;
  documents: SplitDocumentModel[];
  /** blankPages: the source's pages found blank (1-based), in no part. */
  blankPages?: number[];
}

export const splitModelSchema = {
  title: 'SplitModel',
  type: 'object',
  description: 'What SplitDocumentAction wrote (XML: <Split>): every document, in part order.',
  properties: {
    source: { type: 'string', description: 'The document split, unchanged' },
    pageCount: { type: 'integer', description: 'Pages of the source' },
    documents: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          name: { type: 'string' },
          pages: { type: 'string', description: 'Its pages in the source, 1-based, as a page range ("4-6")' },
          pageCount: { type: 'integer' },
          size: { type: 'integer', description: 'Bytes' },
          etag: { type: 'string' },
          created: { type: 'boolean', description: 'false: an existing document was overwritten (namingMode 1)' },
          title: { type: 'string', description: 'The top-level bookmark the part starts at (bookmarks)' },
          oversized: { type: 'boolean', description: 'maxBytes: one page larger than maxBytes by itself' },
        },
        required: ['path', 'name', 'pages', 'pageCount', 'size', 'etag', 'created'],
      },
    },
    blankPages: { type: 'array', items: { type: 'integer' }, description: 'blankPages: the pages found blank (1-based), left out' },
  },
  required: ['source', 'pageCount', 'documents'],
} as const;

/** The one mode the parameters name, as the engine takes it; 400 VALIDATION_FAILED for none or several. */
function splitBy(params: SplitParams): SplitBy {
  const given = MODES.filter((m) => params[m] !== undefined);
  if (given.length !== 1) {
    throw new ServiceError('VALIDATION_FAILED', `Give exactly one of ${MODES.join(', ')} to say how the document is split${given.length ? `, not ${given.join(' and ')}` : ''}`);
  }
  if (params.inkThreshold !== undefined && params.blankPages === undefined) throw new ServiceError('VALIDATION_FAILED', 'inkThreshold goes with blankPages');
  if (params.ranges) return { kind: 'ranges', ranges: params.ranges };
  if (params.everyPages !== undefined) return { kind: 'every', pages: params.everyPages };
  if (params.maxBytes !== undefined) return { kind: 'size', maxBytes: params.maxBytes };
  if (params.bookmarks) return { kind: 'bookmarks' };
  return { kind: 'blank', inkThreshold: params.inkThreshold ?? BLANK_DEFAULTS.threshold };
}

const PLACEHOLDER = /\{(name|n|first|last|title)(?::(\d{1,2}))?\}/g;

/** 400 for a pattern that is not a name ending in ".pdf" or holds an unknown placeholder. */
function checkPattern(pattern: string): void {
  const rest = pattern.replace(PLACEHOLDER, '');
  if (/[{}]/.test(rest)) throw new ServiceError('VALIDATION_FAILED', `pattern ${JSON.stringify(pattern)}: the placeholders are {name}, {n}, {n:3} (zero-padded), {first}, {last} and {title}`);
  if (pattern.includes('/')) throw new ServiceError('INVALID_PATH', 'pattern: a part\'s name may not contain "/" (folder says where the parts go)');
  if (!/\.pdf$/i.test(pattern)) throw new ServiceError('INVALID_PATH', 'pattern: a part\'s name must end in ".pdf"');
}

/** A bookmark's title as a name: characters a path may not hold become "_", whitespace one space, at most 100 characters. */
export function titleAsName(title: string): string {
  const cleaned = title
    .replace(/[\u0000-\u001f\u007f\\/:*?"<>|%]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[ .]+$/, '');
  // Whole characters (not UTF-16 units): a surrogate pair is never cut in two.
  const short = [...cleaned].slice(0, 100).join('').replace(/[ .]+$/, '');
  return short || 'untitled';
}

/** The name of part `n` (1-based) by `pattern`. */
function partName(pattern: string, source: StoredPath, n: number, part: SplitPartResult): string {
  const base = source.name.replace(/\.pdf$/i, '');
  return pattern.replace(PLACEHOLDER, (_, key: string, width?: string) => {
    const pad = (v: number) => String(v).padStart(width ? Number(width) : 0, '0');
    switch (key) {
      case 'name':
        return base;
      case 'n':
        return pad(n);
      case 'first':
        return pad(part.pages[0]! + 1);
      case 'last':
        return pad(part.pages[part.pages.length - 1]! + 1);
      default:
        return part.title !== undefined ? titleAsName(part.title) : `part-${pad(n)}`;
    }
  });
}

/** A part's pages as a 1-based page range: runs joined ("1-3,7"). */
function asRange(pages: number[]): string {
  const items: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    items.push(j === i ? `${pages[i]! + 1}` : `${pages[i]! + 1}-${pages[j]! + 1}`);
    i = j + 1;
  }
  return items.join(',');
}

/**
 * The parts, made by the engine: in one share per worker (one a core, the workers' default number, as the blank-page
 * measure and the text extraction share theirs), each a task that reads the source itself and makes a consecutive run
 * of the parts (engine/split SplitShare), so 1,000 single pages take about half the time with two workers. A size or
 * blank split is one task, and so is a document held as bytes past SPLIT_MAX_BYTES (every share would get a copy).
 */
async function makeParts(engine: Engine, exec: ExecutionContext, source: DocumentContent, password: string | undefined, by: SplitBy): Promise<SplitResult> {
  const { pdf } = source;
  const shares = by.kind === 'size' || by.kind === 'blank' || (pdf instanceof Uint8Array && pdf.length > SPLIT_MAX_BYTES) ? 1 : Math.max(1, availableParallelism());
  if (shares === 1) return engine.run('splitDocument', { pdf, password, by });
  // One request's work: one group, counted once against the user's task limit (pool.ts). Progress: the parts made by all.
  const group = {};
  const made: TaskProgress[] = [];
  const report = exec.progress;
  const results = await Promise.all(
    Array.from({ length: shares }, (_, index) =>
      engine.run('splitDocument', { pdf, password, by, share: { index, count: shares } }, {
        group,
        onProgress: report
          ? (p) => {
              made[index] = p;
              report({ ...p, done: made.reduce((sum, m) => sum + (m?.done ?? 0), 0), total: made.reduce((sum, m) => sum + (m?.total ?? 0), 0) });
            }
          : undefined,
      }),
    ),
  );
  return { pageCount: results[0]!.pageCount, partCount: results[0]!.partCount, parts: results.flatMap((r) => r.parts) };
}

export const SplitDocumentAction: ActionDefinition<SplitParams, { folder: string }> = {
  name: 'SplitDocumentAction',
  target: 'pages',
  need: 'assemble',
  summary:
    'Splits the document into several new documents in `folder`, named by `pattern`: by page ranges, every N pages, a maximum size, top-level bookmarks or blank separator pages (exactly one). The source is not changed; the answer lists every document written.',
  schema,
  outputParams: ['folder', 'pattern', 'namingMode'],
  modelSchema: splitModelSchema,
  async prepare({ params }) {
    splitBy(params);
    checkPattern(params.pattern ?? DEFAULT_SPLIT_PATTERN);
    return { folder: folderPathFromBody(params.folder, 'folder').toString() };
  },
  async execute({ params, prepared, source, sourcePath: path, engine, exec, ctx, documents }) {
    const by = splitBy(params);
    const pattern = params.pattern ?? DEFAULT_SPLIT_PATTERN;
    const folder = folderPathFromBody(prepared.folder, 'folder');
    if (!path) throw new ServiceError('INVALID_ACTION', 'SplitDocumentAction splits a stored document');
    const sourcePath = path;
    const result = await makeParts(engine, exec, source, ctx.documentPassword, by);
    const conflict = conflictModeFor(params.namingMode);

    // Every name first: a pattern that gives two parts one name, or names the source, is refused before anything is written.
    const targets = result.parts.map((part, i) => documentPathFromBody(`${folder.toString()}/${partName(pattern, sourcePath, i + 1, part)}`, 'pattern'));
    const seen = new Map<string, number>();
    targets.forEach((target, i) => {
      const before = seen.get(target.toString());
      if (before !== undefined) throw new ServiceError('VALIDATION_FAILED', `pattern ${JSON.stringify(pattern)} names parts ${before + 1} and ${i + 1} both ${target.name}: use {n}`);
      seen.set(target.toString(), i);
    });
    const over = targets.findIndex((t) => t.equals(sourcePath));
    if (over >= 0) throw new ServiceError('VALIDATION_FAILED', `pattern ${JSON.stringify(pattern)} names part ${over + 1} as the document being split`);
    if (conflict === 'fail') {
      const taken = (await Promise.all(targets.map(async (t) => ((await documents.exists(t, ctx)) ? t : undefined)))).filter((t) => t !== undefined);
      if (taken.length) {
        const listed = taken.slice(0, 10).map((t) => `/${t.toString()}`).join(', ');
        throw new ServiceError('ALREADY_EXISTS', `${taken.length} of the ${targets.length} documents the split would write exist (${listed}${taken.length > 10 ? ', ...' : ''}): nothing was written; choose another folder or pattern, or namingMode 1 (overwrite) or 2 (keep both)`);
      }
    }

    // The parts are new documents: the request's If-Match is about the source, never their targets.
    const writeCtx = { ...ctx, ifMatch: undefined };
    const written: (WriteResult | undefined)[] = [];
    let failure: { err: unknown } | undefined;
    let next = 0;
    let done = 0;
    const write = async (i: number) => {
      throwIfStopped(exec);
      const part = result.parts[i]!;
      const { written: w } = await documents.transform({
        target: targets[i]!,
        conflict,
        ctx: writeCtx,
        exec,
        operation: 'SplitDocumentAction',
        work: async () => ({ content: part.bytes, pageCount: part.pages.length, result: undefined }),
      });
      written[i] = w!;
      exec.progress?.({ done: ++done, total: result.parts.length, unit: 'documents', stage: 'write' });
    };
    // Each part is its own write (lock, atomic write, ETag, version) and waits mostly on the disk (fsync of the file and
    // its folder): a few at once (WRITES_AT_ONCE) overlap those waits. The first goes alone, as it makes the folder.
    const writer = async () => {
      while (!failure && next < result.parts.length) {
        const i = next++;
        await write(i).catch((err: unknown) => {
          failure ??= { err };
        });
      }
    };
    if (result.parts.length) {
      next = 1;
      await write(0).catch((err: unknown) => {
        failure = { err };
      });
    }
    await Promise.all(Array.from({ length: WRITES_AT_ONCE }, writer));
    if (failure) {
      // A name taken between the check and its write (or a stop): the parts this split created go again, once every
      // write begun has ended.
      await Promise.all(written.filter((w): w is WriteResult => w?.created === true).map((w) => documents.remove(w.path, writeCtx).catch(() => undefined)));
      throw failure.err;
    }

    const model: SplitModel = {
      source: `/${sourcePath.toString()}`,
      pageCount: result.pageCount,
      documents: result.parts.map((part, i) => ({
        path: `/${written[i]!.path.toString()}`,
        name: written[i]!.path.name,
        pages: asRange(part.pages),
        pageCount: part.pages.length,
        size: written[i]!.stat.size,
        etag: written[i]!.stat.etag,
        created: written[i]!.created,
        ...(part.title !== undefined ? { title: part.title } : {}),
        ...(part.oversized ? { oversized: true } : {}),
      })),
      ...(result.blankPages ? { blankPages: result.blankPages.map((p) => p + 1) } : {}),
    };
    return { kind: 'model', model, xmlRoot: 'Split' };
  },
};
