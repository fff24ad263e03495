/** Annotation tasks: listing and deleting annotations, file attachments, flattening annotations into page content. */
import { deleteAnnotations, listAnnotations } from './list-delete.js';
import { addFileAttachment, readAttachment } from './attachments.js';
import { flattenAnnotations } from './flatten.js';

export const annotationTasks = { listAnnotations, deleteAnnotations, addFileAttachment, readAttachment, flattenAnnotations };
