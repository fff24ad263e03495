/** Document attachment tasks: the EmbeddedFiles tree listed, one file read, added, deleted; Factur-X's finishing step. */
import { addDocumentAttachment, deleteDocumentAttachment, listDocumentAttachments, readDocumentAttachment } from './attachments.js';

export const attachmentTasks = { listDocumentAttachments, readDocumentAttachment, addDocumentAttachment, deleteDocumentAttachment };
