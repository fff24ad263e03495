/** Image tasks: an uploaded image made into a PDF. */
import { imageToPdf, type ImageMediaType } from './to-pdf.js';
import { validateUpload } from '../core/inspect.js';

export const imageTasks = {
  /** The PDF made from an image, with the summary an upload reports (page count, encryption). */
  imageToPdf: (input: { bytes: Uint8Array; mediaType: ImageMediaType }) => {
    const bytes = imageToPdf(input.bytes, input.mediaType);
    return { bytes, ...validateUpload({ pdf: bytes }) };
  },
};
