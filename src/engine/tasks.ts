/**
 * The engine's task registry: name -> pure function. Loaded only inside
 * worker threads; the main thread imports this module for its types alone.
 * A new engine feature adds one line here and its module under pdf/. Each
 * task is called with its input and a TaskContext (progress reports).
 */
import { imageToPdf, type ImageMediaType } from './images/to-pdf.js';
import { deleteAnnotations, listAnnotations } from './annotations/list-delete.js';
import { addFileAttachment, readAttachment } from './annotations/attachments.js';
import { exportAnnotationsXfdf, importAnnotationsXfdf } from './xfdf/import.js';
import { exportAnnotationsFdf, importAnnotationsFdf } from './xfdf/fdf-transfer.js';
import { inspect, validateUpload } from './core/inspect.js';
import { exportFields, importFields } from './forms/field-tree.js';
import { parseFieldData } from './xfdf/field-data.js';
import { createRedactions } from './redaction/mark.js';
import { applyRedactions } from './redaction/apply.js';
import { editPages } from './pages/assembly.js';
import { listFields, resetFields, setFieldValue } from './forms/fields.js';
import { flattenAnnotations, flattenFields } from './annotations/flatten.js';
import { imageStamp, textStamp } from './stamps/stamps.js';
import { createSignatureField, deleteSignatureField, listSignatureFields, signField } from './signing/verify.js';
import { readPermissions, removePasswordPermissions, removeUsageRights, setPasswordPermissions } from './security/permissions.js';
import { listPages } from './pages/list.js';
import { documentText, pageText } from './text/extraction.js';
import { renderPage } from './render/render.js';
import type { TaskContext } from './task-context.js';

export const tasks = {
  inspect,
  validateUpload,
  listAnnotations,
  deleteAnnotations,
  addFileAttachment,
  readAttachment,
  exportFields,
  parseFieldData,
  importFields,
  exportAnnotationsXfdf,
  importAnnotationsXfdf,
  exportAnnotationsFdf,
  importAnnotationsFdf,
  createRedactions,
  applyRedactions,
  readPermissions,
  editPages,
  listFields,
  setFieldValue,
  resetFields,
  flattenFields,
  flattenAnnotations,
  setPasswordPermissions,
  removePasswordPermissions,
  removeUsageRights,
  textStamp,
  imageStamp,
  listPages,
  documentText,
  pageText,
  renderPage,
  listSignatureFields,
  createSignatureField,
  deleteSignatureField,
  signField,
  /** The PDF made from an image, with the summary an upload reports (page count, encryption). */
  imageToPdf: (input: { bytes: Uint8Array; mediaType: ImageMediaType }) => {
    const bytes = imageToPdf(input.bytes, input.mediaType);
    return { bytes, ...validateUpload({ pdf: bytes }) };
  },
  /** For the pool's own tests: spins for `ms` milliseconds, like a document that takes long. */
  busyWait: (input: { ms: number }) => {
    const end = Date.now() + input.ms;
    while (Date.now() < end) {
      /* spin */
    }
    return { waited: input.ms };
  },
} satisfies Record<string, (input: never, ctx: TaskContext) => unknown>;

export type EngineTasks = typeof tasks;
export type TaskName = keyof EngineTasks;
export type TaskInput<K extends TaskName> = Parameters<EngineTasks[K]>[0];
export type TaskOutput<K extends TaskName> = ReturnType<EngineTasks[K]>;
