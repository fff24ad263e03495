/** Page number tasks: page and Bates numbers drawn on pages. */
import { pageNumbers, pageNumbersPlan } from './numbers.js';

export const numberTasks = { pageNumbers, pageNumbersPlan };
