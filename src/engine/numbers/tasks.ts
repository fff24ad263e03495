/** Page number tasks: page and Bates numbers drawn on pages. */
import { pageNumbers } from './numbers.js';

export const numberTasks = { pageNumbers };
