/** Optimization tasks: LinearizeAction's checks before qpdf (linearize.ts) and OptimizeAction's work (optimize.ts). */
import { linearizeCheck, linearizeRewrite } from './linearize.js';
import { optimize } from './optimize.js';

export const optimizeTasks = { linearizeCheck, linearizeRewrite, optimize };
