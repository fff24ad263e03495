/** Stamp tasks: text and image stamps drawn onto pages. */
import { imageStamp, textStamp } from './stamps.js';

export const stampTasks = { textStamp, imageStamp };
