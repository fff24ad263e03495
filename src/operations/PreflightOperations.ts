import { PDFX_PROFILES, type PdfxProfile } from '../engine/models.js';
import type { EnginePool } from '../engine/pool.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import { PDFA_PROFILES, validatePdfa, type ValidationReport } from '../tools/verapdf.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations, StoredDocument } from './documents.js';
import { requestExecution } from './execution.js';
import { ReadModelCache, readModelKey } from './read-model-cache.js';

/** A report of any profile: veraPDF's (PDF/A) and the engine's PDF/X rules (engine/preflight/model.ts PdfxReport) have this one shape. */
export type PreflightReport = ValidationReport;

/** The PreflightResult model: the report, and which document version it is about. */
export type PreflightResult = PreflightReport & { document: string; etag: string };

/** What a checker gets: one open version of the document, its password as the engine opened it with (programPassword), and what it may use. */
export interface PreflightInput {
  stored: StoredDocument;
  password: string | undefined;
  signal: AbortSignal | undefined;
  pool: EnginePool;
  tools: ToolSupervisor;
}

/** One profile's checker: which family it belongs to (docs, messages) and how it checks. */
export interface PreflightChecker {
  family: 'PDF/A' | 'PDF/X';
  check(input: PreflightInput): Promise<PreflightReport>;
}

/** PDF/A flavours go to the warm veraPDF JVM with the bytes of the version (and the password: it reads encrypted files too). */
function veraPdf(profile: (typeof PDFA_PROFILES)[number]): PreflightChecker {
  return {
    family: 'PDF/A',
    // A large document reaches the helper copied from its open file, never read into memory whole (see DocumentOperations.read).
    check: ({ stored, password, signal, tools }) => validatePdfa(tools, { pdf: stored.pdf, profile, password, signal }),
  };
}

/** PDF/X profiles go to the engine's own rules (engine/preflight/pdfx.ts; the pool takes the request's signal by itself). */
function pdfxRules(profile: PdfxProfile): PreflightChecker {
  return {
    family: 'PDF/X',
    check: ({ stored, password, pool }) => pool.run('preflightPdfx', { pdf: stored.pdf, password, profile }),
  };
}

/**
 * Every profile preflight-results knows, by its query value: one entry per
 * profile. Order is the order of the 400's list and of the OpenAPI text.
 */
export const PREFLIGHT_PROFILES: ReadonlyMap<string, PreflightChecker> = new Map<string, PreflightChecker>([
  ...PDFA_PROFILES.map((profile) => [profile, veraPdf(profile)] as const),
  ...PDFX_PROFILES.map((profile) => [profile, pdfxRules(profile)] as const),
]);

/** Results kept: a report is a few KB (at most 10 locations per rule); 1,000 versions × profiles is a few MB. */
const CACHED_RESULTS = 1000;

/**
 * Preflight (docs/pdfa.md, "Preflight"): a document version checked against
 * a profile of the registry above. Reading needs the password like every read
 * (403 otherwise, before any validation); the result is cached per version
 * (ETag), password and profile, so asking again costs no validator run.
 */
export class PreflightOperations {
  /** Looked up by check() after its stat as the requesting user (ReadModelCache says why that suffices). */
  private readonly results = new ReadModelCache<PreflightReport>(CACHED_RESULTS);
  /** Checks running now, by version, password and profile; joined only after the joiner's own stat, as the cache. */
  private readonly inflight = new Map<string, Promise<{ etag: string; report: PreflightReport }>>();

  constructor(
    private readonly pool: EnginePool,
    private readonly tools: ToolSupervisor,
    private readonly documents: DocumentOperations,
  ) {}

  /** The profiles preflight-results accepts, in registry order. */
  static profiles(): string[] {
    return [...PREFLIGHT_PROFILES.keys()];
  }

  async check(path: StoredPath, ctx: OperationContext, profile: string): Promise<PreflightResult> {
    const checker = PREFLIGHT_PROFILES.get(profile);
    if (!checker) throw new ServiceError('BAD_REQUEST', `Unknown profile "${profile}"; the profiles are ${PreflightOperations.profiles().join(', ')}`);
    const document = `/${path.toString()}`;
    const stat = await this.documents.stat(path, ctx);
    const cached = this.results.get(stat.etag, ctx.documentPassword, profile);
    if (cached) return { document, etag: stat.etag, ...cached };
    // The same check already running (a client polling, two clients at once): wait for its result instead of running
    // the validator twice. Same key, same password: its access check holds for this request too.
    const key = readModelKey(stat.etag, ctx.documentPassword, profile);
    const running = this.inflight.get(key);
    if (running) {
      try {
        const { etag, report } = await running;
        return { document, etag, ...report };
      } catch (err) {
        // Its client went away and stopped it: this request runs its own.
        if (!(err instanceof ServiceError && err.code === 'TASK_CANCELLED')) throw err;
      }
    }
    const { signal } = requestExecution();
    const work = (async () => {
      // The password is checked the way every read checks it (401/403 before the validator runs); a plain version costs nothing here.
      // The validator gets the password the engine opened it with (SASLprep'd where that was needed), as every program does.
      const password = await this.documents.checkAccess(path, ctx, 'view');
      return this.documents.read(path, ctx, async (stored) => {
        const report = await checker.check({ stored, password, signal, pool: this.pool, tools: this.tools });
        this.results.set(stored.etag, ctx.documentPassword, report, profile);
        return { etag: stored.etag, report };
      });
    })();
    // Registered before anything is awaited, so a request arriving meanwhile finds it.
    this.inflight.set(key, work);
    try {
      const { etag, report } = await work;
      return { document, etag, ...report };
    } finally {
      if (this.inflight.get(key) === work) this.inflight.delete(key);
    }
  }
}
