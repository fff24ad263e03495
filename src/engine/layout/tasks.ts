/** Page layout tasks: N-up, booklet, poster, crop, scale to a paper size, page boxes (docs/page-layout.md). */
import { layoutPages } from './layout.js';

export const layoutTasks = { layoutPages };
