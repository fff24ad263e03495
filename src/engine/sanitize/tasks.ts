/** Sanitize tasks: removing active and hidden content (docs/sanitize.md). */
import { sanitize } from './sanitize.js';

export const sanitizeTasks = { sanitize };
