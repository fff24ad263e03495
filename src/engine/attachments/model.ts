/** Document attachments (embedded files of the catalog's EmbeddedFiles name tree; docs/attachments.md). */

/** AFRelationship values (ISO 32000-2 table 43, ISO 19005-3 6.8). */
export const AF_RELATIONSHIPS = ['Source', 'Data', 'Alternative', 'Supplement', 'EncryptedPayload', 'FormData', 'Schema', 'Unspecified'] as const;
export type AfRelationship = (typeof AF_RELATIONSHIPS)[number];

/** Longest attachment name accepted (a name-tree key; real ones are file names). */
export const MAX_ATTACHMENT_NAME = 1024;
/** Longest description accepted (/Desc). */
export const MAX_ATTACHMENT_DESCRIPTION = 16_000;
/** Most attachments a document may have for the service to change its tree (a write keeps the tree as one sorted node). */
export const MAX_ATTACHMENTS = 10_000;

/** One embedded file as the list answers it. */
export interface DocumentAttachment {
  /** The key in the EmbeddedFiles name tree: what the resource's URL names. */
  name: string;
  /** The file specification's /UF (else /F, else the name). */
  fileName: string;
  description?: string;
  /** The embedded file stream's /Subtype, application/octet-stream when it has none (or one no HTTP header can carry). */
  mediaType: string;
  /** Bytes of the file, decoded. */
  size: number;
  creationDate?: string;
  modificationDate?: string;
  /** MD5 in hex: the stored /CheckSum, or computed when the file has none. */
  checksum: string;
  /** The file specification's /AFRelationship (PDF 2.0, PDF/A-3), when it has one. */
  relationship?: string;
  /** Whether the catalog's /AF lists it (associated with the whole document). */
  associated: boolean;
}

export interface DocumentAttachmentList {
  attachments: DocumentAttachment[];
  /** What could not be read (a damaged tree, a key twice, an entry without an embedded file). */
  warnings: string[];
}

export interface NewDocumentAttachment {
  name: string;
  file: Uint8Array;
  fileName?: string | undefined;
  mediaType: string;
  description?: string | undefined;
  relationship?: AfRelationship | undefined;
  /** ISO 8601; absent: now. */
  created?: string | undefined;
  modified?: string | undefined;
  /** Replace an attachment of the same name (else 409 ATTACHMENT_EXISTS). */
  replace: boolean;
}

/** Factur-X 1.0 (= ZUGFeRD 2.1 and later) profiles: the XMP ConformanceLevel, the guideline ids, and the AFRelationship the specification asks for. */
export const FACTURX_PROFILES = {
  minimum: { level: 'MINIMUM', ids: ['urn:factur-x.eu:1p0:minimum'], relationship: 'Data' },
  basicwl: { level: 'BASIC WL', ids: ['urn:factur-x.eu:1p0:basicwl'], relationship: 'Data' },
  basic: { level: 'BASIC', ids: ['urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic'], relationship: 'Alternative' },
  en16931: { level: 'EN 16931', ids: ['urn:cen.eu:en16931:2017'], relationship: 'Alternative' },
  extended: { level: 'EXTENDED', ids: ['urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended'], relationship: 'Alternative' },
  xrechnung: { level: 'XRECHNUNG', ids: [], relationship: 'Alternative' },
} as const satisfies Record<string, { level: string; ids: readonly string[]; relationship: AfRelationship }>;
export type FacturxProfile = keyof typeof FACTURX_PROFILES;
/** The attachment's name Factur-X 1.0 requires for every profile. */
export const FACTURX_FILE_NAME = 'factur-x.xml';
