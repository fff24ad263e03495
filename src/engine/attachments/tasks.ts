/** Document attachment tasks: the EmbeddedFiles tree listed, one file read, added, deleted; Factur-X's finishing step. */
import { facturxFinish, inspectInvoiceXml } from './facturx.js';
import { addDocumentAttachment, deleteDocumentAttachment, listDocumentAttachments, readDocumentAttachment } from './attachments.js';

export const attachmentTasks = { listDocumentAttachments, readDocumentAttachment, addDocumentAttachment, deleteDocumentAttachment, inspectInvoiceXml, facturxFinish };
