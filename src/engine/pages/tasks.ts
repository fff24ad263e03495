/** Page tasks: the page list, and page structure edits (insert, delete, move, rotate, extract). */
import { listPages } from './list.js';
import { editPages } from './assembly.js';

export const pageTasks = { listPages, editPages };
