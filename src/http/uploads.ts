import { PRINTED_CONVERTERS } from '../operations/conversions/html/converter.js';
import { converterNamed, mediaTypeOfExtension, UPLOAD_TYPES } from '../operations/conversions/registry.js';

export { UPLOAD_TYPES_TEXT } from '../operations/conversions/registry.js';

/** Streamed, never parsed by Fastify: routes stage them with the upload limit (operations/conversions/registry.ts lists them). */
export const BINARY_UPLOAD_TYPES = [...UPLOAD_TYPES];

/** The Office, HTML and Markdown converters' types: upload bodies of a document PUT only (app.ts). */
export const OFFICE_UPLOAD_TYPES: readonly string[] = ['office', ...PRINTED_CONVERTERS].flatMap((name) => converterNamed(name).takes.mediaTypes);

/** XFDF and FDF request bodies (application/fdf is not registered, but older tools send it): streamed, staged with their own limit. */
export const XFDF_BODY_TYPES = ['application/vnd.adobe.xfdf', 'application/vnd.fdf', 'application/fdf'];

/**
 * The media type of a file part from its declared type or, failing that, its name. A part without a Content-Type is
 * text/plain (RFC 7578, 4.4), and the multipart parser reports it so: a declared text/plain gives way to a name of
 * another type we take, or every PDF sent by a client that omits the part's type (Python's requests, among others)
 * would be refused as a PDF declared as text (docs/api.md, "The declared type and the content").
 */
export function mediaTypeOf(declared: string | undefined, fileName: string | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const ext = (fileName ?? '').toLowerCase().split('.').pop();
  const byName = ext ? mediaTypeOfExtension(ext) : undefined;
  if (type === 'text/plain' && byName) return byName;
  if (type && type !== 'application/octet-stream') return type === 'image/jpg' ? 'image/jpeg' : type;
  return byName || type || 'application/octet-stream';
}
