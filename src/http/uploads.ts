import { IMAGE_TYPES, PDF_TYPE, WORD_TYPES } from '../operations/media-types.js';

/** Streamed, never parsed by Fastify: routes stage them with the upload limit. */
export const BINARY_UPLOAD_TYPES = [PDF_TYPE, ...IMAGE_TYPES, ...WORD_TYPES, 'application/octet-stream'];

/** XFDF and FDF request bodies (application/fdf is not registered, but older tools send it): streamed, staged with their own limit. */
export const XFDF_BODY_TYPES = ['application/vnd.adobe.xfdf', 'application/vnd.fdf', 'application/fdf'];

/** The media type of a file part from its declared type or, failing that, its name. */
export function mediaTypeOf(declared: string | undefined, fileName: string | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && type !== 'application/octet-stream') return type === 'image/jpg' ? 'image/jpeg' : type;
  const ext = (fileName ?? '').toLowerCase().split('.').pop();
  const byExtension: Record<string, string> = {
    pdf: PDF_TYPE,
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    tif: 'image/tiff',
    tiff: 'image/tiff',
    gif: 'image/gif',
    doc: WORD_TYPES[0],
    docx: WORD_TYPES[1],
  };
  return (ext && byExtension[ext]) || type || 'application/octet-stream';
}
