/** Tasks that find pages to remove: blank ones (by their rendered ink) and ones with a given text. */
import { pageInk } from './ink.js';
import { pagesWithText } from './text.js';

export const blankTasks = { pageInk, pagesWithText };
