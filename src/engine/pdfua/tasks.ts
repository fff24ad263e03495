/** PDF/UA tasks: a tagged PDF that Chromium printed finished for PDF/UA-1 (finish.ts: metadata, links, structure, artifacts). */
import { finishTaggedPdf } from './finish.js';

export const pdfuaTasks = { finishTaggedPdf };
