import { PDFX_PROFILES, type PdfxProfile } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import type { StoredPath } from '../storage/paths.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import { PDFA_PROFILES, UA_PROFILES, validatePdfa, type UaProfile, type ValidationReport } from '../tools/verapdf.js';
import type { OperationContext } from './context.js';
import type { DocumentOperations, StoredDocument } from './documents.js';
import { requestExecution, type Engine } from './execution.js';
import { accessibilityReport, type AccessibilityReport } from './matterhorn.js';
import { ReadModelCache } from './read-model-cache.js';

/**
 * A report of any profile: veraPDF's (PDF/A, PDF/UA) and the engine's PDF/X rules (engine/preflight/model.ts
 * PdfxReport) have this one shape; accessibility profiles add `accessibility` (docs/accessibility.md).
 */
export type PreflightReport = ValidationReport & { accessibility?: AccessibilityReport };

/** The PreflightResult model: the report, and which document version it is about. */
export type PreflightResult = PreflightReport & { document: string; etag: string };

/** What a checker gets: one open version of the document, its password as the engine opened it with (programPassword), and what it may use. */
export interface PreflightInput {
  stored: StoredDocument;
  password: string | undefined;
  signal: AbortSignal | undefined;
  /** The engine, under the request's signal. */
  engine: Engine;
  tools: ToolSupervisor;
}

/** One profile's checker: which family it belongs to (docs, messages) and how it checks. */
export interface PreflightChecker {
  family: 'PDF/A' | 'PDF/X' | 'PDF/UA';
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

/**
 * Accessibility profiles go to the same warm veraPDF; the report adds the failures grouped by Matterhorn checkpoint
 * (PDF/UA-1, the part the protocol covers) and the checks that need a person (operations/matterhorn.ts).
 */
function veraPdfUa(profile: UaProfile): PreflightChecker {
  return {
    family: 'PDF/UA',
    check: async ({ stored, password, signal, tools }) => {
      const report = await validatePdfa(tools, { pdf: stored.pdf, profile, password, signal });
      return { ...report, accessibility: accessibilityReport(report, profile === 'pdfua1') };
    },
  };
}

/** PDF/X profiles go to the engine's own rules (engine/preflight/pdfx.ts). */
function pdfxRules(profile: PdfxProfile): PreflightChecker {
  return {
    family: 'PDF/X',
    check: ({ stored, password, engine }) => engine.run('preflightPdfx', { pdf: stored.pdf, password, profile }),
  };
}

/**
 * Every profile preflight-results knows, by its query value: one entry per
 * profile. Order is the order of the 400's list and of the OpenAPI text.
 */
export const PREFLIGHT_PROFILES: ReadonlyMap<string, PreflightChecker> = new Map<string, PreflightChecker>([
  ...PDFA_PROFILES.map((profile) => [profile, veraPdf(profile)] as const),
  ...UA_PROFILES.map((profile) => [profile, veraPdfUa(profile)] as const),
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

  constructor(
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
    const { signal } = requestExecution();
    const { model, etag } = await this.documents.reads.get(path, ctx, {
      cache: this.results,
      variant: profile,
      // A client polling, two clients at once: the same check already running is waited for, not run twice.
      shared: true,
      compute: async (stored, engine) => {
        // The password is checked the way every read checks it (401/403 before the validator runs); a plain version costs nothing here.
        // The validator gets the password the engine opened it with (SASLprep'd where that was needed), as every program does.
        const password = await this.documents.reads.access(stored, ctx, 'view', engine);
        return checker.check({ stored, password, signal, engine, tools: this.tools });
      },
    });
    return { document: `/${path.toString()}`, etag, ...model };
  }
}
