import { converterNamed, mediaTypeOfExtension, UPLOAD_TYPES } from '../operations/conversions/registry.js';

export { UPLOAD_TYPES_TEXT } from '../operations/conversions/registry.js';

/** Streamed, never parsed by Fastify: routes stage them with the upload limit (operations/conversions/registry.ts lists them). */
export const BINARY_UPLOAD_TYPES = [...UPLOAD_TYPES];

/** The Office converter's types: upload bodies of a document PUT only (app.ts). */
export const OFFICE_UPLOAD_TYPES: readonly string[] = converterNamed('office').takes.mediaTypes;

/** XFDF and FDF request bodies (application/fdf is not registered, but older tools send it): streamed, staged with their own limit. */
export const XFDF_BODY_TYPES = ['application/vnd.adobe.xfdf', 'application/vnd.fdf', 'application/fdf'];

/** The media type of a file part from its declared type or, failing that, its name. */
export function mediaTypeOf(declared: string | undefined, fileName: string | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && type !== 'application/octet-stream') return type === 'image/jpg' ? 'image/jpeg' : type;
  const ext = (fileName ?? '').toLowerCase().split('.').pop();
  return (ext && mediaTypeOfExtension(ext)) || type || 'application/octet-stream';
}
