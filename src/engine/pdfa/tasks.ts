/** PDF/A tasks: the MuPDF half of a conversion and the MuPDF path (prepare.ts with finish.ts), the text check of the Ghostscript path (text.ts), and a failed conversion's report marked in the document (mark.ts). */
import { pdfaMark } from './mark.js';
import { pdfaPrepare } from './prepare.js';
import { pdfaTextLoss } from './text.js';

export const pdfaTasks = { pdfaPrepare, pdfaTextLoss, pdfaMark };
