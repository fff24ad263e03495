/** Outline tasks: the bookmarks read as a tree, and replaced. */
import { readOutline, writeOutline } from './outline.js';

export const outlineTasks = { readOutline, writeOutline };
