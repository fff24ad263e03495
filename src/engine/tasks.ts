/**
 * The engine's task registry: name -> pure function, the merge of each
 * feature folder's task map (annotations/tasks.ts, forms/tasks.ts, ...).
 * Loaded only inside worker threads; the main thread imports this module for
 * its types alone. A new engine task is one module in its feature folder and
 * one line in that folder's tasks.ts. Each task is called with its input and
 * a TaskContext (progress reports).
 */
import { coreTasks } from './core/tasks.js';
import { annotationTasks } from './annotations/tasks.js';
import { xfdfTasks } from './xfdf/tasks.js';
import { formTasks } from './forms/tasks.js';
import { redactionTasks } from './redaction/tasks.js';
import { signingTasks } from './signing/tasks.js';
import { securityTasks } from './security/tasks.js';
import { pageTasks } from './pages/tasks.js';
import { stampTasks } from './stamps/tasks.js';
import { textTasks } from './text/tasks.js';
import { renderTasks } from './render/tasks.js';
import { imageTasks } from './images/tasks.js';
import { ocrTasks } from './ocr/tasks.js';
import { pdfaTasks } from './pdfa/tasks.js';
import { preflightTasks } from './preflight/tasks.js';
import { optimizeTasks } from './optimize/tasks.js';
import { officeTasks } from './office/tasks.js';
import { outlineTasks } from './outline/tasks.js';
import { metadataTasks } from './metadata/tasks.js';
import { splitTasks } from './split/tasks.js';
import { numberTasks } from './numbers/tasks.js';
import { blankTasks } from './blank/tasks.js';
import { layoutTasks } from './layout/tasks.js';
import { attachmentTasks } from './attachments/tasks.js';
import { mergeTasks } from './merge/tasks.js';
import { sanitizeTasks } from './sanitize/tasks.js';
import { compareTasks } from './compare/tasks.js';
import { pdfuaTasks } from './pdfua/tasks.js';
import { exportTasks } from './export/tasks.js';
import type { TaskContext } from './task-context.js';

const featureTasks = [coreTasks, annotationTasks, xfdfTasks, formTasks, redactionTasks, signingTasks, securityTasks, pageTasks, stampTasks, textTasks, renderTasks, imageTasks, ocrTasks, preflightTasks, pdfaTasks, optimizeTasks, officeTasks, outlineTasks, metadataTasks, numberTasks, blankTasks, splitTasks, layoutTasks, attachmentTasks, mergeTasks, sanitizeTasks, compareTasks, pdfuaTasks, exportTasks];
// Spreading the maps would let a name declared in two folders silently keep the last one.
const declared = featureTasks.flatMap((map) => Object.keys(map));
const twice = declared.filter((name, i) => declared.indexOf(name) !== i);
if (twice.length) throw new Error(`Engine tasks declared in two feature folders: ${twice.join(', ')}`);

export const tasks = {
  ...coreTasks,
  ...annotationTasks,
  ...xfdfTasks,
  ...formTasks,
  ...redactionTasks,
  ...signingTasks,
  ...securityTasks,
  ...pageTasks,
  ...stampTasks,
  ...textTasks,
  ...renderTasks,
  ...imageTasks,
  ...ocrTasks,
  ...preflightTasks,
  ...pdfaTasks,
  ...optimizeTasks,
  ...officeTasks,
  ...outlineTasks,
  ...metadataTasks,
  ...splitTasks,
  ...numberTasks,
  ...blankTasks,
  ...layoutTasks,
  ...attachmentTasks,
  ...mergeTasks,
  ...sanitizeTasks,
  ...compareTasks,
  ...pdfuaTasks,
  ...exportTasks,
} satisfies Record<string, (input: never, ctx: TaskContext) => unknown>;

export type EngineTasks = typeof tasks;
export type TaskName = keyof EngineTasks;
export type TaskInput<K extends TaskName> = Parameters<EngineTasks[K]>[0];
/** What a task answers: a task may return a promise (see worker.ts), which the pool's caller gets settled. */
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<EngineTasks[K]>>;
