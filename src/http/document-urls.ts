import type { StoredPath } from '../storage/paths.js';

/**
 * Document paths may contain folders ("/documents/a/b/c.pdf/annotations"), which
 * a router cannot tell apart from sub-resources. Before routing, the path up to
 * the first segment ending in ".pdf" is packed into one URL segment (still
 * percent-encoded inside, so path safety decodes it exactly once), and a folder
 * path is packed likewise. Routes then read `:filePath` or `:folderPath`.
 * A client may also send the folders of a path as "%2F" inside one segment
 * (generated clients encode `{filePath}` as one parameter): that stays inside
 * the packed segment and path safety splits it (storage/paths.ts).
 * Answers and logs show the URL as sent (request.originalUrl), never the packed one.
 */
export const DOCUMENTS_PREFIX = '/pdfservice/v1/documents';

export function packDocumentUrl(url: string): string {
  if (!url.startsWith(`${DOCUMENTS_PREFIX}/`)) return url;
  const q = url.indexOf('?');
  const pathPart = q >= 0 ? url.slice(0, q) : url;
  const query = q >= 0 ? url.slice(q) : '';
  const remainder = pathPart.slice(DOCUMENTS_PREFIX.length + 1);
  if (remainder === '') return DOCUMENTS_PREFIX + query;
  const segments = remainder.split('/');
  const docEnd = segments.findIndex((s) => s.toLowerCase().endsWith('.pdf'));
  if (docEnd < 0) return `${DOCUMENTS_PREFIX}/${encodeURIComponent(remainder)}${query}`;
  const docRaw = segments.slice(0, docEnd + 1).join('/').slice(0, -'.pdf'.length);
  const rest = segments.slice(docEnd + 1);
  // An empty name ("/.pdf") still packs to a non-empty segment so the route matches and path safety rejects it.
  const packed = docRaw === '' ? '%2F' : encodeURIComponent(docRaw);
  return `${DOCUMENTS_PREFIX}/${packed}.pdf${rest.length ? `/${rest.join('/')}` : ''}${query}`;
}

/**
 * The URL of a stored document or folder, optionally of one of its sub-resources.
 * Every segment is percent-encoded here, so Location headers never build it by hand.
 */
export function documentUrl(path: StoredPath, ...subresource: string[]): string {
  return [DOCUMENTS_PREFIX, path.toUrlPath(), ...subresource.map((s) => encodeURIComponent(s))].join('/');
}
