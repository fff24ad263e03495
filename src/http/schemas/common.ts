/** JSON schemas shared by routes: they validate requests and make the OpenAPI description. */

/**
 * A non-empty text field that an XML body may carry: XML 1.0 cannot hold C0 control characters
 * other than tab, LF and CR (nor U+FFFE/U+FFFF), so such a value would arrive empty or altered
 * through XML; it is refused in JSON too, so both forms accept the same values.
 */
export const XML_TEXT_PATTERN = '^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff]*$';
export const problemSchema = {
  $id: 'Problem',
  type: 'object',
  description: 'RFC 9457 problem document; `code` is stable (docs/errors.md). As XML: <Error> with the same child elements.',
  properties: {
    type: { type: 'string', examples: ['urn:pdfservice:error:DOCUMENT_NOT_FOUND'] },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string', examples: ['DOCUMENT_NOT_FOUND'] },
    detail: { type: 'string' },
    instance: { type: 'string' },
    requestId: { type: 'string' },
  },
  required: ['type', 'title', 'status', 'code'],
} as const;

export const documentModelSchema = {
  title: 'DocumentModel',
  type: 'object',
  description: 'DocumentModel (XML: <Document>). Content fields appear when the document could be opened.',
  properties: {
    path: { type: 'string', examples: ['/reports/2026/q1.pdf'] },
    name: { type: 'string' },
    size: { type: 'integer', description: 'Bytes' },
    modified: { type: 'string', format: 'date-time' },
    etag: { type: 'string', description: 'Strong entity tag (content hash), as in the ETag header' },
    encrypted: { type: 'boolean' },
    pageCount: { type: 'integer' },
    pdfVersion: { type: 'string', examples: ['1.7'] },
    title: { type: 'string' },
    author: { type: 'string' },
    subject: { type: 'string' },
    keywords: { type: 'string' },
    creator: { type: 'string' },
    producer: { type: 'string' },
    creationDate: { type: 'string', format: 'date-time' },
    modificationDate: { type: 'string', format: 'date-time' },
    hasForm: { type: 'boolean' },
    hasXfa: { type: 'boolean' },
    hasSignatures: { type: 'boolean', description: 'A signature field carries a signature' },
    linearized: { type: 'boolean', description: 'Linearized (fast web view) as qpdf decides it: false once an incremental update follows the linearized file' },
    versionsPurged: {
      type: 'integer',
      minimum: 0,
      description: 'After an action that removes content (ApplyRedactionsAction, without keepVersions): how many earlier versions of the document were removed (docs/versions.md)',
    },
    report: { type: 'object', additionalProperties: true, description: 'What a document action did, when it reports (ApplyRedactionsAction: applied, pages, removedAnnotations, elsewhere, scrubbed)' },
  },
  required: ['path', 'name', 'size', 'modified', 'etag', 'encrypted'],
} as const;

export const folderModelSchema = {
  title: 'FolderModel',
  type: 'object',
  description: 'FolderModel (XML: <Folder> with <entries><entry>…</entry></entries>).',
  properties: {
    path: { type: 'string' },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          path: { type: 'string' },
          type: { type: 'string', enum: ['document', 'folder'] },
          size: { type: 'integer' },
          modified: { type: 'string', format: 'date-time' },
          pageCount: { type: 'integer', description: 'With ?details=true, when the document opens without a password' },
          encrypted: { type: 'boolean', description: 'With ?details=true' },
        },
        required: ['name', 'path', 'type', 'modified'],
      },
    },
  },
  required: ['path', 'entries'],
} as const;

/** A rectangle as the service gives every one: PDF user space, points, origin at the lower left of the page. */
export const rectangleSchema = {
  title: 'Rectangle',
  type: 'object',
  description: 'PDF user space, points, origin at the lower left of the page',
  properties: { x: { type: 'number' }, y: { type: 'number' }, width: { type: 'number' }, height: { type: 'number' } },
  required: ['x', 'y', 'width', 'height'],
} as const;

export const documentPasswordHeader = {
  'x-service-documentpassword': {
    type: 'string',
    description: "Password of an encrypted document (user or owner password). A password with spaces at either end: UTF-8'' and the password percent-encoded (RFC 8187), e.g. UTF-8''%20",
  },
  'x-service-documentpassword-base64': { type: 'string', description: 'The same password as base64 of its UTF-8 bytes, instead of X-Service-DocumentPassword' },
} as const;

export const filePathParams = {
  type: 'object',
  properties: {
    filePath: {
      type: 'string',
      description: 'Path of the document without ".pdf"; may contain folders ("a/b/report"). Percent-encode each segment once.',
      examples: ['reports/2026/q1'],
    },
  },
  required: ['filePath'],
} as const;

export const folderPathParams = {
  type: 'object',
  properties: { folderPath: { type: 'string', description: 'Folder path ("a/b"); percent-encode each segment once.', examples: ['reports/2026'] } },
  required: ['folderPath'],
} as const;

export const namingModeQuery = {
  namingMode: {
    type: 'integer',
    enum: [0, 1, 2],
    default: 0,
    description: 'When the name exists: 0 fail with 409, 1 overwrite, 2 append a random number to the name',
  },
} as const;

/** The 304 of the routes that answer with sendVersionedModel (rendered-cache.ts) or check If-None-Match themselves. */
export const notModifiedResponse = { 304: { description: 'Not modified: If-None-Match holds the current ETag', type: 'null' } } as const;

/** Error responses of every route, for the OpenAPI description (errors are sent pre-rendered). */
export const errorResponses = {
  '4xx': { $ref: 'Problem#' },
  '5xx': { $ref: 'Problem#' },
} as const;

/** A pattern that matches any of `values` in any letter case (JSON Schema patterns have no flags). */
export function anyCasePattern(values: readonly string[]): string {
  const anyCase = (v: string) => v.replace(/[a-z]/gi, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
  return `^(?:${values.map(anyCase).join('|')})$`;
}

/**
 * One step of a one-shot conversion or a pipeline (POST /convert's `steps`, PUT /pipelines' `steps`): an action as
 * POST /documents/{filePath}.pdf takes it, without the parameters of a stored result (ActionRunner.stepActions). One
 * titled schema, so the API description (and the clients made from it) has one ActionStep for both.
 */
export function actionStepSchema(steps: readonly { action: { name: string; summary: string }; schema: Record<string, unknown> }[]) {
  return {
    title: 'ActionStep',
    type: 'object',
    description: 'An action as POST /documents/{filePath}.pdf takes it (one key naming the action, holding its parameters), without savePath and namingMode',
    minProperties: 1,
    maxProperties: 1,
    properties: Object.fromEntries(steps.map(({ action, schema }) => [action.name, { ...schema, description: action.summary }])),
  } as const;
}
