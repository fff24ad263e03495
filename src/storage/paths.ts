import { ServiceError } from '../errors.js';

/**
 * Path safety, in one place. Every path a client names (in a URL or in a body
 * field such as `savePath`) becomes a StoredPath through this module and
 * nothing else; the store refuses anything that is not a StoredPath.
 *
 * Rules (docs/api.md#paths): segments separated by "/" (in a URL also by its
 * escape "%2F", which clients send when they encode a whole path as one
 * parameter), each decoded exactly once when it came from a URL; no empty, "." or ".." segment; no segment starting
 * with "." (reserved for the service's temporary files); no backslash, colon,
 * NUL or other control character; no trailing space or dot; no "%XX" left after
 * decoding (double encoding); at most 255 bytes a
 * segment, 1024 bytes and 32 segments in all. Folder names may not end in ".pdf"
 * because that suffix marks where a document path ends in a URL. The suffix is
 * matched without regard to case and a document's is always stored as ".pdf",
 * so "a.PDF" from a URL, a body or an upload names the one document "a.pdf".
 */
export class StoredPath {
  private constructor(readonly segments: readonly string[]) {}

  static readonly root = new StoredPath([]);

  /** For use by validated constructors below only. */
  static fromValidSegments(segments: readonly string[]): StoredPath {
    return new StoredPath([...segments]);
  }

  get isRoot(): boolean {
    return this.segments.length === 0;
  }
  get name(): string {
    return this.segments[this.segments.length - 1] ?? '';
  }
  get parent(): StoredPath {
    return new StoredPath(this.segments.slice(0, -1));
  }
  get isDocument(): boolean {
    return DOCUMENT_SUFFIX.test(this.name);
  }
  child(name: string): StoredPath {
    validateSegment(name);
    return new StoredPath([...this.segments, name]);
  }
  /** "a/b/c.pdf", no leading slash. */
  toString(): string {
    return this.segments.join('/');
  }
  /** The path as it appears in a URL, each segment percent-encoded. */
  toUrlPath(): string {
    return this.segments.map((s) => encodeURIComponent(s)).join('/');
  }
  equals(other: StoredPath): boolean {
    return this.toString() === other.toString();
  }
  /** Whether this path is `other` or below it (a folder moved into itself). */
  isWithin(other: StoredPath): boolean {
    return other.segments.length <= this.segments.length && other.segments.every((s, i) => s === this.segments[i]);
  }
}

const DOCUMENT_SUFFIX = /\.pdf$/i;
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 1024;
const MAX_DEPTH = 32;
// Control characters, backslash and colon (drive letters, alternate streams).
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f\\:]/;

function invalid(reason: string): ServiceError {
  return new ServiceError('INVALID_PATH', reason);
}

function validateSegment(segment: string): void {
  if (segment.length === 0) throw invalid('The path has an empty segment');
  if (segment === '.' || segment === '..') throw invalid('The path may not contain "." or ".." segments');
  if (segment.startsWith('.')) throw invalid('Names may not start with "."');
  if (segment.includes('/')) throw invalid('A name may not contain "/"');
  if (FORBIDDEN_CHARS.test(segment)) throw invalid('The path contains a forbidden character');
  if (/[ .]$/.test(segment)) throw invalid('Names may not end with a space or "."');
  // After the one decoding, a remaining escape means the client encoded twice: refuse rather than guess.
  if (/%[0-9a-f]{2}/i.test(segment)) throw invalid('Names may not contain percent-escapes after decoding (double encoding)');
  if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) throw invalid('A name is longer than 255 bytes');
  if (/[\ud800-\udfff]/.test(segment.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) {
    throw invalid('The path is not valid Unicode');
  }
}

function fromSegments(segments: string[], kind: 'document' | 'folder'): StoredPath {
  if (segments.length > MAX_DEPTH) throw invalid(`The path has more than ${MAX_DEPTH} segments`);
  segments.forEach(validateSegment);
  if (Buffer.byteLength(segments.join('/'), 'utf8') > MAX_PATH_BYTES) throw invalid('The path is longer than 1024 bytes');
  const folders = kind === 'document' ? segments.slice(0, -1) : segments;
  if (folders.some((s) => DOCUMENT_SUFFIX.test(s))) throw invalid('Folder names may not end in ".pdf"');
  if (kind === 'document') {
    if (segments.length === 0) throw invalid('A document path is empty');
    const last = segments.length - 1;
    if (!DOCUMENT_SUFFIX.test(segments[last]!)) throw invalid('A document path must end in ".pdf"');
    // URLs find documents by a lower-case ".pdf" (documentPathFromUrl): any other spelling would store a document no URL reaches.
    segments = [...segments.slice(0, last), segments[last]!.replace(DOCUMENT_SUFFIX, '.pdf')];
  }
  return StoredPath.fromValidSegments(segments);
}

function decodeOnce(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid('The path has an invalid percent-encoding');
  }
}

function splitRaw(raw: string): string[] {
  if (raw === '') return [];
  if (raw.startsWith('/')) throw invalid('Absolute paths are not allowed');
  return raw.split('/');
}

/**
 * A URL path's segments, still encoded: "%2F" (either case) separates them like "/". Splitting before
 * the one decoding keeps every name subject to the segment rules ("..%2F" is a ".." segment), and
 * "%252F" decodes to a literal "%2F", which the double-encoding rule refuses.
 */
