/** The core's tasks: what every upload and document listing needs (its facts, and whether it opens at all). */
import { inspect, validateUpload } from './inspect.js';

export const coreTasks = { inspect, validateUpload };
