import { ServiceError } from '../../errors.js';
import type { TaskInput } from '../../engine/models.js';
import { documentPathFromBody, type StoredPath } from '../../storage/paths.js';
import type { WriteResult } from '../../storage/store.js';
import type { OperationContext } from '../context.js';
import type { DocumentOperations, StoredDocument } from '../documents.js';
import { throwIfStopped } from '../execution.js';
import { inBatches } from '../in-batches.js';
import { NOT_BLANK } from '../../validation.js';
import { VersionOperations } from '../versions.js';
import { DOCUMENT_PATH_PARAM, type ActionOutput, type ExecuteInput, type PrepareInput } from './types.js';

/**
 * Bates numbers across a set (docs/page-numbers.md, "A set of documents"): PageNumbersAction's `documents`, the
 * documents numbered after the one posted to, one sequence over all of them. All or nothing: every document is
 * checked (it exists, its password opens it for editing, its page range is inside it) before any is written; each is
 * then numbered and written in place in turn through DocumentOperations.transform (its lock, the version the check
 * read required, a new version); the document posted to is written last, by the runner; and when a write fails, the
 * documents already written are put back as they were (undo).
 */

/** Documents after the one posted to: 1,000 in all, as a merge. */
export const MAX_SET_DOCUMENTS = 999;

/** One document of the set as the request names it. */
export interface SetDocument {
  filePath: string;
  pageRange?: string | undefined;
  password?: string | undefined;
}

export const SET_DOCUMENTS_SCHEMA = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_SET_DOCUMENTS,
  description:
    `Bates numbers across a set: the documents numbered after this one, in order (1 to ${MAX_SET_DOCUMENTS}), continuing its sequence; ` +
    '{total} is the set\'s last number. Every document is checked before any is written, each is written in place (a new version), ' +
    'and a failed write puts back those already written. No savePath.',
  items: {
    type: 'object',
    properties: {
      filePath: DOCUMENT_PATH_PARAM,
      pageRange: { type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: 'Its pages numbered, 1-based (default: all); not empty' },
      password: { type: 'string', maxLength: 1024, description: 'Its password, when it is encrypted' },
    },
    required: ['filePath'],
    additionalProperties: false,
  },
} as const;

interface SetParams {
  documents?: SetDocument[] | undefined;
  savePath?: string | undefined;
  pageRange?: string | undefined;
  startNumber?: number | undefined;
}

/** What prepare answers for a set: each document's size (the job decision counts them). */
export interface SetPrepared {
  sizes: number[];
}

function setPaths(documents: SetDocument[]): StoredPath[] {
  return documents.map((d, i) => documentPathFromBody(d.filePath, `documents[${i}].filePath`));
}

/** The request's own 4xx for a set, before any document is read: paths, repeats, savePath, missing documents (404). */
export async function prepareSet(input: PrepareInput<SetParams>): Promise<SetPrepared> {
  const { params, documents, ctx, paths } = input;
  const set = params.documents ?? [];
  if (!paths) throw new ServiceError('INVALID_ACTION', 'PageNumbersAction in a one-shot conversion takes no documents: a set is of stored documents');
  if (params.savePath !== undefined) {
    throw new ServiceError('VALIDATION_FAILED', 'PageNumbersAction with documents numbers each document in place (each earlier content is kept as a version): savePath is not taken');
  }
  const all = [paths.source, ...setPaths(set)];
  const seen = new Map<string, number>();
  all.forEach((p, i) => {
    const before = seen.get(p.toString());
    if (before !== undefined) {
      throw new ServiceError('VALIDATION_FAILED', `documents: /${p.toString()} is named twice (${before === 0 ? 'it is the document posted to' : `documents[${before - 1}]`} and documents[${i - 1}]); a set numbers each document once`);
    }
    seen.set(p.toString(), i);
  });
  // A few at a time (in-batches.ts); the first missing one in the set's order is the 404.
  const stats = await inBatches(all.slice(1), (p) => documents.stat(p, ctx));
  return { sizes: stats.map((s) => s.size) };
}

/** How a written document is put back: the kept version it had, or (no versions kept, or its content unrecorded) its bytes. */
type RestorePoint = { version: string } | { bytes: Uint8Array };

async function restorePoint(documents: DocumentOperations, path: StoredPath, stored: StoredDocument, ctx: OperationContext): Promise<RestorePoint> {
  if (documents.keepsVersions(ctx)) {
    const { versions, current } = await documents.versionsFor(ctx).list(path, { offset: 0, limit: 1 });
    const newest = versions[0];
    if (newest && newest.id === current && newest.etag === stored.etag) return { version: newest.id };
  }
  return { bytes: await stored.bytes() };
}

/**
 * Puts a written document back as it was, as a restore does (a new version, under its lock), unless it was written
 * again meanwhile: If-Match is the version this set wrote, so another writer's change is never undone. A failure is
 * the caller's to swallow: the document then stays numbered, its earlier content a kept version.
 */
