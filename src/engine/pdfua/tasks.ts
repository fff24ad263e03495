/**
 * PDF/UA tasks: a tagged PDF that Chromium printed finished for PDF/UA-1 (finish.ts), the figures' alternate text read
 * and written (figures.ts), and an untagged document tagged (tag.ts, PDFUAConvertAction) with its PDF/UA claim taken
 * out when veraPDF does not pass it.
 */
import { listFigures, writeFigures } from './figures.js';
import { finishTaggedPdf, withoutPdfuaIdentification } from './finish.js';
import { tagForPdfua } from './tag.js';

export const pdfuaTasks = { finishTaggedPdf, listFigures, writeFigures, tagForPdfua, withoutPdfuaIdentification };
