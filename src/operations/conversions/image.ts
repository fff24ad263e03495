import { IMAGE_MEDIA_TYPES, type ImageMediaType, sniffImageType } from '../../engine/models.js';
import { PDF_TYPE } from './pdf.js';
import type { Converter } from './types.js';

/**
 * An image upload's options (query parameters; docs/accessibility.md, "Tagged output from converters"): `tagged` as
 * the other converters have it (default true), and for the tagged PDF the Figure's alternate text, the title (default:
 * the stored document's name) and the language (BCP 47).
 */
export interface ImageOptions {
  tagged?: boolean | undefined;
  alt?: string | undefined;
  title?: string | undefined;
  language?: string | undefined;
}

/**
 * JPEG, PNG, TIFF (every frame) and GIF images, one page per frame (engine/images). Tagged (the default): each page's
 * image is a Figure with the `alt` option as its alternate text, and the PDF is finished as a printed page is
 * (finishTaggedPdf: title, language, XMP, PDF/UA identification only when every Figure has its text).
 */
export const imageConverter: Converter = {
  name: 'image',
  takes: { kind: 'file', mediaTypes: IMAGE_MEDIA_TYPES, extensions: { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', tif: 'image/tiff', tiff: 'image/tiff', gif: 'image/gif' } },
  produces: PDF_TYPE,
  long: false,
  sniff: (head) => sniffImageType(head),
  async convert({ main, mediaType }, { engine, imageOptions = {}, name }) {
    const tagged = imageOptions.tagged ?? true;
    // The engine task decodes the image from bytes; the buffer is moved to the worker, not copied.
    const bytes = await main.content.read();
    const metadata = { title: imageOptions.title, fallbackTitle: name, language: imageOptions.language };
    const figure = tagged ? { alt: imageOptions.alt, metadata } : undefined;
    const { bytes: pdf, ...summary } = await engine.run('imageToPdf', { bytes, mediaType: mediaType as ImageMediaType, figure }, { transfer: [bytes] });
    return { content: pdf, mediaType: PDF_TYPE, summary };
  },
};