async function putBack(documents: DocumentOperations, written: WriteResult, point: RestorePoint, ctx: OperationContext): Promise<void> {
  const at = { ...ctx, ifMatch: written.stat.etag };
  if ('version' in point) {
    await new VersionOperations(documents).restore(written.path, point.version, at);
    return;
  }
  await documents.transform({
    source: written.path,
    target: written.path,
    conflict: 'overwrite',
    operation: 'restore',
    ctx: at,
    work: async () => ({ content: point.bytes, result: undefined }),
  });
}

/** What the set's answer says of each document. */
interface NumberedDocument {
  path: string;
  pages: number[];
  first: string;
  last: string;
  firstNumber: number;
  lastNumber: number;
  etag?: string;
}

type Report = { pages: number[]; first: string; last: string; lastNumber: number; fonts: string[] };

/**
 * The set's work, given the request for the engine (without startNumber, pageRange and total, which are each
 * document's): check every document, number the one posted to (in memory), number and write the others in turn, and
 * answer the first one's bytes with the set's report and the undo of the others.
 */
export async function executeSet(execute: ExecuteInput<SetParams, unknown>, request: Omit<TaskInput<'pageNumbers'>['request'], 'startNumber' | 'pageRange' | 'total'>): Promise<ActionOutput> {
  const { params, source, sourcePath, engine, exec, ctx, documents } = execute;
  const set = params.documents ?? [];
  const paths = setPaths(set);
  // 1. Every document checked before any is written: its password opens it for editing, its range is inside it.
  // Each one's ETag is kept: its write requires that version, so the page count the numbers were planned on holds.
  const first = await engine.run('pageNumbersPlan', { pdf: source.pdf, password: ctx.documentPassword, pageRange: params.pageRange });
  // A few documents at a time (in-batches.ts: their store reads overlap, their tasks wait under the user's task limit);
  // the refusal is the first failing document's in the set's order, as one at a time would give.
  const planned = await inBatches(paths, async (path, i) => {
    throwIfStopped(exec);
    const password = set[i]!.password;
    return documents.read(path, { ...ctx, documentPassword: password }, async (stored, eng) => ({
      pages: (await eng.run('pageNumbersPlan', { pdf: stored.pdf, password, pageRange: set[i]!.pageRange })).pages,
      etag: stored.etag,
    }), exec);
  });
  const start = params.startNumber ?? 1;
  const starts = [start];
  for (const p of [first, ...planned]) starts.push(starts[starts.length - 1]! + p.pages);
  const total = starts[starts.length - 1]! - 1;

  // 2. The document posted to, numbered first (a character no font has is refused here, before any write).
  const own = await engine.run('pageNumbers', { pdf: source.pdf, password: ctx.documentPassword, request: { ...request, startNumber: start, total, pageRange: params.pageRange } });
  if (!own.bytes) throw new Error('pageNumbers answered no bytes');
  const ownReport = own.report as Report;

  // 3. The others in turn, each in place; a failure puts back those written.
  const written: { result: WriteResult; point: RestorePoint }[] = [];
  const undo = async () => {
    for (const w of written.reverse()) await putBack(documents, w.result, w.point, ctx).catch(() => undefined);
  };
  const numbered: NumberedDocument[] = [];
  try {
    for (const [i, path] of paths.entries()) {
      throwIfStopped(exec);
      const password = set[i]!.password;
      let point: RestorePoint | undefined;
      const { written: w, result } = await documents.transform({
        source: path,
        target: path,
        conflict: 'overwrite',
        operation: 'PageNumbersAction',
        ctx: { ...ctx, documentPassword: password, ifMatch: planned[i]!.etag },
        exec,
        work: async (stored, eng) => {
          point = await restorePoint(documents, path, stored!, ctx);
          const out = await eng.run('pageNumbers', { pdf: stored!.pdf, password, request: { ...request, startNumber: starts[i + 1]!, total, pageRange: set[i]!.pageRange } });
          return { content: out.bytes, pageCount: out.summary?.pageCount, result: out.report as Report };
        },
      });
      if (!w) throw new Error('pageNumbers answered no bytes');
      written.push({ result: w, point: point! });
      numbered.push({ path: `/${path.toString()}`, pages: result.pages, first: result.first, last: result.last, firstNumber: starts[i + 1]!, lastNumber: result.lastNumber, etag: w.stat.etag });
      for (const f of result.fonts) if (!ownReport.fonts.includes(f)) ownReport.fonts.push(f);
      exec.progress?.({ done: i + 1, total: paths.length, unit: 'documents', stage: 'write' });
    }
  } catch (err) {
    await undo();
    throw err;
  }
  const documentsReport: NumberedDocument[] = [
    { path: `/${sourcePath!.toString()}`, pages: ownReport.pages, first: ownReport.first, last: ownReport.last, firstNumber: start, lastNumber: ownReport.lastNumber },
    ...numbered,
  ];
  const report = { ...ownReport, last: documentsReport[documentsReport.length - 1]!.last, lastNumber: total, documents: documentsReport };
  return { kind: 'document', bytes: own.bytes, report, ...(own.summary ? { summary: own.summary } : {}), undo };
}
