/** Redaction tasks: marking text with Redact annotations, and applying them (content removed, result verified). */
import { createRedactions } from './mark.js';
import { applyRedactions } from './apply.js';

export const redactionTasks = { createRedactions, applyRedactions };
