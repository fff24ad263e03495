/** Document attachments (docs/attachments.md): DocumentAttachment, the list, and what an upload may say of the file. */
import { AF_RELATIONSHIPS, ISO_DATE_TIME_PATTERN, MAX_ATTACHMENT_DESCRIPTION, MAX_ATTACHMENT_NAME } from '../../engine/models.js';

/** A media type an HTTP Content-Type can carry as is (RFC 6838 restricted names), as the download sends it. */
export const MEDIA_TYPE_PATTERN = '^[A-Za-z0-9][\\w!#$&^.+-]{0,126}/[A-Za-z0-9][\\w!#$&^.+-]{0,126}$';

export const documentAttachmentSchema = {
  title: 'DocumentAttachment',
  type: 'object',
  description: 'One embedded file of the document (the catalog\'s EmbeddedFiles name tree; not a FileAttachment annotation)',
  properties: {
    name: { type: 'string', description: 'The key in the EmbeddedFiles tree: the name in .../attachments/{name}' },
    fileName: { type: 'string', description: 'The file specification\'s /UF (else /F)' },
    description: { type: 'string', description: '/Desc' },
    mediaType: { type: 'string', description: 'The embedded file\'s /Subtype; application/octet-stream when it has none' },
    size: { type: 'integer', description: 'Bytes of the file' },
    creationDate: { type: 'string', format: 'date-time' },
    modificationDate: { type: 'string', format: 'date-time' },
    checksum: { type: 'string', description: 'MD5, hex: the stored /CheckSum, or computed when there is none' },
    relationship: { type: 'string', description: '/AFRelationship (Source, Data, Alternative, Supplement, EncryptedPayload, FormData, Schema, Unspecified), when present' },
    associated: { type: 'boolean', description: 'Whether the catalog\'s /AF lists it (PDF/A-3, PDF 2.0: associated with the whole document)' },
  },
  required: ['name', 'fileName', 'mediaType', 'size', 'checksum', 'associated'],
} as const;

export const documentAttachmentsSchema = {
  title: 'DocumentAttachmentsModel',
  type: 'object',
  description: 'DocumentAttachmentsModel (XML: <DocumentAttachments>): the document\'s embedded files in the tree\'s order',
  properties: {
    attachments: { type: 'array', items: documentAttachmentSchema },
    warnings: { type: 'array', items: { type: 'string' }, description: 'What could not be read: a damaged tree, a name twice, an entry that embeds no file' },
  },
  required: ['attachments', 'warnings'],
} as const;

export const DOCUMENT_ATTACHMENTS_XML = { root: 'DocumentAttachments', items: { attachments: 'attachment', warnings: 'warning' } };
export const DOCUMENT_ATTACHMENT_XML = { root: 'DocumentAttachment' };

/** What an upload says of the file: the JSON part `attachment` of POST, the query of PUT. */
export const newAttachmentProperties = {
  name: { type: 'string', minLength: 1, maxLength: MAX_ATTACHMENT_NAME, description: 'The attachment\'s name (POST; default: the file\'s name, else "attachment")' },
  fileName: { type: 'string', minLength: 1, maxLength: MAX_ATTACHMENT_NAME, description: 'The file name written in the file specification (default: the name)' },
  description: { type: 'string', maxLength: MAX_ATTACHMENT_DESCRIPTION, description: '/Desc' },
  mediaType: { type: 'string', pattern: MEDIA_TYPE_PATTERN, description: 'The file\'s media type (default: the part\'s Content-Type; PUT: the body\'s unless application/octet-stream)' },
  relationship: { type: 'string', enum: [...AF_RELATIONSHIPS], description: 'AFRelationship (default Unspecified)' },
  creationDate: { type: 'string', pattern: ISO_DATE_TIME_PATTERN, description: 'ISO 8601 (default: now)' },
  modificationDate: { type: 'string', pattern: ISO_DATE_TIME_PATTERN, description: 'ISO 8601 (default: now)' },
  replace: { type: 'boolean', default: false, description: 'Replace an attachment of the same name (else 409 ATTACHMENT_EXISTS)' },
} as const;

export const newAttachmentSchema = {
  title: 'NewDocumentAttachment',
  type: 'object',
  properties: newAttachmentProperties,
  additionalProperties: false,
} as const;
