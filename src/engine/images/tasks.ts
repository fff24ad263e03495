/** Image tasks: an uploaded image made into a PDF. */
import { imageToPdf, type ImageFigure, type ImageMediaType } from './to-pdf.js';
import { validateUpload } from '../core/inspect.js';
import { finishTaggedPdf, type TaggedPdfMetadata } from '../pdfua/finish.js';

export const imageTasks = {
  /**
   * The PDF made from an image, with the summary an upload reports (page count, encryption); with `figure`, tagged and
   * finished for PDF/UA as a printed page is (finishTaggedPdf: its title, language and XMP from `metadata`).
   */
  imageToPdf: (input: { bytes: Uint8Array; mediaType: ImageMediaType; figure?: (ImageFigure & { metadata: TaggedPdfMetadata }) | undefined }) => {
    const made = imageToPdf(input.bytes, input.mediaType, input.figure);
    const bytes = input.figure ? finishTaggedPdf({ pdf: made, metadata: input.figure.metadata }).bytes : made;
    return { bytes, ...validateUpload({ pdf: bytes }) };
  },
};