function splitUrl(raw: string): string[] {
  if (/^%2f/i.test(raw)) throw invalid('Absolute paths are not allowed');
  return splitRaw(raw).flatMap((s) => s.split(/%2f/i));
}

/** A document path from a URL: the still-encoded path without ".pdf". */
export function documentPathFromUrl(rawWithoutExtension: string): StoredPath {
  const segments = splitUrl(rawWithoutExtension).map(decodeOnce);
  if (segments.length > 0) segments[segments.length - 1] += '.pdf';
  return fromSegments(segments, 'document');
}

/** A folder path from a URL ("" is the root folder). */
export function folderPathFromUrl(raw: string): StoredPath {
  // One trailing separator, "/" or "%2F", is allowed, as for any URL.
  const trimmed = raw.replace(/(\/|%2f)$/i, '');
  return fromSegments(splitUrl(trimmed).map(decodeOnce), 'folder');
}

/** A document path given in a request body (not percent-encoded), e.g. savePath. */
export function documentPathFromBody(value: string, field: string): StoredPath {
  try {
    return fromSegments(splitRaw(value), 'document');
  } catch (err) {
    if (err instanceof ServiceError) throw new ServiceError('INVALID_PATH', `${field}: ${err.detail}`);
    throw err;
  }
}

/** A folder path given in a request body (not percent-encoded; one trailing "/" allowed), not the root: a trash restore's savePath. */
export function folderPathFromBody(value: string, field: string): StoredPath {
  try {
    const folder = fromSegments(splitRaw(value.replace(/\/$/, '')), 'folder');
    if (folder.isRoot) throw invalid('A folder path is empty');
    return folder;
  } catch (err) {
    if (err instanceof ServiceError) throw new ServiceError('INVALID_PATH', `${field}: ${err.detail}`);
    throw err;
  }
}

/**
 * A name that is one path segment of a URL but not a document or folder (an
 * optimize profile's name): the segment rules above, so that every name the
 * service keeps can be written in a URL as it is. 400 INVALID_PATH naming `field`.
 */
export function checkName(value: string, field: string): void {
  try {
    validateSegment(value);
  } catch (err) {
    if (err instanceof ServiceError) throw new ServiceError('INVALID_PATH', `${field}: ${err.detail}`);
    throw err;
  }
}

/** Replaces a file name's extension with ".pdf" (uploads of images by form keep their base name). */
export function pdfNameFor(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return `${dot > 0 ? base.slice(0, dot) : base}.pdf`;
}

/*
 * The rules above as JSON Schema patterns, for the API description (clients and
 * fuzzers see them as schema). They describe the decoded path; the byte limits
 * are given as character counts (a character is at least one byte).
 */
const NAME_CHAR = String.raw`[^/\\:\x00-\x1f\x7f]`;
const FIRST_CHAR = String.raw`[^/\\:\x00-\x1f\x7f.]`;
const LAST_CHAR = String.raw`[^/\\:\x00-\x1f\x7f. ]`;
const SEGMENT = `(?:${FIRST_CHAR}${NAME_CHAR}{0,253}${LAST_CHAR}|${LAST_CHAR})`;
const NO_ESCAPES = '(?!.*%[0-9A-Fa-f]{2})';
const PDF = '\\.[pP][dD][fF]';

export const PATH_SCHEMAS = {
  /** A document path as in a URL: without the ".pdf" of its last segment. */
  documentWithoutSuffix: {
    type: 'string',
    pattern: `^${NO_ESCAPES}(?!.*${PDF}/)(?:${SEGMENT}/){0,${MAX_DEPTH - 1}}${FIRST_CHAR}${NAME_CHAR}{0,250}$`,
    minLength: 1,
    maxLength: MAX_PATH_BYTES - 4,
  },
  /** A folder path ("a/b"). */
  folder: {
    type: 'string',
    pattern: `^${NO_ESCAPES}(?!.*${PDF}(?:/|$))(?:${SEGMENT}/){0,${MAX_DEPTH - 1}}${SEGMENT}$`,
    minLength: 1,
    maxLength: MAX_PATH_BYTES,
  },
  /** A folder path in a body (a trash restore's savePath): folderPathFromBody's rules, one trailing "/" allowed. */
  folderInBody: {
    type: 'string',
    pattern: `^${NO_ESCAPES}(?!.*${PDF}(?:/|$))(?:${SEGMENT}/){0,${MAX_DEPTH - 1}}${SEGMENT}/?$`,
    minLength: 1,
    maxLength: MAX_PATH_BYTES,
  },
  /** A name that is one segment (an optimize profile's name): checkName's rules. */
  name: {
    type: 'string',
    pattern: `^${NO_ESCAPES}${SEGMENT}$`,
    minLength: 1,
    maxLength: MAX_SEGMENT_BYTES,
  },
  /** A document path in a body (`savePath`): "folder/name.pdf". */
  document: {
    type: 'string',
    pattern: `^${NO_ESCAPES}(?!.*${PDF}/)(?:${SEGMENT}/){0,${MAX_DEPTH - 1}}${FIRST_CHAR}${NAME_CHAR}{0,250}${PDF}$`,
    minLength: 5,
    maxLength: MAX_PATH_BYTES,
  },
} as const;

/**
 * The keys of action body properties that are stored documents' paths (savePath; actions/types.ts's
 * DOCUMENT_PATH_PARAM): the API description gives each PATH_SCHEMAS.document.
 */
export const BODY_DOCUMENT_PATH_KEYS: readonly string[] = ['savePath', 'filePath', 'appendFilePath'];
