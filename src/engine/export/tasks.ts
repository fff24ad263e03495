/** Export tasks: a document (or its pages) as JSON, Markdown or HTML (docs/export.md). */
import { exportDocument } from './export.js';

export const exportTasks = { exportDocument };
