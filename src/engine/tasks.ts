/**
 * The engine's task registry: name -> pure function, the merge of each
 * feature folder's task map (annotations/tasks.ts, forms/tasks.ts, ...).
 * Loaded only inside worker threads; the main thread imports this module for
 * its types alone. A new engine task is one module in its feature folder, one
 * line in that folder's tasks.ts, and its name in that folder's entry below (the
 * compiler refuses a name the map does not have; test/engine/engine-pool.test.ts
 * a name the map has and the entry lacks). Each task is called with its input and
 * a TaskContext (progress reports).
 *
 * A worker loads a feature folder's modules when it first runs one of its tasks, not at its start: loading all of
 * them cost each worker about 0.45 s of CPU (0.55-0.65 s with MuPDF, whose own load is 0.10-0.13 s; load 10-12,
 * 1 Dec), twice per service start (two workers), and the test suites start the service some two hundred times, most
 * of them to use a few folders (docs/testing.md, "Changes that took time out"). The first task of a folder in a
 * worker waits for the load: tens of milliseconds, about 0.2 s for the largest (pdfua); core/ is loaded at the start
 * (loadCore).
 */
import type { coreTasks } from './core/tasks.js';
import type { annotationTasks } from './annotations/tasks.js';
import type { xfdfTasks } from './xfdf/tasks.js';
import type { formTasks } from './forms/tasks.js';
import type { redactionTasks } from './redaction/tasks.js';
import type { signingTasks } from './signing/tasks.js';
import type { securityTasks } from './security/tasks.js';
import type { pageTasks } from './pages/tasks.js';
import type { stampTasks } from './stamps/tasks.js';
import type { textTasks } from './text/tasks.js';
import type { renderTasks } from './render/tasks.js';
import type { imageTasks } from './images/tasks.js';
import type { ocrTasks } from './ocr/tasks.js';
import type { pdfaTasks } from './pdfa/tasks.js';
import type { preflightTasks } from './preflight/tasks.js';
import type { optimizeTasks } from './optimize/tasks.js';
import type { officeTasks } from './office/tasks.js';
import type { outlineTasks } from './outline/tasks.js';
import type { metadataTasks } from './metadata/tasks.js';
import type { splitTasks } from './split/tasks.js';
import type { numberTasks } from './numbers/tasks.js';
import type { blankTasks } from './blank/tasks.js';
import type { layoutTasks } from './layout/tasks.js';
import type { attachmentTasks } from './attachments/tasks.js';
import type { mergeTasks } from './merge/tasks.js';
import type { sanitizeTasks } from './sanitize/tasks.js';
import type { compareTasks } from './compare/tasks.js';
import type { pdfuaTasks } from './pdfua/tasks.js';
import type { exportTasks } from './export/tasks.js';
import type { TaskContext } from './task-context.js';

type TaskMap = Record<string, (input: never, ctx: TaskContext) => unknown>;

/** A feature folder: its task map, loaded on first need, and the names the map declares. */
export interface TaskFeature {
  readonly names: readonly string[];
  load(): Promise<TaskMap>;
}

/** `names`: the map's names (the compiler checks that each is one). */
function feature<T extends TaskMap>(load: () => Promise<T>, names: readonly (keyof T & string)[]): TaskFeature {
  return { names, load };
}

