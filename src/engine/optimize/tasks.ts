/** Optimization tasks: LinearizeAction's checks before qpdf (linearize.ts); OptimizeAction's work will join them. */
import { linearizeCheck } from './linearize.js';

export const optimizeTasks = { linearizeCheck };
