import { createHash } from 'node:crypto';
import type { EnginePool } from '../engine/pool.js';
import { MAX_COMPARE_PAGES, type CompareOptions, type ComparePage, type CompareReport, type CompareSide, type PageContent, type PageMatch, type PairDiff } from '../engine/models.js';
import type { StoredPath } from '../storage/paths.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations, StoredDocument } from './documents.js';
import type { Engine, ExecutionContext } from './execution.js';
import { ServiceError } from '../errors.js';
import { ReadModelCache } from './read-model-cache.js';

/** A version's page digests, cached (bytes, as weighed below): one 28-character digest and its array slot a page. */
const DIGEST_CACHE_BYTES = 16 * 1024 * 1024;
const DIGEST_BYTES = 2 * 28 + 40;

/** The words and thumbnails of pages, cached (bytes, as weighed below: a thumbnail's 256 numbers, a word's text and box). */
const CONTENT_CACHE_BYTES = 32 * 1024 * 1024;
const contentBytes = (c: PageContent) => 256 + c.thumbnail.length * 8 + c.words.reduce((n, w) => n + 2 * w.text.length + 120, 0);

/** comparePageDigests' answer for one version. */
interface VersionDigests {
  pageCount: number;
  digests: string[];
}

/** What the document in the URL is compared with (docs/compare.md): another stored document, a kept version, or both. */
export interface CompareWith {
  path: StoredPath;
  versionId?: string | undefined;
  password?: string | undefined;
}

/** A compare whose every 4xx has been decided (CompareOperations.prepare), to run inline or as a job (docs/jobs.md). */
export interface PreparedCompare {
  readonly path: StoredPath;
  readonly ctx: OperationContext;
  readonly other: CompareWith;
  readonly options: CompareOptions;
  /** The answer is the highlight PDF (else the report). */
  readonly highlight: boolean;
  /** The larger document's size in bytes: either larger than PDFSERVICE_JOB_ASYNC_BYTES makes it long by nature. */
  readonly bytes: number;
}

/**
 * Compare (issue 40, docs/compare.md): the document (the URL's, `ctx.versionId` or the current version) against a
 * base (`with`), as a report and as the document with its changes highlighted. A read: neither is changed. The work
 * is the engine's (engine/compare), in phases whose tasks run on both workers: page digests of both documents, the
 * content of the pages left without a twin, matching, then the changed pairs in shares.
 */
export class CompareOperations {
  /**
   * Page digests by version (ETag), password and need, so a version compared again (the same base against each new
   * draft) is not hashed again. Looked up only with the ETag of a version just read as the requesting user
   * (documents.read), as every read model (ReadModelCache): a version a redaction purged can no longer be read, so
   * its entry is never answered and ages out; and a digest is a hash of page objects, not their text. The need is in
   * the key because the engine's access check comes with the hashing: a version hashed for `view` still gets its
   * refusal when `text: true` asks for `copy`.
   */
  private readonly digests = new ReadModelCache<VersionDigests>(DIGEST_CACHE_BYTES, (d) => 256 + d.digests.length * DIGEST_BYTES);

  /**
   * The words and thumbnail of a page without a twin (comparePageContent's), by version, password, permission asked
   * and page, looked up as the digests. Words are a page's text: a write that purges earlier versions (a redaction,
   * a sanitize) drops them all, so none of a purged version stays in memory (purges are rare; the next compares
   * extract again).
   */
  private readonly contents = new ReadModelCache<PageContent>(CONTENT_CACHE_BYTES, contentBytes);
  /** Purges so far: content extracted before one (a compare under way meanwhile) is not kept after it. */
  private purges = 0;

  constructor(
    private readonly documents: DocumentOperations,
    /** The pool's size only: the changed pairs are shared among its workers. */
    private readonly pool: Pick<EnginePool, 'size'>,
  ) {
    documents.onWritten((written) => {
      if (written.purgedVersions === undefined) return;
      this.purges++;
      this.contents.clear();
    });
  }

  /** The contexts the two documents are read with: the base with its own version and password (else the request's). */
  private baseContext(ctx: OperationContext, other: CompareWith): OperationContext {
    const { versionId: _versionId, ...rest } = ctx;
    return { ...rest, documentPassword: other.password ?? ctx.documentPassword, ...(other.versionId !== undefined ? { versionId: other.versionId } : {}) };
  }