/** Every feature folder, by name. */
export const taskFeatures: Record<string, TaskFeature> = {
  core: feature(() => import('./core/tasks.js').then((m) => m.coreTasks), ['inspect', 'validateUpload', 'checkAccess', 'checkOutput']),
  annotations: feature(() => import('./annotations/tasks.js').then((m) => m.annotationTasks), ['listAnnotations', 'deleteAnnotations', 'addFileAttachment', 'readAttachment', 'flattenAnnotations']),
  xfdf: feature(() => import('./xfdf/tasks.js').then((m) => m.xfdfTasks), ['exportAnnotationsXfdf', 'importAnnotationsXfdf', 'exportAnnotationsFdf', 'importAnnotationsFdf', 'parseFieldData']),
  forms: feature(() => import('./forms/tasks.js').then((m) => m.formTasks), ['listFields', 'setFieldValue', 'resetFields', 'exportFields', 'importFields', 'flattenFields']),
  redaction: feature(() => import('./redaction/tasks.js').then((m) => m.redactionTasks), ['createRedactions', 'applyRedactions']),
  signing: feature(() => import('./signing/tasks.js').then((m) => m.signingTasks), ['listSignatureFields', 'createSignatureField', 'deleteSignatureField', 'signField']),
  security: feature(() => import('./security/tasks.js').then((m) => m.securityTasks), ['readPermissions', 'setPasswordPermissions', 'removePasswordPermissions', 'removeUsageRights']),
  pages: feature(() => import('./pages/tasks.js').then((m) => m.pageTasks), ['listPages', 'editPages']),
  stamps: feature(() => import('./stamps/tasks.js').then((m) => m.stampTasks), ['textStamp', 'imageStamp']),
  text: feature(() => import('./text/tasks.js').then((m) => m.textTasks), ['documentText', 'pageText']),
  render: feature(() => import('./render/tasks.js').then((m) => m.renderTasks), ['renderPage']),
  images: feature(() => import('./images/tasks.js').then((m) => m.imageTasks), ['imageToPdf']),
  ocr: feature(() => import('./ocr/tasks.js').then((m) => m.ocrTasks), ['ocrSurvey', 'renderForOcr', 'addOcrLayers']),
  pdfa: feature(() => import('./pdfa/tasks.js').then((m) => m.pdfaTasks), ['pdfaPrepare', 'pdfaTextLoss', 'pdfaMark']),
  preflight: feature(() => import('./preflight/tasks.js').then((m) => m.preflightTasks), ['preflightPdfx']),
  optimize: feature(() => import('./optimize/tasks.js').then((m) => m.optimizeTasks), ['linearizeCheck', 'linearizeRewrite', 'optimize']),
  office: feature(() => import('./office/tasks.js').then((m) => m.officeTasks), ['decryptOfficeDefault']),
  outline: feature(() => import('./outline/tasks.js').then((m) => m.outlineTasks), ['readOutline', 'writeOutline']),
  metadata: feature(() => import('./metadata/tasks.js').then((m) => m.metadataTasks), ['readMetadata', 'readXmp', 'writeMetadata', 'writeXmp']),
  split: feature(() => import('./split/tasks.js').then((m) => m.splitTasks), ['splitDocument']),
  numbers: feature(() => import('./numbers/tasks.js').then((m) => m.numberTasks), ['pageNumbers', 'pageNumbersPlan']),
  blank: feature(() => import('./blank/tasks.js').then((m) => m.blankTasks), ['pageInk', 'pagesWithText']),
  layout: feature(() => import('./layout/tasks.js').then((m) => m.layoutTasks), ['layoutPages']),
  attachments: feature(() => import('./attachments/tasks.js').then((m) => m.attachmentTasks), ['listDocumentAttachments', 'readDocumentAttachment', 'addDocumentAttachment', 'deleteDocumentAttachment', 'inspectInvoiceXml', 'facturxFinish']),
  merge: feature(() => import('./merge/tasks.js').then((m) => m.mergeTasks), ['mergeDocuments']),
  sanitize: feature(() => import('./sanitize/tasks.js').then((m) => m.sanitizeTasks), ['sanitize']),
  compare: feature(() => import('./compare/tasks.js').then((m) => m.compareTasks), ['comparePageDigests', 'comparePageContent', 'matchComparePages', 'comparePagePairs', 'compareHighlights']),
  pdfua: feature(() => import('./pdfua/tasks.js').then((m) => m.pdfuaTasks), ['finishTaggedPdf', 'listFigures', 'writeFigures', 'tagForPdfua', 'withoutPdfuaIdentification']),
  export: feature(() => import('./export/tasks.js').then((m) => m.exportTasks), ['exportDocument']),
};

// A name declared in two folders would run one folder's task and hide the other's.
const declared = Object.values(taskFeatures).flatMap((f) => f.names);
const twice = declared.filter((name, i) => declared.indexOf(name) !== i);
if (twice.length) throw new Error(`Engine tasks declared in two feature folders: ${twice.join(', ')}`);

/** The folder that declares each task. */
const featureOf = new Map(Object.values(taskFeatures).flatMap((f) => f.names.map((name) => [name, f] as const)));
/** The folders loaded or loading (a promise: two tasks of one folder load it once). */
const loaded = new Map<TaskFeature, Promise<TaskMap>>();

/** A folder's map, loaded once per worker. */
function loadFolder(owner: TaskFeature): Promise<TaskMap> {
  let map = loaded.get(owner);
  if (!map) loaded.set(owner, (map = owner.load()));
  return map;
}

/** The task named `name`, its folder loaded first if this worker has not yet; undefined when no folder declares it. */
export async function loadTask(name: string): Promise<((input: unknown, ctx: TaskContext) => unknown) | undefined> {
  const owner = featureOf.get(name);
  if (!owner) return undefined;
  return (await loadFolder(owner))[name] as ((input: unknown, ctx: TaskContext) => unknown) | undefined;
}

/**
 * core/ (inspect, validateUpload, checkAccess: the checks of nearly every request's first engine task), loaded at the
 * worker's start: about 0.05 s of CPU, and a first request's task does not wait for it inside its time limit (a test
 * runs with a 500 ms limit on a loaded machine).
 */
export const loadCore = (): Promise<TaskMap> => loadFolder(taskFeatures.core!);

export type EngineTasks = typeof coreTasks & typeof annotationTasks & typeof xfdfTasks & typeof formTasks & typeof redactionTasks & typeof signingTasks & typeof securityTasks & typeof pageTasks & typeof stampTasks & typeof textTasks & typeof renderTasks & typeof imageTasks & typeof ocrTasks & typeof pdfaTasks & typeof preflightTasks & typeof optimizeTasks & typeof officeTasks & typeof outlineTasks & typeof metadataTasks & typeof splitTasks & typeof numberTasks & typeof blankTasks & typeof layoutTasks & typeof attachmentTasks & typeof mergeTasks & typeof sanitizeTasks & typeof compareTasks & typeof pdfuaTasks & typeof exportTasks;
export type TaskName = keyof EngineTasks;
export type TaskInput<K extends TaskName> = Parameters<EngineTasks[K]>[0];
/** What a task answers: a task may return a promise (see worker.ts), which the pool's caller gets settled. */
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<EngineTasks[K]>>;
