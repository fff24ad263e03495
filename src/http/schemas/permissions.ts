/** PermissionsModel (XML: <Permissions>) and its password part, PasswordPermissions (XML: <PasswordPermissions>). */
import { XML_TEXT_PATTERN } from './common.js';
const flag = (description: string) => ({ type: 'boolean', description }) as const;

const permissionFlags = {
  printAllowed: flag('Print (bit 3)'),
  printHighResolutionAllowed: flag('Print at full quality (bit 12; needs printAllowed; follows it with RC4-40)'),
  changeDocumentAllowed: flag('Change the document other than by the flags below (bit 4)'),
  assembleDocumentAllowed: flag('Insert, rotate and delete pages, bookmarks, thumbnails (bit 11; follows changeDocumentAllowed with RC4-40)'),
  extractTextAllowed: flag('Copy or extract text and graphics (bit 5)'),
  extractTextForAccessibilityAllowed: flag('Extract text for accessibility (bit 10; follows extractTextAllowed with RC4-40)'),
  fillFormFieldsAllowed: flag('Fill in form fields and sign (bit 9; follows modifyAnnotationsAllowed with RC4-40)'),
  modifyAnnotationsAllowed: flag('Add and change annotations, fill in form fields (bit 6)'),
} as const;

const encryptType = {
  type: 'integer',
  enum: [0, 1, 2, 3],
  description: '0 RC4-128 (revision 3), 1 AES-128 (revision 4), 2 RC4-40 (revision 2), 3 AES-256 (revision 6)',
} as const;

export const passwordPermissionsSchema = {
  title: 'PasswordPermissionsModel',
  type: 'object',
  description: 'PasswordPermissions (XML: <PasswordPermissions>): the password security. Without encryption every flag is true.',
  properties: {
    encrypted: { type: 'boolean' },
    encryptType: { ...encryptType, description: `${encryptType.description}; absent when the handler is not a password handler or its method is not one of these` },
    handler: { type: 'string', description: 'The security handler (/Filter), "Standard" for passwords' },
    version: { type: 'integer', description: '/V of the encryption dictionary' },
    revision: { type: 'integer', description: "The handler's revision, /R" },
    keyLength: { type: 'integer', description: 'Key length in bits' },
    permissionBits: { type: 'integer', description: 'The raw /P value (signed 32 bits)' },
    encryptMetadata: { type: 'boolean', description: 'false when the XMP metadata is left unencrypted' },
    attachmentsOnly: { type: 'boolean', description: 'Only embedded files are encrypted' },
    openPasswordSet: { type: 'boolean', description: 'A password is needed to open the document (the user password is not empty)' },
    permissionsPasswordSet: { type: 'boolean', description: 'The permissions (owner) password is not empty' },
    ...permissionFlags,
  },
  required: ['encrypted', 'openPasswordSet', 'permissionsPasswordSet', ...Object.keys(permissionFlags)],
} as const;

export const passwordPermissionsRequestSchema = {
  title: 'PasswordPermissionsRequest',
  type: 'object',
  description:
    'PasswordPermissions (XML: <PasswordPermissions>) to write. encryptType defaults to 3 (AES-256); an omitted flag is allowed. ' +
    'permissionsPassword is required and must differ from openPassword; openPassword may be empty (the document then opens without one).',
  properties: {
    encryptType,
    openPassword: { type: 'string', maxLength: 1024, description: 'The user password; empty or absent: none' },
    permissionsPassword: { type: 'string', minLength: 1, maxLength: 1024, pattern: XML_TEXT_PATTERN, description: 'The owner password (required, not empty; no control characters but tab, LF and CR)' },
    ...permissionFlags,
  },
  required: ['permissionsPassword'],
  additionalProperties: false,
} as const;

const names = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const;

export const permissionsSchema = {
  title: 'PermissionsModel',
  type: 'object',
  description: 'PermissionsModel (XML: <Permissions>): password security, usage rights, certification.',
  properties: {
    passwordPermissions: passwordPermissionsSchema,
    usageRights: {
      type: 'object',
      description: "Usage rights (Adobe's UR3 signature, /Perms /UR3 or the older /UR) and what they grant, by category",
      properties: {
        present: { type: 'boolean' },
        document: names('Document rights, e.g. FullSave'),
        annotations: names('Annots rights, e.g. Create, Delete, Modify, Import, Export'),
        form: names('Form rights, e.g. FillIn, Import, Export, SpawnTemplate'),
        signature: names('Signature rights, e.g. Modify'),
        embeddedFiles: names('EF rights, e.g. Create, Delete, Modify, Import'),
        formEx: names('FormEx rights, e.g. BarcodePlaintext'),
        message: { type: 'string', description: 'The message a viewer shows (/Msg)' },
        restricted: { type: 'boolean', description: '/P true: further restrictions apply' },
      },
      required: ['present'],
    },
    certification: {
      type: 'object',
      description: 'Certification (a DocMDP signature, /Perms /DocMDP)',
      properties: {
        certified: { type: 'boolean' },
        level: { type: 'integer', enum: [1, 2, 3], description: '1 no changes, 2 form fill-in and signing, 3 as 2 plus annotations' },
      },
      required: ['certified'],
    },
  },
  required: ['passwordPermissions', 'usageRights', 'certification'],
} as const;

const rightItems = { document: 'right', annotations: 'right', form: 'right', signature: 'right', embeddedFiles: 'right', formEx: 'right' };
export const PERMISSIONS_XML = { root: 'Permissions', items: rightItems };
export const PASSWORD_PERMISSIONS_XML = { root: 'PasswordPermissions' };
