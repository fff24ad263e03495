/** Merge tasks: several documents into a new one (issue 40). */
import { mergeDocuments } from './merge.js';

export const mergeTasks = { mergeDocuments };
