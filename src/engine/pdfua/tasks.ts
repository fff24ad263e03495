/** PDF/UA tasks: a tagged PDF that Chromium printed finished for PDF/UA-1 (finish.ts), and the figures' alternate text read and written (figures.ts). */
import { listFigures, writeFigures } from './figures.js';
import { finishTaggedPdf } from './finish.js';

export const pdfuaTasks = { finishTaggedPdf, listFigures, writeFigures };
