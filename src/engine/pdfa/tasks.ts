/** PDF/A tasks: the MuPDF half of a conversion (prepare.ts), the MuPDF path's last step (finish.ts), and a failed conversion's report marked in the document (mark.ts). */
import { pdfaFinish, pdfaWordCounts } from './finish.js';
import { pdfaMark } from './mark.js';
import { pdfaPrepare } from './prepare.js';

export const pdfaTasks = { pdfaPrepare, pdfaFinish, pdfaWordCounts, pdfaMark };
