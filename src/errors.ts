/**
 * The service's error catalog: every error a client can receive has a stable
 * `code` listed here with its HTTP status and title. docs/errors.md is checked
 * against this list by a test, so adding a code means documenting it.
 */
export const ERROR_CATALOG = {
  BAD_REQUEST: { status: 400, title: 'The request is invalid' },
  VALIDATION_FAILED: { status: 400, title: 'The request does not match the expected schema' },
  VERSION_READ_ONLY: { status: 400, title: 'A document version is read-only: versionId is for reads (restore it to write)' },
  INVALID_PATH: { status: 400, title: 'The path is not a valid document or folder path' },
  INVALID_ACTION: { status: 400, title: 'The action body must name exactly one known action' },
  MOVE_INTO_ITSELF: { status: 400, title: 'A document or folder cannot be moved onto its own path, nor a folder into itself' },
  WATCH_CYCLE: { status: 400, title: 'The watched folder\'s target would make outputs arrive again for ever (a cycle through watched folders)' },
  PIPELINE_STEP_INVALID: { status: 400, title: 'A step of the pipeline is refused by its action (the problem names the step and carries the action\'s own problem)' },
  MALFORMED_XML: { status: 400, title: 'The XML body is not well-formed or uses forbidden constructs' },
  MALFORMED_JSON: { status: 400, title: 'The JSON body is not well-formed' },
  MALFORMED_MULTIPART: { status: 400, title: 'The multipart body is malformed or misses a required part' },
  MALFORMED_XFDF: { status: 400, title: 'The XFDF body is not well-formed XFDF or uses forbidden constructs' },
  MALFORMED_FDF: { status: 400, title: 'The FDF body is not a readable FDF file' },
  MALFORMED_XMP: { status: 400, title: 'The XMP packet is not well-formed XML or not an XMP packet' },
  // Webhooks (docs/webhooks.md).
  WEBHOOK_URL_REFUSED: { status: 400, title: 'The webhook URL is not one the service may call: malformed, not http(s), not on the allow-list, or resolving to a non-public address not listed' },
  INVALID_SEARCH: { status: 400, title: 'The search term is empty or not a valid regular expression' },
  // Outline (docs/outline.md).
  OUTLINE_TOO_LARGE: { status: 400, title: 'The outline has too many items or too deep a nesting' },
  // Compare (docs/compare.md).
  COMPARE_TOO_LARGE: { status: 400, title: 'A document compared has more pages than compare takes' },
  // 400 for an index given in a query or body; 404 when the index is part of the URL path (the URL names no page).
  PAGE_OUT_OF_RANGE: { status: 400, pathStatus: 404, title: 'The page index is outside the document' },
  INVALID_PAGE_RANGE: { status: 400, title: 'The page range is malformed' },
  TABLE_OUT_OF_RANGE: { status: 400, title: 'The table number is past the last table exported' },
  UNKNOWN_FONT: { status: 400, title: 'The font name is not one the service has' },
  UNKNOWN_LANGUAGE: { status: 400, title: 'The OCR language is not installed' },
  KEYSTORE_INVALID: { status: 400, title: 'The key store is not a usable PKCS#12 file' },
  KEYSTORE_PASSWORD_INVALID: { status: 400, title: 'The key store or key password is wrong' },
  KEYSTORE_ALIAS_NOT_FOUND: { status: 400, title: 'The key store has no key with that alias' },
  KEYSTORE_NO_PRIVATE_KEY: { status: 400, title: 'The key store holds no private key' },
  OIDC_SIGNIN_STATE_INVALID: { status: 400, title: 'The sign-in\'s state is not one this browser began here' },
  UNSUPPORTED_CHARACTERS: { status: 400, title: 'The text has characters no font of the service can draw' },
  AUTHENTICATION_REQUIRED: { status: 401, title: 'A valid session or credentials are required' },
  INVALID_CREDENTIALS: { status: 401, title: 'The user name or password is wrong' },
  TOKEN_EXPIRED: { status: 401, title: 'The API token has expired' },
  // OpenID Connect bearer tokens (docs/oidc.md); both with WWW-Authenticate: Bearer error="invalid_token".
  OIDC_TOKEN_INVALID: { status: 401, title: 'The OpenID Connect access token is not valid here' },
  OIDC_TOKEN_EXPIRED: { status: 401, title: 'The OpenID Connect access token has expired' },
  // The console's sign-in through the issuer (docs/oidc.md, "Console sign-in").
  OIDC_SIGNIN_FAILED: { status: 401, title: 'Signing in through the OpenID Connect issuer did not succeed' },
  FORBIDDEN: { status: 403, title: 'The user lacks the right for this request' },
  CROSS_SITE_REQUEST: { status: 403, title: 'A state-changing request with the session cookie came from another site' },
  DOCUMENT_PASSWORD_REQUIRED: { status: 403, title: 'The document is encrypted and needs a password' },
  DOCUMENT_PASSWORD_INVALID: { status: 403, title: 'The document password is wrong' },
  DOCUMENT_PERMISSION_DENIED: { status: 403, title: 'The document permissions forbid this operation' },
  DMS_FORBIDDEN: { status: 403, title: 'The document server refused this request for the user' },
  // Web pages by URL (docs/html.md, "Web pages by URL").
  URL_FETCH_DISABLED: { status: 403, title: 'Web pages by URL are off: the operator has set no allow-list of origins' },
  URL_NOT_ALLOWED: { status: 403, title: 'The URL is not one the service may fetch: its origin is not allowed, or its name resolves to a non-public address' },
  DOCUMENT_NOT_FOUND: { status: 404, title: 'No such document' },
  VERSION_NOT_FOUND: { status: 404, title: 'The document has no version with that id' },
  XMP_NOT_FOUND: { status: 404, title: 'The document has no XMP metadata' },
  TRASH_ENTRY_NOT_FOUND: { status: 404, title: 'The trash has no entry with that id' },
  FOLDER_NOT_FOUND: { status: 404, title: 'No such folder' },
  USER_NOT_FOUND: { status: 404, title: 'No such user' },
  DMS_ACCOUNT_NOT_FOUND: { status: 404, title: 'The user has no mapped DMS account' },
  OIDC_SIGNIN_NOT_CONFIGURED: { status: 404, title: 'The service has no sign-in through an OpenID Connect issuer' },
  TOKEN_NOT_FOUND: { status: 404, title: 'No such API token' },
  JOB_NOT_FOUND: { status: 404, title: 'No such job' },
  JOB_RESULT_NOT_FOUND: { status: 404, title: 'The job has no result file' },
  PROFILE_NOT_FOUND: { status: 404, title: 'No such optimize profile' },
  // Pipelines (docs/pipelines.md).
  WATCHED_FOLDER_NOT_FOUND: { status: 404, title: 'No such watched folder of the user' },
  PIPELINE_NOT_FOUND: { status: 404, title: 'No such pipeline (or version of it) that the user may see' },
  ANNOTATION_NOT_FOUND: { status: 404, title: 'No such annotation' },
  ATTACHMENT_NOT_FOUND: { status: 404, title: 'No such attachment (or the FileAttachment annotation has no embedded file)' },
  FIELD_NOT_FOUND: { status: 404, title: 'No such form field' },
  // Figures (docs/accessibility.md): 400 for an index in a body, 404 when it is part of the URL path.
  FIGURE_NOT_FOUND: { status: 400, pathStatus: 404, title: 'The document has no Figure element at that index' },
  NOT_FOUND: { status: 404, title: 'No such resource' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'The resource does not support this method' },
  NOT_ACCEPTABLE: { status: 406, title: 'None of the accepted media types can be produced' },
  DMS_ACCOUNTS_NOT_USED: { status: 409, title: 'The service does not map users to DMS accounts (PDFSERVICE_WEBDAV_AUTH is not mapped)' },
  ALREADY_EXISTS: { status: 409, title: 'The target already exists' },
  // Document attachments (docs/attachments.md).
  ATTACHMENT_EXISTS: { status: 409, title: 'The document has an attachment of that name' },
  FOLDER_NOT_EMPTY: { status: 409, title: 'The folder is not empty' },
  PATH_CONFLICT: { status: 409, title: 'The path is used by an entry of another kind' },
  NOT_A_FILE_ATTACHMENT: { status: 409, title: 'The annotation is not a FileAttachment' },
  FIELD_READ_ONLY: { status: 409, title: 'The form field is read-only' },
  DOCUMENT_NOT_TAGGED: { status: 409, title: 'The document has no structure tree (it is not tagged)' },
  PROFILE_READ_ONLY: { status: 409, title: 'The optimize profile is built in and cannot be replaced or deleted' },
  FIELD_EXISTS: { status: 409, title: 'A form field of that name already exists' },
  FIELD_SIGNED: { status: 409, title: 'The signature field is signed already' },
  CERTIFICATION_NOT_FIRST: { status: 409, title: 'A certifying signature must be the document\'s first signature' },
  DOCUMENT_CERTIFIED: { status: 409, title: 'The document\'s certification forbids this change' },
  DOCUMENT_SIGNED: { status: 409, title: 'The change would invalidate the document\'s signatures' },
  TASK_CANCELLED: { status: 409, title: 'The work was cancelled before it finished' },
  JOB_FINISHED: { status: 409, title: 'The job has already ended' },
  VERSION_IS_CURRENT: { status: 409, title: 'The current version of a document cannot be deleted' },
  TRASH_PATH_TAKEN: { status: 409, title: 'A document or folder is at the path a trash entry would be restored to' },
  REQUEST_TIMEOUT: { status: 408, title: 'The request was not received in time' },
  DMS_LOCKED: { status: 423, title: 'The document server has the document locked for another client' },
  PRECONDITION_FAILED: { status: 412, title: 'The document changed: If-Match does not match its ETag' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is larger than allowed' },
  URI_TOO_LONG: { status: 414, title: 'The URL is longer than the service accepts' },
  UNSUPPORTED_SUBTYPE: { status: 400, title: 'This annotation subtype cannot be used here' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request media type is not supported here' },
  RANGE_NOT_SATISFIABLE: { status: 416, title: 'The requested range is outside the document' },
  PIPELINE_STEP_FAILED: { status: 422, title: 'A step of the pipeline failed; the document is unchanged (the problem names the step and carries its own problem)' },
  MALFORMED_PDF: { status: 422, title: 'The file is not a PDF that can be opened or repaired' },
  MALFORMED_IMAGE: { status: 422, title: 'The file is not a decodable image of the declared type' },
  MALFORMED_DOCUMENT: { status: 422, title: 'The file is not an Office document of the declared type that can be converted' },
  OFFICE_DOCUMENT_ENCRYPTED: { status: 422, title: 'The Office document is protected by a password; the service does not convert encrypted Office documents' },
  // A split (docs/merge-split.md) finds nowhere to cut: no top-level bookmark leads to a page, or every page is blank.
  NO_TEXT: { status: 422, title: 'The pages have no text to read (a scan without OCR?)' },
  NO_TABLES: { status: 422, title: 'The pages exported have no table to write as XLSX or CSV' },
  SPLIT_NOT_POSSIBLE: { status: 422, title: 'The document cannot be split that way' },
  IMAGE_TOO_LARGE: { status: 422, title: 'The image is larger than the service converts' },
  UNSUPPORTED_ENCRYPTION: { status: 422, title: 'The document uses an encryption the service cannot open' },
  REDACTION_INCOMPLETE: { status: 422, title: 'Redacted text would remain in the document; nothing was changed' },
  SANITIZE_INCOMPLETE: { status: 422, title: 'What sanitizing removes would remain in the document; nothing was changed' },
  PDFA_CONVERSION_FAILED: { status: 422, title: 'The document could not be converted to the PDF/A profile asked for; nothing was written' },
  // FacturXAction (docs/attachments.md).
  INVOICE_XML_INVALID: { status: 422, title: 'The invoice XML is not a Factur-X / ZUGFeRD (UN/CEFACT CII) invoice the service can attach' },
  DMS_ACCOUNT_REJECTED: { status: 422, title: 'The document server refused the DMS account\'s name and password' },
  PROCESSING_FAILED: { status: 422, title: 'The engine could not process this document' },
  OUTPUT_CHECK_FAILED: { status: 422, title: 'An external program wrote a file the service cannot use; nothing was written' },
  HTML_CONVERSION_FAILED: { status: 422, title: 'The page could not be converted to PDF; nothing was written' },
  URL_FETCH_FAILED: { status: 422, title: 'The web page could not be fetched; nothing was written' },
  CONVERSION_FAILED: { status: 422, title: 'The LibreOffice instance converting the document ended; nothing was written' },
  HEADERS_TOO_LARGE: { status: 431, title: 'The request line and headers are larger than the service accepts' },
  TOO_MANY_REQUESTS: { status: 429, title: 'Too many failed attempts; try again later' },
  INTERNAL_ERROR: { status: 500, title: 'The service failed unexpectedly' },
  TRASH_NOT_KEPT: { status: 501, title: 'This service keeps no trash (PDFSERVICE_TRASH is off): deletes erase' },
  MOVE_NOT_SUPPORTED: { status: 501, title: 'The document store cannot move documents or folders (docs/move.md)' },
  VERSIONS_NOT_KEPT: { status: 501, title: 'This service keeps no document versions (PDFSERVICE_VERSIONS is off)' },
  METHOD_NOT_IMPLEMENTED: { status: 501, title: 'The service implements this method for no resource' },
  COMPONENT_MISSING: { status: 503, title: 'A component this feature needs is not installed' },
  SERVICE_BUSY: { status: 503, title: 'The service is busy; try again later' },
  // Like SERVICE_BUSY, thrown with a Retry-After header (ServiceError's headers).
  DMS_UNAVAILABLE: { status: 503, title: 'The document server cannot be reached; try again later' },
  // Also with Retry-After: the S3 storage (PDFSERVICE_STORE=s3) did not answer, failed, or refused the service's key.
  STORE_UNAVAILABLE: { status: 503, title: 'The document storage cannot be reached; try again later' },
  // Also with Retry-After: the OpenID Connect issuer's discovery document or key set could not be fetched (docs/oidc.md).
  OIDC_PROVIDER_UNAVAILABLE: { status: 503, title: 'The OpenID Connect issuer cannot be reached; try again later' },
  // Also with Retry-After: the Redis the instances share (PDFSERVICE_REDIS_URL) did not answer.
  REDIS_UNAVAILABLE: { status: 503, title: 'The shared state of the service cannot be reached; try again later' },
  // Also with Retry-After: with Redis document locks (PDFSERVICE_REDIS_URL), the document stayed locked longer than PDFSERVICE_LOCK_WAIT_MS.
  DOCUMENT_LOCKED: { status: 503, title: 'Another request is changing the document; try again later' },
  // Also with Retry-After: the instance lost the document's Redis lock (its lease ran out) before writing; nothing was written.
  LOCK_LOST: { status: 503, title: 'The document lock ran out before the change was written; nothing was written, try again' },
  ENGINE_TIMEOUT: { status: 504, title: 'The document took too long to process' },
  DMS_INSUFFICIENT_STORAGE: { status: 507, title: 'The document server has no room for the document' },
} as const satisfies Record<string, { status: number; title: string; pathStatus?: number }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOG, code);
}

/** Where the value an error is about came from: `inPath` when it is part of the URL path. */
export interface ErrorOrigin {
  inPath?: boolean | undefined;
}

/**
 * The HTTP status of a code. A value that is part of the URL path names a
 * resource, so a code with a `pathStatus` (404 for a page) answers that
 * instead of its request status (400): the one place this is decided.
 */
export function errorStatus(code: ErrorCode, origin: ErrorOrigin = {}): number {
  const entry: { status: number; pathStatus?: number } = ERROR_CATALOG[code];
  return origin.inPath ? (entry.pathStatus ?? entry.status) : entry.status;
}

/** PAGE_OUT_OF_RANGE's detail, the same wherever an index is checked (engine or operations). */
export function pageOutOfRangeDetail(pageIndex: number, pageCount: number): string {
  return `pageIndex ${pageIndex} is outside the document (pages 0 to ${pageCount - 1})`;
}

/** An error meant for the client: its code, a user-safe detail, optional extra fields. */
export class ServiceError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
    readonly origin: ErrorOrigin = {},
  ) {
    super(detail ?? ERROR_CATALOG[code].title);
    this.name = 'ServiceError';
    this.status = errorStatus(code, origin);
  }
}
