/** Split tasks: a document cut into several (docs/merge-split.md, "Split"). */
import { splitDocument } from './split.js';

export const splitTasks = { splitDocument };
