import { Webhooks, type WebhookPolicy, type WebhookSecrets } from './jobs/webhooks.js';
import type { JobRecord } from './jobs/model.js';
import type { WebPolicy } from './conversions/html/web.js';
import type { EnginePool } from '../engine/pool.js';
import type { DocumentStores } from '../storage/store.js';
import type { ToolStatus, ToolSupervisor } from '../tools/index.js';
import { ActionRunner, type AnyAction } from './actions/runner.js';
import { AnnotationOperations } from './annotations.js';
import { DocumentOperations } from './documents.js';
import { UploadOperations } from './uploads.js';
import { FolderOperations } from './folders.js';
import { FieldOperations } from './fields.js';
import { FigureOperations } from './figures.js';
import { JobOperations, type JobLimits } from './jobs/jobs.js';
import { MemoryResultFiles, type JobResultFiles } from './jobs/result-files.js';
import { OneShotOperations } from './oneshot.js';
import type { JobBackend } from './jobs/backend.js';
import { OptimizeProfileOperations } from './optimize/profiles.js';
import { MemoryProfileStore, type OptimizeProfileStore } from './optimize/store.js';
import { PipelineOperations } from './pipelines/pipelines.js';
import { MemoryPipelineStore, type PipelineStore } from './pipelines/store.js';
import { MemoryWatchStore, type WatchStore } from './watched/store.js';
import { WatchedFolderOperations, type WatchSettings } from './watched/watched.js';
import type { JobStore } from './jobs/store.js';
import { PageOperations } from './pages.js';
import { TrashOperations } from './trash.js';
import { VersionOperations } from './versions.js';
import { PermissionOperations } from './permissions.js';
import { OutlineOperations } from './outline.js';
import { CompareOperations } from './compare.js';
import { MetadataOperations } from './metadata.js';
import { AttachmentOperations } from './attachments.js';
import { PreflightOperations } from './PreflightOperations.js';
import { SignatureOperations } from './signatures.js';

export interface Operations {
  documents: DocumentOperations;
  /** Uploads: bodies and form files stored as PDFs through the conversion registry. */
  uploads: UploadOperations;
  annotations: AnnotationOperations;
  folders: FolderOperations;
  fields: FieldOperations;
  /** The Figure elements of a tagged document and their alternate text (docs/accessibility.md). */
  figures: FigureOperations;
  permissions: PermissionOperations;
  /** The outline (bookmarks) of a document (docs/outline.md). */
  outline: OutlineOperations;
  /** Compare two documents or two versions (docs/compare.md). */
  compare: CompareOperations;
  metadata: MetadataOperations;
  /** Document attachments: the embedded files of the EmbeddedFiles tree (docs/attachments.md). */
  attachments: AttachmentOperations;
  pages: PageOperations;
  versions: VersionOperations;
  /** The trash deletes move documents and folders into (docs/versions.md, "Trash"). */
  trash: TrashOperations;
  signatures: SignatureOperations;
  preflight: PreflightOperations;
  actions: ActionRunner;
  /** One-shot conversions: files in, the result in the answer, nothing stored (docs/api.md, "One-shot conversions"). */
  oneshot: OneShotOperations;
  /** Optimize profiles, built-in and user-defined (docs/optimize.md). */
  optimizeProfiles: OptimizeProfileOperations;
  /** Stored pipelines, per user and versioned (docs/pipelines.md); PipelineAction runs them. */
  pipelines: PipelineOperations;
  /** Folders bound to pipelines: every document arriving runs one (docs/watched-folders.md); idle without jobs. */
  watched: WatchedFolderOperations;
  /** Background jobs (docs/jobs.md); absent until a job store is given, and then actions run inline only. */
  jobs?: JobOperations;
  /** The external programs' availability and versions (for /health; the first call runs their version probes). */
  tools: { checked(): Promise<ToolStatus[]> };
  /** The engine pool's counters (for /health and the metrics). */
  engineStats(): EnginePool['stats'];
}