  /**
   * The answer's ETag before any work: both versions' (each read model as the requesting user: unknown paths and
   * versions are 404 here), the options and the answer's form. A weak tag: the PDF answer is made anew each time.
   */
  async etag(path: StoredPath, ctx: OperationContext, other: CompareWith, options: CompareOptions, form: string): Promise<string> {
    const baseCtx = this.baseContext(ctx, other);
    // The access check of each (reads.model: the password, cached by version), so a 304 is no answer to a wrong one.
    const [doc, base] = await Promise.all([this.documents.reads.model(path, ctx), this.documents.reads.model(other.path, baseCtx)]);
    return answerTag(doc.etag, base.etag, options, form);
  }

  /** The larger document's size in bytes (stats only; 404 for a document or version that is not there): the size rule of long work. */
  async size(path: StoredPath, ctx: OperationContext, other: CompareWith): Promise<number> {
    const baseCtx = this.baseContext(ctx, other);
    const [doc, base] = await Promise.all([this.documents.stat(path, ctx), this.documents.stat(other.path, baseCtx)]);
    return Math.max(doc.size, base.size);
  }

  /**
   * Every 4xx that can be decided before the work, so a job is refused at submission as the inline request would be
   * (docs/jobs.md): both documents and versions exist (404), their passwords open them (403, each read model as the
   * requesting user, cached by version), they allow copying text when `text` asks for it (403), and neither has more
   * pages than compare takes (400).
   */
  async prepare(path: StoredPath, ctx: OperationContext, other: CompareWith, options: CompareOptions, highlight: boolean): Promise<PreparedCompare> {
    const baseCtx = this.baseContext(ctx, other);
    const { reads } = this.documents;
    const [doc, base] = await Promise.all([reads.model(path, ctx), reads.model(other.path, baseCtx)]);
    for (const m of [doc, base]) {
      if ((m.pageCount ?? 0) > MAX_COMPARE_PAGES) throw new ServiceError('COMPARE_TOO_LARGE', `The document has ${m.pageCount} pages; compare takes documents of at most ${MAX_COMPARE_PAGES}`);
    }
    if (options.text) await Promise.all([reads.checkAccess(path, ctx, 'copy', undefined, doc.etag), reads.checkAccess(other.path, baseCtx, 'copy', undefined, base.etag)]);
    return { path, ctx, other, options, highlight, bytes: Math.max(doc.size, base.size) };
  }

  /**
   * The report, and (`highlight`) the document with its changes shown; `tag`: the answer's ETag for the versions read.
   * `exec`: a job's (its signal stops the engine tasks, its task time limit applies), else the request's.
   */
  async compare(path: StoredPath, ctx: OperationContext, other: CompareWith, options: CompareOptions, highlight: boolean, exec?: ExecutionContext): Promise<{ report: CompareReport; pdf?: Uint8Array; tag: string }> {
    const baseCtx = this.baseContext(ctx, other);
    return this.documents.read(path, ctx, (doc, engine) =>
      this.documents.read(other.path, baseCtx, async (base) => {
        const sides = {
          document: side(path, doc, ctx.versionId),
          base: side(other.path, base, other.versionId),
        };
        const report = await this.run(engine, { pdf: doc.pdf, password: ctx.documentPassword, etag: doc.etag }, { pdf: base.pdf, password: baseCtx.documentPassword, etag: base.etag }, sides, options);
        const tag = answerTag(doc.etag, base.etag, options, highlight ? 'pdf' : 'model');
        if (!highlight) return { report, tag };
        const { bytes } = await engine.run('compareHighlights', { pdf: doc.pdf, password: ctx.documentPassword, pages: highlightPages(report), summary: summaryLines(report) });
        return { report, pdf: bytes, tag };
      }, exec),
    exec);
  }

