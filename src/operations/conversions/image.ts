import { IMAGE_MEDIA_TYPES, type ImageMediaType, sniffImageType } from '../../engine/models.js';
import { PDF_TYPE } from './pdf.js';
import type { Converter } from './types.js';

/** JPEG, PNG, TIFF (every frame) and GIF images, one page per frame (engine/images). */
export const imageConverter: Converter = {
  name: 'image',
  takes: { kind: 'file', mediaTypes: IMAGE_MEDIA_TYPES, extensions: { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', tif: 'image/tiff', tiff: 'image/tiff', gif: 'image/gif' } },
  produces: PDF_TYPE,
  long: false,
  sniff: (head) => sniffImageType(head),
  async convert({ main, mediaType }, { engine }) {
    // The engine task decodes the image from bytes; the buffer is moved to the worker, not copied.
    const bytes = await main.content.read();
    const { bytes: pdf, ...summary } = await engine.run('imageToPdf', { bytes, mediaType: mediaType as ImageMediaType }, { transfer: [bytes] });
    return { content: pdf, mediaType: PDF_TYPE, summary };
  },
};
