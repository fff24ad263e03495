/** Preflight tasks: PDF/X rules over the object model (PDF/A is veraPDF's, in tools/verapdf.ts). */
import { preflightPdfx } from './pdfx.js';

export const preflightTasks = { preflightPdfx };