  private async run(
    engine: Engine,
    docRead: { pdf: StoredDocument['pdf']; password: string | undefined; etag: string },
    baseRead: { pdf: StoredDocument['pdf']; password: string | undefined; etag: string },
    sides: { document: Omit<CompareSide, 'pageCount'>; base: Omit<CompareSide, 'pageCount'> },
    options: CompareOptions,
  ): Promise<CompareReport> {
    // One request's work: one group, counted once against the user's task limit (pool.ts). Nothing is transferred:
    // each task gets its own copy of bytes (an open file is shared as it is), since several tasks read each document.
    const group = {};
    const need = options.text ? 'copy' : 'view';
    const { etag: docEtag, ...doc } = docRead;
    const { etag: baseEtag, ...base } = baseRead;
    const versionDigests = async (input: typeof doc, etag: string): Promise<VersionDigests> => {
      const cached = this.digests.get(etag, input.password, need);
      if (cached) return cached;
      const computed = await engine.run('comparePageDigests', { ...input, need }, { group });
      this.digests.set(etag, input.password, computed, need);
      return computed;
    };
    const [baseDigests, digests] = await Promise.all([versionDigests(base, baseEtag), versionDigests(doc, docEtag)]);
    // Pages of equal digests paired first (in a worker too: the service's thread does no per-page work); what is left
    // is matched by content.
    let match: PageMatch = await engine.run('matchComparePages', { baseDigests: baseDigests.digests, digests: digests.digests, baseContent: [], content: [] }, { group });
    let content = new Map<string, PageContent>();
    if (match.deletedPages.length > 0 && match.insertedPages.length > 0) {
      const pageContent = async (input: typeof doc, etag: string, pages: number[]): Promise<PageContent[]> => {
        const cached = new Map(pages.flatMap((i) => {
          const hit = this.contents.get(etag, input.password, `${need}:${i}`);
          return hit ? [[i, hit] as const] : [];
        }));
        const missing = pages.filter((i) => !cached.has(i));
        if (missing.length > 0) {
          const purges = this.purges;
          for (const c of await engine.run('comparePageContent', { ...input, need, pages: missing }, { group })) {
            if (this.purges === purges) this.contents.set(etag, input.password, c, `${need}:${c.pageIndex}`);
            cached.set(c.pageIndex, c);
          }
        }
        return pages.map((i) => cached.get(i)!);
      };
      const [baseContent, docContent] = await Promise.all([pageContent(base, baseEtag, match.deletedPages), pageContent(doc, docEtag, match.insertedPages)]);
      match = await engine.run('matchComparePages', { baseDigests: baseDigests.digests, digests: digests.digests, baseContent, content: docContent }, { group });
      content = new Map([...baseContent.map((c) => [`b${c.pageIndex}`, c] as const), ...docContent.map((c) => [`d${c.pageIndex}`, c] as const)]);
    }
    // Pairs of equal digests draw the same: only pairs made by content are diffed, in shares across the workers.
    const changed = match.pairs
      .filter((p) => p.similarity < 1 || content.has(`d${p.pageIndex}`))
      .map((p) => ({ basePageIndex: p.basePageIndex, pageIndex: p.pageIndex, baseWords: content.get(`b${p.basePageIndex}`)?.words ?? [], words: content.get(`d${p.pageIndex}`)?.words ?? [] }));
    const parts = Math.max(1, Math.min(this.pool.size, changed.length));
    const shares = Array.from({ length: parts }, (_, k) => changed.slice(Math.floor((k * changed.length) / parts), Math.floor(((k + 1) * changed.length) / parts)));
    const diffs = (await Promise.all(shares.filter((s) => s.length).map((pairs) => engine.run('comparePagePairs', { base, document: doc, need, pairs, options }, { group })))).flat();
    return buildReport(match, diffs, sides, { document: digests.pageCount, base: baseDigests.pageCount }, options);
  }
}

function side(path: StoredPath, stored: StoredDocument, versionId: string | undefined): Omit<CompareSide, 'pageCount'> {
  return { path: path.toString(), etag: stored.etag, ...(versionId !== undefined ? { versionId } : {}) };
}

function answerTag(docEtag: string, baseEtag: string, options: CompareOptions, form: string): string {
  const hash = createHash('sha256').update(JSON.stringify([docEtag, baseEtag, options, form])).digest('base64url').slice(0, 27);
  return `W/"compare-${hash}"`;
}

