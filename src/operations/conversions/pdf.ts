import { engineSource } from '../documents.js';
import type { Converter } from './types.js';

export const PDF_TYPE = 'application/pdf';

/**
 * A PDF upload, stored as it is once the engine has opened it (422 otherwise). The engine reads the staged file
 * through its descriptor when the store keeps one (documents.ts engineSource): this thread never holds a copy.
 */
export const pdfConverter: Converter = {
  name: 'pdf',
  takes: { kind: 'file', mediaTypes: [PDF_TYPE], extensions: { pdf: PDF_TYPE } },
  produces: PDF_TYPE,
  long: false,
  // Last in the registry: what no other converter recognises is taken for a PDF and checked as one.
  sniff: () => PDF_TYPE,
  async convert({ main }, { engine }) {
    const content = await main.content.open();
    try {
      const pdf = await engineSource(content);
      const summary = await engine.run('validateUpload', { pdf }, { transfer: [pdf] });
      return { content: main.content, mediaType: PDF_TYPE, summary };
    } finally {
      await content.close();
    }
  },
};
