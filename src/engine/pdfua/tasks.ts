/**
 * PDF/UA tasks: a tagged PDF that Chromium printed finished for PDF/UA-1 (finish.ts: metadata, links, structure,
 * artifacts); an untagged document tagged (tag.ts, PDFUAConvertAction) and its PDF/UA claim taken out when veraPDF
 * does not pass it.
 */
import { finishTaggedPdf, withoutPdfuaIdentification } from './finish.js';
import { tagForPdfua } from './tag.js';

export const pdfuaTasks = { finishTaggedPdf, tagForPdfua, withoutPdfuaIdentification };