function buildReport(match: PageMatch, diffs: PairDiff[], sides: { document: Omit<CompareSide, 'pageCount'>; base: Omit<CompareSide, 'pageCount'> }, counts: { document: number; base: number }, options: CompareOptions): CompareReport {
  const byPage = new Map(diffs.map((d) => [d.pageIndex, d]));
  const moved = new Set(match.moved.map((i) => match.pairs[i]!.pageIndex));
  const pages: ComparePage[] = [];
  const inserted = new Set(match.insertedPages);
  const pairOf = new Map(match.pairs.map((p) => [p.pageIndex, p]));
  for (let j = 0; j < counts.document; j++) {
    if (inserted.has(j)) {
      pages.push({ status: 'inserted', pageIndex: j, moved: false, insertedWords: [], deletedWords: [], visualChanges: [] });
      continue;
    }
    const pair = pairOf.get(j)!;
    const diff = byPage.get(j);
    const changed = diff !== undefined && (diff.insertedWords.length + diff.deletedWords.length + diff.visualChanges.length > 0);
    pages.push({
      status: changed ? 'changed' : 'unchanged',
      pageIndex: j,
      basePageIndex: pair.basePageIndex,
      moved: moved.has(j),
      similarity: pair.similarity,
      insertedWords: diff?.insertedWords ?? [],
      deletedWords: diff?.deletedWords ?? [],
      visualChanges: diff?.visualChanges ?? [],
    });
  }
  for (const i of match.deletedPages) pages.push({ status: 'deleted', basePageIndex: i, moved: false, insertedWords: [], deletedWords: [], visualChanges: [] });
  const count = (status: ComparePage['status']) => pages.filter((p) => p.status === status).length;
  const summary = {
    unchangedPages: count('unchanged'),
    changedPages: count('changed'),
    movedPages: moved.size,
    insertedPages: match.insertedPages.length,
    deletedPages: match.deletedPages.length,
    insertedWords: pages.reduce((n, p) => n + p.insertedWords.length, 0),
    deletedWords: pages.reduce((n, p) => n + p.deletedWords.length, 0),
    visualChanges: pages.reduce((n, p) => n + p.visualChanges.length, 0),
  };
  const identical = summary.changedPages + summary.movedPages + summary.insertedPages + summary.deletedPages === 0;
  return { document: { ...sides.document, pageCount: counts.document }, base: { ...sides.base, pageCount: counts.base }, identical, options, summary, pages };
}

function highlightPages(report: CompareReport) {
  return report.pages
    .filter((p) => p.pageIndex !== undefined && (p.insertedWords.length > 0 || p.visualChanges.length > 0))
    .map((p) => ({ pageIndex: p.pageIndex!, insertedWords: p.insertedWords, visualChanges: p.visualChanges }));
}

/** Words listed in the summary for one page, at most: the report has them all. */
const SUMMARY_WORDS = 200;

/** The summary pages' lines (compareHighlights): page numbers from 1, as a reader counts them, of the document without these pages. */
function summaryLines(report: CompareReport): string[] {
  const { summary: s, document, base } = report;
  const name = (x: CompareSide) => `${x.path}${x.versionId !== undefined ? ` (version ${x.versionId})` : ''}`;
  const words = (list: { text: string }[]) => list.slice(0, SUMMARY_WORDS).map((w) => w.text).join(' ') + (list.length > SUMMARY_WORDS ? ` ... (${list.length - SUMMARY_WORDS} more)` : '');
  const lines = [
    'Comparison summary',
    `Document: ${name(document)}, ${document.pageCount} pages`,
    `Compared with: ${name(base)}, ${base.pageCount} pages`,
    report.identical
      ? 'No differences.'
      : `Pages changed: ${s.changedPages}, moved: ${s.movedPages}, inserted: ${s.insertedPages}, deleted: ${s.deletedPages}. Words inserted: ${s.insertedWords}, deleted: ${s.deletedWords}. Changed regions: ${s.visualChanges}.`,
    'Page numbers are those of the document without these summary pages. Inserted words are highlighted in green, changed regions framed in red.',
    '',
  ];
  for (const p of report.pages) {
    if (p.status === 'inserted') lines.push(`Page ${p.pageIndex! + 1}: inserted page`);
    if (p.status === 'deleted') lines.push(`Page ${p.basePageIndex! + 1} of the base: deleted page`);
    if (p.moved) lines.push(`Page ${p.pageIndex! + 1}: moved (was page ${p.basePageIndex! + 1})`);
    if (p.deletedWords.length) lines.push(`Page ${p.pageIndex! + 1}: deleted words: ${words(p.deletedWords)}`);
    if (p.insertedWords.length) lines.push(`Page ${p.pageIndex! + 1}: inserted words: ${words(p.insertedWords)}`);
    if (p.status === 'changed' && p.visualChanges.length) lines.push(`Page ${p.pageIndex! + 1}: ${p.visualChanges.length} changed region${p.visualChanges.length === 1 ? '' : 's'}`);
  }
  return lines;
}
