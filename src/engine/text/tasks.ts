/** Text tasks: a whole document's text (with progress), and one page's text with its layout. */
import { documentText, pageText } from './extraction.js';

export const textTasks = { documentText, pageText };