export function createOperations({ stores, pool, tools, textPrefetchMaxBytes = 0, jobs, profiles = new MemoryProfileStore(), pipelines = new MemoryPipelineStore(), watched = {}, extraActions = [], web, webhooks }: {
  /** The store of each user (sharedStores for a store without users of its own): every document operation resolves it from its context. */
  stores: DocumentStores;
  pool: EnginePool;
  tools: ToolSupervisor;
  textPrefetchMaxBytes?: number;
  /** `backend`: the Redis one across instances (main.ts); the embedded one by default. */
  jobs?: { store: JobStore; limits: JobLimits; backend?: JobBackend; resultFiles?: JobResultFiles };
  /** Where user-defined optimize profiles are kept (main.ts: a file under the data folder); by default in memory. */
  profiles?: OptimizeProfileStore;
  /** Where pipelines are kept (main.ts: a file under the data folder, or Redis); by default in memory. */
  pipelines?: PipelineStore;
  /** Where watched folders' bindings and runs are kept (main.ts: a file under the data folder, or Redis), and their retries. */
  watched?: { store?: WatchStore; settings?: WatchSettings };
  /** Test-only actions beside the registry (start()'s StartOptions); production passes none. */
  extraActions?: readonly AnyAction[];
  /** What web pages by URL may fetch (config: PDFSERVICE_URL_*); absent or an empty allow-list: they are off. */
  web?: WebPolicy;
  /** Where jobs' ends may be POSTed and with which secrets (docs/webhooks.md); `view` renders a job as GET /jobs/{id} does. Absent: off. */
  webhooks?: { policy: WebhookPolicy; secrets?: WebhookSecrets; view: (record: JobRecord) => unknown };
}): Operations {
  const documents = new DocumentOperations(stores, pool);
  const uploads = new UploadOperations(documents, tools, web);
  const pages = new PageOperations(pool, documents, textPrefetchMaxBytes);
  documents.onWritten((written, ctx) => pages.prefetchText(written.path, written.stat.etag, written.stat.size, ctx));
  const versions = new VersionOperations(documents);
  documents.onWritten((written, ctx) => versions.noteWritten(written, ctx));
  const optimizeProfiles = new OptimizeProfileOperations(profiles);
  const folders = new FolderOperations(stores, documents);
  const actions = new ActionRunner(documents, tools, optimizeProfiles, extraActions, pipelines);
  // One place for the files jobs produce: a one-shot's result and an action's file answer, swept with their records.
  const resultFiles = jobs?.resultFiles ?? new MemoryResultFiles();
  const pipelineOperations = new PipelineOperations(pipelines, actions);
  const jobOperations = jobs ? new JobOperations(jobs.store, actions, uploads, jobs.limits, jobs.backend, resultFiles, webhooks ? new Webhooks(webhooks.policy, webhooks.secrets, webhooks.view) : undefined) : undefined;
  return {
    documents,
    uploads,
    annotations: new AnnotationOperations(documents),
    folders,
    fields: new FieldOperations(documents),
    figures: new FigureOperations(documents),
    permissions: new PermissionOperations(documents),
    outline: new OutlineOperations(documents),
    compare: new CompareOperations(documents, pool),
    metadata: new MetadataOperations(documents),
    attachments: new AttachmentOperations(documents),
    pages,
    versions,
    trash: new TrashOperations(documents, folders),
    signatures: new SignatureOperations(documents),
    preflight: new PreflightOperations(tools, documents),
    actions,
    oneshot: new OneShotOperations(pool, tools, actions, resultFiles, web),
    optimizeProfiles,
    pipelines: pipelineOperations,
    watched: new WatchedFolderOperations(watched.store ?? new MemoryWatchStore(), documents, folders, pipelineOperations, jobOperations, watched.settings ?? { attempts: 3, retryMs: 30_000 }),
    ...(jobOperations ? { jobs: jobOperations } : {}),
    tools,
    engineStats: () => pool.stats,
  };
}
