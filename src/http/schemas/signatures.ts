/** SignatureFieldsModel (XML: <SignatureFields>), SignatureFieldModel (XML: <SignatureField>) and the signing request (docs/signing.md). */
import { rectangleSchema } from './common.js';

const widgetSchema = {
  type: 'object',
  properties: { pageIndex: { type: 'integer', description: '-1 when the widget is on no page' }, rectangle: rectangleSchema },
} as const;

const certificateSchema = {
  type: 'object',
  properties: {
    subject: { type: 'string' },
    issuer: { type: 'string' },
    serialNumber: { type: 'string', description: 'Hexadecimal' },
    validFrom: { type: 'string', format: 'date-time' },
    validTo: { type: 'string', format: 'date-time' },
  },
} as const;

export const signatureSchema = {
  title: 'SignatureModel',
  type: 'object',
  description: 'The signature in a signed field, verified by the service',
  properties: {
    filter: { type: 'string', description: '/Filter, e.g. Adobe.PPKLite' },
    subFilter: { type: 'string', description: '/SubFilter: adbe.pkcs7.detached, ETSI.CAdES.detached, ...' },
    signer: { type: 'string', description: 'Subject of the signer certificate ("CN=…, O=…")' },
    signerCommonName: { type: 'string' },
    name: { type: 'string', description: '/Name of the signature dictionary' },
    signingTime: { type: 'string', description: 'ISO 8601: /M, or the CMS signing-time attribute when /M is absent' },
    reason: { type: 'string' },
    location: { type: 'string' },
    contactInfo: { type: 'string' },
    certification: { type: 'boolean', description: 'A certifying (DocMDP) signature' },
    certificationLevel: { type: 'integer', enum: [1, 2, 3], description: '1 no changes, 2 form fill-in and signing, 3 as 2 plus annotations' },
    byteRange: { type: 'array', items: { type: 'integer' } },
    coversWholeFile: { type: 'boolean', description: 'The signed ranges reach the end of the file (false once something was appended after this signature, which is normal for all but the last)' },
    integrity: { type: 'boolean', description: 'Computed by the service: the digest over the byte range matches the signed digest, and the signature verifies with the signer certificate it carries' },
    integrityReason: { type: 'string', description: 'Why integrity is false' },
    digestAlgorithm: { type: 'string' },
    signingCertificateAttribute: { type: 'boolean', description: 'A signing-certificate(-v2) attribute names the signer certificate (PAdES)' },
    certificates: { type: 'array', items: certificateSchema, description: 'The certificates the signature carries, the signer\'s first' },
  },
  required: ['certification', 'byteRange', 'coversWholeFile', 'integrity', 'certificates'],
} as const;

export const signatureFieldSchema = {
  title: 'SignatureFieldModel',
  type: 'object',
  description: 'SignatureFieldModel (XML: <SignatureField>)',
  properties: {
    name: { type: 'string' },
    widgets: { type: 'array', items: widgetSchema },
    visible: { type: 'boolean', description: 'Some widget has an area on a page and is not hidden' },
    signed: { type: 'boolean' },
    signature: signatureSchema,
  },
  required: ['name', 'widgets', 'visible', 'signed'],
} as const;

export const signatureFieldsSchema = {
  title: 'SignatureFieldsModel',
  type: 'object',
  description: 'SignatureFieldsModel (XML: <SignatureFields> with <signatureField> items)',
  properties: { signatureFields: { type: 'array', items: signatureFieldSchema } },
  required: ['signatureFields'],
} as const;

export const newSignatureFieldSchema = {
  title: 'NewSignatureField',
  type: 'object',
  description: 'The widgets of a new signature field (XML: <SignatureField><widget><pageIndex/><rectangle>…</rectangle></widget></SignatureField>); none, or an empty list, makes an invisible field',
  properties: {
    widget: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        properties: {
          pageIndex: { type: 'integer', minimum: 0 },
          rectangle: {
            type: 'object',
            properties: { x: { type: 'number' }, y: { type: 'number' }, width: { type: 'number', exclusiveMinimum: 0 }, height: { type: 'number', exclusiveMinimum: 0 } },
            required: ['x', 'y', 'width', 'height'],
            additionalProperties: false,
          },
        },
        required: ['pageIndex', 'rectangle'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const shortText = { type: 'string', maxLength: 1000 } as const;
const password = { type: 'string', maxLength: 1024 } as const;

export const signRequestSchema = {
  title: 'SignRequest',
  type: 'object',
  description: 'The `signature` part of a signing request',
  properties: {
    keystorePassword: { ...password, description: 'Password of the PKCS#12 key store' },
    keyAlias: { type: 'string', maxLength: 1000, description: 'Which key (its friendly name); needed when the store holds several' },
    keyPassword: { ...password, description: 'Password of the private key, when it differs from the store\'s' },
    certifyingSignature: { type: 'boolean', default: false, description: 'A certification (DocMDP) signature; only as the first signature' },
    certifyingPermissions: { type: 'integer', enum: [1, 2, 3], default: 2, description: '1 no changes, 2 form fill-in and signing, 3 as 2 plus annotations' },
    signReason: shortText,
    signLocation: shortText,
    signContactInformation: shortText,
    subFilter: { type: 'string', enum: ['adbe.pkcs7.detached', 'ETSI.CAdES.detached'], default: 'adbe.pkcs7.detached', description: 'ETSI.CAdES.detached: PAdES baseline B (signing-certificate-v2 attribute, no signing-time attribute)' },
    createField: { type: 'boolean', default: false, description: 'Create an invisible signature field when none has that name (404 otherwise)' },
  },
  additionalProperties: false,
} as const;

const items = { signatureFields: 'signatureField', widgets: 'widget', byteRange: 'offset', certificates: 'certificate' };
export const SIGNATURE_FIELDS_XML = { root: 'SignatureFields', flatten: 'signatureFields', items };
export const SIGNATURE_FIELD_XML = { root: 'SignatureField', items };
